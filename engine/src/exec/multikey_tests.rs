//! Compound indexes whose fields run through one array: keys pair the fields of one element
//! (MongoDB's key generator), so the planner does not compound their bounds, and every index
//! plan answers what a collection scan answers.

use bson::{Bson, Document, doc};

use crate::Engine;

fn run(e: &mut Engine, cmd: Document) -> Document {
    super::tests::run(e, "t", cmd)
}

/// The `_id`s a find returns, in `_id` order; `hint` `None` lets the planner choose.
fn ids(e: &mut Engine, filter: &Document, hint: Option<Bson>) -> Vec<Bson> {
    let mut find = doc! {"find": "c", "filter": filter.clone(), "sort": {"_id": 1}};
    if let Some(hint) = hint {
        find.insert("hint", hint);
    }
    let r = run(e, find);
    r.get_document("cursor")
        .unwrap()
        .get_array("firstBatch")
        .unwrap()
        .iter()
        .map(|d| d.as_document().unwrap().get("_id").unwrap().clone())
        .collect()
}

fn count(e: &mut Engine, filter: &Document, hint: Bson) -> i64 {
    let r = run(
        e,
        doc! {"count": "c", "query": filter.clone(), "hint": hint},
    );
    crate::value::as_i64_signed(r.get("n").unwrap())
}

fn setup() -> Engine {
    let mut e = Engine::new();
    let docs = vec![
        doc! {"_id": 1, "a": [{"x": 1, "y": 2}, {"x": 3, "y": 4}], "b": 1},
        doc! {"_id": 2, "a": [{"x": 1, "y": 4}], "b": 2},
        doc! {"_id": 3, "a": {"x": 1, "y": 4}, "b": 1},
        doc! {"_id": 4, "a": [{"x": 3}, {"y": 2}], "b": 2},
        doc! {"_id": 5, "a": [{"x": [1, 3], "y": 4}], "b": 3},
        doc! {"_id": 6, "a": [], "b": 1},
        doc! {"_id": 7, "b": 4},
        doc! {"_id": 8, "a": [{"x": 2, "y": [2, 4]}, {"x": 1}], "b": 2},
    ];
    run(&mut e, doc! {"insert": "c", "documents": docs});
    run(
        &mut e,
        doc! {"createIndexes": "c", "indexes": [
            {"key": {"a.x": 1, "a.y": 1}, "name": "xy"},
            {"key": {"a.x": 1, "b": 1}, "name": "xb"},
            {"key": {"a": 1, "a.y": -1}, "name": "a_ay"},
        ]},
    );
    e
}

fn filters() -> Vec<Document> {
    vec![
        doc! {"a.x": 1, "a.y": 4},
        doc! {"a.x": 3, "a.y": 2},
        doc! {"a.x": 1, "a.y": {"$gt": 3}},
        doc! {"a.x": {"$gte": 2}, "a.y": {"$lt": 3}},
        doc! {"a.x": 1, "a.y": null},
        doc! {"a.x": null, "a.y": 2},
        doc! {"a": {"$elemMatch": {"x": 1, "y": 4}}},
        doc! {"a": {"$elemMatch": {"x": 3, "y": 2}}},
        doc! {"a.x": 1, "b": 2},
        doc! {"a.x": {"$in": [1, 3]}, "b": {"$gte": 2}},
        doc! {"a": {"x": 1, "y": 4}, "a.y": 4},
        doc! {"a.y": {"$gt": 1, "$lt": 3}},
        doc! {"a.x": {"$exists": false}},
        doc! {"a": {"$elemMatch": {"x": {"$gte": 2}}}},
        doc! {"a": {"$elemMatch": {"x": null}}},
        doc! {"a.x": {"$elemMatch": {"$gt": 0, "$lt": 2}}},
        doc! {"a": {"$elemMatch": {"x": 1, "y": {"$elemMatch": {"$gte": 4}}}}},
    ]
}

#[test]
fn index_scans_answer_what_a_collection_scan_answers() {
    let mut e = setup();
    for filter in filters() {
        let want = ids(&mut e, &filter, Some(Bson::Document(doc! {"$natural": 1})));
        for index in ["xy", "xb", "a_ay"] {
            let got = ids(&mut e, &filter, Some(Bson::String(index.into())));
            assert_eq!(got, want, "{filter:?} hinted {index}");
            let n = count(&mut e, &filter, Bson::String(index.into()));
            assert_eq!(n, want.len() as i64, "count {filter:?} hinted {index}");
        }
        let chosen = ids(&mut e, &filter, None);
        assert_eq!(chosen, want, "{filter:?} planned");
    }
    // x = 1 and y = 4 match in different elements of documents 1 and 8.
    let both = ids(
        &mut e,
        &doc! {"a.x": 1, "a.y": 4},
        Some(Bson::Document(doc! {"$natural": 1})),
    );
    assert_eq!(both, [1, 2, 3, 5, 8].map(Bson::Int32));
}

#[test]
fn fields_through_one_array_get_no_compound_bounds() {
    let mut e = setup();
    let r = run(
        &mut e,
        doc! {"explain": {"find": "c", "filter": {"a.x": 1, "a.y": 4}, "hint": "xy"}},
    );
    let plan = r
        .get_document("queryPlanner")
        .unwrap()
        .get_document("winningPlan")
        .unwrap();
    assert_eq!(plan.get_str("stage").unwrap(), "FETCH");
    assert_eq!(
        plan.get_document("filter").unwrap(),
        &doc! {"a.y": {"$eq": 4}}
    );
    let scan = plan.get_document("inputStage").unwrap();
    assert_eq!(
        scan.get_document("indexBounds").unwrap(),
        &doc! {"a.x": ["[1, 1]"], "a.y": ["[MinKey, MaxKey]"]}
    );
    assert_eq!(
        scan.get_document("multiKeyPaths").unwrap(),
        &doc! {"a.x": ["a", "a.x"], "a.y": ["a", "a.y"]}
    );
    // `a.x` and `b` do not share an array: their bounds compound.
    let r = run(
        &mut e,
        doc! {"explain": {"find": "c", "filter": {"a.x": 1, "b": 2}, "hint": "xb"}},
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
        &doc! {"a.x": ["[1, 1]"], "b": ["[2, 2]"]}
    );
}

#[test]
fn elem_match_children_bound_the_index_keys_under_it() {
    // MongoDB's planner reads an `$elemMatch`'s children with the array's path as prefix
    // (index_elemmatch1.js: `arr: {$elemMatch: {x: 5, y: 5}}` scans `arr.x` in [5, 5]); the
    // `$elemMatch` itself stays in the FETCH filter.
    let mut e = setup();
    let r = run(
        &mut e,
        doc! {"explain": {"find": "c", "filter": {"a": {"$elemMatch": {"x": 1, "y": 4}}, "b": 2}, "hint": "xb"}},
    );
    let plan = r
        .get_document("queryPlanner")
        .unwrap()
        .get_document("winningPlan")
        .unwrap();
    assert!(plan.get_document("filter").unwrap().contains_key("a"));
    assert_eq!(
        plan.get_document("inputStage")
            .unwrap()
            .get_document("indexBounds")
            .unwrap(),
        &doc! {"a.x": ["[1, 1]"], "b": ["[2, 2]"]}
    );
}

#[test]
fn a_unique_index_pairs_fields_per_element() {
    // MongoDB's keys are (1, 2) and (3, 4): a second document with x 1 and y 4 in one element
    // does not clash, as the cross product's (1, 4) did.
    let mut e = Engine::new();
    run(
        &mut e,
        doc! {"createIndexes": "u", "indexes": [{"key": {"a.x": 1, "a.y": 1}, "name": "xy", "unique": true}]},
    );
    run(
        &mut e,
        doc! {"insert": "u", "documents": [{"_id": 1, "a": [{"x": 1, "y": 2}, {"x": 3, "y": 4}]}]},
    );
    run(
        &mut e,
        doc! {"insert": "u", "documents": [{"_id": 2, "a": [{"x": 1, "y": 4}]}]},
    );
    let r = e.run_command(
        "t",
        &doc! {"insert": "u", "documents": [{"_id": 3, "a": {"x": 3, "y": 4}}]},
    );
    let errors = r.get_array("writeErrors").unwrap();
    assert_eq!(
        errors[0].as_document().unwrap().get_i32("code").unwrap(),
        11000
    );
}
