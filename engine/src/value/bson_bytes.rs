//! Decoding BSON documents from bytes, strictly.
//!
//! `bson::Document::from_reader` reads the length the document states and ignores whatever
//! follows; a document whose bytes run past its stated length is corrupt (BSON corpus:
//! "Stated length less than byte count"), so this checks the length against the slice first.

use bson::Document;

use crate::error::Error;

/// Decodes exactly one BSON document that fills `bytes`.
pub fn decode_document(bytes: &[u8]) -> Result<Document, Error> {
    let stated = bytes
        .get(..4)
        .map(|head| i32::from_le_bytes([head[0], head[1], head[2], head[3]]));
    match stated {
        Some(len) if usize::try_from(len).is_ok_and(|len| len == bytes.len()) => {}
        Some(len) => {
            return Err(Error::bad_value(format!(
                "invalid BSON: the document states {len} bytes but has {}",
                bytes.len()
            )));
        }
        None => return Err(Error::bad_value("invalid BSON: fewer than 4 bytes")),
    }
    // Parsed where it lies: `Document::from_reader` would first copy the bytes into a buffer of
    // its own (a copy per stored document when a database loads).
    bson::RawDocument::from_bytes(bytes)
        .map_err(|e| Error::bad_value(format!("invalid BSON: {e}")))
        .and_then(|raw| {
            Document::try_from(raw).map_err(|e| Error::bad_value(format!("invalid BSON: {e}")))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_a_document() {
        let doc = bson::doc! {"a": 1};
        assert_eq!(decode_document(&doc.to_vec().unwrap()).unwrap(), doc);
    }

    #[test]
    fn rejects_trailing_bytes_and_short_input() {
        let mut bytes = bson::doc! {"a": 1}.to_vec().unwrap();
        bytes.push(0);
        assert!(decode_document(&bytes).is_err());
        assert!(decode_document(&[5, 0]).is_err());
        assert!(decode_document(&[]).is_err());
        assert!(decode_document(&[4, 0, 0, 0]).is_err());
    }
}
