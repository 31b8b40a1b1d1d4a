//! Tests of document validation: validators, levels, actions and the errInfo details.

use bson::{Bson, Document, doc};

use crate::Engine;

fn engine_with_validator(options: Document) -> Engine {
    let mut e = Engine::new();
    let mut create = doc! {"create": "c"};
    create.extend(options);
    let r = e.run_command("t", &create);
    assert_eq!(r.get_f64("ok").unwrap(), 1.0, "{r}");
    e
}

fn first_write_error(r: &Document) -> Document {
    r.get_array("writeErrors").unwrap()[0]
        .as_document()
        .unwrap()
        .clone()
}

#[test]
fn inserts_failing_the_validator_are_refused_with_err_info() {
    let mut e = engine_with_validator(doc! {"validator": {"x": {"$type": "string"}}});
    let r = e.run_command(
        "t",
        &doc! {"insert": "c", "documents": [{"_id": 1, "x": "a"}, {"_id": 2, "x": 1}]},
    );
    assert_eq!(r.get_i32("n").unwrap(), 1);
    let w = first_write_error(&r);
    assert_eq!(w.get_i32("code").unwrap(), 121);
    assert_eq!(w.get_str("errmsg").unwrap(), "Document failed validation");
    assert_eq!(
        w.get_document("errInfo").unwrap(),
        &doc! {
            "failingDocumentId": 2,
            "details": {
                "operatorName": "$type",
                "specifiedAs": {"x": {"$type": "string"}},
                "reason": "type did not match",
                "consideredValue": 1,
                "consideredType": "int",
            },
        }
    );
}

#[test]
fn bypass_skips_validation() {
    let mut e = engine_with_validator(doc! {"validator": {"x": {"$exists": true}}});
    let r = e.run_command(
        "t",
        &doc! {"insert": "c", "documents": [{"_id": 1}], "bypassDocumentValidation": true},
    );
    assert_eq!(r, doc! {"n": 1, "ok": 1.0});
}

#[test]
fn updates_are_checked_and_moderate_spares_invalid_documents() {
    let mut e = engine_with_validator(doc! {"validator": {"n": {"$gte": 0}}});
    e.run_command(
        "t",
        &doc! {"insert": "c", "documents": [{"_id": 1, "n": 1}, {"_id": 2, "n": -5}], "bypassDocumentValidation": true},
    );
    let r = e.run_command(
        "t",
        &doc! {"update": "c", "updates": [{"q": {"_id": 1}, "u": {"$set": {"n": -1}}}]},
    );
    assert_eq!(first_write_error(&r).get_i32("code").unwrap(), 121);
    e.run_command("t", &doc! {"collMod": "c", "validationLevel": "moderate"});
    // The document that already failed may still be changed; the valid one may not break.
    let r = e.run_command(
        "t",
        &doc! {"update": "c", "updates": [{"q": {"_id": 2}, "u": {"$set": {"n": -6}}}]},
    );
    assert_eq!(r, doc! {"n": 1, "nModified": 1, "ok": 1.0});
    let r = e.run_command(
        "t",
        &doc! {"update": "c", "updates": [{"q": {"_id": 1}, "u": {"$set": {"n": -1}}}]},
    );
    assert_eq!(first_write_error(&r).get_i32("code").unwrap(), 121);
}

#[test]
fn find_and_modify_reports_err_info_at_the_top() {
    let mut e = engine_with_validator(doc! {"validator": {"x": {"$type": "string"}}});
    e.run_command(
        "t",
        &doc! {"insert": "c", "documents": [{"_id": 1, "x": "foo"}]},
    );
    let r = e.run_command(
        "t",
        &doc! {"findAndModify": "c", "query": {"_id": 1}, "update": {"$set": {"x": 1}}},
    );
    assert_eq!(r.get_i32("code").unwrap(), 121);
    assert_eq!(
        r.get_document("errInfo").unwrap().get("failingDocumentId"),
        Some(&Bson::Int32(1))
    );
}

#[test]
fn warn_and_off_let_writes_through() {
    for options in [
        doc! {"validator": {"x": 1}, "validationAction": "warn"},
        doc! {"validator": {"x": 1}, "validationLevel": "off"},
    ] {
        let mut e = engine_with_validator(options);
        let r = e.run_command("t", &doc! {"insert": "c", "documents": [{"x": 2}]});
        assert_eq!(r, doc! {"n": 1, "ok": 1.0});
    }
}

#[test]
fn json_schema_details_name_the_rules() {
    let mut e = engine_with_validator(doc! {"validator": {"$jsonSchema": {
        "required": ["name", "year"],
        "properties": {"year": {"bsonType": "int", "minimum": 2017}},
    }}});
    let r = e.run_command(
        "t",
        &doc! {"insert": "c", "documents": [{"_id": 1, "year": 2000}]},
    );
    let info = first_write_error(&r)
        .get_document("errInfo")
        .unwrap()
        .clone();
    assert_eq!(
        info.get_document("details").unwrap(),
        &doc! {
            "operatorName": "$jsonSchema",
            "schemaRulesNotSatisfied": [
                {"operatorName": "required", "specifiedAs": {"required": ["name", "year"]}, "missingProperties": ["name"]},
                {"operatorName": "properties", "propertiesNotSatisfied": [
                    {"propertyName": "year", "details": [
                        {"operatorName": "minimum", "specifiedAs": {"minimum": 2017}, "reason": "comparison failed", "consideredValue": 2000},
                    ]},
                ]},
            ],
        }
    );
}

#[test]
fn the_validator_compares_by_the_collections_collation_and_json_schema_stays_binary() {
    let ci = doc! {"locale": "en_US", "strength": 2};
    for (validator, collated) in [
        (doc! {"a": "xyz"}, true),
        (doc! {"a": {"$in": ["xyz", "qqq"]}}, true),
        (
            doc! {"$jsonSchema": {"properties": {"a": {"enum": ["xyz"]}}}},
            false,
        ),
    ] {
        let mut e =
            engine_with_validator(doc! {"validator": validator.clone(), "collation": ci.clone()});
        for (n, value) in ["XYZ", "xYz"].into_iter().enumerate() {
            let r = e.run_command(
                "t",
                &doc! {"insert": "c", "documents": [{"_id": n as i32, "a": value}]},
            );
            let refused = r.get_array("writeErrors").is_ok();
            assert_eq!(refused, !collated, "{validator} {value}: {r}");
        }
        // A write under the simple collation is still checked by the collection's.
        let r = e.run_command(
            "t",
            &doc! {"update": "c", "updates": [{"q": {}, "u": {"$set": {"a": "XyZ"}},
            "upsert": true, "collation": {"locale": "simple"}}]},
        );
        assert_eq!(
            r.get_array("writeErrors").is_ok(),
            !collated,
            "{validator}: {r}"
        );
        let r = e.run_command("t", &doc! {"insert": "c", "documents": [{"a": "nope"}]});
        assert!(r.get_array("writeErrors").is_ok(), "{validator}: {r}");
    }
}
