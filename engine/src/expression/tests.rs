//! Expression evaluation against MongoDB 8.0's documented results.

use std::str::FromStr;

use bson::{Bson, Document, bson, doc};

use super::Expression;

pub(super) fn eval(expr: Bson, d: &Document) -> Option<Bson> {
    Expression::parse(&expr)
        .unwrap_or_else(|e| panic!("{expr}: {e}"))
        .evaluate(d)
        .unwrap_or_else(|e| panic!("{expr}: {e}"))
}

pub(super) fn eval_err(expr: Bson, d: &Document) -> (i32, String) {
    let e = match Expression::parse(&expr) {
        Err(e) => e,
        Ok(x) => x.evaluate(d).expect_err("expected an error"),
    };
    (e.code(), e.message)
}

#[test]
fn field_paths_and_variables() {
    let d = doc! {"a": {"b": 1}, "arr": [{"x": 1}, {"y": 2}, {"x": 3}, 7]};
    assert_eq!(eval(bson!("$a.b"), &d), Some(bson!(1)));
    assert_eq!(eval(bson!("$arr.x"), &d), Some(bson!([1, 3])));
    assert_eq!(eval(bson!("$nope"), &d), None);
    assert_eq!(eval(bson!("$$ROOT.a"), &d), Some(bson!({"b": 1})));
    assert_eq!(eval(bson!("$$CURRENT.a.b"), &d), Some(bson!(1)));
    assert_eq!(eval(bson!({"$literal": "$a"}), &d), Some(bson!("$a")));
    assert_eq!(eval(bson!({"$const": "$a"}), &d), Some(bson!("$a")));
    assert_eq!(eval(bson!(["$a.b", "$nope"]), &d), Some(bson!([1, null])));
    assert_eq!(
        eval(bson!({"k": "$a.b", "m": "$nope"}), &d),
        Some(bson!({"k": 1}))
    );
}

#[test]
fn let_constants_and_remove() {
    let scope =
        super::Scope::from_let(&doc! {"id": 2, "lim": {"$add": [1, 2]}, "o": {"x": 5}}).unwrap();
    let d = doc! {"_id": 2, "n": 3};
    let e = |v: Bson| {
        Expression::parse_in(&v, &scope)
            .unwrap()
            .evaluate(&d)
            .unwrap()
    };
    assert_eq!(e(bson!({"$eq": ["$_id", "$$id"]})), Some(bson!(true)));
    assert_eq!(e(bson!({"$eq": ["$n", "$$lim"]})), Some(bson!(true)));
    assert_eq!(e(bson!("$$o.x")), Some(bson!(5)));
    assert_eq!(e(bson!("$$REMOVE")), None);
    assert_eq!(eval_err(bson!("$$id"), &d).0, 17276);
    assert_eq!(
        super::Scope::from_let(&doc! {"Id": 1}).unwrap_err().code(),
        16870
    );
    assert_eq!(
        super::Scope::from_let(&doc! {"a-b": 1}).unwrap_err().code(),
        16871
    );
}

#[test]
fn let_constants_that_evaluate_to_missing_stay_missing() {
    let missing = doc! {"c": {"$getField": {"field": "c", "input": {"a": 1}}}};
    let scope = super::Scope::from_let(&missing).unwrap();
    let d = doc! {"_id": 1};
    let e = |v: Bson| {
        Expression::parse_in(&v, &scope)
            .unwrap()
            .evaluate(&d)
            .unwrap()
    };
    assert_eq!(e(bson!("$$c")), None);
    assert_eq!(e(bson!("$$c.x")), None);
    assert_eq!(e(bson!({"k": "$$c"})), Some(bson!({})));
    assert_eq!(e(bson!({"$eq": ["$$c", "$nope"]})), Some(bson!(true)));
}

#[test]
fn let_constants_may_not_read_the_document() {
    for value in [
        bson!("$a"),
        bson!("$$ROOT"),
        bson!("$$CURRENT"),
        bson!({"$sum": ["$a", "$a"]}),
        bson!(["$a"]),
    ] {
        let err = super::Scope::from_let(&doc! {"v": value.clone()}).unwrap_err();
        assert_eq!(err.code(), 4890500, "{value}");
        assert_eq!(
            err.message,
            "Command let Expression tried to access a field, but this is not allowed \
             becauseCommand let Expressions run before the query examines any documents."
        );
    }
    // Literals and operators over constants read no document.
    assert!(super::Scope::from_let(&doc! {"l": {"$literal": "$a"}, "n": {"$add": [1, 2]}}).is_ok());
}

#[test]
fn comparisons_use_the_total_order() {
    let d = doc! {"a": 5, "s": "x"};
    assert_eq!(eval(bson!({"$eq": ["$a", 5.0]}), &d), Some(bson!(true)));
    assert_eq!(eval(bson!({"$gt": ["$s", "$a"]}), &d), Some(bson!(true)));
    assert_eq!(
        eval(bson!({"$eq": ["$nope", null]}), &d),
        Some(bson!(false))
    );
    assert_eq!(eval(bson!({"$lt": ["$nope", null]}), &d), Some(bson!(true)));
    assert_eq!(eval(bson!({"$cmp": ["$a", 7]}), &d), Some(bson!(-1)));
    assert_eq!(eval(bson!({"$ne": ["$a", 7]}), &d), Some(bson!(true)));
    assert_eq!(eval(bson!({"$lte": ["$a", 5]}), &d), Some(bson!(true)));
    assert_eq!(eval(bson!({"$gte": ["$a", 6]}), &d), Some(bson!(false)));
}

#[test]
fn arithmetic_widens_like_mongodb() {
    let d = doc! {"i": 2, "big": i32::MAX, "l": i64::MAX, "f": 1.5, "dt": bson::DateTime::from_millis(1000)};
    assert_eq!(eval(bson!({"$add": ["$i", 3]}), &d), Some(bson!(5)));
    assert_eq!(
        eval(bson!({"$add": ["$big", 1]}), &d),
        Some(Bson::Int64(i64::from(i32::MAX) + 1))
    );
    assert_eq!(
        eval(bson!({"$add": ["$l", 1]}), &d),
        Some(Bson::Double(i64::MAX as f64 + 1.0))
    );
    assert_eq!(eval(bson!({"$add": ["$i", "$f"]}), &d), Some(bson!(3.5)));
    assert_eq!(eval(bson!({"$add": ["$i", null]}), &d), Some(Bson::Null));
    assert_eq!(
        eval(bson!({"$add": ["$dt", 500]}), &d),
        Some(Bson::DateTime(bson::DateTime::from_millis(1500)))
    );
    assert_eq!(
        eval(bson!({"$subtract": ["$dt", "$dt"]}), &d),
        Some(Bson::Int64(0))
    );
    assert_eq!(eval(bson!({"$subtract": [10, "$i"]}), &d), Some(bson!(8)));
    assert_eq!(
        eval(bson!({"$multiply": ["$i", "$f", 2]}), &d),
        Some(bson!(6.0))
    );
    assert_eq!(eval(bson!({"$divide": [7, 2]}), &d), Some(bson!(3.5)));
    assert_eq!(eval(bson!({"$mod": [7, 2]}), &d), Some(bson!(1)));
    assert_eq!(eval(bson!({"$mod": [-7, 2]}), &d), Some(bson!(-1)));
    assert_eq!(eval(bson!({"$abs": -3}), &d), Some(bson!(3)));
    assert_eq!(
        eval(bson!({"$abs": [i32::MIN]}), &d),
        Some(Bson::Int64(2_147_483_648))
    );
    let dec = eval(
        bson!({"$add": [Bson::Decimal128("1.5".parse().unwrap()), 1]}),
        &d,
    );
    assert!(matches!(dec, Some(Bson::Decimal128(_))));
}

#[test]
fn logic_and_conditionals() {
    let d = doc! {"a": 0, "b": "x", "n": null};
    assert_eq!(eval(bson!({"$and": [1, "$b"]}), &d), Some(bson!(true)));
    assert_eq!(eval(bson!({"$and": [1, "$a"]}), &d), Some(bson!(false)));
    assert_eq!(
        eval(bson!({"$or": ["$a", "$nope"]}), &d),
        Some(bson!(false))
    );
    assert_eq!(eval(bson!({"$not": ["$a"]}), &d), Some(bson!(true)));
    assert_eq!(
        eval(bson!({"$cond": [{"$eq": ["$b", "x"]}, "yes", "no"]}), &d),
        Some(bson!("yes"))
    );
    assert_eq!(
        eval(bson!({"$cond": {"if": "$a", "then": 1, "else": 2}}), &d),
        Some(bson!(2))
    );
    assert_eq!(
        eval(bson!({"$ifNull": ["$n", "$nope", "fallback"]}), &d),
        Some(bson!("fallback"))
    );
    assert_eq!(eval(bson!({"$ifNull": ["$b", 1]}), &d), Some(bson!("x")));
    assert_eq!(
        eval(bson!({"$in": ["$b", ["x", "y"]]}), &d),
        Some(bson!(true))
    );
    assert_eq!(eval(bson!({"$size": [[1, 2, 3]]}), &d), Some(bson!(3)));
    assert_eq!(eval(bson!({"$isArray": [[1]]}), &d), Some(bson!(true)));
    assert_eq!(eval(bson!({"$isArray": "$b"}), &d), Some(bson!(false)));
    assert_eq!(eval(bson!({"$isNumber": "$a"}), &d), Some(bson!(true)));
    assert_eq!(eval(bson!({"$type": "$b"}), &d), Some(bson!("string")));
    assert_eq!(eval(bson!({"$type": "$nope"}), &d), Some(bson!("missing")));
}

#[test]
fn errors_like_mongodb() {
    let d = doc! {"s": "x", "a": [1]};
    assert_eq!(
        eval_err(bson!({"$foo": 1}), &d),
        (168, "Unrecognized expression '$foo'".into())
    );
    assert_eq!(
        eval_err(bson!({"$abs": [1, 2]}), &d),
        (
            16020,
            "Expression $abs takes exactly 1 arguments. 2 were passed in.".into()
        )
    );
    assert_eq!(
        eval_err(bson!({"$add": ["$s", 1]}), &d),
        (
            14,
            "$add only supports numeric or date types, not string".into()
        )
    );
    assert_eq!(
        eval_err(bson!({"$divide": [1, 0]}), &d),
        (2, "can't $divide by zero".into())
    );
    assert_eq!(
        eval_err(bson!({"$mod": [1, 0]}), &d),
        (16610, "can't $mod by zero".into())
    );
    assert_eq!(
        eval_err(bson!({"$size": "$s"}), &d),
        (
            17124,
            "The argument to $size must be an array, but was of type: string".into()
        )
    );
    assert_eq!(
        eval_err(bson!({"$in": [1, "$s"]}), &d),
        (
            40081,
            "$in requires an array as a second argument, found: string".into()
        )
    );
    assert_eq!(
        eval_err(bson!({"$cond": {"then": 1, "else": 2}}), &d).0,
        17080
    );
    assert_eq!(eval_err(bson!({"$ifNull": ["$s"]}), &d).0, 1257300);
    assert_eq!(
        eval_err(bson!("$$NOPE"), &d),
        (17276, "Use of undefined variable: NOPE".into())
    );
    assert_eq!(eval_err(bson!("$"), &d).0, 16872);
    assert_eq!(
        eval_err(bson!({"$subtract": ["$s", 1]}), &d),
        (14, "can't $subtract int from string".into())
    );
}

#[test]
fn now_and_cluster_time_come_from_the_evaluation_context() {
    let ctx = super::EvalContext::new(1_700_000_000_123, 7);
    let d = doc! {};
    let e = |v: Bson| {
        Expression::parse(&v)
            .unwrap()
            .evaluate_in(&d, &ctx)
            .unwrap()
    };
    assert_eq!(
        e(bson!("$$NOW")),
        Some(Bson::DateTime(bson::DateTime::from_millis(
            1_700_000_000_123
        )))
    );
    assert_eq!(e(bson!("$$NOW.foo")), None);
    assert_eq!(
        e(bson!("$$CLUSTER_TIME")),
        Some(Bson::Timestamp(bson::Timestamp {
            time: 1_700_000_000,
            increment: 1
        }))
    );
    let scope = super::Scope::from_let_in(&doc! {"t": "$$NOW"}, &ctx).unwrap();
    let t = Expression::parse_in(&bson!("$$t"), &scope)
        .unwrap()
        .evaluate(&d)
        .unwrap();
    assert_eq!(t, e(bson!("$$NOW")));
    assert_eq!(eval_err(bson!("$$NOW"), &d).0, 51144);
}

#[test]
fn math_operators_keep_mongodb_types() {
    let d =
        doc! {"i": 7, "l": 8i64, "f": 2.5, "dec": bson::Decimal128::from_str("1.2345").unwrap()};
    assert_eq!(eval(bson!({"$ceil": "$f"}), &d), Some(bson!(3.0)));
    assert_eq!(eval(bson!({"$floor": "$i"}), &d), Some(bson!(7)));
    assert_eq!(eval(bson!({"$round": "$f"}), &d), Some(bson!(2.0)));
    assert_eq!(eval(bson!({"$round": ["$i", -1]}), &d), Some(bson!(10)));
    assert_eq!(
        eval(bson!({"$trunc": ["$dec", 2]}), &d)
            .unwrap()
            .to_string(),
        "1.23"
    );
    assert_eq!(eval(bson!({"$pow": [2, 10]}), &d), Some(bson!(1024)));
    assert_eq!(
        eval(bson!({"$pow": [2, 40]}), &d),
        Some(Bson::Int64(1 << 40))
    );
    assert_eq!(eval(bson!({"$pow": ["$l", 2]}), &d), Some(Bson::Int64(64)));
    assert_eq!(eval(bson!({"$pow": [2, -1]}), &d), Some(bson!(0.5)));
    assert_eq!(eval(bson!({"$sqrt": 16}), &d), Some(bson!(4.0)));
    assert_eq!(eval(bson!({"$log": [100, 10]}), &d), Some(bson!(2.0)));
    assert_eq!(eval(bson!({"$abs": null}), &d), Some(Bson::Null));
    assert_eq!(
        eval(
            bson!({"$mod": [{"$literal": bson::Decimal128::from_str("7.5").unwrap()}, 2]}),
            &d
        )
        .unwrap()
        .to_string(),
        "1.5"
    );
    assert_eq!(
        eval_err(bson!({"$ln": 0}), &d),
        (
            28766,
            "$ln's argument must be a positive number, but is 0".into()
        )
    );
    assert_eq!(
        eval_err(bson!({"$sqrt": "x"}), &d),
        (
            28765,
            "$sqrt only supports numeric types, not string".into()
        )
    );
    assert_eq!(eval_err(bson!({"$pow": [0, -1]}), &d).0, 28764);
    assert_eq!(eval_err(bson!({"$round": [1, 1.5]}), &d).0, 51082);
    assert_eq!(eval_err(bson!({"$round": [1, 101]}), &d).0, 51083);
    assert_eq!(
        eval_err(bson!({"$trunc": []}), &d),
        (
            28667,
            "Expression $trunc takes at least 1 arguments, and 0 were passed in.".into()
        )
    );
    assert_eq!(
        eval_err(bson!({"$acos": 2}), &d),
        (
            50989,
            "cannot apply $acos to 2, value must in [-1,1]".into()
        )
    );
    assert_eq!(eval(bson!({"$sin": 0}), &d), Some(bson!(0.0)));
    assert_eq!(eval(bson!({"$atan2": [0, 1]}), &d), Some(bson!(0.0)));
}

#[test]
fn dates_in_arithmetic_round_and_overflow() {
    let d = doc! {"dt": bson::DateTime::from_millis(0)};
    assert_eq!(
        eval(bson!({"$add": ["$dt", 43200000.56]}), &d),
        Some(Bson::DateTime(bson::DateTime::from_millis(43200001)))
    );
    assert_eq!(
        eval_err(bson!({"$add": ["$dt", 1e300]}), &d),
        (15, "date overflow".into())
    );
    // The overflow is found when the sum becomes a date again, after every argument: a later
    // null still gives null.
    let max = doc! {"dt": bson::DateTime::from_millis(i64::MAX)};
    assert_eq!(
        eval(bson!({"$add": ["$dt", 100, 100, null]}), &max),
        Some(Bson::Null)
    );
    assert_eq!(
        eval_err(bson!({"$add": ["$dt", 100]}), &max),
        (15, "date overflow".into())
    );
    assert_eq!(
        eval_err(bson!({"$subtract": ["$dt", "x"]}), &d),
        (14, "can't $subtract string from Date".into())
    );
}

#[test]
fn rand_draws_from_the_context_generator() {
    let d = doc! {};
    let e = Expression::parse(&bson!({"$rand": {}})).unwrap();
    let (c1, c2) = (super::EvalContext::new(0, 9), super::EvalContext::new(0, 9));
    let a = e.evaluate_in(&d, &c1).unwrap();
    assert_eq!(a, e.evaluate_in(&d, &c2).unwrap());
    assert_ne!(a, e.evaluate_in(&d, &c1).unwrap());
    assert!(Expression::parse(&bson!({"$rand": {"a": 1}})).is_err());
}

#[test]
fn let_binds_in_the_outer_scope() {
    let d = doc! {"a": 10};
    assert_eq!(
        eval(
            bson!({"$let": {"vars": {"x": {"$add": ["$a", 1]}}, "in": {"$multiply": ["$$x", 2]}}}),
            &d
        ),
        Some(bson!(22))
    );
    assert_eq!(
        eval(
            bson!({"$let": {"vars": {"CURRENT": {"a": "new"}}, "in": "$a"}}),
            &d
        ),
        Some(bson!("new"))
    );
    // CURRENT rebound to a scalar (issue #19).
    let d3 = doc! {"two": 2, "three": 3};
    assert_eq!(
        eval(
            bson!({"$let": {"vars": {"CURRENT": "$three"}, "in": {"$multiply": ["$$CURRENT", "$$ROOT.two"]}}}),
            &d3
        ),
        Some(bson!(6))
    );
    assert_eq!(
        eval(
            bson!({"$let": {"vars": {"CURRENT": "$three"}, "in": "$$CURRENT"}}),
            &d3
        ),
        Some(bson!(3))
    );
    assert_eq!(
        eval(
            bson!({"$let": {"vars": {"CURRENT": "$three"}, "in": "$two"}}),
            &d3
        ),
        None
    );
    assert_eq!(
        eval(
            bson!({"$let": {"vars": {"CURRENT": 5}, "in": {"$let": {"vars": {"CURRENT": {"k": 1}}, "in": "$k"}}}}),
            &d3
        ),
        Some(bson!(1))
    );
    assert_eq!(
        eval(
            bson!({"$let": {"vars": {"x": 1}, "in": {"$let": {"vars": {"x": 2, "y": "$$x"}, "in": ["$$x", "$$y"]}}}}),
            &d
        ),
        Some(bson!([2, 1]))
    );
    assert_eq!(
        eval_err(bson!({"$let": {"vars": {"x": "$$x"}, "in": 1}}), &d).0,
        17276
    );
    assert_eq!(
        eval_err(bson!({"$let": {"vars": {"X": 1}, "in": 1}}), &d).0,
        16867
    );
    assert_eq!(
        eval_err(bson!({"$let": {"vars": {"a b": 1}, "in": 1}}), &d).0,
        16868
    );
    assert_eq!(eval_err(bson!({"$let": {"in": 1}}), &d).0, 16876);
    assert_eq!(eval_err(bson!("$$_x"), &d).0, 16870);
}

#[test]
fn switch_picks_the_first_true_branch() {
    let d = doc! {"a": 5};
    let e = |v| eval(v, &d);
    assert_eq!(
        e(
            bson!({"$switch": {"branches": [{"case": {"$lt": ["$a", 3]}, "then": "low"}, {"case": {"$lt": ["$a", 9]}, "then": "mid"}], "default": "high"}})
        ),
        Some(bson!("mid"))
    );
    assert_eq!(
        eval_err(
            bson!({"$switch": {"branches": [{"case": false, "then": 1}]}}),
            &d
        )
        .0,
        40066
    );
    assert_eq!(eval_err(bson!({"$switch": {"branches": []}}), &d).0, 40068);
    assert_eq!(
        eval_err(bson!({"$switch": {"branches": [{"then": 1}]}}), &d).0,
        40064
    );
}

#[test]
fn object_operators() {
    let d = doc! {"o": {"a": 1, "b.c": 2}};
    assert_eq!(
        eval(bson!({"$getField": {"field": "b.c", "input": "$o"}}), &d),
        Some(bson!(2))
    );
    assert_eq!(
        eval(bson!({"$getField": "o"}), &d),
        Some(bson!({"a": 1, "b.c": 2}))
    );
    assert_eq!(
        eval(
            bson!({"$setField": {"field": "a", "input": "$o", "value": 5}}),
            &d
        ),
        Some(bson!({"a": 5, "b.c": 2}))
    );
    assert_eq!(
        eval(bson!({"$unsetField": {"field": "a", "input": "$o"}}), &d),
        Some(bson!({"b.c": 2}))
    );
    assert_eq!(
        eval(bson!({"$mergeObjects": ["$o", null, {"a": 9, "z": 0}]}), &d),
        Some(bson!({"a": 9, "b.c": 2, "z": 0}))
    );
    assert_eq!(
        eval(bson!({"$objectToArray": "$o"}), &d),
        Some(bson!([{"k": "a", "v": 1}, {"k": "b.c", "v": 2}]))
    );
    assert_eq!(
        eval(
            bson!({"$arrayToObject": [[["x", 1], ["y", 2], ["x", 3]]]}),
            &d
        ),
        Some(bson!({"x": 3, "y": 2}))
    );
    assert_eq!(
        eval_err(bson!({"$getField": {"field": "$x", "input": "$o"}}), &d).0,
        3041704
    );
    assert_eq!(eval_err(bson!({"$mergeObjects": [1]}), &d).0, 40400);
    assert_eq!(eval_err(bson!({"$arrayToObject": [[1]]}), &d).0, 40398);
}

#[test]
fn convert_with_on_error_and_on_null() {
    let d = doc! {"s": "12", "bad": "x1", "f": 3.7};
    assert_eq!(
        eval(bson!({"$convert": {"input": "$s", "to": "int"}}), &d),
        Some(bson!(12))
    );
    assert_eq!(
        eval(bson!({"$convert": {"input": "$f", "to": 18}}), &d),
        Some(Bson::Int64(3))
    );
    assert_eq!(
        eval(
            bson!({"$convert": {"input": "$bad", "to": "int", "onError": "oops"}}),
            &d
        ),
        Some(bson!("oops"))
    );
    assert_eq!(
        eval(
            bson!({"$convert": {"input": "$none", "to": "int", "onNull": 0}}),
            &d
        ),
        Some(bson!(0))
    );
    assert_eq!(
        eval(bson!({"$convert": {"input": 1, "to": null}}), &d),
        Some(Bson::Null)
    );
    assert_eq!(
        eval_err(bson!({"$convert": {"input": 1, "to": "nope"}}), &d).0,
        2
    );
    assert_eq!(
        eval_err(
            bson!({"$convert": {"input": 1, "to": 100, "onError": 0}}),
            &d
        )
        .0,
        9
    );
    assert_eq!(eval_err(bson!({"$toInt": "$bad"}), &d).0, 241);
    assert_eq!(eval(bson!({"$toString": 2.5}), &d), Some(bson!("2.5")));
    assert_eq!(eval(bson!({"$toBool": "false"}), &d), Some(bson!(true)));
    assert_eq!(
        eval(bson!({"$toDate": "1970-01-01T00:00:01Z"}), &d),
        Some(Bson::DateTime(bson::DateTime::from_millis(1000)))
    );
}

#[test]
fn inner_bindings_shadow_command_let_constants() {
    let scope = super::Scope::from_let(&doc! {"v": 3}).unwrap();
    let e = Expression::parse_in(
        &bson!({"$let": {"vars": {"v": 2}, "in": {"$add": ["$$v", 1]}}}),
        &scope,
    )
    .unwrap();
    assert_eq!(e.evaluate(&doc! {}).unwrap(), Some(Bson::Int32(3)));
    let e = Expression::parse_in(
        &bson!({"$map": {"input": [1], "as": "v", "in": "$$v"}}),
        &scope,
    )
    .unwrap();
    assert_eq!(e.evaluate(&doc! {}).unwrap(), Some(bson!([1])));
}

#[test]
fn a_scope_with_a_clock_fixes_now() {
    let context = super::EvalContext::new(86_400_000, 1);
    let scope = super::Scope::default().with_clock(&context).unwrap();
    let e = Expression::parse_in(&bson!("$$NOW"), &scope).unwrap();
    assert_eq!(
        e.evaluate(&doc! {}).unwrap(),
        Some(Bson::DateTime(bson::DateTime::from_millis(86_400_000)))
    );
    let e = Expression::parse_in(&bson!("$$NOW.foo"), &scope).unwrap();
    assert_eq!(e.evaluate(&doc! {}).unwrap(), None);
}

#[test]
fn and_or_short_circuit_on_constants_when_parsed() {
    // MongoDB's ExpressionAnd/ExpressionOr::optimize (jstests/aggregation/bugs/
    // server6192_server6193.js): a decisive constant replaces the expression, neutral ones go.
    let shown = |v: Bson| Expression::parse(&v).unwrap().serialize();
    assert_eq!(
        shown(bson!({"$and": [1, "", 0, "$x"]})),
        bson!({"$const": false})
    );
    assert_eq!(
        shown(bson!({"$or": ["", 0, 1, "$x"]})),
        bson!({"$const": true})
    );
    assert_eq!(shown(bson!({"$and": [1, "$x"]})), bson!({"$and": ["$x"]}));
    assert_eq!(shown(bson!({"$or": [0, "$x"]})), bson!({"$or": ["$x"]}));
    assert_eq!(
        shown(bson!({"$and": ["$x", "$x"]})),
        bson!({"$and": ["$x", "$x"]})
    );
    // A decisive constant also spares the other arguments' errors, as MongoDB's does.
    let d = doc! {"a": 0};
    assert_eq!(
        eval(bson!({"$and": [{"$divide": [1, "$a"]}, false]}), &d),
        Some(bson!(false))
    );
}
