//! The archive writer and reader against each other, against an archive built byte by byte here
//! from the format description (mongo-tools `common/archive/spec.md`), and against an archive
//! that mongodump itself wrote.

use bson::{Bson, doc};

use super::*;

// ---- an independent encoder: just enough BSON for the archive's header documents ----------

enum Field<'a> {
    Str(&'a str),
    I32(i32),
    I64(u64),
    Bool(bool),
}

fn bson_doc(fields: &[(&str, Field)]) -> Vec<u8> {
    let mut body = Vec::new();
    for (name, value) in fields {
        let (tag, bytes) = match value {
            Field::Str(s) => {
                let mut b = ((s.len() + 1) as u32).to_le_bytes().to_vec();
                b.extend_from_slice(s.as_bytes());
                b.push(0);
                (0x02, b)
            }
            Field::I32(n) => (0x10, n.to_le_bytes().to_vec()),
            Field::I64(n) => (0x12, n.to_le_bytes().to_vec()),
            Field::Bool(b) => (0x08, vec![u8::from(*b)]),
        };
        body.push(tag);
        body.extend_from_slice(name.as_bytes());
        body.push(0);
        body.extend_from_slice(&bytes);
    }
    let mut out = ((body.len() + 5) as u32).to_le_bytes().to_vec();
    out.extend_from_slice(&body);
    out.push(0);
    out
}

/// CRC-64 with the ECMA-182 polynomial, bit by bit, reflected, all-ones in and out (Go's
/// `hash/crc64` with `crc64.ECMA`).
fn crc64_bitwise(data: &[u8]) -> u64 {
    const POLY_REVERSED: u64 = 0xC96C_5795_D787_0F42;
    let mut crc = !0u64;
    for &byte in data {
        crc ^= u64::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ POLY_REVERSED
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

const TERM: [u8; 4] = [0xff, 0xff, 0xff, 0xff];

fn sample_documents() -> Vec<Vec<u8>> {
    vec![
        bson_doc(&[("_id", Field::I32(1)), ("name", Field::Str("ana"))]),
        bson_doc(&[("_id", Field::I32(2)), ("big", Field::I64(1 << 40))]),
    ]
}

/// `shop.people` with two documents, `shop.empty` with none, and the view `shop.names`.
fn hand_built_archive() -> Vec<u8> {
    let docs = sample_documents();
    let people_meta = r#"{"indexes":[{"v":{"$numberInt":"2"},"key":{"_id":{"$numberInt":"1"}},"name":"_id_"}],"collectionName":"people","type":"collection"}"#;
    let empty_meta = r#"{"indexes":[],"collectionName":"empty","type":"collection"}"#;
    let view_meta = r#"{"options":{"viewOn":"people","pipeline":[]},"indexes":[],"collectionName":"names","type":"view"}"#;
    let size: usize = docs.iter().map(Vec::len).sum();
    let mut out = vec![0x6d, 0xe2, 0x99, 0x81];
    out.extend(bson_doc(&[
        ("concurrent_collections", Field::I32(4)),
        ("version", Field::Str("0.1")),
        ("server_version", Field::Str("8.0.0")),
        ("tool_version", Field::Str("test")),
    ]));
    for (coll, meta, size, kind) in [
        ("people", people_meta, size, "collection"),
        ("empty", empty_meta, 0, "collection"),
        ("names", view_meta, 0, "view"),
    ] {
        out.extend(bson_doc(&[
            ("db", Field::Str("shop")),
            ("collection", Field::Str(coll)),
            ("metadata", Field::Str(meta)),
            ("size", Field::I32(size as i32)),
            ("type", Field::Str(kind)),
        ]));
    }
    out.extend(TERM);
    let mut all = Vec::new();
    for d in &docs {
        all.extend_from_slice(d);
    }
    for (coll, data) in [
        ("people", all),
        ("empty", Vec::new()),
        ("names", Vec::new()),
    ] {
        out.extend(bson_doc(&[
            ("db", Field::Str("shop")),
            ("collection", Field::Str(coll)),
            ("EOF", Field::Bool(false)),
            ("CRC", Field::I64(0)),
        ]));
        out.extend_from_slice(&data);
        out.extend(TERM);
        out.extend(bson_doc(&[
            ("db", Field::Str("shop")),
            ("collection", Field::Str(coll)),
            ("EOF", Field::Bool(true)),
            ("CRC", Field::I64(crc64_bitwise(&data))),
        ]));
        out.extend(TERM);
    }
    out
}

fn expected_archive() -> Archive {
    let meta = |coll: &str| {
        match coll {
            "people" => r#"{"indexes":[{"v":{"$numberInt":"2"},"key":{"_id":{"$numberInt":"1"}},"name":"_id_"}],"collectionName":"people","type":"collection"}"#,
            "empty" => r#"{"indexes":[],"collectionName":"empty","type":"collection"}"#,
            _ => r#"{"options":{"viewOn":"people","pipeline":[]},"indexes":[],"collectionName":"names","type":"view"}"#,
        }
        .to_string()
    };
    let coll = |name: &str, kind: &str, documents: Vec<Vec<u8>>| ArchivedCollection {
        db: "shop".into(),
        collection: name.into(),
        metadata: meta(name),
        kind: kind.into(),
        documents,
    };
    Archive {
        header: ArchiveHeader {
            concurrent_collections: 4,
            format_version: "0.1".into(),
            server_version: "8.0.0".into(),
            tool_version: "test".into(),
        },
        collections: vec![
            coll("people", "collection", sample_documents()),
            coll("empty", "collection", Vec::new()),
            coll("names", "view", Vec::new()),
        ],
    }
}

#[test]
fn the_writer_produces_the_format_byte_for_byte() {
    assert_eq!(
        write_archive(&expected_archive()).unwrap(),
        hand_built_archive()
    );
}

#[test]
fn the_reader_reads_the_format() {
    assert_eq!(
        read_archive(&hand_built_archive()).unwrap(),
        expected_archive()
    );
}

#[test]
fn writer_and_reader_round_trip() {
    let mut archive = expected_archive();
    archive.collections[1].documents = (0..50)
        .map(|i| {
            doc! {"_id": i, "x": [1.5, "s", {"y": Bson::Null}]}
                .to_vec()
                .unwrap()
        })
        .collect();
    let bytes = write_archive(&archive).unwrap();
    assert_eq!(read_archive(&bytes).unwrap(), archive);
}

#[test]
fn the_crate_crc_is_gos_crc64_ecma() {
    for data in [&b""[..], b"a", b"123456789", &hand_built_archive()] {
        assert_eq!(crc64(&[data.to_vec()]), crc64_bitwise(data));
    }
    // The check value of CRC-64/XZ.
    assert_eq!(crc64(&[b"123456789".to_vec()]), 0x995D_C9BB_DF19_39FA);
}

#[test]
fn an_archive_written_by_mongodump_is_read() {
    let bytes = include_bytes!("testdata/mongodump-3.4.3-test-bar.archive");
    let archive = read_archive(bytes).unwrap();
    assert_eq!(archive.header.server_version, "3.4.3");
    assert_eq!(archive.header.tool_version, "r3.4.3");
    let names: Vec<String> = archive
        .collections
        .iter()
        .map(ArchivedCollection::namespace)
        .collect();
    assert_eq!(names, vec!["test.bar", "admin.system.version"]);
    let bar = &archive.collections[0];
    assert_eq!(bar.documents.len(), 1);
    let doc = crate::value::bson_bytes::decode_document(&bar.documents[0]).unwrap();
    assert_eq!(doc.get_str("foo").unwrap(), "bar");
    assert!(bar.metadata.contains("\"name\":\"_id_\""));
}

fn corrupt_message(bytes: &[u8]) -> String {
    read_archive(bytes).unwrap_err().message
}

#[test]
fn damage_is_reported_with_its_byte_offset() {
    let good = hand_built_archive();

    let mut bad_magic = good.clone();
    bad_magic[0] = 0;
    assert!(corrupt_message(&bad_magic).starts_with("corrupt archive at byte 0:"));
    assert!(corrupt_message(&good[..2]).starts_with("corrupt archive at byte 0:"));

    // Truncated in the middle of the last EOF header.
    let cut = good.len() - 10;
    let m = corrupt_message(&good[..cut]);
    assert!(m.contains("only") && m.contains("bytes remain"), "{m}");

    // Without the final terminator.
    let m = corrupt_message(&good[..good.len() - 4]);
    assert!(m.contains("no terminator"), "{m}");

    // A flipped bit in a document: the CRC no longer matches (the first EOF header's offset).
    let first_doc = sample_documents()[0].clone();
    let doc_at = find(&good, &first_doc);
    let mut flipped = good.clone();
    flipped[doc_at + 12] ^= 0x01; // a byte of the string "ana"
    let eof_at = doc_at + sample_documents().iter().map(Vec::len).sum::<usize>() + 4;
    let m = corrupt_message(&flipped);
    assert!(
        m.starts_with(&format!("corrupt archive at byte {eof_at}: CRC mismatch")),
        "{m}"
    );

    // An impossible length where a document starts.
    let mut bad_len = good.clone();
    bad_len[doc_at..doc_at + 4].copy_from_slice(&3u32.to_le_bytes());
    let m = corrupt_message(&bad_len);
    assert!(
        m.starts_with(&format!("corrupt archive at byte {doc_at}: 3 is neither")),
        "{m}"
    );

    // A collection the prelude names but the data never closes.
    let names_block = bson_doc(&[
        ("db", Field::Str("shop")),
        ("collection", Field::Str("names")),
        ("EOF", Field::Bool(false)),
        ("CRC", Field::I64(0)),
    ]);
    let names_at = find(&good, &names_block);
    let m = corrupt_message(&good[..names_at]);
    assert!(
        m.contains("archive finished before all collections were seen (shop.names)"),
        "{m}"
    );
}

fn find(haystack: &[u8], needle: &[u8]) -> usize {
    haystack
        .windows(needle.len())
        .position(|w| w == needle)
        .expect("present")
}
