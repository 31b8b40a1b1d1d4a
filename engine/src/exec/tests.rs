//! Planner and execution tests: index plans return exactly what a collection scan returns,
//! and the book's chapter 5 explain figures.

use bson::{Bson, Document, doc, oid::ObjectId};

use crate::Engine;
use crate::catalog::Namespace;
use crate::matcher::MatchContext;
use crate::query::CanonicalQuery;
use crate::query::{FindSpec, run_find};

pub(super) fn run(e: &mut Engine, db: &str, cmd: Document) -> Document {
    let r = e.run_command(db, &cmd);
    assert!(crate::reply_ok(&r), "{cmd:?} -> {r:?}");
    r
}

fn varied_documents() -> Vec<Document> {
    let values = [
        Bson::Int32(1),
        Bson::Int64(2),
        Bson::Double(2.5),
        Bson::Double(-1.0),
        Bson::String("apple".into()),
        Bson::String("banana".into()),
        Bson::String("app".into()),
        Bson::Null,
        Bson::Boolean(true),
        Bson::Array(vec![Bson::Int32(1), Bson::Int32(5)]),
        Bson::Array(vec![]),
        Bson::Array(vec![Bson::String("apple".into()), Bson::Null]),
        Bson::Document(doc! {"x": 1}),
        Bson::Double(f64::NAN),
        Bson::DateTime(bson::DateTime::from_millis(5)),
    ];
    let mut docs = Vec::new();
    for i in 0..120i32 {
        let mut d = doc! {"_id": i};
        if i % 7 != 3 {
            d.insert("a", values[(i as usize * 7) % values.len()].clone());
        }
        if i % 3 != 0 {
            d.insert("b", i % 10);
        }
        if i % 5 == 0 {
            d.insert("c", doc! {"d": i % 4});
        } else if i % 5 == 2 {
            d.insert(
                "c",
                vec![
                    Bson::Document(doc! {"d": 1}),
                    Bson::Document(doc! {"e": 1}),
                    Bson::Int32(4),
                ],
            );
        } else if i % 5 == 1 {
            d.insert(
                "c",
                vec![
                    Bson::Document(doc! {"d": i % 3}),
                    Bson::Document(doc! {"d": 9}),
                ],
            );
        }
        docs.push(d);
    }
    docs
}

fn filters() -> Vec<Document> {
    vec![
        doc! {},
        doc! {"a": 1},
        doc! {"a": 2.0},
        doc! {"a": "apple"},
        doc! {"a": null},
        doc! {"a": {"$gt": 1}},
        doc! {"a": {"$gte": 1, "$lt": 5}},
        doc! {"a": {"$lt": "b"}},
        doc! {"a": {"$gt": "a"}},
        doc! {"a": {"$lte": null}},
        doc! {"a": {"$in": [1, "banana", null]}},
        doc! {"a": {"$in": []}},
        doc! {"a": {"$exists": true}},
        doc! {"a": {"$exists": false}},
        doc! {"a": {"$regex": "^app"}},
        doc! {"a": {"$regex": "an"}},
        doc! {"a": {"$ne": 1}},
        doc! {"a": {"x": 1}},
        doc! {"a": [1, 5]},
        doc! {"a": {"$gt": 0, "$lt": 3}},
        doc! {"a": {"$gte": f64::NAN}},
        doc! {"a": {"$type": "string"}},
        doc! {"a": 1, "b": {"$gt": 3}},
        doc! {"b": {"$gte": 2, "$lte": 6}},
        doc! {"b": {"$in": [1, 4, 9]}, "a": {"$exists": true}},
        doc! {"b": {"$lt": 5}},
        doc! {"c.d": 1},
        doc! {"c.d": {"$gt": 0}},
        doc! {"c.d": {"$gt": 1, "$lt": 3}},
        doc! {"c.d": null},
        doc! {"c.d": {"$exists": false}},
        doc! {"c.0.d": 1},
        doc! {"$or": [{"a": 1}, {"b": 2}]},
        doc! {"$or": [{"a": {"$gt": 1}}, {"c.d": 1}]},
        doc! {"$or": [{"a": 1}, {"a": {"$in": [1, "apple"]}}, {"b": {"$gte": 8}}]},
        doc! {"b": {"$gt": 2}, "$or": [{"a": 1}, {"c.d": {"$lt": 2}}]},
        doc! {"$or": [{"a": "apple"}, {"zz": 1}]},
        doc! {"$or": [{"a": 1, "b": 1}, {"c.d": {"$exists": false}}]},
        doc! {"$and": [{"a": {"$gt": 0}}, {"b": {"$lt": 8}}]},
        doc! {"_id": 5},
        doc! {"_id": {"$in": [1, 2, 200]}},
        doc! {"_id": {"$gt": 100}, "b": 1},
        doc! {"a": {"$elemMatch": {"$gt": 1}}},
        doc! {"a": {"$all": [1, 5]}},
        doc! {"a": {"$mod": [2, 1]}},
        doc! {"$or": [{"a": {"$regex": "an"}}]},
        doc! {"b": {"$mod": [3, 0]}, "a": {"$regex": "^b"}},
    ]
}

/// Documents as bytes (NaN is not equal to itself as a value, but its bytes are).
fn bytes(docs: &[Document]) -> Vec<Vec<u8>> {
    docs.iter().map(|d| d.to_vec().unwrap()).collect()
}

fn sorted_by_id(mut docs: Vec<Document>) -> Vec<Vec<u8>> {
    docs.sort_by(|x, y| crate::value::compare_values(x.get("_id").unwrap(), y.get("_id").unwrap()));
    bytes(&docs)
}

#[test]
fn index_plans_return_what_a_collection_scan_returns() {
    let mut plain = Engine::new();
    let mut indexed = Engine::new();
    for e in [&mut plain, &mut indexed] {
        run(
            e,
            "t",
            doc! {"insert": "c", "documents": varied_documents()},
        );
    }
    run(
        &mut indexed,
        "t",
        doc! {"createIndexes": "c", "indexes": [
            {"key": {"a": 1}, "name": "a_1"},
            {"key": {"b": -1, "a": 1}, "name": "b_-1_a_1"},
            {"key": {"b": 1}, "name": "b_1_sparse", "sparse": true},
            {"key": {"c.d": 1}, "name": "c.d_1"},
            {"key": {"b": 1, "x": 1}, "name": "b_partial", "partialFilterExpression": {"b": {"$gt": 4}}},
        ]},
    );
    let ns = Namespace::new("t", "c");
    let sorts = [
        None,
        Some(doc! {"a": 1, "_id": 1}),
        Some(doc! {"b": -1, "_id": -1}),
    ];
    let mut compared = 0;
    for filter in filters() {
        for sort in &sorts {
            for limit in [None, Some(3)] {
                let spec =
                    FindSpec::parse(Some(&filter), sort.as_ref(), None, None, limit).unwrap();
                let expected = run_find(plain.catalog().collection(&ns), &spec).unwrap();
                let q = CanonicalQuery::new(&spec);
                let coll = indexed.catalog().collection(&ns);
                let got = super::find(coll, &q, &MatchContext::default()).unwrap();
                if sort.is_some() {
                    assert_eq!(
                        bytes(&got),
                        bytes(&expected),
                        "filter {filter:?} sort {sort:?} limit {limit:?}"
                    );
                } else if limit.is_none() {
                    assert_eq!(
                        sorted_by_id(got),
                        sorted_by_id(expected.clone()),
                        "filter {filter:?}"
                    );
                } else {
                    assert_eq!(got.len(), expected.len(), "filter {filter:?} limit");
                }
                // Every index, forced by hint, gives the same set too.
                for hint in ["a_1", "b_-1_a_1", "c.d_1"] {
                    let h = Bson::String(hint.into());
                    let q = q.clone().with_hint(Some(&h));
                    let got = super::find(coll, &q, &MatchContext::default()).unwrap();
                    if sort.is_some() {
                        assert_eq!(
                            bytes(&got),
                            bytes(&expected),
                            "hint {hint} filter {filter:?} sort {sort:?}"
                        );
                    } else if limit.is_none() {
                        assert_eq!(
                            sorted_by_id(got),
                            sorted_by_id(expected.clone()),
                            "hint {hint} {filter:?}"
                        );
                    }
                }
                compared += 1;
            }
        }
    }
    assert_eq!(compared, filters().len() * 6);
}

/// A find command's documents, through the planner.
fn planned_find(e: &Engine, db: &str, cmd: &Document) -> Vec<Document> {
    let ns = Namespace::new(db, cmd.get_str("find").unwrap());
    let get = |f: &str| cmd.get_document(f).ok();
    let spec = FindSpec::parse(get("filter"), get("sort"), get("projection"), None, None).unwrap();
    let request = crate::commands::request::find::FindRequest::parse(cmd).unwrap();
    let q = request.canonical(&spec);
    super::find(e.catalog().collection(&ns), &q, &MatchContext::default()).unwrap()
}

pub(super) fn winning_plan(r: &Document) -> &Document {
    r.get_document("queryPlanner")
        .and_then(|q| q.get_document("winningPlan"))
        .unwrap()
}

fn execution_stats(r: &Document) -> &Document {
    r.get_document("executionStats").unwrap()
}

fn explain(e: &mut Engine, db: &str, find: Document, verbosity: &str) -> Document {
    run(e, db, doc! {"explain": find, "verbosity": verbosity})
}

fn products(e: &mut Engine) {
    let prices = [56, 64, 53, 50, 89, 69, 71, 40, 41, 53];
    let docs: Vec<Document> = prices
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut id = [0u8; 12];
            id.copy_from_slice(
                &hex_bytes(&format!("54bee5c49a5bc523007bb{:03x}", 0x779 + i)),
            );
            doc! {"_id": ObjectId::from_bytes(id), "name": format!("Product {}", i + 1), "price": *p}
        })
        .collect();
    run(
        e,
        "ecommerce",
        doc! {"insert": "products", "documents": docs},
    );
}

fn hex_bytes(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap_or(0))
        .collect()
}

#[test]
fn book_chapter_5_collscan_then_index_then_covered() {
    let mut e = Engine::new();
    products(&mut e);
    let find = doc! {"find": "products", "filter": {"price": {"$gt": 65}}};
    let r = explain(&mut e, "ecommerce", find.clone(), "executionStats");
    let qp = r.get_document("queryPlanner").unwrap();
    assert_eq!(qp.get_str("namespace").unwrap(), "ecommerce.products");
    assert_eq!(
        qp.get_document("parsedQuery").unwrap(),
        &doc! {"price": {"$gt": 65}}
    );
    assert_eq!(
        qp.get_document("winningPlan").unwrap(),
        &doc! {"isCached": false, "stage": "COLLSCAN", "filter": {"price": {"$gt": 65}}, "direction": "forward"}
    );
    let es = execution_stats(&r);
    assert_eq!(es.get_i32("nReturned").unwrap(), 3);
    assert_eq!(es.get_i32("totalKeysExamined").unwrap(), 0);
    assert_eq!(es.get_i32("totalDocsExamined").unwrap(), 10);
    let stages = es.get_document("executionStages").unwrap();
    assert_eq!(stages.get_i32("works").unwrap(), 11);
    assert_eq!(stages.get_i32("needTime").unwrap(), 7);
    assert_eq!(stages.get_i32("isEOF").unwrap(), 1);
    assert_eq!(
        r.get_document("serverInfo")
            .unwrap()
            .get_str("host")
            .unwrap(),
        "sprout"
    );
    assert_eq!(r.get_str("explainVersion").unwrap(), "1");

    run(
        &mut e,
        "ecommerce",
        doc! {"createIndexes": "products", "indexes": [{"key": {"price": 1}, "name": "price_1"}]},
    );
    let r = explain(&mut e, "ecommerce", find.clone(), "executionStats");
    let wp = r
        .get_document("queryPlanner")
        .unwrap()
        .get_document("winningPlan")
        .unwrap();
    assert_eq!(wp.get_str("stage").unwrap(), "FETCH");
    let ix = wp.get_document("inputStage").unwrap();
    assert_eq!(
        ix,
        &doc! {
            "stage": "IXSCAN", "keyPattern": {"price": 1}, "indexName": "price_1",
            "isMultiKey": false, "multiKeyPaths": {"price": []}, "isUnique": false,
            "isSparse": false, "isPartial": false, "indexVersion": 2, "direction": "forward",
            "indexBounds": {"price": ["(65, inf.0]"]},
        }
    );
    let es = execution_stats(&r);
    assert_eq!(es.get_i32("nReturned").unwrap(), 3);
    assert_eq!(es.get_i32("totalKeysExamined").unwrap(), 3);
    assert_eq!(es.get_i32("totalDocsExamined").unwrap(), 3);
    // The same three documents, now in index order.
    assert_eq!(
        planned_find(
            &e,
            "ecommerce",
            &doc! {"find": "products", "filter": {"price": {"$gt": 65}}, "projection": {"price": 1, "_id": 0}}
        ),
        vec![doc! {"price": 69}, doc! {"price": 71}, doc! {"price": 89}]
    );
    // Through the find command: the same documents, in index order.
    let r = run(
        &mut e,
        "ecommerce",
        doc! {"find": "products", "filter": {"price": {"$gt": 65}}, "projection": {"price": 1, "_id": 0}},
    );
    assert_eq!(
        r.get_document("cursor")
            .unwrap()
            .get_array("firstBatch")
            .unwrap(),
        &vec![
            Bson::Document(doc! {"price": 69}),
            Bson::Document(doc! {"price": 71}),
            Bson::Document(doc! {"price": 89}),
        ]
    );
    let bad = e.run_command("ecommerce", &doc! {"find": "products", "hint": "nope"});
    assert_eq!(bad.get_i32("code").unwrap(), 2);
    let covered = doc! {"find": "products", "filter": {"price": {"$gt": 65}}, "projection": {"price": 1, "_id": 0}};
    let r = explain(&mut e, "ecommerce", covered, "executionStats");
    let wp = r
        .get_document("queryPlanner")
        .unwrap()
        .get_document("winningPlan")
        .unwrap();
    assert_eq!(wp.get_str("stage").unwrap(), "PROJECTION_COVERED");
    assert_eq!(
        wp.get_document("inputStage")
            .unwrap()
            .get_str("stage")
            .unwrap(),
        "IXSCAN"
    );
    let es = execution_stats(&r);
    assert_eq!(es.get_i32("nReturned").unwrap(), 3);
    assert_eq!(es.get_i32("totalKeysExamined").unwrap(), 3);
    assert_eq!(es.get_i32("totalDocsExamined").unwrap(), 0);
}

#[test]
fn embedded_field_projection_is_covered() {
    let mut e = Engine::new();
    let docs: Vec<Document> = (1..=3)
        .map(|i| doc! {"_id": i, "name": format!("Product {i}"), "supplier": {"name": format!("Supplier {i}"), "phone": "1"}})
        .collect();
    run(
        &mut e,
        "ecommerce",
        doc! {"insert": "products", "documents": docs},
    );
    run(
        &mut e,
        "ecommerce",
        doc! {"createIndexes": "products", "indexes": [{"key": {"supplier.name": 1}, "name": "supplier.name_1"}]},
    );
    let find = doc! {"find": "products", "filter": {"supplier.name": "Supplier 1"}, "projection": {"supplier.name": 1, "_id": 0}};
    assert_eq!(
        planned_find(&e, "ecommerce", &find),
        vec![doc! {"supplier": {"name": "Supplier 1"}}]
    );
    let r = explain(&mut e, "ecommerce", find, "executionStats");
    let wp = winning_plan(&r);
    assert_eq!(wp.get_str("stage").unwrap(), "PROJECTION_COVERED");
    assert_eq!(
        wp.get_document("inputStage")
            .unwrap()
            .get_str("stage")
            .unwrap(),
        "IXSCAN"
    );
    assert_eq!(execution_stats(&r).get_i32("totalDocsExamined").unwrap(), 0);
    // A field of the sub-document outside the index needs the document.
    let wider = doc! {"find": "products", "filter": {"supplier.name": "Supplier 1"}, "projection": {"supplier": 1, "_id": 0}};
    let r = explain(&mut e, "ecommerce", wider, "queryPlanner");
    assert_eq!(
        winning_plan(&r)
            .get_document("inputStage")
            .unwrap()
            .get_str("stage")
            .unwrap(),
        "FETCH"
    );
}

#[test]
fn multikey_in_query_fetches_and_dedups() {
    let mut e = Engine::new();
    let sellers = [
        ["seller3", "seller1"],
        ["seller2", "seller4"],
        ["seller2", "seller4"],
        ["seller1", "seller2"],
        ["seller2", "seller4"],
    ];
    let docs: Vec<Document> = sellers
        .iter()
        .enumerate()
        .map(|(i, s)| doc! {"_id": i as i32, "username": format!("customer{}", i + 1), "followedSellers": [s[0], s[1]]})
        .collect();
    run(
        &mut e,
        "ecommerce",
        doc! {"insert": "customers", "documents": docs},
    );
    run(
        &mut e,
        "ecommerce",
        doc! {"createIndexes": "customers", "indexes": [{"key": {"followedSellers": 1}, "name": "followedSellers_1"}]},
    );
    let find = doc! {"find": "customers", "filter": {"followedSellers": {"$in": ["seller1", "seller3"]}}, "projection": {"followedSellers": 1, "_id": 0}};
    assert_eq!(
        planned_find(&e, "ecommerce", &find),
        vec![
            doc! {"followedSellers": ["seller3", "seller1"]},
            doc! {"followedSellers": ["seller1", "seller2"]}
        ]
    );
    let r = explain(&mut e, "ecommerce", find, "executionStats");
    let wp = r
        .get_document("queryPlanner")
        .unwrap()
        .get_document("winningPlan")
        .unwrap();
    assert_eq!(wp.get_str("stage").unwrap(), "PROJECTION_SIMPLE");
    let fetch = wp.get_document("inputStage").unwrap();
    assert_eq!(fetch.get_str("stage").unwrap(), "FETCH");
    let ix = fetch.get_document("inputStage").unwrap();
    assert!(ix.get_bool("isMultiKey").unwrap());
    assert_eq!(
        ix.get_document("multiKeyPaths").unwrap(),
        &doc! {"followedSellers": ["followedSellers"]}
    );
    assert_eq!(
        ix.get_document("indexBounds").unwrap(),
        &doc! {"followedSellers": ["[\"seller1\", \"seller1\"]", "[\"seller3\", \"seller3\"]"]}
    );
    let es = execution_stats(&r);
    assert_eq!(es.get_i32("nReturned").unwrap(), 2);
    assert_eq!(es.get_i32("totalDocsExamined").unwrap(), 2);
    // seller1 ×2, seller2 (then a seek), seller3 (a duplicate of _id 0, dropped), seller4 (past
    // the last interval). MongoDB 8.0's IndexScan counts every key its cursor returns before
    // asking the IndexBoundsChecker, and with several intervals there is no end position, so
    // the key that ends the scan is examined too: 5. The book (MongoDB 3.0) prints 4; a lesson
    // on this figure should say so.
    assert_eq!(es.get_i32("totalKeysExamined").unwrap(), 5);
}

#[test]
fn rejected_plans_hints_idhack_and_sort_direction() {
    let mut e = Engine::new();
    let docs: Vec<Document> = (0..50)
        .map(|i| doc! {"_id": i, "a": i % 10, "b": i})
        .collect();
    run(&mut e, "t", doc! {"insert": "c", "documents": docs});
    run(
        &mut e,
        "t",
        doc! {"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1"}, {"key": {"b": 1}, "name": "b_1"}]},
    );
    // b is selective: the b_1 plan reaches EOF first and wins.
    let r = explain(
        &mut e,
        "t",
        doc! {"find": "c", "filter": {"a": 1, "b": {"$lt": 2}}},
        "allPlansExecution",
    );
    let qp = r.get_document("queryPlanner").unwrap();
    let wp = qp.get_document("winningPlan").unwrap();
    assert_eq!(
        wp.get_document("inputStage")
            .unwrap()
            .get_str("indexName")
            .unwrap(),
        "b_1"
    );
    assert_eq!(wp.get_document("filter").unwrap(), &doc! {"a": {"$eq": 1}});
    let rejected = qp.get_array("rejectedPlans").unwrap();
    assert_eq!(rejected.len(), 1);
    let all = r
        .get_document("executionStats")
        .unwrap()
        .get_array("allPlansExecution")
        .unwrap();
    assert_eq!(all.len(), 2);
    assert_eq!(execution_stats(&r).get_i32("nReturned").unwrap(), 1);
    // hint by key pattern and by name; a bad hint is an error.
    let r = explain(
        &mut e,
        "t",
        doc! {"find": "c", "filter": {"a": 3, "b": {"$lt": 5}}, "hint": {"a": 1}},
        "queryPlanner",
    );
    let wp = r
        .get_document("queryPlanner")
        .unwrap()
        .get_document("winningPlan")
        .unwrap();
    assert_eq!(
        wp.get_document("inputStage")
            .unwrap()
            .get_str("indexName")
            .unwrap(),
        "a_1"
    );
    assert!(!r.contains_key("executionStats"));
    let bad = e.run_command("t", &doc! {"explain": {"find": "c", "hint": "zz"}});
    assert_eq!(bad.get_i32("code").unwrap(), 2);
    // _id equality is an IDHACK.
    let r = explain(
        &mut e,
        "t",
        doc! {"find": "c", "filter": {"_id": 7}},
        "executionStats",
    );
    let es = execution_stats(&r);
    assert_eq!(
        es.get_document("executionStages")
            .unwrap()
            .get_str("stage")
            .unwrap(),
        "IDHACK"
    );
    assert_eq!(es.get_i32("totalKeysExamined").unwrap(), 1);
    // A descending sort on an indexed field scans backward with no SORT stage.
    let r = explain(
        &mut e,
        "t",
        doc! {"find": "c", "sort": {"b": -1}, "limit": 2},
        "executionStats",
    );
    let wp = r
        .get_document("queryPlanner")
        .unwrap()
        .get_document("winningPlan")
        .unwrap();
    assert_eq!(wp.get_str("stage").unwrap(), "LIMIT");
    let ix = wp
        .get_document("inputStage")
        .unwrap()
        .get_document("inputStage")
        .unwrap();
    assert_eq!(ix.get_str("direction").unwrap(), "backward");
    assert_eq!(
        ix.get_document("indexBounds").unwrap(),
        &doc! {"b": ["[MaxKey, MinKey]"]}
    );
    assert_eq!(execution_stats(&r).get_i32("totalKeysExamined").unwrap(), 2);
    // A sort no index provides is a blocking SORT with the limit pushed in.
    let r = explain(
        &mut e,
        "t",
        doc! {"find": "c", "filter": {"a": 2}, "sort": {"b": -1}, "limit": 2},
        "executionStats",
    );
    let es = execution_stats(&r);
    assert_eq!(es.get_i32("nReturned").unwrap(), 2);
    // A compound index with an equality and a range stops at the end of the range.
    run(
        &mut e,
        "t",
        doc! {"createIndexes": "c", "indexes": [{"key": {"a": 1, "b": -1}, "name": "a_1_b_-1"}]},
    );
    let r = explain(
        &mut e,
        "t",
        doc! {"find": "c", "filter": {"a": 4, "b": {"$gte": 14, "$lt": 40}}, "hint": "a_1_b_-1"},
        "executionStats",
    );
    let ix = winning_plan(&r).get_document("inputStage").unwrap();
    assert_eq!(
        ix.get_document("indexBounds").unwrap(),
        &doc! {"a": ["[4, 4]"], "b": ["(40, 14]"]}
    );
    let es = execution_stats(&r);
    assert_eq!(es.get_i32("nReturned").unwrap(), 3);
    assert_eq!(es.get_i32("totalKeysExamined").unwrap(), 3);
    // Explaining a delete counts what it would delete and deletes nothing.
    let r = explain(
        &mut e,
        "t",
        doc! {"delete": "c", "deletes": [{"q": {"b": {"$lt": 3}}, "limit": 0}]},
        "executionStats",
    );
    let es = execution_stats(&r);
    let stage = es.get_document("executionStages").unwrap();
    assert_eq!(stage.get_str("stage").unwrap(), "DELETE");
    assert_eq!(stage.get_i32("nWouldDelete").unwrap(), 3);
    assert_eq!(es.get_i32("nReturned").unwrap(), 0);
    assert_eq!(es.get_i32("totalKeysExamined").unwrap(), 3);
    assert_eq!(winning_plan(&r).get_str("stage").unwrap(), "DELETE");
    let r = explain(
        &mut e,
        "t",
        doc! {"delete": "c", "deletes": [{"q": {"b": {"$lt": 3}}, "limit": 1}]},
        "executionStats",
    );
    let stage = execution_stats(&r).get_document("executionStages").unwrap();
    assert_eq!(stage.get_i32("nWouldDelete").unwrap(), 1);
    let r = run(&mut e, "t", doc! {"count": "c"});
    assert_eq!(r.get_i32("n").unwrap(), 50);
    // Writes select through the same plans: record ids in index order.
    let ns = Namespace::new("t", "c");
    let filter = doc! {"b": {"$gte": 47}};
    let spec = FindSpec::parse(Some(&filter), None, None, None, None).unwrap();
    let ids =
        super::matching_record_ids(e.catalog().collection(&ns), &spec, &MatchContext::default())
            .unwrap();
    assert_eq!(ids, vec![48, 49, 50]);
    // Hidden indexes are not planned.
    let mut e2 = Engine::new();
    run(
        &mut e2,
        "t",
        doc! {"insert": "c", "documents": [{"_id": 1, "a": 1}]},
    );
    run(
        &mut e2,
        "t",
        doc! {"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1", "hidden": true}]},
    );
    let r = explain(
        &mut e2,
        "t",
        doc! {"find": "c", "filter": {"a": 1}},
        "queryPlanner",
    );
    assert_eq!(winning_plan(&r).get_str("stage").unwrap(), "COLLSCAN");
    // A missing collection is an EOF plan.
    let r = explain(
        &mut e2,
        "t",
        doc! {"find": "none", "filter": {"a": 1}},
        "executionStats",
    );
    assert_eq!(winning_plan(&r).get_str("stage").unwrap(), "EOF");
}

/// The IXSCAN of a hinted find on `a_1`, with the execution counters.
fn hinted_scan(e: &mut Engine, filter: Document) -> (Document, Document) {
    let r = explain(
        e,
        "db",
        doc! {"find": "k", "filter": filter, "hint": {"a": 1}},
        "executionStats",
    );
    let mut stage = winning_plan(&r).clone();
    while stage.get_str("stage").unwrap() != "IXSCAN" {
        stage = stage.get_document("inputStage").unwrap().clone();
    }
    (stage, execution_stats(&r).clone())
}

/// MongoDB's INEXACT_COVERED predicates (a regex, `$mod`) are tested on the index key inside
/// the IXSCAN when the key part holds no arrays, so documents whose key fails are never
/// fetched (jstests/core/and3.js, mod1.js); `$mod` scans every number, NaN to infinity.
#[test]
fn regex_and_mod_are_tested_on_index_keys() {
    let mut e = Engine::new();
    let docs = vec![
        doc! {"_id": 1, "a": 1},
        doc! {"_id": 2, "a": "foo"},
        doc! {"_id": 3, "a": 11},
        doc! {"_id": 4, "a": 20},
        doc! {"_id": 5, "a": "bar"},
    ];
    run(&mut e, "db", doc! {"insert": "k", "documents": docs});
    run(
        &mut e,
        "db",
        doc! {"createIndexes": "k", "indexes": [{"key": {"a": 1}, "name": "a_1"}]},
    );
    let (ix, es) = hinted_scan(&mut e, doc! {"a": {"$mod": [10, 1]}});
    assert_eq!(
        ix.get_document("indexBounds").unwrap(),
        &doc! {"a": ["[nan.0, inf.0]"]}
    );
    assert_eq!(
        ix.get_document("filter").unwrap(),
        &doc! {"a": {"$mod": [10_i64, 1_i64]}}
    );
    assert_eq!(es.get_i32("totalKeysExamined").unwrap(), 3);
    assert_eq!(es.get_i32("totalDocsExamined").unwrap(), 2);
    assert_eq!(es.get_i32("nReturned").unwrap(), 2);

    for filter in [
        doc! {"a": {"$regex": "o"}},
        doc! {"$or": [{"a": {"$regex": "o"}}]},
    ] {
        let (ix, es) = hinted_scan(&mut e, filter);
        assert!(ix.get_document("filter").is_ok(), "{ix:?}");
        assert_eq!(es.get_i32("totalDocsExamined").unwrap(), 1);
        assert_eq!(es.get_i32("nReturned").unwrap(), 1);
    }
    // No key matches: nothing is fetched.
    let (_, es) = hinted_scan(&mut e, doc! {"a": {"$regex": "z"}});
    assert_eq!(es.get_i32("totalDocsExamined").unwrap(), 0);

    // Once the path holds an array, a key is one element: the document decides.
    run(
        &mut e,
        "db",
        doc! {"insert": "k", "documents": [{"_id": 6, "a": ["zoo", 3]}]},
    );
    let (ix, es) = hinted_scan(&mut e, doc! {"a": {"$regex": "o"}});
    assert!(ix.get_document("filter").is_err(), "{ix:?}");
    assert_eq!(es.get_i32("nReturned").unwrap(), 2);
}

/// `showRecordId` appends `$recordId` (a long) to every result, after the projection, whatever
/// the plan: a collection scan, an `_id` lookup, a covered index scan
/// (jstests/core/show_record_id.js).
#[test]
fn show_record_id_marks_every_result() {
    let mut e = Engine::new();
    run(
        &mut e,
        "db",
        doc! {"insert": "r", "documents": [{"_id": 0, "a": 1}, {"_id": 1, "a": 2}]},
    );
    run(
        &mut e,
        "db",
        doc! {"createIndexes": "r", "indexes": [{"key": {"a": 1}, "name": "a_1"}]},
    );
    let finds = [
        doc! {"find": "r", "showRecordId": true},
        doc! {"find": "r", "filter": {"_id": 1}, "showRecordId": true},
        doc! {"find": "r", "projection": {"_id": 0, "a": 1}, "hint": {"a": 1}, "showRecordId": true},
    ];
    for find in finds {
        let r = run(&mut e, "db", find.clone());
        let batch = r
            .get_document("cursor")
            .unwrap()
            .get_array("firstBatch")
            .unwrap();
        assert!(!batch.is_empty());
        for d in batch {
            let d = d.as_document().unwrap();
            let (last, value) = d.iter().last().unwrap();
            assert_eq!(last, "$recordId", "{find:?} -> {d:?}");
            assert!(matches!(value, Bson::Int64(n) if *n > 0), "{d:?}");
        }
    }
    let r = run(&mut e, "db", doc! {"find": "r", "showRecordId": false});
    let first = r
        .get_document("cursor")
        .unwrap()
        .get_array("firstBatch")
        .unwrap()[0]
        .as_document()
        .unwrap()
        .clone();
    assert!(!first.contains_key("$recordId"));
}

/// `t.c` holding [`varied_documents`], some grown (their bytes move to the end of the
/// buffer), others deleted.
fn varied_grown_and_deleted() -> Engine {
    let mut e = Engine::new();
    let docs = varied_documents();
    run(&mut e, "t", doc! {"insert": "c", "documents": docs});
    run(
        &mut e,
        "t",
        doc! {"update": "c", "updates": [
            {"q": {"b": {"$lt": 3}}, "u": {"$set": {"pad": "x".repeat(300), "a": "apple"}}, "multi": true},
        ]},
    );
    run(
        &mut e,
        "t",
        doc! {"delete": "c", "deletes": [{"q": {"b": 7}, "limit": 0}]},
    );
    e
}

/// A COLLSCAN answers from the stored documents' BSON bytes where it can
/// (`matcher::Filter::matches_raw`): it returns exactly the documents the document trees
/// match, in natural order, also after updates (bytes replaced) and deletes (bytes dropped,
/// the buffer rewritten).
#[test]
fn a_scan_over_stored_bytes_returns_what_the_documents_match() {
    let mut e = varied_grown_and_deleted();
    let ns = Namespace::new("t", "c");
    for f in filters() {
        let parsed = crate::matcher::Filter::parse(&f).unwrap();
        let stored: Vec<Document> = e
            .catalog()
            .collection(&ns)
            .unwrap()
            .iter()
            .filter(|(_, d)| parsed.matches(d))
            .map(|(_, d)| d.clone())
            .collect();
        let r = run(
            &mut e,
            "t",
            doc! {"find": "c", "filter": f.clone(), "hint": {"$natural": 1}, "batchSize": 1000},
        );
        let found = crate::commands::first_batch(&r);
        assert_eq!(bytes(&found), bytes(&stored), "{f}");
    }
}

/// The loops over a lone collection scan (`scanned_documents`, `scanned_bytes`,
/// `scanned_count`) return what the COLLSCAN stage returns, for every filter, forward and
/// backward; through the commands, a count, an in-place `$group` and a find replying from
/// stored bytes answer as the stage plans do.
#[test]
fn scan_loops_return_what_the_collscan_stage_returns() {
    let mut e = varied_grown_and_deleted();
    let ns = Namespace::new("t", "c");
    let coll = e.catalog().collection(&ns);
    let ctx = MatchContext::default();
    for f in filters() {
        for natural in [1, -1] {
            let spec = FindSpec::parse(Some(&f), None, None, None, None).unwrap();
            let hint = Bson::Document(doc! {"$natural": natural});
            let query = CanonicalQuery::new(&spec).with_hint(Some(&hint));
            let want = super::find(coll, &query, &ctx).unwrap();
            let docs = super::scanned_documents(coll, &query, &ctx)
                .unwrap()
                .unwrap();
            let docs: Vec<Document> = docs.into_iter().cloned().collect();
            assert_eq!(bytes(&docs), bytes(&want), "{f} {natural}");
            let stored = super::scanned_bytes(coll, &query, &ctx).unwrap().unwrap();
            let stored: Vec<Vec<u8>> = stored.into_iter().map(|(_, b)| b.to_vec()).collect();
            assert_eq!(stored, bytes(&want), "{f} {natural}");
            // Counted with the hint, the loop is not taken; without it, where no index serves.
            let unhinted = CanonicalQuery::new(&spec);
            if let Some(n) = super::scanned_count(coll, &unhinted, &ctx).unwrap() {
                let (counted, _) =
                    super::count::execute_count(coll, &unhinted, 0, 0, &ctx, true).unwrap();
                assert_eq!(n, counted, "{f}");
                assert_eq!(n as usize, want.len(), "{f}");
            }
        }
    }
    // A filter the bytes cannot take (a dotted path) reads the documents; an index on a
    // filtered field leaves the count to the planner.
    let spec = FindSpec::parse(Some(&doc! {"c.d": 1}), None, None, None, None).unwrap();
    assert_eq!(
        super::scanned_count(coll, &CanonicalQuery::new(&spec), &ctx).unwrap(),
        None
    );
    let spec = FindSpec::parse(Some(&doc! {"b": {"$gt": 2}}), None, None, None, None).unwrap();
    assert!(
        super::scanned_count(coll, &CanonicalQuery::new(&spec), &ctx)
            .unwrap()
            .is_some()
    );
    run(
        &mut e,
        "t",
        doc! {"createIndexes": "c", "indexes": [{"key": {"b": 1}, "name": "b_1"}]},
    );
    let coll = e.catalog().collection(&ns);
    assert_eq!(
        super::scanned_count(coll, &CanonicalQuery::new(&spec), &ctx).unwrap(),
        None
    );
}

/// Stored bytes that repeat a field name decode to one value per name (the last); a scan
/// answers as that document does, not from the first of the repeated values in the bytes.
#[test]
fn a_loaded_document_that_repeats_a_name_is_scanned_as_decoded() {
    let ns = Namespace::new("t", "c");
    // {_id: 1, a: 1, a: 2}
    let bytes = vec![
        28, 0, 0, 0, 0x10, b'_', b'i', b'd', 0, 1, 0, 0, 0, 0x10, b'a', 0, 1, 0, 0, 0, 0x10, b'a',
        0, 2, 0, 0, 0, 0,
    ];
    let snapshot = crate::storage::Snapshot {
        collections: vec![(ns.clone(), Document::new())],
        documents: vec![(ns, 1, bytes)],
    };
    let mut e = Engine::new().load(snapshot).unwrap();
    for (filter, n) in [(doc! {"a": 2}, 1), (doc! {"a": 1}, 0)] {
        let r = run(&mut e, "t", doc! {"find": "c", "filter": filter.clone()});
        let found = r
            .get_document("cursor")
            .unwrap()
            .get_array("firstBatch")
            .unwrap()
            .len();
        assert_eq!(found, n, "{filter}");
    }
}

/// jstests/core/index_check6.js: bounds that are not one range of keys are walked as MongoDB's
/// IndexBoundsChecker walks them, so `totalKeysExamined` is the keys in bounds plus one per
/// seek, in both directions and for descending key parts.
#[test]
fn bounds_checker_counts_keys_as_mongodb_does() {
    let mut e = Engine::new();
    let docs: Vec<Document> = (10..50)
        .flat_map(|age| (0..10).map(move |rating| doc! {"age": age, "rating": rating}))
        .collect();
    run(&mut e, "t", doc! {"insert": "c", "documents": docs});
    let keys = |e: &mut Engine, index: Document, filter: Document, sort: Document| {
        let find = doc! {"find": "c", "filter": filter, "hint": index, "sort": sort};
        let r = explain(e, "t", find, "executionStats");
        let es = execution_stats(&r);
        (
            es.get_i32("totalKeysExamined").unwrap(),
            es.get_i32("nReturned").unwrap(),
        )
    };
    let range = doc! {"$gte": 25, "$lte": 30};
    for (spec, sort) in [
        (doc! {"age": 1, "rating": 1}, doc! {}),
        (doc! {"age": 1, "rating": 1}, doc! {"age": -1, "rating": -1}),
        (doc! {"age": 1, "rating": -1}, doc! {}),
        (doc! {"age": -1, "rating": -1}, doc! {"age": 1, "rating": 1}),
    ] {
        run(
            &mut e,
            "t",
            doc! {"createIndexes": "c", "indexes": [{"key": spec.clone(), "name": "x"}]},
        );
        let k = |e: &mut Engine, filter: Document| keys(e, spec.clone(), filter, sort.clone());
        assert_eq!(
            k(
                &mut e,
                doc! {"age": range.clone(), "rating": {"$in": [0, 9]}}
            ),
            (19, 12),
            "{spec:?} {sort:?}"
        );
        assert_eq!(
            k(
                &mut e,
                doc! {"age": range.clone(), "rating": {"$in": [0, 8]}}
            ),
            (24, 12)
        );
        assert_eq!(
            k(
                &mut e,
                doc! {"age": range.clone(), "rating": {"$in": [1, 8]}}
            ),
            (29, 12)
        );
        assert_eq!(
            k(&mut e, doc! {"age": {"$gte": 29, "$lte": 30}, "rating": 5}),
            (5, 2)
        );
        assert_eq!(
            k(
                &mut e,
                doc! {"age": {"$gte": 29, "$lte": 30}, "rating": {"$gte": 4, "$lte": 5}}
            ),
            (7, 4)
        );
        run(&mut e, "t", doc! {"dropIndexes": "c", "index": "x"});
    }
}

/// Scans that answer from stored bytes (the COLLSCAN stage, the count's loop, the find's reply
/// from stored bytes) over runs of one layout whose strings change length, broken by a field of
/// another type, a missing or renamed field, a field moved, an array or embedded document where
/// the bytes cannot decide, answer as the documents do, forward and backward.
#[test]
fn raw_scans_over_changing_layouts_return_what_the_documents_match() {
    let mut e = Engine::new();
    let mut docs = Vec::new();
    for i in 0..400i32 {
        let sku = "s".repeat((i % 13) as usize);
        let cat = ["games", "toys", "", "gamez"][(i % 4) as usize];
        let d = match (i / 25) % 8 {
            0 | 2 | 4 => {
                doc! {"_id": i, "sku": sku, "price": f64::from(i) / 3.0, "category": cat, "stock": i % 500}
            }
            1 => doc! {"_id": i, "sku": sku, "price": i, "category": cat, "stock": i64::from(i)},
            3 => doc! {"_id": i, "sku": sku, "category": cat},
            5 => doc! {"_id": i, "category": cat, "sku": sku, "stock": [i, 300]},
            6 => doc! {"_id": i, "sku": {"s": sku}, "price": 1.5, "categorz": cat, "stock": i},
            _ => doc! {"_id": i, "sku": sku, "price": 2.5, "category": [cat], "stock": {"n": i}},
        };
        docs.push(d);
    }
    run(&mut e, "t", doc! {"insert": "c", "documents": docs});
    let ns = Namespace::new("t", "c");
    let filters = [
        doc! {"category": "games", "stock": {"$gt": 250}},
        doc! {"category": "games"},
        doc! {"stock": {"$lte": 100}, "category": {"$ne": "toys"}},
        doc! {"category": {"$exists": false}},
        doc! {"price": {"$gte": 10}, "missing": null},
    ];
    for f in filters {
        let parsed = crate::matcher::Filter::parse(&f).unwrap();
        let coll = e.catalog().collection(&ns).unwrap();
        let mut want: Vec<Document> = coll
            .iter()
            .filter(|(_, d)| parsed.matches(d))
            .map(|(_, d)| d.clone())
            .collect();
        assert!(!want.is_empty(), "{f}");
        for natural in [1, -1] {
            let r = run(
                &mut e,
                "t",
                doc! {"find": "c", "filter": f.clone(), "hint": {"$natural": natural}, "batchSize": 1000},
            );
            let found = crate::commands::first_batch(&r);
            assert_eq!(bytes(&found), bytes(&want), "{f} {natural}");
            want.reverse();
        }
        let r = run(&mut e, "t", doc! {"count": "c", "query": f.clone()});
        assert_eq!(r.get_i32("n").unwrap() as usize, want.len(), "{f}");
        // Unhinted, the find replies from the stored bytes (`scanned_bytes`).
        let r = run(
            &mut e,
            "t",
            doc! {"find": "c", "filter": f.clone(), "batchSize": 1000},
        );
        let found = r
            .get_document("cursor")
            .unwrap()
            .get_array("firstBatch")
            .unwrap();
        assert_eq!(found.len(), want.len(), "{f}");
    }
}

/// A scan run again on unchanged data decides its clauses from value columns
/// (`catalog::scan_columns`, built the third time): the same documents, in the same order, as
/// the documents' own answers, before, at and after the build, forwards and backwards, after
/// writes (which drop the columns), and under a collation (the tables are made per scan).
#[test]
fn column_scans_return_what_the_documents_match_across_writes() {
    let mut e = Engine::new();
    let mut docs = Vec::new();
    for i in 0..300i32 {
        let cat = ["games", "Games", "toys", "", "GAMES"][(i % 5) as usize];
        let d = match (i / 20) % 6 {
            0 | 2 => {
                doc! {"_id": i, "sku": "s".repeat((i % 7) as usize), "category": cat, "stock": i % 40}
            }
            1 => doc! {"_id": i, "category": cat, "stock": f64::from(i % 40) / 2.0},
            3 => doc! {"_id": i, "category": [cat, "x"], "stock": [i % 40, 3]},
            4 => doc! {"_id": i, "category": {"c": cat}, "stock": Bson::Null},
            _ => {
                doc! {"_id": i, "stock": if i % 2 == 0 { Bson::Double(f64::NAN) } else { Bson::Int64(i64::from(i % 40)) }}
            }
        };
        docs.push(d);
    }
    run(&mut e, "t", doc! {"insert": "c", "documents": docs});
    let ns = Namespace::new("t", "c");
    let filters = [
        doc! {"category": "games", "stock": {"$gt": 25}},
        doc! {"stock": {"$lte": 10}, "category": {"$ne": "toys"}},
        doc! {"category": {"$in": ["toys", "", null]}},
        doc! {"category": {"$exists": false}},
        doc! {"stock": null},
        doc! {"stock": {"$type": "double"}},
        doc! {"category": {"$regex": "^g", "$options": "i"}, "stock": {"$gte": 3}},
        doc! {"stock": {"$gte": f64::NAN}},
        doc! {"category": {"c": "toys"}},
    ];
    let check = |e: &mut Engine, round: &str| {
        for f in &filters {
            let parsed = crate::matcher::Filter::parse(f).unwrap();
            let coll = e.catalog().collection(&ns).unwrap();
            let want: Vec<Document> = coll
                .iter()
                .filter(|(_, d)| parsed.matches(d))
                .map(|(_, d)| d.clone())
                .collect();
            for time in 0..4 {
                let r = run(
                    e,
                    "t",
                    doc! {"find": "c", "filter": f.clone(), "batchSize": 1000},
                );
                let found = crate::commands::first_batch(&r);
                assert_eq!(bytes(&found), bytes(&want), "{round} {f} time {time}");
                let r = run(e, "t", doc! {"count": "c", "query": f.clone()});
                assert_eq!(r.get_i32("n").unwrap() as usize, want.len(), "{round} {f}");
                let r = run(
                    e,
                    "t",
                    doc! {"find": "c", "filter": f.clone(), "sort": {"$natural": -1}, "batchSize": 1000},
                );
                let mut back = want.clone();
                back.reverse();
                assert_eq!(
                    bytes(&crate::commands::first_batch(&r)),
                    bytes(&back),
                    "{round} {f} backwards"
                );
            }
        }
        // Case-insensitive: the column's tables are made under the scan's collation.
        let insensitive = doc! {"locale": "en", "strength": 2};
        let games = |d: &Document| match d.get("category") {
            Some(Bson::String(c)) => c.eq_ignore_ascii_case("games"),
            Some(Bson::Array(a)) => a
                .iter()
                .any(|c| c.as_str().is_some_and(|c| c.eq_ignore_ascii_case("games"))),
            _ => false,
        };
        let coll = e.catalog().collection(&ns).unwrap();
        let want = coll.iter().filter(|(_, d)| games(d)).count();
        for time in 0..3 {
            let r = run(
                e,
                "t",
                doc! {"find": "c", "filter": {"category": "GAMES"}, "collation": insensitive.clone(), "batchSize": 1000},
            );
            let found = crate::commands::first_batch(&r);
            assert_eq!(found.len(), want, "{round} collation time {time}");
            let r = run(
                e,
                "t",
                doc! {"find": "c", "filter": {"category": "GAMES"}, "batchSize": 1000},
            );
            let exact = crate::commands::first_batch(&r);
            assert!(exact.iter().all(games), "{round} binary");
            let upper = |d: &Document| match d.get("category") {
                Some(Bson::String(c)) => c == "GAMES",
                Some(Bson::Array(a)) => a.iter().any(|c| c.as_str() == Some("GAMES")),
                _ => false,
            };
            assert!(exact.iter().all(upper), "{round} binary");
            let coll = e.catalog().collection(&ns).unwrap();
            assert_eq!(
                exact.len(),
                coll.iter().filter(|(_, d)| upper(d)).count(),
                "{round} binary"
            );
        }
    };
    check(&mut e, "inserted");
    let coll = e.catalog().collection(&ns).unwrap();
    assert!(
        coll.scan_columns(&["category", "stock"]).is_some(),
        "the scans above built the columns"
    );
    run(
        &mut e,
        "t",
        doc! {"update": "c", "updates": [{"q": {"stock": {"$lt": 5}}, "u": {"$set": {"category": "games", "stock": 30}}, "multi": true}]},
    );
    check(&mut e, "updated");
    run(
        &mut e,
        "t",
        doc! {"delete": "c", "deletes": [{"q": {"category": "toys"}, "limit": 0}]},
    );
    run(
        &mut e,
        "t",
        doc! {"insert": "c", "documents": [{"_id": 1000, "category": "games", "stock": 39}, {"_id": 1001}]},
    );
    check(&mut e, "deleted and inserted");
}
