//! Pipeline tests through the `aggregate` command, as a driver sends it.

use bson::{Bson, Document, doc};

use crate::Engine;

fn engine_with(docs: Vec<Document>) -> Engine {
    let mut e = Engine::new();
    if !docs.is_empty() {
        let r = e.run_command("t", &doc! {"insert": "c", "documents": docs});
        assert!(crate::reply_ok(&r), "{r:?}");
    }
    e
}

fn run(e: &mut Engine, pipeline: Vec<Document>) -> Vec<Document> {
    let r = e.run_command(
        "t",
        &doc! {"aggregate": "c", "pipeline": pipeline, "cursor": {}},
    );
    batch(&r)
}

fn batch(r: &Document) -> Vec<Document> {
    assert!(crate::reply_ok(r), "{r:?}");
    r.get_document("cursor")
        .and_then(|c| c.get_array("firstBatch"))
        .unwrap_or_else(|_| panic!("no firstBatch in {r:?}"))
        .iter()
        .filter_map(|d| d.as_document().cloned())
        .collect()
}

fn literal(docs: Vec<Document>, stages: Vec<Document>) -> Vec<Document> {
    let mut pipeline = vec![doc! {"$documents": docs}];
    pipeline.extend(stages);
    let mut e = Engine::new();
    let r = e.run_command(
        "t",
        &doc! {"aggregate": 1, "pipeline": pipeline, "cursor": {}},
    );
    batch(&r)
}

fn error(e: &mut Engine, cmd: Document) -> (i32, String) {
    let r = e.run_command("t", &cmd);
    assert!(!crate::reply_ok(&r), "expected an error: {r:?}");
    (
        r.get_i32("code").unwrap_or_default(),
        r.get_str("errmsg").unwrap_or_default().to_string(),
    )
}

fn stage_error(stage: Document) -> (i32, String) {
    let mut e = Engine::new();
    error(
        &mut e,
        doc! {"aggregate": "c", "pipeline": [stage], "cursor": {}},
    )
}

#[test]
fn match_sort_skip_limit() {
    let mut e = engine_with((0..6).map(|i| doc! {"_id": i, "k": i % 3}).collect());
    let out = run(
        &mut e,
        vec![
            doc! {"$match": {"k": {"$gt": 0}}},
            doc! {"$sort": {"k": -1, "_id": 1}},
            doc! {"$skip": 1},
            doc! {"$limit": 2},
        ],
    );
    assert_eq!(out, vec![doc! {"_id": 5, "k": 2}, doc! {"_id": 1, "k": 1}]);
}

#[test]
fn documents_needs_aggregate_one() {
    let out = literal(
        vec![doc! {"a": 1}, doc! {"a": 2}],
        vec![doc! {"$count": "n"}],
    );
    assert_eq!(out, vec![doc! {"n": 2}]);
    let mut e = Engine::new();
    let (code, msg) = error(
        &mut e,
        doc! {"aggregate": 1, "pipeline": [{"$match": {}}], "cursor": {}},
    );
    assert_eq!(code, 73);
    assert_eq!(
        msg,
        "{aggregate: 1} is not valid for '$match'; a collection is required."
    );
}

#[test]
fn project_inclusion_keeps_document_order_then_computed() {
    let out = literal(
        vec![doc! {"_id": 1, "b": 2, "a": {"x": 1, "y": 2}, "c": 3}],
        vec![doc! {"$project": {"c": {"$add": ["$b", 1]}, "a.y": 1, "b": 1}}],
    );
    assert_eq!(out, vec![doc! {"_id": 1, "b": 2, "a": {"y": 2}, "c": 3}]);
}

#[test]
fn project_exclusion_and_remove() {
    let out = literal(
        vec![doc! {"_id": 1, "a": [{"x": 1, "y": 2}, 5], "b": 2}],
        vec![doc! {"$project": {"a.x": 0, "_id": 0}}],
    );
    assert_eq!(out, vec![doc! {"a": [{"y": 2}, 5], "b": 2}]);
    let out = literal(
        vec![doc! {"_id": 1, "a": 1}],
        vec![doc! {"$project": {"a": "$$REMOVE", "b": "$a"}}],
    );
    assert_eq!(out, vec![doc! {"_id": 1, "b": 1}]);
}

#[test]
fn project_nested_inclusion_through_arrays() {
    let out = literal(
        vec![doc! {"_id": 1, "a": [{"b": 1, "c": 2}, 3, [{"b": 4}]]}],
        vec![doc! {"$project": {"a.b": 1}}],
    );
    assert_eq!(out, vec![doc! {"_id": 1, "a": [{"b": 1}, [{"b": 4}]]}]);
}

#[test]
fn project_errors() {
    let (code, msg) = stage_error(doc! {"$project": {"a": 1, "b": 0}});
    assert_eq!(code, 31254);
    assert_eq!(
        msg,
        "Invalid $project :: caused by :: Cannot do exclusion on field b in inclusion projection"
    );
    assert_eq!(stage_error(doc! {"$project": {}}).0, 51272);
    assert_eq!(stage_error(doc! {"$project": 1}).0, 15969);
    assert_eq!(stage_error(doc! {"$project": {"a.$": 1}}).0, 31324);
    assert_eq!(stage_error(doc! {"$project": {"a": 0, "b": "$x"}}).0, 31252);
    assert_eq!(stage_error(doc! {"$project": {"a": {}}}).0, 51270);
    assert_eq!(stage_error(doc! {"$project": {"a": 1, "a.b": 1}}).0, 31249);
}

#[test]
fn add_fields_into_arrays_and_scalars() {
    let out = literal(
        vec![doc! {"_id": 1, "a": [{"x": 1}, 2], "b": 3}],
        vec![doc! {"$addFields": {"a.y": 7, "b": {"$add": ["$b", 1]}, "c": {}}}],
    );
    assert_eq!(
        out,
        vec![doc! {"_id": 1, "a": [{"x": 1, "y": 7}, {"y": 7}], "b": 4, "c": {}}]
    );
    let out = literal(
        vec![doc! {"_id": 1, "a": 5}],
        vec![doc! {"$set": {"a.b": "$_id"}}, doc! {"$unset": ["_id"]}],
    );
    assert_eq!(out, vec![doc! {"a": {"b": 1}}]);
}

#[test]
fn replace_root_and_with() {
    let out = literal(
        vec![doc! {"_id": 1, "a": {"x": 1}}],
        vec![doc! {"$replaceRoot": {"newRoot": "$a"}}],
    );
    assert_eq!(out, vec![doc! {"x": 1}]);
    let mut e = Engine::new();
    let (code, msg) = error(
        &mut e,
        doc! {"aggregate": 1, "pipeline": [{"$documents": [{"_id": 1}]}, {"$replaceWith": "$a"}], "cursor": {}},
    );
    assert_eq!(code, 40228);
    assert_eq!(
        msg,
        "PlanExecutor error during aggregation :: caused by :: 'replacement document' must \
         evaluate to an object, but resulting value was: MISSING. Type of resulting value: \
         'missing'. Input document: {_id: 1}"
    );
    assert_eq!(stage_error(doc! {"$replaceRoot": {"x": 1}}).0, 40415);
    assert_eq!(stage_error(doc! {"$replaceRoot": {}}).0, 40414);
}

#[test]
fn unwind_forms() {
    let docs = vec![
        doc! {"_id": 1, "a": [1, 2]},
        doc! {"_id": 2, "a": []},
        doc! {"_id": 3, "a": null},
        doc! {"_id": 4},
        doc! {"_id": 5, "a": "s"},
    ];
    let out = literal(docs.clone(), vec![doc! {"$unwind": "$a"}]);
    assert_eq!(
        out,
        vec![
            doc! {"_id": 1, "a": 1},
            doc! {"_id": 1, "a": 2},
            doc! {"_id": 5, "a": "s"}
        ]
    );
    let out = literal(
        docs,
        vec![
            doc! {"$unwind": {"path": "$a", "includeArrayIndex": "i", "preserveNullAndEmptyArrays": true}},
        ],
    );
    assert_eq!(
        out,
        vec![
            doc! {"_id": 1, "a": 1, "i": 0_i64},
            doc! {"_id": 1, "a": 2, "i": 1_i64},
            doc! {"_id": 2, "i": Bson::Null},
            doc! {"_id": 3, "a": Bson::Null, "i": Bson::Null},
            doc! {"_id": 4, "i": Bson::Null},
            doc! {"_id": 5, "a": "s", "i": Bson::Null},
        ]
    );
    assert_eq!(stage_error(doc! {"$unwind": "a"}).0, 28818);
    assert_eq!(
        stage_error(doc! {"$unwind": {"path": "$a", "x": 1}}).0,
        28811
    );
    assert_eq!(stage_error(doc! {"$unwind": 1}).0, 15981);
}

#[test]
fn pipeline_shape_errors() {
    assert_eq!(
        stage_error(doc! {"$foo": 1}),
        (
            40324,
            "Unrecognized pipeline stage name: '$foo'".to_string()
        )
    );
    assert_eq!(stage_error(doc! {"$match": {}, "$limit": 1}).0, 40323);
    let mut e = Engine::new();
    assert_eq!(
        error(
            &mut e,
            doc! {"aggregate": "c", "pipeline": {}, "cursor": {}}
        )
        .0,
        14
    );
    assert_eq!(error(&mut e, doc! {"aggregate": "c", "pipeline": []}).0, 9);
    assert_eq!(
        stage_error(doc! {"$limit": 0}),
        (15958, "the limit must be positive".to_string())
    );
    assert_eq!(
        stage_error(doc! {"$limit": -2.0}),
        (
            5107201,
            "invalid argument to $limit stage: Expected a non-negative number in: $limit: -2.0"
                .to_string()
        )
    );
    assert_eq!(stage_error(doc! {"$skip": "a"}).0, 5107200);
    assert_eq!(stage_error(doc! {"$count": "a.b"}).0, 40160);
    assert_eq!(stage_error(doc! {"$sort": {}}).0, 15976);
}

#[test]
fn batches_continue_with_get_more() {
    let mut e = engine_with((0..5).map(|i| doc! {"_id": i}).collect());
    let r = e.run_command(
        "t",
        &doc! {"aggregate": "c", "pipeline": [], "cursor": {"batchSize": 2}},
    );
    assert_eq!(batch(&r).len(), 2);
    let id = r.get_document("cursor").unwrap().get_i64("id").unwrap();
    let r = e.run_command("t", &doc! {"getMore": id, "collection": "c"});
    let next = r
        .get_document("cursor")
        .unwrap()
        .get_array("nextBatch")
        .unwrap();
    assert_eq!(next.len(), 3);
}

#[test]
fn let_variables_reach_expressions() {
    let mut e = Engine::new();
    let r = e.run_command(
        "t",
        &doc! {
            "aggregate": 1,
            "pipeline": [{"$documents": [{"a": 1}]}, {"$project": {"_id": 0, "b": {"$add": ["$a", "$$k"]}}}],
            "cursor": {},
            "let": {"k": 10},
        },
    );
    assert_eq!(batch(&r), vec![doc! {"b": 11}]);
}

#[test]
fn computed_fields_fill_array_holes_in_inclusion() {
    let out = literal(
        vec![doc! {"_id": 6, "a": [{"c": 0}, 2]}],
        vec![doc! {"$project": {"_id": 1, "a.g": ["1"], "a.b": 1}}],
    );
    assert_eq!(
        out,
        vec![doc! {"_id": 6, "a": [{"g": ["1"]}, {"g": ["1"]}]}]
    );
}

fn engine_with_orders() -> Engine {
    let mut e = engine_with(vec![
        doc! {"_id": 1, "item": "a", "qty": 2},
        doc! {"_id": 2, "item": "b", "qty": 1},
        doc! {"_id": 3, "qty": 5},
    ]);
    let r = e.run_command(
        "t",
        &doc! {"insert": "inv", "documents": [
            {"_id": 10, "sku": "a", "stock": 3},
            {"_id": 11, "sku": "b", "stock": 0},
            {"_id": 12, "sku": null},
            {"_id": 13, "sku": ["a", "z"]},
        ]},
    );
    assert!(crate::reply_ok(&r));
    e
}

#[test]
fn lookup_equality_matches_arrays_and_null() {
    let mut e = engine_with_orders();
    let out = run(
        &mut e,
        vec![
            doc! {"$lookup": {"from": "inv", "localField": "item", "foreignField": "sku", "as": "inv"}},
            doc! {"$project": {"ids": "$inv._id"}},
        ],
    );
    assert_eq!(
        out,
        vec![
            doc! {"_id": 1, "ids": [10, 13]},
            doc! {"_id": 2, "ids": [11]},
            doc! {"_id": 3, "ids": [12]},
        ]
    );
}

#[test]
fn lookup_equality_table_keeps_mongodb_equality_and_natural_order() {
    let mut e = engine_with(vec![
        doc! {"_id": 1, "k": 2},
        doc! {"_id": 2, "k": [1, "x"]},
        doc! {"_id": 3, "k": {"a": 1}},
    ]);
    let r = e.run_command(
        "t",
        &doc! {"insert": "f", "documents": [
            {"_id": "a", "v": {"w": 2.0}},
            {"_id": "b", "v": [{"w": 1_i64}, {"w": 9}]},
            {"_id": "c", "v": {"w": "x"}},
            {"_id": "d", "v": {"w": [2]}},
            {"_id": "e", "v": {"w": {"a": 1}}},
        ]},
    );
    assert!(crate::reply_ok(&r), "{r:?}");
    let out = run(
        &mut e,
        vec![
            doc! {"$lookup": {"from": "f", "localField": "k", "foreignField": "v.w", "as": "j"}},
            doc! {"$project": {"ids": "$j._id"}},
        ],
    );
    assert_eq!(
        out,
        vec![
            doc! {"_id": 1, "ids": ["a", "d"]},
            doc! {"_id": 2, "ids": ["b", "c"]},
            doc! {"_id": 3, "ids": ["e"]},
        ]
    );
}

/// A `$lookup` followed by an inclusion `$project` copies only the fields the projection reads
/// when it reads the collection in place (`Stage::output_read_only`); the results are those
/// of the same pipeline unnarrowed (an exclusion `$project` of nothing before the `$lookup` hands it copies, and
/// `$_internalInhibitOptimization` after it reads everything), for every lookup form and
/// projections that read more or all.
#[test]
fn lookup_before_an_inclusion_project_keeps_what_the_projection_reads() {
    let mut docs = Vec::new();
    for i in 0..60 {
        let mut d = doc! {"_id": i, "total": i * 3};
        match i % 9 {
            0 => {}
            1 => _ = d.insert("cust", vec![Bson::Int32(1), Bson::Int32(3)]),
            2 => _ = d.insert("cust", Bson::Null),
            _ => _ = d.insert("cust", Bson::Double(f64::from(i % 7))),
        }
        if i % 4 == 0 {
            d.insert("x", doc! {"y": i, "c": "old"});
        }
        if i % 5 == 0 {
            d.insert("c", "shadowed");
        }
        docs.push(d);
    }
    let mut e = engine_with(docs);
    let customers: Vec<Document> = (0..5)
        .map(|i| {
            let mut d = doc! {"_id": i, "name": format!("n{i}"), "tier": i % 2};
            if i == 3 {
                d.remove("name");
                d.insert("tier", vec![0, 1]);
            }
            d
        })
        .collect();
    let r = e.run_command("t", &doc! {"insert": "cu", "documents": customers});
    assert!(crate::reply_ok(&r));
    let lookups = [
        doc! {"$lookup": {"from": "cu", "localField": "cust", "foreignField": "_id", "as": "c"}},
        doc! {"$lookup": {"from": "cu", "localField": "cust", "foreignField": "_id", "as": "x.c"}},
        doc! {"$lookup": {"from": "cu", "let": {"k": "$cust"}, "pipeline": [{"$match": {"$expr": {"$eq": ["$_id", "$$k"]}}}], "as": "c"}},
        doc! {"$lookup": {"from": "cu", "localField": "cust", "foreignField": "tier", "pipeline": [{"$project": {"name": 1}}], "as": "c"}},
    ];
    let projects = [
        doc! {"$project": {"_id": 1, "name": {"$first": "$c.name"}}},
        doc! {"$project": {"c": 1, "total": 1}},
        doc! {"$project": {"_id": 0, "x": 1, "t": {"$add": ["$total", 1]}}},
        doc! {"$project": {"x.c": 1, "cust": 1}},
        doc! {"$project": {"n": {"$size": "$c"}, "r": "$$ROOT.total"}},
        doc! {"$project": {"whole": "$$ROOT"}},
        doc! {"$project": {"names": "$c.name", "t": {"$last": "$c.tier"}, "x.c.name": 1}},
        doc! {"$project": {"c.name": 1, "c.tier": 1, "n": {"$size": {"$ifNull": ["$c", []]}}}},
        doc! {"$project": {"x.y": 1, "k": "$x.c._id"}},
        doc! {"$project": {"total": 0}},
    ];
    for lookup in &lookups {
        for project in &projects {
            for filter in [None, Some(doc! {"$match": {"total": {"$gt": 20}}})] {
                let mut direct = Vec::new();
                let mut copied = Vec::new();
                if let Some(f) = &filter {
                    direct.push(f.clone());
                    copied.push(f.clone());
                }
                copied.push(doc! {"$project": {"zz": 0}});
                direct.push(lookup.clone());
                copied.push(lookup.clone());
                // Reads everything: the `$lookup` before it is not narrowed.
                copied.push(doc! {"$_internalInhibitOptimization": {}});
                direct.push(project.clone());
                copied.push(project.clone());
                let mut reply = |pipeline: Vec<Document>| {
                    let r = e.run_command(
                        "t",
                        &doc! {"aggregate": "c", "pipeline": pipeline, "cursor": {}},
                    );
                    match r.get_document("cursor") {
                        Ok(c) => Bson::from(c.get_array("firstBatch").unwrap().clone()),
                        Err(_) => Bson::from(r.get_i32("code").unwrap()),
                    }
                };
                let (a, b) = (reply(direct), reply(copied));
                assert_eq!(a, b, "{lookup} {project} {filter:?}");
            }
        }
    }
}

#[test]
fn lookup_let_and_pipeline() {
    let mut e = engine_with_orders();
    let out = run(
        &mut e,
        vec![
            doc! {"$match": {"_id": {"$lt": 3}}},
            doc! {"$lookup": {
                "from": "inv",
                "let": {"want": "$qty", "name": "$item"},
                "pipeline": [
                    {"$match": {"$expr": {"$and": [{"$eq": ["$sku", "$$name"]}, {"$gte": ["$stock", "$$want"]}]}}},
                    {"$project": {"_id": 1}},
                ],
                "as": "ok",
            }},
        ],
    );
    assert_eq!(
        out,
        vec![
            doc! {"_id": 1, "item": "a", "qty": 2, "ok": [{"_id": 10}]},
            doc! {"_id": 2, "item": "b", "qty": 1, "ok": []},
        ]
    );
    let (code, msg) = stage_error(doc! {"$lookup": {"from": "inv", "as": "x"}});
    assert_eq!(code, 9);
    assert_eq!(
        msg,
        "$lookup requires either 'pipeline' or both 'localField' and 'foreignField' to be specified"
    );
}

#[test]
fn facet_union_with_and_sample() {
    let mut e = engine_with_orders();
    let out = run(
        &mut e,
        vec![doc! {"$facet": {
            "n": [{"$count": "n"}],
            "big": [{"$match": {"qty": {"$gt": 1}}}, {"$project": {"_id": 1}}],
        }}],
    );
    assert_eq!(
        out,
        vec![doc! {"n": [{"n": 3}], "big": [{"_id": 1}, {"_id": 3}]}]
    );
    let out = run(
        &mut e,
        vec![
            doc! {"$project": {"_id": 1}},
            doc! {"$unionWith": {"coll": "inv", "pipeline": [{"$project": {"_id": 1}}, {"$limit": 1}]}},
        ],
    );
    assert_eq!(
        out,
        vec![
            doc! {"_id": 1},
            doc! {"_id": 2},
            doc! {"_id": 3},
            doc! {"_id": 10}
        ]
    );
    let out = run(&mut e, vec![doc! {"$sample": {"size": 2}}]);
    assert_eq!(out.len(), 2);
    assert_ne!(out[0], out[1]);
    assert_eq!(
        stage_error(doc! {"$facet": {"a": [{"$out": "x"}]}}).0,
        40600
    );
    assert_eq!(stage_error(doc! {"$sample": {"size": -1}}).0, 28747);
}

/// The winning plan's stage names, outermost first.
fn plan_stages(mut plan: &Document) -> Vec<String> {
    let mut out = Vec::new();
    loop {
        out.push(plan.get_str("stage").unwrap_or("?").to_string());
        match plan.get_document("inputStage") {
            Ok(child) => plan = child,
            Err(_) => return out,
        }
    }
}

#[test]
fn leading_match_and_sort_use_indexes_and_explain_shows_the_cursor_stage() {
    let mut e = engine_with(
        (0..20)
            .map(|i| doc! {"_id": i, "k": i % 4, "v": i})
            .collect(),
    );
    let r = e.run_command(
        "t",
        &doc! {"createIndexes": "c", "indexes": [{"key": {"k": 1}, "name": "k_1"}]},
    );
    assert!(crate::reply_ok(&r), "{r:?}");
    let pipeline = vec![
        doc! {"$match": {"k": 2}},
        doc! {"$sort": {"v": -1}},
        doc! {"$limit": 2},
        doc! {"$project": {"_id": 0, "v": 1}},
    ];
    assert_eq!(
        run(&mut e, pipeline.clone()),
        vec![doc! {"v": 18}, doc! {"v": 14}]
    );
    let r = e.run_command(
        "t",
        &doc! {"explain": {"aggregate": "c", "pipeline": pipeline, "cursor": {}}, "verbosity": "executionStats"},
    );
    assert!(crate::reply_ok(&r), "{r:?}");
    let stages = r.get_array("stages").unwrap();
    assert_eq!(stages.len(), 2);
    let cursor = stages[0]
        .as_document()
        .unwrap()
        .get_document("$cursor")
        .unwrap();
    let plan = cursor
        .get_document("queryPlanner")
        .unwrap()
        .get_document("winningPlan")
        .unwrap();
    let names = plan_stages(plan);
    assert!(names.contains(&"IXSCAN".to_string()), "{names:?}");
    assert!(names.contains(&"SORT".to_string()), "{names:?}");
    let project = stages[1].as_document().unwrap();
    assert!(project.contains_key("$project"));
    assert_eq!(project.get_i32("nReturned").unwrap(), 2);
    // A pipeline that is all find shows the find's plain explain.
    let r = e.run_command(
        "t",
        &doc! {"aggregate": "c", "pipeline": [{"$match": {"k": 1}}], "explain": true},
    );
    assert!(r.contains_key("queryPlanner"), "{r:?}");
    assert!(!r.contains_key("stages"));
}

#[test]
fn preview_counts_and_samples_each_stage_in_order() {
    let mut e = engine_with((1..=6).map(|i| doc! {"_id": i, "k": i % 2}).collect());
    let pipeline = vec![
        Bson::Document(doc! {"$match": {"_id": {"$gt": 1}}}),
        Bson::Document(doc! {"$sort": {"_id": -1}}),
        Bson::Document(doc! {"$group": {"_id": "$k", "n": {"$sum": 1}}}),
        Bson::Document(doc! {"$match": {"n": {"$gt": 5}}}),
    ];
    let options = crate::commands::aggregate_preview::PreviewOptions {
        sample: 2,
        let_vars: None,
    };
    let previews = e
        .preview_pipeline("t", Some("c"), &pipeline, &options)
        .unwrap();
    let shape: Vec<(&str, usize, usize)> = previews
        .iter()
        .map(|p| (p.stage, p.count, p.sample.len()))
        .collect();
    assert_eq!(
        shape,
        vec![
            ("$match", 5, 2),
            ("$sort", 5, 2),
            ("$group", 2, 2),
            ("$match", 0, 0)
        ]
    );
    assert_eq!(
        previews[1].sample,
        vec![doc! {"_id": 6, "k": 0}, doc! {"_id": 5, "k": 1}]
    );
}

#[test]
fn preview_command_reply_and_errors() {
    let mut e = engine_with(vec![doc! {"_id": 1}, doc! {"_id": 2}]);
    let r = e.run_command(
        "t",
        &doc! {"sproutPreviewPipeline": "c", "pipeline": [{"$limit": 1}], "sample": 5},
    );
    assert_eq!(
        r,
        doc! {"stages": [{"stage": "$limit", "nReturned": 1, "sample": [{"_id": 1}]}], "ok": 1.0}
    );
    let r = e.run_command(
        "t",
        &doc! {"sproutPreviewPipeline": 1, "pipeline": [{"$documents": [{"x": 1}]}, {"$count": "n"}]},
    );
    assert_eq!(
        r.get_array("stages").unwrap()[1],
        Bson::Document(doc! {"stage": "$count", "nReturned": 1, "sample": [{"n": 1}]})
    );
    let (code, _) = error(
        &mut e,
        doc! {"sproutPreviewPipeline": "c", "pipeline": [{"$nope": 1}]},
    );
    assert_eq!(code, 40324);
}

/// The stages of an aggregate's queryPlanner explain, the `$cursor` stage shown by its
/// parsed query.
fn explained_stages(e: &mut Engine, pipeline: Vec<Document>) -> Vec<Document> {
    let r = e.run_command(
        "t",
        &doc! {"explain": {"aggregate": "c", "pipeline": pipeline, "cursor": {}}, "verbosity": "queryPlanner"},
    );
    assert!(crate::reply_ok(&r), "{r:?}");
    r.get_array("stages")
        .unwrap_or_else(|_| panic!("no stages in {r:?}"))
        .iter()
        .map(|s| {
            let s = s.as_document().unwrap();
            match s.get_document("$cursor") {
                Ok(cursor) => doc! {"$cursor": cursor
                .get_document("queryPlanner")
                .unwrap()
                .get_document("parsedQuery")
                .unwrap()
                .clone()},
                Err(_) => s.clone(),
            }
        })
        .collect()
}

#[test]
fn optimizer_moves_and_splits_match_ahead_of_computed_fields() {
    let docs: Vec<Document> = (0..6).map(|i| doc! {"_id": i, "a": i % 3}).collect();
    let mut e = engine_with(docs);
    let pipeline = vec![
        doc! {"$addFields": {"x": {"$multiply": ["$a", 10]}}},
        doc! {"$match": {"a": 1, "x": 10}},
    ];
    assert_eq!(
        run(&mut e, pipeline.clone()),
        vec![
            doc! {"_id": 1, "a": 1, "x": 10},
            doc! {"_id": 4, "a": 1, "x": 10}
        ]
    );
    assert_eq!(
        explained_stages(&mut e, pipeline),
        vec![
            doc! {"$cursor": {"a": {"$eq": 1}}},
            doc! {"$addFields": {"x": {"$multiply": ["$a", {"$const": 10}]}}},
            doc! {"$match": {"x": {"$eq": 10}}},
        ]
    );
    // An inclusion projection keeps `a` as is but drops `b`: only the match on `a` moves.
    let stages = explained_stages(
        &mut e,
        vec![
            doc! {"$project": {"a": 1}},
            doc! {"$match": {"a": 1, "b": null}},
        ],
    );
    assert_eq!(stages[0], doc! {"$cursor": {"a": {"$eq": 1}}});
    assert_eq!(stages[2], doc! {"$match": {"b": {"$eq": null}}});
}

/// Issue #19 (engine difference 10): a `$match` after a stage that renames a field
/// (`{z: "$a"}`) goes ahead of it reading the original field, so the index on `a` serves it
/// (MongoDB's DocumentSourceMatch::splitMatchByModifiedFields with the projection's renames).
#[test]
fn optimizer_moves_match_ahead_of_a_rename() {
    let docs: Vec<Document> = (0..6)
        .map(|i| doc! {"_id": i, "a": i % 3, "s": {"t": i}})
        .collect();
    let mut e = engine_with(docs);
    let r = e.run_command(
        "t",
        &doc! {"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1"}]},
    );
    assert!(crate::reply_ok(&r), "{r:?}");
    let pipeline = vec![
        doc! {"$project": {"z": "$a", "w": "$s"}},
        doc! {"$match": {"z": 1, "w.t": {"$gt": 3}}},
    ];
    assert_eq!(
        run(&mut e, pipeline.clone()),
        vec![doc! {"_id": 4, "z": 1, "w": {"t": 4}}]
    );
    let stages = explained_stages(&mut e, pipeline);
    assert_eq!(
        stages[0],
        doc! {"$cursor": {"$and": [{"a": {"$eq": 1}}, {"s.t": {"$gt": 3}}]}}
    );
    assert_eq!(stages.len(), 2, "{stages:?}");
    let r = e.run_command(
        "t",
        &doc! {"explain": {"aggregate": "c", "pipeline": [
            {"$addFields": {"z": "$a"}}, {"$match": {"z": 2}},
        ], "cursor": {}}, "verbosity": "queryPlanner"},
    );
    let text = format!("{r:?}");
    assert!(text.contains("IXSCAN"), "{text}");
    // A computed field that is not a plain field path stays behind, and so does a rename
    // whose target key is already ahead.
    let stages = explained_stages(
        &mut e,
        vec![
            doc! {"$project": {"z": {"$add": ["$a", 1]}, "a": 1}},
            doc! {"$match": {"z": 2, "a": 1}},
        ],
    );
    assert_eq!(stages[0], doc! {"$cursor": {"a": {"$eq": 1}}});
    assert_eq!(stages[2], doc! {"$match": {"z": {"$eq": 2}}});
    assert_eq!(
        run(
            &mut e,
            vec![
                doc! {"$project": {"z": "$a", "a": "$_id"}},
                doc! {"$match": {"z": 1, "a": 4}},
            ]
        ),
        vec![doc! {"_id": 4, "z": 1, "a": 4}]
    );
}

#[test]
fn optimizer_merges_matches_and_coalesces_sort_limit_skip() {
    let docs: Vec<Document> = (0..10).map(|i| doc! {"_id": i, "g": i % 5}).collect();
    let mut e = engine_with(docs);
    let group = doc! {"$group": {"_id": "$g", "n": {"$sum": 1}}};
    let stages = explained_stages(
        &mut e,
        vec![
            group.clone(),
            doc! {"$match": {"n": 2}},
            doc! {"$match": {"_id": {"$gt": 1}}},
            doc! {"$sort": {"_id": -1}},
            doc! {"$skip": 1},
            doc! {"$limit": 2},
        ],
    );
    assert_eq!(
        stages[stages.len() - 3..],
        [
            doc! {"$match": {"$and": [{"n": {"$eq": 2}}, {"_id": {"$gt": 1}}]}},
            doc! {"$sort": {"sortKey": {"_id": -1}, "limit": 3_i64}},
            doc! {"$skip": 1_i64},
        ]
    );
    let out = run(
        &mut e,
        vec![
            group,
            doc! {"$match": {"n": 2}},
            doc! {"$match": {"_id": {"$gt": 1}}},
            doc! {"$sort": {"_id": -1}},
            doc! {"$skip": 1},
            doc! {"$limit": 2},
        ],
    );
    assert_eq!(out, vec![doc! {"_id": 3, "n": 2}, doc! {"_id": 2, "n": 2}]);
    // A leading $skip + $limit runs entirely as the find (skip 2, limit 3).
    let r = e.run_command(
        "t",
        &doc! {"aggregate": "c", "pipeline": [{"$skip": 2}, {"$limit": 3}], "explain": true},
    );
    assert!(r.contains_key("queryPlanner"), "{r:?}");
    let ids: Vec<Bson> = run(&mut e, vec![doc! {"$skip": 2}, doc! {"$limit": 3}])
        .iter()
        .map(|d| d.get("_id").cloned().unwrap())
        .collect();
    assert_eq!(ids, vec![Bson::Int32(2), Bson::Int32(3), Bson::Int32(4)]);
}

#[test]
fn optimizer_leaves_a_match_after_a_top_k_sort_or_an_inhibitor() {
    let mut e = engine_with(vec![doc! {"_id": 1, "a": 1}, doc! {"_id": 2, "a": 2}]);
    let out = run(
        &mut e,
        vec![
            doc! {"$sort": {"a": -1}},
            doc! {"$limit": 1},
            doc! {"$match": {"a": 1}},
        ],
    );
    assert!(out.is_empty());
    let stages = explained_stages(
        &mut e,
        vec![
            doc! {"$addFields": {"b": 1}},
            doc! {"$_internalInhibitOptimization": {}},
            doc! {"$match": {"a": 1}},
        ],
    );
    assert_eq!(stages[2], doc! {"$_internalInhibitOptimization": {}});
    assert_eq!(stages[3], doc! {"$match": {"a": {"$eq": 1}}});
}

#[test]
fn now_is_available_in_match_expressions_and_lookup_sub_pipelines() {
    let mut e = engine_with(vec![doc! {"_id": 1, "a": 1}]);
    let out = run(
        &mut e,
        vec![
            doc! {"$match": {"$expr": {"$lte": ["$$NOW", "$$NOW"]}}},
            doc! {"$lookup": {"from": "c", "as": "j", "pipeline": [
                {"$match": {"$expr": {"$eq": [{"$type": "$$NOW"}, "date"]}}},
                {"$project": {"_id": 1}},
            ]}},
        ],
    );
    assert_eq!(out, vec![doc! {"_id": 1, "a": 1, "j": [{"_id": 1}]}]);
}

#[test]
fn a_result_document_over_16_mb_is_bson_object_too_large() {
    // Three arrays of 600,000 ints of 12 bytes each: about 21 MB. (One $range of 1.5 million
    // would do in MongoDB; Sprout caps $range at about a million, see expression::memory.)
    let mut e = Engine::new();
    let range = doc! {"$range": [0, 600_000]};
    let r = e.run_command(
        "t",
        &doc! {
            "aggregate": 1,
            "pipeline": [{"$documents": [{}]}, {"$project": {"r": &range, "s": &range, "t": &range}}],
            "cursor": {},
        },
    );
    assert_eq!(
        r.get_i32("code").ok(),
        Some(10334),
        "{:?}",
        r.get_str("errmsg")
    );
    let message = r.get_str("errmsg").unwrap_or_default();
    assert!(
        message.starts_with("PlanExecutor error during aggregation :: caused by :: BSONObj size: "),
        "{message}"
    );
    assert!(message.ends_with("is invalid. Size must be between 0 and 16793600(16MB)"));
}

#[test]
fn pipelines_hold_at_most_a_thousand_stages() {
    let mut e = engine_with(vec![doc! {"_id": 1, "a": 1}]);
    // A thousand `$match` stages merge into one flat filter (no nesting per stage).
    let mut stages = vec![doc! {"$match": {}}; 999];
    stages.push(doc! {"$match": {"a": 1}});
    assert_eq!(run(&mut e, stages), vec![doc! {"_id": 1, "a": 1}]);
    let stages = vec![doc! {"$match": {"_id": {"$exists": true}}}; 1000];
    assert_eq!(run(&mut e, stages).len(), 1);
    // One more is refused, at the top level and inside a `$lookup`.
    let too_long = vec![Bson::Document(doc! {"$match": {}}); 1001];
    for pipeline in [
        too_long.clone(),
        vec![Bson::Document(
            doc! {"$lookup": {"from": "c", "as": "x", "pipeline": too_long}},
        )],
    ] {
        let r = e.run_command(
            "t",
            &doc! {"aggregate": "c", "pipeline": pipeline, "cursor": {}},
        );
        assert_eq!(r.get_i32("code").ok(), Some(9), "{r:?}");
        assert_eq!(
            r.get_str("errmsg").ok(),
            Some("Pipeline length must be no longer than 1000 stages")
        );
    }
}

#[test]
fn group_reads_scanned_documents_in_place_with_the_same_answers() {
    // `$group` straight after a collection scan reads the stored documents in place; a `$set`
    // in front (of a field the group does not read) makes the find copy them for the stages.
    // Both give the same groups, in the same order, and the same errors.
    let docs: Vec<Document> = (0..200)
        .map(|i| {
            let mut d = doc! {"_id": i, "k": i % 7, "v": f64::from(i) / 4.0};
            if i % 5 == 0 {
                d.insert("arr", vec![Bson::Int32(i), Bson::Int32(-i)]);
            }
            d
        })
        .collect();
    let mut e = engine_with(docs);
    let group = doc! {"$group": {"_id": "$k", "sum": {"$sum": "$v"}, "n": {"$sum": 1},
    "first": {"$first": "$arr"}, "all": {"$push": "$_id"}}};
    for filter in [doc! {}, doc! {"k": {"$gte": 3}}, doc! {"v": {"$lt": 0}}] {
        let in_place = run(&mut e, vec![doc! {"$match": filter.clone()}, group.clone()]);
        let copied = run(
            &mut e,
            vec![
                doc! {"$match": filter},
                doc! {"$set": {"unread": 1}},
                group.clone(),
            ],
        );
        assert_eq!(in_place, copied);
    }
    assert_eq!(run(&mut e, vec![group.clone()]).len(), 7);
    let bad = doc! {"$group": {"_id": {"$divide": ["$k", 0]}}};
    let cmd = |pipeline: Vec<Document>| doc! {"aggregate": "c", "pipeline": pipeline, "cursor": {}};
    assert_eq!(
        error(&mut e, cmd(vec![bad.clone()])),
        error(&mut e, cmd(vec![doc! {"$set": {"unread": 1}}, bad]))
    );
}
