//! Extended JSON and hex helpers shared by the runners.

use bson::{Bson, Document};
use serde_json::Value;

/// Decodes a hex string (either case); `None` on odd length or a non-hex digit.
pub fn hex_decode(text: &str) -> Option<Vec<u8>> {
    let bytes = text.as_bytes();
    if !bytes.len().is_multiple_of(2) {
        return None;
    }
    let digit = |c: u8| -> Option<u8> {
        match c {
            b'0'..=b'9' => Some(c - b'0'),
            b'a'..=b'f' => Some(c - b'a' + 10),
            b'A'..=b'F' => Some(c - b'A' + 10),
            _ => None,
        }
    };
    bytes
        .chunks(2)
        .map(|pair| Some(digit(pair[0])? * 16 + digit(pair[1])?))
        .collect()
}

/// Upper-case hex, as the BSON corpus writes it.
pub fn hex_encode(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02X}")).collect()
}

/// Compact JSON text (key order kept), the form JSON values are compared in.
pub fn compact(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| format!("<unserialisable: {e}>"))
}

/// Canonical Extended JSON text of a value, by the engine's writer (the specification's form:
/// a NaN is `"NaN"` whatever its sign bit, large doubles use an exponent).
pub fn canonical(value: &Bson) -> String {
    compact(&engine::value::extjson::to_canonical(value))
}

/// Relaxed Extended JSON text of a value, by the engine's writer.
pub fn relaxed(value: &Bson) -> String {
    compact(&engine::value::extjson::to_relaxed(value))
}

/// Canonical Extended JSON text of a document.
pub fn canonical_doc(doc: &Document) -> String {
    canonical(&Bson::Document(doc.clone()))
}

/// Parses Extended JSON text into a value.
pub fn parse_bson(text: &str) -> Result<Bson, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("invalid JSON: {e}"))?;
    engine::value::extjson::parse_value(value).map_err(|e| e.message)
}

/// Parses Extended JSON text that must hold a document.
pub fn parse_doc(text: &str) -> Result<Document, String> {
    match parse_bson(text)? {
        Bson::Document(d) => Ok(d),
        other => Err(format!("expected a document, got {}", canonical(&other))),
    }
}

/// Parses the relaxed JSON some transcripts use: bare `NaN`, `Infinity` and `-Infinity`
/// become `$numberDouble`, trailing commas before `}` or `]` are dropped, and the integer
/// literal `-0` is the int32 0 (as MongoDB's JSON parsers read it; `serde_json` would make it
/// the double -0.0).
pub fn parse_lenient(text: &str) -> Result<Bson, String> {
    if has_negative_zero(text) {
        return parse_bson(&lenient_rewrite(text));
    }
    match parse_bson(text) {
        Ok(v) => Ok(v),
        Err(first) => {
            let fixed = lenient_rewrite(text);
            if fixed == text {
                Err(first)
            } else {
                parse_bson(&fixed)
            }
        }
    }
}

/// Like [`parse_lenient`], for a document.
pub fn parse_lenient_doc(text: &str) -> Result<Document, String> {
    match parse_lenient(text)? {
        Bson::Document(d) => Ok(d),
        other => Err(format!("expected a document, got {}", canonical(&other))),
    }
}

/// Whether the text has the integer literal `-0` outside strings.
fn has_negative_zero(text: &str) -> bool {
    text.contains("-0") && lenient_rewrite(text) != text
}

fn lenient_rewrite(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 16);
    let mut i = 0;
    let mut in_string = false;
    while i < chars.len() {
        let c = chars[i];
        if in_string {
            out.push(c);
            if c == '\\' {
                if let Some(next) = chars.get(i + 1) {
                    out.push(*next);
                    i += 1;
                }
            } else if c == '"' {
                in_string = false;
            }
            i += 1;
            continue;
        }
        let rest: String = chars[i..chars.len().min(i + 9)].iter().collect();
        let word_start = i == 0 || !chars[i - 1].is_alphanumeric();
        if c == '"' {
            in_string = true;
            out.push(c);
            i += 1;
        } else if word_start && rest.starts_with("-Infinity") {
            out.push_str(r#"{"$numberDouble": "-Infinity"}"#);
            i += 9;
        } else if word_start && rest.starts_with("Infinity") {
            out.push_str(r#"{"$numberDouble": "Infinity"}"#);
            i += 8;
        } else if word_start && rest.starts_with("-NaN") {
            out.push_str(r#"{"$numberDouble": "NaN"}"#);
            i += 4;
        } else if word_start && rest.starts_with("NaN") {
            out.push_str(r#"{"$numberDouble": "NaN"}"#);
            i += 3;
        } else if c == '-'
            && chars.get(i + 1) == Some(&'0')
            && !chars
                .get(i + 2)
                .is_some_and(|n| n.is_ascii_digit() || matches!(n, '.' | 'e' | 'E'))
            && (i == 0 || !chars[i - 1].is_alphanumeric())
        {
            out.push('0');
            i += 2;
        } else if c == ',' {
            let mut j = i + 1;
            while j < chars.len() && chars[j].is_whitespace() {
                j += 1;
            }
            if j < chars.len() && (chars[j] == '}' || chars[j] == ']') {
                i += 1;
            } else {
                out.push(c);
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Whether JSON text has an object with a repeated key (which `serde_json` would collapse,
/// while BSON keeps both fields). Malformed text answers `false`.
pub fn has_duplicate_keys(text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    // One entry per open container: `Some(keys)` for an object, `None` for an array.
    let mut stack: Vec<Option<std::collections::HashSet<String>>> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '{' => stack.push(Some(std::collections::HashSet::new())),
            '[' => stack.push(None),
            '}' | ']' => {
                stack.pop();
            }
            '"' => {
                let mut s = String::new();
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    if chars[i] == '\\' && i + 1 < chars.len() {
                        s.push(chars[i]);
                        i += 1;
                    }
                    s.push(chars[i]);
                    i += 1;
                }
                let mut j = i + 1;
                while j < chars.len() && chars[j].is_whitespace() {
                    j += 1;
                }
                if j < chars.len()
                    && chars[j] == ':'
                    && let Some(Some(keys)) = stack.last_mut()
                    && !keys.insert(s)
                {
                    return true;
                }
            }
            _ => {}
        }
        i += 1;
    }
    false
}

/// The number a value holds when it is int32, int64 or double (for loose numeric equality).
pub fn as_f64(value: &Bson) -> Option<f64> {
    match value {
        Bson::Int32(i) => Some(f64::from(*i)),
        Bson::Int64(i) => Some(*i as f64),
        Bson::Double(d) => Some(*d),
        _ => None,
    }
}

/// The integer a value holds when it is an integral int32, int64 or double.
pub fn as_i64(value: &Bson) -> Option<i64> {
    match value {
        Bson::Int32(i) => Some(i64::from(*i)),
        Bson::Int64(i) => Some(*i),
        Bson::Double(d) if d.fract() == 0.0 && d.abs() < 9.2e18 => Some(*d as i64),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trip() {
        assert_eq!(hex_decode("0aFF"), Some(vec![0x0a, 0xff]));
        assert_eq!(hex_encode(&[0x0a, 0xff]), "0AFF");
        assert_eq!(hex_decode("0"), None);
        assert_eq!(hex_decode("zz"), None);
    }

    #[test]
    fn duplicate_keys() {
        assert!(has_duplicate_keys(r#"{"_id": 3, "_id": 1}"#));
        assert!(has_duplicate_keys(r#"[{"a": {"b": 1, "b": 2}}]"#));
        assert!(!has_duplicate_keys(
            r#"{"a": {"a": 1}, "b": ["a", "a"], "c": "\\"a\\": 1"}"#
        ));
    }

    #[test]
    fn lenient_numbers_and_commas() {
        let zero = parse_lenient(r#"{"a": -0, "b": -0.0, "c": "-0"}"#).expect("lenient parse");
        assert_eq!(
            canonical(&zero),
            r#"{"a":{"$numberInt":"0"},"b":{"$numberDouble":"-0.0"},"c":"-0"}"#
        );
        let v = parse_lenient(r#"{"a": NaN, "b": [Infinity, -Infinity,], "c": "NaN,}"}"#)
            .expect("lenient parse");
        assert_eq!(
            canonical(&v),
            r#"{"a":{"$numberDouble":"NaN"},"b":[{"$numberDouble":"Infinity"},{"$numberDouble":"-Infinity"}],"c":"NaN,}"}"#
        );
    }
}
