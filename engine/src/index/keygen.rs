//! Index key generation: the keys one document contributes to an index, with MongoDB's
//! multikey rules. An array on a key path makes one key per element (an empty array indexes as
//! `undefined`, a missing field as `null`); fields through the same array are paired per
//! element; arrays met on two different key paths are "parallel arrays" and cannot be indexed
//! (code 171). The positions of the path components that held arrays are reported, for
//! explain's `multiKeyPaths`. Text indexes have their own keys ([`super::text::keys`]); the
//! others follow MongoDB's B-tree key generator ([`super::btree_key_generator`]).

use std::collections::BTreeSet;

use bson::{Bson, Document};

pub use super::btree_key_generator::MAX_KEY_BYTES_PER_DOCUMENT;
use super::btree_key_generator::generate;
use super::spec::{IndexSpec, KeyKind};
use crate::error::Result;
pub use crate::value::hashed::hash_value;

/// The keys of one document.
#[derive(Debug, Clone, Default)]
pub struct DocKeys {
    /// Key tuples (one value per key part), without duplicates.
    pub keys: Vec<Vec<Bson>>,
    /// Per key part, the path positions at which an array was expanded.
    pub multikey_paths: Vec<BTreeSet<usize>>,
    /// A wildcard index's paths where arrays were met (dotted, without positions).
    pub wildcard_multikey: BTreeSet<String>,
}

impl DocKeys {
    pub fn is_multikey(&self) -> bool {
        self.multikey_paths.iter().any(|p| !p.is_empty())
    }
}

/// The keys `doc` contributes to the index, or `None` when the index leaves it out (a sparse
/// index and a document whose keys all lack every key field; a partial index and a
/// non-matching document). Keys follow MongoDB's B-tree key generator (see
/// [`super::btree_key_generator`]): fields through one array are paired per element.
pub fn doc_keys(spec: &IndexSpec, doc: &Document) -> Result<Option<DocKeys>> {
    if let Some(text) = &spec.text {
        return super::text::keys::doc_keys(spec, text, doc);
    }
    if !spec.covers_document(doc) {
        return Ok(None);
    }
    if let Some(wildcard) = &spec.wildcard {
        let (keys, wildcard_multikey) = wildcard.keys(doc);
        if keys.is_empty() {
            return Ok(None);
        }
        return Ok(Some(DocKeys {
            keys,
            multikey_paths: vec![BTreeSet::new(); spec.parts.len()],
            wildcard_multikey,
        }));
    }
    if super::geo_keys::is_geo(spec) {
        return super::geo_keys::doc_keys(spec, doc);
    }
    if let Some(keys) = single_top_level_key(spec, doc) {
        return Ok(keys);
    }
    let generated = generate(spec, doc)?;
    if generated.keys.is_empty() {
        // Only a sparse index skips every key of a document.
        return Ok(None);
    }
    Ok(Some(DocKeys {
        keys: generated.keys,
        multikey_paths: generated.multikey_paths,
        wildcard_multikey: BTreeSet::new(),
    }))
}

/// The common case without the generator's bookkeeping (the `_id_` index of every document
/// inserted or loaded): one ascending or descending key part on a top-level field whose value
/// is not an array makes the one key `[value]` (`[null]` when the field is missing, nothing in
/// a sparse index), exactly what [`generate`] makes of it. `None` when the generator is needed.
fn single_top_level_key(spec: &IndexSpec, doc: &Document) -> Option<Option<DocKeys>> {
    let [part] = spec.parts.as_slice() else {
        return None;
    };
    if !matches!(part.kind, KeyKind::Ascending | KeyKind::Descending) {
        return None;
    }
    let [name] = part.path.parts() else {
        return None;
    };
    let value = match crate::path::field(doc, name) {
        Some(Bson::Array(_)) => return None,
        Some(v) => v.clone(),
        None if spec.sparse => return Some(None),
        None => Bson::Null,
    };
    Some(Some(DocKeys {
        keys: vec![vec![value]],
        multikey_paths: vec![BTreeSet::new()],
        wildcard_multikey: BTreeSet::new(),
    }))
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
    fn the_single_field_shortcut_makes_the_generators_keys() {
        let specs = [
            spec(doc! {"a": 1}),
            spec(doc! {"a": -1}),
            spec(doc! {"_id": 1}),
            IndexSpec::parse(&doc! {"key": {"a": 1}, "name": "i", "sparse": true}).unwrap(),
        ];
        let docs = [
            doc! {"_id": 1, "a": 5},
            doc! {"_id": {"x": [1, 2]}, "a": {"b": [1, 2]}},
            doc! {"_id": "s", "a": null},
            doc! {"_id": 2.5},
            doc! {"_id": 3, "a": [1, 2]},
            doc! {"_id": 4, "a": []},
        ];
        for s in &specs {
            for d in &docs {
                let shortcut = doc_keys(s, d).unwrap();
                let generated = generate(s, d).unwrap();
                let expected = if generated.keys.is_empty() {
                    None
                } else {
                    Some(generated.keys)
                };
                assert_eq!(shortcut.map(|k| k.keys), expected, "{:?} over {d}", s.key);
            }
        }
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
