//! The insert command's empty timestamps (`write::empty_timestamp`), by every path an insert
//! takes.

use bson::{Bson, doc};

use crate::Engine;
use crate::clock::SimulatedClock;

/// An engine on a fixed clock and seed, as `insert`'s own tests make them.
fn twin() -> Engine {
    Engine::with_clock(Box::new(SimulatedClock::new(1_700_000_000_000)), 7)
}

/// A top-level `Timestamp(0, 0)` but `_id`'s is stored as the next cluster time, the same
/// by every path an insert takes (a document, a document given away, bytes kept or
/// decoded); nested ones stay, and `bypassEmptyTsReplacement: true` keeps them all
/// (jstests/core/ts1.js; MongoDB's fixDocumentForInsert).
#[test]
fn an_insert_fills_top_level_empty_timestamps() {
    let empty = bson::Timestamp {
        time: 0,
        increment: 0,
    };
    let at = |increment| {
        Bson::Timestamp(bson::Timestamp {
            time: 1_700_000_000,
            increment,
        })
    };
    let commands = [
        doc! {"insert": "c", "documents": [{"_id": 1, "a": empty, "n": {"b": empty}}, {"_id": 2, "a": empty, "z": empty}]},
        doc! {"insert": "c", "documents": [{"a": empty, "_id": 3}]},
        doc! {"insert": "c", "documents": [{"_id": empty, "a": empty}]},
        doc! {"insert": "c", "documents": [{"_id": 4, "a": empty}], "bypassEmptyTsReplacement": true},
    ];
    let expected = [
        doc! {"_id": 1, "a": at(1), "n": {"b": empty}},
        doc! {"_id": 2, "a": at(2), "z": at(3)},
        doc! {"_id": 3, "a": at(4)},
        doc! {"_id": empty, "a": at(5)},
        doc! {"_id": 4, "a": empty},
    ];
    let (mut by_doc, mut owned, mut by_bytes) = (twin(), twin(), twin());
    for c in &commands {
        let a = by_doc.run_command("t", c);
        let b = owned
            .run_command_owned("t", c.clone())
            .into_document()
            .unwrap();
        let bytes = c.to_vec().unwrap();
        let d = by_bytes
            .run_command_encoded("t", &bytes)
            .unwrap()
            .into_document()
            .unwrap();
        assert_eq!(
            a.get_i32("n").ok(),
            Some(c.get_array("documents").unwrap().len() as i32),
            "{a}"
        );
        assert_eq!((&a, &a), (&b, &d), "{c}");
    }
    for e in [&mut by_doc, &mut owned, &mut by_bytes] {
        let r = e.run_command("t", &doc! {"find": "c", "filter": {}});
        let batch = r
            .get_document("cursor")
            .unwrap()
            .get_array("firstBatch")
            .unwrap();
        let found: Vec<_> = batch
            .iter()
            .filter_map(Bson::as_document)
            .cloned()
            .collect();
        assert_eq!(found, expected);
    }
}
