//! Wildcard indexes through the commands: every plan through one answers what a collection scan
//! answers, explain shows the per-path key pattern and bounds, `returnKey` the `$_path` keys,
//! and the restrictions fail as MongoDB's do (jstests/core/wildcard_index_*.js).

use bson::{Bson, Document, doc};

use crate::Engine;

fn run(e: &mut Engine, cmd: Document) -> Document {
    super::tests::run(e, "t", cmd)
}

fn batch(r: &Document) -> Vec<Document> {
    r.get_document("cursor")
        .unwrap()
        .get_array("firstBatch")
        .unwrap()
        .iter()
        .map(|d| d.as_document().unwrap().clone())
        .collect()
}

fn ids(e: &mut Engine, filter: &Document, hint: Option<Bson>) -> Vec<Bson> {
    let mut find = doc! {"find": "c", "filter": filter.clone(), "sort": {"_id": 1}};
    if let Some(hint) = hint {
        find.insert("hint", hint);
    }
    let r = run(e, find);
    batch(&r)
        .iter()
        .map(|d| d.get("_id").unwrap().clone())
        .collect()
}

fn setup() -> Engine {
    let mut e = Engine::new();
    let docs = vec![
        doc! {"_id": 0},
        doc! {"_id": 1, "a": null},
        doc! {"_id": 2, "a": []},
        doc! {"_id": 3, "a": {}},
        doc! {"_id": 4, "a": [{}]},
        doc! {"_id": 5, "a": [[{}]]},
        doc! {"_id": 6, "a": [1, 2, {}]},
        doc! {"_id": 7, "a": {"b": 1}},
        doc! {"_id": 8, "a": 3},
        doc! {"_id": 9, "a": {"b": {}}},
        doc! {"_id": 10, "a": [0, {"b": {}}]},
        doc! {"_id": 11, "c": [1, 2], "d": {"e": []}},
        doc! {"_id": 12, "c": [[1], 5], "f": [{"g": []}]},
    ];
    run(&mut e, doc! {"insert": "c", "documents": docs});
    run(
        &mut e,
        doc! {"createIndexes": "c", "indexes": [{"key": {"$**": 1}, "name": "$**_1"}]},
    );
    e
}

#[test]
fn index_plans_answer_what_a_collection_scan_answers() {
    let mut e = setup();
    let filters = [
        doc! {"a": {}},
        doc! {"a": {"$lte": {}}},
        doc! {"a": {"$in": [3, {}]}},
        doc! {"a.b": {"$eq": {}}},
        doc! {"a": {"$exists": true}},
        doc! {"a.b": {"$exists": true}},
        doc! {"a": {"$gt": 0}},
        doc! {"a": []},
        doc! {"c.0": 1},
        doc! {"c": 1},
        doc! {"d.e": []},
        doc! {"f.0.g": []},
        doc! {"a": 3, "c": 1},
    ];
    for f in &filters {
        let scanned = ids(&mut e, f, Some(Bson::Document(doc! {"$natural": 1})));
        let hinted = ids(&mut e, f, Some(Bson::Document(doc! {"$**": 1})));
        let chosen = ids(&mut e, f, None);
        assert_eq!(hinted, scanned, "{f:?}");
        assert_eq!(chosen, scanned, "{f:?}");
    }
    assert_eq!(
        ids(&mut e, &doc! {"a": {}}, None),
        vec![Bson::Int32(3), Bson::Int32(4), Bson::Int32(6)]
    );
}

#[test]
fn predicates_the_index_cannot_answer_refuse_the_hint() {
    let mut e = setup();
    for f in [
        doc! {"a": {"$gte": {}}},
        doc! {"a": null},
        doc! {"a": {"$exists": false}},
        doc! {"a": {"$ne": 1}},
        doc! {"a": {"b": 1}},
        doc! {"a": [1, 2]},
    ] {
        let r = e.run_command(
            "t",
            &doc! {"find": "c", "filter": f.clone(), "hint": {"$**": 1}},
        );
        assert_eq!(r.get_i32("code").ok(), Some(2), "{f:?} -> {r:?}");
        // Unhinted, the collection is scanned.
        let scanned = ids(&mut e, &f, Some(Bson::Document(doc! {"$natural": 1})));
        assert_eq!(ids(&mut e, &f, None), scanned, "{f:?}");
    }
    let r = e.run_command(
        "t",
        &doc! {"find": "c", "min": {"a": 1}, "hint": {"$**": 1}},
    );
    assert_eq!(r.get_i32("code").ok(), Some(51174), "{r:?}");
}

#[test]
fn explain_shows_the_path_key_pattern() {
    let mut e = setup();
    let r = run(
        &mut e,
        doc! {"explain": {"find": "c", "filter": {"a.b": 1}, "hint": {"$**": 1}}},
    );
    let plan = r
        .get_document("queryPlanner")
        .unwrap()
        .get_document("winningPlan")
        .unwrap();
    assert_eq!(plan.get_str("stage").unwrap(), "FETCH");
    let scan = plan.get_document("inputStage").unwrap();
    assert_eq!(scan.get_str("stage").unwrap(), "IXSCAN");
    assert_eq!(
        scan.get_document("keyPattern").unwrap(),
        &doc! {"$_path": 1, "a.b": 1}
    );
    assert_eq!(scan.get_str("indexName").unwrap(), "$**_1");
    assert!(scan.get_bool("isMultiKey").unwrap());
    assert_eq!(
        scan.get_document("multiKeyPaths").unwrap(),
        &doc! {"$_path": [], "a.b": ["a"]}
    );
    assert_eq!(
        scan.get_document("indexBounds").unwrap(),
        &doc! {"$_path": ["[\"a.b\", \"a.b\"]"], "a.b": ["[1, 1]"]}
    );
    let r = run(
        &mut e,
        doc! {"explain": {"find": "c", "filter": {"d": {"$exists": true}}}},
    );
    let scan = r
        .get_document("queryPlanner")
        .unwrap()
        .get_document("winningPlan")
        .unwrap()
        .get_document("inputStage")
        .unwrap()
        .clone();
    assert_eq!(
        scan.get_document("indexBounds").unwrap(),
        &doc! {"$_path": ["[\"d\", \"d\"]", "[\"d.\", \"d/\")"], "d": ["[MinKey, MaxKey]"]}
    );
}

#[test]
fn return_key_gives_path_keys_and_results_are_deduplicated() {
    let mut e = Engine::new();
    run(
        &mut e,
        doc! {"insert": "c", "documents": [
            {"_id": 1, "a": {"b": 1, "c": {"f": 1, "g": 1}}, "d": {"e": [1, 2, 3]}},
        ]},
    );
    run(
        &mut e,
        doc! {"createIndexes": "c", "indexes": [{"key": {"$**": 1}, "name": "w"}]},
    );
    for f in [
        doc! {"a": {"$exists": true}},
        doc! {"d": {"$exists": true}},
        doc! {"a.c": {"$exists": true}},
        doc! {"d.e": {"$gt": 0}},
    ] {
        assert_eq!(ids(&mut e, &f, Some(Bson::String("w".into()))).len(), 1);
    }
    let r = run(
        &mut e,
        doc! {"find": "c", "filter": {"a.c.f": 1}, "returnKey": true},
    );
    assert_eq!(batch(&r), vec![doc! {"$_path": "a.c.f", "a.c.f": 1}]);
    // Without an index, returnKey gives empty documents.
    let r = run(
        &mut e,
        doc! {"find": "c", "filter": {"_id": {"$gt": 0}}, "returnKey": true, "hint": {"$natural": 1}},
    );
    assert_eq!(batch(&r), vec![doc! {}]);
}

#[test]
fn subtree_and_projection_indexes_serve_only_their_paths() {
    let mut e = Engine::new();
    run(
        &mut e,
        doc! {"insert": "c", "documents": [
            {"_id": 1, "a": 1, "c": {"d": 1}},
            {"_id": 2, "a": 1, "c": {"d": 2}},
        ]},
    );
    run(
        &mut e,
        doc! {"createIndexes": "c", "indexes": [
            {"key": {"c.$**": 1}, "name": "c"},
            {"key": {"$**": 1}, "name": "p", "wildcardProjection": {"a": 0}},
        ]},
    );
    let r = e.run_command("t", &doc! {"find": "c", "filter": {"a": 1}, "hint": "c"});
    assert_eq!(r.get_i32("code").ok(), Some(2), "{r:?}");
    let r = e.run_command("t", &doc! {"find": "c", "filter": {"a": 1}, "hint": "p"});
    assert_eq!(r.get_i32("code").ok(), Some(2), "{r:?}");
    assert_eq!(
        ids(&mut e, &doc! {"c.d": 2}, Some(Bson::String("c".into()))),
        vec![Bson::Int32(2)]
    );
    assert_eq!(
        ids(&mut e, &doc! {"c.d": 2}, Some(Bson::String("p".into()))),
        vec![Bson::Int32(2)]
    );
    let r = run(&mut e, doc! {"listIndexes": "c"});
    let specs = batch(&r);
    assert_eq!(
        specs[2],
        doc! {"v": 2, "key": {"$**": 1}, "name": "p", "wildcardProjection": {"a": 0}}
    );
    // A document update moves its keys.
    run(
        &mut e,
        doc! {"update": "c", "updates": [{"q": {"_id": 2}, "u": {"$set": {"c.d": 3}}}]},
    );
    assert!(ids(&mut e, &doc! {"c.d": 2}, Some(Bson::String("c".into()))).is_empty());
    let r = run(&mut e, doc! {"validate": "c"});
    assert_eq!(r.get_bool("valid").ok(), Some(true), "{r:?}");
}
