//! Secondary indexes: key specifications ([`spec`]), key generation with multikey rules
//! ([`keygen`], following MongoDB's [`btree_key_generator`]), an order-preserving byte
//! encoding of keys ([`encode`]) and the ordered index itself ([`Index`]): entries keyed by
//! the encoded key and the record id, in MongoDB's order.
//!
//! Indexes live inside their [`crate::catalog::Collection`], which maintains them on every
//! insert and removal; they are not stored, but rebuilt from the collection's catalog entry.

pub mod btree_key_generator;
pub mod encode;
pub mod geo_keys;
pub mod keygen;
pub mod spec;
pub mod text;
mod ttl_option;
pub mod usage;
pub mod wildcard;

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Bound;

use bson::{Bson, Document};

use crate::error::{Error, ErrorCode, Result};
use crate::value::display::key_value;
pub use keygen::DocKeys;
pub use spec::{ID_INDEX_NAME, IndexComparison, IndexSpec, KeyKind, KeyPart};

/// One index entry's position: the encoded key, then the record id.
pub type EntryKey = (Vec<u8>, u64);

/// An index over one collection.
#[derive(Debug, Clone)]
pub struct Index {
    pub spec: IndexSpec,
    /// Entries in key order; the value is the key as stored (one value per key part).
    entries: BTreeMap<EntryKey, Vec<Bson>>,
    /// Per key part, the path positions where some document had an array.
    multikey_paths: Vec<BTreeSet<usize>>,
    /// A wildcard index's multikey paths (dotted, without array positions).
    wildcard_multikey: BTreeSet<String>,
    /// What `$indexStats` reports as `accesses`.
    pub usage: usage::IndexUsage,
}

impl Index {
    pub fn new(spec: IndexSpec) -> Index {
        let n = spec.parts.len();
        Index {
            spec,
            entries: BTreeMap::new(),
            multikey_paths: vec![BTreeSet::new(); n],
            wildcard_multikey: BTreeSet::new(),
            usage: usage::IndexUsage::new(),
        }
    }

    pub fn name(&self) -> &str {
        &self.spec.name
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Bytes the index's entries take: each encoded key plus its 8-byte record id (what
    /// `collStats.indexSizes` reports; computed on demand).
    pub fn size_bytes(&self) -> u64 {
        self.entries.keys().map(|(k, _)| k.len() as u64 + 8).sum()
    }

    pub fn is_multikey(&self) -> bool {
        self.multikey_paths.iter().any(|p| !p.is_empty()) || !self.wildcard_multikey.is_empty()
    }

    /// A wildcard index's paths where some document had an array.
    pub fn wildcard_multikey_paths(&self) -> &BTreeSet<String> {
        &self.wildcard_multikey
    }

    /// Per key part, the path positions that held arrays (explain's `multiKeyPaths`).
    pub fn multikey_paths(&self) -> &[BTreeSet<usize>] {
        &self.multikey_paths
    }

    /// Whether the path of key part `i` (or any prefix of it) is multikey.
    pub fn part_is_multikey(&self, i: usize) -> bool {
        self.multikey_paths.get(i).is_some_and(|p| !p.is_empty())
    }

    /// Whether key parts `i` and `j` run through one array of some document: their paths share
    /// a prefix ending at a component where an array was met. Keys pair such fields per array
    /// element, so the planner must not compound their bounds (MongoDB's "compound bounds of
    /// multiple fields from the same array", allowed only under one `$elemMatch`).
    pub fn parts_share_multikey_prefix(&self, i: usize, j: usize) -> bool {
        let (Some(a), Some(b)) = (self.spec.parts.get(i), self.spec.parts.get(j)) else {
            return false;
        };
        let (a_path, b_path) = (a.path.parts(), b.path.parts());
        self.multikey_paths[i]
            .iter()
            .chain(&self.multikey_paths[j])
            .any(|&p| p < a_path.len() && p < b_path.len() && a_path[..=p] == b_path[..=p])
    }

    /// The keys a document contributes (see [`keygen::doc_keys`]).
    pub fn keys_for(&self, doc: &Document) -> Result<Option<DocKeys>> {
        keygen::doc_keys(&self.spec, doc)
    }

    /// Encodes a key tuple, inverting descending parts.
    pub fn encode_key(&self, key: &[Bson]) -> Vec<u8> {
        let mut out = Vec::new();
        for (part, v) in self.spec.parts.iter().zip(key) {
            let start = out.len();
            encode::encode_value(v, &mut out);
            if part.kind == KeyKind::Descending {
                encode::invert(&mut out[start..]);
            }
        }
        out
    }

    /// Fails with E11000 when a unique index already holds one of the keys for another record.
    pub fn check_unique(&self, ns: &str, keys: &DocKeys, record_id: u64) -> Result<()> {
        if !self.spec.enforces_unique() {
            return Ok(());
        }
        for key in &keys.keys {
            let bytes = self.encode_key(key);
            let clash = self
                .entries
                .range((bytes.clone(), 0)..=(bytes, u64::MAX))
                .any(|((_, rid), _)| *rid != record_id);
            if clash {
                return Err(self.duplicate_key_error(ns, key));
            }
        }
        Ok(())
    }

    /// E11000 as MongoDB words it: `... index: name_1 dup key: { name: "x" }`.
    pub fn duplicate_key_error(&self, ns: &str, key: &[Bson]) -> Error {
        let mut key_value_doc = Document::new();
        let mut shown = Vec::new();
        for (part, v) in self.spec.parts.iter().zip(key) {
            key_value_doc.insert(part.dotted.clone(), v.clone());
            shown.push(format!("{}: {}", part.dotted, key_value(v)));
        }
        Error::new(
            ErrorCode::DuplicateKey,
            format!(
                "E11000 duplicate key error collection: {ns} index: {} dup key: {{ {} }}",
                self.spec.name,
                shown.join(", ")
            ),
        )
        .with_details(bson::doc! {"keyPattern": self.spec.key.clone(), "keyValue": key_value_doc})
    }

    /// Adds a document's keys.
    pub fn insert(&mut self, keys: &DocKeys, record_id: u64) {
        self.wildcard_multikey
            .extend(keys.wildcard_multikey.iter().cloned());
        for (mine, theirs) in self.multikey_paths.iter_mut().zip(&keys.multikey_paths) {
            mine.extend(theirs.iter().copied());
        }
        for key in &keys.keys {
            self.entries
                .insert((self.encode_key(key), record_id), key.clone());
        }
    }

    /// Adds many documents' keys at once (a collection being loaded): the entries are sorted
    /// and the tree is built from sorted input, rather than found a place one by one. Fails,
    /// leaving the index unchanged, on a key that cannot be indexed or, under a unique index, a
    /// key two records share (E11000, naming the key).
    pub fn insert_all<'d>(
        &mut self,
        ns: &str,
        docs: impl IntoIterator<Item = (u64, &'d Document)>,
    ) -> Result<()> {
        let mut multikey_paths = self.multikey_paths.clone();
        let mut wildcard_multikey = self.wildcard_multikey.clone();
        let mut entries: Vec<(EntryKey, Vec<Bson>)> = Vec::new();
        for (record_id, doc) in docs {
            let Some(keys) = self.keys_for(doc)? else {
                continue;
            };
            for (mine, theirs) in multikey_paths.iter_mut().zip(&keys.multikey_paths) {
                mine.extend(theirs.iter().copied());
            }
            wildcard_multikey.extend(keys.wildcard_multikey);
            for key in keys.keys {
                entries.push(((self.encode_key(&key), record_id), key));
            }
        }
        // One document's keys are distinct, so no two entries are equal; records loaded in
        // `_id` order (ObjectIds, counters) come sorted and the sort only checks.
        crate::sort_slice::sort_by(&mut entries, |a, b| a.0.cmp(&b.0));
        if self.spec.enforces_unique() {
            let existing = |(bytes, record_id): &EntryKey| {
                self.entries
                    .range((bytes.clone(), 0)..=(bytes.clone(), u64::MAX))
                    .any(|((_, rid), _)| rid != record_id)
            };
            let clash = entries
                .windows(2)
                .find(|w| w[0].0.0 == w[1].0.0 && w[0].0.1 != w[1].0.1)
                .map(|w| &w[1])
                .or_else(|| {
                    if self.entries.is_empty() {
                        None
                    } else {
                        entries.iter().find(|(entry, _)| existing(entry))
                    }
                });
            if let Some((_, key)) = clash {
                return Err(self.duplicate_key_error(ns, key));
            }
        }
        self.multikey_paths = multikey_paths;
        self.wildcard_multikey = wildcard_multikey;
        if self.entries.is_empty() {
            // From sorted input the standard map builds its tree in one pass.
            self.entries = entries.into_iter().collect();
        } else {
            self.entries.extend(entries);
        }
        Ok(())
    }

    /// Removes a document's keys.
    pub fn remove(&mut self, keys: &DocKeys, record_id: u64) {
        for key in &keys.keys {
            self.entries.remove(&(self.encode_key(key), record_id));
        }
    }

    /// Entries whose encoded key lies between the bounds, in key order (or reversed).
    pub fn range(
        &self,
        low: Bound<&EntryKey>,
        high: Bound<&EntryKey>,
    ) -> impl DoubleEndedIterator<Item = (&EntryKey, &Vec<Bson>)> {
        self.entries.range::<EntryKey, _>((low, high))
    }

    /// The first entry at or after `from` (forward), or at or before it (backward).
    pub fn seek(&self, from: &EntryKey, forward: bool) -> Option<(&EntryKey, &Vec<Bson>)> {
        if forward {
            self.entries
                .range::<EntryKey, _>((Bound::Included(from), Bound::Unbounded))
                .next()
        } else {
            self.entries
                .range::<EntryKey, _>((Bound::Unbounded, Bound::Included(from)))
                .next_back()
        }
    }

    /// A cursor over the entries strictly after (forward: walk it with `next`) or before
    /// (backward: walk it with `next_back`) `from`, held by a scan so each step is a move, not a
    /// search from the root.
    pub fn cursor_after(
        &self,
        from: &EntryKey,
        forward: bool,
    ) -> std::collections::btree_map::Range<'_, EntryKey, Vec<Bson>> {
        if forward {
            self.entries
                .range::<EntryKey, _>((Bound::Excluded(from), Bound::Unbounded))
        } else {
            self.entries
                .range::<EntryKey, _>((Bound::Unbounded, Bound::Excluded(from)))
        }
    }

    /// The entry strictly after (forward) or before (backward) `from`.
    pub fn next_after(&self, from: &EntryKey, forward: bool) -> Option<(&EntryKey, &Vec<Bson>)> {
        if forward {
            self.entries
                .range::<EntryKey, _>((Bound::Excluded(from), Bound::Unbounded))
                .next()
        } else {
            self.entries
                .range::<EntryKey, _>((Bound::Unbounded, Bound::Excluded(from)))
                .next_back()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    #[test]
    fn unique_index_reports_e11000() {
        let spec =
            IndexSpec::parse(&doc! {"key": {"name": 1}, "name": "name_1", "unique": true}).unwrap();
        let mut ix = Index::new(spec);
        let k = ix.keys_for(&doc! {"name": "x"}).unwrap().unwrap();
        ix.check_unique("db.c", &k, 1).unwrap();
        ix.insert(&k, 1);
        let e = ix.check_unique("db.c", &k, 2).unwrap_err();
        assert_eq!(
            e.message,
            "E11000 duplicate key error collection: db.c index: name_1 dup key: { name: \"x\" }"
        );
        assert_eq!(
            *e.details.unwrap(),
            doc! {"keyPattern": {"name": 1}, "keyValue": {"name": "x"}}
        );
        ix.check_unique("db.c", &k, 1).unwrap();
        ix.remove(&k, 1);
        assert!(ix.is_empty());
    }

    #[test]
    fn descending_parts_reverse_order() {
        let spec = IndexSpec::parse(&doc! {"key": {"a": 1, "b": -1}, "name": "ab"}).unwrap();
        let mut ix = Index::new(spec);
        for (rid, (a, b)) in [(1, 2), (1, 3), (0, 9)].into_iter().enumerate() {
            let k = ix.keys_for(&doc! {"a": a, "b": b}).unwrap().unwrap();
            ix.insert(&k, rid as u64);
        }
        let order: Vec<Vec<Bson>> = ix
            .range(Bound::Unbounded, Bound::Unbounded)
            .map(|(_, v)| v.clone())
            .collect();
        assert_eq!(
            order,
            vec![
                vec![Bson::Int32(0), Bson::Int32(9)],
                vec![Bson::Int32(1), Bson::Int32(3)],
                vec![Bson::Int32(1), Bson::Int32(2)],
            ]
        );
    }
}
