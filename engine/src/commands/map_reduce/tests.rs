//! mapReduce through a stand-in evaluator: options, output modes, errors.

use bson::{Bson, Document, doc};

use super::parse_out;
use crate::Engine;
use crate::error::Result;
use crate::javascript::MapReduceEvaluator;
use crate::matcher::MatchContext;

/// A stand-in for the shell's JavaScript: the map "code" names a field whose values (each
/// element of an array) it emits with 1; reduce sums; finalize ("x10") multiplies by ten;
/// "throw" fails.
struct Fake;

impl MapReduceEvaluator for Fake {
    fn map(&self, code: &str, doc: &Document) -> Result<Vec<(Bson, Bson)>> {
        if code == "throw" {
            return Err(crate::Error::new(
                crate::ErrorCode::JSInterpreterFailure,
                "Error: thrown in map",
            ));
        }
        if let Some(mib) = code.strip_prefix("big") {
            let mib: usize = mib.parse().unwrap_or(9);
            return Ok(vec![(
                Bson::Int32(1),
                Bson::String("x".repeat(mib * 1024 * 1024)),
            )]);
        }
        Ok(match doc.get(code) {
            Some(Bson::Array(items)) => items
                .iter()
                .map(|k| (k.clone(), Bson::Double(1.0)))
                .collect(),
            Some(k) => vec![(k.clone(), Bson::Double(1.0))],
            None => vec![(Bson::Null, Bson::Double(1.0))],
        })
    }

    fn call(&self, code: &str, args: &[Bson]) -> Result<Bson> {
        match (code, args) {
            ("sum", [_, Bson::Array(values)]) => Ok(Bson::Double(
                values
                    .iter()
                    .filter_map(crate::value::numeric::as_f64)
                    .sum(),
            )),
            // Counts the values, a number standing for that many (a batch's result).
            ("count", [_, Bson::Array(values)]) => Ok(Bson::Double(
                values
                    .iter()
                    .map(|v| crate::value::numeric::as_f64(v).unwrap_or(1.0))
                    .sum(),
            )),
            ("x10", [_, v]) => Ok(Bson::Double(
                crate::value::numeric::as_f64(v).unwrap_or(0.0) * 10.0,
            )),
            _ => Ok(Bson::Null),
        }
    }
}

fn engine() -> Engine {
    let mut e = Engine::new();
    e.run_command(
        "t",
        &doc! {"insert": "c", "documents": [
            {"_id": 1, "tags": ["a", "b"]},
            {"_id": 2, "tags": ["b", "c"]},
            {"_id": 3, "tags": ["c", "a"]},
            {"_id": 4, "tags": ["b", "c"]},
        ]},
    );
    e
}

fn run(e: &mut Engine, cmd: Document) -> Document {
    let ctx = MatchContext {
        where_evaluator: None,
        map_reduce: Some(&Fake),
        meta: None,
    };
    e.run_command_with("t", &cmd, &ctx)
}

#[test]
fn inline_results_are_reduced_by_key_in_order() {
    let mut e = engine();
    let r = run(
        &mut e,
        doc! {"mapReduce": "c", "map": "tags", "reduce": "sum", "out": {"inline": 1}},
    );
    assert_eq!(
        r,
        doc! {"results": [
            {"_id": "a", "value": 2.0}, {"_id": "b", "value": 3.0}, {"_id": "c", "value": 3.0},
        ], "ok": 1.0}
    );
}

#[test]
fn query_sort_limit_and_finalize_apply() {
    let mut e = engine();
    let r = run(
        &mut e,
        doc! {"mapreduce": "c", "map": "tags", "reduce": "sum", "finalize": "x10",
        "query": {"_id": {"$gt": 1}}, "sort": {"_id": -1}, "limit": 2, "out": {"inline": 1}},
    );
    // Documents 4 and 3: tags b, c and c, a.
    assert_eq!(
        r.get_array("results").unwrap(),
        &vec![
            Bson::Document(doc! {"_id": "a", "value": 10.0}),
            Bson::Document(doc! {"_id": "b", "value": 10.0}),
            Bson::Document(doc! {"_id": "c", "value": 20.0}),
        ]
    );
}

#[test]
fn output_modes_replace_merge_and_reduce() {
    let mut e = engine();
    e.run_command("t", &doc! {"insert": "o", "documents": [{"_id": "a", "value": 5.0}, {"_id": "z", "value": 7.0}]});
    let r = run(
        &mut e,
        doc! {"mapReduce": "c", "map": "tags", "reduce": "sum", "out": {"reduce": "o"}},
    );
    assert_eq!(r, doc! {"result": "o", "ok": 1.0});
    let stored = |e: &mut Engine, ns: &str| {
        let r = e.run_command(
            if ns == "o2" { "other" } else { "t" },
            &doc! {"find": if ns == "o2" { "o" } else { ns }, "sort": {"_id": 1}},
        );
        crate::commands::first_batch(&r)
    };
    assert_eq!(
        stored(&mut e, "o"),
        vec![
            doc! {"_id": "a", "value": 7.0},
            doc! {"_id": "b", "value": 3.0},
            doc! {"_id": "c", "value": 3.0},
            doc! {"_id": "z", "value": 7.0},
        ]
    );
    run(
        &mut e,
        doc! {"mapReduce": "c", "map": "tags", "reduce": "sum", "out": {"merge": "o"}},
    );
    assert_eq!(stored(&mut e, "o")[0], doc! {"_id": "a", "value": 2.0});
    assert_eq!(stored(&mut e, "o").len(), 4);
    run(
        &mut e,
        doc! {"mapReduce": "c", "map": "tags", "reduce": "sum", "out": "o"},
    );
    assert_eq!(stored(&mut e, "o").len(), 3);
    let r = run(
        &mut e,
        doc! {"mapReduce": "c", "map": "tags", "reduce": "sum", "out": {"replace": "o", "db": "other"}},
    );
    assert_eq!(
        r,
        doc! {"result": {"db": "other", "collection": "o"}, "ok": 1.0}
    );
    assert_eq!(stored(&mut e, "o2").len(), 3);
}

#[test]
fn bad_options_answer_mongodb_errors() {
    let mut e = engine();
    let code = |r: &Document| r.get_i32("code").unwrap_or(0);
    let base = doc! {"mapReduce": "c", "map": "tags", "reduce": "sum"};
    let with = |extra: Document| {
        let mut c = base.clone();
        c.extend(extra);
        c
    };
    assert_eq!(code(&run(&mut e, base.clone())), 40414);
    assert_eq!(
        code(&run(
            &mut e,
            doc! {"mapReduce": "c", "reduce": "sum", "out": "o"}
        )),
        40414
    );
    assert_eq!(
        code(&run(&mut e, with(doc! {"out": "o", "bogus": 1}))),
        40415
    );
    assert_eq!(
        code(&run(&mut e, with(doc! {"out": "o", "query": "foo"}))),
        14
    );
    assert_eq!(
        code(&run(&mut e, with(doc! {"out": {"inline": 1, "db": "x"}}))),
        72
    );
    assert_eq!(code(&run(&mut e, with(doc! {"out": {"inline": 5}}))), 2);
    assert_eq!(code(&run(&mut e, with(doc! {"out": 5}))), 2);
    assert_eq!(
        code(&run(
            &mut e,
            with(doc! {"out": {"replace": "o", "sharded": true}})
        )),
        72
    );
    assert_eq!(
        code(&run(
            &mut e,
            with(doc! {"out": {"merge": "o", "sharded": true}})
        )),
        72
    );
    assert_eq!(
        code(&run(
            &mut e,
            with(doc! {"out": {"merge": "o", "nonAtomic": false}})
        )),
        2
    );
    assert_eq!(
        code(&run(
            &mut e,
            with(doc! {"out": {"merge": "o", "db": "admin"}})
        )),
        115
    );
    assert_eq!(
        code(&run(&mut e, with(doc! {"out": {"merge": "o", "extra": 1}}))),
        2
    );
    let r = run(&mut e, with(doc! {"out": {"inline": 1}, "limit": 0}));
    assert_eq!(
        (code(&r), r.get_str("errmsg").unwrap()),
        (15958, "The limit specified to mapReduce must be positive")
    );
    let r = run(&mut e, with(doc! {"out": {"inline": 1}, "sort": {}}));
    assert_eq!(code(&r), 15976);
    let r = run(&mut e, with(doc! {"out": "system.foo"}));
    assert_eq!(
        r.get_str("errmsg").unwrap(),
        "Can't output mapReduce results to special collection system.foo"
    );
    let r = run(&mut e, with(doc! {"out": {"inline": 1}, "verbose": 1}));
    assert_eq!(code(&r), 14);
    let mut bad_map = with(doc! {"out": {"inline": 1}});
    bad_map.insert("map", 5);
    assert_eq!(code(&run(&mut e, bad_map)), 2);
}

#[test]
fn views_and_missing_collections() {
    let mut e = engine();
    e.run_command("t", &doc! {"create": "v", "viewOn": "c", "pipeline": []});
    let r = run(
        &mut e,
        doc! {"mapReduce": "v", "map": "tags", "reduce": "sum", "out": {"inline": 1}},
    );
    assert_eq!(r.get_i32("code").unwrap(), 166);
    let r = run(
        &mut e,
        doc! {"mapReduce": "nope", "map": "tags", "reduce": "sum", "out": {"inline": 1}},
    );
    assert_eq!(r, doc! {"results": [], "ok": 1.0});
}

#[test]
fn javascript_failures_and_no_javascript_engine() {
    let mut e = engine();
    let r = run(
        &mut e,
        doc! {"mapReduce": "c", "map": "throw", "reduce": "sum", "out": {"inline": 1}},
    );
    assert_eq!(r.get_i32("code").unwrap(), 139);
    assert_eq!(
        r.get_str("errmsg").unwrap(),
        "MapReduce internal error :: caused by :: Error: thrown in map"
    );
    // Engine::run_command has no evaluator: as a server without a JavaScript engine.
    let r = e.run_command(
        "t",
        &doc! {"mapReduce": "c", "map": "tags", "reduce": "sum", "out": {"inline": 1}},
    );
    assert_eq!(r.get_i32("code").unwrap(), 31246);
}

#[test]
fn out_options_parse_as_mongodb() {
    let o = parse_out(&Bson::String("x".into())).unwrap();
    assert_eq!(
        (o.collection.as_str(), o.kind),
        ("x", super::OutputType::Replace)
    );
    let o = parse_out(&Bson::Document(
        doc! {"reduce": "x", "db": "d", "nonAtomic": true},
    ))
    .unwrap();
    assert_eq!(
        (o.db.as_deref(), o.kind),
        (Some("d"), super::OutputType::Reduce)
    );
    let e = parse_out(&Bson::Document(doc! {"db": "d"})).unwrap_err();
    assert_eq!(e.message, "'out' requires 'replace', 'merge' or 'reduce'");
}

#[test]
fn values_over_16_mib_are_reduced_in_batches() {
    let mut e = engine();
    // Four documents each emit 6 MiB for one key: reduce sees two at a time, then its result
    // with the rest (jstests/core/query/mr/mr_bigobject.js).
    let r = run(
        &mut e,
        doc! {"mapReduce": "c", "map": "big6", "reduce": "count", "out": {"inline": 1}},
    );
    assert_eq!(r, doc! {"results": [{"_id": 1, "value": 4.0}], "ok": 1.0});
    // 9 MiB values: a batch would hold one, which reduces nothing (MongoDB's 31392).
    let r = run(
        &mut e,
        doc! {"mapReduce": "c", "map": "big9", "reduce": "count", "out": {"inline": 1}},
    );
    assert_eq!(r.get_i32("code").unwrap(), 31392);
}
