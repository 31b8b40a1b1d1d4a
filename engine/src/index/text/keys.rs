//! Text index keys: `(prefix..., term, score, suffix...)` for every distinct term of a document.
//! Prefix fields may not be arrays (code 16675); missing prefix or suffix fields index as null.
//! A document without terms has no keys.

use std::collections::BTreeSet;

use bson::{Bson, Document};

use super::score::score_document;
use super::spec::TextSpec;
use crate::error::{Error, Result};
use crate::index::keygen::DocKeys;
use crate::index::spec::IndexSpec;

/// The value of a prefix or suffix field, read as MongoDB's FTS key generation reads it
/// (`getFieldDotted`: sub-documents and array positions, no implicit array traversal), through
/// the one path walker.
fn value_at<'a>(doc: &'a Document, path: &str) -> Option<&'a Bson> {
    crate::path::lookup(doc, &crate::path::FieldPath::parse(path))
}

/// The keys a document contributes to a text index.
pub fn doc_keys(spec: &IndexSpec, text: &TextSpec, doc: &Document) -> Result<Option<DocKeys>> {
    if !spec.covers_document(doc) {
        return Ok(None);
    }
    let mut prefix = Vec::with_capacity(text.prefix.len());
    for field in &text.prefix {
        let v = value_at(doc, field).cloned().unwrap_or(Bson::Null);
        if matches!(v, Bson::Array(_)) {
            return Err(Error::location(
                16675,
                "cannot have a multi-key as a prefix to a text index",
            ));
        }
        prefix.push(v);
    }
    let suffix: Vec<Bson> = text
        .suffix
        .iter()
        .map(|f| value_at(doc, f).cloned().unwrap_or(Bson::Null))
        .collect();
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
