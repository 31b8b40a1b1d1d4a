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

/// The number of top-level elements of a document's BSON bytes (`None` on bytes this walk does
/// not understand). Fewer elements in the decoded document than here means a name was repeated
/// (the decoded document keeps one value per name).
pub fn element_count(doc: &[u8]) -> Option<usize> {
    let mut at = 4;
    let mut n = 0;
    loop {
        let tag = *doc.get(at)?;
        if tag == 0 {
            return Some(n);
        }
        at += 1;
        at += doc.get(at..)?.iter().position(|&b| b == 0)? + 1;
        at += value_len(tag, doc.get(at..)?)?;
        n += 1;
    }
}

/// The length of an element's value of BSON type `tag` whose bytes start `v` (`None` for an
/// unknown type or bytes too short to say).
pub fn value_len(tag: u8, v: &[u8]) -> Option<usize> {
    let i32_at = |v: &[u8]| -> Option<usize> {
        usize::try_from(i32::from_le_bytes(v.get(..4)?.try_into().ok()?)).ok()
    };
    Some(match tag {
        0x01 | 0x09 | 0x11 | 0x12 => 8,
        0x02 | 0x0D | 0x0E => 4 + i32_at(v)?,
        0x03 | 0x04 | 0x0F => i32_at(v)?,
        0x05 => 5 + i32_at(v)?,
        0x06 | 0x0A | 0x7F | 0xFF => 0,
        0x07 => 12,
        0x08 => 1,
        0x0B => {
            let first = v.iter().position(|&b| b == 0)? + 1;
            first + v.get(first..)?.iter().position(|&b| b == 0)? + 1
        }
        0x0C => 4 + i32_at(v)? + 12,
        0x10 => 4,
        0x13 => 16,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_top_level_elements_also_when_a_name_repeats() {
        let doc = bson::doc! {"a": 1, "s": "x", "d": {"y": [1, 2]}, "r": bson::Bson::Null};
        assert_eq!(element_count(&doc.to_vec().unwrap()), Some(4));
        // {a: 1, a: 2}: two elements; decoded, one field.
        let bytes = [
            19, 0, 0, 0, 0x10, b'a', 0, 1, 0, 0, 0, 0x10, b'a', 0, 2, 0, 0, 0, 0,
        ];
        assert_eq!(element_count(&bytes), Some(2));
        assert_eq!(decode_document(&bytes).unwrap().len(), 1);
        assert_eq!(element_count(&bytes[..10]), None);
    }

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
