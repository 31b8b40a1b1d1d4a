//! Extended JSON (the specification's v2 canonical and relaxed forms) over the `bson` crate.
//!
//! The crate does the type mapping; this module adds what the specification requires and the
//! crate does not do:
//! - parsing reads the legacy `{"$regex": "…", "$options": "…"}` form as a regular expression;
//! - parsing rejects keys holding a NUL byte (such a document cannot be encoded), `{"$date": n}`
//!   with a bare number, and `$numberDecimal` strings outside the Decimal128 grammar;
//! - canonical output writes a `$numberDouble` in the corpus's form: the shortest digits that
//!   round-trip, in exponent notation (`1.2345678921232E+18`) when the decimal exponent is below
//!   -4 or at least 16, otherwise positional with at least one fractional digit (`1.0`).

use bson::{Bson, Document};
use serde_json::{Map, Value};

use super::decimal_parse::parse_decimal128;
use crate::error::Error;

/// Parses Extended JSON held in a `serde_json` value.
pub fn parse_value(mut json: Value) -> Result<Bson, Error> {
    validate(&json)?;
    legacy_regex_to_canonical(&mut json);
    Bson::try_from(json).map_err(|e| Error::bad_value(format!("invalid Extended JSON: {e}")))
}

/// The legacy `{"$regex": "<pattern>", "$options": "<flags>"}` form (both strings, nothing
/// else) is a regular expression, as the specification's parsers (and libbson) read it; with a
/// document under `$regex` it stays a query operator document. Rewritten in place: a tree with
/// no such object is walked once and not rebuilt (issue #22: the rebuild was a full copy of
/// every command).
fn legacy_regex_to_canonical(json: &mut Value) {
    match json {
        Value::Array(items) => items.iter_mut().for_each(legacy_regex_to_canonical),
        Value::Object(map) => {
            if map.len() == 2
                && let (Some(Value::String(_)), Some(Value::String(_))) =
                    (map.get("$regex"), map.get("$options"))
            {
                let mut inner = Map::new();
                if let Some(pattern) = map.remove("$regex") {
                    inner.insert("pattern".into(), pattern);
                }
                if let Some(options) = map.remove("$options") {
                    inner.insert("options".into(), options);
                }
                map.insert("$regularExpression".into(), Value::Object(inner));
                return;
            }
            map.values_mut().for_each(legacy_regex_to_canonical);
        }
        _ => {}
    }
}

/// Parses Extended JSON that must hold a document.
pub fn parse_document(json: Value) -> Result<Document, Error> {
    match parse_value(json)? {
        Bson::Document(d) => Ok(d),
        _ => Err(Error::bad_value("Extended JSON is not a document")),
    }
}

/// Canonical Extended JSON of a value.
pub fn to_canonical(value: &Bson) -> Value {
    to_json_with(value, &|leaf| match leaf {
        Bson::Double(d) => {
            let mut wrapper = Map::new();
            wrapper.insert("$numberDouble".into(), Value::String(canonical_double(*d)));
            Value::Object(wrapper)
        }
        other => other.clone().into_canonical_extjson(),
    })
}

/// JSON of a value: documents and arrays are walked here, every other value is written by
/// `leaf` (for the Extended JSON variants that write some types their own way).
pub fn to_json_with(value: &Bson, leaf: &dyn Fn(&Bson) -> Value) -> Value {
    match value {
        Bson::Document(doc) => Value::Object(
            doc.iter()
                .map(|(k, v)| (k.clone(), to_json_with(v, leaf)))
                .collect(),
        ),
        Bson::Array(items) => Value::Array(items.iter().map(|v| to_json_with(v, leaf)).collect()),
        other => leaf(other),
    }
}

/// Relaxed Extended JSON of a value (the crate's form: finite doubles are JSON numbers).
pub fn to_relaxed(value: &Bson) -> Value {
    value.clone().into_relaxed_extjson()
}

/// The `$numberDouble` text of a double in canonical Extended JSON.
pub fn canonical_double(d: f64) -> String {
    if d.is_nan() {
        return "NaN".into();
    }
    if d.is_infinite() {
        return if d > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    if d == 0.0 {
        return if d.is_sign_negative() { "-0.0" } else { "0.0" }.into();
    }
    // `{:e}` gives the shortest round-trip digits: "-1.2345678921232e18".
    let scientific = format!("{d:e}");
    let (mantissa, exponent) = scientific
        .split_once('e')
        .unwrap_or((scientific.as_str(), "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    if !(-4..16).contains(&exponent) {
        let mantissa = if mantissa.contains('.') {
            mantissa.to_string()
        } else {
            format!("{mantissa}.0")
        };
        let sign = if exponent < 0 { '-' } else { '+' };
        return format!("{mantissa}E{sign}{}", exponent.abs());
    }
    let positional = format!("{d}");
    if positional.contains('.') {
        positional
    } else {
        format!("{positional}.0")
    }
}

fn validate(json: &Value) -> Result<(), Error> {
    match json {
        Value::Array(items) => items.iter().try_for_each(validate),
        Value::Object(map) => {
            if let Some(key) = map.keys().find(|k| k.contains('\0')) {
                return Err(Error::bad_value(format!(
                    "invalid Extended JSON: the key {key:?} contains a NUL byte"
                )));
            }
            if map.len() == 1 {
                validate_wrapper(map)?;
            }
            map.values().try_for_each(validate)
        }
        _ => Ok(()),
    }
}

/// Checks the single-key type wrappers whose value the crate reads too leniently.
fn validate_wrapper(map: &Map<String, Value>) -> Result<(), Error> {
    if let Some(date) = map.get("$date")
        && date.is_number()
    {
        return Err(Error::bad_value(
            "invalid Extended JSON: $date must be an ISO-8601 string or {\"$numberLong\": …}, not a number",
        ));
    }
    if let Some(Value::String(text)) = map.get("$numberDecimal") {
        parse_decimal128(text)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn doubles_use_the_corpus_canonical_text() {
        let cases = [
            (1.0, "1.0"),
            (-1.0001220703125, "-1.0001220703125"),
            (1.2345678921232e18, "1.2345678921232E+18"),
            (-1.2345678921232e18, "-1.2345678921232E+18"),
            (1e16, "1.0E+16"),
            (123456789012345.0, "123456789012345.0"),
            (0.0001, "0.0001"),
            (0.00001, "1.0E-5"),
            (-0.0, "-0.0"),
            (f64::NAN, "NaN"),
            (f64::NEG_INFINITY, "-Infinity"),
        ];
        for (d, want) in cases {
            assert_eq!(canonical_double(d), want, "{d}");
        }
    }

    #[test]
    fn canonical_output_recurses_into_documents_and_arrays() {
        let doc = bson::doc! {"a": [1.5, {"b": 2_i64}], "c": 3};
        assert_eq!(
            to_canonical(&Bson::Document(doc)),
            json!({"a": [{"$numberDouble": "1.5"}, {"b": {"$numberLong": "2"}}],
                   "c": {"$numberInt": "3"}})
        );
    }

    #[test]
    fn parsing_rejects_what_the_specification_rejects() {
        let bad = [
            json!({"a": {"$date": 42}}),
            json!({"a\u{0}b": 1}),
            json!({"a": [{"\u{0}": 1}]}),
            json!({"d": {"$numberDecimal": "-+1"}}),
            json!({"d": {"$numberDecimal": ""}}),
        ];
        for json in bad {
            assert!(parse_document(json.clone()).is_err(), "{json}");
        }
    }

    #[test]
    fn legacy_regex_is_a_regular_expression() {
        let doc = parse_document(json!({
            "a": {"$regex": "^x", "$options": "i"},
            "b": {"$regex": {"$regularExpression": {"pattern": "p", "options": ""}}, "$options": "ix"},
            "c": {"$regex": "alone"}
        }))
        .unwrap();
        assert!(
            matches!(doc.get("a"), Some(Bson::RegularExpression(r)) if r.pattern.as_str() == "^x" && r.options.as_str() == "i")
        );
        assert!(matches!(doc.get("b"), Some(Bson::Document(d)) if d.len() == 2));
        assert!(matches!(doc.get("c"), Some(Bson::Document(_))));
    }

    #[test]
    fn parsing_accepts_valid_forms() {
        let doc = parse_document(json!({
            "a": {"$date": {"$numberLong": "0"}},
            "b": {"$date": "1970-01-01T00:00:00Z"},
            "c": {"$numberDecimal": "1.50"},
            "d": {"$numberDouble": "-0.0"}
        }))
        .unwrap();
        assert_eq!(doc.len(), 4);
        assert!(parse_document(json!([1])).is_err());
    }
}
