//! Text index keys: `(prefix..., term, score, suffix...)` for every distinct term of a document.
//! Prefix and suffix fields may not run through or hold an array, unless through a position
//! (`a.0`): CannotBuildIndexKeys, as MongoDB 8.0's `extractNonFTSKeyElement`; missing prefix or
//! suffix fields index as null.
//! A document without terms has no keys.

use std::collections::BTreeSet;

use bson::{Bson, Document};

use super::score::score_document;
use super::spec::TextSpec;
use crate::error::{Error, ErrorCode, Result};
use crate::index::keygen::DocKeys;
use crate::index::spec::IndexSpec;
use crate::value::display::key_value;

/// The value of a prefix or suffix field, read as MongoDB's FTS key generation reads it
/// (sub-documents and array positions, no array along the path or at its end), through the one
/// path walker; missing is null.
fn value_at(doc: &Document, path: &str) -> Result<Bson> {
    match crate::path::lookup_without_arrays(doc, &crate::path::FieldPath::parse(path)) {
        Ok(v) => Ok(v.cloned().unwrap_or(Bson::Null)),
        Err(crate::path::ArrayOnPath) => Err(Error::new(
            ErrorCode::CannotBuildIndexKeys,
            format!(
                "Field '{path}' of text index contains an array in document: {}",
                key_value(&Bson::Document(doc.clone()))
            ),
        )),
    }
}

/// The keys a document contributes to a text index.
pub fn doc_keys(spec: &IndexSpec, text: &TextSpec, doc: &Document) -> Result<Option<DocKeys>> {
    if !spec.covers_document(doc) {
        return Ok(None);
    }
    let prefix: Vec<Bson> = text
        .prefix
        .iter()
        .map(|f| value_at(doc, f))
        .collect::<Result<_>>()?;
    let suffix: Vec<Bson> = text
        .suffix
        .iter()
        .map(|f| value_at(doc, f))
        .collect::<Result<_>>()?;
    let scores = score_document(text, doc)?;
    let mut keys = Vec::with_capacity(scores.len());
    for (term, score) in scores {
        let mut key = prefix.clone();
        key.push(Bson::String(term));
        key.push(Bson::Double(score));
        key.extend(suffix.iter().cloned());
        keys.push(key);
    }
    // MongoDB marks an index multikey when a document gives it more than one key.
    let mut multikey_paths = vec![BTreeSet::new(); spec.parts.len()];
    if keys.len() > 1
        && let Some(p) = multikey_paths.get_mut(text.prefix.len())
    {
        p.insert(0);
    }
    Ok(Some(DocKeys {
        keys,
        multikey_paths,
        wildcard_multikey: Default::default(),
    }))
}
