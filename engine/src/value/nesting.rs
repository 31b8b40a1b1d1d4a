//! How deeply documents nest, walked without recursion (a deep document must not exhaust the
//! stack that is checking it), and the other checks a document gets before it is stored.
//!
//! MongoDB's two limits: a BSON object read from the wire may nest 200 levels
//! (`BSONDepth::kDefaultMaxAllowableDepth`, checked by BSON validation: Overflow, "BSONObj
//! exceeds maximum nested object depth"); a document written to a collection may nest 180
//! (`getMaxDepthForUserStorage()`, 200 less 20 levels kept for oplog entries and replies), with
//! empty sub-documents and arrays not counting (src/mongo/db/ops/insert.cpp, `validateDepth`).

use bson::{Bson, Document};

use crate::error::{Error, ErrorCode, Result};

/// `BSONDepth::kDefaultMaxAllowableDepth`: levels below the top of a command document.
pub const MAX_BSON_DEPTH: usize = 200;
/// `BSONDepth::getMaxDepthForUserStorage()`: levels of a stored document, its top included.
pub const MAX_STORAGE_DEPTH: usize = 180;

/// The values of a document or an array, as one iterator type for the walk's stack.
enum Children<'a> {
    Document(bson::document::Iter<'a>),
    Array(std::slice::Iter<'a, Bson>),
}

impl<'a> Iterator for Children<'a> {
    type Item = (Option<&'a str>, &'a Bson);

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Children::Document(it) => it.next().map(|(k, v)| (Some(k.as_str()), v)),
            Children::Array(it) => it.next().map(|v| (None, v)),
        }
    }
}

fn children(v: &Bson) -> Option<(Children<'_>, bool)> {
    match v {
        Bson::Document(d) => Some((Children::Document(d.iter()), d.is_empty())),
        Bson::Array(a) => Some((Children::Array(a.iter()), a.is_empty())),
        _ => None,
    }
}

/// What the walk found first.
#[derive(Debug, PartialEq, Eq)]
enum Found<'a> {
    TooDeep,
    NulInKey(&'a str),
}

/// Walks `doc` depth-first. A sub-document or array that would sit at level `max + 1` (the top
/// document is level 1) makes it too deep; with `skip_empty`, empty ones do not count.
fn walk(doc: &Document, max: usize, skip_empty: bool, keys: bool) -> Option<Found<'_>> {
    let mut stack: Vec<Children<'_>> = vec![Children::Document(doc.iter())];
    while let Some(top) = stack.last_mut() {
        let Some((key, value)) = top.next() else {
            stack.pop();
            continue;
        };
        if keys && let Some(k) = key.filter(|k| k.contains('\0')) {
            return Some(Found::NulInKey(k));
        }
        if let Some((inner, empty)) = children(value) {
            if skip_empty && empty {
                continue;
            }
            if stack.len() >= max {
                return Some(Found::TooDeep);
            }
            stack.push(inner);
        }
    }
    None
}

/// Whether `v` nests more than `max` levels (a document or array is one level, and the
/// documents and arrays inside it add theirs).
pub fn value_deeper_than(v: &Bson, max: usize) -> bool {
    let Some((first, _)) = children(v) else {
        return false;
    };
    if max == 0 {
        return true;
    }
    let mut stack: Vec<Children<'_>> = vec![first];
    while let Some(top) = stack.last_mut() {
        let Some((_, value)) = top.next() else {
            stack.pop();
            continue;
        };
        if let Some((inner, _)) = children(value) {
            if stack.len() >= max {
                return true;
            }
            stack.push(inner);
        }
    }
    false
}

/// An array or object built by an expression may hold values up to 199 levels deep, so it
/// nests at most 200 levels: what MongoDB can turn into BSON (`Document::toBson`, 15 Overflow).
/// Without this a `$reduce` that wraps `$$value` in an array each time builds a value deep
/// enough to overflow the stack of everything that walks it, dropping it included.
pub fn check_built_value_depth(element: &Bson) -> Result<()> {
    if value_deeper_than(element, MAX_BSON_DEPTH - 1) {
        return Err(built_too_deep());
    }
    Ok(())
}

/// [`check_built_value_depth`] for a whole result: at most [`MAX_BSON_DEPTH`] levels.
pub fn check_value_depth(v: &Bson) -> Result<()> {
    if value_deeper_than(v, MAX_BSON_DEPTH) {
        return Err(built_too_deep());
    }
    Ok(())
}

fn built_too_deep() -> Error {
    Error::new(
        ErrorCode::Overflow,
        format!(
            "cannot convert document to BSON because it exceeds the limit of {MAX_BSON_DEPTH} \
             levels of nesting"
        ),
    )
}

/// BSON validation of a command as it arrives: at most [`MAX_BSON_DEPTH`] levels below its top.
pub fn check_command_depth(command: &Document) -> Result<()> {
    match walk(command, MAX_BSON_DEPTH + 1, false, false) {
        Some(_) => Err(Error::new(
            ErrorCode::Overflow,
            "BSONObj exceeds maximum nested object depth",
        )),
        None => Ok(()),
    }
}

/// Where a document is being stored, which decides MongoDB's message for a too-deep one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Write {
    Insert,
    Update,
}

/// The checks of a document about to be stored: nesting within [`MAX_STORAGE_DEPTH`] and no
/// field name with a NUL byte (BSON field names end at the first NUL, so MongoDB never receives
/// one: the driver refuses the document, with js-bson's message that mongosh shows).
pub fn check_storable(doc: &Document, write: Write) -> Result<()> {
    match walk(doc, MAX_STORAGE_DEPTH, true, true) {
        None => Ok(()),
        Some(Found::NulInKey(key)) => Err(Error::bad_value(format!(
            "key {key} must not contain null bytes"
        ))),
        Some(Found::TooDeep) => Err(Error::new(
            ErrorCode::Overflow,
            match write {
                Write::Insert => format!(
                    "cannot insert document because it exceeds {MAX_STORAGE_DEPTH} levels of \
                     nesting"
                ),
                Write::Update => {
                    format!("Document exceeds maximum nesting depth of {MAX_STORAGE_DEPTH}")
                }
            },
        )),
    }
}

#[cfg(test)]
mod tests {
    use bson::doc;

    use super::*;

    /// `{a: {a: … {a: 1}}}` with `levels` documents, the top one included.
    fn nested(levels: usize) -> Document {
        let mut d = doc! {"a": 1};
        for _ in 1..levels {
            d = doc! {"a": d};
        }
        d
    }

    /// `{a: [[…[1]…]]}`: the top document and `levels - 1` arrays.
    fn nested_arrays(levels: usize) -> Document {
        let mut v = Bson::Array(vec![Bson::Int32(1)]);
        for _ in 2..levels {
            v = Bson::Array(vec![v]);
        }
        doc! {"a": v}
    }

    #[test]
    fn stored_documents_may_nest_180_levels() {
        assert!(check_storable(&nested(180), Write::Insert).is_ok());
        assert!(check_storable(&nested_arrays(180), Write::Insert).is_ok());
        let e = check_storable(&nested(181), Write::Insert).unwrap_err();
        assert_eq!(
            (e.code(), e.message.as_str()),
            (
                15,
                "cannot insert document because it exceeds 180 levels of nesting"
            )
        );
        let e = check_storable(&nested_arrays(181), Write::Update).unwrap_err();
        assert_eq!(
            (e.code(), e.message.as_str()),
            (15, "Document exceeds maximum nesting depth of 180")
        );
    }

    #[test]
    fn empty_documents_at_the_limit_do_not_count() {
        let mut d = doc! {"a": {}};
        for _ in 1..180 {
            d = doc! {"a": d};
        }
        // 180 levels of non-empty documents, then an empty one below them.
        assert!(check_storable(&d, Write::Insert).is_ok());
    }

    #[test]
    fn a_very_deep_document_is_refused_without_recursion() {
        // Deep enough that a recursive walk would overflow a small stack.
        let mut v = Bson::Int32(1);
        for _ in 0..200_000 {
            v = Bson::Array(vec![v]);
        }
        let d = doc! {"a": v};
        assert_eq!(check_storable(&d, Write::Insert).unwrap_err().code(), 15);
        assert_eq!(check_command_depth(&d).unwrap_err().code(), 15);
        // Dropping a deep value recurses too; leak it rather than overflow the test's stack.
        std::mem::forget(d);
    }

    #[test]
    fn commands_may_nest_200_levels_below_the_top() {
        assert!(check_command_depth(&nested(201)).is_ok());
        let e = check_command_depth(&nested(202)).unwrap_err();
        assert_eq!(e.message, "BSONObj exceeds maximum nested object depth");
    }

    #[test]
    fn value_depth_counts_each_container() {
        let v = Bson::Array(vec![Bson::Document(doc! {"a": [1]})]);
        assert!(!value_deeper_than(&v, 3));
        assert!(value_deeper_than(&v, 2));
        assert!(!value_deeper_than(&Bson::Int32(1), 0));
    }

    #[test]
    fn field_names_with_nul_are_refused() {
        let d = doc! {"x": {"a\0b": 1}};
        let e = check_storable(&d, Write::Insert).unwrap_err();
        assert_eq!(
            (e.code(), e.message.as_str()),
            (2, "key a\0b must not contain null bytes")
        );
    }
}
