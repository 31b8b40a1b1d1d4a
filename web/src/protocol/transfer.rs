//! Data in and out of the page in MongoDB's formats: what the page asks the database's owner to
//! export or import ([`Transfer`]), the formats' names and file names, and the base64 codec the
//! files travel in (the worker runs them: `crate::worker::transfer`).
//!
//! Files cross the worker's `postMessage` and the database's `BroadcastChannel` as JSON text, so
//! their bytes travel as base64 (an archive is binary).

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use engine::ARCHIVE_MAGIC_NUMBER as MAGIC_NUMBER;
use serde::{Deserialize, Serialize};

/// Which of MongoDB's file formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TransferFormat {
    /// `mongoexport`'s default: one relaxed Extended JSON document per line.
    JsonLines,
    /// `mongoexport --jsonArray`: one JSON array.
    JsonArray,
    /// `mongodump --archive`.
    Archive,
}

/// An export or an import, run by the database's owner in the asking page's session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "direction", rename_all = "snake_case")]
pub enum Transfer {
    /// `collection` of `db` (or, for an archive, the whole database when `None`) as a file.
    Export {
        db: String,
        collection: Option<String>,
        format: TransferFormat,
    },
    /// A file's bytes (base64) into `db`: JSON into `collection`, an archive's database into
    /// `db` (only its `collection` when given).
    Import {
        db: String,
        collection: Option<String>,
        format: TransferFormat,
        data: String,
    },
}

/// What a transfer produced: the line to show and, for an export, the file's bytes (base64).
#[derive(Debug, Clone, PartialEq)]
pub struct TransferOutcome {
    pub summary: String,
    pub file: Option<String>,
}

/// The format's name as the learner reads it.
pub fn format_name(format: TransferFormat) -> &'static str {
    match format {
        TransferFormat::JsonLines => "mongoexport JSON lines",
        TransferFormat::JsonArray => "a JSON array",
        TransferFormat::Archive => "a mongodump archive",
    }
}

/// The download's file name: `<collection>.json` as mongoexport's users name it,
/// `<db>.archive` or `<db>.<collection>.archive` for an archive.
pub fn file_name(db: &str, collection: Option<&str>, format: TransferFormat) -> String {
    match (format, collection) {
        (TransferFormat::Archive, Some(c)) => format!("{db}.{c}.archive"),
        (TransferFormat::Archive, None) => format!("{db}.archive"),
        (_, Some(c)) => format!("{c}.json"),
        (_, None) => format!("{db}.json"),
    }
}

/// The format of an imported file: an archive when it starts with mongodump's magic number,
/// else JSON, an array when its first non-blank character is `[`.
pub fn detect_format(bytes: &[u8]) -> TransferFormat {
    if bytes.len() >= 4
        && u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) == MAGIC_NUMBER
    {
        return TransferFormat::Archive;
    }
    // Blanks and a UTF-8 byte order mark may come first.
    let first = bytes
        .iter()
        .copied()
        .find(|b| !(b.is_ascii_whitespace() || matches!(b, 0xEF | 0xBB | 0xBF)));
    if first == Some(b'[') {
        TransferFormat::JsonArray
    } else {
        TransferFormat::JsonLines
    }
}

/// The collection a JSON file goes into by default: its name without the extension, as
/// mongoimport does without `--collection`.
pub fn collection_of_file(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let stem = base.strip_suffix(".json").unwrap_or(base);
    let stem = stem.strip_suffix(".jsonl").unwrap_or(stem);
    if stem.is_empty() {
        "imported".to_string()
    } else {
        stem.to_string()
    }
}

pub fn encode(bytes: &[u8]) -> String {
    STANDARD.encode(bytes)
}

pub fn decode(text: &str) -> Result<Vec<u8>, String> {
    STANDARD
        .decode(text)
        .map_err(|e| format!("the file's bytes were damaged on the way: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_told_apart_by_their_bytes() {
        assert_eq!(detect_format(b"{\"a\":1}\n"), TransferFormat::JsonLines);
        assert_eq!(detect_format(b"  \n[{\"a\":1}]"), TransferFormat::JsonArray);
        assert_eq!(
            detect_format(&MAGIC_NUMBER.to_le_bytes()),
            TransferFormat::Archive
        );
        assert_eq!(detect_format(b""), TransferFormat::JsonLines);
    }

    #[test]
    fn file_names_follow_the_tools() {
        assert_eq!(
            file_name("shop", Some("orders"), TransferFormat::JsonLines),
            "orders.json"
        );
        assert_eq!(
            file_name("shop", None, TransferFormat::Archive),
            "shop.archive"
        );
        assert_eq!(collection_of_file("C:\\data\\people.json"), "people");
        assert_eq!(collection_of_file("people.jsonl"), "people");
        assert_eq!(collection_of_file(".json"), "imported");
    }
}
