//! The `expireAfterSeconds` option of an index spec, checked as MongoDB 8.0's
//! `index_key_validate::validateIndexSpecTTL` does: a number, not NaN, within a 32-bit integer,
//! not negative, on a single-field key. The server wraps the value errors as
//! `". Index spec: <spec> :: caused by :: <reason>"` (a `withContext` whose prefix reads like a
//! suffix); the messages are kept as it words them, including the unclosed quote after the
//! type name.

use bson::{Bson, Document};

use crate::error::{Error, ErrorCode, Result};
use crate::value::display::{key_value, type_name};

/// The seconds of a TTL index; `None` when the spec has no `expireAfterSeconds`.
pub fn parse(spec: &Document, key_fields: usize) -> Result<Option<i64>> {
    let Some(v) = spec.get("expireAfterSeconds") else {
        return Ok(None);
    };
    let shown = key_value(&Bson::Document(spec.clone()));
    let fail = |reason: String| {
        Error::new(
            ErrorCode::CannotCreateIndex,
            format!(". Index spec: {shown} :: caused by :: {reason}"),
        )
    };
    let seconds: i64 = match v {
        Bson::Int32(i) => i64::from(*i),
        Bson::Int64(i) => *i,
        Bson::Double(d) if d.is_nan() => {
            return Err(fail(
                "TTL index 'expireAfterSeconds' option must not be NaN".into(),
            ));
        }
        // safeNumberLong: truncation, saturating at the i64 bounds.
        Bson::Double(d) => *d as i64,
        Bson::Decimal128(_) => crate::value::as_i64(v).unwrap_or(0),
        other => {
            return Err(fail(format!(
                "TTL index 'expireAfterSeconds' option must be numeric, but received a type of '{}",
                type_name(other)
            )));
        }
    };
    if i32::try_from(seconds).is_err() {
        return Err(fail(
            "TTL index 'expireAfterSeconds' must be within the range of a 32-bit integer".into(),
        ));
    }
    if seconds < 0 {
        return Err(fail(
            "TTL index 'expireAfterSeconds' option cannot be less than 0".into(),
        ));
    }
    if key_fields != 1 {
        return Err(Error::new(
            ErrorCode::CannotCreateIndex,
            format!(
                "TTL indexes are single-field indexes, compound indexes do not support TTL. Index spec: {shown}"
            ),
        ));
    }
    Ok(Some(seconds))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    fn err(spec: Document, fields: usize) -> (i32, String) {
        let e = parse(&spec, fields).unwrap_err();
        (e.code(), e.message)
    }

    #[test]
    fn accepts_whole_and_fractional_seconds() {
        let spec = doc! {"key": {"a": 1}, "name": "a_1", "expireAfterSeconds": 3600};
        assert_eq!(parse(&spec, 1).unwrap(), Some(3600));
        let spec = doc! {"key": {"a": 1}, "name": "a_1", "expireAfterSeconds": 1.9};
        assert_eq!(parse(&spec, 1).unwrap(), Some(1));
        assert_eq!(parse(&doc! {"key": {"a": 1}}, 1).unwrap(), None);
    }

    #[test]
    fn errors_are_the_servers() {
        assert_eq!(
            err(doc! {"key": {"a": 1}, "name": "a_1", "expireAfterSeconds": "x"}, 1),
            (
                67,
                ". Index spec: { key: { a: 1 }, name: \"a_1\", expireAfterSeconds: \"x\" } :: caused by :: TTL index 'expireAfterSeconds' option must be numeric, but received a type of 'string".into()
            )
        );
        assert!(
            err(doc! {"key": {"a": 1}, "expireAfterSeconds": -1}, 1)
                .1
                .ends_with("option cannot be less than 0")
        );
        assert!(
            err(doc! {"key": {"a": 1}, "expireAfterSeconds": 1_i64 << 31}, 1)
                .1
                .ends_with("within the range of a 32-bit integer")
        );
        assert!(
            err(doc! {"key": {"a": 1}, "expireAfterSeconds": f64::NAN}, 1)
                .1
                .ends_with("must not be NaN")
        );
        assert_eq!(
            err(doc! {"key": {"a": 1, "b": 1}, "expireAfterSeconds": 5}, 2),
            (
                67,
                "TTL indexes are single-field indexes, compound indexes do not support TTL. Index spec: { key: { a: 1, b: 1 }, expireAfterSeconds: 5 }".into()
            )
        );
    }
}
