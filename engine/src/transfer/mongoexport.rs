//! `mongoexport --type json` output (mongo-tools `mongoexport/json.go`): one Extended JSON
//! document per line, each followed by `\n`; or with `--jsonArray` the documents between `[`
//! and `]\n`, separated by `,` and nothing else.

use bson::Document;

use super::extjson_text::{ExtJsonMode, document_text};

/// How the documents are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum JsonLayout {
    /// One document per line (mongoexport's default, what mongoimport reads by default).
    #[default]
    Lines,
    /// One JSON array (`--jsonArray`).
    Array,
}

/// The export text of `docs`.
pub fn export_json<'a>(
    docs: impl IntoIterator<Item = &'a Document>,
    mode: ExtJsonMode,
    layout: JsonLayout,
) -> String {
    let mut out = String::new();
    if layout == JsonLayout::Array {
        out.push('[');
    }
    for (i, doc) in docs.into_iter().enumerate() {
        match layout {
            JsonLayout::Lines => {
                out.push_str(&document_text(doc, mode));
                out.push('\n');
            }
            JsonLayout::Array => {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&document_text(doc, mode));
            }
        }
    }
    if layout == JsonLayout::Array {
        out.push_str("]\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    #[test]
    fn lines_and_arrays_are_laid_out_as_mongoexport_does() {
        let docs = [doc! {"_id": 1, "a": "x"}, doc! {"_id": 2}];
        assert_eq!(
            export_json(&docs, ExtJsonMode::Relaxed, JsonLayout::Lines),
            "{\"_id\":1,\"a\":\"x\"}\n{\"_id\":2}\n"
        );
        assert_eq!(
            export_json(&docs, ExtJsonMode::Canonical, JsonLayout::Array),
            "[{\"_id\":{\"$numberInt\":\"1\"},\"a\":\"x\"},{\"_id\":{\"$numberInt\":\"2\"}}]\n"
        );
        assert_eq!(
            export_json(&[], ExtJsonMode::Relaxed, JsonLayout::Array),
            "[]\n"
        );
        assert_eq!(
            export_json(&[], ExtJsonMode::Relaxed, JsonLayout::Lines),
            ""
        );
    }
}
