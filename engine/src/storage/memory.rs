//! An in-memory [`DurableStore`], for tests and the native shell.

use std::collections::BTreeMap;
use std::convert::Infallible;

use bson::Document;

use super::{Change, ChangeBatch, DurableStore, Snapshot};
use crate::catalog::Namespace;

#[derive(Debug, Default, Clone)]
pub struct MemoryStore {
    collections: BTreeMap<Namespace, Document>,
    documents: BTreeMap<(Namespace, u64), Vec<u8>>,
    /// How many batches were committed: lets tests check one batch per command.
    pub commits: usize,
}

impl MemoryStore {
    pub fn new() -> Self {
        Self::default()
    }
}

impl DurableStore for MemoryStore {
    type Error = Infallible;

    fn commit(&mut self, batch: &ChangeBatch) -> Result<(), Infallible> {
        for change in &batch.changes {
            match change {
                Change::PutCollection { ns, options } => {
                    self.collections.insert(ns.clone(), options.clone());
                }
                Change::DropCollection { ns } => {
                    self.collections.remove(ns);
                    self.documents.retain(|(n, _), _| n != ns);
                }
                Change::PutDocument {
                    ns,
                    record_id,
                    bson,
                } => {
                    self.documents
                        .insert((ns.clone(), *record_id), bson.clone());
                }
                Change::DeleteDocument { ns, record_id } => {
                    self.documents.remove(&(ns.clone(), *record_id));
                }
            }
        }
        self.commits += 1;
        Ok(())
    }

    fn snapshot(&self) -> Result<Snapshot, Infallible> {
        Ok(Snapshot {
            collections: self
                .collections
                .iter()
                .map(|(n, o)| (n.clone(), o.clone()))
                .collect(),
            documents: self
                .documents
                .iter()
                .map(|((n, r), b)| (n.clone(), *r, b.clone()))
                .collect(),
        })
    }
}
