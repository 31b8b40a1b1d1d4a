//! Matcher behaviour, operator by operator, against MongoDB 8.0's documented results.

use bson::{Bson, Document, doc};

use super::Filter;

fn matches(filter: Document, d: &Document) -> bool {
    Filter::parse(&filter)
        .unwrap_or_else(|e| panic!("{filter}: {e}"))
        .matches(d)
}

fn yes(filter: Document, d: &Document) {
    assert!(matches(filter.clone(), d), "expected {filter} to match {d}");
}

fn no(filter: Document, d: &Document) {
    assert!(
        !matches(filter.clone(), d),
        "expected {filter} not to match {d}"
    );
}

pub(crate) fn re(pattern: &str, options: &str) -> Bson {
    Bson::RegularExpression(bson::Regex {
        pattern: pattern
            .to_string()
            .try_into()
            .expect("no NUL in test pattern"),
        options: options
            .to_string()
            .try_into()
            .expect("no NUL in test options"),
    })
}

fn err(filter: Document) -> (i32, String) {
    let e = Filter::parse(&filter).expect_err("expected a parse error");
    (e.code(), e.message)
}

#[test]
fn equality_on_top_level_and_dotted_fields() {
    let d = doc! {"name": "Product 1", "price": 10, "address": {"state": "NY"}, "tags": ["a", "b"]};
    yes(doc! {"price": 10}, &d);
    yes(doc! {"price": 10.0}, &d);
    yes(doc! {"price": Bson::Int64(10)}, &d);
    yes(doc! {"address.state": "NY"}, &d);
    yes(doc! {"tags": "b"}, &d);
    yes(doc! {"tags": ["a", "b"]}, &d);
    no(doc! {"tags": ["b", "a"]}, &d);
    yes(doc! {"missing": null}, &d);
    no(doc! {"price": 11}, &d);
    no(doc! {"price": "10"}, &d);
    no(doc! {"address.state": "CA"}, &d);
    yes(doc! {"address": {"state": "NY"}}, &d);
}

#[test]
fn null_semantics() {
    let missing = doc! {"x": 1};
    let null = doc! {"a": null};
    let arr_null = doc! {"a": [1, null]};
    let arr = doc! {"a": [1, 2]};
    let sub_missing = doc! {"a": [{"b": 1}, {"c": 2}]};
    for d in [&missing, &null, &arr_null] {
        yes(doc! {"a": null}, d);
        yes(doc! {"a": {"$in": [null, 5]}}, d);
        yes(doc! {"a": {"$gte": null}}, d);
        no(doc! {"a": {"$ne": null}}, d);
    }
    no(doc! {"a": null}, &arr);
    yes(doc! {"a": {"$ne": null}}, &arr);
    yes(doc! {"a.b": null}, &sub_missing);
    no(doc! {"a.b": null}, &doc! {"a": [1, 2]});
    yes(doc! {"a.b": null}, &doc! {"a": 5});
    no(doc! {"a": {"$type": "null"}}, &missing);
    yes(doc! {"a": {"$type": "null"}}, &null);
    no(doc! {"a": null}, &doc! {"a": Bson::Undefined});
    no(doc! {"a": {"$gt": null}}, &null);
}

#[test]
fn comparisons_are_type_bracketed() {
    let d = doc! {"a": 5, "s": "abc", "arr": [1, 10], "dt": bson::DateTime::from_millis(10)};
    yes(doc! {"a": {"$gt": 4}}, &d);
    yes(doc! {"a": {"$gte": 5.0}}, &d);
    yes(doc! {"a": {"$lt": 5.5}}, &d);
    no(doc! {"a": {"$gt": "4"}}, &d);
    no(doc! {"s": {"$gt": 1}}, &d);
    yes(doc! {"s": {"$gt": "abb"}}, &d);
    yes(doc! {"arr": {"$gt": 5, "$lt": 2}}, &d); // different elements satisfy each
    no(doc! {"arr": {"$elemMatch": {"$gt": 5, "$lt": 2}}}, &d);
    yes(doc! {"a": {"$lt": Bson::MaxKey}}, &d);
    yes(doc! {"s": {"$gt": Bson::MinKey}}, &d);
    no(doc! {"a": {"$gt": Bson::MaxKey}}, &d);
    yes(doc! {"dt": {"$gt": bson::DateTime::from_millis(5)}}, &d);
    no(doc! {"dt": {"$gt": 5}}, &d);
    yes(doc! {"arr": {"$eq": [1, 10]}}, &d);
    yes(doc! {"arr": {"$gt": [1, 9]}}, &d);
}

#[test]
fn nan_matches_only_nan() {
    let d = doc! {"a": f64::NAN};
    yes(doc! {"a": f64::NAN}, &d);
    yes(doc! {"a": {"$gte": f64::NAN}}, &d);
    no(doc! {"a": {"$lt": 0}}, &d);
    no(doc! {"a": {"$gt": f64::NAN}}, &doc! {"a": 1});
    no(doc! {"a": {"$lt": f64::NAN}}, &doc! {"a": 1});
}

#[test]
fn decimal_comparisons() {
    let d = doc! {"a": Bson::Decimal128("1.5".parse().unwrap())};
    yes(doc! {"a": 1.5}, &d);
    yes(doc! {"a": {"$gt": 1}}, &d);
    no(doc! {"a": {"$gt": 2_i64}}, &d);
}

#[test]
fn in_and_nin() {
    let d = doc! {"a": [1, 2], "s": "hello"};
    yes(doc! {"a": {"$in": [5, 2]}}, &d);
    no(doc! {"a": {"$in": [5, 6]}}, &d);
    yes(doc! {"a": {"$in": [[1, 2]]}}, &d);
    yes(doc! {"s": {"$in": [re("^he", "")]}}, &d);
    no(doc! {"a": {"$nin": [2]}}, &d);
    yes(doc! {"a": {"$nin": [3]}}, &d);
    yes(doc! {"zz": {"$nin": [3]}}, &d);
    no(doc! {"zz": {"$in": []}}, &d);
}

#[test]
fn logical_operators() {
    let d = doc! {"a": 1, "b": 2};
    yes(doc! {"$and": [{"a": 1}, {"b": 2}]}, &d);
    no(doc! {"$and": [{"a": 1}, {"b": 3}]}, &d);
    yes(doc! {"$or": [{"a": 5}, {"b": 2}]}, &d);
    no(doc! {"$nor": [{"a": 5}, {"b": 2}]}, &d);
    yes(doc! {"$nor": [{"a": 5}, {"b": 3}]}, &d);
    yes(doc! {"a": {"$not": {"$gt": 5}}}, &d);
    yes(doc! {"zz": {"$not": {"$gt": 5}}}, &d);
    no(doc! {"a": {"$not": {"$lt": 5}}}, &d);
    yes(doc! {"$comment": "hi", "a": 1}, &d);
    yes(doc! {"$alwaysTrue": 1}, &d);
    no(doc! {"$alwaysFalse": 1}, &d);
    let d = doc! {"s": "abc"};
    no(doc! {"s": {"$not": re("^a", "")}}, &d);
}

#[test]
fn exists_and_type() {
    let d = doc! {"a": 1, "n": null, "arr": [1, "x"], "l": 5_i64, "dec": Bson::Decimal128("1".parse().unwrap())};
    yes(doc! {"a": {"$exists": true}}, &d);
    yes(doc! {"n": {"$exists": 1}}, &d);
    yes(doc! {"zz": {"$exists": false}}, &d);
    no(doc! {"a": {"$exists": false}}, &d);
    yes(doc! {"a": {"$type": "int"}}, &d);
    yes(doc! {"a": {"$type": 16}}, &d);
    yes(doc! {"a": {"$type": "number"}}, &d);
    yes(doc! {"l": {"$type": "long"}}, &d);
    yes(doc! {"dec": {"$type": "decimal"}}, &d);
    yes(doc! {"arr": {"$type": "string"}}, &d);
    yes(doc! {"arr": {"$type": "array"}}, &d);
    yes(doc! {"a": {"$type": ["string", "int"]}}, &d);
    no(doc! {"a": {"$type": "double"}}, &d);
}

#[test]
fn regex_matching() {
    let d = doc! {"s": "Hello\nWorld", "arr": ["x", "yes"]};
    yes(doc! {"s": {"$regex": "^hello", "$options": "i"}}, &d);
    no(doc! {"s": {"$regex": "^World"}}, &d);
    yes(doc! {"s": {"$regex": "^World", "$options": "m"}}, &d);
    yes(doc! {"s": re("o.W", "s")}, &d);
    yes(doc! {"s": {"$regex": re("WORLD", "i")}}, &d);
    yes(doc! {"arr": {"$regex": "^y"}}, &d);
    yes(doc! {"s": {"$options": "i", "$regex": "hello"}}, &d);
}

#[test]
fn mod_size_all() {
    let d = doc! {"a": 10, "f": 10.7, "arr": [1, 2, 3], "tags": ["x", "y"]};
    yes(doc! {"a": {"$mod": [3, 1]}}, &d);
    yes(doc! {"f": {"$mod": [3, 1]}}, &d);
    no(doc! {"a": {"$mod": [3, 2]}}, &d);
    yes(doc! {"a": {"$mod": [-3, 1]}}, &d);
    yes(doc! {"arr": {"$size": 3}}, &d);
    no(doc! {"arr": {"$size": 2}}, &d);
    no(doc! {"a": {"$size": 1}}, &d);
    yes(doc! {"tags": {"$all": ["y", "x"]}}, &d);
    no(doc! {"tags": {"$all": ["y", "z"]}}, &d);
    no(doc! {"tags": {"$all": []}}, &d);
    yes(doc! {"a": {"$all": [10]}}, &d);
}

#[test]
fn elem_match_forms() {
    let d = doc! {
        "results": [{"product": "abc", "score": 10}, {"product": "xyz", "score": 5}],
        "nums": [1, 5, 9],
        "nested": [[1, 2], [3, 4]],
    };
    yes(
        doc! {"results": {"$elemMatch": {"product": "xyz", "score": {"$gte": 5}}}},
        &d,
    );
    no(
        doc! {"results": {"$elemMatch": {"product": "xyz", "score": {"$gte": 8}}}},
        &d,
    );
    yes(doc! {"nums": {"$elemMatch": {"$gt": 4, "$lt": 6}}}, &d);
    no(doc! {"nums": {"$elemMatch": {"$gt": 5, "$lt": 9}}}, &d);
    yes(
        doc! {"nested": {"$elemMatch": {"$elemMatch": {"$eq": 3}}}},
        &d,
    );
    yes(doc! {"nums": {"$elemMatch": {"$not": {"$gt": 4}}}}, &d);
    yes(
        doc! {"results": {"$elemMatch": {"$or": [{"score": 1}, {"score": 5}]}}},
        &d,
    );
    yes(
        doc! {"results": {"$all": [
            {"$elemMatch": {"score": 10}},
            {"$elemMatch": {"product": "xyz"}},
        ]}},
        &d,
    );
    no(doc! {"nums": {"$elemMatch": {"$gt": 100}}}, &d);
    no(
        doc! {"scalar": {"$elemMatch": {"$gt": 0}}},
        &doc! {"scalar": 5},
    );
}

#[test]
fn bits_operators() {
    let d = doc! {"a": 54};
    yes(doc! {"a": {"$bitsAllSet": [1, 5]}}, &d);
    yes(doc! {"a": {"$bitsAllClear": 1}}, &d);
    yes(doc! {"a": {"$bitsAnySet": [0, 1]}}, &d);
    no(doc! {"a": {"$bitsAnyClear": 54}}, &d);
}

#[test]
fn paths_through_arrays() {
    let d = doc! {"a": [{"b": [{"c": 1}, {"c": 2}]}, {"b": {"c": 3}}], "m": {"0": "zero"}, "p": [10, 20]};
    yes(doc! {"a.b.c": 2}, &d);
    yes(doc! {"a.b.c": 3}, &d);
    yes(doc! {"a.0.b.c": 1}, &d);
    no(doc! {"a.1.b.c": 1}, &d);
    yes(doc! {"m.0": "zero"}, &d);
    yes(doc! {"p.1": 20}, &d);
    no(doc! {"p.1": 10}, &d);
    no(doc! {"n": 1}, &doc! {"n": [[1]]});
    yes(doc! {"n": [1]}, &doc! {"n": [[1]]});
}

#[test]
fn elem_match_key_for_positional_operator() {
    let f =
        |filter: Document, d: &Document| Filter::parse(&filter).unwrap().first_array_position(d);
    let d = doc! {"grades": [80, 95, 99], "items": [{"qty": 1}, {"qty": 5, "tags": ["x", "y"]}], "n": 1};
    assert_eq!(f(doc! {"grades": {"$gte": 90}}, &d), Some(1));
    assert_eq!(f(doc! {"items.qty": 5}, &d), Some(1));
    assert_eq!(f(doc! {"items.tags": "y"}, &d), Some(1));
    assert_eq!(f(doc! {"items": {"$elemMatch": {"qty": 5}}}, &d), Some(1));
    assert_eq!(f(doc! {"n": 1}, &d), None);
    assert_eq!(f(doc! {"grades": 70}, &d), None);
    assert_eq!(f(doc! {"n": 1, "grades": 99}, &d), Some(2));
    assert_eq!(
        f(doc! {"$or": [{"grades": 1}, {"grades": 80}]}, &d),
        Some(0)
    );
}

#[test]
fn parse_errors() {
    assert_eq!(
        err(doc! {"a": {"$foo": 1}}),
        (2, "unknown operator: $foo".into())
    );
    let (code, msg) = err(doc! {"$foo": 1});
    assert_eq!(code, 2);
    assert!(msg.starts_with("unknown top level operator: $foo"), "{msg}");
    assert_eq!(
        err(doc! {"a": {"$in": 1}}),
        (2, "$in needs an array".into())
    );
    assert_eq!(
        err(doc! {"a": {"$nin": 1}}),
        (2, "$nin needs an array".into())
    );
    assert_eq!(
        err(doc! {"$and": []}),
        (2, "$and/$or/$nor must be a nonempty array".into())
    );
    assert_eq!(err(doc! {"$or": 1}), (2, "$or must be an array".into()));
    assert_eq!(
        err(doc! {"$or": [1]}),
        (2, "$or/$and/$nor entries need to be full objects".into())
    );
    assert_eq!(
        err(doc! {"a": {"$not": 1}}),
        (2, "$not needs a regex or a document".into())
    );
    assert_eq!(
        err(doc! {"a": {"$not": {}}}),
        (2, "$not cannot be empty".into())
    );
    assert_eq!(
        err(doc! {"a": {"$size": "x"}}),
        (2, "$size needs a number".into())
    );
    assert_eq!(
        err(doc! {"a": {"$elemMatch": 1}}),
        (2, "$elemMatch needs an Object".into())
    );
    assert_eq!(
        err(doc! {"a": {"$all": 1}}),
        (2, "$all needs an array".into())
    );
    assert_eq!(
        err(doc! {"a": {"$in": [{"$gt": 1}]}}),
        (2, "cannot nest $ under $in".into())
    );
    assert_eq!(
        err(doc! {"a": {"$regex": 1}}),
        (2, "$regex has to be a string".into())
    );
    assert_eq!(
        err(doc! {"a": {"$options": "i"}}),
        (2, "$options needs a $regex".into())
    );
    assert_eq!(
        err(doc! {"a": {"$mod": [0, 1]}}),
        (2, "divisor cannot be 0".into())
    );
    assert_eq!(
        err(doc! {"a": {"$mod": [1]}}),
        (2, "malformed mod, not enough elements".into())
    );
    assert_eq!(err(doc! {"a": {"$regex": "("}}).0, 51091);
    assert_eq!(
        err(doc! {"a": {"$where": "1"}}),
        (2, "$where cannot be applied to a field".into())
    );
    assert_eq!(
        err(doc! {"a": {"$elemMatch": {"$expr": {"$eq": [1, 1]}}}}).1,
        "$expr can only be applied to the top-level document"
    );
    assert_eq!(
        err(doc! {"a": {"$all": [{"$elemMatch": {"b": 1}}, 5]}}).1,
        "$all/$elemMatch has to be consistent"
    );
    assert_eq!(
        err(doc! {"a": {"$all": [{"$gt": 1}]}}).1,
        "no $ expressions in $all"
    );
    assert_eq!(
        err(doc! {"a": {"$gt": re("x", "")}}).1,
        "Can't have RegEx as arg to predicate over field 'a'."
    );
}

#[test]
fn where_needs_an_evaluator() {
    struct Always;
    impl super::WhereEvaluator for Always {
        fn evaluate(&self, code: &str, doc: &Document) -> crate::Result<bool> {
            Ok(code.contains("true") && doc.contains_key("a"))
        }
    }
    let f = Filter::parse(&doc! {"$where": "return true"}).unwrap();
    assert!(f.has_where());
    let d = doc! {"a": 1};
    let e = f
        .matches_with(&d, &super::MatchContext::default())
        .unwrap_err();
    assert_eq!(e.code(), 2);
    let ctx = super::MatchContext {
        where_evaluator: Some(&Always),
        map_reduce: None,
        meta: None,
    };
    assert!(f.matches_with(&d, &ctx).unwrap());
    assert_eq!(
        err(doc! {"a": {"$elemMatch": {"$where": "true"}}}).1,
        "$elemMatch cannot contain $where expression"
    );
}

#[test]
fn text_is_parsed_and_needs_an_index() {
    let f = Filter::parse(&doc! {"$text": {"$search": "coffee"}}).unwrap();
    assert_eq!(f.text_query().map(|t| t.search.as_str()), Some("coffee"));
    let e = f
        .matches_with(&doc! {}, &super::MatchContext::default())
        .unwrap_err();
    assert_eq!(
        (e.code(), e.message.as_str()),
        (27, "text index required for $text query")
    );
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let mut f = doc! {"a": 1};
    for _ in 0..5000 {
        f = doc! {"$and": [f]};
    }
    let e = Filter::parse(&f).unwrap_err();
    assert_eq!(e.code(), 2);
    let mut ok = doc! {"a": 1};
    for _ in 0..40 {
        ok = doc! {"$or": [ok]};
    }
    assert!(Filter::parse(&ok).is_ok());
}

#[test]
fn regex_options_combined() {
    let msgs = [
        "hpattern New",
        "pattX New",
        "pattX\nNew",
        "pattx\nNew",
        "pattx_New",
        "hello\npattx\nNewLineStart",
        "hello\npattx NewWord",
        "hello\npattx NewWord",
        "hello\npattX New\nWord",
    ];
    let count = |regex: &str, options: &str| {
        let f = Filter::parse(&doc! {"msg": {"$regex": regex, "$options": options}}).unwrap();
        msgs.iter()
            .filter(|m| f.matches(&doc! {"msg": **m}))
            .count()
    };
    assert_eq!(count("^pattX.New", "ims"), 8);
    assert_eq!(count("^pattX.New$", "mis"), 5);
    assert_eq!(count("^pattX.N#COMMENT\n ew", "ims"), 0);
    assert_eq!(count("^pattX.N#COMMENT\n ew", "ixms"), 8);
    assert_eq!(count("^pattX.New", ""), 1);
    assert_eq!(count("^pattX.New", "i"), 2);
    assert_eq!(count("^pattX.New", "s"), 2);
    assert_eq!(count("^pattX.New", "m"), 2);
    assert_eq!(count("^pattX.New", "si"), 4);
    assert_eq!(count("^pattX.New", "mi"), 5);
    assert_eq!(count("^pattX.New", "ms"), 3);
}
