//! Applying a primary's change batches to another member's engine, as a secondary applies the
//! oplog: collections are created, re-optioned (indexes rebuilt) or dropped, and documents put
//! or removed under the same record ids as on the primary, so every member's data is the
//! primary's data as of the last entry it applied.

use crate::Engine;
use crate::catalog::{Catalog, Collection};
use crate::error::{Error, ErrorCode, Result};
use crate::storage::{Change, ChangeBatch};
use crate::value;

impl Engine {
    /// Applies `batch` to this engine's catalog. The batch is not recorded as pending changes
    /// of this engine (a member's data is not what the host persists).
    pub fn apply_changes(&mut self, batch: &ChangeBatch) -> Result<()> {
        for change in &batch.changes {
            match change {
                Change::PutCollection { ns, options } => {
                    let mut rebuilt = Collection::with_options(options.clone());
                    if let Some(old) = self.catalog.drop_collection(ns) {
                        let ns_text = ns.to_string();
                        for (record_id, doc) in old.iter() {
                            rebuilt.insert_with_record_id(&ns_text, record_id, doc.clone())?;
                        }
                    }
                    self.catalog.insert_collection(ns, rebuilt);
                }
                Change::DropCollection { ns } => {
                    self.catalog.drop_collection(ns);
                }
                Change::PutDocument {
                    ns,
                    record_id,
                    bson,
                } => {
                    let doc = value::bson_bytes::decode_document(bson).map_err(|e| {
                        Error::new(
                            ErrorCode::InternalError,
                            format!("corrupt oplog document: {}", e.message),
                        )
                    })?;
                    let ns_text = ns.to_string();
                    let (coll, _) = self.catalog.collection_or_create(ns);
                    coll.remove(*record_id);
                    coll.insert_with_record_id(&ns_text, *record_id, doc)?;
                }
                Change::DeleteDocument { ns, record_id } => {
                    if let Some(coll) = self.catalog.collection_mut(ns) {
                        coll.remove(*record_id);
                    }
                }
            }
        }
        self.catalog.stamp_index_usage(self.now_millis());
        Ok(())
    }

    /// Replaces this engine's data with a copy of `catalog` (an initial sync, or a member that
    /// must roll back writes the set no longer has).
    pub fn replace_catalog(&mut self, catalog: Catalog) {
        self.catalog = catalog;
    }
}

#[cfg(test)]
mod tests {
    use bson::doc;

    use crate::Engine;
    use crate::clock::SimulatedClock;

    fn engine() -> Engine {
        Engine::with_clock(Box::new(SimulatedClock::new(1_700_000_000_000)), 7)
    }

    #[test]
    fn a_secondary_ends_with_the_primarys_documents_and_indexes() {
        let mut primary = engine();
        let mut secondary = engine();
        primary.run_command(
            "test",
            &doc! {"insert": "c", "documents": [{"_id": 1}, {"_id": 2}]},
        );
        primary.run_command(
            "test",
            &doc! {"createIndexes": "c", "indexes": [{"key": {"x": 1}, "name": "x_1"}]},
        );
        primary.run_command(
            "test",
            &doc! {"update": "c", "updates": [{"q": {"_id": 1}, "u": {"$set": {"x": 5}}}]},
        );
        primary.run_command(
            "test",
            &doc! {"delete": "c", "deletes": [{"q": {"_id": 2}, "limit": 1}]},
        );
        secondary.apply_changes(&primary.take_changes()).unwrap();
        let reply = secondary.run_command("test", &doc! {"find": "c"});
        let batch = reply
            .get_document("cursor")
            .unwrap()
            .get_array("firstBatch")
            .unwrap();
        assert_eq!(batch, &vec![bson::Bson::Document(doc! {"_id": 1, "x": 5})]);
        let indexes = secondary.run_command("test", &doc! {"listIndexes": "c"});
        let names = indexes
            .get_document("cursor")
            .unwrap()
            .get_array("firstBatch")
            .unwrap();
        assert_eq!(names.len(), 2);
    }
}
