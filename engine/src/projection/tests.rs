//! Projection behaviour against MongoDB 8.0's documented results.

use bson::{Document, bson, doc};

use super::{Projection, ProjectionInput};

fn project(spec: Document, d: &Document) -> Document {
    project_with(spec, d, ProjectionInput::default())
}

fn project_with(spec: Document, d: &Document, input: ProjectionInput) -> Document {
    Projection::parse(&spec)
        .unwrap_or_else(|e| panic!("{spec}: {e}"))
        .expect("non-empty projection")
        .apply(d, &input)
        .unwrap_or_else(|e| panic!("{spec}: {e}"))
}

fn err(spec: Document) -> (i32, String) {
    let e = Projection::parse(&spec).expect_err("expected an error");
    (e.code(), e.message)
}

fn sample() -> Document {
    doc! {
        "_id": 1, "name": "x", "qty": 5,
        "size": {"h": 10, "w": 20, "uom": "cm"},
        "stock": [{"loc": "A", "n": 1}, {"loc": "B", "n": 2}, 7],
        "tags": ["a", "b", "c", "d"],
    }
}

#[test]
fn inclusion_keeps_document_order_and_id() {
    let d = sample();
    assert_eq!(
        project(doc! {"qty": 1, "name": 1}, &d),
        doc! {"_id": 1, "name": "x", "qty": 5}
    );
    assert_eq!(project(doc! {"name": 1, "_id": 0}, &d), doc! {"name": "x"});
    assert_eq!(project(doc! {"_id": 1}, &d), doc! {"_id": 1});
    assert_eq!(
        project(doc! {"size.h": 1}, &d),
        doc! {"_id": 1, "size": {"h": 10}}
    );
    assert_eq!(
        project(doc! {"size": {"uom": 1}}, &d),
        doc! {"_id": 1, "size": {"uom": "cm"}}
    );
    assert_eq!(
        project(doc! {"stock.loc": 1}, &d),
        doc! {"_id": 1, "stock": [{"loc": "A"}, {"loc": "B"}]}
    );
    assert_eq!(project(doc! {"nope": 1}, &d), doc! {"_id": 1});
}

#[test]
fn exclusion() {
    let d = sample();
    assert_eq!(
        project(doc! {"size": 0, "stock": 0, "tags": 0}, &d),
        doc! {"_id": 1, "name": "x", "qty": 5}
    );
    let got = project(
        doc! {"size.uom": 0, "stock.n": 0, "_id": 0, "tags": false},
        &d,
    );
    assert_eq!(
        got,
        doc! {"name": "x", "qty": 5, "size": {"h": 10, "w": 20}, "stock": [{"loc": "A"}, {"loc": "B"}, 7]}
    );
}

#[test]
fn slice_forms() {
    let d = sample();
    assert_eq!(
        project(
            doc! {"tags": {"$slice": 2}, "_id": 0, "name": 0, "qty": 0, "size": 0, "stock": 0},
            &d
        ),
        doc! {"tags": ["a", "b"]}
    );
    let got = project(doc! {"tags": {"$slice": -1}}, &d);
    assert_eq!(got.get_array("tags").unwrap(), &vec![bson!("d")]);
    assert!(got.contains_key("name")); // $slice alone is an exclusion projection
    let got = project(doc! {"tags": {"$slice": [1, 2]}, "name": 1}, &d);
    assert_eq!(got, doc! {"_id": 1, "name": "x", "tags": ["b", "c"]});
    let got = project(doc! {"tags": {"$slice": [-3, 2]}, "_id": 0, "qty": 1}, &d);
    assert_eq!(got, doc! {"qty": 5, "tags": ["b", "c"]});
    let got = project(doc! {"tags": {"$slice": [10, 2]}, "_id": 0, "qty": 1}, &d);
    assert_eq!(got, doc! {"qty": 5, "tags": []});
}

#[test]
fn elem_match_and_positional() {
    let d = sample();
    let got = project(doc! {"stock": {"$elemMatch": {"n": {"$gt": 1}}}}, &d);
    assert_eq!(got, doc! {"_id": 1, "stock": [{"loc": "B", "n": 2}]});
    let got = project(doc! {"stock": {"$elemMatch": {"n": 9}}, "name": 1}, &d);
    assert_eq!(got, doc! {"_id": 1, "name": "x"});
    let input = ProjectionInput {
        elem_match_key: Some(2),
        text_score: None,
        ..Default::default()
    };
    let got = project_with(doc! {"tags.$": 1}, &d, input);
    assert_eq!(got, doc! {"_id": 1, "tags": ["c"]});
    let e = Projection::parse(&doc! {"tags.$": 1})
        .unwrap()
        .unwrap()
        .apply(&d, &ProjectionInput::default())
        .unwrap_err();
    assert_eq!(e.code(), 51246);
}

#[test]
fn elem_match_order_and_kind() {
    let d = doc! {"_id": 2, "a": [11, 21, 31], "b": [41, 51, 61], "d": 71, "e": {"f": "good"}};
    // Inclusion: included fields, then computed, then $elemMatch fields.
    assert_eq!(
        project(
            doc! {"b": {"$elemMatch": {"$gt": 45}}, "d": 1, "e": {"$add": [2, 3]}},
            &d
        ),
        doc! {"_id": 2, "d": 71, "e": 5, "b": [51]}
    );
    // Exclusion: $elemMatch fields stay in document order.
    assert_eq!(
        project(
            doc! {"b": {"$elemMatch": {"$gt": 45}}, "a": {"$elemMatch": {"$lt": 25}}, "e": 0, "d": 0},
            &d
        ),
        doc! {"_id": 2, "a": [11], "b": [51]}
    );
    // Alone, $elemMatch fields are an inclusion, in specification order.
    let d = doc! {"x": [1, 2, 3], "y": [4, 5, 6], "z": [7, 8, 9]};
    assert_eq!(
        project(
            doc! {"z": {"$elemMatch": {"$eq": 8}}, "x": {"$elemMatch": {"$eq": 3}}},
            &d
        ),
        doc! {"z": [8], "x": [3]}
    );
    assert_eq!(err(doc! {"a.$": 1, "b": {"$elemMatch": {"c": 1}}}).0, 31255);
}

#[test]
fn computed_fields() {
    let d = sample();
    let got = project(
        doc! {"name": 1, "total": {"$add": ["$qty", 1]}, "lit": "hello", "h": "$size.h"},
        &d,
    );
    assert_eq!(
        got,
        doc! {"_id": 1, "name": "x", "total": 6, "lit": "hello", "h": 10}
    );
    let got = project(doc! {"_id": 0, "a.b": "$qty"}, &d);
    assert_eq!(got, doc! {"a": {"b": 5}});
    let got = project(doc! {"_id": 0, "missing": "$nope"}, &d);
    assert_eq!(got, doc! {});
    let got = project(doc! {"_id": 0, "x": {"$literal": 1}}, &d);
    assert_eq!(got, doc! {"x": 1});
}

#[test]
fn meta() {
    let d = sample();
    let p = Projection::parse(&doc! {"s": {"$meta": "textScore"}})
        .unwrap()
        .unwrap();
    assert!(p.needs_text_score());
    assert_eq!(
        p.apply(&d, &ProjectionInput::default()).unwrap_err().code(),
        40218
    );
    let input = ProjectionInput {
        elem_match_key: None,
        text_score: Some(1.5),
        ..Default::default()
    };
    assert_eq!(p.apply(&d, &input).unwrap().get_f64("s").unwrap(), 1.5);
    assert_eq!(err(doc! {"s": {"$meta": "nope"}}).0, 17308);
    let p = Projection::parse(&doc! {"k": {"$meta": "indexKey"}, "_id": 0, "name": 1})
        .unwrap()
        .unwrap();
    assert_eq!(
        p.apply(&d, &ProjectionInput::default()).unwrap(),
        doc! {"name": "x"}
    );
    let input = ProjectionInput {
        index_key: Some(doc! {"name": "x"}),
        ..Default::default()
    };
    assert_eq!(
        p.apply(&d, &input).unwrap(),
        doc! {"name": "x", "k": {"name": "x"}}
    );
}

/// MongoDB 8.0 reads any number as find's `$slice` (projection_parser.cpp
/// `attemptToParseFindSlice`); NaN counts as 0 and ±Infinity saturate.
#[test]
fn slice_non_finite_numbers() {
    let d = doc! {"_id": 1, "a": [1, 2, 3]};
    let dec = |s: &str| bson::Bson::Decimal128(s.parse().unwrap());
    let a = |spec: bson::Bson| project(doc! {"a": {"$slice": spec}}, &d).get("a").cloned();
    assert_eq!(a(bson!(f64::NAN)), Some(bson!([])));
    assert_eq!(a(dec("NaN")), Some(bson!([])));
    assert_eq!(a(bson!(f64::INFINITY)), Some(bson!([1, 2, 3])));
    assert_eq!(a(bson!(f64::NEG_INFINITY)), Some(bson!([1, 2, 3])));
    assert_eq!(a(dec("-Infinity")), Some(bson!([1, 2, 3])));
    assert_eq!(
        a(dec("999999999999999999999999999999")),
        Some(bson!([1, 2, 3]))
    );
    assert_eq!(a(bson!([f64::NAN, 1])), Some(bson!([1])));
    assert_eq!(a(bson!([0, f64::INFINITY])), Some(bson!([1, 2, 3])));
    assert_eq!(a(bson!([f64::INFINITY, f64::INFINITY])), Some(bson!([])));
    assert_eq!(a(bson!([f64::NEG_INFINITY, 1])), Some(bson!([1])));
}

/// A `$slice` that is not find's form is the aggregation `$slice` (an inclusion's computed
/// field): `[n, null]` and `[n, undefined]` give null.
#[test]
fn slice_falls_back_to_the_expression() {
    let d = doc! {"_id": 1, "a": [1, 2, 3], "b": 2};
    assert_eq!(
        project(doc! {"a": {"$slice": [1, null]}}, &d),
        doc! {"_id": 1, "a": null}
    );
    assert_eq!(
        project(doc! {"a": {"$slice": [1, bson::Bson::Undefined]}}, &d),
        doc! {"_id": 1, "a": null}
    );
    assert_eq!(
        project(doc! {"a": {"$slice": ["$a", 1, 1]}}, &d),
        doc! {"_id": 1, "a": [2]}
    );
    // Not a valid expression either: the expression's error, with the find form's reason.
    let (code, message) = err(doc! {"a": {"$slice": "x"}});
    assert_eq!(code, 28667);
    assert!(
        message.starts_with(
            "Invalid $slice syntax. The given syntax { $slice: \"x\" } did not match the \
             find() syntax because :: Location31273: $slice only supports numbers and [skip, \
             limit] arrays :: The given syntax did not match the expression $slice syntax. :: \
             caused by :: "
        ),
        "{message}"
    );
    // The fallback is an expression: not allowed in an exclusion.
    assert_eq!(err(doc! {"b": 0, "a": {"$slice": [1, null]}}).0, 31252);
    // `[0, 0]` is the expression `$slice` of the number 0: refused (28724, first argument not
    // an array) once the constant is folded.
    assert_eq!(err(doc! {"a": {"$slice": [0, 0]}}).0, 28724);
}

#[test]
fn errors() {
    assert_eq!(
        err(doc! {"a": 1, "b": 0}),
        (
            31254,
            "Cannot do exclusion on field b in inclusion projection".into()
        )
    );
    assert_eq!(
        err(doc! {"a": 0, "b": 1}),
        (
            31253,
            "Cannot do inclusion on field b in exclusion projection".into()
        )
    );
    assert_eq!(
        err(doc! {"a": 1, "a.b": 1}),
        (31250, "Path collision at a.b remaining portion b".into())
    );
    assert_eq!(
        err(doc! {"a.b": 1, "a": 1}),
        (31250, "Path collision at a".into())
    );
    assert_eq!(err(doc! {"a": {}}).0, 51270);
    assert_eq!(err(doc! {"a.$": 1, "b.$": 1}).0, 31276);
    // A positional path takes only a true number: an object (the pre-4.4 `{'x.$': {$slice: 1}}`)
    // is 31271, a false number 31395, another literal 31308 (parseElement, projection_parser.cpp).
    assert_eq!(
        err(doc! {"x.$": {"$slice": 1}}),
        (
            31271,
            "positional projection cannot be used with an expression or sub object".into()
        )
    );
    assert_eq!(
        err(doc! {"x.$": 0}),
        (
            31395,
            "positional projection cannot be used with exclusion".into()
        )
    );
    assert_eq!(err(doc! {"x.$": "s"}).0, 31308);
    assert_eq!(err(doc! {"a.$": 1, "b.$": {"$slice": 1}}).0, 31271);
    assert_eq!(err(doc! {"a.b": {"$elemMatch": {"x": 1}}}).0, 31275);
    assert_eq!(err(doc! {"a": {"$elemMatch": 1}}).0, 31274);
    assert_eq!(err(doc! {"a": {"$slice": "x"}}).0, 28667);
    assert_eq!(err(doc! {"a": 0, "b": {"$add": [1, 2]}}).0, 31252);
    assert_eq!(err(doc! {"$a": 1}).0, 16410);
    assert!(Projection::parse(&doc! {}).unwrap().is_none());
    assert!(Projection::parse(&doc! {"_id": 0, "a": 1}).is_ok());
    assert!(Projection::parse(&doc! {"_id": 1, "a": 0}).is_ok());
}

#[test]
fn elem_match_projection_bans_special_query_features() {
    for op in ["$jsonSchema", "$where", "$expr", "$text"] {
        let mut inner = Document::new();
        inner.insert(op, doc! {});
        let (code, message) = err(doc! {"a": {"$elemMatch": {"$and": [inner]}}});
        assert_eq!(code, 224, "{op}");
        assert_eq!(message, format!("{op} is not allowed in this context"));
    }
}
