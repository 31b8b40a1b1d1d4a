//! Expression evaluation against MongoDB 8.0's documented results.

use bson::{Bson, Document, bson, doc};

use super::Expression;

fn eval(expr: Bson, d: &Document) -> Option<Bson> {
    Expression::parse(&expr)
        .unwrap_or_else(|e| panic!("{expr}: {e}"))
        .evaluate(d)
        .unwrap_or_else(|e| panic!("{expr}: {e}"))
}

fn eval_err(expr: Bson, d: &Document) -> (i32, String) {
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
            16554,
            "$add only supports numeric or date types, not string".into()
        )
    );
    assert_eq!(
        eval_err(bson!({"$divide": [1, 0]}), &d),
        (16608, "can't $divide by zero".into())
    );
    assert_eq!(
        eval_err(bson!({"$mod": [1, 0]}), &d),
        (16610, "can't $mod by zero".into())
    );
    assert_eq!(
        eval_err(bson!({"$size": "$s"}), &d),
        (
            17124,
            "The argument to $size must be an array. Type of argument was: string".into()
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
        (16556, "can't $subtract int from string".into())
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
