//! Array operators against MongoDB 8.0's documented results and messages.

use bson::{Bson, bson, doc};

use super::super::tests::{eval, eval_err};

#[test]
fn element_access() {
    let d = doc! {"a": [1, 2, 3, {"x": 5}]};
    assert_eq!(
        eval(bson!({"$arrayElemAt": ["$a", -1]}), &d),
        Some(bson!({"x": 5}))
    );
    assert_eq!(
        eval(bson!({"$arrayElemAt": ["$a", 1.0]}), &d),
        Some(bson!(2))
    );
    assert_eq!(eval(bson!({"$arrayElemAt": ["$a", 4]}), &d), None);
    assert_eq!(eval(bson!({"$arrayElemAt": ["$a", -5]}), &d), None);
    assert_eq!(
        eval(bson!({"$arrayElemAt": ["$nope", 0]}), &d),
        Some(Bson::Null)
    );
    assert_eq!(eval(bson!({"$first": "$a"}), &d), Some(bson!(1)));
    assert_eq!(eval(bson!({"$last": [[]]}), &d), None);
    assert_eq!(
        eval_err(bson!({"$arrayElemAt": ["$a", 1.5]}), &d),
        (
            28691,
            "$arrayElemAt's second argument must be representable as a 32-bit integer: 1.5".into()
        )
    );
    assert_eq!(
        eval_err(
            bson!({"$arrayElemAt": ["$a", Bson::Int64(2_147_483_648)]}),
            &d
        )
        .1,
        "$arrayElemAt's second argument must be representable as a 32-bit integer: 2.14748e+09"
    );
    assert_eq!(
        eval_err(bson!({"$first": [true]}), &d),
        (
            28689,
            "$first's argument must be an array, but is bool".into()
        )
    );
    assert_eq!(eval_err(bson!({"$last": [[1], 2]}), &d).0, 16020);
}

#[test]
fn concat_in_index_reverse_size() {
    let d = doc! {"a": [1, 2], "n": null};
    assert_eq!(
        eval(bson!({"$concatArrays": ["$a", [3, [4]]]}), &d),
        Some(bson!([1, 2, 3, [4]]))
    );
    assert_eq!(
        eval(bson!({"$concatArrays": ["$a", "$n"]}), &d),
        Some(Bson::Null)
    );
    assert_eq!(
        eval_err(bson!({"$concatArrays": [{"x": 1}]}), &d),
        (
            28664,
            "$concatArrays only supports arrays, not object".into()
        )
    );
    assert_eq!(
        eval(bson!({"$in": ["$nope", [null]]}), &d),
        Some(bson!(false))
    );
    assert_eq!(
        eval(bson!({"$in": [null, ["$nope"]]}), &d),
        Some(bson!(true))
    );
    assert_eq!(
        eval(bson!({"$indexOfArray": [[1, 2, 50, 4], 50.0]}), &d),
        Some(bson!(2))
    );
    assert_eq!(
        eval(bson!({"$indexOfArray": [[1, 2, 50], 50, 0, 2]}), &d),
        Some(bson!(-1))
    );
    assert_eq!(
        eval(bson!({"$indexOfArray": [[1], 1, 9]}), &d),
        Some(bson!(-1))
    );
    assert_eq!(
        eval(bson!({"$indexOfArray": ["$n", 1]}), &d),
        Some(Bson::Null)
    );
    assert_eq!(
        eval_err(bson!({"$indexOfArray": ["$a", 1, 1.1]}), &d).1,
        "$indexOfArrayrequires an integral starting index, found a value of type: double, \
         with value: 1.1"
    );
    assert_eq!(
        eval_err(bson!({"$indexOfArray": ["$a", 1, 0, -5]}), &d),
        (
            40097,
            "$indexOfArray requires a nonnegative ending index, found: -5".into()
        )
    );
    assert_eq!(
        eval_err(bson!({"$indexOfArray": [true, "$x"]}), &d).0,
        50809
    );
    assert_eq!(eval_err(bson!({"$indexOfArray": [true, 1]}), &d).0, 40090);
    assert_eq!(
        eval_err(bson!({"$indexOfArray": [[1], 1, 2, 3, 4]}), &d).0,
        28667
    );
    assert_eq!(
        eval(bson!({"$reverseArray": "$a"}), &d),
        Some(bson!([2, 1]))
    );
    assert_eq!(
        eval(bson!({"$reverseArray": "$nope"}), &d),
        Some(Bson::Null)
    );
    assert_eq!(eval_err(bson!({"$reverseArray": 1}), &d).0, 34435);
    assert_eq!(
        eval_err(bson!({"$size": null}), &d),
        (
            17124,
            "The argument to $size must be an array, but was of type: null".into()
        )
    );
}

#[test]
fn slice_like_mongodb() {
    let d = doc! {"a": [1, 2, 3, 4, 5]};
    assert_eq!(eval(bson!({"$slice": ["$a", 2]}), &d), Some(bson!([1, 2])));
    assert_eq!(eval(bson!({"$slice": ["$a", -2]}), &d), Some(bson!([4, 5])));
    assert_eq!(
        eval(bson!({"$slice": ["$a", 10]}), &d),
        Some(bson!([1, 2, 3, 4, 5]))
    );
    assert_eq!(eval(bson!({"$slice": ["$a", -1, 2]}), &d), Some(bson!([5])));
    assert_eq!(eval(bson!({"$slice": ["$a", 10, 2]}), &d), Some(bson!([])));
    assert_eq!(
        eval(bson!({"$slice": ["$a", 1, null]}), &d),
        Some(Bson::Null)
    );
    assert_eq!(
        eval_err(bson!({"$slice": ["$a", 1, 0]}), &d),
        (28729, "Third argument to $slice must be positive: 0".into())
    );
    assert_eq!(
        eval_err(bson!({"$slice": ["$a", "x"]}), &d),
        (
            28725,
            "Second argument to $slice must be a numeric value, but is of type: string".into()
        )
    );
    assert_eq!(
        eval_err(bson!({"$slice": ["$a", 1, 1.02]}), &d).1,
        "Third argument to $slice can't be represented as a 32-bit integer: 1.02"
    );
    assert_eq!(
        eval_err(bson!({"$slice": ["$a"]}), &d),
        (
            28667,
            "Expression $slice takes at least 2 arguments, and 1 were passed in.".into()
        )
    );
    assert_eq!(eval_err(bson!({"$slice": ["x", 1]}), &d).0, 28724);
}

#[test]
fn range_of_int32() {
    let d = doc! {};
    assert_eq!(
        eval(bson!({"$range": [1, 10, 3]}), &d),
        Some(bson!([1, 4, 7]))
    );
    assert_eq!(
        eval(bson!({"$range": [10, 1, -3]}), &d),
        Some(bson!([10, 7, 4]))
    );
    assert_eq!(eval(bson!({"$range": [5, 1]}), &d), Some(bson!([])));
    assert_eq!(
        eval(bson!({"$range": [Bson::Int64(50), 100.0, 20]}), &d),
        Some(bson!([50, 70, 90]))
    );
    assert_eq!(
        eval_err(bson!({"$range": [1, 5, 0]}), &d),
        (34449, "$range requires a non-zero step value".into())
    );
    assert_eq!(
        eval_err(bson!({"$range": [1, 5, null]}), &d).1,
        "$range requires a numeric step value, found value of type:null"
    );
    assert_eq!(
        eval_err(bson!({"$range": [1.5, 5]}), &d).1,
        "$range requires a starting value that can be represented as a 32-bit integer, found \
         value: 1.5"
    );
    assert_eq!(eval_err(bson!({"$range": [0, 1_073_741_924]}), &d).0, 146);
}

#[test]
fn map_filter_reduce_bind_variables() {
    let d = doc! {"a": [1, 2, 3, 4], "o": [{"b": [1, 2]}, {"b": [3]}]};
    assert_eq!(
        eval(
            bson!({"$map": {"input": "$a", "as": "x", "in": {"$add": ["$$x", 1]}}}),
            &d
        ),
        Some(bson!([2, 3, 4, 5]))
    );
    assert_eq!(
        eval(
            bson!({"$map": {"input": "$o", "in": {"$map": {"input": "$$this.b", "as": "i", "in": {"$add": ["$$i", 10]}}}}}),
            &d
        ),
        Some(bson!([[11, 12], [13]]))
    );
    assert_eq!(
        eval(bson!({"$map": {"input": "$a", "in": "$$this.nope"}}), &d),
        Some(bson!([null, null, null, null]))
    );
    assert_eq!(
        eval(
            bson!({"$filter": {"input": "$a", "cond": {"$gt": ["$$this", 1]}, "limit": 2}}),
            &d
        ),
        Some(bson!([2, 3]))
    );
    assert_eq!(
        eval(bson!({"$filter": {"input": "$nope", "cond": true}}), &d),
        Some(Bson::Null)
    );
    assert_eq!(
        eval(
            bson!({"$reduce": {"input": "$a", "initialValue": 0, "in": {"$add": ["$$value", "$$this"]}}}),
            &d
        ),
        Some(bson!(10))
    );
    assert_eq!(
        eval_err(
            bson!({"$filter": {"input": "$a", "as": "x", "cond": "$$this"}}),
            &d
        ),
        (17276, "Use of undefined variable: this".into())
    );
    assert_eq!(
        eval_err(
            bson!({"$filter": {"input": "$a", "cond": true, "as": "El"}}),
            &d
        ),
        (
            16867,
            "'El' starts with an invalid character for a user variable name".into()
        )
    );
    assert_eq!(
        eval_err(
            bson!({"$filter": {"input": "$a", "cond": true, "as": "e-l"}}),
            &d
        ),
        (
            16868,
            "'e-l' contains an invalid character for a variable name: '-'".into()
        )
    );
    assert_eq!(
        eval_err(
            bson!({"$filter": {"input": "$a", "cond": true, "as": null}}),
            &d
        )
        .0,
        16866
    );
    assert_eq!(
        eval_err(
            bson!({"$filter": {"input": "$a", "cond": true, "limit": 0}}),
            &d
        ),
        (327392, "$filter: limit must be greater than 0: 0".into())
    );
    assert_eq!(
        eval_err(
            bson!({"$filter": {"input": "$a", "cond": true, "limit": 1.5}}),
            &d
        ),
        (
            327391,
            "$filter: limit must be represented as a 32-bit integral value: 1.5".into()
        )
    );
    assert_eq!(
        eval_err(bson!({"$map": {"input": 1, "in": 1}}), &d),
        (16883, "input to $map must be an array not int".into())
    );
    assert_eq!(eval_err(bson!({"$map": {"input": "$a"}}), &d).0, 16882);
    assert_eq!(
        eval_err(
            bson!({"$reduce": {"input": "x", "initialValue": 0, "in": 1}}),
            &d
        ),
        (
            40080,
            "$reduce requires that 'input' be an array, found: \"x\"".into()
        )
    );
    assert_eq!(
        eval_err(bson!({"$reduce": {"input": "$a", "in": 1}}), &d).0,
        40078
    );
}

#[test]
fn n_element_operators() {
    let d = doc! {"a": [3, null, 1, 2, 1]};
    assert_eq!(
        eval(bson!({"$firstN": {"input": "$a", "n": 2}}), &d),
        Some(bson!([3, null]))
    );
    assert_eq!(
        eval(bson!({"$lastN": {"input": "$a", "n": 2.0}}), &d),
        Some(bson!([2, 1]))
    );
    assert_eq!(
        eval(bson!({"$maxN": {"input": "$a", "n": 3}}), &d),
        Some(bson!([3, 2, 1]))
    );
    assert_eq!(
        eval(bson!({"$minN": {"input": "$a", "n": 3}}), &d),
        Some(bson!([1, 1, 2]))
    );
    assert_eq!(
        eval_err(bson!({"$firstN": {"input": "$a", "n": 0}}), &d),
        (5787908, "'n' must be greater than 0, found 0".into())
    );
    assert_eq!(
        eval_err(bson!({"$firstN": {"input": "$a", "n": "3"}}), &d),
        (
            5787902,
            "Value for 'n' must be of integral type, but found \"3\"".into()
        )
    );
    assert_eq!(
        eval_err(bson!({"$lastN": {"input": "$a", "n": 3.5}}), &d).0,
        5787903
    );
    assert_eq!(
        eval_err(bson!({"$minN": {"input": "$nope", "n": 1}}), &d),
        (5788200, "Input must be an array".into())
    );
    assert_eq!(
        eval_err(bson!({"$firstN": true}), &d),
        (
            5787801,
            "specification must be an object; found $firstN: true".into()
        )
    );
    assert_eq!(eval_err(bson!({"$maxN": {"input": [1]}}), &d).0, 5787906);
    assert_eq!(eval_err(bson!({"$maxN": {"n": 1, "x": 1}}), &d).0, 5787901);
}

#[test]
fn sort_array_whole_values_and_fields() {
    let d = doc! {"g": [{"a": "y", "b": 2}, {"a": "x", "b": 2}, {"a": "z", "b": 1}]};
    assert_eq!(
        eval(
            bson!({"$sortArray": {"input": [3, "a", null, 1], "sortBy": -1}}),
            &d
        ),
        Some(bson!(["a", 3, 1, null]))
    );
    assert_eq!(
        eval(
            bson!({"$sortArray": {"input": "$g", "sortBy": {"b": -1, "a": 1}}}),
            &d
        ),
        Some(bson!([{"a": "x", "b": 2}, {"a": "y", "b": 2}, {"a": "z", "b": 1}]))
    );
    assert_eq!(
        eval_err(bson!({"$sortArray": {"input": [1], "sortBy": 2}}), &d).0,
        2942506
    );
    assert_eq!(
        eval_err(bson!({"$sortArray": {"input": [1], "sortBy": {}}}), &d).1,
        "BadValue: The $sort pattern is empty when it should be a set of fields."
    );
    assert_eq!(
        eval_err(bson!({"$sortArray": {"input": "", "sortBy": 1}}), &d).0,
        2942504
    );
    assert_eq!(
        eval_err(bson!({"$sortArray": {"sortBy": 1}}), &d).0,
        2942502
    );
}

#[test]
fn zip_transposes() {
    let d = doc! {"a": [1, 2, 3], "b": ["x"]};
    assert_eq!(
        eval(bson!({"$zip": {"inputs": ["$a", "$b"]}}), &d),
        Some(bson!([[1, "x"]]))
    );
    assert_eq!(
        eval(
            bson!({"$zip": {"inputs": ["$a", "$b"], "useLongestLength": true, "defaults": [0, "d"]}}),
            &d
        ),
        Some(bson!([[1, "x"], [2, "d"], [3, "d"]]))
    );
    assert_eq!(
        eval(bson!({"$zip": {"inputs": ["$a", "$nope"]}}), &d),
        Some(Bson::Null)
    );
    assert_eq!(
        eval_err(bson!({"$zip": {"inputs": "$a"}}), &d),
        (
            34461,
            "inputs must be an array of expressions, found string".into()
        )
    );
    assert_eq!(
        eval_err(bson!({"$zip": {"inputs": ["$a", 1]}}), &d),
        (
            34468,
            "$zip found a non-array expression in input: 1".into()
        )
    );
    assert_eq!(
        eval_err(bson!({"$zip": {"inputs": ["$a"], "defaults": [1]}}), &d).0,
        34466
    );
}

#[test]
fn cpp_double_formatting() {
    use super::cpp_double;
    assert_eq!(cpp_double(1.1), "1.1");
    assert_eq!(cpp_double(2_147_483_648.0), "2.14748e+09");
    assert_eq!(cpp_double(-2_147_483_649.0), "-2.14748e+09");
    assert_eq!(cpp_double(0.0001), "0.0001");
    assert_eq!(cpp_double(0.00001), "1e-05");
    assert_eq!(cpp_double(100000.0), "100000");
    assert_eq!(cpp_double(f64::NAN), "nan");
}

#[test]
fn as_current_rebinds_field_paths() {
    let d = doc! {"a": 1};
    assert_eq!(
        eval(
            bson!({"$filter": {"input": [{"a": 10, "b": 8}, {"a": 7, "b": 8}, 3], "as": "CURRENT", "cond": {"$gt": ["$a", 8]}}}),
            &d
        ),
        Some(bson!([{"a": 10, "b": 8}]))
    );
    assert_eq!(
        eval(
            bson!({"$map": {"input": [{"a": 2}], "as": "CURRENT", "in": "$a"}}),
            &d
        ),
        Some(bson!([2]))
    );
}

#[test]
fn values_print_like_mongodb() {
    use super::value_text;
    let dec = |s: &str| Some(Bson::Decimal128(s.parse().expect("decimal")));
    assert_eq!(value_text(&dec("1.1")), "1.1");
    assert_eq!(value_text(&dec("2147483648.0")), "2147483648.0");
    assert_eq!(value_text(&Some(bson!({"a": [1, "x"]}))), "{a: [1, \"x\"]}");
    assert_eq!(
        value_text(&Some(Bson::Int64(90_000_000_000_000))),
        "90000000000000"
    );
    assert_eq!(value_text(&None), "MISSING");
}

#[test]
fn named_arguments_serialize_by_name() {
    let parse = |v: Bson| {
        super::super::Expression::parse(&v)
            .expect("parses")
            .serialize()
    };
    assert_eq!(
        parse(bson!({"$map": {"input": "$a", "as": "x", "in": "$$x"}})),
        bson!({"$map": {"input": "$a", "as": "x", "in": "$$x"}})
    );
    assert_eq!(
        parse(bson!({"$zip": {"inputs": ["$a"], "useLongestLength": true}})),
        bson!({"$zip": {"inputs": ["$a"], "defaults": [], "useLongestLength": true}})
    );
    assert_eq!(
        parse(bson!({"$firstN": {"input": "$a", "n": 2}})),
        bson!({"$firstN": {"n": {"$const": 2}, "input": "$a"}})
    );
}
