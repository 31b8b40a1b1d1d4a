//! The empty timestamp: a top-level `Timestamp(0, 0)` in a document an insert stores, or in a
//! replacement-style update, is replaced by the next cluster time, as MongoDB's
//! `fixDocumentForInsert` and `ObjectReplaceExecutor` do (only at the top level, never `_id`,
//! not by operator or pipeline updates; a write command's `bypassEmptyTsReplacement: true`
//! keeps it).
//! The legacy shell's `new Timestamp()` is this value, so `jstests/core/ts1.js` reads
//! increasing timestamps back.

use bson::{Bson, Document, Timestamp};

/// Whether a top-level field other than `_id` holds `Timestamp(0, 0)`.
pub fn has_empty_timestamp(doc: &Document) -> bool {
    doc.iter().any(|(k, v)| k != "_id" && is_empty(v))
}

/// Replaces each top-level `Timestamp(0, 0)` but `_id`'s with the next value of `tick`, in
/// field order.
pub fn fill_empty_timestamps(doc: &mut Document, mut tick: impl FnMut() -> Timestamp) {
    for (k, v) in doc.iter_mut() {
        if k != "_id" && is_empty(v) {
            *v = Bson::Timestamp(tick());
        }
    }
}

/// [`has_empty_timestamp`] of a document's BSON bytes, read without decoding them: a top-level
/// element of type timestamp (0x11) whose eight bytes are zero. `true` also for bytes this walk
/// cannot read, so that the caller decodes them (and reports what is wrong with them).
pub fn bytes_have_empty_timestamp(bytes: &[u8]) -> bool {
    let mut at = 4;
    loop {
        let Some(&tag) = bytes.get(at) else {
            return true;
        };
        if tag == 0 {
            return false;
        }
        let Some(name_len) = bytes
            .get(at + 1..)
            .and_then(|b| b.iter().position(|&c| c == 0))
        else {
            return true;
        };
        let name = &bytes[at + 1..at + 1 + name_len];
        let value_at = at + 1 + name_len + 1;
        let Some(value) = bytes.get(value_at..) else {
            return true;
        };
        if tag == 0x11 && name != b"_id" && value.get(..8).is_some_and(|v| v == [0; 8]) {
            return true;
        }
        let Some(len) = crate::value::bson_bytes::value_len(tag, value) else {
            return true;
        };
        at = value_at + len;
    }
}

/// The write command's `bypassEmptyTsReplacement: true` (an optional bool in MongoDB 8.0's
/// `WriteCommandRequestBase`; anything but `true` leaves the replacement on).
pub fn bypass_requested(command: &Document) -> bool {
    matches!(
        command.get("bypassEmptyTsReplacement"),
        Some(Bson::Boolean(true))
    )
}

fn is_empty(v: &Bson) -> bool {
    matches!(
        v,
        Bson::Timestamp(Timestamp {
            time: 0,
            increment: 0
        })
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    const EMPTY: Timestamp = Timestamp {
        time: 0,
        increment: 0,
    };

    #[test]
    fn only_top_level_fields_but_the_id_are_filled() {
        let mut d = doc! {
            "_id": EMPTY,
            "a": EMPTY,
            "n": {"b": EMPTY},
            "arr": [EMPTY],
            "c": Timestamp { time: 0, increment: 1 },
            "z": EMPTY,
        };
        assert!(has_empty_timestamp(&d));
        assert!(bytes_have_empty_timestamp(&d.to_vec().unwrap()));
        let mut next = 0;
        fill_empty_timestamps(&mut d, || {
            next += 1;
            Timestamp {
                time: 7,
                increment: next,
            }
        });
        assert_eq!(
            d,
            doc! {
                "_id": EMPTY,
                "a": Timestamp { time: 7, increment: 1 },
                "n": {"b": EMPTY},
                "arr": [EMPTY],
                "c": Timestamp { time: 0, increment: 1 },
                "z": Timestamp { time: 7, increment: 2 },
            }
        );
        assert!(!has_empty_timestamp(&d));
        assert!(!bytes_have_empty_timestamp(&d.to_vec().unwrap()));
    }

    #[test]
    fn the_byte_walk_agrees_with_the_tree() {
        for d in [
            doc! {"_id": EMPTY, "n": {"b": EMPTY}, "s": "x", "f": 1.5, "arr": [EMPTY, 2_i64]},
            doc! {"_id": 1, "t": EMPTY},
            doc! {"t": EMPTY, "_id": 1},
            doc! {},
        ] {
            assert_eq!(
                bytes_have_empty_timestamp(&d.to_vec().unwrap()),
                has_empty_timestamp(&d),
                "{d}"
            );
        }
        // Bytes it cannot read: decoded by the caller.
        assert!(bytes_have_empty_timestamp(&[5, 0, 0]));
    }

    #[test]
    fn only_true_bypasses() {
        assert!(!bypass_requested(&doc! {"insert": "c"}));
        assert!(!bypass_requested(
            &doc! {"insert": "c", "bypassEmptyTsReplacement": false}
        ));
        assert!(bypass_requested(
            &doc! {"insert": "c", "bypassEmptyTsReplacement": true}
        ));
    }
}
