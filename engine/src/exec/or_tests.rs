//! `$or` plan shapes: SUBPLAN over OR or SORT_MERGE, the COLLSCAN fallback, the contained-OR
//! candidate, and their counters.

use bson::{Bson, Document, doc};

use crate::Engine;

fn run(e: &mut Engine, cmd: Document) -> Document {
    super::tests::run(e, "t", cmd)
}

fn explain(e: &mut Engine, find: Document) -> Document {
    run(e, doc! {"explain": find, "verbosity": "executionStats"})
}

fn stage<'a>(d: &'a Document, path: &[&str]) -> &'a Document {
    let mut cur = d;
    for p in path {
        cur = match p.parse::<usize>() {
            Ok(i) => cur
                .get_array("inputStages")
                .unwrap()
                .get(i)
                .and_then(Bson::as_document)
                .unwrap(),
            Err(_) => cur.get_document(p).unwrap(),
        };
    }
    cur
}

fn setup() -> Engine {
    let mut e = Engine::new();
    let docs: Vec<Document> = (0..20)
        .map(|i| doc! {"_id": i, "a": i, "b": i % 5, "c": 100 - i})
        .collect();
    run(&mut e, doc! {"insert": "c", "documents": docs});
    run(
        &mut e,
        doc! {"createIndexes": "c", "indexes": [
            {"key": {"a": 1}, "name": "a_1"},
            {"key": {"b": 1}, "name": "b_1"},
        ]},
    );
    e
}

#[test]
fn rooted_or_is_subplanned_into_an_or_of_index_scans() {
    let mut e = setup();
    let r = explain(
        &mut e,
        doc! {"find": "c", "filter": {"$or": [{"a": {"$lt": 3}}, {"b": 1}, {"a": 1}]}},
    );
    let qp = r.get_document("queryPlanner").unwrap();
    let wp = qp.get_document("winningPlan").unwrap();
    assert_eq!(wp.get_str("stage").unwrap(), "SUBPLAN");
    assert_eq!(
        stage(wp, &["inputStage"]).get_str("stage").unwrap(),
        "FETCH"
    );
    let or = stage(wp, &["inputStage", "inputStage"]);
    assert_eq!(or.get_str("stage").unwrap(), "OR");
    let names: Vec<&str> = or
        .get_array("inputStages")
        .unwrap()
        .iter()
        .map(|s| s.as_document().unwrap().get_str("indexName").unwrap())
        .collect();
    assert_eq!(names, ["a_1", "b_1", "a_1"]);
    assert!(qp.get_array("rejectedPlans").unwrap().is_empty());
    let es = r.get_document("executionStats").unwrap();
    // a < 3: 0, 1, 2; b = 1: 1, 6, 11, 16; a = 1: 1 again.
    assert_eq!(es.get_i32("nReturned").unwrap(), 6);
    assert_eq!(es.get_i32("totalKeysExamined").unwrap(), 3 + 4 + 1);
    assert_eq!(es.get_i32("totalDocsExamined").unwrap(), 6);
    let or = stage(es, &["executionStages", "inputStage", "inputStage"]);
    assert_eq!(or.get_i32("dupsTested").unwrap(), 8);
    assert_eq!(or.get_i32("dupsDropped").unwrap(), 2);
    assert_eq!(or.get_i32("nReturned").unwrap(), 6);
}

#[test]
fn each_branch_races_its_own_candidates() {
    let mut e = setup();
    // The second branch could use a_1 or b_1; b = 0 AND a > 18 is answered fastest by a_1.
    let r = explain(
        &mut e,
        doc! {"find": "c", "filter": {"$or": [{"a": 5}, {"b": 0, "a": {"$gt": 18}}]}},
    );
    let or = stage(
        r.get_document("queryPlanner").unwrap(),
        &["winningPlan", "inputStage", "inputStage"],
    );
    let second = stage(or, &["1"]);
    assert_eq!(second.get_str("stage").unwrap(), "FETCH");
    assert_eq!(
        second.get_document("filter").unwrap(),
        &doc! {"b": {"$eq": 0}}
    );
    assert_eq!(
        stage(second, &["inputStage"]).get_str("indexName").unwrap(),
        "a_1"
    );
    let es = r.get_document("executionStats").unwrap();
    assert_eq!(es.get_i32("nReturned").unwrap(), 1);
}

#[test]
fn a_branch_without_an_index_makes_the_whole_or_a_collection_scan() {
    let mut e = setup();
    let r = explain(
        &mut e,
        doc! {"find": "c", "filter": {"$or": [{"a": 1}, {"c": 90}]}},
    );
    let wp = super::tests::winning_plan(&r);
    assert_eq!(wp.get_str("stage").unwrap(), "SUBPLAN");
    let scan = stage(wp, &["inputStage"]);
    assert_eq!(scan.get_str("stage").unwrap(), "COLLSCAN");
    assert_eq!(
        scan.get_document("filter").unwrap(),
        &doc! {"$or": [{"a": {"$eq": 1}}, {"c": {"$eq": 90}}]}
    );
    let es = r.get_document("executionStats").unwrap();
    assert_eq!(es.get_i32("nReturned").unwrap(), 2);
    assert_eq!(es.get_i32("totalDocsExamined").unwrap(), 20);
    let root = es.get_document("executionStages").unwrap();
    assert_eq!(root.get_str("stage").unwrap(), "SUBPLAN");
    assert_eq!(root.get_i32("works").unwrap(), 21);
}

#[test]
fn branches_that_each_provide_the_sort_are_merged() {
    let mut e = setup();
    run(
        &mut e,
        doc! {"createIndexes": "c", "indexes": [{"key": {"b": 1, "a": 1}, "name": "b_1_a_1"}]},
    );
    // (An `$or` of equalities on one path would become an `$in`: the branches differ.)
    let find =
        doc! {"find": "c", "filter": {"$or": [{"b": 1}, {"a": {"$gt": 15}}]}, "sort": {"a": 1}};
    // The {b: 1} branch ties between b_1 and b_1_a_1; MongoDB 8.0's tie-breaker takes the
    // shorter key pattern, which does not give the sort: the OR is sorted afterwards.
    let r = explain(&mut e, find.clone());
    let wp = super::tests::winning_plan(&r);
    assert_eq!(stage(wp, &["inputStage"]).get_str("stage").unwrap(), "SORT");
    let or = stage(wp, &["inputStage", "inputStage", "inputStage"]);
    assert_eq!(or.get_str("stage").unwrap(), "OR");
    assert_eq!(stage(or, &["0"]).get_str("indexName").unwrap(), "b_1");
    // Without b_1 each branch's index provides the sort, and the branches are merged.
    run(&mut e, doc! {"dropIndexes": "c", "index": "b_1"});
    let r = explain(&mut e, find.clone());
    let wp = super::tests::winning_plan(&r);
    let merge = stage(wp, &["inputStage", "inputStage"]);
    assert_eq!(merge.get_str("stage").unwrap(), "SORT_MERGE");
    assert_eq!(merge.get_document("sortPattern").unwrap(), &doc! {"a": 1});
    let names: Vec<&str> = ["0", "1"]
        .iter()
        .map(|i| stage(merge, &[i]).get_str("indexName").unwrap())
        .collect();
    assert_eq!(names, ["b_1_a_1", "a_1"]);
    let r = run(&mut e, find);
    let got: Vec<i32> = r
        .get_document("cursor")
        .unwrap()
        .get_array("firstBatch")
        .unwrap()
        .iter()
        .map(|d| d.as_document().unwrap().get_i32("a").unwrap())
        .collect();
    assert_eq!(got, [1, 6, 11, 16, 17, 18, 19]);
}

#[test]
fn branches_without_the_sort_get_a_blocking_sort_over_the_or() {
    let mut e = setup();
    let r = explain(
        &mut e,
        doc! {"find": "c", "filter": {"$or": [{"b": 1}, {"a": 3}]}, "sort": {"c": -1}},
    );
    let wp = super::tests::winning_plan(&r);
    let sort = stage(wp, &["inputStage"]);
    assert_eq!(sort.get_str("stage").unwrap(), "SORT");
    assert_eq!(
        stage(sort, &["inputStage", "inputStage"])
            .get_str("stage")
            .unwrap(),
        "OR"
    );
}

#[test]
fn contained_or_competes_with_the_other_conjuncts_indexes() {
    let mut e = setup();
    let r = run(
        &mut e,
        doc! {"explain": {"find": "c", "filter": {"c": {"$gt": 0}, "$or": [{"a": 2}, {"b": 4}]}},
        "verbosity": "allPlansExecution"},
    );
    let wp = super::tests::winning_plan(&r);
    assert_eq!(wp.get_str("stage").unwrap(), "FETCH");
    assert_eq!(wp.get_document("filter").unwrap(), &doc! {"c": {"$gt": 0}});
    assert_eq!(stage(wp, &["inputStage"]).get_str("stage").unwrap(), "OR");
    let es = r.get_document("executionStats").unwrap();
    assert_eq!(es.get_i32("nReturned").unwrap(), 5);
    // With no other index the contained $or is the only indexed plan.
    assert!(
        r.get_document("queryPlanner")
            .unwrap()
            .get_array("rejectedPlans")
            .unwrap()
            .is_empty()
    );
}
