//! Plan shapes and counters of count (COUNT, COUNT_SCAN, RECORD_STORE_FAST_COUNT), distinct
//! (DISTINCT_SCAN) and explained updates and findAndModify (UPDATE, DELETE).

use bson::{Document, doc};

use super::tests::winning_plan;
use crate::Engine;

fn run(e: &mut Engine, cmd: Document) -> Document {
    super::tests::run(e, "t", cmd)
}

fn explain(e: &mut Engine, cmd: Document) -> Document {
    run(e, doc! {"explain": cmd, "verbosity": "executionStats"})
}

fn stages(r: &Document) -> &Document {
    r.get_document("executionStats")
        .unwrap()
        .get_document("executionStages")
        .unwrap()
}

fn setup() -> Engine {
    let mut e = Engine::new();
    let docs: Vec<Document> = (0..20)
        .map(|i| doc! {"_id": i, "a": i % 4, "b": i, "tags": [i % 3, 10 + i % 2]})
        .collect();
    run(&mut e, doc! {"insert": "c", "documents": docs});
    run(
        &mut e,
        doc! {"createIndexes": "c", "indexes": [
            {"key": {"a": 1}, "name": "a_1"},
            {"key": {"tags": 1}, "name": "tags_1"},
        ]},
    );
    e
}

#[test]
fn count_answered_by_an_index_is_a_count_scan() {
    let mut e = setup();
    let r = explain(&mut e, doc! {"count": "c", "query": {"a": 2}});
    let wp = winning_plan(&r);
    assert_eq!(wp.get_str("stage").unwrap(), "COUNT");
    let scan = wp.get_document("inputStage").unwrap();
    assert_eq!(scan.get_str("stage").unwrap(), "COUNT_SCAN");
    assert_eq!(
        scan.get_document("indexBounds").unwrap(),
        &doc! {"startKey": {"a": 2}, "startKeyInclusive": true, "endKey": {"a": 2}, "endKeyInclusive": true}
    );
    let root = stages(&r);
    assert_eq!(root.get_i32("nCounted").unwrap(), 5);
    assert_eq!(root.get_i32("nReturned").unwrap(), 0);
    let scan = root.get_document("inputStage").unwrap();
    // COUNT_SCAN shows keysExamined before its plan fields.
    assert_eq!(
        scan.keys().nth(10).map(String::as_str),
        Some("keysExamined")
    );
    assert_eq!(scan.get_i32("keysExamined").unwrap(), 5);
    assert_eq!(
        run(
            &mut e,
            doc! {"count": "c", "query": {"a": 2}, "skip": 1, "limit": 3}
        ),
        doc! {"n": 3, "ok": 1.0}
    );
    // Multikey keys are counted once per document.
    assert_eq!(
        run(&mut e, doc! {"count": "c", "query": {"tags": {"$gte": 0}}}),
        doc! {"n": 20, "ok": 1.0}
    );
}

#[test]
fn count_with_a_residual_filter_counts_over_fetch_and_without_query_reads_the_size() {
    let mut e = setup();
    let r = explain(
        &mut e,
        doc! {"count": "c", "query": {"a": 2, "b": {"$gt": 5}}},
    );
    let wp = winning_plan(&r);
    assert_eq!(
        wp.get_document("inputStage")
            .unwrap()
            .get_str("stage")
            .unwrap(),
        "FETCH"
    );
    assert_eq!(stages(&r).get_i32("nCounted").unwrap(), 4);
    let r = explain(&mut e, doc! {"count": "c", "skip": 15});
    assert_eq!(
        winning_plan(&r).get_str("stage").unwrap(),
        "RECORD_STORE_FAST_COUNT"
    );
    assert_eq!(stages(&r).get_i32("nCounted").unwrap(), 5);
    assert_eq!(stages(&r).get_i32("nSkipped").unwrap(), 15);
    let r = explain(&mut e, doc! {"count": "c", "query": {"b": 3}});
    assert_eq!(
        winning_plan(&r)
            .get_document("inputStage")
            .unwrap()
            .get_str("stage")
            .unwrap(),
        "COLLSCAN"
    );
}

#[test]
fn distinct_on_an_indexed_field_is_a_distinct_scan() {
    let mut e = setup();
    let r = explain(&mut e, doc! {"distinct": "c", "key": "a"});
    let wp = winning_plan(&r);
    assert_eq!(wp.get_str("stage").unwrap(), "PROJECTION_COVERED");
    assert_eq!(
        wp.get_document("transformBy").unwrap(),
        &doc! {"_id": 0, "a": 1}
    );
    assert_eq!(
        wp.get_document("inputStage")
            .unwrap()
            .get_str("stage")
            .unwrap(),
        "DISTINCT_SCAN"
    );
    let scan = stages(&r).get_document("inputStage").unwrap();
    assert_eq!(scan.get_i32("keysExamined").unwrap(), 4);
    let values = |e: &mut Engine, cmd| run(e, cmd).get_array("values").unwrap().clone();
    assert_eq!(
        values(
            &mut e,
            doc! {"distinct": "c", "key": "a", "query": {"a": {"$gte": 2}}}
        ),
        vec![bson::Bson::Int32(2), bson::Bson::Int32(3)]
    );
    // A multikey index cannot serve DISTINCT_SCAN; the values are still unwound.
    let r = explain(&mut e, doc! {"distinct": "c", "key": "tags"});
    assert_ne!(
        winning_plan(&r).get_str("stage").unwrap(),
        "PROJECTION_COVERED"
    );
    assert_eq!(
        values(&mut e, doc! {"distinct": "c", "key": "tags"}).len(),
        5
    );
}

#[test]
fn explained_update_counts_matches_and_would_be_modifications() {
    let mut e = setup();
    let r = explain(
        &mut e,
        doc! {"update": "c", "updates": [{"q": {"a": 1}, "u": {"$set": {"b": 5}}, "multi": true}]},
    );
    let wp = winning_plan(&r);
    assert_eq!(wp.get_str("stage").unwrap(), "UPDATE");
    let root = stages(&r);
    assert_eq!(root.get_i32("nMatched").unwrap(), 5);
    // b is already 5 in one of them: a no-op does not count.
    assert_eq!(root.get_i32("nWouldModify").unwrap(), 4);
    assert_eq!(root.get_i32("nWouldUpsert").unwrap(), 0);
    let r = explain(
        &mut e,
        doc! {"update": "c", "updates": [{"q": {"a": 9}, "u": {"$set": {"b": 5}}, "upsert": true}]},
    );
    assert_eq!(stages(&r).get_i32("nWouldUpsert").unwrap(), 1);
    // Nothing was written.
    assert_eq!(
        run(&mut e, doc! {"count": "c", "query": {"b": 5}}),
        doc! {"n": 1, "ok": 1.0}
    );
    let r = explain(
        &mut e,
        doc! {"findAndModify": "c", "query": {"a": 3}, "sort": {"b": -1}, "update": {"$inc": {"b": 1}}},
    );
    let root = stages(&r);
    assert_eq!(root.get_str("stage").unwrap(), "UPDATE");
    assert_eq!(root.get_i32("nMatched").unwrap(), 1);
    let r = explain(
        &mut e,
        doc! {"findAndModify": "c", "query": {"a": 3}, "remove": true},
    );
    assert_eq!(stages(&r).get_str("stage").unwrap(), "DELETE");
    assert_eq!(stages(&r).get_i32("nWouldDelete").unwrap(), 1);
}
