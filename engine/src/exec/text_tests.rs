//! `$text` through the find and explain commands, on the `articles` collection of MongoDB's
//! `$text` documentation (its results and scores are MongoDB's answers).

use bson::{Bson, Document, doc};

use crate::Engine;

fn run(e: &mut Engine, cmd: Document) -> Document {
    let r = e.run_command("test", &cmd);
    assert!(crate::reply_ok(&r), "{cmd:?} -> {r:?}");
    r
}

fn error(e: &mut Engine, cmd: Document) -> (i32, String) {
    let r = e.run_command("test", &cmd);
    assert!(!crate::reply_ok(&r), "{cmd:?} -> {r:?}");
    (
        r.get_i32("code").unwrap_or_default(),
        r.get_str("errmsg").unwrap_or_default().to_string(),
    )
}

fn articles() -> Engine {
    let mut e = Engine::new();
    let docs: Vec<Document> = vec![
        doc! {"_id": 1, "subject": "coffee", "author": "xyz", "views": 50},
        doc! {"_id": 2, "subject": "Coffee Shopping", "author": "efg", "views": 5},
        doc! {"_id": 3, "subject": "Baking a cake", "author": "abc", "views": 90},
        doc! {"_id": 4, "subject": "baking", "author": "xyz", "views": 100},
        doc! {"_id": 5, "subject": "Café Con Leche", "author": "abc", "views": 200},
        doc! {"_id": 6, "subject": "Сырники", "author": "jkl", "views": 80},
        doc! {"_id": 7, "subject": "coffee and cream", "author": "efg", "views": 10},
        doc! {"_id": 8, "subject": "Cafe con Leche", "author": "xyz", "views": 10},
    ];
    run(&mut e, doc! {"insert": "articles", "documents": docs});
    run(
        &mut e,
        doc! {"createIndexes": "articles", "indexes": [{"key": {"subject": "text"}, "name": "subject_text"}]},
    );
    e
}

fn find(e: &mut Engine, cmd: Document) -> Vec<Document> {
    let r = run(e, cmd);
    r.get_document("cursor")
        .and_then(|c| c.get_array("firstBatch"))
        .map(|b| b.iter().filter_map(|d| d.as_document().cloned()).collect())
        .unwrap_or_default()
}

fn ids(e: &mut Engine, search: Document) -> Vec<i32> {
    let mut out: Vec<i32> = find(e, doc! {"find": "articles", "filter": {"$text": search}})
        .iter()
        .map(|d| d.get_i32("_id").unwrap_or(-1))
        .collect();
    out.sort_unstable();
    out
}

#[test]
fn documented_searches_return_mongodb_documents() {
    let mut e = articles();
    assert_eq!(ids(&mut e, doc! {"$search": "coffee"}), [1, 2, 7]);
    assert_eq!(
        ids(&mut e, doc! {"$search": "bake coffee cake"}),
        [1, 2, 3, 4, 7]
    );
    assert_eq!(ids(&mut e, doc! {"$search": "\"coffee shop\""}), [2]);
    assert_eq!(ids(&mut e, doc! {"$search": "coffee -shop"}), [1, 7]);
    assert_eq!(
        ids(&mut e, doc! {"$search": "leche", "$language": "es"}),
        [5, 8]
    );
    assert_eq!(
        ids(&mut e, doc! {"$search": "Coffee", "$caseSensitive": true}),
        [2]
    );
    assert_eq!(
        ids(
            &mut e,
            doc! {"$search": "\"Café Con Leche\"", "$caseSensitive": true}
        ),
        [5]
    );
    assert_eq!(
        ids(
            &mut e,
            doc! {"$search": "CAFÉ", "$diacriticSensitive": true}
        ),
        [5]
    );
    assert_eq!(ids(&mut e, doc! {"$search": "сырники"}), [6]);
    assert_eq!(ids(&mut e, doc! {"$search": "-coffee"}), Vec::<i32>::new());
}

#[test]
fn scores_project_and_sort() {
    let mut e = articles();
    let docs = find(
        &mut e,
        doc! {"find": "articles", "filter": {"$text": {"$search": "cake"}},
        "projection": {"score": {"$meta": "textScore"}}},
    );
    assert_eq!(
        docs,
        [doc! {"_id": 3, "subject": "Baking a cake", "author": "abc", "views": 90, "score": 0.75}]
    );
    let docs = find(
        &mut e,
        doc! {"find": "articles", "filter": {"$text": {"$search": "coffee cake"}},
        "projection": {"_id": 1, "score": {"$meta": "textScore"}},
        "sort": {"score": {"$meta": "textScore"}, "_id": 1}},
    );
    assert_eq!(
        docs,
        [
            doc! {"_id": 1, "score": 1.0},
            doc! {"_id": 2, "score": 0.75},
            doc! {"_id": 3, "score": 0.75},
            doc! {"_id": 7, "score": 0.75},
        ]
    );
}

#[test]
fn explain_shows_text_plans_with_counters() {
    let mut e = articles();
    let r = run(
        &mut e,
        doc! {"explain": {"find": "articles", "filter": {"$text": {"$search": "coffee"}}},
        "verbosity": "executionStats"},
    );
    let planner = r.get_document("queryPlanner").unwrap();
    let winning = planner.get_document("winningPlan").unwrap();
    assert_eq!(winning.get_str("stage").unwrap(), "TEXT_MATCH");
    assert_eq!(winning.get_document("indexPrefix").unwrap(), &doc! {});
    assert_eq!(winning.get_str("indexName").unwrap(), "subject_text");
    assert_eq!(
        winning.get_document("parsedTextQuery").unwrap(),
        &doc! {"terms": ["coffe"], "negatedTerms": [], "phrases": [], "negatedPhrases": []}
    );
    assert_eq!(winning.get_i32("textIndexVersion").unwrap(), 3);
    let fetch = winning.get_document("inputStage").unwrap();
    assert_eq!(fetch.get_str("stage").unwrap(), "FETCH");
    let ixscan = fetch.get_document("inputStage").unwrap();
    assert_eq!(ixscan.get_str("stage").unwrap(), "IXSCAN");
    assert_eq!(
        ixscan.get_document("keyPattern").unwrap(),
        &doc! {"_fts": "text", "_ftsx": 1}
    );
    assert_eq!(ixscan.get_str("direction").unwrap(), "backward");
    assert_eq!(ixscan.get_document("indexBounds").unwrap(), &doc! {});
    let stats = r.get_document("executionStats").unwrap();
    assert_eq!(stats.get_i32("nReturned").unwrap(), 3);
    assert_eq!(stats.get_i32("totalKeysExamined").unwrap(), 3);
    assert_eq!(stats.get_i32("totalDocsExamined").unwrap(), 3);

    // With the score wanted and two terms: TEXT_MATCH over TEXT_OR over two IXSCANs.
    let r = run(
        &mut e,
        doc! {"explain": {"find": "articles", "filter": {"$text": {"$search": "coffee -cream cake"}},
        "projection": {"score": {"$meta": "textScore"}}}, "verbosity": "executionStats"},
    );
    let stages = r
        .get_document("executionStats")
        .and_then(|s| s.get_document("executionStages"))
        .unwrap();
    assert_eq!(stages.get_str("stage").unwrap(), "PROJECTION_DEFAULT");
    let text_match = stages.get_document("inputStage").unwrap();
    assert_eq!(text_match.get_str("stage").unwrap(), "TEXT_MATCH");
    assert_eq!(text_match.get_i32("docsRejected").unwrap(), 1);
    assert_eq!(text_match.get_i32("nReturned").unwrap(), 3);
    let text_or = text_match.get_document("inputStage").unwrap();
    assert_eq!(text_or.get_str("stage").unwrap(), "TEXT_OR");
    assert_eq!(text_or.get_i32("docsExamined").unwrap(), 4);
    assert_eq!(text_or.get_array("inputStages").unwrap().len(), 2);
}

#[test]
fn text_errors_match_mongodb() {
    let mut e = articles();
    run(&mut e, doc! {"insert": "plain", "documents": [{"a": "x"}]});
    assert_eq!(
        error(
            &mut e,
            doc! {"find": "plain", "filter": {"$text": {"$search": "x"}}}
        ),
        (27, "text index required for $text query".to_string())
    );
    assert_eq!(
        error(
            &mut e,
            doc! {"find": "nothere", "filter": {"$text": {"$search": "x"}}}
        )
        .0,
        27
    );
    assert_eq!(
        error(
            &mut e,
            doc! {"find": "articles", "filter": {"$nor": [{"$text": {"$search": "x"}}]}}
        ),
        (2, "text expression not allowed in nor".to_string())
    );
    assert_eq!(
        error(
            &mut e,
            doc! {"find": "articles", "filter": {"$and": [{"$text": {"$search": "x"}}, {"$text": {"$search": "y"}}]}}
        ),
        (2, "Too many text expressions".to_string())
    );
    assert_eq!(
        error(
            &mut e,
            doc! {"find": "articles", "filter": {"$or": [{"$text": {"$search": "x"}}, {"views": 1}]}}
        )
        .0,
        2
    );
    assert_eq!(
        error(
            &mut e,
            doc! {"find": "articles", "filter": {"$text": {"$search": "x", "$language": "xx"}}}
        ),
        (
            2,
            "unsupported language: \"xx\" for text index version 3".to_string()
        )
    );
    // Every text index has the key {_fts: "text", _ftsx: 1}: another one with the same
    // signature is found as an equivalent index (its weights differ) before the
    // one-text-index check (IndexCatalogImpl::_doesSpecConflictWithExisting).
    let (code, message) = error(
        &mut e,
        doc! {"createIndexes": "articles", "indexes": [{"key": {"author": "text"}, "name": "author_text"}]},
    );
    assert_eq!(code, 85);
    assert!(
        message
            .starts_with("An equivalent index already exists with a different name and options."),
        "{message}"
    );
    // With another signature (here a partial filter) the one-text-index check answers.
    assert_eq!(
        error(
            &mut e,
            doc! {"createIndexes": "articles", "indexes": [{"key": {"author": "text"}, "name": "author_text", "partialFilterExpression": {"views": {"$gt": 1}}}]}
        ),
        (
            67,
            "only one text index per collection allowed, found existing text index \"subject_text\""
                .to_string()
        )
    );
    // The same text index under another name is MongoDB's "different name" conflict.
    assert_eq!(
        error(
            &mut e,
            doc! {"createIndexes": "articles", "indexes": [{"key": {"subject": "text"}, "name": "other"}]}
        )
        .0,
        85
    );
}

#[test]
fn compound_text_index_needs_prefix_equality() {
    let mut e = Engine::new();
    run(
        &mut e,
        doc! {"insert": "c", "documents": [
            {"_id": 1, "store": "A", "t": "green tea", "n": 1},
            {"_id": 2, "store": "B", "t": "green tea", "n": 2},
            {"_id": 3, "store": "A", "t": "black coffee", "n": 3},
        ]},
    );
    run(
        &mut e,
        doc! {"createIndexes": "c", "indexes": [{"key": {"store": 1, "t": "text", "n": 1}, "name": "st"}]},
    );
    let got = find(
        &mut e,
        doc! {"find": "c", "filter": {"store": "A", "$text": {"$search": "tea"}, "n": {"$gt": 0}}},
    );
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].get("_id"), Some(&Bson::Int32(1)));
    let (code, message) = error(
        &mut e,
        doc! {"find": "c", "filter": {"$text": {"$search": "tea"}}},
    );
    assert_eq!(code, 2);
    assert!(message.contains("are equality predicates given for all prefix fields"));
}

#[test]
fn index_follows_writes() {
    let mut e = articles();
    run(
        &mut e,
        doc! {"update": "articles", "updates": [{"q": {"_id": 4}, "u": {"$set": {"subject": "iced coffee"}}}]},
    );
    run(
        &mut e,
        doc! {"delete": "articles", "deletes": [{"q": {"_id": 1}, "limit": 1}]},
    );
    assert_eq!(ids(&mut e, doc! {"$search": "coffee"}), [2, 4, 7]);
    // Writes select documents through the text plan too.
    let r = run(
        &mut e,
        doc! {"delete": "articles", "deletes": [{"q": {"$text": {"$search": "cream"}}, "limit": 0}]},
    );
    assert_eq!(r.get_i32("n").unwrap(), 1);
    let r = run(
        &mut e,
        doc! {"count": "articles", "query": {"$text": {"$search": "coffee"}}},
    );
    assert_eq!(r.get_i32("n").unwrap(), 2);
}

/// Issue #19 (engine difference 5): `$text` in an `$or` whose other branches are indexed is
/// planned as MongoDB's indexed OR (FETCH over OR over the text plan and the index scans);
/// with an unindexed branch it is MongoDB's "TEXT under OR" error. The cases are those of
/// jstests/core/or_inexact.js (cases 8 to 10) and MongoDB's text documentation.
#[test]
fn text_under_or_with_indexed_branches() {
    let sorted_ids = |docs: Vec<Document>| {
        let mut v: Vec<i32> = docs
            .iter()
            .map(|d| d.get_i32("_id").unwrap_or(-1))
            .collect();
        v.sort_unstable();
        v
    };
    let mut e = articles();
    let or_views = doc! {"$or": [{"$text": {"$search": "coffee"}}, {"views": 200}]};
    let (code, msg) = error(
        &mut e,
        doc! {"find": "articles", "filter": or_views.clone()},
    );
    assert_eq!(code, 2);
    assert!(
        msg.starts_with("Failed to produce a solution for TEXT under OR"),
        "{msg}"
    );
    run(
        &mut e,
        doc! {"createIndexes": "articles", "indexes": [{"key": {"views": 1}, "name": "views_1"}]},
    );
    let got = find(
        &mut e,
        doc! {"find": "articles", "filter": or_views.clone()},
    );
    assert_eq!(sorted_ids(got), vec![1, 2, 5, 7]);
    // A sibling of the `$or` filters the union.
    let contained =
        doc! {"author": "efg", "$or": [{"$text": {"$search": "coffee"}}, {"views": 200}]};
    let got = find(&mut e, doc! {"find": "articles", "filter": contained});
    assert_eq!(sorted_ids(got), vec![2, 7]);
    let counted = run(
        &mut e,
        doc! {"count": "articles", "query": or_views.clone()},
    );
    assert_eq!(counted.get_i32("n").ok(), Some(4));
    // The plan: FETCH over OR over the text plan and the views IXSCAN.
    let r = run(
        &mut e,
        doc! {"explain": {"find": "articles", "filter": or_views}, "verbosity": "queryPlanner"},
    );
    let plan = r
        .get_document("queryPlanner")
        .and_then(|q| q.get_document("winningPlan"))
        .unwrap();
    assert_eq!(plan.get_str("stage").ok(), Some("FETCH"));
    let or = plan.get_document("inputStage").unwrap();
    assert_eq!(or.get_str("stage").ok(), Some("OR"));
    let children: Vec<&str> = or
        .get_array("inputStages")
        .unwrap()
        .iter()
        .filter_map(|s| s.as_document()?.get_str("stage").ok())
        .collect();
    assert_eq!(children, vec!["TEXT_MATCH", "IXSCAN"]);

    // A compound text index with a prefix, as or_inexact.js case 10 (INEXACT_COVERED regex).
    let mut e = Engine::new();
    run(
        &mut e,
        doc! {"createIndexes": "t", "indexes": [
            {"key": {"pre": 1, "names": "text"}, "name": "pre_text"},
            {"key": {"other": 1}, "name": "other_1"},
        ]},
    );
    run(
        &mut e,
        doc! {"insert": "t", "documents": [
            {"_id": 0, "pre": 3, "names": "david dave", "other": "foo"},
            {"_id": 1, "pre": 3, "names": "david dave", "other": "foo"},
            {"_id": 2, "pre": 4, "names": "joseph joe joey", "other": "bar"},
            {"_id": 3, "pre": 3, "names": "david dave", "other": "baz"},
        ]},
    );
    let f = doc! {"$or": [{"$text": {"$search": "dave"}, "pre": 3, "other": "foo"}, {"other": {"$regex": "bar"}}]};
    let got = find(&mut e, doc! {"find": "t", "filter": f});
    assert_eq!(sorted_ids(got), vec![0, 1, 2]);
    // Without the prefix equality the text branch cannot use the index.
    let f = doc! {"$or": [{"$text": {"$search": "dave"}}, {"other": "bar"}]};
    assert_eq!(error(&mut e, doc! {"find": "t", "filter": f}).0, 2);
}

/// A `$lookup` whose sub-pipeline starts with a `$text` search reads `from` through its text
/// index (jstests/aggregation/sources/match/text_search_requires_index.js): without one it is
/// MongoDB's IndexNotFound (27), with one each outer document gets the matches.
#[test]
fn lookup_sub_pipeline_starting_with_text() {
    let mut e = Engine::new();
    run(
        &mut e,
        doc! {"insert": "outer", "documents": [{"_id": 1}, {"_id": 2}]},
    );
    run(
        &mut e,
        doc! {"insert": "notes", "documents": [
            {"_id": 10, "a": "coffee beans"}, {"_id": 11, "a": "green tea"}, {"_id": 12, "a": "coffee cups"},
        ]},
    );
    let pipeline = vec![bson::bson!({"$lookup": {
        "from": "notes",
        "as": "hits",
        "pipeline": [{"$match": {"$text": {"$search": "coffee"}}}, {"$sort": {"_id": 1}}, {"$project": {"_id": 1}}],
    }})];
    let cmd = doc! {"aggregate": "outer", "pipeline": pipeline, "cursor": {}};
    assert_eq!(error(&mut e, cmd.clone()).0, 27);
    run(
        &mut e,
        doc! {"createIndexes": "notes", "indexes": [{"key": {"a": "text"}, "name": "a_text"}]},
    );
    let r = run(&mut e, cmd);
    let batch = r
        .get_document("cursor")
        .and_then(|c| c.get_array("firstBatch"))
        .unwrap();
    assert_eq!(batch.len(), 2);
    for d in batch {
        let hits = d.as_document().unwrap().get_array("hits").unwrap();
        assert_eq!(
            hits,
            &vec![
                Bson::Document(doc! {"_id": 10}),
                Bson::Document(doc! {"_id": 12})
            ]
        );
    }
}
