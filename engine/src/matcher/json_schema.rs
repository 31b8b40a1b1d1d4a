//! `$jsonSchema` (JSON Schema draft 4 as MongoDB implements it, with `bsonType`).
//!
//! Keywords apply only to values of their type (`minimum` ignores strings, `required` ignores
//! non-documents). Arrays are not traversed implicitly: a property's value is checked whole.
//! Supported: bsonType, type, required, properties, additionalProperties, patternProperties,
//! minProperties, maxProperties, minimum, maximum, exclusiveMinimum, exclusiveMaximum,
//! multipleOf, minLength, maxLength, pattern, enum, items, additionalItems, minItems, maxItems,
//! uniqueItems, anyOf, allOf, oneOf, not, dependencies; title and description are ignored.

use std::cmp::Ordering;

use bson::{Bson, Document};

use crate::error::{Error, ErrorCode, Result};
use crate::value::regex::QueryRegex;
use crate::value::type_set::TypeSet;
use crate::value::{Decimal, compare_values, values_equal};

/// A parsed schema.
#[derive(Debug, Clone, Default)]
pub struct Schema {
    /// The schema as given (for explain).
    source: Document,
    types: Option<TypeSet>,
    required: Vec<String>,
    properties: Vec<(String, Schema)>,
    additional_properties: Option<Additional>,
    pattern_properties: Vec<(QueryRegex, Schema)>,
    min_properties: Option<usize>,
    max_properties: Option<usize>,
    minimum: Option<(Bson, bool)>,
    maximum: Option<(Bson, bool)>,
    multiple_of: Option<Bson>,
    min_length: Option<usize>,
    max_length: Option<usize>,
    pattern: Option<QueryRegex>,
    enumeration: Option<Vec<Bson>>,
    items: Option<Items>,
    additional_items: Option<Additional>,
    min_items: Option<usize>,
    max_items: Option<usize>,
    unique_items: bool,
    any_of: Vec<Schema>,
    all_of: Vec<Schema>,
    one_of: Vec<Schema>,
    not: Option<Box<Schema>>,
    dependencies: Vec<(String, Dependency)>,
}

#[derive(Debug, Clone)]
enum Additional {
    Allowed(bool),
    Schema(Box<Schema>),
}

#[derive(Debug, Clone)]
enum Items {
    All(Box<Schema>),
    Tuple(Vec<Schema>),
}

#[derive(Debug, Clone)]
enum Dependency {
    Fields(Vec<String>),
    Schema(Box<Schema>),
}

fn failed(message: impl Into<String>) -> Error {
    Error::new(ErrorCode::FailedToParse, message)
}

fn mismatch(keyword: &str, what: &str) -> Error {
    Error::type_mismatch(format!("$jsonSchema keyword '{keyword}' must be {what}"))
}

impl Schema {
    /// Parses a `$jsonSchema` document.
    pub fn parse(d: &Document) -> Result<Schema> {
        let mut s = Schema {
            source: d.clone(),
            ..Schema::default()
        };
        let (mut has_type, mut has_bson_type) = (false, false);
        let mut exclusive_min = false;
        let mut exclusive_max = false;
        for (k, v) in d {
            match k.as_str() {
                "bsonType" => {
                    has_bson_type = true;
                    s.types = Some(parse_types(k, v, TypeSet::from_alias)?);
                }
                "type" => {
                    has_type = true;
                    s.types = Some(parse_types(k, v, json_type)?);
                }
                "required" => s.required = parse_required(v)?,
                "properties" => {
                    let Bson::Document(props) = v else {
                        return Err(mismatch(k, "an object"));
                    };
                    for (name, sub) in props {
                        let Bson::Document(sub) = sub else {
                            return Err(Error::type_mismatch(format!(
                                "Nested schema for $jsonSchema property '{name}' must be an object"
                            )));
                        };
                        s.properties.push((name.clone(), Schema::parse(sub)?));
                    }
                }
                "additionalProperties" => s.additional_properties = Some(parse_additional(k, v)?),
                "patternProperties" => {
                    let Bson::Document(props) = v else {
                        return Err(mismatch(k, "an object"));
                    };
                    for (pattern, sub) in props {
                        let Bson::Document(sub) = sub else {
                            return Err(mismatch(k, "an object whose values are objects"));
                        };
                        s.pattern_properties
                            .push((QueryRegex::new(pattern, "")?, Schema::parse(sub)?));
                    }
                }
                "minProperties" => s.min_properties = Some(non_negative(k, v)?),
                "maxProperties" => s.max_properties = Some(non_negative(k, v)?),
                "minimum" => s.minimum = Some((number(k, v)?, false)),
                "maximum" => s.maximum = Some((number(k, v)?, false)),
                "exclusiveMinimum" => exclusive_min = boolean(k, v)?,
                "exclusiveMaximum" => exclusive_max = boolean(k, v)?,
                "multipleOf" => {
                    let n = number(k, v)?;
                    if compare_values(&n, &Bson::Int32(0)) != Ordering::Greater {
                        return Err(failed(
                            "$jsonSchema keyword 'multipleOf' must have a positive value",
                        ));
                    }
                    s.multiple_of = Some(n);
                }
                "minLength" => s.min_length = Some(non_negative(k, v)?),
                "maxLength" => s.max_length = Some(non_negative(k, v)?),
                "pattern" => {
                    let Bson::String(p) = v else {
                        return Err(mismatch(k, "a string"));
                    };
                    s.pattern = Some(QueryRegex::new(p, "")?);
                }
                "enum" => {
                    let Bson::Array(items) = v else {
                        return Err(mismatch(k, "an array"));
                    };
                    if items.is_empty() {
                        return Err(failed(
                            "$jsonSchema keyword 'enum' cannot be an empty array",
                        ));
                    }
                    s.enumeration = Some(items.clone());
                }
                "items" => {
                    s.items = Some(match v {
                        Bson::Document(sub) => Items::All(Box::new(Schema::parse(sub)?)),
                        Bson::Array(subs) => Items::Tuple(parse_schema_array(k, subs, true)?),
                        _ => return Err(mismatch(k, "an array or an object")),
                    });
                }
                "additionalItems" => s.additional_items = Some(parse_additional(k, v)?),
                "minItems" => s.min_items = Some(non_negative(k, v)?),
                "maxItems" => s.max_items = Some(non_negative(k, v)?),
                "uniqueItems" => s.unique_items = boolean(k, v)?,
                "anyOf" | "allOf" | "oneOf" => {
                    let Bson::Array(subs) = v else {
                        return Err(mismatch(k, "an array"));
                    };
                    let parsed = parse_schema_array(k, subs, false)?;
                    match k.as_str() {
                        "anyOf" => s.any_of = parsed,
                        "allOf" => s.all_of = parsed,
                        _ => s.one_of = parsed,
                    }
                }
                "not" => {
                    let Bson::Document(sub) = v else {
                        return Err(mismatch(k, "an object"));
                    };
                    s.not = Some(Box::new(Schema::parse(sub)?));
                }
                "dependencies" => {
                    let Bson::Document(deps) = v else {
                        return Err(mismatch(k, "an object"));
                    };
                    for (name, dep) in deps {
                        let dep = match dep {
                            Bson::Document(sub) => {
                                Dependency::Schema(Box::new(Schema::parse(sub)?))
                            }
                            Bson::Array(_) => Dependency::Fields(parse_required(dep)?),
                            _ => {
                                return Err(Error::type_mismatch(format!(
                                    "property '{name}' in $jsonSchema keyword 'dependencies' \
                                     must be either an object or an array"
                                )));
                            }
                        };
                        s.dependencies.push((name.clone(), dep));
                    }
                }
                "title" | "description" => {
                    if !matches!(v, Bson::String(_)) {
                        return Err(mismatch(k, "a string"));
                    }
                }
                "$ref" | "$schema" | "default" | "definitions" | "format" | "id" => {
                    return Err(failed(format!(
                        "$jsonSchema keyword '{k}' is not currently supported"
                    )));
                }
                other => return Err(failed(format!("Unknown $jsonSchema keyword: {other}"))),
            }
        }
        if has_type && has_bson_type {
            return Err(failed(
                "Cannot specify both $jsonSchema keywords 'type' and 'bsonType'",
            ));
        }
        if exclusive_min {
            match &mut s.minimum {
                Some((_, ex)) => *ex = true,
                None => {
                    return Err(failed(
                        "$jsonSchema keyword 'minimum' must be a present if exclusiveMinimum is \
                         present",
                    ));
                }
            }
        }
        if exclusive_max {
            match &mut s.maximum {
                Some((_, ex)) => *ex = true,
                None => {
                    return Err(failed(
                        "$jsonSchema keyword 'maximum' must be a present if exclusiveMaximum is \
                         present",
                    ));
                }
            }
        }
        Ok(s)
    }

    /// The schema document as given.
    pub fn source(&self) -> &Document {
        &self.source
    }

    /// Whether a document satisfies the schema. JSON Schema compares values binary whatever
    /// collation the query or the collection has (MongoDB's `InternalSchemaEqMatchExpression`
    /// has no collator; jstests/core/doc_validation.js: a `$jsonSchema` validator's `enum`
    /// ignores the collection's case-insensitive collation).
    pub fn matches(&self, doc: &Document) -> bool {
        let _binary = crate::collation::CollationScope::enter(None);
        self.validate(&Bson::Document(doc.clone()))
    }

    /// Whether a value satisfies the schema.
    pub fn validate(&self, v: &Bson) -> bool {
        if let Some(types) = &self.types
            && !types.contains(v)
        {
            return false;
        }
        if let Some(e) = &self.enumeration
            && !e.iter().any(|x| unordered_equal(x, v))
        {
            return false;
        }
        let ok = match v {
            Bson::Document(d) => self.validate_document(d),
            Bson::Array(items) => self.validate_array(items),
            Bson::String(s) => self.validate_string(s),
            Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_) | Bson::Decimal128(_) => {
                self.validate_number(v)
            }
            _ => true,
        };
        ok && self.validate_combinators(v)
    }

    fn validate_combinators(&self, v: &Bson) -> bool {
        (self.any_of.is_empty() || self.any_of.iter().any(|s| s.validate(v)))
            && self.all_of.iter().all(|s| s.validate(v))
            && (self.one_of.is_empty() || self.one_of.iter().filter(|s| s.validate(v)).count() == 1)
            && self.not.as_ref().is_none_or(|s| !s.validate(v))
    }

    fn validate_document(&self, d: &Document) -> bool {
        if !self.required.iter().all(|r| d.contains_key(r)) {
            return false;
        }
        if self.min_properties.is_some_and(|m| d.len() < m)
            || self.max_properties.is_some_and(|m| d.len() > m)
        {
            return false;
        }
        for (k, v) in d {
            let mut matched_any = false;
            if let Some((_, sub)) = self.properties.iter().find(|(name, _)| name == k) {
                matched_any = true;
                if !sub.validate(v) {
                    return false;
                }
            }
            for (re, sub) in &self.pattern_properties {
                if re.is_match(k) {
                    matched_any = true;
                    if !sub.validate(v) {
                        return false;
                    }
                }
            }
            if !matched_any {
                match &self.additional_properties {
                    Some(Additional::Allowed(false)) => return false,
                    Some(Additional::Schema(sub)) if !sub.validate(v) => return false,
                    _ => {}
                }
            }
        }
        for (name, dep) in &self.dependencies {
            if d.contains_key(name) {
                let ok = match dep {
                    Dependency::Fields(fields) => fields.iter().all(|f| d.contains_key(f)),
                    Dependency::Schema(s) => s.validate(&Bson::Document(d.clone())),
                };
                if !ok {
                    return false;
                }
            }
        }
        true
    }

    fn validate_array(&self, items: &[Bson]) -> bool {
        if self.min_items.is_some_and(|m| items.len() < m)
            || self.max_items.is_some_and(|m| items.len() > m)
        {
            return false;
        }
        if self.unique_items {
            // An ordered set decides equality as `values_equal` does, without comparing every
            // pair (a long array made that quadratic).
            let mut seen = std::collections::BTreeSet::new();
            if !items
                .iter()
                .all(|v| seen.insert(crate::value::OrderedValue(fields_sorted(v))))
            {
                return false;
            }
        }
        match &self.items {
            Some(Items::All(s)) => items.iter().all(|v| s.validate(v)),
            Some(Items::Tuple(schemas)) => {
                let head_ok = items.iter().zip(schemas).all(|(v, s)| s.validate(v));
                let rest = items.get(schemas.len()..).unwrap_or_default();
                head_ok
                    && match &self.additional_items {
                        Some(Additional::Allowed(false)) => rest.is_empty(),
                        Some(Additional::Schema(s)) => rest.iter().all(|v| s.validate(v)),
                        _ => true,
                    }
            }
            None => true,
        }
    }

    fn validate_string(&self, s: &str) -> bool {
        let len = s.chars().count();
        !(self.min_length.is_some_and(|m| len < m)
            || self.max_length.is_some_and(|m| len > m)
            || self.pattern.as_ref().is_some_and(|p| !p.is_match(s)))
    }

    fn validate_number(&self, v: &Bson) -> bool {
        if let Some((min, exclusive)) = &self.minimum {
            let ord = compare_values(v, min);
            if ord == Ordering::Less || (*exclusive && ord == Ordering::Equal) {
                return false;
            }
        }
        if let Some((max, exclusive)) = &self.maximum {
            let ord = compare_values(v, max);
            if ord == Ordering::Greater || (*exclusive && ord == Ordering::Equal) {
                return false;
            }
        }
        if let Some(m) = &self.multiple_of {
            let (x, y) = (as_f64(v), as_f64(m));
            let q = x / y;
            if !q.is_finite() || q.fract() != 0.0 {
                return false;
            }
        }
        true
    }
}

/// `v` with the fields of every object in it sorted by name: two values that differ only in
/// the order of their objects' fields become the same value.
fn fields_sorted(v: &Bson) -> Bson {
    match v {
        Bson::Document(d) => {
            let mut fields: Vec<(&String, &Bson)> = d.iter().collect();
            crate::sort_slice::sort_by(&mut fields, |a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            Bson::Document(
                fields
                    .into_iter()
                    .map(|(k, v)| (k.clone(), fields_sorted(v)))
                    .collect(),
            )
        }
        Bson::Array(items) => Bson::Array(items.iter().map(fields_sorted).collect()),
        other => other.clone(),
    }
}

/// Equality that ignores the order of objects' fields, as MongoDB's `enum` and `uniqueItems`
/// decide it (both compare with `UnorderedFieldsBSONElementComparator`:
/// `matcher/schema/expression_internal_schema_eq.h`, `…_unique_items.h`).
fn unordered_equal(a: &Bson, b: &Bson) -> bool {
    match (a, b) {
        (Bson::Document(_) | Bson::Array(_), Bson::Document(_) | Bson::Array(_)) => {
            values_equal(&fields_sorted(a), &fields_sorted(b))
        }
        _ => values_equal(a, b),
    }
}

fn as_f64(v: &Bson) -> f64 {
    Decimal::from_number(v).map_or(f64::NAN, |d| d.to_f64())
}

fn parse_types(keyword: &str, v: &Bson, alias: fn(&str) -> Option<TypeSet>) -> Result<TypeSet> {
    let names: Vec<&str> = match v {
        Bson::String(s) => vec![s.as_str()],
        Bson::Array(items) => {
            let mut out = Vec::with_capacity(items.len());
            for i in items {
                let Bson::String(s) = i else {
                    return Err(mismatch(keyword, "either a string or an array of strings"));
                };
                out.push(s.as_str());
            }
            out
        }
        _ => return Err(mismatch(keyword, "either a string or an array of strings")),
    };
    let mut names_bson = Vec::with_capacity(names.len());
    for n in names {
        if alias(n).is_none() {
            return Err(Error::bad_value(format!("Unknown type name alias: {n}")));
        }
        names_bson.push(Bson::String(
            json_type_to_bson_alias(keyword, n).to_string(),
        ));
    }
    TypeSet::parse(&Bson::Array(names_bson))
}

/// JSON Schema `type` names and the BSON types they cover.
fn json_type(name: &str) -> Option<TypeSet> {
    match name {
        "object" | "array" | "number" | "boolean" | "string" | "null" => Some(TypeSet::default()),
        _ => None,
    }
}

fn json_type_to_bson_alias<'a>(keyword: &str, name: &'a str) -> &'a str {
    if keyword == "type" && name == "boolean" {
        "bool"
    } else {
        name
    }
}

fn parse_required(v: &Bson) -> Result<Vec<String>> {
    let Bson::Array(items) = v else {
        return Err(mismatch("required", "an array"));
    };
    if items.is_empty() {
        return Err(failed(
            "$jsonSchema keyword 'required' cannot be an empty array",
        ));
    }
    let mut out: Vec<String> = Vec::with_capacity(items.len());
    for i in items {
        let Bson::String(s) = i else {
            return Err(mismatch("required", "an array of strings"));
        };
        if out.contains(s) {
            return Err(failed(
                "$jsonSchema keyword 'required' array cannot contain duplicate values",
            ));
        }
        out.push(s.clone());
    }
    Ok(out)
}

fn parse_additional(keyword: &str, v: &Bson) -> Result<Additional> {
    match v {
        Bson::Boolean(b) => Ok(Additional::Allowed(*b)),
        Bson::Document(sub) => Ok(Additional::Schema(Box::new(Schema::parse(sub)?))),
        _ => Err(mismatch(keyword, "either an object or a boolean")),
    }
}

fn parse_schema_array(keyword: &str, subs: &[Bson], allow_empty: bool) -> Result<Vec<Schema>> {
    if subs.is_empty() && !allow_empty {
        return Err(failed(format!(
            "$jsonSchema keyword '{keyword}' must be a non-empty array"
        )));
    }
    subs.iter()
        .map(|s| match s {
            Bson::Document(d) => Schema::parse(d),
            _ => Err(Error::type_mismatch(format!(
                "$jsonSchema keyword '{keyword}' must be an array of objects"
            ))),
        })
        .collect()
}

fn number(keyword: &str, v: &Bson) -> Result<Bson> {
    match v {
        Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_) | Bson::Decimal128(_) => Ok(v.clone()),
        _ => Err(mismatch(keyword, "a number")),
    }
}

fn boolean(keyword: &str, v: &Bson) -> Result<bool> {
    match v {
        Bson::Boolean(b) => Ok(*b),
        _ => Err(mismatch(keyword, "a boolean")),
    }
}

fn non_negative(keyword: &str, v: &Bson) -> Result<usize> {
    let n = match v {
        Bson::Int32(i) => i64::from(*i),
        Bson::Int64(i) => *i,
        Bson::Double(d) if d.fract() == 0.0 && d.is_finite() => *d as i64,
        Bson::Double(_) | Bson::Decimal128(_) => {
            return Err(failed(format!(
                "$jsonSchema keyword '{keyword}' must be a representable as a long long"
            )));
        }
        _ => return Err(mismatch(keyword, "a number")),
    };
    usize::try_from(n).map_err(|_| {
        failed(format!(
            "$jsonSchema keyword '{keyword}' must be a non-negative integer"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    fn check(schema: Document, d: Document) -> bool {
        Schema::parse(&schema).unwrap().matches(&d)
    }

    /// `enum` and `uniqueItems` compare objects whatever the order of their fields (MongoDB's
    /// UnorderedFieldsBSONElementComparator), nested ones too; arrays keep their order.
    #[test]
    fn enum_and_unique_items_ignore_field_order() {
        let e = doc! {"properties": {"a": {"enum": [{"name": "tiny", "size": "large"}]}}};
        assert!(check(
            e.clone(),
            doc! {"a": {"size": "large", "name": "tiny"}}
        ));
        assert!(!check(e.clone(), doc! {"a": {"size": "large"}}));
        assert!(!check(
            e,
            doc! {"a": {"size": "large", "name": "tiny", "x": 1}}
        ));
        let u = doc! {"properties": {"a": {"uniqueItems": true}}};
        assert!(!check(
            u.clone(),
            doc! {"a": [{"x": 1, "y": 1}, {"y": 1, "x": 1}]}
        ));
        assert!(!check(
            u.clone(),
            doc! {"a": [{"o": {"p": 1, "q": 2}}, {"o": {"q": 2, "p": 1}}]}
        ));
        assert!(check(u.clone(), doc! {"a": [[1, 2], [2, 1]]}));
        assert!(check(u, doc! {"a": [{"x": 1, "y": 1}, {"x": 1, "y": 2}]}));
    }

    #[test]
    fn unique_items_over_a_long_array_is_not_quadratic() {
        // 200,000 elements: comparing every pair was 2 * 10^10 comparisons.
        let s = doc! {"properties": {"a": {"uniqueItems": true}}};
        let distinct: Vec<Bson> = (0..200_000).map(Bson::Int32).collect();
        assert!(check(s.clone(), doc! {"a": distinct.clone()}));
        let mut repeated = distinct;
        // 1 and 1.0 are equal values, as before.
        repeated.push(Bson::Double(1.0));
        assert!(!check(s, doc! {"a": repeated}));
    }

    #[test]
    fn core_keywords() {
        let s = doc! {
            "bsonType": "object",
            "required": ["name", "year"],
            "properties": {
                "name": {"bsonType": "string", "minLength": 2, "pattern": "^[A-Z]"},
                "year": {"bsonType": "int", "minimum": 2017, "maximum": 3017},
                "gpa": {"bsonType": ["double"], "minimum": 0, "exclusiveMinimum": true},
                "tags": {"bsonType": "array", "items": {"bsonType": "string"}, "maxItems": 2, "uniqueItems": true},
                "kind": {"enum": ["a", "b"]},
                "n": {"type": "number"},
            },
        };
        assert!(check(s.clone(), doc! {"name": "Al", "year": 2020}));
        assert!(!check(s.clone(), doc! {"name": "Al"}));
        assert!(!check(s.clone(), doc! {"name": "al", "year": 2020}));
        assert!(!check(s.clone(), doc! {"name": "A", "year": 2020}));
        assert!(!check(s.clone(), doc! {"name": "Al", "year": 2000}));
        assert!(!check(s.clone(), doc! {"name": "Al", "year": 2020.0}));
        assert!(!check(
            s.clone(),
            doc! {"name": "Al", "year": 2020, "gpa": 0.0}
        ));
        assert!(check(
            s.clone(),
            doc! {"name": "Al", "year": 2020, "gpa": 3.5}
        ));
        assert!(!check(
            s.clone(),
            doc! {"name": "Al", "year": 2020, "tags": ["x", "x"]}
        ));
        assert!(!check(
            s.clone(),
            doc! {"name": "Al", "year": 2020, "tags": ["x", 1]}
        ));
        assert!(!check(
            s.clone(),
            doc! {"name": "Al", "year": 2020, "kind": "c"}
        ));
        assert!(check(
            s.clone(),
            doc! {"name": "Al", "year": 2020, "n": 1.5}
        ));
        assert!(!check(s, doc! {"name": "Al", "year": 2020, "n": "1"}));
    }

    #[test]
    fn additional_properties_and_combinators() {
        let s = doc! {"properties": {"_id": {}, "a": {}}, "additionalProperties": false};
        assert!(check(s.clone(), doc! {"_id": 1, "a": 1}));
        assert!(!check(s, doc! {"_id": 1, "b": 1}));
        let s =
            doc! {"properties": {"x": {"anyOf": [{"bsonType": "string"}, {"bsonType": "int"}]}}};
        assert!(check(s.clone(), doc! {"x": 1}));
        assert!(!check(s, doc! {"x": 1.5}));
        let s = doc! {"properties": {"x": {"oneOf": [{"minimum": 0}, {"maximum": 10}]}}};
        assert!(!check(s.clone(), doc! {"x": 5}));
        assert!(check(s, doc! {"x": 50}));
        let s = doc! {"properties": {"x": {"not": {"bsonType": "string"}}}};
        assert!(!check(s.clone(), doc! {"x": "s"}));
        assert!(check(s, doc! {"x": 1}));
        let s = doc! {"properties": {"x": {"allOf": [{"minimum": 0}, {"maximum": 10}]}}};
        assert!(check(s.clone(), doc! {"x": 5}));
        assert!(!check(s, doc! {"x": 11}));
    }

    #[test]
    fn parse_errors() {
        let e = |s: Document| Schema::parse(&s).unwrap_err();
        assert_eq!(
            e(doc! {"foo": 1}).message,
            "Unknown $jsonSchema keyword: foo"
        );
        assert_eq!(e(doc! {"foo": 1}).code(), 9);
        assert_eq!(
            e(doc! {"bsonType": "nope"}).message,
            "Unknown type name alias: nope"
        );
        assert_eq!(e(doc! {"required": []}).code(), 9);
        assert_eq!(e(doc! {"minimum": "x"}).code(), 14);
        assert_eq!(e(doc! {"exclusiveMinimum": true}).code(), 9);
        assert_eq!(e(doc! {"type": "object", "bsonType": "object"}).code(), 9);
        assert_eq!(e(doc! {"$ref": "#/x"}).code(), 9);
    }
}
