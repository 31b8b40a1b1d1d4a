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
