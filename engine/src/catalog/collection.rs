//! One collection: documents in record-id order, the unique `_id` lookup, and its indexes
//! (the `_id_` index first), maintained on every insert and removal so that no write command
//! has to know about them.
//!
//! Index specifications survive a reload through the catalog entry: [`Collection::catalog_options`]
//! is what a durable store keeps (the options plus an `$indexes` list), and
//! [`Collection::with_options`] rebuilds the indexes from it.

use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use bson::{Bson, Document};

use super::capped::CappedLimits;
use super::derived::DerivedSlot;
use super::raw_store::RawStore;
use crate::error::{Error, ErrorCode, Result};
use crate::index::encode::encode_value;
use crate::index::{DocKeys, Index, IndexSpec, PointKey};

/// The catalog-entry field that carries the secondary index specs (never a user option: `create`
/// options cannot start with `$`).
pub const INDEXES_OPTION: &str = "$indexes";

#[derive(Debug, Clone)]
pub struct Collection {
    pub options: Document,
    /// Each record's document, by record id. A document inserted from bytes that are exactly
    /// its encoding (`insert_kept`) is kept as those bytes alone (in `raw`) until something
    /// reads it: the tree is decoded from them then, once (building every inserted document's
    /// tree was a fifth of an insert, `docs/performance.md`, session 18).
    records: BTreeMap<u64, OnceLock<Document>>,
    /// The first record kept as bytes alone and not decoded since (`u64::MAX`: none; such
    /// records are the newest, so every one is at or after it). A walk over the documents
    /// decodes them all first, in record order (see [`Self::decode_kept_records`]).
    undecoded_from: FirstUndecoded,
    /// The same documents' BSON bytes, contiguous and in record order, for scans that read
    /// a filter's fields from them (`matcher::Filter::matches_raw`).
    raw: RawStore,
    /// The unique `_id` lookup: record ids by the `_id`'s order-preserving encoding
    /// (`index::encode`), whose bytes are equal exactly when the values are in the simple order
    /// (`1`, `1.0` and `NumberLong(1)` are one `_id`). A hash table, not an ordered map: nothing
    /// reads it in order (the `_id_` index does), and a search of the ordered map compared
    /// values along a path of nodes (5% of an insert, session 18).
    id_index: HashMap<PointKey, u64>,
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
            undecoded_from: FirstUndecoded::default(),
            raw: RawStore::default(),
            id_index: HashMap::new(),
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
        for (rid, doc) in self.iter() {
            if let Some(keys) = index.keys_for(doc)? {
                index.check_unique(ns, &keys, rid)?;
                index.insert(&keys, rid);
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
        self.capped_bytes.unwrap_or_else(|| {
            self.records
                .keys()
                .map(|r| self.record_size(*r) as u64)
                .sum()
        })
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
        for rid in self.records.keys() {
            if !limits.exceeded(count, bytes) {
                break;
            }
            bytes -= self.record_size(*rid) as i64;
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
            for (rid, doc) in self.iter() {
                if let Some(keys) = index.keys_for(doc)? {
                    index.insert(&keys, rid);
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
        self.records.iter().map(|(r, d)| (*r, self.document(*r, d)))
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
            .map(|(r, d)| (*r, self.document(*r, d)))
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

    /// [`Self::for_each_bytes`] with each record's position in the store (what indexes a
    /// column of [`Self::scan_columns`]).
    pub fn for_each_bytes_at<'s>(
        &'s self,
        forward: bool,
        each: impl FnMut(usize, u64, &'s [u8]) -> bool,
    ) {
        self.raw.for_each_at(forward, each);
    }

    /// The value columns of the top-level fields `names`, when a scan asked for each of them
    /// before since the last write (`catalog::scan_columns`); `None`: read the bytes.
    pub fn scan_columns(
        &self,
        names: &[&str],
    ) -> Option<std::cell::Ref<'_, super::scan_columns::ScanColumns>> {
        self.raw.columns(names)
    }

    /// A stored document's BSON bytes, when kept (the encoding of [`Self::get`]'s document).
    pub fn bytes(&self, record_id: u64) -> Option<&[u8]> {
        self.raw.get(record_id)
    }

    pub fn get(&self, record_id: u64) -> Option<&Document> {
        let cell = self.records.get(&record_id)?;
        Some(self.document(record_id, cell))
    }

    /// Decodes every record kept as bytes alone, in record order. Decoded one by one as a
    /// walk over the documents read them, each document's allocations fell between the walk's
    /// own (a `$lookup`'s copies and joined documents, freed after), and later walks over the
    /// scattered documents ran 1.2x slower (session 18); decoded together, they lie together
    /// as when the insert decoded them.
    fn decode_kept_records(&self) {
        let from = self.undecoded_from.0.load(Ordering::Relaxed);
        if from == u64::MAX {
            return;
        }
        for (rid, cell) in self.records.range(from..) {
            cell.get_or_init(|| self.decode_kept(*rid));
        }
        self.undecoded_from.0.store(u64::MAX, Ordering::Relaxed);
    }

    /// A record's document. The first time one kept as bytes alone is read, every such record
    /// is decoded ([`Self::decode_kept_records`]): the insert's decoding, done once something
    /// needs the trees (what reads the stored bytes alone, such as a scan's filter or a find's
    /// reply, never does).
    fn document<'a>(&'a self, record_id: u64, cell: &'a OnceLock<Document>) -> &'a Document {
        if let Some(doc) = cell.get() {
            return doc;
        }
        self.decode_kept_records();
        cell.get_or_init(|| self.decode_kept(record_id))
    }

    /// The document a record kept as bytes alone holds (they were checked when it was
    /// inserted, so they decode; an empty document stands in should they not).
    fn decode_kept(&self, record_id: u64) -> Document {
        let decoded = self
            .raw
            .get(record_id)
            .and_then(|b| crate::value::bson_bytes::decode_document(b).ok());
        debug_assert!(
            decoded.is_some(),
            "record {record_id} kept undecodable bytes"
        );
        decoded.unwrap_or_default()
    }

    /// A record's document, taken out of its cell (decoded when it was kept as bytes alone).
    fn take_document(&self, record_id: u64, cell: OnceLock<Document>) -> Document {
        cell.into_inner()
            .unwrap_or_else(|| self.decode_kept(record_id))
    }

    /// A record's BSON size: its kept bytes' length (they are its encoding), else measured.
    fn record_size(&self, record_id: u64) -> usize {
        match self.raw.get(record_id) {
            Some(b) => b.len(),
            None => self.get(record_id).map_or(0, bson_size),
        }
    }

    pub fn find_by_id(&self, id: &Bson) -> Option<u64> {
        self.id_index.get(encode_id(id).as_slice()).copied()
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
        let id = crate::path::field(&doc, "_id").ok_or_else(|| {
            Error::new(
                ErrorCode::InternalError,
                "document without _id reached the collection",
            )
        })?;
        // One probe of the `_id` map both checks for a duplicate and finds the new entry's
        // place (filled in once every index has accepted the document).
        let mut id_key = encode_id(id);
        let vacant = match self.id_index.entry(PointKey::new(&id_key)) {
            std::collections::hash_map::Entry::Occupied(_) => {
                // The message shows the new document's `_id` (`1.0` against a stored `1`).
                return Err(duplicate_id_error(ns, id));
            }
            std::collections::hash_map::Entry::Vacant(place) => place,
        };
        // The `_id_` index's one key is the `_id`, encoded as the map's key is: it is added
        // from that encoding rather than generated (generating, encoding and dropping the keys
        // was 8% of an insert, session 18). An array `_id` (refused by the insert command, so
        // only from elsewhere) takes the general way.
        let id_slot = if matches!(id, Bson::Array(_)) {
            None
        } else {
            self.indexes.iter().position(Index::is_plain_id)
        };
        // Every other index's keys are computed and checked before anything changes.
        let mut all_keys: Vec<Option<DocKeys>> = Vec::new();
        for (i, index) in self.indexes.iter().enumerate() {
            if Some(i) == id_slot {
                continue;
            }
            let keys = index.keys_for(&doc)?;
            if let Some(k) = &keys
                && !index.spec.is_id()
            {
                index.check_unique(ns, k, record_id)?;
            }
            all_keys.push(keys);
        }
        let mut keys = all_keys.iter();
        for (i, index) in self.indexes.iter_mut().enumerate() {
            if Some(i) == id_slot {
                index.insert_single(std::mem::take(&mut id_key), id.clone(), record_id);
            } else if let Some(Some(k)) = keys.next() {
                index.insert(k, record_id);
            }
        }
        vacant.insert(record_id);
        if let Some(total) = &mut self.capped_bytes {
            *total += bson_size(&doc) as u64;
        }
        self.raw.put(record_id, &doc, encoded);
        self.records.insert(record_id, OnceLock::from(doc));
        self.next_record_id = self.next_record_id.max(record_id + 1);
        Ok(())
    }

    /// Makes room for `n` more documents in the `_id` lookup (an insert's batch), which would
    /// otherwise grow by rehashing while the batch is stored (4% of an insert, session 18).
    pub fn reserve(&mut self, n: usize) {
        self.id_index.reserve(n);
    }

    /// Whether an insert can store a document as its bytes alone ([`Self::insert_kept`]): no
    /// index but `{_id: 1}` needs its keys.
    pub fn keeps_bytes_alone(&self) -> bool {
        self.indexes.iter().all(Index::is_plain_id)
    }

    /// [`Self::insert`] of a document given as `bytes`, exactly its encoding (checked by the
    /// caller: they decode, to a document whose `to_vec` they are), with `_id` first, its value
    /// `id`. The document is not decoded: it is kept as those bytes until read. Only when
    /// [`Self::keeps_bytes_alone`]; fails with E11000 on a duplicate.
    pub fn insert_kept(&mut self, ns: &str, id: &Bson, bytes: &[u8]) -> Result<u64> {
        debug_assert!(self.keeps_bytes_alone());
        debug_assert_eq!(
            crate::value::bson_bytes::decode_document(bytes)
                .ok()
                .and_then(|d| d.to_vec().ok())
                .as_deref(),
            Some(bytes)
        );
        let record_id = self.next_record_id;
        let mut id_key = encode_id(id);
        let vacant = match self.id_index.entry(PointKey::new(&id_key)) {
            std::collections::hash_map::Entry::Occupied(_) => {
                return Err(duplicate_id_error(ns, id));
            }
            std::collections::hash_map::Entry::Vacant(place) => place,
        };
        if !matches!(id, Bson::Array(_))
            && let Some(index) = self.indexes.iter_mut().find(|i| i.is_plain_id())
        {
            index.insert_single(std::mem::take(&mut id_key), id.clone(), record_id);
        }
        vacant.insert(record_id);
        if let Some(total) = &mut self.capped_bytes {
            *total += bytes.len() as u64;
        }
        self.raw.put_bytes(record_id, bytes);
        self.records.insert(record_id, OnceLock::new());
        let from = self.undecoded_from.0.get_mut();
        *from = (*from).min(record_id);
        self.next_record_id = record_id + 1;
        self.inserted = true;
        Ok(record_id)
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
        let Some(old) = self.get(record_id) else {
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
            return Ok(self.get(record_id).cloned().unwrap_or_default());
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
        let old_size = self
            .capped_bytes
            .is_some()
            .then(|| self.record_size(record_id) as u64);
        // The old document before its bytes are replaced (one kept as bytes is decoded).
        let old = match self.records.remove(&record_id) {
            Some(cell) => self.take_document(record_id, cell),
            None => Document::default(),
        };
        self.raw.put(record_id, &doc, encoded);
        self.records.insert(record_id, OnceLock::from(doc));
        if let (Some(total), Some(new_size), Some(old_size)) =
            (&mut self.capped_bytes, new_size, old_size)
        {
            *total = total.saturating_sub(old_size) + new_size;
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
        let mut ids: Vec<(Vec<u8>, &Bson, u64)> = Vec::with_capacity(docs.len());
        for (record_id, doc, _) in &docs {
            let id = doc.get("_id").ok_or_else(|| {
                Error::new(
                    ErrorCode::InternalError,
                    "document without _id reached the collection",
                )
            })?;
            ids.push((encode_id(id), id, *record_id));
        }
        // Stable and linear when the `_id`s come in order (ObjectIds, counters); the encodings
        // sort as the values do in the simple order.
        crate::sort_slice::sort_by(&mut ids, |a, b| a.0.cmp(&b.0));
        let twice = ids
            .windows(2)
            .find(|w| w[0].0 == w[1].0)
            .map(|w| w[1].1)
            .or_else(|| {
                ids.iter()
                    .find(|(key, _, _)| self.id_index.contains_key(key.as_slice()))
                    .map(|(_, id, _)| *id)
            });
        if let Some(id) = twice {
            return Err(duplicate_id_error(ns, id));
        }
        let ids: Vec<(PointKey, u64)> = ids
            .into_iter()
            .map(|(key, _, record_id)| (PointKey::new(&key), record_id))
            .collect();
        let mut indexes = self.indexes.clone();
        for index in &mut indexes {
            index.insert_all(ns, docs.iter().map(|(r, d, _)| (*r, d)))?;
        }
        self.indexes = indexes;
        self.id_index.extend(ids);
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
        let docs = docs.into_iter().map(|(r, d, _)| (r, OnceLock::from(d)));
        if self.records.is_empty() {
            self.records = docs.collect();
        } else {
            self.records.extend(docs);
        }
        Ok(())
    }

    pub fn remove(&mut self, record_id: u64) -> Option<Document> {
        let size = self
            .capped_bytes
            .is_some()
            .then(|| self.record_size(record_id) as u64);
        let cell = self.records.remove(&record_id)?;
        let doc = self.take_document(record_id, cell);
        if let (Some(total), Some(size)) = (&mut self.capped_bytes, size) {
            *total = total.saturating_sub(size);
        }
        self.raw.remove(record_id);
        for index in &mut self.indexes {
            if let Ok(Some(keys)) = index.keys_for(&doc) {
                index.remove(&keys, record_id);
            }
        }
        if let Some(id) = doc.get("_id") {
            self.id_index.remove(encode_id(id).as_slice());
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

/// [`Collection::undecoded_from`]: written by walks over the documents, which borrow the
/// collection shared.
#[derive(Debug)]
struct FirstUndecoded(AtomicU64);

impl Default for FirstUndecoded {
    fn default() -> Self {
        FirstUndecoded(AtomicU64::new(u64::MAX))
    }
}

impl Clone for FirstUndecoded {
    fn clone(&self) -> Self {
        FirstUndecoded(AtomicU64::new(self.0.load(Ordering::Relaxed)))
    }
}

/// An `_id`'s key in the `_id` lookup (and, for the `{_id: 1}` index, its index key).
fn encode_id(id: &Bson) -> Vec<u8> {
    let mut key = Vec::with_capacity(16);
    encode_value(id, &mut key);
    key
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
#[path = "collection_tests.rs"]
mod tests;
