//! Durability: the engine keeps its data in memory and describes every change a command makes as a
//! [`ChangeBatch`]. A [`DurableStore`] (IndexedDB in the browser, memory in tests) commits each batch
//! atomically; [`crate::Engine::load`] rebuilds the engine from what a store holds.
//!
//! Architecture invariant: the engine never performs I/O itself. One command produces one batch.

mod memory;

pub use memory::MemoryStore;

use bson::Document;

use crate::catalog::Namespace;

/// One durable change. Documents travel as BSON bytes so that stores need no knowledge of BSON.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// A collection exists with these options (created, or options changed).
    PutCollection { ns: Namespace, options: Document },
    /// A collection and all of its documents are gone.
    DropCollection { ns: Namespace },
    /// The document with this record id now has these bytes (insert or replace).
    PutDocument {
        ns: Namespace,
        record_id: u64,
        bson: Vec<u8>,
    },
    /// The document with this record id is gone.
    DeleteDocument { ns: Namespace, record_id: u64 },
}

/// The changes of one command, to be committed all or nothing.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ChangeBatch {
    pub changes: Vec<Change>,
}

impl ChangeBatch {
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }
}

/// What a store hands back when the engine is loaded: collections first, then their documents.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Snapshot {
    pub collections: Vec<(Namespace, Document)>,
    /// Documents with their record ids, in any order.
    pub documents: Vec<(Namespace, u64, Vec<u8>)>,
}

/// A place that keeps change batches durably. Implementations apply a batch atomically.
pub trait DurableStore {
    type Error: std::fmt::Display;
    fn commit(&mut self, batch: &ChangeBatch) -> Result<(), Self::Error>;
    fn snapshot(&self) -> Result<Snapshot, Self::Error>;
}

/// The key a store files a document under: sorts by database, collection, then record id, so a
/// prefix scan of one collection returns its documents in insertion order.
pub fn document_key(ns: &Namespace, record_id: u64) -> String {
    format!("{}\u{1}{}\u{1}{record_id:016x}", ns.db, ns.coll)
}

/// The key a store files a collection's catalog entry under.
pub fn collection_key(ns: &Namespace) -> String {
    format!("{}\u{1}{}", ns.db, ns.coll)
}

/// Reverses [`document_key`].
pub fn parse_document_key(key: &str) -> Option<(Namespace, u64)> {
    let mut parts = key.split('\u{1}');
    let db = parts.next()?;
    let coll = parts.next()?;
    let rid = u64::from_str_radix(parts.next()?, 16).ok()?;
    if parts.next().is_some() {
        return None;
    }
    Some((Namespace::new(db, coll), rid))
}

/// Reverses [`collection_key`].
pub fn parse_collection_key(key: &str) -> Option<Namespace> {
    let (db, coll) = key.split_once('\u{1}')?;
    Some(Namespace::new(db, coll))
}
