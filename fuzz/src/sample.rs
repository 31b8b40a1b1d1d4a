//! The small collection the engine targets run against: documents of every common shape
//! (numbers of each type, strings, arrays of scalars and of documents, nested documents, null,
//! missing fields, dates, ObjectIds), with a few indexes so the planner takes part.

use bson::{Bson, Document, doc, oid::ObjectId};
use engine::Engine;
use engine::clock::SimulatedClock;

/// The database the targets use.
pub const DB: &str = "fuzz";
/// The collection holding [`documents`].
pub const COLL: &str = "c";
/// A second collection, for `$lookup`, `$unionWith` and `$graphLookup`.
pub const OTHER: &str = "other";

/// 2025-01-01T00:00:00Z: the simulated clock's start, so `$$NOW` and dates are reproducible.
const START_MILLIS: i64 = 1_735_689_600_000;

/// The sample documents.
pub fn documents() -> Vec<Document> {
    let oid = ObjectId::from_bytes([0x65, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8]);
    let date = bson::DateTime::from_millis(START_MILLIS);
    vec![
        doc! {"_id": 1, "a": 1, "b": "x", "c": [1, 2, 3], "d": {"e": 1, "f": [1, {"g": 2}]}},
        doc! {"_id": 2, "a": 2.5, "b": "y", "c": [], "d": {"e": 2}},
        doc! {"_id": 3, "a": Bson::Int64(3), "b": null, "c": [[1, 2], [3]], "tags": ["red", "blue"]},
        doc! {"_id": 4, "a": "4", "b": {"x": 1}, "c": [{"k": 1, "v": "a"}, {"k": 2, "v": "b"}]},
        doc! {"_id": 5, "b": "Hello World", "c": 5, "t": date, "o": oid},
        doc! {"_id": 6, "a": null, "c": [null], "d": null, "n": Bson::Decimal128("1.5".parse().unwrap_or(bson::Decimal128::from_bytes([0; 16])))},
        doc! {"_id": 7, "a": [1, 5, 9], "b": "z", "tags": ["x", "z"], "c": {"k": 3}, "r": Bson::RegularExpression(bson::Regex { pattern: "^a".to_string().try_into().expect("no NUL"), options: "i".to_string().try_into().expect("no NUL") })},
        doc! {"_id": 8, "a": -1, "b": "", "c": [1, [2, [3, [4]]]], "d": {"e": {"e": {"e": 1}}}, "bool": true},
        doc! {"_id": 9, "a": f64::NAN, "b": "ÿ€𝄞", "c": [2, 2, 2], "bin": Bson::Binary(bson::Binary { subtype: bson::spec::BinarySubtype::Generic, bytes: vec![1, 2, 3] })},
        doc! {"_id": "s", "a": 1e300, "b": "a.b", "loc": [1.5, 2.5], "geo": {"type": "Point", "coordinates": [1.0, 2.0]}},
        doc! {"_id": {"x": 1}, "a": i32::MIN, "b": Bson::Int64(i64::MAX), "c": [Bson::MinKey, Bson::MaxKey]},
        doc! {"_id": 12, "a": 0, "price": 10, "qty": 3, "item": "abc", "dt": date, "arr": [{"a": 1, "b": [1, 2]}, {"a": 2, "b": [3]}]},
    ]
}

/// The documents `other` holds.
pub fn other_documents() -> Vec<Document> {
    vec![
        doc! {"_id": 1, "a": 1, "from": 1, "to": 2, "name": "one"},
        doc! {"_id": 2, "a": 2, "from": 2, "to": 3, "name": "two"},
        doc! {"_id": 3, "a": [1, 2], "from": 3, "to": 1, "name": null},
    ]
}

/// A fresh engine on the simulated clock with both collections and their indexes.
pub fn engine() -> Engine {
    let mut engine = Engine::with_clock(Box::new(SimulatedClock::new(START_MILLIS)), 7);
    insert(&mut engine, COLL, documents());
    insert(&mut engine, OTHER, other_documents());
    let indexes = doc! {
        "createIndexes": COLL,
        "indexes": [
            {"key": {"a": 1}, "name": "a_1"},
            {"key": {"b": 1, "a": -1}, "name": "b_1_a_-1"},
            {"key": {"c": 1}, "name": "c_1"},
            {"key": {"d.e": 1}, "name": "d.e_1", "sparse": true},
            {"key": {"b": "text"}, "name": "b_text"},
        ],
    };
    let reply = engine.run_command(DB, &indexes);
    assert!(engine::reply_ok(&reply), "sample indexes: {reply}");
    engine
}

fn insert(engine: &mut Engine, coll: &str, docs: Vec<Document>) {
    let docs: Vec<Bson> = docs.into_iter().map(Bson::Document).collect();
    let reply = engine.run_command(DB, &doc! {"insert": coll, "documents": docs});
    assert!(engine::reply_ok(&reply), "sample insert: {reply}");
}
