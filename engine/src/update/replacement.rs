//! Replacement-style updates: the new contents keep the document's `_id`.

use bson::Document;

use super::identical::{identical, identical_documents};
use crate::error::{Error, ErrorCode, Result};
use crate::value::display::key_value;

/// The replaced document, or `None` when it would be identical to the current one.
pub fn replace(original: &Document, replacement: &Document) -> Result<Option<Document>> {
    let mut out = Document::new();
    match (original.get("_id"), replacement.get("_id")) {
        (Some(old), Some(new)) if !identical(old, new) => {
            return Err(Error::new(
                ErrorCode::ImmutableField,
                format!(
                    "After applying the update, the (immutable) field '_id' was found to have been altered to _id: {}",
                    key_value(new)
                ),
            ));
        }
        (Some(old), None) => {
            out.insert("_id", old.clone());
        }
        _ => {}
    }
    for (k, v) in replacement {
        out.insert(k.clone(), v.clone());
    }
    if identical_documents(&out, original) {
        Ok(None)
    } else {
        Ok(Some(out))
    }
}

/// An upsert's replacement: the query's `_id` (if any) joins a replacement that lacks one.
pub fn replacement_for_insert(seed: &Document, replacement: &Document) -> Document {
    let mut out = Document::new();
    if let (false, Some(id)) = (replacement.contains_key("_id"), seed.get("_id")) {
        out.insert("_id", id.clone());
    }
    for (k, v) in replacement {
        out.insert(k.clone(), v.clone());
    }
    out
}

/// Whether a value already holds what the replacement would store (used by tests).
#[cfg(test)]
fn same(a: &Document, b: &Document) -> bool {
    identical(
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
            replacement_for_insert(&doc! {"_id": 5, "x": 1}, &doc! {"y": 2}),
            doc! {"_id": 5, "y": 2}
        );
    }
}
