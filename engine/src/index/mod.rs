//! Secondary indexes: key specifications ([`spec`]), key generation with multikey rules
//! ([`keygen`], following MongoDB's [`btree_key_generator`]), an order-preserving byte
//! encoding of keys ([`encode`]) and the ordered index itself ([`Index`]): entries keyed by
//! the encoded key and the record id, in MongoDB's order.
//!
//! Indexes live inside their [`crate::catalog::Collection`], which maintains them on every
//! insert and removal; they are not stored, but rebuilt from the collection's catalog entry.

pub mod btree_key_generator;
mod collated_unique;
pub mod encode;
pub mod geo_keys;
pub mod keygen;
pub mod spec;
pub mod text;
mod ttl_option;
pub mod usage;
pub mod wildcard;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ops::Bound;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

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
    /// The entries by key, for point lookups ([`Index::point_ids`]).
    points: PointTable,
    /// [`Index::is_plain_id`], worked out once (asked for every document inserted).
    plain_id: bool,
}

/// An index's entries grouped by encoded key in a hash table, for the express path's point
/// lookups: one hash probe instead of a B-tree descent (whose key comparisons, each a `memcmp`
/// reaching a separately allocated key, were a quarter of a point lookup through the Node
/// binding: `docs/performance.md`, session 17). Built once the index has served enough point
/// lookups to pay for it (one per 32 entries), then kept up to date by every insert and
/// removal; a bulk insert drops it (it is built again on use).
#[derive(Debug, Default)]
struct PointTable {
    lookups: AtomicU64,
    table: OnceLock<HashMap<PointKey, RecordIds>>,
}

/// Point lookups an index serves by descent before its table is built, per entry.
const POINT_TABLE_AFTER: u64 = 32;

impl Clone for PointTable {
    fn clone(&self) -> Self {
        PointTable {
            lookups: AtomicU64::new(self.lookups.load(Ordering::Relaxed)),
            table: self.table.clone(),
        }
    }
}

/// Adds an entry to a point table.
fn add_point(table: &mut HashMap<PointKey, RecordIds>, key: &[u8], record_id: u64) {
    match table.get_mut(key) {
        Some(ids) => ids.add(record_id),
        None => {
            table.insert(PointKey::new(key), RecordIds::One(record_id));
        }
    }
}

/// A point table's key: an encoded index key, kept inside the table's slot when it is short
/// (most keys are), so that a probe compares it there instead of reaching another allocation
/// (that comparison was 4% of a point lookup, session 17). Hashes and compares as its bytes.
/// Also the key of a collection's `_id` lookup (`catalog::Collection`), where the bytes are the
/// `_id`'s [`encode::encode_value`]: equal exactly when the values compare equal in the simple
/// order (`encode`'s property test).
#[derive(Debug, Clone)]
pub(crate) enum PointKey {
    Inline(u8, [u8; POINT_KEY_INLINE]),
    Heap(Box<[u8]>),
}

const POINT_KEY_INLINE: usize = 22;

impl PointKey {
    pub(crate) fn new(key: &[u8]) -> PointKey {
        let mut inline = [0; POINT_KEY_INLINE];
        match inline.get_mut(..key.len()) {
            Some(at) => {
                at.copy_from_slice(key);
                PointKey::Inline(key.len() as u8, inline)
            }
            None => PointKey::Heap(key.into()),
        }
    }

    pub(crate) fn bytes(&self) -> &[u8] {
        match self {
            PointKey::Inline(len, bytes) => &bytes[..usize::from(*len)],
            PointKey::Heap(bytes) => bytes,
        }
    }
}

impl PartialEq for PointKey {
    fn eq(&self, other: &Self) -> bool {
        self.bytes() == other.bytes()
    }
}

impl Eq for PointKey {}

impl std::hash::Hash for PointKey {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.bytes().hash(state);
    }
}

impl std::borrow::Borrow<[u8]> for PointKey {
    fn borrow(&self) -> &[u8] {
        self.bytes()
    }
}

/// One key's record ids, ascending (most keys of most indexes have one).
#[derive(Debug, Clone)]
enum RecordIds {
    One(u64),
    Many(Vec<u64>),
}

impl RecordIds {
    fn as_slice(&self) -> &[u64] {
        match self {
            RecordIds::One(id) => std::slice::from_ref(id),
            RecordIds::Many(ids) => ids,
        }
    }

    fn add(&mut self, record_id: u64) {
        let ids = match self {
            RecordIds::One(id) if *id == record_id => return,
            RecordIds::One(id) => {
                *self = RecordIds::Many(vec![*id]);
                let RecordIds::Many(ids) = self else {
                    unreachable!()
                };
                ids
            }
            RecordIds::Many(ids) => ids,
        };
        if let Err(at) = ids.binary_search(&record_id) {
            ids.insert(at, record_id);
        }
    }

    /// Removes `record_id`; whether none are left.
    fn remove(&mut self, record_id: u64) -> bool {
        match self {
            RecordIds::One(id) => *id == record_id,
            RecordIds::Many(ids) => {
                if let Ok(at) = ids.binary_search(&record_id) {
                    ids.remove(at);
                }
                ids.is_empty()
            }
        }
    }
}

impl Index {
    pub fn new(spec: IndexSpec) -> Index {
        let n = spec.parts.len();
        let plain_id = spec.is_id()
            && !spec.sparse
            && spec.partial.is_none()
            && spec.text.is_none()
            && spec.wildcard.is_none()
            && matches!(spec.parts.as_slice(), [part]
                if part.kind == KeyKind::Ascending && part.path.parts() == ["_id"]);
        Index {
            plain_id,
            spec,
            entries: BTreeMap::new(),
            multikey_paths: vec![BTreeSet::new(); n],
            wildcard_multikey: BTreeSet::new(),
            usage: usage::IndexUsage::new(),
            points: PointTable::default(),
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
        if let Some(key) = self.collated_clash(&keys.keys, record_id)? {
            return Err(self.duplicate_key_error(ns, key));
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
            let bytes = self.encode_key(key);
            if let Some(table) = self.points.table.get_mut() {
                add_point(table, &bytes, record_id);
            }
            self.entries.insert((bytes, record_id), key.clone());
        }
    }

    /// Whether this is the `_id_` index as a collection has it by default, `{_id: 1}`: a
    /// document's one key is its `_id` (never an array: `insert::check_id`), encoded alone, so
    /// an insert can add it from the `_id`'s encoding ([`Self::insert_single`]) without
    /// generating the document's keys.
    pub fn is_plain_id(&self) -> bool {
        self.plain_id
    }

    /// Adds the entry of a single-valued one-part key already encoded (`bytes` is
    /// [`Self::encode_key`] of `[key]`): what [`Self::insert`] does for such a document's keys.
    pub fn insert_single(&mut self, bytes: Vec<u8>, key: Bson, record_id: u64) {
        if let Some(table) = self.points.table.get_mut() {
            add_point(table, &bytes, record_id);
        }
        self.entries.insert((bytes, record_id), vec![key]);
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
            if let Some(key) = self.collated_clash_in(&entries)? {
                return Err(self.duplicate_key_error(ns, &key));
            }
        }
        self.multikey_paths = multikey_paths;
        self.wildcard_multikey = wildcard_multikey;
        self.points = PointTable::default();
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
            let entry = (self.encode_key(key), record_id);
            if self.entries.remove(&entry).is_some()
                && let Some(table) = self.points.table.get_mut()
                && table
                    .get_mut(entry.0.as_slice())
                    .is_some_and(|ids| ids.remove(record_id))
            {
                table.remove(entry.0.as_slice());
            }
        }
    }

    /// The record ids of the entries whose encoded key is `key`, ascending, at most `limit`:
    /// what a range over that one key returns, from the [`PointTable`] once built.
    pub fn point_ids(&self, key: &[u8], limit: usize) -> Vec<u64> {
        let table = match self.points.table.get() {
            Some(table) => table,
            None => {
                let served = self.points.lookups.fetch_add(1, Ordering::Relaxed) + 1;
                if served.saturating_mul(POINT_TABLE_AFTER) < self.entries.len() as u64 {
                    return self.point_ids_by_descent(key, limit);
                }
                self.points.table.get_or_init(|| {
                    let mut table = HashMap::with_capacity(self.entries.len());
                    for (key, record_id) in self.entries.keys() {
                        add_point(&mut table, key, *record_id);
                    }
                    table
                })
            }
        };
        table
            .get(key)
            .map(|ids| ids.as_slice().iter().take(limit).copied().collect())
            .unwrap_or_default()
    }

    fn point_ids_by_descent(&self, key: &[u8], limit: usize) -> Vec<u64> {
        let low = (key.to_vec(), 0);
        let mut out = Vec::new();
        for ((k, rid), _) in self.range(Bound::Included(&low), Bound::Unbounded) {
            if *k != low.0 || out.len() >= limit {
                break;
            }
            out.push(*rid);
        }
        out
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
    fn point_ids_are_the_range_over_the_key_before_and_after_the_table() {
        for key in [doc! {"a": 1}, doc! {"a": -1}] {
            let spec = IndexSpec::parse(&doc! {"key": key, "name": "a"}).unwrap();
            let mut ix = Index::new(spec);
            let values = [Bson::Int32(1), Bson::Double(1.0), Bson::String("1".into())];
            let docs: Vec<Document> = (0..40).map(|i| doc! {"a": values[i % 3].clone()}).collect();
            let loaded = docs.iter().enumerate().map(|(rid, d)| (rid as u64 * 2, d));
            ix.insert_all("db.c", loaded).unwrap();
            let encoded = |ix: &Index, v: Bson| ix.encode_key(&[v]);
            let by_range = |ix: &Index, v: Bson, limit: usize| {
                let k = encoded(ix, v);
                ix.point_ids_by_descent(&k, limit)
            };
            let check = |ix: &Index| {
                for v in [Bson::Int64(1), Bson::String("1".into()), Bson::Int32(7)] {
                    for limit in [0, 1, 5, usize::MAX] {
                        let k = encoded(ix, v.clone());
                        assert_eq!(ix.point_ids(&k, limit), by_range(ix, v.clone(), limit));
                    }
                }
            };
            // 40 entries: the table is built on the second lookup (2 * 32 >= 40).
            assert!(ix.points.table.get().is_none());
            check(&ix);
            assert!(ix.points.table.get().is_some());
            assert_eq!(
                ix.point_ids(&encoded(&ix, Bson::Int32(1)), 3),
                vec![0, 2, 6]
            );
            // Kept up to date: new records (also between and before the others), removals of
            // one id, of every id of a key, and of an entry that is not there.
            for (rid, v) in [(7, 1), (100, 1), (1, 9)] {
                let k = ix.keys_for(&doc! {"a": v}).unwrap().unwrap();
                ix.insert(&k, rid);
            }
            let one = ix.keys_for(&doc! {"a": 1}).unwrap().unwrap();
            ix.remove(&one, 6);
            ix.remove(&one, 5);
            let nine = ix.keys_for(&doc! {"a": 9}).unwrap().unwrap();
            ix.remove(&nine, 1);
            assert!(
                ix.points
                    .table
                    .get()
                    .unwrap()
                    .get(encoded(&ix, Bson::Int32(9)).as_slice())
                    .is_none()
            );
            check(&ix);
            assert_eq!(
                ix.point_ids(&encoded(&ix, Bson::Int32(1)), 3),
                vec![0, 2, 7]
            );
            // A clone has its own table; a bulk insert drops it.
            let mut copy = ix.clone();
            copy.remove(&one, 0);
            assert_eq!(ix.point_ids(&encoded(&ix, Bson::Int32(1)), 1), vec![0]);
            assert_eq!(copy.point_ids(&encoded(&copy, Bson::Int32(1)), 1), vec![2]);
            let more = doc! {"a": 1};
            ix.insert_all("db.c", [(200, &more)]).unwrap();
            assert!(ix.points.table.get().is_none());
            check(&ix);
            // Keys longer than a slot holds.
            let long = "a key longer than the twenty-two bytes kept in a slot";
            for rid in [301, 300] {
                let k = ix.keys_for(&doc! {"a": long}).unwrap().unwrap();
                ix.insert(&k, rid);
            }
            for _ in 0..3 {
                let k = encoded(&ix, Bson::String(long.into()));
                assert_eq!(ix.point_ids(&k, usize::MAX), vec![300, 301]);
            }
            assert!(ix.points.table.get().is_some());
        }
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
