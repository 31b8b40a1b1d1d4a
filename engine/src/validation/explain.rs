//! The `errInfo.details` of a validation failure: which parts of the validator the document did
//! not satisfy, in MongoDB 8.0's shape (`operatorName`, `specifiedAs`, `reason`,
//! `consideredValue`, `clausesNotSatisfied`, `schemaRulesNotSatisfied`, …).
//!
//! Each clause is re-checked alone to find the failing ones. Operators whose reason wording is
//! known get it; the others are reported with their `operatorName` and `specifiedAs` only.

use bson::{Bson, Document, doc};

use crate::matcher::Filter;
use crate::matcher::json_schema::Schema;
use crate::path::{FieldPath, lookup};
use crate::value::display::type_name;

/// The details of why `doc` fails `validator` (which it is known to fail).
pub fn explain(validator: &Document, doc: &Document) -> Document {
    let clauses: Vec<Document> = validator
        .iter()
        .map(|(k, v)| doc! {k.clone(): v.clone()})
        .collect();
    match clauses.as_slice() {
        [one] => clause_details(one, doc),
        _ => and_details("$and", &clauses, doc),
    }
}

fn fails(clause: &Document, doc: &Document) -> bool {
    Filter::parse(clause).is_ok_and(|f| !f.matches(doc))
}

/// `{operatorName, clausesNotSatisfied: [{index, details}]}` over the clauses that fail.
fn and_details(op: &str, clauses: &[Document], doc: &Document) -> Document {
    let failing: Vec<Bson> = clauses
        .iter()
        .enumerate()
        .filter(|(_, c)| fails(c, doc))
        .map(|(i, c)| Bson::Document(doc! {"index": i as i32, "details": clause_details(c, doc)}))
        .collect();
    doc! {"operatorName": op, "clausesNotSatisfied": failing}
}

/// One top-level clause: a logical operator, `$jsonSchema`, `$expr`, or a field predicate.
fn clause_details(clause: &Document, doc: &Document) -> Document {
    let Some((key, value)) = clause.iter().next() else {
        return Document::new();
    };
    match (key.as_str(), value) {
        ("$and", Bson::Array(items)) => and_details("$and", &documents(items), doc),
        ("$or", Bson::Array(items)) => and_details("$or", &documents(items), doc),
        ("$nor", Bson::Array(items)) => {
            // A $nor fails through the clauses that match.
            let items = documents(items);
            let matching: Vec<Bson> = items
                .iter()
                .enumerate()
                .filter(|(_, c)| !fails(c, doc))
                .map(|(i, c)| Bson::Document(doc! {"index": i as i32, "details": doc! {"operatorName": c.keys().next().cloned().unwrap_or_default(), "specifiedAs": c.clone()}}))
                .collect();
            doc! {"operatorName": "$nor", "clausesNotSatisfied": matching}
        }
        ("$jsonSchema", Bson::Document(schema)) => json_schema_details(schema, doc),
        ("$expr", _) => doc! {
            "operatorName": "$expr",
            "specifiedAs": clause.clone(),
            "reason": "expression did not match",
            "expressionResult": false,
        },
        (field, Bson::Document(ops)) if ops.keys().next().is_some_and(|k| k.starts_with('$')) => {
            let parts: Vec<Document> = ops
                .iter()
                .map(|(op, arg)| doc! {field: {op.clone(): arg.clone()}})
                .collect();
            match parts.as_slice() {
                [one] => field_details(field, one, doc),
                _ => {
                    let failing: Vec<Bson> = parts
                        .iter()
                        .enumerate()
                        .filter(|(_, c)| fails(c, doc))
                        .map(|(i, c)| {
                            Bson::Document(
                                doc! {"index": i as i32, "details": field_details(field, c, doc)},
                            )
                        })
                        .collect();
                    doc! {"operatorName": "$and", "clausesNotSatisfied": failing}
                }
            }
        }
        (field, _) => field_details(field, clause, doc),
    }
}

fn documents(items: &[Bson]) -> Vec<Document> {
    items
        .iter()
        .filter_map(|i| i.as_document().cloned())
        .collect()
}

/// One operator on one field: `{field: {$op: arg}}` or the implicit `{field: value}` ($eq).
fn field_details(field: &str, specified: &Document, doc: &Document) -> Document {
    let op = match specified.get(field) {
        Some(Bson::Document(d)) => d.keys().next().cloned().unwrap_or_default(),
        _ => "$eq".to_string(),
    };
    let op = if op.starts_with('$') {
        op
    } else {
        "$eq".into()
    };
    let mut out = doc! {"operatorName": op.clone(), "specifiedAs": specified.clone()};
    let considered = lookup(doc, &FieldPath::parse(field));
    let reason = match (op.as_str(), considered) {
        ("$exists", None) => Some("path does not exist"),
        ("$exists", Some(_)) => Some("path does exist"),
        (_, None) => Some("field was missing"),
        ("$type", Some(_)) => Some("type did not match"),
        ("$eq" | "$gt" | "$gte" | "$lt" | "$lte", Some(_)) => Some("comparison failed"),
        ("$in", Some(_)) => Some("no matching value found in array"),
        ("$nin", Some(_)) => Some("matching value found in array"),
        ("$regex", Some(_)) => Some("regular expression did not match"),
        _ => None,
    };
    if let Some(reason) = reason {
        out.insert("reason", reason);
    }
    if let Some(v) = considered
        && op != "$exists"
    {
        out.insert("consideredValue", v.clone());
        if op == "$type" {
            out.insert("consideredType", type_name(v));
        }
    }
    out
}

/// `{operatorName: "$jsonSchema", schemaRulesNotSatisfied: [...]}` for the top-level rules
/// `required`, `properties` (per property, per keyword) and `additionalProperties`.
fn json_schema_details(schema: &Document, doc: &Document) -> Document {
    let mut rules = Vec::new();
    if let Ok(required) = schema.get_array("required") {
        let missing: Vec<Bson> = required
            .iter()
            .filter(|r| r.as_str().is_some_and(|name| !doc.contains_key(name)))
            .cloned()
            .collect();
        if !missing.is_empty() {
            rules.push(Bson::Document(doc! {
                "operatorName": "required",
                "specifiedAs": {"required": required.clone()},
                "missingProperties": missing,
            }));
        }
    }
    if let Ok(properties) = schema.get_document("properties") {
        let mut failing = Vec::new();
        for (name, sub) in properties {
            let (Some(value), Bson::Document(sub)) = (doc.get(name), sub) else {
                continue;
            };
            let details = keyword_details(sub, value);
            if !details.is_empty() {
                failing.push(Bson::Document(
                    doc! {"propertyName": name.clone(), "details": details},
                ));
            }
        }
        if !failing.is_empty() {
            rules.push(Bson::Document(doc! {
                "operatorName": "properties",
                "propertiesNotSatisfied": failing,
            }));
        }
    }
    if schema.get("additionalProperties") == Some(&Bson::Boolean(false)) {
        let allowed = schema.get_document("properties").ok();
        let extra: Vec<Bson> = doc
            .keys()
            .filter(|k| allowed.is_none_or(|p| !p.contains_key(k.as_str())))
            .map(|k| Bson::String(k.clone()))
            .collect();
        if !extra.is_empty() {
            rules.push(Bson::Document(doc! {
                "operatorName": "additionalProperties",
                "specifiedAs": {"additionalProperties": false},
                "additionalProperties": extra,
            }));
        }
    }
    doc! {"operatorName": "$jsonSchema", "schemaRulesNotSatisfied": rules}
}

/// The keywords of a property's schema that `value` fails, each checked alone.
fn keyword_details(schema: &Document, value: &Bson) -> Vec<Bson> {
    let mut out = Vec::new();
    for (keyword, arg) in schema {
        if matches!(keyword.as_str(), "description" | "title") {
            continue;
        }
        let single = doc! {keyword.clone(): arg.clone()};
        let Ok(parsed) = Schema::parse(&single) else {
            continue;
        };
        if parsed.validate(value) {
            continue;
        }
        let mut d = doc! {"operatorName": keyword.clone(), "specifiedAs": single};
        let reason = match keyword.as_str() {
            "bsonType" | "type" => Some("type did not match"),
            "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => {
                Some("comparison failed")
            }
            "enum" => Some("value was not found in enum"),
            "pattern" => Some("regular expression did not match"),
            _ => None,
        };
        if let Some(reason) = reason {
            d.insert("reason", reason);
        }
        d.insert("consideredValue", value.clone());
        if matches!(keyword.as_str(), "bsonType" | "type") {
            d.insert("consideredType", type_name(value));
        }
        out.push(Bson::Document(d));
    }
    out
}
