//! Tests of [`super::insert_parts`] and the walk behind it (beside `bson_bytes.rs`, which
//! stays under the workspace's 1,000 lines per file).

use super::*;

/// Whatever `insert_parts` takes apart is what decoding the whole command gives: the
/// command exact, the same command once its documents are taken out, each document's
/// bytes exactly its encoding, and its first element `first_element`'s. Checked on a
/// command of common shapes (repeated shapes, nesting, arrays, `_id` not first, an empty
/// document) and on every single-byte corruption and every truncation of it.
#[test]
fn insert_parts_agree_with_decoding_the_command() {
    let command = bson::doc! {
        "insert": "c",
        "documents": [
            {"_id": 1, "a": "x", "n": 1.5},
            {"_id": 2, "a": "y\u{e9}", "n": 2.5},
            {"a": [1, {"b": null}], "_id": {"k": [true, false]}},
            {},
            {"_id": bson::oid::ObjectId::from_bytes([3; 12]), "d": bson::DateTime::from_millis(5), "l": 7_i64},
        ],
        "ordered": false,
    };
    let bytes = command.to_vec().unwrap();
    let check = |bytes: &[u8]| {
        let Some((rest, docs)) = insert_parts(bytes) else {
            return false;
        };
        let (mut whole, exact) = decode_document_exact(bytes).unwrap();
        assert!(exact);
        let Some(Bson::Array(items)) = whole.insert("documents", Bson::Array(Vec::new())) else {
            panic!("no documents");
        };
        assert_eq!(whole, rest);
        assert_eq!(items.len(), docs.len());
        for (item, kept) in items.iter().zip(&docs) {
            let Bson::Document(d) = item else {
                panic!("not a document")
            };
            // (Compared as bytes: a corrupted double may be a NaN.)
            assert_eq!(d.to_vec().unwrap(), *kept);
            assert_eq!(decode_document(kept).unwrap().to_vec().unwrap(), *kept);
            let one = |e: Option<(&str, Bson)>| e.map(|(k, v)| bson::doc! {k: v}.to_vec().unwrap());
            assert_eq!(
                one(first_element(kept)),
                one(d.iter().next().map(|(k, v)| (k.as_str(), v.clone())))
            );
        }
        true
    };
    assert!(check(&bytes));
    let mut taken = 0;
    for i in 0..bytes.len() {
        for b in [0u8, 1, 2, 3, 4, 0x7f, 0x80, 0xff, bytes[i] ^ 1] {
            let mut bad = bytes.clone();
            bad[i] = b;
            taken += usize::from(check(&bad));
        }
        check(&bytes[..i]);
    }
    assert!(taken > 0);
    // Not taken apart: a repeated name, array names out of order, another first field,
    // a type outside the common ones, nesting past `KEPT_DEPTH`.
    let mut deep = bson::doc! {};
    for _ in 0..KEPT_DEPTH {
        deep = bson::doc! {"a": deep};
    }
    for other in [
        bson::doc! {"ordered": true, "insert": "c", "documents": [{"_id": 1}]},
        bson::doc! {"insert": "c", "documents": [{"_id": 1, "r": bson::Regex {
        pattern: "a".try_into().unwrap(), options: "".try_into().unwrap() }}]},
        bson::doc! {"insert": "c", "documents": [{"_id": 1, "a": deep}]},
        bson::doc! {"insert": "c", "documents": [1]},
    ] {
        assert!(insert_parts(&other.to_vec().unwrap()).is_none(), "{other}");
    }
    let mut repeated = bson::doc! {"insert": "c", "documents": [{"_id": 1, "x": 1, "y": 2}]}
        .to_vec()
        .unwrap();
    let y = repeated.iter().rposition(|&b| b == b'y').unwrap();
    repeated[y] = b'x';
    assert!(insert_parts(&repeated).is_none());
    assert!(decode_document_exact(&repeated).is_ok_and(|(_, exact)| !exact));
}
