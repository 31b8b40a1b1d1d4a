//! Index key generation: the keys one document contributes to an index, with MongoDB's
//! multikey rules. An array on a key path makes one key per element (an empty array indexes as
//! `undefined`, a missing field as `null`); arrays met on two different key paths are "parallel
//! arrays" and cannot be indexed (code 171). The positions of the path components that held
//! arrays are reported, for explain's `multiKeyPaths`.

use std::collections::{BTreeSet, HashSet};
use std::mem::Discriminant;

use bson::{Bson, Document};

use super::encode::encode;
use super::spec::{IndexSpec, KeyKind, KeyPart};
use crate::error::{Error, ErrorCode, Result};
use crate::path::array_index;
pub use crate::value::hashed::hash_value;

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
        let mut found = UniqueValues::default();
        let mut arrays = BTreeSet::new();
        // The walk starts at the document itself (no copy of it as a `Bson`).
        let present = part
            .path
            .parts()
            .first()
            .and_then(|name| doc.get(name))
            .is_some_and(|child| visit(child, part, 0, &mut found, &mut arrays));
        any_present |= present;
        let mut values = found.values;
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
        // MongoDB names the first array that differs from the first one met, then that one.
        let name = |p: &str| p.rsplit('.').next().unwrap_or(p).to_string();
        let first = &array_fields[0].1;
        let second = array_fields
            .iter()
            .map(|(_, p)| p)
            .find(|p| *p != first)
            .unwrap_or(first);
        return Err(Error::new(
            ErrorCode::CannotIndexParallelArrays,
            format!(
                "cannot index parallel arrays [{}] [{}]",
                name(second),
                name(first)
            ),
        ));
    }
    let count = per_part
        .iter()
        .fold(1usize, |n, values| n.saturating_mul(values.len()));
    if count > MAX_KEYS_PER_DOCUMENT {
        return Err(too_many_keys(spec, count));
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

/// The most keys one document may make in one index. Sprout combines every value of each key
/// field with every value of the others; where two fields run through the same array
/// (`{'a.b': 1, 'a.c': 1}` over `a: [{b, c}, …]`) MongoDB's key generator pairs the values of
/// one element instead, so it makes one key per element where Sprout makes the square (30,000
/// elements asked for 900 million keys, 21.6 GB). MongoDB has no such limit (its keys are
/// bounded by the 16 MiB document); this one keeps a document's keys within about 100 MiB.
pub const MAX_KEYS_PER_DOCUMENT: usize = 1 << 19;

fn too_many_keys(spec: &IndexSpec, count: usize) -> Error {
    Error::new(
        ErrorCode::ExceededMemoryLimit,
        format!(
            "cannot index the document in index '{}': its key fields' values combine into \
             {count} keys, more than Sprout's limit of {MAX_KEYS_PER_DOCUMENT} keys per \
             document (Sprout combines every value of each field with every value of the \
             others, where MongoDB pairs the fields of one array element). Index fewer fields \
             of the array, or shorten the array",
            spec.name
        ),
    )
}

/// Collects the values `part` reaches from `v` at path position `pos`. Returns whether the
/// field exists somewhere.
fn walk(
    v: &Bson,
    part: &KeyPart,
    pos: usize,
    out: &mut UniqueValues,
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
    match child {
        Some(child) => visit(child, part, pos, out, arrays),
        None => false,
    }
}

/// The value at path component `pos`: its keys (at the last component) or the walk below it.
fn visit(
    child: &Bson,
    part: &KeyPart,
    pos: usize,
    out: &mut UniqueValues,
    arrays: &mut BTreeSet<usize>,
) -> bool {
    let parts = part.path.parts();
    let last = pos + 1 == parts.len();
    match child {
        Bson::Array(items) if last => {
            arrays.insert(pos);
            if items.is_empty() {
                out.push(Bson::Undefined);
            }
            for item in items {
                out.push(item.clone());
            }
            true
        }
        _ if last => {
            out.push(child.clone());
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
                    out.push(Bson::Null);
                }
            }
            if items.is_empty() {
                out.push(Bson::Null);
            }
            true
        }
        Bson::Document(_) => walk(child, part, pos + 1, out, arrays),
        _ => false,
    }
}

/// The values one key part reaches, each kept once: a value equal to one already met (by
/// MongoDB's comparison) and of the same BSON type is dropped. The set of encodings makes this
/// linear in the number of values (a scan of the list made a 20,000-element array quadratic).
#[derive(Default)]
struct UniqueValues {
    values: Vec<Bson>,
    seen: HashSet<(Discriminant<Bson>, Vec<u8>)>,
}

impl UniqueValues {
    fn push(&mut self, v: Bson) {
        // `encode` is equal for two values exactly when they compare equal, so the type's
        // discriminant plus the encoding identifies "equal and of the same type".
        if self.seen.insert((std::mem::discriminant(&v), encode(&v))) {
            self.values.push(v);
        }
    }
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
    fn equal_values_of_one_type_make_one_key_and_of_two_types_two() {
        let s = spec(doc! {"a": 1});
        let k = doc_keys(&s, &doc! {"a": [1, 1.0, 1, 1.0, "x", "x"]})
            .unwrap()
            .unwrap();
        assert_eq!(
            k.keys,
            vec![vec![Bson::Int32(1)], vec![Bson::String("x".into())]],
            "1 and 1.0 encode alike, so one key remains"
        );
    }

    #[test]
    fn a_large_array_indexes_in_linear_time() {
        // 100,000 distinct elements (and each again): the old duplicate check compared every
        // element with every key kept so far, 5 * 10^9 comparisons; a set makes it linear.
        let s = spec(doc! {"a": 1});
        let items: Vec<Bson> = (0..200_000).map(|i| Bson::Int32(i % 100_000)).collect();
        let k = doc_keys(&s, &doc! {"a": items}).unwrap().unwrap();
        assert_eq!(k.keys.len(), 100_000);
        assert_eq!(k.keys[99_999], vec![Bson::Int32(99_999)]);
    }

    #[test]
    fn parallel_arrays_are_refused() {
        let s = spec(doc! {"a": 1, "b": 1});
        let e = doc_keys(&s, &doc! {"a": [1], "b": [2]}).unwrap_err();
        assert_eq!(e.code(), 171);
        assert_eq!(e.message, "cannot index parallel arrays [b] [a]");
        let k = doc_keys(&s, &doc! {"a": [1, 2], "b": 5}).unwrap().unwrap();
        assert_eq!(k.keys.len(), 2);
    }

    #[test]
    fn keys_of_one_document_are_capped() {
        let s = spec(doc! {"a.b": 1, "a.c": 1});
        let array = |n: i32| -> Bson {
            Bson::Array(
                (0..n)
                    .map(|i| Bson::Document(doc! {"b": i, "c": i}))
                    .collect(),
            )
        };
        let k = doc_keys(&s, &doc! {"a": array(300)}).unwrap().unwrap();
        assert_eq!(k.keys.len(), 90_000);
        let e = doc_keys(&s, &doc! {"a": array(1000)}).unwrap_err();
        assert_eq!(e.code(), 146);
        assert!(e.message.contains("1000000 keys"), "{}", e.message);
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

    #[test]
    fn hashes_match_mongodb() {
        // Values from MongoDB's own hasher tests.
        let cases: Vec<(Bson, i64)> = vec![
            (Bson::Int32(1), 5902408780260971510),
            (Bson::Double(1.987), 5902408780260971510),
            (Bson::Int64(-1), 1140205862565771219),
            (Bson::Double(f64::NAN), 4854801880128277513),
            (Bson::Double(f64::MAX), 921523596458303250),
            (Bson::Int64(i64::MIN), 4532067210535695462),
            (Bson::MinKey, 7961148599568647290),
            (Bson::MaxKey, 5504842513779440750),
            (Bson::Undefined, 40158834000849533),
            (Bson::String("abc".into()), 8478485326885698097),
            (Bson::String(String::new()), 2049396243249673340),
            (
                Bson::Document(doc! {"a": "abc", "b": 123_i64}),
                4771603801758380216,
            ),
            (Bson::Document(doc! {}), 7980500913326740417),
            (
                Bson::Array(vec!["bar".into(), "baz".into(), "qux".into()]),
                -2938911267422831539,
            ),
            (Bson::Array(vec![]), 8849948234993459283),
            (Bson::Boolean(true), 6405873908747105701),
            (Bson::Boolean(false), 6289544573401934092),
            (
                Bson::ObjectId(bson::oid::ObjectId::parse_str("010203040506070809101112").unwrap()),
                -5588663249627035708,
            ),
            (
                Bson::DateTime(bson::DateTime::from_millis(0)),
                -1178696894582842035,
            ),
        ];
        for (v, want) in cases {
            assert_eq!(hash_value(&v), Bson::Int64(want), "{v:?}");
        }
    }
}
