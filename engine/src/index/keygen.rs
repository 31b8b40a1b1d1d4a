//! Index key generation: the keys one document contributes to an index, with MongoDB's
//! multikey rules. An array on a key path makes one key per element (an empty array indexes as
//! `undefined`, a missing field as `null`); arrays met on two different key paths are "parallel
//! arrays" and cannot be indexed (code 171). The positions of the path components that held
//! arrays are reported, for explain's `multiKeyPaths`.

use std::collections::BTreeSet;

use bson::{Bson, Document};

use super::encode::encode;
use super::spec::{IndexSpec, KeyKind, KeyPart};
use crate::error::{Error, ErrorCode, Result};
use crate::path::array_index;

/// The keys of one document.
#[derive(Debug, Clone, Default)]
pub struct DocKeys {
    /// Key tuples (one value per key part), without duplicates.
    pub keys: Vec<Vec<Bson>>,
    /// Per key part, the path positions at which an array was expanded.
    pub multikey_paths: Vec<BTreeSet<usize>>,
}

impl DocKeys {
    pub fn is_multikey(&self) -> bool {
        self.multikey_paths.iter().any(|p| !p.is_empty())
    }
}

/// The keys `doc` contributes to the index, or `None` when the index leaves it out (a sparse
/// index and a document with none of the key fields; a partial index and a non-matching one).
pub fn doc_keys(spec: &IndexSpec, doc: &Document) -> Result<Option<DocKeys>> {
    if let Some(text) = &spec.text {
        return super::text::keys::doc_keys(spec, text, doc);
    }
    if !spec.covers_document(doc) {
        return Ok(None);
    }
    let mut per_part: Vec<Vec<Bson>> = Vec::with_capacity(spec.parts.len());
    let mut multikey_paths = Vec::with_capacity(spec.parts.len());
    let mut array_fields: Vec<(usize, String)> = Vec::new();
    let mut any_present = false;
    for (i, part) in spec.parts.iter().enumerate() {
        let mut values = Vec::new();
        let mut arrays = BTreeSet::new();
        let present = walk(
            &Bson::Document(doc.clone()),
            part,
            0,
            &mut values,
            &mut arrays,
        );
        any_present |= present;
        if values.is_empty() {
            values.push(Bson::Null);
        }
        if let Some(first) = arrays.iter().next() {
            let prefix = part.path.parts()[..=*first].join(".");
            array_fields.push((i, prefix));
        }
        if part.kind == KeyKind::Hashed {
            if !arrays.is_empty() {
                return Err(Error::location(
                    16766,
                    "Error: hashed indexes do not currently support array values",
                ));
            }
            values = values.iter().map(hash_value).collect();
        }
        per_part.push(values);
        multikey_paths.push(arrays);
    }
    if spec.sparse && !any_present {
        return Ok(None);
    }
    let distinct: BTreeSet<&String> = array_fields.iter().map(|(_, p)| p).collect();
    if distinct.len() > 1 {
        let names: Vec<String> = array_fields
            .iter()
            .take(2)
            .map(|(_, p)| format!("[{}]", p.rsplit('.').next().unwrap_or(p)))
            .collect();
        return Err(Error::new(
            ErrorCode::CannotIndexParallelArrays,
            format!("cannot index parallel arrays {}", names.join(" ")),
        ));
    }
    let mut keys: Vec<Vec<Bson>> = vec![Vec::new()];
    for values in per_part {
        let mut next = Vec::with_capacity(keys.len() * values.len());
        for k in &keys {
            for v in &values {
                let mut t = k.clone();
                t.push(v.clone());
                next.push(t);
            }
        }
        keys = next;
    }
    let mut seen = BTreeSet::new();
    keys.retain(|k| seen.insert(k.iter().map(encode).collect::<Vec<_>>()));
    Ok(Some(DocKeys {
        keys,
        multikey_paths,
    }))
}

/// Collects the values `part` reaches from `v` at path position `pos`. Returns whether the
/// field exists somewhere.
fn walk(
    v: &Bson,
    part: &KeyPart,
    pos: usize,
    out: &mut Vec<Bson>,
    arrays: &mut BTreeSet<usize>,
) -> bool {
    let parts = part.path.parts();
    let Some(name) = parts.get(pos) else {
        return false;
    };
    let child = match v {
        Bson::Document(d) => d.get(name),
        Bson::Array(items) => array_index(name).and_then(|i| items.get(i)),
        _ => None,
    };
    let Some(child) = child else {
        return false;
    };
    let last = pos + 1 == parts.len();
    match child {
        Bson::Array(items) if last => {
            arrays.insert(pos);
            if items.is_empty() {
                push_unique(out, Bson::Undefined);
            }
            for item in items {
                push_unique(out, item.clone());
            }
            true
        }
        _ if last => {
            push_unique(out, child.clone());
            true
        }
        Bson::Array(items) => {
            // A positional component addresses an element without expanding the array.
            if parts.get(pos + 1).and_then(|p| array_index(p)).is_some() {
                return walk(child, part, pos + 1, out, arrays);
            }
            arrays.insert(pos);
            // An element without the rest of the path indexes as null, as MongoDB's key
            // generator does (so `{"a.b": null}` finds `{a: [{b: 1}, {c: 1}]}`).
            for item in items {
                let found =
                    matches!(item, Bson::Document(_)) && walk(item, part, pos + 1, out, arrays);
                if !found {
                    push_unique(out, Bson::Null);
                }
            }
            if items.is_empty() {
                push_unique(out, Bson::Null);
            }
            true
        }
        Bson::Document(_) => walk(child, part, pos + 1, out, arrays),
        _ => false,
    }
}

fn push_unique(out: &mut Vec<Bson>, v: Bson) {
    if !out
        .iter()
        .any(|x| crate::value::compare_values(x, &v).is_eq() && same_type(x, &v))
    {
        out.push(v);
    }
}

fn same_type(a: &Bson, b: &Bson) -> bool {
    std::mem::discriminant(a) == std::mem::discriminant(b)
}

/// A hashed key: a 64-bit hash of the value's order-preserving encoding (numbers that compare
/// equal hash alike). Not bit-identical to MongoDB's MD5-based hash.
pub fn hash_value(v: &Bson) -> Bson {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in encode(v) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    Bson::Int64(h as i64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    fn spec(key: Document) -> IndexSpec {
        IndexSpec::parse(&doc! {"key": key, "name": "i"}).unwrap()
    }

    #[test]
    fn multikey_and_missing() {
        let s = spec(doc! {"a": 1});
        let k = doc_keys(&s, &doc! {"a": [1, 2, 2]}).unwrap().unwrap();
        assert_eq!(k.keys, vec![vec![Bson::Int32(1)], vec![Bson::Int32(2)]]);
        assert!(k.is_multikey());
        let k = doc_keys(&s, &doc! {"b": 1}).unwrap().unwrap();
        assert_eq!(k.keys, vec![vec![Bson::Null]]);
        let k = doc_keys(&s, &doc! {"a": []}).unwrap().unwrap();
        assert_eq!(k.keys, vec![vec![Bson::Undefined]]);
        let s = spec(doc! {"a.b": 1});
        let k = doc_keys(&s, &doc! {"a": [{"b": 1}, {"b": [2, 3]}]})
            .unwrap()
            .unwrap();
        assert_eq!(k.keys.len(), 3);
        let partly = doc_keys(&s, &doc! {"a": [{"b": 1}, {"c": 1}]})
            .unwrap()
            .unwrap();
        assert_eq!(partly.keys, vec![vec![Bson::Int32(1)], vec![Bson::Null]]);
        assert_eq!(
            k.multikey_paths[0].iter().copied().collect::<Vec<_>>(),
            [0, 1]
        );
    }

    #[test]
    fn parallel_arrays_are_refused() {
        let s = spec(doc! {"a": 1, "b": 1});
        let e = doc_keys(&s, &doc! {"a": [1], "b": [2]}).unwrap_err();
        assert_eq!(e.code(), 171);
        assert_eq!(e.message, "cannot index parallel arrays [a] [b]");
        let k = doc_keys(&s, &doc! {"a": [1, 2], "b": 5}).unwrap().unwrap();
        assert_eq!(k.keys.len(), 2);
    }

    #[test]
    fn sparse_and_partial() {
        let s = IndexSpec::parse(&doc! {"key": {"a": 1}, "name": "i", "sparse": true}).unwrap();
        assert!(doc_keys(&s, &doc! {"b": 1}).unwrap().is_none());
        assert!(doc_keys(&s, &doc! {"a": null}).unwrap().is_some());
        let s = IndexSpec::parse(
            &doc! {"key": {"a": 1}, "name": "i", "partialFilterExpression": {"a": {"$gt": 5}}},
        )
        .unwrap();
        assert!(doc_keys(&s, &doc! {"a": 1}).unwrap().is_none());
        assert!(doc_keys(&s, &doc! {"a": 6}).unwrap().is_some());
    }

    #[test]
    fn hashed_keys() {
        let s = spec(doc! {"a": "hashed"});
        let k1 = doc_keys(&s, &doc! {"a": 1}).unwrap().unwrap();
        let k2 = doc_keys(&s, &doc! {"a": 1.0}).unwrap().unwrap();
        assert_eq!(k1.keys, k2.keys);
        assert_eq!(doc_keys(&s, &doc! {"a": [1]}).unwrap_err().code(), 16766);
    }
}
