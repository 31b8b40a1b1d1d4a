//! Metadata through more of the pipeline (session 19): `$sort` by `{$meta: "geoNearDistance"}`
//! and `{$meta: "randVal"}`, `{$meta: "sortKey"}`, `"indexKey"`, `"recordId"`, `"randVal"`, and
//! `$replaceRoot`/`$replaceWith`, `$redact` and `$sample` carrying the metadata, as MongoDB
//! 8.0's `DocumentMetadataFields` does.

use bson::{Bson, Document, doc};

use crate::Engine;

fn ok(r: &Document) {
    assert!(crate::reply_ok(r), "{r:?}");
}

fn engine_with(docs: Vec<Document>, index: Document) -> Engine {
    let mut e = Engine::new();
    ok(&e.run_command("t", &doc! {"insert": "c", "documents": docs}));
    ok(&e.run_command(
        "t",
        &doc! {"createIndexes": "c", "indexes": [{"key": index, "name": "i"}]},
    ));
    e
}

fn text_engine() -> Engine {
    engine_with(
        vec![
            doc! {"_id": 1, "title": "cakes and ale"},
            doc! {"_id": 2, "title": "more cakes"},
            doc! {"_id": 3, "title": "bread"},
            doc! {"_id": 4, "title": "some cakes cakes"},
        ],
        doc! {"title": "text"},
    )
}

fn aggregate(e: &mut Engine, pipeline: Vec<Document>, extra: Document) -> Document {
    let mut cmd = doc! {"aggregate": "c", "pipeline": pipeline, "cursor": {}};
    cmd.extend(extra);
    e.run_command("t", &cmd)
}

fn run(e: &mut Engine, pipeline: Vec<Document>) -> Vec<Document> {
    let r = aggregate(e, pipeline, Document::new());
    ok(&r);
    crate::pipeline::test_support::first_batch(&r)
}

fn ids(docs: &[Document]) -> Vec<i32> {
    docs.iter().map(|d| d.get_i32("_id").unwrap()).collect()
}

/// `(_id, score)` of the documents matching "cake", by `_id`, as a find projection gives them.
fn find_scores(e: &mut Engine) -> Vec<(i32, f64)> {
    let r = e.run_command(
        "t",
        &doc! {"find": "c", "filter": {"$text": {"$search": "cake"}},
        "projection": {"s": {"$meta": "textScore"}}, "sort": {"_id": 1}},
    );
    ok(&r);
    crate::pipeline::test_support::first_batch(&r)
        .iter()
        .map(|d| (d.get_i32("_id").unwrap(), d.get_f64("s").unwrap()))
        .collect()
}

fn scores_of(docs: &[Document]) -> Vec<(i32, f64)> {
    let mut got: Vec<(i32, f64)> = docs
        .iter()
        .map(|d| (d.get_i32("_id").unwrap(), d.get_f64("s").unwrap()))
        .collect();
    got.sort_by_key(|g| g.0);
    got
}

#[test]
fn sort_by_geo_near_distance_puts_the_farthest_first() {
    let mut e = engine_with(
        vec![
            doc! {"_id": 0, "loc": [23, 51]},
            doc! {"_id": 1, "loc": [25, 49]},
            doc! {"_id": 2, "loc": [30, 51]},
        ],
        doc! {"loc": "2d"},
    );
    let docs = run(
        &mut e,
        vec![
            doc! {"$geoNear": {"near": [23, 51], "distanceField": "d"}},
            doc! {"$sort": {"x": {"$meta": "geoNearDistance"}}},
        ],
    );
    // MongoDB 8.0's SortPattern sorts every `$meta` key highest first.
    assert_eq!(ids(&docs), vec![2, 1, 0]);
    // Without a `$geoNear` there is no distance: 40218, as for any other read of it.
    let r = aggregate(
        &mut e,
        vec![doc! {"$sort": {"x": {"$meta": "geoNearDistance"}}}],
        Document::new(),
    );
    assert_eq!(r.get_i32("code").ok(), Some(40218), "{r:?}");
    // A find has no such sort key.
    let r = e.run_command(
        "t",
        &doc! {"find": "c", "sort": {"x": {"$meta": "geoNearDistance"}}},
    );
    assert_eq!(r.get_i32("code").ok(), Some(31138), "{r:?}");
}

#[test]
fn sort_key_is_the_same_whether_the_find_or_the_stage_sorts() {
    let mut e = engine_with(
        vec![
            doc! {"_id": 0, "a": 3, "b": [5, 1]},
            doc! {"_id": 1, "a": 2, "b": 4},
        ],
        doc! {"a": 1},
    );
    // (A `$project` of `_id: 0` and `$meta` alone excludes `_id`: `$meta` decides nothing.)
    let project = doc! {"$project": {"_id": 0, "k": {"$meta": "sortKey"}}};
    let keys = |docs: Vec<Document>| -> Vec<Bson> {
        docs.iter().map(|d| d.get("k").cloned().unwrap()).collect()
    };
    let expected = vec![bson::bson!([2, 4]), bson::bson!([3, 1])];
    // The leading `$sort` runs in the find.
    let pushed = run(
        &mut e,
        vec![doc! {"$sort": {"a": 1, "b": 1}}, project.clone()],
    );
    assert_eq!(keys(pushed), expected);
    // Behind a stage the find cannot take, the `$sort` stage sorts.
    let staged = run(
        &mut e,
        vec![
            doc! {"$_internalInhibitOptimization": {}},
            doc! {"$sort": {"a": 1, "b": 1}},
            project,
        ],
    );
    assert_eq!(keys(staged), expected);
    // Without a sort there is no sort key.
    let none = run(
        &mut e,
        vec![doc! {"$project": {"_id": 1, "k": {"$meta": "sortKey"}}}],
    );
    assert!(none.iter().all(|d| !d.contains_key("k")), "{none:?}");
}

#[test]
fn sort_key_of_a_text_score_sort_holds_the_score() {
    let mut e = text_engine();
    let expected = find_scores(&mut e);
    let docs = run(
        &mut e,
        vec![
            doc! {"$match": {"$text": {"$search": "cake"}}},
            doc! {"$_internalInhibitOptimization": {}},
            doc! {"$sort": {"s": {"$meta": "textScore"}}},
            doc! {"$project": {"k": {"$meta": "sortKey"}}},
        ],
    );
    let mut got: Vec<(i32, f64)> = docs
        .iter()
        .map(|d| {
            let k = d.get_array("k").unwrap();
            (d.get_i32("_id").unwrap(), k[0].as_f64().unwrap())
        })
        .collect();
    got.sort_by_key(|g| g.0);
    assert_eq!(got, expected);
}

#[test]
fn index_key_and_record_id_come_from_the_find() {
    let mut e = engine_with(
        vec![doc! {"_id": 1, "a": 10}, doc! {"_id": 2, "a": 20}],
        doc! {"a": 1},
    );
    let pipeline = vec![
        doc! {"$match": {"a": {"$gte": 0}}},
        doc! {"$project": {"k": {"$meta": "indexKey"}, "r": {"$meta": "recordId"}}},
    ];
    let r = aggregate(&mut e, pipeline.clone(), doc! {"hint": {"a": 1}});
    ok(&r);
    let docs = crate::pipeline::test_support::first_batch(&r);
    assert_eq!(docs.len(), 2);
    for d in &docs {
        let a = d.get_i32("_id").unwrap() * 10;
        assert_eq!(d.get_document("k").unwrap(), &doc! {"a": a});
        assert!(matches!(d.get("r"), Some(Bson::Int64(_))), "{d:?}");
    }
    // A collection scan has record ids but no index key.
    let r = aggregate(&mut e, pipeline, doc! {"hint": {"$natural": 1}});
    ok(&r);
    for d in crate::pipeline::test_support::first_batch(&r) {
        assert!(!d.contains_key("k"), "{d:?}");
        assert!(matches!(d.get("r"), Some(Bson::Int64(_))), "{d:?}");
    }
}

#[test]
fn replace_root_and_replace_with_read_and_keep_the_metadata() {
    let mut e = text_engine();
    let expected = find_scores(&mut e);
    let with = run(
        &mut e,
        vec![
            doc! {"$match": {"$text": {"$search": "cake"}}},
            doc! {"$replaceWith": {"_id": "$_id", "s": {"$meta": "textScore"}}},
        ],
    );
    assert_eq!(scores_of(&with), expected);
    let root = run(
        &mut e,
        vec![
            doc! {"$match": {"$text": {"$search": "cake"}}},
            doc! {"$replaceRoot": {"newRoot": {"_id": "$_id"}}},
            doc! {"$addFields": {"s": {"$meta": "textScore"}}},
        ],
    );
    assert_eq!(scores_of(&root), expected);
}

#[test]
fn redact_reads_the_metadata_and_kept_documents_keep_it() {
    let mut e = text_engine();
    let expected: Vec<(i32, f64)> = find_scores(&mut e)
        .into_iter()
        .filter(|(_, s)| *s > 0.9)
        .collect();
    assert!(!expected.is_empty() && expected.len() < 3, "{expected:?}");
    let docs = run(
        &mut e,
        vec![
            doc! {"$match": {"$text": {"$search": "cake"}}},
            doc! {"$redact": {"$cond": [
                {"$gt": [{"$meta": "textScore"}, 0.9]}, "$$KEEP", "$$PRUNE"
            ]}},
            doc! {"$project": {"s": {"$meta": "textScore"}}},
        ],
    );
    assert_eq!(scores_of(&docs), expected);
}

#[test]
fn sample_keeps_the_metadata_and_gives_a_rand_val_highest_first() {
    let mut e = text_engine();
    let expected = find_scores(&mut e);
    let docs = run(
        &mut e,
        vec![
            doc! {"$match": {"$text": {"$search": "cake"}}},
            doc! {"$sample": {"size": 10}},
            doc! {"$project": {"s": {"$meta": "textScore"}, "r": {"$meta": "randVal"}}},
        ],
    );
    assert_eq!(scores_of(&docs), expected);
    let rands: Vec<f64> = docs.iter().map(|d| d.get_f64("r").unwrap()).collect();
    assert!(rands.iter().all(|r| (0.0..1.0).contains(r)), "{rands:?}");
    assert!(rands.windows(2).all(|w| w[0] >= w[1]), "{rands:?}");
    // A later `$sort` on the random value orders the same way.
    let sorted = run(
        &mut e,
        vec![
            doc! {"$sample": {"size": 4}},
            doc! {"$sort": {"x": {"$meta": "randVal"}}},
            doc! {"$project": {"r": {"$meta": "randVal"}}},
        ],
    );
    let rands: Vec<f64> = sorted.iter().map(|d| d.get_f64("r").unwrap()).collect();
    assert_eq!(rands.len(), 4);
    assert!(rands.windows(2).all(|w| w[0] >= w[1]), "{rands:?}");
}

#[test]
fn a_pipeline_without_meta_carries_none() {
    // The zero-cost property: nothing reads metadata, so the stages get no list at all.
    let p = crate::pipeline::Pipeline::parse(
        &Bson::Array(vec![
            Bson::Document(doc! {"$sample": {"size": 2}}),
            Bson::Document(doc! {"$replaceWith": {"a": 1}}),
            Bson::Document(doc! {"$sort": {"a": 1}}),
        ]),
        &crate::expression::Scope::default(),
        false,
    )
    .unwrap();
    assert!(!p.reads_meta() && !p.reads_sort_key());
}

#[test]
fn graph_lookup_keeps_the_metadata() {
    let mut e = text_engine();
    let expected = find_scores(&mut e);
    let docs = run(
        &mut e,
        vec![
            doc! {"$match": {"$text": {"$search": "cake"}}},
            doc! {"$graphLookup": {"from": "c", "startWith": "$_id", "connectFromField": "_id",
            "connectToField": "_id", "as": "g"}},
            doc! {"$project": {"s": {"$meta": "textScore"}, "n": {"$size": "$g"}}},
        ],
    );
    assert_eq!(scores_of(&docs), expected);
    assert!(
        docs.iter().all(|d| d.get_i32("n").ok() == Some(1)),
        "{docs:?}"
    );
}
