//! One collection: documents in record-id order, the unique `_id` lookup, and its indexes
//! (the `_id_` index first), maintained on every insert and removal so that no write command
//! has to know about them.
//!
//! Index specifications survive a reload through the catalog entry: [`Collection::catalog_options`]
//! is what a durable store keeps (the options plus an `$indexes` list), and
//! [`Collection::with_options`] rebuilds the indexes from it.

use std::collections::BTreeMap;

use bson::{Bson, Document};

use super::capped::CappedLimits;
use super::derived::DerivedSlot;
use super::raw_store::RawStore;
use crate::error::{Error, ErrorCode, Result};
use crate::index::{DocKeys, Index, IndexSpec};
use crate::value::SimpleOrderedValue;

/// The catalog-entry field that carries the secondary index specs (never a user option: `create`
/// options cannot start with `$`).
pub const INDEXES_OPTION: &str = "$indexes";

#[derive(Debug, Clone)]
pub struct Collection {
    pub options: Document,
    records: BTreeMap<u64, Document>,
    /// The same documents' BSON bytes, contiguous and in record order, for scans that read
    /// a filter's fields from them (`matcher::Filter::matches_raw`).
    raw: RawStore,
    id_index: BTreeMap<SimpleOrderedValue, u64>,
    indexes: Vec<Index>,
    next_record_id: u64,
    /// Set by an insert (not by an update's re-insert): a capped collection evicts only then.
    inserted: bool,
    /// The documents' total BSON size, kept up to date once a capped collection has needed it
    /// (so an insert into a capped collection does not re-measure every document).
    capped_bytes: Option<u64>,
    /// State the planner derives from the collection (its plan cache), emptied whenever the
    /// indexes change; the catalog does not know its type.
    derived: DerivedSlot,
}

impl Default for Collection {
    fn default() -> Self {
        Collection::new()
    }
}

impl Collection {
    pub fn new() -> Self {
        Collection {
            options: Document::new(),
            records: BTreeMap::new(),
            raw: RawStore::default(),
            id_index: BTreeMap::new(),
            indexes: vec![Index::new(IndexSpec::id_index())],
            next_record_id: 1,
            inserted: false,
            capped_bytes: None,
            derived: DerivedSlot::default(),
        }
    }

    /// A collection from its catalog entry. An `$indexes` list (see [`Self::catalog_options`])
    /// is taken out of the options and becomes the collection's secondary indexes.
    pub fn with_options(mut options: Document) -> Self {
        let specs = match options.remove(INDEXES_OPTION) {
            Some(Bson::Array(specs)) => specs,
            _ => Vec::new(),
        };
        let mut coll = Collection {
            options,
            ..Collection::new()
        };
        if !coll.has_implicit_id_index() {
            coll.indexes.clear();
        }
        for spec in specs {
            if let Bson::Document(d) = spec
                && let Ok(spec) = IndexSpec::parse(&d)
            {
                coll.indexes.push(Index::new(spec));
            }
        }
        coll
    }

    /// The catalog entry a durable store keeps: the options, with the secondary index specs
    /// under `$indexes` when there are any.
    pub fn catalog_options(&self) -> Document {
        let mut out = self.options.clone();
        let implicit_id = self.has_implicit_id_index();
        let specs: Vec<Bson> = self
            .indexes
            .iter()
            .filter(|i| !(implicit_id && i.spec.is_id()))
            .map(|i| Bson::Document(i.spec.document.clone()))
            .collect();
        if !specs.is_empty() {
            out.insert(INDEXES_OPTION, specs);
        }
        out
    }

    /// Whether the collection was created with its `_id` index (not `autoIndexId: false`):
    /// that index is then implied by the catalog entry rather than listed in it.
    fn has_implicit_id_index(&self) -> bool {
        !matches!(self.options.get("autoIndexId"), Some(Bson::Boolean(false)))
    }

    /// The indexes, `_id_` first, then in creation order.
    pub fn indexes(&self) -> &[Index] {
        &self.indexes
    }

    pub fn index(&self, name: &str) -> Option<&Index> {
        self.indexes.iter().find(|i| i.name() == name)
    }

    /// Builds a new index over the current documents. Fails (leaving the collection unchanged)
    /// on a key that cannot be indexed or a duplicate under a unique index.
    pub fn create_index(&mut self, ns: &str, spec: IndexSpec) -> Result<()> {
        let mut index = Index::new(spec);
        for (rid, doc) in &self.records {
            if let Some(keys) = index.keys_for(doc)? {
                index.check_unique(ns, &keys, *rid)?;
                index.insert(&keys, *rid);
            }
        }
        self.indexes.push(index);
        self.derived.clear();
        Ok(())
    }

    /// The state an upper layer derives from this collection (the planner's plan cache).
    pub fn derived(&self) -> &DerivedSlot {
        &self.derived
    }

    /// Drops a secondary index by name; `None` when there is none of that name.
    pub fn drop_index(&mut self, name: &str) -> Option<IndexSpec> {
        let pos = self
            .indexes
            .iter()
            .position(|i| i.name() == name && !i.spec.is_id())?;
        self.derived.clear();
        Some(self.indexes.remove(pos).spec)
    }

    /// Changes an index's `hidden` flag (collMod); returns the old value.
    pub fn set_index_hidden(&mut self, name: &str, hidden: bool) -> Option<bool> {
        let ix = self.indexes.iter_mut().find(|i| i.name() == name)?;
        let old = ix.spec.hidden;
        ix.spec.hidden = hidden;
        self.derived.clear();
        if hidden {
            ix.spec.document.insert("hidden", true);
        } else {
            ix.spec.document.remove("hidden");
        }
        Some(old)
    }

    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// The limits of a capped collection; `None` for an ordinary one.
    pub fn capped_limits(&self) -> Option<CappedLimits> {
        CappedLimits::from_options(&self.options)
    }

    pub fn is_capped(&self) -> bool {
        self.capped_limits().is_some()
    }

    /// Bytes of BSON all documents take together (what collStats calls `size`).
    pub fn data_size(&self) -> u64 {
        self.capped_bytes
            .unwrap_or_else(|| self.records.values().map(|d| bson_size(d) as u64).sum())
    }

    /// Removes the oldest documents (natural order) until a capped collection is within its
    /// size and count limits, as a capped insert does; returns the removed record ids.
    pub fn evict_over_cap(&mut self) -> Vec<u64> {
        let Some(limits) = self.capped_limits() else {
            return Vec::new();
        };
        let total = match self.capped_bytes {
            Some(b) => b,
            None => {
                let b = self.data_size();
                self.capped_bytes = Some(b);
                b
            }
        };
        let mut bytes = total as i64;
        let mut count = self.records.len();
        let mut victims = Vec::new();
        for (rid, doc) in &self.records {
            if !limits.exceeded(count, bytes) {
                break;
            }
            bytes -= bson_size(doc) as i64;
            count -= 1;
            victims.push(*rid);
        }
        for rid in &victims {
            self.remove(*rid);
        }
        victims
    }

    /// Rebuilds every index from the documents (`reIndex`).
    pub fn rebuild_indexes(&mut self) -> Result<()> {
        let specs: Vec<IndexSpec> = self.indexes.iter().map(|i| i.spec.clone()).collect();
        let mut rebuilt = Vec::with_capacity(specs.len());
        for spec in specs {
            let mut index = Index::new(spec);
            for (rid, doc) in &self.records {
                if let Some(keys) = index.keys_for(doc)? {
                    index.insert(&keys, *rid);
                }
            }
            rebuilt.push(index);
        }
        self.indexes = rebuilt;
        self.derived.clear();
        Ok(())
    }

    /// Drops every secondary index (what `convertToCapped` leaves behind: only `_id_`).
    pub fn drop_secondary_indexes(&mut self) {
        self.indexes.retain(|i| i.spec.is_id());
        self.derived.clear();
    }

    /// Sets an index's `expireAfterSeconds` (collMod; stored as a long); returns the old value
    /// as it was stored, if the index had one.
    pub fn set_index_expire_after(&mut self, name: &str, seconds: i64) -> Option<Option<Bson>> {
        let ix = self.indexes.iter_mut().find(|i| i.name() == name)?;
        let old = ix.spec.document.get("expireAfterSeconds").cloned();
        ix.spec.expire_after_seconds = Some(seconds);
        ix.spec.document.insert("expireAfterSeconds", seconds);
        self.derived.clear();
        Some(old)
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Documents in natural (insertion) order, with their record ids.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (u64, &Document)> {
        self.records.iter().map(|(r, d)| (*r, d))
    }

    /// Documents in natural order after `record_id` (all of them for `None`): a scan that
    /// resumes from its position seeks once instead of walking past what it has read.
    pub fn iter_after(
        &self,
        record_id: Option<u64>,
    ) -> impl DoubleEndedIterator<Item = (u64, &Document)> {
        let start = record_id.map_or(std::ops::Bound::Unbounded, std::ops::Bound::Excluded);
        self.records
            .range((start, std::ops::Bound::Unbounded))
            .map(|(r, d)| (*r, d))
    }

    /// The documents' BSON bytes in natural order with their record ids (an empty slice where
    /// none were kept: read [`Self::get`]'s document then), for a scan that reads fields from
    /// the bytes and looks a document up only when it needs it.
    pub fn iter_bytes(&self) -> impl DoubleEndedIterator<Item = (u64, &[u8])> {
        self.raw.iter()
    }

    /// [`Self::iter_bytes`] as a loop calling `each` until it returns false (forwards or
    /// backwards): what a collection scan runs (see `RawStore::for_each`).
    pub fn for_each_bytes<'s>(&'s self, forward: bool, each: impl FnMut(u64, &'s [u8]) -> bool) {
        self.raw.for_each(forward, each);
    }

    /// A stored document's BSON bytes, when kept (the encoding of [`Self::get`]'s document).
    pub fn bytes(&self, record_id: u64) -> Option<&[u8]> {
        self.raw.get(record_id)
    }

    pub fn get(&self, record_id: u64) -> Option<&Document> {
        self.records.get(&record_id)
    }

    pub fn find_by_id(&self, id: &Bson) -> Option<u64> {
        self.id_index.get(&SimpleOrderedValue(id.clone())).copied()
    }

    /// Inserts a document that already has its `_id` first; fails with E11000 on a duplicate.
    pub fn insert(&mut self, ns: &str, doc: Document) -> Result<u64> {
        let record_id = self.next_record_id;
        self.insert_record(ns, record_id, doc, None)?;
        self.inserted = true;
        Ok(record_id)
    }

    /// [`Self::insert`] of a document whose BSON encoding the caller has made already (the
    /// change it records): the collection keeps a copy instead of encoding it again.
    pub fn insert_encoded(&mut self, ns: &str, doc: Document, encoded: &[u8]) -> Result<u64> {
        let record_id = self.next_record_id;
        self.insert_record(ns, record_id, doc, Some(encoded))?;
        self.inserted = true;
        Ok(record_id)
    }

    /// Whether documents were inserted since the last call (then clears the mark).
    pub fn take_inserted(&mut self) -> bool {
        std::mem::take(&mut self.inserted)
    }

    /// Inserts under a known record id (used when loading from a store).
    pub fn insert_with_record_id(&mut self, ns: &str, record_id: u64, doc: Document) -> Result<()> {
        self.insert_record(ns, record_id, doc, None)
    }

    fn insert_record(
        &mut self,
        ns: &str,
        record_id: u64,
        doc: Document,
        encoded: Option<&[u8]>,
    ) -> Result<()> {
        // By name in order: `_id` comes first (hashing the name was 1.8% of an insert).
        let id = crate::path::field(&doc, "_id").cloned().ok_or_else(|| {
            Error::new(
                ErrorCode::InternalError,
                "document without _id reached the collection",
            )
        })?;
        // One search of the `_id` map both checks for a duplicate and finds the new entry's
        // place (filled in once every index has accepted the document).
        let vacant = match self.id_index.entry(SimpleOrderedValue(id)) {
            std::collections::btree_map::Entry::Occupied(taken) => {
                // The message shows the new document's `_id` (`1.0` against a stored `1`).
                let id = doc.get("_id").unwrap_or(&taken.key().0);
                return Err(duplicate_id_error(ns, id));
            }
            std::collections::btree_map::Entry::Vacant(place) => place,
        };
        // Every index's keys are computed and checked before anything changes.
        let mut all_keys: Vec<Option<DocKeys>> = Vec::with_capacity(self.indexes.len());
        for index in &self.indexes {
            let keys = index.keys_for(&doc)?;
            if let Some(k) = &keys
                && !index.spec.is_id()
            {
                index.check_unique(ns, k, record_id)?;
            }
            all_keys.push(keys);
        }
        for (index, keys) in self.indexes.iter_mut().zip(&all_keys) {
            if let Some(k) = keys {
                index.insert(k, record_id);
            }
        }
        vacant.insert(record_id);
        if let Some(total) = &mut self.capped_bytes {
            *total += bson_size(&doc) as u64;
        }
        self.raw.put(record_id, &doc, encoded);
        self.records.insert(record_id, doc);
        self.next_record_id = self.next_record_id.max(record_id + 1);
        Ok(())
    }

    /// Replaces the document under `record_id` with `doc` (an update: the `_id` is unchanged)
    /// and returns the old one. Only the indexes whose keys changed are touched; every index's
    /// keys are computed and unique ones checked before anything changes.
    pub fn replace(&mut self, ns: &str, record_id: u64, doc: Document) -> Result<Document> {
        self.replace_record(ns, record_id, doc, None)
    }

    /// [`Self::replace`] with the new document's BSON encoding, made already by the caller.
    pub fn replace_encoded(
        &mut self,
        ns: &str,
        record_id: u64,
        doc: Document,
        encoded: &[u8],
    ) -> Result<Document> {
        self.replace_record(ns, record_id, doc, Some(encoded))
    }

    fn replace_record(
        &mut self,
        ns: &str,
        record_id: u64,
        doc: Document,
        encoded: Option<&[u8]>,
    ) -> Result<Document> {
        let Some(old) = self.records.get(&record_id) else {
            return Err(Error::new(
                ErrorCode::InternalError,
                "an update reached a record that is not stored",
            ));
        };
        let same_id = match (old.get("_id"), doc.get("_id")) {
            (Some(a), Some(b)) => crate::value::identical(a, b),
            _ => false,
        };
        if !same_id {
            // Not an update's case; keep the general path.
            let old = self.remove(record_id).unwrap_or_default();
            if let Err(e) = self.insert_record(ns, record_id, doc, encoded) {
                let _ = self.insert_with_record_id(ns, record_id, old);
                return Err(e);
            }
            return Ok(self.records.get(&record_id).cloned().unwrap_or_default());
        }
        let mut changed: Vec<(usize, Option<DocKeys>, Option<DocKeys>)> = Vec::new();
        for (i, index) in self.indexes.iter().enumerate() {
            let before = index.keys_for(old)?;
            let after = index.keys_for(&doc)?;
            if same_keys(before.as_ref(), after.as_ref()) {
                continue;
            }
            if let Some(k) = &after
                && !index.spec.is_id()
            {
                index.check_unique(ns, k, record_id)?;
            }
            changed.push((i, before, after));
        }
        for (i, before, after) in &changed {
            let index = &mut self.indexes[*i];
            if let Some(k) = before {
                index.remove(k, record_id);
            }
            if let Some(k) = after {
                index.insert(k, record_id);
            }
        }
        let new_size = self.capped_bytes.is_some().then(|| bson_size(&doc) as u64);
        self.raw.put(record_id, &doc, encoded);
        let old = self.records.insert(record_id, doc).unwrap_or_default();
        if let (Some(total), Some(new_size)) = (&mut self.capped_bytes, new_size) {
            *total = total.saturating_sub(bson_size(&old) as u64) + new_size;
        }
        Ok(old)
    }

    /// Inserts many documents under their record ids at once (a collection loaded from a
    /// store): the records, the `_id` lookup and every index are built from sorted input in one
    /// pass each, rather than document by document. Fails, leaving the collection unchanged, as
    /// [`Self::insert_with_record_id`] would for one of them (a document without `_id`, an
    /// `_id` or a unique key two documents share, a key that cannot be indexed) or when a
    /// record id is given twice or is already taken.
    pub fn insert_all_with_record_ids(
        &mut self,
        ns: &str,
        docs: Vec<(u64, Document)>,
    ) -> Result<()> {
        self.insert_all_records(ns, docs.into_iter().map(|(r, d)| (r, d, None)).collect())
    }

    /// [`Self::insert_all_with_record_ids`] of documents with the BSON they were decoded from
    /// (a load: the collection keeps a copy of the bytes instead of encoding them again).
    pub fn insert_all_encoded(
        &mut self,
        ns: &str,
        docs: Vec<(u64, Document, &[u8])>,
    ) -> Result<()> {
        // Bytes that repeat a name decode to a document with one value for it, which the bytes
        // would not answer alike: those documents are encoded anew.
        let docs = docs.into_iter().map(|(r, d, b)| {
            let same = crate::value::bson_bytes::element_count(b) == Some(d.len());
            (r, d, same.then_some(b))
        });
        self.insert_all_records(ns, docs.collect())
    }

    fn insert_all_records(
        &mut self,
        ns: &str,
        mut docs: Vec<(u64, Document, Option<&[u8]>)>,
    ) -> Result<()> {
        crate::sort_slice::sort_by_key(&mut docs, |(record_id, _, _)| *record_id);
        let taken = docs
            .windows(2)
            .find(|w| w[0].0 == w[1].0)
            .map(|w| w[0].0)
            .or_else(|| {
                docs.iter()
                    .map(|(r, _, _)| *r)
                    .find(|r| self.records.contains_key(r))
            });
        if let Some(record_id) = taken {
            return Err(Error::new(
                ErrorCode::InternalError,
                format!("record id {record_id} of {ns} is stored twice"),
            ));
        }
        let mut ids: Vec<(SimpleOrderedValue, u64)> = Vec::with_capacity(docs.len());
        for (record_id, doc, _) in &docs {
            let id = doc.get("_id").cloned().ok_or_else(|| {
                Error::new(
                    ErrorCode::InternalError,
                    "document without _id reached the collection",
                )
            })?;
            ids.push((SimpleOrderedValue(id), *record_id));
        }
        // Stable and linear when the `_id`s come in order (ObjectIds, counters).
        crate::sort_slice::sort_by(&mut ids, |a, b| a.0.cmp(&b.0));
        let twice = ids
            .windows(2)
            .find(|w| w[0].0 == w[1].0)
            .map(|w| &w[1].0)
            .or_else(|| {
                ids.iter()
                    .map(|(id, _)| id)
                    .find(|id| self.id_index.contains_key(*id))
            });
        if let Some(id) = twice {
            return Err(duplicate_id_error(ns, &id.0));
        }
        let mut indexes = self.indexes.clone();
        for index in &mut indexes {
            index.insert_all(ns, docs.iter().map(|(r, d, _)| (*r, d)))?;
        }
        self.indexes = indexes;
        if self.id_index.is_empty() {
            self.id_index = ids.into_iter().collect();
        } else {
            self.id_index.extend(ids);
        }
        if let Some(total) = &mut self.capped_bytes {
            *total += docs
                .iter()
                .map(|(_, d, _)| bson_size(d) as u64)
                .sum::<u64>();
        }
        if let Some((last, _, _)) = docs.last() {
            self.next_record_id = self.next_record_id.max(last + 1);
        }
        for (record_id, doc, encoded) in &docs {
            self.raw.put(*record_id, doc, *encoded);
        }
        let docs = docs.into_iter().map(|(r, d, _)| (r, d));
        if self.records.is_empty() {
            self.records = docs.collect();
        } else {
            self.records.extend(docs);
        }
        Ok(())
    }

    pub fn remove(&mut self, record_id: u64) -> Option<Document> {
        let doc = self.records.remove(&record_id)?;
        self.raw.remove(record_id);
        if let Some(total) = &mut self.capped_bytes {
            *total = total.saturating_sub(bson_size(&doc) as u64);
        }
        for index in &mut self.indexes {
            if let Ok(Some(keys)) = index.keys_for(&doc) {
                index.remove(&keys, record_id);
            }
        }
        if let Some(id) = doc.get("_id") {
            self.id_index.remove(&SimpleOrderedValue(id.clone()));
        }
        Some(doc)
    }
}

/// Whether a document's keys for one index are the same before and after an update.
fn same_keys(a: Option<&DocKeys>, b: Option<&DocKeys>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => {
            a.multikey_paths == b.multikey_paths
                && a.keys.len() == b.keys.len()
                && a.keys.iter().zip(&b.keys).all(|(x, y)| {
                    x.len() == y.len()
                        && x.iter().zip(y).all(|(p, q)| crate::value::identical(p, q))
                })
        }
        _ => false,
    }
}

/// The BSON size of a document.
pub fn bson_size(doc: &Document) -> usize {
    doc.to_vec().map(|v| v.len()).unwrap_or(0)
}

/// E11000 as MongoDB words it for the `_id` index.
pub fn duplicate_id_error(ns: &str, id: &Bson) -> Error {
    Error::new(
        ErrorCode::DuplicateKey,
        format!(
            "E11000 duplicate key error collection: {ns} index: _id_ dup key: {{ _id: {} }}",
            crate::value::display::key_value(id)
        ),
    )
    .with_details(bson::doc! {"keyPattern": {"_id": 1}, "keyValue": {"_id": id.clone()}})
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;
    use std::ops::Bound;

    fn spec(d: Document) -> IndexSpec {
        IndexSpec::parse(&d).unwrap()
    }

    #[test]
    fn indexes_follow_inserts_and_removals() {
        let mut c = Collection::new();
        c.create_index(
            "t.c",
            spec(doc! {"key": {"a": 1}, "name": "a_1", "unique": true}),
        )
        .unwrap();
        let r1 = c.insert("t.c", doc! {"_id": 1, "a": 1}).unwrap();
        let e = c.insert("t.c", doc! {"_id": 2, "a": 1}).unwrap_err();
        assert_eq!(
            e.message,
            "E11000 duplicate key error collection: t.c index: a_1 dup key: { a: 1 }"
        );
        assert_eq!(c.len(), 1);
        assert_eq!(c.index("_id_").unwrap().len(), 1);
        let e = c
            .insert("t.c", doc! {"_id": 3, "a": [1, 2], "b": 1})
            .unwrap_err();
        assert_eq!(e.code(), 11000);
        c.remove(r1);
        assert!(c.index("a_1").unwrap().is_empty());
        c.insert("t.c", doc! {"_id": 2, "a": 1}).unwrap();
        assert_eq!(c.index("a_1").unwrap().len(), 1);
    }

    #[test]
    fn failed_index_build_changes_nothing_and_specs_round_trip() {
        let mut c = Collection::new();
        c.insert("t.c", doc! {"_id": 1, "a": 1}).unwrap();
        c.insert("t.c", doc! {"_id": 2, "a": 1}).unwrap();
        let e = c
            .create_index(
                "t.c",
                spec(doc! {"key": {"a": 1}, "name": "a_1", "unique": true}),
            )
            .unwrap_err();
        assert_eq!(e.code(), 11000);
        assert_eq!(c.indexes().len(), 1);
        c.create_index("t.c", spec(doc! {"key": {"a": -1}, "name": "a_-1"}))
            .unwrap();
        let opts = c.catalog_options();
        assert_eq!(
            opts,
            doc! {"$indexes": [{"v": 2, "key": {"a": -1}, "name": "a_-1"}]}
        );
        let back = Collection::with_options(opts);
        assert!(back.options.is_empty());
        assert_eq!(back.indexes().len(), 2);
        assert!(c.drop_index("a_-1").is_some());
        assert!(c.drop_index("_id_").is_none());
    }

    #[test]
    fn duplicate_ids_are_rejected_across_numeric_types() {
        let mut c = Collection::new();
        c.insert("t.c", doc! {"_id": 1, "a": 1}).unwrap();
        let err = c.insert("t.c", doc! {"_id": 1.0, "a": 2}).unwrap_err();
        assert_eq!(err.code(), 11000);
        assert_eq!(
            err.message,
            "E11000 duplicate key error collection: t.c index: _id_ dup key: { _id: 1.0 }"
        );
        assert_eq!(c.len(), 1);
    }

    #[test]
    fn the_kept_capped_size_follows_every_change() {
        let mut c = Collection::with_options(doc! {"capped": true, "size": 1000});
        for i in 0..3 {
            c.insert("t.c", doc! {"_id": i}).unwrap();
        }
        assert!(c.evict_over_cap().is_empty());
        let rid = c.find_by_id(&Bson::Int32(1)).unwrap();
        c.remove(rid);
        c.insert_with_record_id("t.c", rid, doc! {"_id": 1, "grown": "x".repeat(50)})
            .unwrap();
        c.insert("t.c", doc! {"_id": 9}).unwrap();
        let measured: u64 = c.iter().map(|(_, d)| bson_size(d) as u64).sum();
        assert_eq!(c.data_size(), measured);
    }

    fn with_indexes() -> Collection {
        Collection::with_options(doc! {"$indexes": [
            {"key": {"tags": 1, "n": -1}, "name": "tags_1_n_-1"},
            {"key": {"u": 1}, "name": "u_1", "unique": true, "sparse": true},
        ]})
    }

    fn state(c: &Collection) -> Vec<String> {
        let mut out: Vec<String> = c.iter().map(|(r, d)| format!("{r} {d}")).collect();
        for index in c.indexes() {
            out.push(format!("{} {:?}", index.name(), index.multikey_paths()));
            for ((bytes, rid), key) in index.range(Bound::Unbounded, Bound::Unbounded) {
                out.push(format!("{bytes:?} {rid} {key:?}"));
            }
        }
        out
    }

    #[test]
    fn loading_all_at_once_builds_what_inserting_one_by_one_builds() {
        let docs = vec![
            (7, doc! {"_id": 3, "tags": ["b", "a"], "n": 1, "u": "x"}),
            (2, doc! {"_id": "s", "tags": "a", "n": 2}),
            (5, doc! {"_id": {"k": 1}, "n": 3, "u": "y"}),
            (9, doc! {"_id": 1.5, "tags": [], "u": null}),
        ];
        let mut one_by_one = with_indexes();
        for (rid, d) in &docs {
            one_by_one
                .insert_with_record_id("t.c", *rid, d.clone())
                .unwrap();
        }
        let mut at_once = with_indexes();
        at_once
            .insert_all_with_record_ids("t.c", docs[..2].to_vec())
            .unwrap();
        at_once
            .insert_all_with_record_ids("t.c", docs[2..].to_vec())
            .unwrap();
        assert_eq!(state(&at_once), state(&one_by_one));
        assert_eq!(at_once.find_by_id(&Bson::Double(1.5)), Some(9));
        assert_eq!(at_once.insert("t.c", doc! {"_id": 0}).unwrap(), 10);
    }

    #[test]
    fn a_failed_load_changes_nothing() {
        let mut c = with_indexes();
        c.insert_all_with_record_ids("t.c", vec![(1, doc! {"_id": 1, "u": 1})])
            .unwrap();
        let before = state(&c);
        let failures = [
            (
                vec![(2, doc! {"_id": 2}), (3, doc! {"_id": 2.0})],
                "_id_ dup key: { _id: 2.0 }",
            ),
            (vec![(2, doc! {"_id": 1.0})], "_id_ dup key: { _id: 1.0 }"),
            (
                vec![(2, doc! {"_id": 2, "u": 5}), (3, doc! {"_id": 3, "u": 5})],
                "u_1 dup key: { u: 5 }",
            ),
            (vec![(2, doc! {"_id": 2, "u": 1})], "u_1 dup key: { u: 1 }"),
            (
                vec![(2, doc! {"_id": 2}), (2, doc! {"_id": 3})],
                "record id 2 of t.c is stored twice",
            ),
            (
                vec![(1, doc! {"_id": 2})],
                "record id 1 of t.c is stored twice",
            ),
            (vec![(2, doc! {"x": 2})], "document without _id"),
            (
                vec![(2, doc! {"_id": 2, "tags": [1], "n": [2]})],
                "cannot index parallel arrays",
            ),
        ];
        for (docs, expected) in failures {
            let e = c.insert_all_with_record_ids("t.c", docs).unwrap_err();
            assert!(e.message.contains(expected), "{}", e.message);
            assert_eq!(state(&c), before);
        }
    }

    #[test]
    fn replace_touches_changed_keys_only_and_a_clash_changes_nothing() {
        let mut c = Collection::new();
        c.create_index(
            "t.c",
            spec(doc! {"key": {"a": 1}, "name": "a_1", "unique": true}),
        )
        .unwrap();
        c.create_index("t.c", spec(doc! {"key": {"b": 1}, "name": "b_1"}))
            .unwrap();
        let one = c.insert("t.c", doc! {"_id": 1, "a": 1, "b": 1}).unwrap();
        c.insert("t.c", doc! {"_id": 2, "a": 2, "b": 2}).unwrap();
        let entries = |c: &Collection, name: &str| -> Vec<(u64, Vec<Bson>)> {
            c.index(name)
                .unwrap()
                .range(std::ops::Bound::Unbounded, std::ops::Bound::Unbounded)
                .map(|((_, rid), key)| (*rid, key.clone()))
                .collect()
        };
        // `b` changes type only (1 → 1.0): the stored key follows, as covered reads return it.
        let old = c
            .replace("t.c", one, doc! {"_id": 1, "a": 1, "b": 1.0})
            .unwrap();
        assert_eq!(old, doc! {"_id": 1, "a": 1, "b": 1});
        assert_eq!(
            entries(&c, "b_1"),
            [
                (one, vec![Bson::Double(1.0)]),
                (one + 1, vec![Bson::Int32(2)])
            ]
        );
        // A unique clash: nothing changes.
        let err = c
            .replace("t.c", one, doc! {"_id": 1, "a": 2, "b": 5})
            .unwrap_err();
        assert_eq!(err.code, ErrorCode::DuplicateKey);
        assert_eq!(c.get(one), Some(&doc! {"_id": 1, "a": 1, "b": 1.0}));
        assert_eq!(entries(&c, "b_1")[0], (one, vec![Bson::Double(1.0)]));
        assert_eq!(
            entries(&c, "a_1"),
            [(one, vec![Bson::Int32(1)]), (one + 1, vec![Bson::Int32(2)])]
        );
        // Keys that move: the old entry goes.
        c.replace("t.c", one, doc! {"_id": 1, "a": 3, "b": 1.0})
            .unwrap();
        assert_eq!(
            entries(&c, "a_1"),
            [(one + 1, vec![Bson::Int32(2)]), (one, vec![Bson::Int32(3)])]
        );
        assert_eq!(c.find_by_id(&Bson::Int32(1)), Some(one));
    }

    #[test]
    fn natural_order_is_insertion_order() {
        let mut c = Collection::new();
        for i in [3, 1, 2] {
            c.insert("t.c", doc! {"_id": i}).unwrap();
        }
        let ids: Vec<_> = c.iter().map(|(_, d)| d.get_i32("_id").unwrap()).collect();
        assert_eq!(ids, [3, 1, 2]);
        let rid = c.find_by_id(&Bson::Int32(1)).unwrap();
        c.remove(rid);
        assert_eq!(c.len(), 2);
        assert!(c.find_by_id(&Bson::Int32(1)).is_none());
    }
}
