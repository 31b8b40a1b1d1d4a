//! One collection: documents in record-id order, and the unique `_id` index.

use std::collections::BTreeMap;

use bson::{Bson, Document};

use crate::error::{Error, ErrorCode, Result};
use crate::value::OrderedValue;

#[derive(Debug, Clone, Default)]
pub struct Collection {
    pub options: Document,
    records: BTreeMap<u64, Document>,
    id_index: BTreeMap<OrderedValue, u64>,
    next_record_id: u64,
}

impl Collection {
    pub fn new() -> Self {
        Collection {
            next_record_id: 1,
            ..Default::default()
        }
    }

    pub fn with_options(options: Document) -> Self {
        Collection {
            options,
            ..Collection::new()
        }
    }

    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Documents in natural (insertion) order, with their record ids.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (u64, &Document)> {
        self.records.iter().map(|(r, d)| (*r, d))
    }

    pub fn get(&self, record_id: u64) -> Option<&Document> {
        self.records.get(&record_id)
    }

    pub fn find_by_id(&self, id: &Bson) -> Option<u64> {
        self.id_index.get(&OrderedValue(id.clone())).copied()
    }

    /// Inserts a document that already has its `_id` first; fails with E11000 on a duplicate.
    pub fn insert(&mut self, ns: &str, doc: Document) -> Result<u64> {
        let record_id = self.next_record_id;
        self.insert_with_record_id(ns, record_id, doc)?;
        Ok(record_id)
    }

    /// Inserts under a known record id (used when loading from a store).
    pub fn insert_with_record_id(&mut self, ns: &str, record_id: u64, doc: Document) -> Result<()> {
        let id = doc.get("_id").cloned().ok_or_else(|| {
            Error::new(
                ErrorCode::InternalError,
                "document without _id reached the collection",
            )
        })?;
        let key = OrderedValue(id);
        if self.id_index.contains_key(&key) {
            return Err(duplicate_id_error(ns, &key.0));
        }
        self.id_index.insert(key, record_id);
        self.records.insert(record_id, doc);
        self.next_record_id = self.next_record_id.max(record_id + 1);
        Ok(())
    }

    pub fn remove(&mut self, record_id: u64) -> Option<Document> {
        let doc = self.records.remove(&record_id)?;
        if let Some(id) = doc.get("_id") {
            self.id_index.remove(&OrderedValue(id.clone()));
        }
        Some(doc)
    }
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
