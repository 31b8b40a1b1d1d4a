//! Per-document metadata through the pipeline (`{$meta: "textScore"}`, `"geoNearDistance"`,
//! `"geoNearPoint"`): which stage makes it, which keep it, which drop it, and MongoDB 8.0's
//! error 40218 for reading what no stage before makes.

use bson::{Bson, Document, doc};

use crate::Engine;

fn ok(r: &Document) {
    assert!(crate::reply_ok(r), "{r:?}");
}

fn text_engine() -> Engine {
    let mut e = Engine::new();
    ok(&e.run_command(
        "t",
        &doc! {"insert": "c", "documents": [
            {"_id": 1, "title": "cakes and ale", "tags": ["a", "b"]},
            {"_id": 2, "title": "more cakes"},
            {"_id": 3, "title": "bread"},
            {"_id": 4, "title": "some cakes cakes"},
        ]},
    ));
    ok(&e.run_command(
        "t",
        &doc! {"createIndexes": "c", "indexes": [{"key": {"title": "text"}, "name": "t"}]},
    ));
    e
}

fn geo_engine() -> Engine {
    let mut e = Engine::new();
    ok(&e.run_command(
        "t",
        &doc! {"insert": "c", "documents": [
            {"_id": 0, "loc": [23, 51]},
            {"_id": 1, "loc": [25, 49]},
            {"_id": 2, "loc": [30, 51]},
        ]},
    ));
    ok(&e.run_command(
        "t",
        &doc! {"createIndexes": "c", "indexes": [{"key": {"loc": "2d"}, "name": "g"}]},
    ));
    e
}

fn aggregate(e: &mut Engine, pipeline: Vec<Document>) -> Document {
    e.run_command(
        "t",
        &doc! {"aggregate": "c", "pipeline": pipeline, "cursor": {}},
    )
}

fn run(e: &mut Engine, pipeline: Vec<Document>) -> Vec<Document> {
    let r = aggregate(e, pipeline);
    ok(&r);
    crate::pipeline::test_support::first_batch(&r)
}

fn error(e: &mut Engine, pipeline: Vec<Document>) -> (i32, String) {
    let r = aggregate(e, pipeline);
    assert!(!crate::reply_ok(&r), "{r:?}");
    (
        r.get_i32("code").unwrap(),
        r.get_str("errmsg").unwrap().to_string(),
    )
}

/// The text scores a find projection gives, by `_id`.
fn find_scores(e: &mut Engine) -> Vec<(i32, f64)> {
    let r = e.run_command(
        "t",
        &doc! {"find": "c", "filter": {"$text": {"$search": "cake"}},
        "projection": {"s": {"$meta": "textScore"}}, "sort": {"_id": 1}},
    );
    ok(&r);
    r.get_document("cursor")
        .unwrap()
        .get_array("firstBatch")
        .unwrap()
        .iter()
        .map(|d| {
            let d = d.as_document().unwrap();
            (d.get_i32("_id").unwrap(), d.get_f64("s").unwrap())
        })
        .collect()
}

#[test]
fn text_score_reaches_project_and_add_fields_as_finds_projection_gives_it() {
    let mut e = text_engine();
    let expected = find_scores(&mut e);
    assert_eq!(expected.len(), 3);
    for stage in ["$project", "$addFields", "$set"] {
        let docs = run(
            &mut e,
            vec![
                doc! {"$match": {"$text": {"$search": "cake"}}},
                doc! {stage: {"s": {"$meta": "textScore"}}},
                doc! {"$sort": {"_id": 1}},
            ],
        );
        let got: Vec<(i32, f64)> = docs
            .iter()
            .map(|d| (d.get_i32("_id").unwrap(), d.get_f64("s").unwrap()))
            .collect();
        assert_eq!(got, expected, "{stage}");
    }
}

#[test]
fn a_group_on_a_field_holding_the_score_groups_by_it() {
    // jstests/aggregation/bugs/server26462.js: one group per distinct score.
    let mut e = text_engine();
    let mut scores: Vec<f64> = find_scores(&mut e).into_iter().map(|(_, s)| s).collect();
    scores.sort_by(f64::total_cmp);
    scores.dedup();
    let docs = run(
        &mut e,
        vec![
            doc! {"$match": {"$text": {"$search": "cake"}}},
            doc! {"$addFields": {"fooScore": {"$meta": "textScore"}}},
            doc! {"$group": {"_id": "$fooScore", "count": {"$sum": 1}}},
        ],
    );
    assert_eq!(docs.len(), scores.len(), "{docs:?}");
    for d in &docs {
        let key = d.get_f64("_id").unwrap();
        assert!(scores.contains(&key), "{d:?}");
    }
}

#[test]
fn stages_that_keep_documents_keep_their_metadata() {
    let mut e = text_engine();
    let expected = find_scores(&mut e);
    // $sort (not pushed into the find: after a $project), $skip, $limit, $match, $unwind.
    let docs = run(
        &mut e,
        vec![
            doc! {"$match": {"$text": {"$search": "cake"}}},
            doc! {"$project": {"title": 1, "tags": 1}},
            doc! {"$sort": {"score": {"$meta": "textScore"}, "_id": 1}},
            doc! {"$skip": 0},
            doc! {"$limit": 3},
            doc! {"$match": {"_id": {"$gte": 1}}},
            doc! {"$unwind": {"path": "$tags", "preserveNullAndEmptyArrays": true}},
            doc! {"$project": {"s": {"$meta": "textScore"}}},
        ],
    );
    let mut by_score = expected.clone();
    by_score.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let got: Vec<(i32, f64)> = docs
        .iter()
        .map(|d| (d.get_i32("_id").unwrap(), d.get_f64("s").unwrap()))
        .collect();
    // Document 1 unwinds into two, each with its score.
    let mut want = Vec::new();
    for (id, s) in by_score {
        want.push((id, s));
        if id == 1 {
            want.push((id, s));
        }
    }
    assert_eq!(got, want);
}

#[test]
fn expr_in_a_later_match_reads_the_score() {
    let mut e = text_engine();
    let best = find_scores(&mut e)
        .into_iter()
        .map(|(_, s)| s)
        .fold(0.0, f64::max);
    let docs = run(
        &mut e,
        vec![
            doc! {"$match": {"$text": {"$search": "cake"}}},
            doc! {"$project": {"_id": 1}},
            doc! {"$match": {"$expr": {"$gte": [{"$meta": "textScore"}, best]}}},
        ],
    );
    assert_eq!(docs, vec![doc! {"_id": 4}]);
}

#[test]
fn group_drops_metadata() {
    // After $group no metadata is left, and MongoDB's dependency analysis stops there, so
    // reading it is no error: the value is missing.
    let mut e = text_engine();
    let docs = run(
        &mut e,
        vec![
            doc! {"$match": {"$text": {"$search": "cake"}}},
            doc! {"$group": {"_id": null, "n": {"$sum": 1}}},
            doc! {"$project": {"n": 1, "s": {"$meta": "textScore"}}},
        ],
    );
    assert_eq!(docs, vec![doc! {"_id": Bson::Null, "n": 3}]);
}

#[test]
fn metadata_no_stage_makes_is_error_40218() {
    let mut e = text_engine();
    let cases = [
        (
            vec![doc! {"$project": {"s": {"$meta": "textScore"}}}],
            "query requires text score metadata, but it is not available",
        ),
        (
            vec![
                doc! {"$match": {"_id": 1}},
                doc! {"$addFields": {"d": {"$meta": "geoNearDistance"}}},
            ],
            "query requires $geoNear distance metadata, but it is not available",
        ),
        (
            vec![
                doc! {"$match": {"$text": {"$search": "cake"}}},
                doc! {"$project": {"p": {"$meta": "geoNearPoint"}}},
            ],
            "query requires $geoNear point metadata, but it is not available",
        ),
        (
            vec![doc! {"$facet": {"f": [{"$project": {"s": {"$meta": "textScore"}}}]}}],
            "query requires text score metadata, but it is not available",
        ),
        (
            vec![doc! {"$match": {"$expr": {"$eq": [{"$meta": "textScore"}, 1]}}}],
            "query requires text score metadata, but it is not available",
        ),
    ];
    for (pipeline, message) in cases {
        assert_eq!(error(&mut e, pipeline), (40218, message.to_string()));
    }
    // Metadata a pipeline never refuses: missing when no stage sets it.
    let docs = run(
        &mut e,
        vec![
            doc! {"$match": {"_id": 3}},
            doc! {"$project": {"a": {"$meta": "searchScore"}, "b": {"$meta": "randVal"}}},
        ],
    );
    assert_eq!(docs, vec![doc! {"_id": 3}]);
}

#[test]
fn meta_arguments_are_checked() {
    let mut e = text_engine();
    let (code, message) = error(&mut e, vec![doc! {"$project": {"s": {"$meta": "nope"}}}]);
    assert_eq!(code, 17308);
    assert_eq!(
        message,
        "Invalid $project :: caused by :: Unsupported argument to $meta: nope"
    );
    let (code, _) = error(&mut e, vec![doc! {"$project": {"s": {"$meta": 1}}}]);
    assert_eq!(code, 17307);
}

#[test]
fn geo_near_sets_distance_and_point() {
    let mut e = geo_engine();
    let docs = run(
        &mut e,
        vec![
            doc! {"$geoNear": {"near": [20, 40], "distanceField": "dist", "distanceMultiplier": 2}},
            doc! {"$project": {"d": {"$meta": "geoNearDistance"}, "p": {"$meta": "geoNearPoint"}, "dist": 1}},
        ],
    );
    let ids: Vec<i32> = docs.iter().map(|d| d.get_i32("_id").unwrap()).collect();
    assert_eq!(ids, vec![1, 0, 2]);
    for d in &docs {
        // The metadata is the distance before `distanceMultiplier`.
        let (dist, meta) = (d.get_f64("dist").unwrap(), d.get_f64("d").unwrap());
        assert!((dist - 2.0 * meta).abs() < 1e-9, "{d:?}");
    }
    assert!((docs[0].get_f64("d").unwrap() - 10.295630140987).abs() < 1e-9);
    assert_eq!(
        docs[0].get_array("p").unwrap(),
        &vec![Bson::Int32(25), Bson::Int32(49)]
    );
    // A facet reads its input's metadata.
    let docs = run(
        &mut e,
        vec![
            doc! {"$geoNear": {"near": [20, 40], "distanceField": "dist"}},
            doc! {"$facet": {"f": [{"$project": {"p": {"$meta": "geoNearPoint"}}}]}},
        ],
    );
    assert_eq!(
        docs,
        vec![doc! {"f": [
            {"_id": 1, "p": [25, 49]}, {"_id": 0, "p": [23, 51]}, {"_id": 2, "p": [30, 51]}
        ]}]
    );
}

#[test]
fn find_projects_a_near_searchs_distance_and_point() {
    let mut e = geo_engine();
    let r = e.run_command(
        "t",
        &doc! {"find": "c", "filter": {"loc": {"$near": [20, 40]}},
        "projection": {"d": {"$meta": "geoNearDistance"}, "p": {"$meta": "geoNearPoint"}}},
    );
    ok(&r);
    let first = r
        .get_document("cursor")
        .unwrap()
        .get_array("firstBatch")
        .unwrap()[0]
        .as_document()
        .unwrap()
        .clone();
    assert_eq!(first.get_i32("_id").unwrap(), 1);
    assert!((first.get_f64("d").unwrap() - 10.295630140987).abs() < 1e-9);
    assert_eq!(
        first.get_array("p").unwrap(),
        &vec![Bson::Int32(25), Bson::Int32(49)]
    );
    let r = e.run_command(
        "t",
        &doc! {"find": "c", "projection": {"d": {"$meta": "geoNearDistance"}}},
    );
    assert_eq!(r.get_i32("code").unwrap(), 40218, "{r:?}");
}

#[test]
fn a_lookup_sub_pipeline_reads_only_its_own_metadata() {
    // jstests/aggregation/sources/lookup/lookup_contains_text.js.
    let mut e = Engine::new();
    ok(&e.run_command(
        "t",
        &doc! {"insert": "c", "documents": [{"_id": 100, "a": "foo"}]},
    ));
    ok(&e.run_command(
        "t",
        &doc! {"insert": "inner", "documents": [{"_id": 100, "a": "bar apple banana"}]},
    ));
    for coll in ["c", "inner"] {
        ok(&e.run_command(
            "t",
            &doc! {"createIndexes": coll, "indexes": [{"key": {"a": "text"}, "name": "a"}]},
        ));
    }
    let lookup = |sub: Vec<Document>| {
        doc! {"$lookup": {"from": "inner", "as": "as", "pipeline": sub}}
    };
    let (code, _) = error(
        &mut e,
        vec![
            doc! {"$match": {"$text": {"$search": "foo"}}},
            lookup(vec![doc! {"$project": {"score": {"$meta": "textScore"}}}]),
        ],
    );
    assert_eq!(code, 40218);
    let docs = run(
        &mut e,
        vec![
            doc! {"$match": {"$text": {"$search": "foo"}}},
            lookup(vec![
                doc! {"$match": {"$text": {"$search": "bar apple banana hello"}}},
                doc! {"$project": {"score": {"$meta": "textScore"}}},
            ]),
            doc! {"$project": {"score": {"$meta": "textScore"}, "as": 1}},
        ],
    );
    assert_eq!(
        docs,
        vec![doc! {"_id": 100, "as": [{"_id": 100, "score": 2.0}], "score": 1.1}]
    );
    let (code, _) = error(
        &mut e,
        vec![
            lookup(vec![doc! {"$match": {"$text": {"$search": "bar"}}}]),
            doc! {"$project": {"score": {"$meta": "textScore"}, "as": 1}},
        ],
    );
    assert_eq!(code, 40218);
    // A `$lookup` inside a `$facet` still reads only its own sub-pipeline's metadata.
    let docs = run(
        &mut e,
        vec![doc! {"$facet": {"f": [lookup(vec![
            doc! {"$match": {"$text": {"$search": "bar apple banana hello"}}},
            doc! {"$project": {"score": {"$meta": "textScore"}}},
        ])]}}],
    );
    assert_eq!(
        docs,
        vec![doc! {"f": [{"_id": 100, "a": "foo", "as": [{"_id": 100, "score": 2.0}]}]}]
    );
}

#[test]
fn a_text_search_must_start_the_pipeline() {
    // jstests/aggregation/bugs/server11675.js: 17313 before any index is looked for.
    let mut e = text_engine();
    let (code, message) = error(
        &mut e,
        vec![
            doc! {"$sort": {"title": 1}},
            doc! {"$match": {"$text": {"$search": "cake"}}},
        ],
    );
    assert_eq!(code, 17313);
    assert_eq!(
        message,
        "$match with $text is only allowed as the first pipeline stage"
    );
}

#[test]
fn group_reads_the_score_of_each_document() {
    // jstests/aggregation/bugs/server11675.js: "And can be used in $group".
    let mut e = text_engine();
    let scores = find_scores(&mut e);
    let total: f64 = scores.iter().map(|(_, s)| s).sum();
    let docs = run(
        &mut e,
        vec![
            doc! {"$match": {"$text": {"$search": "cake"}}},
            doc! {"$group": {"_id": null, "total": {"$sum": {"$meta": "textScore"}}}},
        ],
    );
    assert_eq!(docs.len(), 1);
    assert!(
        (docs[0].get_f64("total").unwrap() - total).abs() < 1e-9,
        "{docs:?}"
    );
    let docs = run(
        &mut e,
        vec![
            doc! {"$match": {"_id": 1, "$text": {"$search": "cake"}}},
            doc! {"$group": {"_id": {"$meta": "textScore"}, "s": {"$first": {"$meta": "textScore"}}}},
        ],
    );
    let one = scores.iter().find(|(id, _)| *id == 1).unwrap().1;
    assert_eq!(docs, vec![doc! {"_id": one, "s": one}]);
}

#[test]
fn meta_fits_an_exclusion_project() {
    // "Cannot use expression other than $meta in exclusion projection" (31252): $meta fits.
    let mut e = text_engine();
    let expected = find_scores(&mut e);
    let docs = run(
        &mut e,
        vec![
            doc! {"$match": {"$text": {"$search": "cake"}}},
            doc! {"$project": {"tags": 0, "s": {"$meta": "textScore"}, "title": 0}},
            doc! {"$sort": {"_id": 1}},
        ],
    );
    let want: Vec<Document> = expected
        .iter()
        .map(|(id, s)| doc! {"_id": *id, "s": *s})
        .collect();
    assert_eq!(docs, want);
    let (code, _) = error(
        &mut e,
        vec![doc! {"$project": {"tags": 0, "s": {"$add": [1, "$x"]}}}],
    );
    assert_eq!(code, 31252);
}

#[test]
fn a_lookup_text_search_is_made_once_and_given_to_every_outer_document() {
    // The sub-pipeline has no `let` variables, so its leading `$text` search is the same for
    // every outer document; it is made for the first and reused, scores included.
    let mut e = text_engine();
    ok(&e.run_command(
        "t",
        &doc! {"insert": "outer", "documents": [{"_id": "x"}, {"_id": "y"}, {"_id": "z"}]},
    ));
    let r = e.run_command(
        "t",
        &doc! {"aggregate": "outer", "cursor": {}, "pipeline": [
            {"$lookup": {"from": "c", "as": "hits", "pipeline": [
                {"$match": {"$text": {"$search": "cakes"}}},
                {"$project": {"_id": 1, "score": {"$meta": "textScore"}}},
                {"$sort": {"_id": 1}},
            ]}},
        ]},
    );
    ok(&r);
    let docs = crate::pipeline::test_support::first_batch(&r);
    assert_eq!(docs.len(), 3);
    let first = docs[0].get_array("hits").unwrap().clone();
    let ids: Vec<i32> = first
        .iter()
        .map(|h| h.as_document().unwrap().get_i32("_id").unwrap())
        .collect();
    assert_eq!(ids, vec![1, 2, 4]);
    for h in &first {
        assert!(h.as_document().unwrap().get_f64("score").unwrap() > 0.0);
    }
    for d in &docs[1..] {
        assert_eq!(d.get_array("hits").unwrap(), &first);
    }
}
