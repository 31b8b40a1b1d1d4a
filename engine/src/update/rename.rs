//! `$rename`: the target is set to the source's value (in place when the target exists, appended
//! when it is new) and the source is removed, as MongoDB's rename node does. Neither path may go
//! through an array, and the source path must be traversable.

use bson::{Bson, Document};

use super::apply::{LeafContext, Outcome};
use crate::error::{Error, ErrorCode, Result};
use crate::path::FieldPath;
use crate::value::display::key_value;

/// Where an exact (array-free) walk of a path ends.
enum Exact<'a> {
    Found(&'a Bson),
    Missing,
    /// The walk met an array at this field name before the path's end.
    ThroughArray(&'a str),
    /// The walk met a scalar at this field name before the path's end.
    ThroughScalar(&'a str, &'a Bson),
}

fn walk_exact<'a>(doc: &'a Document, path: &'a FieldPath) -> Exact<'a> {
    let parts = path.parts();
    let mut cur = doc;
    for (i, part) in parts.iter().enumerate() {
        let Some(v) = cur.get(part) else {
            return Exact::Missing;
        };
        if i + 1 == parts.len() {
            return Exact::Found(v);
        }
        match v {
            Bson::Document(d) => cur = d,
            Bson::Array(_) => return Exact::ThroughArray(part),
            scalar => return Exact::ThroughScalar(part, scalar),
        }
    }
    Exact::Missing
}

fn array_error(role: &str, path: &FieldPath, field: &str, cx: &LeafContext) -> Error {
    Error::bad_value(format!(
        "The {role} field cannot be an array element, '{}' in doc with {} has an array field called '{field}'",
        path.dotted(),
        cx.id_text()
    ))
}

/// The source side: removed when present.
pub fn apply_from(current: Option<&Bson>) -> Outcome {
    match current {
        Some(_) => Outcome::Remove,
        None => Outcome::Unchanged,
    }
}

/// The target side: takes the source's value from the document as it was before the update.
pub fn apply_to(
    from: &FieldPath,
    to: &FieldPath,
    current: Option<&Bson>,
    cx: &LeafContext,
) -> Result<Outcome> {
    let value = match walk_exact(cx.original, from) {
        Exact::Found(v) => v.clone(),
        Exact::Missing => return Ok(Outcome::Unchanged),
        Exact::ThroughArray(field) => return Err(array_error("source", from, field, cx)),
        Exact::ThroughScalar(field, scalar) => {
            return Err(Error::new(
                ErrorCode::PathNotViable,
                format!(
                    "cannot use the part ({field} of {}) to traverse the element ({{{field}: {}}})",
                    from.dotted(),
                    key_value(scalar)
                ),
            ));
        }
    };
    if let Exact::ThroughArray(field) = walk_exact(cx.original, to) {
        return Err(array_error("destination", to, field, cx));
    }
    match current {
        Some(existing) if super::identical::identical(existing, &value) => Ok(Outcome::Unchanged),
        _ => Ok(Outcome::Set(value)),
    }
}

/// Parse-time checks of a `{$rename: {from: to}}` pair.
pub fn check_pair(from: &str, to: &Bson) -> Result<String> {
    let Bson::String(to) = to else {
        return Err(Error::bad_value(format!(
            "The 'to' field for $rename must be a string: {from}: {}",
            key_value(to)
        )));
    };
    let dynamic = |p: &str| p.split('.').any(|c| c.starts_with('$'));
    if dynamic(from) {
        return Err(Error::bad_value(format!(
            "The source field for $rename may not be dynamic: {from}"
        )));
    }
    if dynamic(to) {
        return Err(Error::bad_value(format!(
            "The destination field for $rename may not be dynamic: {to}"
        )));
    }
    if from == to {
        return Err(Error::bad_value(format!(
            "The source and target field for $rename must differ: {from}"
        )));
    }
    let prefix =
        |a: &str, b: &str| b.len() > a.len() && b.starts_with(a) && b[a.len()..].starts_with('.');
    if prefix(from, to) || prefix(to, from) {
        return Err(Error::bad_value(format!(
            "The source and target field for $rename must not be on the same path: {from}: \"{to}\""
        )));
    }
    Ok(to.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::{bson, doc};

    #[test]
    fn reads_the_source_from_the_original_document() {
        let original = doc! {"_id": 1, "a": {"b": 5}, "arr": [{"x": 1}]};
        let cx = LeafContext::for_tests(&original, "c");
        let (from, to) = (FieldPath::parse("a.b"), FieldPath::parse("c"));
        assert!(matches!(
            apply_to(&from, &to, None, &cx).unwrap(),
            Outcome::Set(Bson::Int32(5))
        ));
        assert!(matches!(
            apply_to(&from, &to, Some(&bson!(1)), &cx).unwrap(),
            Outcome::Set(Bson::Int32(5))
        ));
        let e = apply_to(&FieldPath::parse("a.b.c"), &to, None, &cx).unwrap_err();
        assert_eq!(
            (e.code(), e.message.as_str()),
            (
                28,
                "cannot use the part (b of a.b.c) to traverse the element ({b: 5})"
            )
        );
        assert!(matches!(
            apply_to(&FieldPath::parse("zz"), &to, None, &cx).unwrap(),
            Outcome::Unchanged
        ));
        let e = apply_to(&FieldPath::parse("arr.0.x"), &to, None, &cx).unwrap_err();
        assert_eq!(
            e.message,
            "The source field cannot be an array element, 'arr.0.x' in doc with _id: 1 has an array field called 'arr'"
        );
    }

    #[test]
    fn pair_checks() {
        assert_eq!(check_pair("a", &bson!("b")).unwrap(), "b");
        let m = |f: &str, t: Bson| check_pair(f, &t).unwrap_err().message;
        assert_eq!(
            m("a", bson!("a")),
            "The source and target field for $rename must differ: a"
        );
        assert_eq!(
            m("a", bson!(1)),
            "The 'to' field for $rename must be a string: a: 1"
        );
        assert_eq!(
            m("a.$", bson!("b")),
            "The source field for $rename may not be dynamic: a.$"
        );
        assert_eq!(
            m("a", bson!("b.$[]")),
            "The destination field for $rename may not be dynamic: b.$[]"
        );
        assert!(
            m("a", bson!("a.b")).starts_with(
                "The source and target field for $rename must not be on the same path"
            )
        );
    }
}
