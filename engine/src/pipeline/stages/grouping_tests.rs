//! `$group`, `$bucket`, `$bucketAuto`, `$sortByCount` through the `aggregate` command, and Book
//! B chapter 8's pipelines on a generated events collection.

use bson::{Bson, Document, bson, doc};

use crate::Engine;

fn aggregate(
    e: &mut Engine,
    coll: &str,
    pipeline: Vec<Document>,
) -> Result<Vec<Document>, (i32, String)> {
    let r = e.run_command(
        "t",
        &doc! {"aggregate": coll, "pipeline": pipeline, "cursor": {}},
    );
    if !crate::reply_ok(&r) {
        return Err((
            r.get_i32("code").unwrap_or_default(),
            r.get_str("errmsg").unwrap_or_default().to_string(),
        ));
    }
    Ok(r.get_document("cursor")
        .and_then(|c| c.get_array("firstBatch"))
        .map(|b| b.iter().filter_map(|d| d.as_document().cloned()).collect())
        .unwrap_or_default())
}

fn engine_with(docs: Vec<Document>) -> Engine {
    let mut e = Engine::new();
    let r = e.run_command("t", &doc! {"insert": "c", "documents": docs});
    assert!(crate::reply_ok(&r), "{r:?}");
    e
}

fn run(docs: Vec<Document>, pipeline: Vec<Document>) -> Vec<Document> {
    aggregate(&mut engine_with(docs), "c", pipeline).unwrap()
}

fn stage_error(stage: Document) -> (i32, String) {
    let mut e = engine_with(vec![doc! {"_id": 1, "x": 1}]);
    aggregate(&mut e, "c", vec![stage]).unwrap_err()
}

fn sales() -> Vec<Document> {
    vec![
        doc! {"_id": 1, "item": "abc", "price": 10, "qty": 2},
        doc! {"_id": 2, "item": "jkl", "price": 20, "qty": 1},
        doc! {"_id": 3, "item": "xyz", "price": 5, "qty": 10},
        doc! {"_id": 4, "item": "xyz", "price": 5.5, "qty": 20},
        doc! {"_id": 5, "item": "abc", "price": 10, "qty": 10},
        doc! {"_id": 6, "qty": 3},
    ]
}

#[test]
fn group_by_field_with_accumulators() {
    let out = run(
        sales(),
        vec![doc! {"$group": {
            "_id": "$item",
            "total": {"$sum": {"$multiply": ["$price", "$qty"]}},
            "n": {"$count": {}},
            "avgQty": {"$avg": "$qty"},
            "ids": {"$push": "$_id"},
        }}],
    );
    assert_eq!(
        out,
        vec![
            doc! {"_id": "abc", "total": 120, "n": 2, "avgQty": 6.0, "ids": [1, 5]},
            doc! {"_id": "jkl", "total": 20, "n": 1, "avgQty": 1.0, "ids": [2]},
            doc! {"_id": "xyz", "total": 160.0, "n": 2, "avgQty": 15.0, "ids": [3, 4]},
            doc! {"_id": null, "total": 0, "n": 1, "avgQty": 3.0, "ids": [6]},
        ]
    );
}

#[test]
fn group_ids_documents_root_and_numeric_equality() {
    let docs = vec![
        doc! {"_id": 1, "a": 1, "b": "x"},
        doc! {"_id": 2, "a": 1.0, "b": "x"},
        doc! {"_id": 3, "a": Bson::Int64(2), "b": "y"},
    ];
    let out = run(
        docs.clone(),
        vec![doc! {"$group": {"_id": {"a": "$a", "b": "$b"}, "docs": {"$push": "$$ROOT"}}}],
    );
    assert_eq!(out.len(), 2);
    assert_eq!(out[0].get("_id"), Some(&bson!({"a": 1, "b": "x"})));
    assert_eq!(out[0].get_array("docs").unwrap().len(), 2);
    let all = run(
        docs,
        vec![doc! {"$group": {"_id": null, "m": {"$max": "$a"}}}],
    );
    assert_eq!(all, vec![doc! {"_id": null, "m": Bson::Int64(2)}]);
    // No input, no groups.
    assert!(
        run(
            vec![doc! {"x": 1}],
            vec![doc! {"$match": {"x": 2}}, doc! {"$group": {"_id": null}}]
        )
        .is_empty()
    );
}

#[test]
fn group_errors() {
    assert_eq!(
        stage_error(doc! {"$group": {"total": {"$sum": 1}}}),
        (15955, "a group specification must include an _id".into())
    );
    assert_eq!(stage_error(doc! {"$group": 1}).0, 15947);
    assert_eq!(
        stage_error(doc! {"$group": {"_id": null, "x": 1}}),
        (40234, "The field 'x' must be an accumulator object".into())
    );
    assert_eq!(
        stage_error(doc! {"$group": {"_id": null, "x": {"$bogus": 1}}}),
        (15952, "unknown group operator '$bogus'".into())
    );
    assert_eq!(
        stage_error(doc! {"$group": {"_id": null, "x": {"$sum": [1]}}}).0,
        40237
    );
}

#[test]
fn bucket_ranges_default_and_output() {
    let out = run(
        sales(),
        vec![doc! {"$bucket": {
            "groupBy": "$price",
            "boundaries": [0, 10, 20],
            "default": "other",
            "output": {"n": {"$sum": 1}, "items": {"$addToSet": "$item"}},
        }}],
    );
    assert_eq!(
        out,
        vec![
            doc! {"_id": 0, "n": 2, "items": ["xyz"]},
            doc! {"_id": 10, "n": 2, "items": ["abc"]},
            doc! {"_id": "other", "n": 2, "items": ["jkl"]},
        ]
    );
    let counts = run(
        sales(),
        vec![
            doc! {"$match": {"price": {"$exists": true}}},
            doc! {"$bucket": {"groupBy": "$qty", "boundaries": [0, 5, 50]}},
        ],
    );
    assert_eq!(
        counts,
        vec![doc! {"_id": 0, "count": 2}, doc! {"_id": 5, "count": 3}]
    );
    // A value outside every bucket without a default.
    let mut e = engine_with(sales());
    let err = aggregate(
        &mut e,
        "c",
        vec![doc! {"$bucket": {"groupBy": "$qty", "boundaries": [0, 5]}}],
    )
    .unwrap_err();
    assert_eq!(err.0, 40066);
}

#[test]
fn bucket_errors() {
    let e = |spec: Document| stage_error(doc! {"$bucket": spec}).0;
    assert_eq!(e(doc! {"groupBy": "$x"}), 40198);
    assert_eq!(e(doc! {"groupBy": "x", "boundaries": [0, 1]}), 40202);
    assert_eq!(e(doc! {"groupBy": "$x", "boundaries": [0]}), 40192);
    assert_eq!(e(doc! {"groupBy": "$x", "boundaries": [5, 1]}), 40194);
    assert_eq!(e(doc! {"groupBy": "$x", "boundaries": [0, "a"]}), 40193);
    assert_eq!(
        e(doc! {"groupBy": "$x", "boundaries": [0, 5], "default": 3}),
        40199
    );
    assert_eq!(
        e(doc! {"groupBy": "$x", "boundaries": [0, 5], "bogus": 1}),
        40197
    );
    assert_eq!(
        e(doc! {"groupBy": "$x", "boundaries": [0, 5], "output": 1}),
        40196
    );
}

#[test]
fn bucket_auto_sizes_and_granularity() {
    let docs: Vec<Document> = (1..=10).map(|i| doc! {"_id": i, "v": i}).collect();
    let out = run(
        docs.clone(),
        vec![doc! {"$bucketAuto": {"groupBy": "$v", "buckets": 3}}],
    );
    assert_eq!(
        out,
        vec![
            doc! {"_id": {"min": 1, "max": 4}, "count": 3},
            doc! {"_id": {"min": 4, "max": 7}, "count": 3},
            doc! {"_id": {"min": 7, "max": 10}, "count": 4},
        ]
    );
    // Equal values stay in one bucket.
    let same: Vec<Document> = [1, 1, 1, 2].iter().map(|v| doc! {"v": v}).collect();
    let out = run(
        same,
        vec![doc! {"$bucketAuto": {"groupBy": "$v", "buckets": 2}}],
    );
    assert_eq!(
        out,
        vec![
            doc! {"_id": {"min": 1, "max": 2}, "count": 3},
            doc! {"_id": {"min": 2, "max": 2}, "count": 1},
        ]
    );
    // Rounding down is strict: the first minimum is the series value below 1.
    let out = run(
        docs,
        vec![
            doc! {"$bucketAuto": {"groupBy": "$v", "buckets": 2, "granularity": "1-2-5",
            "output": {"s": {"$sum": "$v"}}}},
        ],
    );
    assert_eq!(
        out,
        vec![
            doc! {"_id": {"min": 0.5, "max": 10.0}, "s": 45},
            doc! {"_id": {"min": 10.0, "max": 20.0}, "s": 10},
        ]
    );
    let e = |spec: Document| stage_error(doc! {"$bucketAuto": spec}).0;
    assert_eq!(e(doc! {"groupBy": "$x", "buckets": 0}), 40243);
    assert_eq!(e(doc! {"groupBy": "$x", "buckets": "a"}), 40241);
    assert_eq!(e(doc! {"groupBy": "$x"}), 40246);
    assert_eq!(
        e(doc! {"groupBy": "$x", "buckets": 2, "granularity": "R3"}),
        40257
    );
}

#[test]
fn sort_by_count() {
    let out = run(sales(), vec![doc! {"$sortByCount": "$item"}]);
    assert_eq!(out[0].get_i32("count").unwrap(), 2);
    assert_eq!(out[2], doc! {"_id": "jkl", "count": 1});
    assert_eq!(stage_error(doc! {"$sortByCount": "item"}).0, 40148);
    assert_eq!(stage_error(doc! {"$sortByCount": 1}).0, 40149);
}

/// Book B chapter 8: web-server events, grouped per resource, throughput per minute of a day,
/// sorted by throughput. The expected figures are counted directly from the generated data.
#[test]
fn book_b_chapter_8_resource_throughput() {
    let resources = ["/", "/legal/faq", "/legal/terms"];
    let events: Vec<Document> = (0..300)
        .map(|i| {
            let r = resources[(i * 7 + i / 5) % 3];
            doc! {"_id": i as i32, "resource": r, "date_created": bson::DateTime::from_millis(1_427_690_000_000 + i as i64 * 1_000)}
        })
        .collect();
    let hits = |r: &str| {
        events
            .iter()
            .filter(|e| e.get_str("resource").unwrap() == r)
            .count() as i32
    };
    let mut e = Engine::new();
    let reply = e.run_command("t", &doc! {"insert": "events", "documents": events.clone()});
    assert!(crate::reply_ok(&reply));

    let stage1 = doc! {"$group": {"_id": "$resource", "hits": {"$sum": 1}}};
    let stage2 = doc! {"$project": {"_id": 0, "resource": "$_id", "throughput": {"$divide": ["$hits", 1440]}}};
    let stage3 = doc! {"$sort": {"throughput": -1}};

    let grouped = aggregate(&mut e, "events", vec![stage1.clone()]).unwrap();
    let mut expected: Vec<Document> = resources
        .iter()
        .map(|r| doc! {"_id": *r, "hits": hits(r)})
        .collect();
    let mut sorted = grouped.clone();
    let by_id = |d: &Document| d.get_str("_id").unwrap_or_default().to_string();
    sorted.sort_by_key(by_id);
    expected.sort_by_key(by_id);
    assert_eq!(sorted, expected);

    let projected = aggregate(&mut e, "events", vec![stage1.clone(), stage2.clone()]).unwrap();
    for d in &projected {
        let r = d.get_str("resource").unwrap();
        assert_eq!(d.keys().collect::<Vec<_>>(), ["resource", "throughput"]);
        assert_eq!(
            d.get_f64("throughput").unwrap(),
            f64::from(hits(r)) / 1440.0
        );
    }

    let ranked = aggregate(&mut e, "events", vec![stage1, stage2, stage3]).unwrap();
    let throughputs: Vec<f64> = ranked
        .iter()
        .map(|d| d.get_f64("throughput").unwrap())
        .collect();
    let mut want = throughputs.clone();
    want.sort_by(|a, b| b.total_cmp(a));
    assert_eq!(throughputs, want);
    assert_eq!(ranked.len(), 3);
}

fn scores() -> Vec<Document> {
    vec![
        doc! {"_id": 1, "team": "a", "t": 1, "s": 10},
        doc! {"_id": 2, "team": "b", "t": 1, "s": 7},
        doc! {"_id": 3, "team": "a", "t": 2, "s": 20},
        doc! {"_id": 4, "team": "a", "t": 4, "s": 20},
        doc! {"_id": 5, "team": "b", "t": 3},
        doc! {"_id": 6, "team": "a", "t": 5, "s": 5},
    ]
}

fn window(output: Document) -> Vec<Document> {
    run(
        scores(),
        vec![
            doc! {"$setWindowFields": {"partitionBy": "$team", "sortBy": {"t": 1}, "output": output}},
            doc! {"$project": {"team": 0, "t": 0, "s": 0}},
        ],
    )
}

#[test]
fn window_accumulators_over_documents_and_range() {
    let out = window(doc! {
        "running": {"$sum": "$s", "window": {"documents": ["unbounded", "current"]}},
        "total": {"$sum": "$s"},
        "near": {"$push": "$s", "window": {"range": [-1, 1]}},
    });
    assert_eq!(
        out,
        vec![
            doc! {"_id": 1, "running": 10, "total": 55, "near": [10, 20]},
            doc! {"_id": 3, "running": 30, "total": 55, "near": [10, 20]},
            doc! {"_id": 4, "running": 50, "total": 55, "near": [20, 5]},
            doc! {"_id": 6, "running": 55, "total": 55, "near": [20, 5]},
            doc! {"_id": 2, "running": 7, "total": 7, "near": [7]},
            doc! {"_id": 5, "running": 7, "total": 7, "near": []},
        ]
    );
}

#[test]
fn window_ranks_shift_and_fill() {
    let out = run(
        scores(),
        vec![
            doc! {"$match": {"team": "a"}},
            doc! {"$setWindowFields": {"sortBy": {"s": -1}, "output": {
                "rank": {"$rank": {}},
                "dense": {"$denseRank": {}},
                "n": {"$documentNumber": {}},
                "prev": {"$shift": {"output": "$_id", "by": -1, "default": 0}},
            }}},
            doc! {"$project": {"team": 0, "t": 0, "s": 0}},
        ],
    );
    assert_eq!(
        out,
        vec![
            doc! {"_id": 3, "rank": 1, "dense": 1, "n": 1, "prev": 0},
            doc! {"_id": 4, "rank": 1, "dense": 1, "n": 2, "prev": 3},
            doc! {"_id": 1, "rank": 3, "dense": 2, "n": 3, "prev": 4},
            doc! {"_id": 6, "rank": 4, "dense": 3, "n": 4, "prev": 1},
        ]
    );
    let filled = run(
        vec![
            doc! {"_id": 1, "t": 0, "v": 0},
            doc! {"_id": 2, "t": 1},
            doc! {"_id": 3, "t": 4, "v": null},
            doc! {"_id": 4, "t": 5, "v": 10},
        ],
        vec![doc! {"$setWindowFields": {"sortBy": {"t": 1}, "output": {
            "lin": {"$linearFill": "$v"},
            "locf": {"$locf": "$v"},
            "ema": {"$expMovingAvg": {"input": "$v", "alpha": 0.5}},
        }}}],
    );
    let lin: Vec<Bson> = filled
        .iter()
        .map(|d| d.get("lin").cloned().unwrap())
        .collect();
    assert_eq!(lin, vec![bson!(0), bson!(2.0), bson!(8.0), bson!(10)]);
    let locf: Vec<Bson> = filled
        .iter()
        .map(|d| d.get("locf").cloned().unwrap())
        .collect();
    assert_eq!(locf, vec![bson!(0), bson!(0), bson!(0), bson!(10)]);
    assert_eq!(filled[3].get("ema"), Some(&bson!(5.0)));
}

#[test]
fn window_derivative_integral_covariance() {
    let docs: Vec<Document> = (0..4).map(|t| doc! {"t": t, "y": t * t, "x": t}).collect();
    let out = run(
        docs,
        vec![doc! {"$setWindowFields": {"sortBy": {"t": 1}, "output": {
            "d": {"$derivative": {"input": "$y"}, "window": {"documents": [-1, 0]}},
            "area": {"$integral": {"input": "$y"}, "window": {"documents": ["unbounded", "current"]}},
            "cov": {"$covariancePop": ["$x", "$x"]},
        }}}],
    );
    let d: Vec<Bson> = out.iter().map(|d| d.get("d").cloned().unwrap()).collect();
    assert_eq!(d, vec![Bson::Null, bson!(1.0), bson!(3.0), bson!(5.0)]);
    assert_eq!(out[3].get("area"), Some(&bson!(9.5)));
    assert_eq!(out[0].get("cov"), Some(&bson!(1.25)));
}

#[test]
fn window_errors() {
    let e = |spec: Document| stage_error(doc! {"$setWindowFields": spec});
    assert_eq!(e(doc! {"output": {"r": {"$rank": {}}}}).0, 5371602);
    assert_eq!(
        e(doc! {"sortBy": {"x": 1}, "output": {"r": {"$bogus": 1}}}).0,
        9
    );
    assert_eq!(e(doc! {"sortBy": {"x": 1}}).0, 40414);
    assert_eq!(e(doc! {"output": {}, "extra": 1}).0, 40415);
    assert_eq!(
        e(doc! {"output": {"s": {"$sum": 1, "window": {"documents": [1, 0]}}}}).0,
        9
    );
    // A range window needs a numeric sortBy value; the stored x is a string.
    let mut eng = engine_with(vec![doc! {"x": "text"}]);
    let err = aggregate(
        &mut eng,
        "c",
        vec![doc! {"$setWindowFields": {"sortBy": {"x": 1},
        "output": {"s": {"$sum": 1, "window": {"range": [0, 1]}}}}}],
    )
    .unwrap_err();
    assert_eq!(err.0, 5429414);
}

#[test]
fn fill_values_and_methods() {
    let docs = vec![
        doc! {"_id": 1, "t": 1, "v": 10, "c": "x"},
        doc! {"_id": 2, "t": 2, "c": null},
        doc! {"_id": 3, "t": 3, "v": 30},
    ];
    let out = run(
        docs.clone(),
        vec![doc! {"$fill": {"output": {"c": {"value": "none"}}}}],
    );
    let c: Vec<Bson> = out.iter().map(|d| d.get("c").cloned().unwrap()).collect();
    assert_eq!(c, vec![bson!("x"), bson!("none"), bson!("none")]);
    let out = run(
        docs.clone(),
        vec![doc! {"$fill": {"sortBy": {"t": 1}, "output": {"v": {"method": "linear"}}}}],
    );
    assert_eq!(out[1].get("v"), Some(&bson!(20.0)));
    let out = run(
        docs,
        vec![doc! {"$fill": {"sortBy": {"t": 1}, "output": {"v": {"method": "locf"}}}}],
    );
    assert_eq!(out[1].get("v"), Some(&bson!(10)));
    assert_eq!(
        stage_error(doc! {"$fill": {"output": {"v": {"method": "nearest"}}}}).0,
        6050202
    );
    assert_eq!(
        stage_error(doc! {"$fill": {"output": {"v": {"method": "linear"}}}}).0,
        5371602
    );
}

#[test]
fn densify_numbers_partitions_and_dates() {
    let docs = vec![
        doc! {"_id": 1, "p": "a", "x": 0},
        doc! {"_id": 2, "p": "a", "x": 3},
        doc! {"_id": 3, "p": "b", "x": 2},
    ];
    let xs = |out: &[Document]| -> Vec<(Bson, Bson)> {
        out.iter()
            .map(|d| {
                (
                    d.get("p").cloned().unwrap_or(Bson::Null),
                    d.get("x").cloned().unwrap(),
                )
            })
            .collect()
    };
    let out = run(
        docs.clone(),
        vec![
            doc! {"$densify": {"field": "x", "partitionByFields": ["p"], "range": {"step": 1, "bounds": "partition"}}},
        ],
    );
    assert_eq!(
        xs(&out),
        vec![
            (bson!("a"), bson!(0)),
            (bson!("a"), bson!(1)),
            (bson!("a"), bson!(2)),
            (bson!("a"), bson!(3)),
            (bson!("b"), bson!(2)),
        ]
    );
    let out = run(
        docs,
        vec![
            doc! {"$densify": {"field": "x", "partitionByFields": ["p"], "range": {"step": 2, "bounds": "full"}}},
        ],
    );
    assert_eq!(
        xs(&out),
        vec![
            (bson!("a"), bson!(0)),
            (bson!("a"), bson!(2)),
            (bson!("a"), bson!(3)),
            (bson!("b"), bson!(0)),
            (bson!("b"), bson!(2)),
        ]
    );
    let day = 86_400_000i64;
    let dates = vec![
        doc! {"t": bson::DateTime::from_millis(0)},
        doc! {"t": bson::DateTime::from_millis(3 * day)},
    ];
    let out = run(
        dates,
        vec![
            doc! {"$densify": {"field": "t", "range": {"step": 1, "unit": "day", "bounds": "full"}}},
        ],
    );
    assert_eq!(out.len(), 4);
    assert_eq!(out[1], doc! {"t": bson::DateTime::from_millis(day)});
    assert_eq!(
        stage_error(doc! {"$densify": {"field": "x", "range": {"step": 0, "bounds": "full"}}}).0,
        5733401
    );
    assert_eq!(
        stage_error(doc! {"$densify": {"range": {"step": 1, "bounds": "full"}}}).0,
        40414
    );
}

/// Book B chapter 8, first pipeline: events counted per minute with a nested-document `_id` of
/// date parts. The expected counts are computed directly from the generated timestamps.
#[test]
fn book_b_chapter_8_per_minute_counts() {
    let start = 1_427_690_000_000i64; // 2015-03-30T04:33:20Z
    let offsets: Vec<i64> = (0..200).map(|i| (i * 7919) % 900_000).collect();
    let events: Vec<Document> = offsets
        .iter()
        .enumerate()
        .map(|(i, ms)| doc! {"_id": i as i32, "date_created": bson::DateTime::from_millis(start + ms)})
        .collect();
    let mut e = Engine::new();
    assert!(crate::reply_ok(&e.run_command(
        "t",
        &doc! {"insert": "events", "documents": events}
    )));
    let pipeline = vec![doc! {"$group": {
        "_id": {"request_time": {
            "month": {"$month": "$date_created"},
            "day": {"$dayOfMonth": "$date_created"},
            "year": {"$year": "$date_created"},
            "hour": {"$hour": "$date_created"},
            "min": {"$minute": "$date_created"},
        }},
        "count": {"$sum": 1},
    }}];
    let out = aggregate(&mut e, "events", pipeline).unwrap();
    let mut expected: std::collections::BTreeMap<i64, i32> = Default::default();
    for ms in &offsets {
        *expected.entry((start + ms) / 60_000).or_default() += 1;
    }
    assert_eq!(out.len(), expected.len());
    for d in &out {
        let t = d
            .get_document("_id")
            .unwrap()
            .get_document("request_time")
            .unwrap();
        assert_eq!(
            t.keys().collect::<Vec<_>>(),
            ["month", "day", "year", "hour", "min"]
        );
        assert_eq!(
            (
                t.get_i32("month").unwrap(),
                t.get_i32("day").unwrap(),
                t.get_i32("year").unwrap()
            ),
            (3, 30, 2015)
        );
        let minute_of_epoch = (start / 3_600_000) * 60 - (start / 3_600_000 % 24) * 60
            + i64::from(t.get_i32("hour").unwrap()) * 60
            + i64::from(t.get_i32("min").unwrap());
        assert_eq!(
            d.get_i32("count").unwrap(),
            expected[&minute_of_epoch],
            "{d:?}"
        );
    }
}

/// A `$group` that reads only top-level fields reads them from the stored bytes
/// (`Group::group_stored`); it answers exactly as the same group over the documents (here
/// behind a `$project` that keeps everything, so the scan hands it copies), errors included.
#[test]
fn group_over_stored_bytes_answers_as_over_documents() {
    let mut docs = Vec::new();
    for i in 0..300i64 {
        let mut d = doc! {"_id": i};
        match i % 9 {
            0 => {}
            1 => {
                d.insert("a", Bson::Null);
            }
            2 => {
                d.insert("a", vec![1, 2]);
            }
            3 => {
                d.insert("a", doc! {"x": i % 2});
            }
            4 => {
                d.insert("a", format!("s{}", i % 4));
            }
            5 => {
                d.insert("a", (i % 3) as f64 + 0.5);
            }
            _ => {
                d.insert("a", i % 3);
            }
        }
        if i % 5 != 0 {
            d.insert(
                "n",
                if i % 2 == 0 {
                    Bson::Int64(i)
                } else {
                    Bson::Int32(i as i32)
                },
            );
        }
        d.insert("d", bson::DateTime::from_millis(i * 86_400_000 / 3));
        if i % 7 == 0 {
            d.insert("s", "text");
        }
        docs.push(d);
    }
    let mut e = engine_with(docs);
    e.run_command(
        "t",
        &doc! {"update": "c", "updates": [{"q": {"_id": {"$lt": 40}}, "u": {"$set": {"pad": "x".repeat(200)}}, "multi": true}]},
    );
    e.run_command(
        "t",
        &doc! {"delete": "c", "deletes": [{"q": {"_id": {"$gt": 280}}, "limit": 0}]},
    );
    let keep_all = doc! {"$project": {"zz": 0}};
    let groups = [
        doc! {"_id": "$a", "n": {"$sum": "$n"}, "c": {"$sum": 1}},
        doc! {"_id": {"$dayOfMonth": "$d"}, "n": {"$sum": "$n"}, "avg": {"$avg": "$n"}},
        doc! {"_id": {"k": "$a", "s": "$s"}, "max": {"$max": "$n"}, "p": {"$push": "$s"}},
        doc! {"_id": null, "first": {"$first": "$a"}, "last": {"$last": "$n"}, "set": {"$addToSet": "$s"}},
        doc! {"_id": {"$concat": ["$s", "-"]}, "c": {"$sum": 1}},
        doc! {"_id": {"$dayOfMonth": "$a"}},
        doc! {"_id": "$a.x", "c": {"$sum": 1}},
        doc! {"_id": "$$ROOT.a", "r": {"$first": "$$ROOT"}},
    ];
    for g in groups {
        for filter in [
            None,
            Some(doc! {"n": {"$gt": 50}}),
            Some(doc! {"a": {"$ne": 1}}),
        ] {
            let mut stored = Vec::new();
            let mut copied = Vec::new();
            if let Some(f) = &filter {
                stored.push(doc! {"$match": f.clone()});
                copied.push(doc! {"$match": f.clone()});
            }
            copied.push(keep_all.clone());
            stored.push(doc! {"$group": g.clone()});
            copied.push(doc! {"$group": g.clone()});
            let sort = doc! {"$sort": {"_id": 1}};
            stored.push(sort.clone());
            copied.push(sort);
            assert_eq!(
                aggregate(&mut e, "c", stored),
                aggregate(&mut e, "c", copied),
                "{g} {filter:?}"
            );
        }
    }
}

/// The fused stored-bytes path (`Grouper::add_fused`: the `_id` a field or a UTC date
/// component of one, accumulators of fields and constants) answers as the same group over the
/// documents: numbers of every type that are equal are one group shown as the first seen,
/// missing and null are one group, undefined is its own, NaN and -0.0, strings under a
/// collation, a date component of a value that is not a date (an error, or null), and every
/// accumulator that takes a value.
#[test]
fn fused_group_over_stored_bytes_answers_as_over_documents() {
    let dec_one = Bson::Decimal128(bson::Decimal128::from_bytes([
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x40, 0x30,
    ]));
    let keys = [
        Bson::Int32(1),
        Bson::Double(1.0),
        Bson::Int64(1),
        dec_one,
        Bson::Double(-0.0),
        Bson::Int32(0),
        Bson::Double(f64::NAN),
        Bson::Double(2.5),
        Bson::Int64(1 << 60),
        Bson::Double(9.3e18),
        Bson::Null,
        Bson::Undefined,
        Bson::String("a".into()),
        Bson::String("A".into()),
        Bson::String("b".into()),
        Bson::Boolean(true),
        Bson::DateTime(bson::DateTime::from_millis(5)),
        Bson::Timestamp(bson::Timestamp {
            time: 1,
            increment: 2,
        }),
    ];
    let mut docs = Vec::new();
    for i in 0..400i64 {
        let mut d = doc! {"_id": i};
        // Every key type, in an order that changes which one of equal keys comes first.
        let k = (i * 7 + i / 40) as usize % (keys.len() + 1);
        if k < keys.len() {
            d.insert("k", keys[k].clone());
        }
        match i % 11 {
            0 => {}
            1 => _ = d.insert("n", Bson::Null),
            2 => _ = d.insert("n", "str"),
            3 => _ = d.insert("n", 2.5),
            4 => _ = d.insert("n", Bson::Int64(i64::MAX - 3)),
            5 => _ = d.insert("n", i32::MAX),
            _ => _ = d.insert("n", i as i32),
        }
        // Dates from before 1970 to after 9999, and a few values that are not dates.
        let date = match i % 13 {
            0 => Bson::Null,
            1 => Bson::Int32(3),
            2 => Bson::Timestamp(bson::Timestamp {
                time: 86_400 * 40,
                increment: 1,
            }),
            3 => Bson::Undefined,
            _ => Bson::DateTime(bson::DateTime::from_millis(
                (i - 200) * 86_400_000 * 97 + i * 3_600_007,
            )),
        };
        if i % 17 != 0 {
            d.insert("d", date);
        }
        // More distinct strings than the key cache's short list, some equal under the
        // collation below.
        let s = format!("s{}", i % 23);
        d.insert("s", if i % 3 == 0 { s.to_uppercase() } else { s });
        docs.push(d);
    }
    let mut e = engine_with(docs);
    let dates_only = doc! {"$match": {"d": {"$type": "date"}}};
    let keep_all = doc! {"$project": {"zz": 0}};
    let mut groups = vec![
        doc! {"_id": "$k", "n": {"$sum": "$n"}, "c": {"$sum": 1}, "avg": {"$avg": "$n"}},
        doc! {"_id": "$$CURRENT.k", "min": {"$min": "$n"}, "max": {"$max": "$n"}, "first": {"$first": "$n"}, "last": {"$last": "$d"}},
        doc! {"_id": "$k", "p": {"$push": "$n"}, "s": {"$addToSet": "$n"}, "sd": {"$stdDevPop": "$n"}, "ss": {"$stdDevSamp": "$n"}},
        doc! {"_id": "$k", "f": {"$firstN": {"input": "$n", "n": 2}}, "m": {"$maxN": {"input": "$n", "n": 2}}, "med": {"$median": {"input": "$n", "method": "approximate"}}},
        doc! {"_id": "$n", "c": {"$count": {}}},
        doc! {"_id": "$s", "c": {"$count": {}}, "k": {"$addToSet": "$k"}},
        doc! {"_id": 7, "n": {"$sum": "$n"}},
        doc! {"_id": "$missing", "n": {"$sum": "$k"}},
        doc! {"_id": {"$dayOfMonth": "$d"}, "c": {"$sum": 1}},
        doc! {"_id": {"$dayOfMonth": {"date": "$d"}}, "c": {"$sum": 1}},
        doc! {"_id": {"$dayOfMonth": {"date": "$d", "timezone": "+01:00"}}, "c": {"$sum": 1}},
    ];
    for part in [
        "$year",
        "$month",
        "$hour",
        "$minute",
        "$second",
        "$millisecond",
        "$dayOfWeek",
        "$dayOfYear",
        "$week",
        "$isoWeek",
        "$isoWeekYear",
        "$isoDayOfWeek",
    ] {
        groups.push(doc! {"_id": {part: "$d"}, "c": {"$sum": 1}, "n": {"$sum": "$n"}});
    }
    for g in groups {
        for (filter, collation) in [
            (None, None),
            (Some(doc! {"n": {"$gt": 50}}), None),
            (Some(dates_only.clone()), None),
            (None, Some(doc! {"locale": "en", "strength": 2})),
        ] {
            let mut stored = Vec::new();
            let mut copied = Vec::new();
            if let Some(f) = &filter {
                stored.push(f.clone());
                copied.push(f.clone());
            }
            copied.push(keep_all.clone());
            stored.push(doc! {"$group": g.clone()});
            copied.push(doc! {"$group": g.clone()});
            let run = |e: &mut Engine, pipeline: Vec<Document>| {
                let mut cmd = doc! {"aggregate": "c", "pipeline": pipeline, "cursor": {}};
                if let Some(c) = &collation {
                    cmd.insert("collation", c.clone());
                }
                let r = e.run_command("t", &cmd);
                // NaN is not equal to itself: compare the replies as printed.
                match r.get_document("cursor") {
                    Ok(c) => format!("{:?}", c.get_array("firstBatch")),
                    Err(_) => format!("{:?} {:?}", r.get("code"), r.get("errmsg")),
                }
            };
            let (a, b) = (run(&mut e, stored), run(&mut e, copied));
            assert_eq!(a, b, "{g} {filter:?} {collation:?}");
        }
    }
}

#[test]
fn a_one_field_id_object_groups_missing_as_null() {
    // SERVER-21992 (jstests/aggregation/bugs/groupMissing.js): MongoDB evaluates a one-field
    // `_id` object's expression alone and turns missing into null.
    let out = run(
        vec![doc! {"_id": 1, "a": null}, doc! {"_id": 2}],
        vec![doc! {"$group": {"_id": {"a": "$a"}}}],
    );
    assert_eq!(out, vec![doc! {"_id": {"a": null}}]);
    // With two fields, missing stays missing.
    let out = run(
        vec![doc! {"_id": 1, "a": null, "b": 1}, doc! {"_id": 2, "b": 1}],
        vec![doc! {"$group": {"_id": {"a": "$a", "b": "$b"}}}],
    );
    assert_eq!(
        out,
        vec![doc! {"_id": {"a": null, "b": 1}}, doc! {"_id": {"b": 1}}]
    );
}
