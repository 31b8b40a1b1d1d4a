//! Reading `mongoimport --type json` input (mongo-tools `mongoimport/json.go`): a stream of JSON
//! objects separated by any whitespace (one per line as mongoexport writes them), or with
//! `--jsonArray` one array of objects. A leading UTF-8 byte order mark is skipped. Each object is
//! Extended JSON v2, relaxed or canonical, as the Go driver's `bson.UnmarshalExtJSON` reads it:
//! an integer that fits in 32 bits is an int32, a larger one an int64, one beyond 64 bits or any
//! number with a fraction or exponent a double.
//!
//! Everything is parsed before anything is imported; an error names the line and column (and the
//! document's number) where the input stops making sense.

use bson::Document;
use serde_json::Value;

use super::mongoexport::JsonLayout;
use crate::error::{Error, ErrorCode, Result};
use crate::value::extjson::parse_document;

/// One parsed document and the line (1-based) it starts on.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportedDocument {
    pub line: usize,
    pub document: Document,
}

/// Parses the whole input.
pub fn parse_json_import(text: &str, layout: JsonLayout) -> Result<Vec<ImportedDocument>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut scanner = Scanner { text, pos: 0 };
    let mut docs = Vec::new();
    match layout {
        JsonLayout::Lines => {
            while scanner.skip_whitespace() {
                let doc = scanner.document(docs.len() + 1)?;
                docs.push(doc);
            }
        }
        JsonLayout::Array => {
            if !scanner.skip_whitespace() || scanner.peek() != Some('[') {
                return Err(scanner.error(
                    "bad JSON array format - found no opening bracket '[' in input source",
                ));
            }
            scanner.pos += 1;
            scanner.skip_whitespace();
            if scanner.peek() == Some(']') {
                scanner.pos += 1;
            } else {
                loop {
                    let doc = scanner.document(docs.len() + 1)?;
                    docs.push(doc);
                    scanner.skip_whitespace();
                    match scanner.peek() {
                        Some(',') => {
                            scanner.pos += 1;
                            scanner.skip_whitespace();
                        }
                        Some(']') => {
                            scanner.pos += 1;
                            break;
                        }
                        None => {
                            return Err(scanner.error(
                                "bad JSON array format - found no closing bracket ']' in input source",
                            ));
                        }
                        Some(c) => {
                            return Err(scanner.error(&format!(
                                "bad JSON array format - found '{c}' outside JSON object/array in input source"
                            )));
                        }
                    }
                }
            }
            if scanner.skip_whitespace()
                && let Some(c) = scanner.peek()
            {
                return Err(scanner.error(&format!(
                    "bad JSON array format - found '{c}' after ']' in input source"
                )));
            }
        }
    }
    Ok(docs)
}

struct Scanner<'a> {
    text: &'a str,
    pos: usize,
}

impl Scanner<'_> {
    /// Skips whitespace; true when input remains.
    fn skip_whitespace(&mut self) -> bool {
        let rest = &self.text[self.pos..];
        let trimmed = rest.trim_start_matches([' ', '\t', '\n', '\r']);
        self.pos += rest.len() - trimmed.len();
        !trimmed.is_empty()
    }

    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    /// (line, column) of a byte offset, both from 1; columns count characters.
    fn line_column(&self, offset: usize) -> (usize, usize) {
        let before = &self.text[..offset];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        (line, before[line_start..].chars().count() + 1)
    }

    fn error(&self, message: &str) -> Error {
        let (line, column) = self.line_column(self.pos);
        Error::new(
            ErrorCode::FailedToParse,
            format!("line {line}, column {column}: {message}"),
        )
    }

    /// Reads the JSON object at the current position as document number `number`.
    fn document(&mut self, number: usize) -> Result<ImportedDocument> {
        let start = self.pos;
        let (line, column) = self.line_column(start);
        let mut stream =
            serde_json::Deserializer::from_str(&self.text[start..]).into_iter::<Value>();
        let value = match stream.next() {
            Some(Ok(value)) => value,
            Some(Err(e)) => {
                // serde_json counts lines and columns from the start of the slice.
                let (err_line, err_column) = if e.line() <= 1 {
                    (line, column + e.column().saturating_sub(1))
                } else {
                    (line + e.line() - 1, e.column())
                };
                let message = e.to_string();
                let message = message
                    .rsplit_once(" at line ")
                    .map_or(message.as_str(), |(m, _)| m);
                return Err(Error::new(
                    ErrorCode::FailedToParse,
                    format!(
                        "line {err_line}, column {err_column}: error processing document #{number}: {message}"
                    ),
                ));
            }
            None => return Err(self.error("unexpected end of input")),
        };
        self.pos = start + stream.byte_offset();
        if !value.is_object() {
            return Err(Error::new(
                ErrorCode::FailedToParse,
                format!(
                    "line {line}, column {column}: error processing document #{number}: expected a document (a JSON object), found {}",
                    json_kind(&value)
                ),
            ));
        }
        let document = parse_document(value).map_err(|e| {
            Error::new(
                ErrorCode::FailedToParse,
                format!(
                    "line {line}, column {column}: error processing document #{number}: {}",
                    e.message
                ),
            )
        })?;
        Ok(ImportedDocument { line, document })
    }
}

fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::{Bson, doc};

    fn docs(text: &str, layout: JsonLayout) -> Vec<Document> {
        parse_json_import(text, layout)
            .unwrap()
            .into_iter()
            .map(|d| d.document)
            .collect()
    }

    #[test]
    fn numbers_take_the_go_drivers_types() {
        let got = docs(
            "{\"a\":1,\"b\":3000000000,\"c\":1.0,\"d\":1E+06,\"e\":18446744073709551615}\n",
            JsonLayout::Lines,
        );
        assert_eq!(
            got,
            vec![
                doc! {"a": 1, "b": 3_000_000_000_i64, "c": 1.0, "d": 1e6, "e": 18446744073709551615.0}
            ]
        );
    }

    #[test]
    fn objects_may_be_separated_by_any_whitespace() {
        let got = parse_json_import(
            "\u{feff}{\"a\":1} {\"a\":2}\n\n  {\"a\":\n3}",
            JsonLayout::Lines,
        )
        .unwrap();
        let lines: Vec<usize> = got.iter().map(|d| d.line).collect();
        assert_eq!(lines, vec![1, 1, 3]);
        assert_eq!(got[2].document.get("a"), Some(&Bson::Int32(3)));
        assert!(docs("", JsonLayout::Lines).is_empty());
        assert!(docs(" [ ] ", JsonLayout::Array).is_empty());
    }

    #[test]
    fn arrays_hold_documents() {
        let got = docs(
            "[{\"_id\":{\"$oid\":\"5f0c1e2d3b4a596877665544\"}},\n {\"x\":{\"$numberLong\":\"5\"}}]\n",
            JsonLayout::Array,
        );
        assert_eq!(got.len(), 2);
        assert_eq!(got[1].get("x"), Some(&Bson::Int64(5)));
    }

    #[test]
    fn errors_name_the_line() {
        let err = |text: &str, layout| parse_json_import(text, layout).unwrap_err().message;
        let e = err("{\"a\":1}\n{\"a\":2}\n{\"a\":}\n", JsonLayout::Lines);
        assert!(
            e.starts_with("line 3, column 6: error processing document #3"),
            "{e}"
        );
        let e = err("{\"a\":1}\n[1]\n", JsonLayout::Lines);
        assert!(
            e.starts_with("line 2, column 1:") && e.contains("an array"),
            "{e}"
        );
        let e = err("{\"a\":1}\n{\"d\":{\"$date\":42}}", JsonLayout::Lines);
        assert!(
            e.starts_with("line 2, column 1: error processing document #2"),
            "{e}"
        );
        let e = err("{\"a\":1}", JsonLayout::Array);
        assert!(e.contains("no opening bracket"), "{e}");
        let e = err("[{\"a\":1},\n{\"a\":2}", JsonLayout::Array);
        assert!(
            e.contains("no closing bracket") && e.starts_with("line 2"),
            "{e}"
        );
        let e = err("[{\"a\":1}] x", JsonLayout::Array);
        assert!(e.contains("found 'x' after ']'"), "{e}");
        let e = err("[{\"a\":1} {\"a\":2}]", JsonLayout::Array);
        assert!(e.contains("found '{' outside"), "{e}");
    }
}
