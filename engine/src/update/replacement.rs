//! Replacement-style updates: the new contents keep the document's `_id`.

use bson::Document;

use bson::Bson;

use super::identical::identical_documents;
use crate::error::{Error, ErrorCode, Result};
use crate::value::compare_values_simple;
use crate::value::display::key_value;

fn altered(new: &Bson) -> Error {
    Error::new(
        ErrorCode::ImmutableField,
        format!(
            "After applying the update, the (immutable) field '_id' was found to have been altered to _id: {}",
            key_value(new)
        ),
    )
}

/// The replaced document, or `None` when the replacement is the current document exactly. The
/// `_id` (kept from the document when the replacement has none) comes first; a replacement's
/// `_id` must equal the document's as a value (`1.0` may replace `1`). As MongoDB's
/// ObjectReplaceExecutor, the no-op test compares the document with the replacement as given,
/// before the `_id` is restored: replacing `{_id: 0}` by `{}` is a write (counted modified,
/// checked by the validator; jstests/libs/assert_schema_match.js relies on it).
pub fn replace(original: &Document, replacement: &Document) -> Result<Option<Document>> {
    if identical_documents(replacement, original) {
        return Ok(None);
    }
    let mut out = Document::new();
    match (original.get("_id"), replacement.get("_id")) {
        (Some(old), Some(new)) if compare_values_simple(old, new).is_ne() => {
            return Err(altered(new));
        }
        (_, Some(new)) => {
            out.insert("_id", new.clone());
        }
        (Some(old), None) => {
            out.insert("_id", old.clone());
        }
        (None, None) => {}
    }
    for (k, v) in replacement {
        if k != "_id" {
            out.insert(k.clone(), v.clone());
        }
    }
    Ok(Some(out))
}

/// An upsert's replacement: the query's `_id` (if any) joins a replacement that lacks one, and
/// must not differ from one the replacement has.
pub fn replacement_for_insert(seed: &Document, replacement: &Document) -> Result<Document> {
    match seed.get("_id") {
        Some(_) => Ok(replace(seed, replacement)?.unwrap_or_else(|| seed.clone())),
        None => Ok(replacement.clone()),
    }
}

/// Whether a value already holds what the replacement would store (used by tests).
#[cfg(test)]
fn same(a: &Document, b: &Document) -> bool {
    super::identical::identical(
        &bson::Bson::Document(a.clone()),
        &bson::Bson::Document(b.clone()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    #[test]
    fn keeps_the_id_and_rejects_changing_it() {
        let original = doc! {"_id": 1, "a": 1, "b": 2};
        let out = replace(&original, &doc! {"c": 3}).unwrap().unwrap();
        assert!(same(&out, &doc! {"_id": 1, "c": 3}));
        assert_eq!(
            replace(&original, &doc! {"_id": 1, "a": 1, "b": 2}).unwrap(),
            None
        );
        let e = replace(&original, &doc! {"_id": 2}).unwrap_err();
        assert_eq!(e.code(), 66);
        assert_eq!(
            e.message,
            "After applying the update, the (immutable) field '_id' was found to have been altered to _id: 2"
        );
        assert_eq!(
            replacement_for_insert(&doc! {"_id": 5}, &doc! {"y": 2}).unwrap(),
            doc! {"_id": 5, "y": 2}
        );
        let e = replacement_for_insert(&doc! {"_id": 2.0}, &doc! {"_id": 3, "b": 2}).unwrap_err();
        assert_eq!(e.code(), 66);
        // Equal as values is allowed, and the replacement's _id goes first.
        let out = replace(&original, &doc! {"b": 1, "_id": 1.0})
            .unwrap()
            .unwrap();
        assert_eq!(out, doc! {"_id": 1.0, "b": 1});
        assert_eq!(out.keys().next().map(String::as_str), Some("_id"));
    }

    #[test]
    fn a_replacement_without_the_id_is_a_write_even_when_nothing_changes() {
        // MongoDB's ObjectReplaceExecutor compares the document with the replacement as given.
        assert_eq!(
            replace(&doc! {"_id": 0}, &doc! {}).unwrap(),
            Some(doc! {"_id": 0})
        );
        assert_eq!(
            replace(&doc! {"_id": 1, "a": 1}, &doc! {"a": 1}).unwrap(),
            Some(doc! {"_id": 1, "a": 1})
        );
        assert_eq!(
            replace(&doc! {"_id": 1, "a": 1}, &doc! {"_id": 1, "a": 1}).unwrap(),
            None
        );
    }
}
