//! Tests of the accumulators: each operator's results and its argument errors.

use bson::{Bson, Document, bson, doc};

use super::{AccumulationStatement, Accumulator};
use crate::expression::{Scope, Vars};

/// Runs `{name: spec}` over the documents as one group whose `_id` is `id`.
fn run_with_id(name: &str, spec: Bson, docs: &[Document], id: Bson) -> crate::error::Result<Bson> {
    let acc = Accumulator::parse(name, &spec, &Scope::default())?.expect("known accumulator");
    let mut state = acc.start(&id)?;
    for d in docs {
        acc.accumulate(&mut state, &Vars::new(d))?;
    }
    Ok(acc.value(&state))
}

fn run(name: &str, spec: Bson, docs: &[Document]) -> Bson {
    run_with_id(name, spec, docs, Bson::Null).unwrap()
}

fn err(name: &str, spec: Bson, docs: &[Document]) -> (i32, String) {
    let e = run_with_id(name, spec, docs, Bson::Null).unwrap_err();
    (e.code(), e.message)
}

fn docs() -> Vec<Document> {
    vec![
        doc! {"_id": 1, "x": 5, "s": "b", "o": {"a": 1}},
        doc! {"_id": 2, "x": 2.5, "s": "a", "o": {"b": 2}},
        doc! {"_id": 3, "s": "c"},
        doc! {"_id": 4, "x": null, "s": "a", "o": {"a": 3}},
        doc! {"_id": 5, "x": 1, "s": "d"},
    ]
}

#[test]
fn sums_and_averages() {
    let d = docs();
    assert_eq!(run("$sum", bson!("$x"), &d), Bson::Double(8.5));
    assert_eq!(run("$sum", bson!(1), &d), Bson::Int32(5));
    assert_eq!(run("$count", bson!({}), &d), Bson::Int32(5));
    assert_eq!(run("$avg", bson!("$x"), &d), Bson::Double(8.5 / 3.0));
    assert_eq!(run("$avg", bson!("$nope"), &d), Bson::Null);
    assert_eq!(run("$sum", bson!("$nope"), &d), Bson::Int32(0));
    assert_eq!(
        err("$count", bson!({"a": 1}), &d),
        (14, "$count takes no arguments, i.e. $count:{}".into())
    );
}

#[test]
fn min_max_first_last_skip_or_keep_nullish() {
    let d = docs();
    assert_eq!(run("$min", bson!("$x"), &d), Bson::Int32(1));
    assert_eq!(run("$max", bson!("$x"), &d), Bson::Int32(5));
    assert_eq!(run("$max", bson!("$nope"), &d), Bson::Null);
    assert_eq!(run("$first", bson!("$s"), &d), bson!("b"));
    assert_eq!(run("$last", bson!("$x"), &d), bson!(1));
    // A missing last value is null.
    assert_eq!(run("$last", bson!("$o"), &d), Bson::Null);
}

#[test]
fn push_add_to_set_merge_objects() {
    let d = docs();
    assert_eq!(run("$push", bson!("$x"), &d), bson!([5, 2.5, null, 1]));
    assert_eq!(
        run("$addToSet", bson!("$s"), &d),
        bson!(["b", "a", "c", "d"])
    );
    assert_eq!(
        run("$mergeObjects", bson!("$o"), &d),
        bson!({"a": 3, "b": 2})
    );
    assert_eq!(
        err("$mergeObjects", bson!("$s"), &d),
        (
            40400,
            "$mergeObjects requires object inputs, but input \"b\" is of type string".into()
        )
    );
}

#[test]
fn standard_deviations() {
    let d: Vec<Document> = [2, 4, 4, 4, 5, 5, 7, 9]
        .iter()
        .map(|x| doc! {"x": x})
        .collect();
    assert_eq!(run("$stdDevPop", bson!("$x"), &d), Bson::Double(2.0));
    let samp = run("$stdDevSamp", bson!("$x"), &d);
    assert!(matches!(samp, Bson::Double(v) if (v - 2.138089935299395).abs() < 1e-12));
    assert_eq!(run("$stdDevSamp", bson!("$x"), &d[..1]), Bson::Null);
    assert_eq!(run("$stdDevPop", bson!("$x"), &d[..1]), Bson::Double(0.0));
}

#[test]
fn n_accumulators() {
    let d = docs();
    assert_eq!(
        run("$firstN", bson!({"input": "$x", "n": 3}), &d),
        bson!([5, 2.5, null])
    );
    assert_eq!(
        run("$lastN", bson!({"input": "$x", "n": 2}), &d),
        bson!([null, 1])
    );
    assert_eq!(
        run("$maxN", bson!({"input": "$x", "n": 2}), &d),
        bson!([5, 2.5])
    );
    assert_eq!(
        run("$minN", bson!({"n": 5, "input": "$x"}), &d),
        bson!([1, 2.5, 5])
    );
    // `n` may depend on the group key.
    let r = run_with_id(
        "$firstN",
        bson!({"input": "$_id", "n": "$k"}),
        &d,
        bson!({"k": 2}),
    );
    assert_eq!(r.unwrap(), bson!([1, 2]));
    let e = |spec: Bson| err("$firstN", spec, &d);
    assert_eq!(
        e(bson!({"input": "$x"})),
        (5787906, "Missing value for 'n'".into())
    );
    assert_eq!(
        e(bson!({"n": 1})),
        (5787907, "Missing value for 'input'".into())
    );
    assert_eq!(e(bson!({"n": 1, "input": 1, "x": 1})).0, 5787901);
    assert_eq!(
        e(bson!({"n": "a", "input": 1})),
        (
            5787902,
            "Value for 'n' must be of integral type, but found \"a\"".into()
        )
    );
    assert_eq!(e(bson!({"n": 0.5, "input": 1})).0, 5787902);
    assert_eq!(
        e(bson!({"n": -1, "input": 1})),
        (5787908, "'n' must be greater than 0, found -1".into())
    );
    assert_eq!(
        run("$firstN", bson!({"n": 2.0, "input": 1}), &d),
        bson!([1, 1])
    );
}

#[test]
fn top_and_bottom() {
    let d = vec![
        doc! {"u": "A", "p": 10},
        doc! {"u": "B", "p": 5},
        doc! {"u": "E"},
        doc! {"u": "Z", "p": [3, 2]},
        doc! {"u": "D", "p": 20},
    ];
    let spec = |n: Option<i32>, dir: i32| {
        let mut s = doc! {"output": ["$u", "$p"], "sortBy": {"p": dir}};
        if let Some(n) = n {
            s.insert("n", n);
        }
        Bson::Document(s)
    };
    assert_eq!(run("$top", spec(None, 1), &d), bson!(["E", null]));
    assert_eq!(run("$top", spec(None, -1), &d), bson!(["D", 20]));
    assert_eq!(
        run("$topN", spec(Some(3), 1), &d),
        bson!([["E", null], ["Z", [3, 2]], ["B", 5]])
    );
    assert_eq!(run("$bottom", spec(None, 1), &d), bson!(["D", 20]));
    assert_eq!(
        run("$bottomN", spec(Some(3), 1), &d),
        bson!([["B", 5], ["A", 10], ["D", 20]])
    );
    let e = |name: &str, spec: Bson| err(name, spec, &d);
    assert_eq!(
        e("$top", bson!({"output": 1})),
        (5788005, "Missing value for 'sortBy'".into())
    );
    assert_eq!(e("$top", bson!({"sortBy": {"p": 1}})).0, 5788004);
    assert_eq!(
        e("$top", bson!({"sortBy": {"p": 1}, "output": 1, "n": 1})),
        (5788002, "Unknown argument to $top 'n'".into())
    );
    assert_eq!(
        e("$topN", bson!({"sortBy": {"p": 1}, "output": 1})).0,
        5788003
    );
    assert_eq!(
        e("$bottomN", bson!({"sortBy": 1, "output": 1, "n": 1})).0,
        10065
    );
}

#[test]
fn median_and_percentile() {
    let d: Vec<Document> = [5, 1, 4, 2, 3].iter().map(|x| doc! {"x": x}).collect();
    let m = bson!({"input": "$x", "method": "approximate"});
    assert_eq!(run("$median", m, &d), Bson::Double(3.0));
    let p = bson!({"input": "$x", "p": [0.0, 0.2, 0.95, 1], "method": "approximate"});
    assert_eq!(run("$percentile", p, &d), bson!([1.0, 1.0, 5.0, 5.0]));
    let none = bson!({"input": "$nope", "p": [0.5], "method": "approximate"});
    assert_eq!(run("$percentile", none, &d), bson!([null]));
    let e = |spec: Bson| err("$percentile", spec, &d);
    assert_eq!(e(bson!({"input": 1, "p": [0.5]})).0, 40414);
    assert_eq!(
        e(bson!({"input": 1, "p": [1.5], "method": "approximate"})).0,
        7750303
    );
    assert_eq!(
        e(bson!({"input": 1, "p": "$x", "method": "approximate"})).0,
        7750300
    );
    assert_eq!(e(bson!({"input": 1, "p": [0.5], "method": "exact"})).0, 2);
}

#[test]
fn group_statement_errors() {
    let s = Scope::default();
    let e = |field: &str, spec: Bson| {
        let e = AccumulationStatement::parse(field, &spec, &s).unwrap_err();
        (e.code(), e.message)
    };
    assert_eq!(
        e("x", bson!(1)),
        (40234, "The field 'x' must be an accumulator object".into())
    );
    assert_eq!(e("x", bson!({"a": 1})).0, 40234);
    assert_eq!(e("a.b", bson!({"$sum": 1})).0, 40235);
    assert_eq!(e("$a", bson!({"$sum": 1})).0, 40236);
    assert_eq!(e("x", bson!({"$sum": 1, "$avg": 1})).0, 40238);
    assert_eq!(
        e("x", bson!({"$sum": [1, 2]})),
        (40237, "The $sum accumulator is a unary operator".into())
    );
    assert_eq!(
        e("x", bson!({"$foo": 1})),
        (15952, "unknown group operator '$foo'".into())
    );
    assert!(AccumulationStatement::parse("x", &bson!({"$sum": "$a"}), &s).is_ok());
}
