//! Whole-update tests: parse then apply, as the write commands do.

use bson::{Bson, Document, bson, doc};

use super::{ArrayFilters, UpdateEnv, UpdateSpec};
use crate::error::Result;

fn env(filters: &ArrayFilters, matched_position: Option<usize>) -> UpdateEnv<'_> {
    UpdateEnv {
        array_filters: filters,
        now_millis: 1_000,
        matched_position,
        eval: crate::expression::EvalContext::detached(),
    }
}

fn run_with(
    doc: &Document,
    u: Document,
    filters: &[Document],
    pos: Option<usize>,
) -> Result<Option<Document>> {
    let filters = ArrayFilters::parse(filters)?;
    UpdateSpec::parse(&Bson::Document(u), &filters)?.apply(doc, &env(&filters, pos))
}

/// Applies `u` to `doc`; `None` when nothing changed.
fn run(doc: Document, u: Document) -> Result<Option<Document>> {
    run_with(&doc, u, &[], None)
}

fn updated(doc: Document, u: Document) -> Document {
    match run(doc, u.clone()) {
        Ok(Some(d)) => d,
        other => panic!("{u}: expected a change, got {other:?}"),
    }
}

fn keys(d: &Document) -> Vec<&str> {
    d.keys().map(String::as_str).collect()
}

fn error(doc: Document, u: Document) -> (i32, String) {
    match run(doc, u.clone()) {
        Err(e) => (e.code(), e.message),
        other => panic!("{u}: expected an error, got {other:?}"),
    }
}

#[test]
fn set_appends_new_fields_in_name_order_and_keeps_existing_positions() {
    let d = updated(
        doc! {"_id": 1, "z": 1, "a": 1},
        doc! {"$set": {"z": 2, "c": 3, "b": 4}},
    );
    assert_eq!(keys(&d), ["_id", "z", "a", "b", "c"]);
    assert_eq!(d, doc! {"_id": 1, "z": 2, "a": 1, "b": 4, "c": 3});
}

#[test]
fn set_creates_embedded_documents_and_pads_arrays() {
    let d = updated(doc! {"_id": 1}, doc! {"$set": {"a.b.c": 1}});
    assert_eq!(d, doc! {"_id": 1, "a": {"b": {"c": 1}}});
    let d = updated(doc! {"_id": 1, "a": [1]}, doc! {"$set": {"a.3": 5}});
    assert_eq!(d, doc! {"_id": 1, "a": [1, null, null, 5]});
    let d = updated(
        doc! {"_id": 1, "a": [{"b": 1}]},
        doc! {"$set": {"a.0.c": 2}},
    );
    assert_eq!(d, doc! {"_id": 1, "a": [{"b": 1, "c": 2}]});
    // A numeric component names a field in a document.
    let d = updated(doc! {"_id": 1, "a": {}}, doc! {"$set": {"a.0": 1}});
    assert_eq!(d, doc! {"_id": 1, "a": {"0": 1}});
    // a.2 is applied before a.10 (numeric order), so padding is the same either way.
    let d = updated(
        doc! {"_id": 1, "a": []},
        doc! {"$set": {"a.10": 1, "a.2": 2}},
    );
    assert_eq!(d.get_array("a").unwrap().len(), 11);
}

#[test]
fn cannot_create_fields_inside_scalars_or_arrays() {
    assert_eq!(
        error(doc! {"_id": 1, "a": 5}, doc! {"$set": {"a.b": 1}}),
        (28, "Cannot create field 'b' in element {a: 5}".into())
    );
    assert_eq!(
        error(doc! {"_id": 1, "a": [1, 2]}, doc! {"$set": {"a.x": 1}}),
        (
            28,
            "Cannot create field 'x' in element {a: [ 1, 2 ]}".into()
        )
    );
    // A `$`-prefixed name there fails as the path does, before the storage check would
    // (jstests/core/update_arrayFilters.js: 'a.$[i.j]' on {a: [0]}).
    assert_eq!(
        error(doc! {"_id": 1, "a": [0]}, doc! {"$set": {"a.$x.j": 1}}),
        (28, "Cannot create field '$x' in element {a: [ 0 ]}".into())
    );
    assert_eq!(
        error(doc! {"_id": 1, "a": 5}, doc! {"$set": {"a.$x": 1}}).0,
        28
    );
    // Created where the path can be, it is refused for storage.
    assert_eq!(
        error(doc! {"_id": 1, "a": {}}, doc! {"$set": {"a.$x": 1}}).0,
        52
    );
    // Removing below a scalar is simply nothing to do.
    assert_eq!(
        run(doc! {"_id": 1, "a": 5}, doc! {"$unset": {"a.b": 1}}).unwrap(),
        None
    );
}

#[test]
fn pop_through_a_scalar_or_an_array_is_not_viable() {
    // jstests/core/update_modifier_pop.js: $pop neither creates nor skips a blocked path.
    assert_eq!(
        error(doc! {"_id": 0, "a": {"b": 1}}, doc! {"$pop": {"a.b.c": 1}}),
        (
            28,
            "Cannot use the part (c) of (a.b.c) to traverse the element ({b: 1})".into()
        )
    );
    assert_eq!(
        error(
            doc! {"_id": 0, "a": {"b": [1, 2]}},
            doc! {"$pop": {"a.b.c": 1}}
        )
        .0,
        28
    );
    // A missing path stays a no-op.
    assert_eq!(
        run(doc! {"_id": 0, "a": {"c": 1}}, doc! {"$pop": {"a.b": 1}}).unwrap(),
        None
    );
}

#[test]
fn no_op_updates_report_no_change() {
    let d = doc! {"_id": 1, "a": 1, "b": [1, 2], "c": {"x": 1}};
    for u in [
        doc! {"$set": {"a": 1}},
        doc! {"$set": {"c": {"x": 1}}},
        doc! {"$unset": {"zz": ""}},
        doc! {"$inc": {"a": 0}},
        doc! {"$min": {"a": 5}},
        doc! {"$max": {"a": 1.0}},
        doc! {"$addToSet": {"b": 2}},
        doc! {"$pull": {"b": 9}},
        doc! {"$pop": {"zz": 1}},
        doc! {"$rename": {"zz": "yy"}},
        doc! {"$setOnInsert": {"q": 1}},
        doc! {"$set": {}},
    ] {
        assert_eq!(run(d.clone(), u.clone()).unwrap(), None, "{u}");
    }
    // Same number, other type: a modification.
    assert!(run(d.clone(), doc! {"$set": {"a": 1.0}}).unwrap().is_some());
}

#[test]
fn unset_removes_fields_and_nulls_array_elements() {
    let d = updated(
        doc! {"_id": 1, "a": 1, "b": {"c": 1, "d": 2}, "e": [1, 2]},
        doc! {"$unset": {"a": 1, "b.c": "", "e.0": true}},
    );
    assert_eq!(d, doc! {"_id": 1, "b": {"d": 2}, "e": [null, 2]});
}

#[test]
fn rename_appends_a_new_target_and_overwrites_an_existing_one_in_place() {
    let d = updated(
        doc! {"_id": 1, "a": 1, "b": 2},
        doc! {"$rename": {"a": "c"}},
    );
    assert_eq!(keys(&d), ["_id", "b", "c"]);
    assert_eq!(d, doc! {"_id": 1, "b": 2, "c": 1});
    // Onto an existing field: the target keeps its place (MongoDB sets it as $set would).
    let d = updated(
        doc! {"_id": 1, "a": 1, "b": 2, "c": 3},
        doc! {"$rename": {"a": "b"}},
    );
    assert_eq!(keys(&d), ["_id", "b", "c"]);
    assert_eq!(d.get_i32("b").unwrap(), 1);
    let d = updated(
        doc! {"_id": 1, "key": 1, "f": {"g": 9, "h": 1}},
        doc! {"$rename": {"key": "f.g"}},
    );
    assert_eq!(d, doc! {"_id": 1, "f": {"g": 1, "h": 1}});
    assert_eq!(keys(d.get_document("f").unwrap()), ["g", "h"]);
    // A source path through a scalar cannot be traversed.
    let e = error(doc! {"_id": 1, "f": 1}, doc! {"$rename": {"f.g": "a"}});
    assert_eq!(e.0, 28);
    let d = updated(
        doc! {"_id": 1, "a": {"b": 1}},
        doc! {"$rename": {"a.b": "x.y"}},
    );
    assert_eq!(d, doc! {"_id": 1, "a": {}, "x": {"y": 1}});
}

#[test]
fn inc_mul_min_max_current_date() {
    let d = updated(
        doc! {"_id": 1, "n": 1, "m": 2, "lo": 5, "hi": 5},
        doc! {"$inc": {"n": 2, "new.k": 1}, "$mul": {"m": 2.5}, "$min": {"lo": 3}, "$max": {"hi": 9}},
    );
    assert_eq!(
        d,
        doc! {"_id": 1, "n": 3, "m": 5.0, "lo": 3, "hi": 9, "new": {"k": 1}}
    );
    let d = updated(doc! {"_id": 1}, doc! {"$currentDate": {"d": true}});
    assert_eq!(
        d.get("d"),
        Some(&Bson::DateTime(bson::DateTime::from_millis(1_000)))
    );
}

#[test]
fn array_operators() {
    let d = updated(
        doc! {"_id": 1, "a": [3, 1], "b": [1, 2, 3], "c": [1, 2], "s": ["x"]},
        doc! {
            "$push": {"a": {"$each": [2], "$sort": 1}},
            "$pull": {"b": 2},
            "$pop": {"c": -1},
            "$addToSet": {"s": {"$each": ["x", "y"]}},
        },
    );
    assert_eq!(
        d,
        doc! {"_id": 1, "a": [1, 2, 3], "b": [1, 3], "c": [2], "s": ["x", "y"]}
    );
    let d = updated(
        doc! {"_id": 1, "a": [1, 2, 1]},
        doc! {"$pullAll": {"a": [1]}},
    );
    assert_eq!(d, doc! {"_id": 1, "a": [2]});
    let d = updated(doc! {"_id": 1, "f": 5}, doc! {"$bit": {"f": {"or": 2}}});
    assert_eq!(d, doc! {"_id": 1, "f": 7});
}

#[test]
fn positional_operators() {
    let doc = doc! {"_id": 1, "grades": [80, 85, 90], "items": [{"q": 1}, {"q": 2}]};
    // `$` uses the position the query matched.
    let d = run_with(&doc, doc! {"$set": {"grades.$": 82}}, &[], Some(1))
        .unwrap()
        .unwrap();
    assert_eq!(d.get_array("grades").unwrap()[1], Bson::Int32(82));
    let e = run_with(&doc, doc! {"$set": {"grades.$": 82}}, &[], None).unwrap_err();
    assert_eq!(
        (e.code(), e.message.as_str()),
        (
            2,
            "The positional operator did not find the match needed from the query."
        )
    );
    let d = run_with(&doc, doc! {"$inc": {"items.$.q": 10}}, &[], Some(0))
        .unwrap()
        .unwrap();
    assert_eq!(d.get_array("items").unwrap()[0], bson!({"q": 11}));
    // `$[]` updates every element.
    let d = run_with(&doc, doc! {"$inc": {"grades.$[]": 1}}, &[], None)
        .unwrap()
        .unwrap();
    assert_eq!(
        d.get_array("grades").unwrap(),
        &vec![bson!(81), bson!(86), bson!(91)]
    );
    // `$[x]` updates the elements the filter selects.
    let d = run_with(
        &doc,
        doc! {"$set": {"grades.$[g]": 100, "items.$[it].q": 0}},
        &[doc! {"g": 85}, doc! {"it.q": 2}],
        None,
    )
    .unwrap()
    .unwrap();
    assert_eq!(
        d.get_array("grades").unwrap(),
        &vec![bson!(80), bson!(100), bson!(90)]
    );
    assert_eq!(d.get_array("items").unwrap()[1], bson!({"q": 0}));
    // `$` merges with the literal position it stands for; the same leaf twice conflicts.
    let d = run_with(
        &doc,
        doc! {"$set": {"items.$.a": 1, "items.0.b": 2}},
        &[],
        Some(0),
    )
    .unwrap()
    .unwrap();
    assert_eq!(
        d.get_array("items").unwrap()[0],
        bson!({"q": 1, "a": 1, "b": 2})
    );
    let e = run_with(
        &doc,
        doc! {"$set": {"grades.$": 1, "grades.1": 2}},
        &[],
        Some(1),
    )
    .unwrap_err();
    assert_eq!(
        (e.code(), e.message.as_str()),
        (40, "Update created a conflict at 'grades.1'")
    );
    // Nested all-positional.
    let nested = doc! {"_id": 1, "m": [[1, 2], [3]]};
    let d = run_with(&nested, doc! {"$mul": {"m.$[].$[]": 10}}, &[], None)
        .unwrap()
        .unwrap();
    assert_eq!(d, doc! {"_id": 1, "m": [[10, 20], [30]]});
    let e = run_with(&doc! {"_id": 1}, doc! {"$set": {"a.$[]": 1}}, &[], None).unwrap_err();
    assert_eq!(
        e.message,
        "The path 'a' must exist in the document in order to apply array updates."
    );
}

#[test]
fn id_is_immutable() {
    let doc = doc! {"_id": 1, "a": 1};
    let msg = "Performing an update on the path '_id' would modify the immutable field '_id'";
    assert_eq!(
        error(doc.clone(), doc! {"$set": {"_id": 2}}),
        (66, msg.into())
    );
    assert_eq!(
        error(doc.clone(), doc! {"$unset": {"_id": 1}}),
        (66, msg.into())
    );
    assert_eq!(
        error(doc.clone(), doc! {"$inc": {"_id": 1}}),
        (66, msg.into())
    );
    assert_eq!(run(doc.clone(), doc! {"$set": {"_id": 1}}).unwrap(), None);
    let e = error(doc! {"_id": {"x": 1}}, doc! {"$set": {"_id.x": 2}});
    assert_eq!(
        e,
        (
            66,
            "Performing an update on the path '_id.x' would modify the immutable field '_id'"
                .into()
        )
    );
    let e = error(doc, doc! {"_id": 2, "a": 1});
    assert_eq!(e.0, 66);
}

#[test]
fn replacement_keeps_the_id() {
    let d = updated(doc! {"_id": 1, "a": 1}, doc! {"b": 2});
    assert_eq!(d, doc! {"_id": 1, "b": 2});
    let d = updated(doc! {"_id": 1, "a": 1}, doc! {});
    assert_eq!(d, doc! {"_id": 1});
}

fn upserted(query: Document, u: Document) -> Result<Document> {
    let filters = ArrayFilters::none();
    UpdateSpec::parse(&Bson::Document(u), &filters)?.upsert_document(&query, &env(&filters, None))
}

#[test]
fn upserts_seed_from_the_query_as_the_manual_shows() {
    // db.people.updateOne({name: "Andy"}, {$inc: {score: 1}}, {upsert: true})
    assert_eq!(
        upserted(doc! {"name": "Andy"}, doc! {"$inc": {"score": 1}}).unwrap(),
        doc! {"name": "Andy", "score": 1}
    );
    // $setOnInsert acts on insert only.
    assert_eq!(
        upserted(
            doc! {"_id": 1},
            doc! {"$set": {"item": "apple"}, "$setOnInsert": {"defaultQty": 100}}
        )
        .unwrap(),
        doc! {"_id": 1, "defaultQty": 100, "item": "apple"}
    );
    // Operator conditions do not seed; equalities in $and and dotted paths do.
    assert_eq!(
        upserted(
            doc! {"name": "Lisa", "age": {"$gt": 18}, "$and": [{"address.city": "NY"}]},
            doc! {"$set": {"ok": true}}
        )
        .unwrap(),
        doc! {"address": {"city": "NY"}, "name": "Lisa", "ok": true}
    );
    // A replacement keeps only the query's _id.
    assert_eq!(
        upserted(doc! {"_id": 3, "name": "x"}, doc! {"name": "y"}).unwrap(),
        doc! {"_id": 3, "name": "y"}
    );
    // Changing the query's _id is refused.
    let e = upserted(doc! {"_id": 3}, doc! {"$set": {"_id": 4}}).unwrap_err();
    assert_eq!(e.code(), 66);
    // An _id document may not hold $-prefixed names.
    let e = upserted(doc! {}, doc! {"$set": {"_id": {"$b": 2, "c": 3}}}).unwrap_err();
    assert_eq!(
        (e.code(), e.message.as_str()),
        (
            52,
            "_id fields may not contain '$'-prefixed fields: $b is not valid for storage."
        )
    );
    // Without a query _id, an upsert may set one; it goes first when stored.
    assert_eq!(
        upserted(doc! {"a": 1}, doc! {"$set": {"_id": 5}}).unwrap(),
        doc! {"a": 1, "_id": 5}
    );
    // Dotted _id paths must be exact.
    let e = upserted(
        doc! {"_id.name": "Robert Frost", "_id.uid": 0},
        doc! {"$set": {"x": 1}},
    )
    .unwrap_err();
    assert_eq!(e.code(), 111);
}

/// Bad updates and the codes MongoDB 8.0 returns for them.
#[test]
fn bad_update_table() {
    let d = doc! {"_id": 1, "a": 1, "s": "text", "arr": [1, 2], "obj": {"x": 1}};
    let cases: Vec<(Document, Vec<Document>, i32, &str)> = vec![
        (
            doc! {"$foo": {"a": 1}},
            vec![],
            9,
            "Unknown modifier: $foo. Expected a valid update modifier or pipeline-style update specified as an array",
        ),
        (
            doc! {"$set": {"a": 1}, "b": 1},
            vec![],
            9,
            "Unknown modifier: b. Expected a valid update modifier or pipeline-style update specified as an array",
        ),
        (
            doc! {"$set": 5},
            vec![],
            9,
            "Modifiers operate on fields but we found type int instead. For example: {$mod: {<field>: ...}} not {$set: 5}",
        ),
        (
            doc! {"$set": {"": 1}},
            vec![],
            56,
            "An empty update path is not valid.",
        ),
        (
            doc! {"$set": {"a..b": 1}},
            vec![],
            56,
            "The update path 'a..b' contains an empty field name, which is not allowed.",
        ),
        (
            doc! {"$set": {"a.": 1}},
            vec![],
            56,
            "The update path 'a.' contains an empty field name, which is not allowed.",
        ),
        (
            doc! {"$set": {"a": 1}, "$inc": {"a": 1}},
            vec![],
            40,
            "Updating the path 'a' would create a conflict at 'a'",
        ),
        (
            doc! {"$set": {"a": 1, "a.b": 1}},
            vec![],
            40,
            "Updating the path 'a.b' would create a conflict at 'a'",
        ),
        (
            doc! {"$set": {"obj.x": 1}, "$unset": {"obj": 1}},
            vec![],
            40,
            "Updating the path 'obj' would create a conflict at 'obj'",
        ),
        (
            doc! {"$rename": {"a": "b"}, "$set": {"b": 1}},
            vec![],
            40,
            "Updating the path 'b' would create a conflict at 'b'",
        ),
        (
            doc! {"$inc": {"a": "x"}},
            vec![],
            14,
            "Cannot increment with non-numeric argument: {a: \"x\"}",
        ),
        (
            doc! {"$mul": {"a": true}},
            vec![],
            14,
            "Cannot multiply with non-numeric argument: {a: true}",
        ),
        (
            doc! {"$inc": {"s": 1}},
            vec![],
            14,
            "Cannot apply $inc to a value of non-numeric type. {_id: 1} has the field 's' of non-numeric type string",
        ),
        (
            doc! {"$mul": {"obj": 2}},
            vec![],
            14,
            "Cannot apply $mul to a value of non-numeric type. {_id: 1} has the field 'obj' of non-numeric type object",
        ),
        (
            doc! {"$push": {"a": 1}},
            vec![],
            2,
            "The field 'a' must be an array but is of type int in document {_id: 1}",
        ),
        (
            doc! {"$push": {"arr": {"$each": 1}}},
            vec![],
            2,
            "The argument to $each in $push must be an array but it was of type: int",
        ),
        (
            doc! {"$push": {"arr": {"$each": [], "$bad": 1}}},
            vec![],
            2,
            "Unrecognized clause in $push: $bad",
        ),
        (
            doc! {"$addToSet": {"s": 1}},
            vec![],
            2,
            "Cannot apply $addToSet to non-array field. Field named 's' has non-array type string",
        ),
        (
            doc! {"$pop": {"arr": 2}},
            vec![],
            9,
            "$pop expects 1 or -1, found: 2",
        ),
        (
            doc! {"$pop": {"a": 1}},
            vec![],
            14,
            "Path 'a' contains an element of non-array type 'int'",
        ),
        (
            doc! {"$pull": {"a": 1}},
            vec![],
            2,
            "Cannot apply $pull to a non-array value",
        ),
        (
            doc! {"$pullAll": {"arr": 1}},
            vec![],
            2,
            "$pullAll requires an array argument but was given a int",
        ),
        (
            doc! {"$bit": {"a": {"nand": 1}}},
            vec![],
            2,
            "The $bit modifier only supports 'and', 'or', and 'xor', not 'nand' which is an unknown operator: {nand: 1}",
        ),
        (
            doc! {"$bit": {"a": 1}},
            vec![],
            2,
            "The $bit modifier is not compatible with a int. You must pass in an embedded document: {$bit: {field: {and/or/xor: #}}",
        ),
        (
            doc! {"$currentDate": {"d": 1}},
            vec![],
            2,
            "int is not valid type for $currentDate. Please use a boolean ('true') or a $type expression ({$type: 'timestamp/date'}).",
        ),
        (
            doc! {"$rename": {"a": 5}},
            vec![],
            2,
            "The 'to' field for $rename must be a string: a: 5",
        ),
        (
            doc! {"$rename": {"a": "a"}},
            vec![],
            2,
            "The source and target field for $rename must differ: a",
        ),
        (
            doc! {"$set": {"$.a": 1}},
            vec![],
            2,
            "Cannot have positional (i.e. '$') element in the first position in path '$.a'",
        ),
        (
            doc! {"$set": {"arr.$.$": 1}},
            vec![],
            2,
            "Too many positional (i.e. '$') elements found in path 'arr.$.$'",
        ),
        (
            doc! {"$set": {"arr.$[x]": 1}},
            vec![],
            2,
            "No array filter found for identifier 'x' in path 'arr.$[x]'",
        ),
        (
            doc! {"$set": {"arr.$[]": 1}},
            vec![doc! {"x": 1}],
            9,
            "The array filter for identifier 'x' was not used in the update { $set: { arr.$[]: 1 } }",
        ),
        (
            doc! {"$set": {"arr.$[x]": 1}},
            vec![doc! {"x": 1}, doc! {"x": 2}],
            9,
            "Found multiple array filters with the same top-level field name x",
        ),
        (
            doc! {"$set": {"_id": 2}},
            vec![],
            66,
            "Performing an update on the path '_id' would modify the immutable field '_id'",
        ),
        (
            doc! {"$set": {"a.b": 1}},
            vec![],
            28,
            "Cannot create field 'b' in element {a: 1}",
        ),
        (
            doc! {"x": 1, "$set": {"a": 1}},
            vec![],
            52,
            "The dollar ($) prefixed field '$set' in '$set' is not allowed in the context of an update's replacement document. Consider using an aggregation pipeline with $replaceWith.",
        ),
        (
            doc! {"$set": {"$x": 1}},
            vec![],
            52,
            "The dollar ($) prefixed field '$x' in '$x' is not valid for storage.",
        ),
        (
            doc! {"$set": {"s.$[]": 1}},
            vec![],
            2,
            "Cannot apply array updates to non-array element s: \"text\"",
        ),
    ];
    assert!(cases.len() >= 30);
    for (u, filters, code, message) in cases {
        let got = run_with(&d, u.clone(), &filters, None);
        match got {
            Err(e) => assert_eq!((e.code(), e.message.as_str()), (code, message), "{u}"),
            Ok(r) => panic!("{u}: expected error {code}, got {r:?}"),
        }
    }
}

#[test]
fn paths_deeper_than_mongodb_allows_are_refused() {
    let deep = vec!["a"; 181].join(".");
    let (code, message) = error(doc! {"_id": 1}, doc! {"$set": {deep: 1}});
    assert_eq!(
        (code, message.as_str()),
        (15, "Document exceeds maximum nesting depth of 180")
    );
    let ok = vec!["a"; 180].join(".");
    assert!(
        run(doc! {"_id": 1}, doc! {"$set": {ok: 1}})
            .unwrap()
            .is_some()
    );
}

#[test]
fn pipelines_parse_and_bad_shapes_fail() {
    let filters = ArrayFilters::none();
    assert!(UpdateSpec::parse(&bson!([{"$set": {"a": 1}}]), &filters).is_ok());
    let e = UpdateSpec::parse(&bson!(5), &filters).unwrap_err();
    assert_eq!(e.code(), 9);
}

#[test]
fn dollar_prefixed_fields_can_be_modified_but_not_created() {
    let d = doc! {"_id": "E123", "address": {"$street": "Elm Road"}, "$rooms": 2};
    let out = updated(d.clone(), doc! {"$set": {"address.$street": "Elm Ave"}});
    assert_eq!(
        out.get_document("address").unwrap(),
        &doc! {"$street": "Elm Ave"}
    );
    let e = error(d.clone(), doc! {"$set": {"phone": 1, "$hotel": 320}});
    assert_eq!(
        e,
        (
            52,
            "The dollar ($) prefixed field '$hotel' in '$hotel' is not valid for storage.".into()
        )
    );
    let e = error(d.clone(), doc! {"$set": {"address.$zip.code": 1}});
    assert_eq!(e.0, 52);
    // Removing a missing one is nothing to do.
    assert_eq!(run(d, doc! {"$unset": {"$nothing": 1}}).unwrap(), None);
    // An upsert's insert is validated as an insert: allowed.
    assert_eq!(
        upserted(
            doc! {"date": "2021-07-07"},
            doc! {"$set": {"phone": 25, "$hotel": 320}}
        )
        .unwrap(),
        doc! {"date": "2021-07-07", "$hotel": 320, "phone": 25}
    );
}

/// Every combination of a few awkward paths, operators, operands and documents either applies
/// or returns an error: nothing panics.
#[test]
fn no_combination_panics() {
    let deep = vec!["a"; 400].join(".");
    let paths = [
        "a",
        "a.b",
        "a.0",
        "a.0.b",
        "a.5",
        "a.$",
        "a.$.b",
        "a.$[]",
        "a.$[].b",
        "a.$[x]",
        "a.$[x].b",
        "_id",
        "_id.x",
        "$",
        "$x",
        "a..b",
        "",
        "a.",
        "a.2000000",
        "a.1000",
        "a.99999999999999999999",
        "a.-1",
        "a.01",
        deep.as_str(),
    ];
    let operands = [
        Bson::Int32(1),
        Bson::Int64(i64::MAX),
        Bson::Double(f64::NAN),
        Bson::String("s".into()),
        Bson::Null,
        bson!([1, 2]),
        bson!({"$each": [3, 1], "$sort": 1, "$slice": -1, "$position": -5}),
        bson!({"$gte": 1}),
        bson!({"b": 1}),
        bson!({"and": 5}),
        bson!({"$type": "timestamp"}),
        Bson::Decimal128("1.5".parse().unwrap()),
    ];
    let docs = [
        doc! {"_id": 1},
        doc! {"_id": 1, "a": 5},
        doc! {"_id": 1, "a": [1, {"b": 2}, [3]]},
        doc! {"_id": 1, "a": {"b": {"c": 1}}},
        doc! {"_id": {"x": 1}, "a": []},
    ];
    let modifiers = [
        "$set",
        "$unset",
        "$inc",
        "$mul",
        "$min",
        "$max",
        "$currentDate",
        "$push",
        "$addToSet",
        "$pop",
        "$pull",
        "$pullAll",
        "$bit",
        "$setOnInsert",
    ];
    let filters = [doc! {"x": {"$gt": 1}}];
    let mut outcomes = 0;
    for modifier in modifiers {
        for path in paths {
            for operand in &operands {
                let mut fields = Document::new();
                fields.insert(path, operand.clone());
                let mut u = Document::new();
                u.insert(modifier, fields);
                let (filters, position): (&[Document], _) = if path.contains("$[x]") {
                    (&filters, None)
                } else {
                    (&[], Some(1))
                };
                for d in &docs {
                    outcomes += usize::from(run_with(d, u.clone(), filters, position).is_ok());
                }
            }
        }
    }
    assert!(outcomes > 0);
    // Renames between awkward paths too.
    for from in paths {
        for to in paths {
            for d in &docs {
                let _ = run(d.clone(), doc! {"$rename": {from: to}});
            }
        }
    }
}

#[test]
fn a_sorted_push_counts_as_a_modification_even_when_nothing_moves() {
    let sorted = doc! {"_id": 1, "a": [1, 2, 3]};
    assert_eq!(
        updated(
            sorted.clone(),
            doc! {"$push": {"a": {"$each": [], "$sort": 1}}}
        ),
        sorted
    );
    // Without $sort, an empty $each that trims nothing is a no-op.
    assert_eq!(
        run(sorted, doc! {"$push": {"a": {"$each": [], "$slice": 5}}}).unwrap(),
        None
    );
}

/// Array-filter children that select the same element are merged for that element, so two of
/// them reaching one field conflict at run time, and only then (MongoDB's UpdateArrayNode::apply;
/// jstests/core/update_arrayFilters.js, "Nested array update conflict detection").
#[test]
fn array_filters_selecting_one_element_merge_and_conflict_at_run_time() {
    let conflict =
        |doc: Document, u: Document, filters: &[Document]| match run_with(&doc, u, filters, None) {
            Err(e) => (e.code(), e.message),
            other => panic!("expected a conflict, got {other:?}"),
        };
    let two = doc! {"_id": 0, "a": [{"x": 0, "b": [{"y": 0, "c": 0}]}, {"x": 1, "b": [{"y": 0, "c": 0}]}]};
    let u = doc! {"$set": {"a.$[i].b.$[k].c": 1, "a.$[j].b.$[k].c": 2}};
    assert_eq!(
        conflict(
            two.clone(),
            u.clone(),
            &[doc! {"i.x": 0}, doc! {"j.x": 0}, doc! {"k.y": 0}]
        ),
        (40, "Update created a conflict at 'a.0.b.$[k].c'".into())
    );
    // Disjoint filters: each element gets one of the two.
    assert_eq!(
        run_with(
            &two,
            u,
            &[doc! {"i.x": 0}, doc! {"j.x": 1}, doc! {"k.y": 0}],
            None
        )
        .unwrap(),
        Some(
            doc! {"_id": 0, "a": [{"x": 0, "b": [{"y": 0, "c": 1}]}, {"x": 1, "b": [{"y": 0, "c": 2}]}]}
        )
    );
    // Different identifiers below: the conflict is found in the inner array.
    let three = doc! {"_id": 0, "a": [{"x": 0, "b": [{"y": 0, "c": 0}]}, {"x": 1, "b": [{"y": 0, "c": 0}, {"y": 1, "c": 0}]}]};
    assert_eq!(
        conflict(
            three,
            doc! {"$set": {"a.$[i].b.$[k].c": 1, "a.$[j].b.$[m].c": 2}},
            &[
                doc! {"i.x": 0},
                doc! {"j.x": 0},
                doc! {"k.y": 0},
                doc! {"m.y": 0}
            ]
        ),
        (40, "Update created a conflict at 'a.0.b.0.c'".into())
    );
    // Different fields of one element merge without conflict.
    assert_eq!(
        run_with(
            &doc! {"_id": 0, "a": [{"x": 0, "b": [{"y": 0, "c": 0, "d": 0}]}]},
            doc! {"$set": {"a.$[i].b.$[k].c": 1, "a.$[j].b.$[k].d": 1}},
            &[doc! {"i.x": 0}, doc! {"j.x": 0}, doc! {"k.y": 0}],
            None
        )
        .unwrap(),
        Some(doc! {"_id": 0, "a": [{"x": 0, "b": [{"y": 0, "c": 1, "d": 1}]}]})
    );
    assert_eq!(
        conflict(
            doc! {"_id": 0, "a": [1, 2]},
            doc! {"$set": {"a.$[]": 0, "a.$[i]": 1}},
            &[doc! {"i": 2}]
        ),
        (40, "Update created a conflict at 'a.1'".into())
    );
}
