//! IndexedDB persistence: the browser's [`engine::storage`] store.
//!
//! Four object stores in the database: `collections` (key `db\x01coll`, value: the options
//! document as BSON bytes), `packs` (key `db\x01coll\x01<first record id hex>`, value: up to
//! 1,024 documents, see [`crate::worker::record_packs`]), `documents` (key `db\x01coll\x01<record id
//! hex>`, value: the document's BSON bytes, or no bytes for a deleted document: the changes since
//! the packs were written, which override them) and `clients` (key: a page's client id, value:
//! `[seq, at]`, the last of its commands whose changes are stored and when). Each [`ChangeBatch`]
//! commits in one readwrite transaction over all of them, together with the mark of the command it
//! came from, so a closed tab
//! never leaves half a command behind and a page whose command was in flight when the database's
//! owner died can tell whether it was applied (see `shell_worker`). Indexes are not stored: they
//! are rebuilt on load. Failures are [`StorageError`]s: a full quota is told apart, since the
//! command must then report it and leave nothing half-written.

use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

use engine::catalog::Namespace;
use engine::storage::{
    Change, ChangeBatch, Snapshot, collection_key, document_key, parse_collection_key,
    parse_document_key,
};
use js_sys::{Array, Promise, Uint8Array};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

pub use crate::indexed_db::{StorageError, StoreEvent};
use crate::indexed_db::{completion, open_watched, request, request_promise};
use crate::worker::record_packs::decode_pack;
use web_sys::{IdbDatabase, IdbKeyRange, IdbTransaction, IdbTransactionMode};

const DOCUMENTS: &str = "documents";
const COLLECTIONS: &str = "collections";
const CLIENTS: &str = "clients";
const PACKS: &str = "packs";
/// 1: documents and collections; 2: clients (the marks of applied commands); 3: packs.
const VERSION: u32 = 3;

/// Marks older than this are dropped when a page takes the database over: a page whose command
/// waited that long for an answer has long been closed.
const MARK_LIFETIME_MS: f64 = 24.0 * 3600.0 * 1000.0;

/// An open IndexedDB database holding one Sprout deployment.
#[derive(Clone)]
pub struct IdbStore {
    db: IdbDatabase,
}

impl IdbStore {
    /// Opens (creating on first use) the IndexedDB database `name`.
    pub async fn open(name: &str) -> Result<IdbStore, StorageError> {
        IdbStore::open_watched(name, Rc::new(|_| {})).await
    }

    /// [`IdbStore::open`], telling `on_event` about blocked opens and version changes.
    pub async fn open_watched(
        name: &str,
        on_event: Rc<dyn Fn(StoreEvent)>,
    ) -> Result<IdbStore, StorageError> {
        let db = open_watched(
            name,
            VERSION,
            &[DOCUMENTS, COLLECTIONS, CLIENTS, PACKS],
            on_event,
        )
        .await?;
        Ok(IdbStore { db })
    }

    fn transaction(&self, mode: IdbTransactionMode) -> Result<IdbTransaction, StorageError> {
        let stores = Array::of4(
            &JsValue::from_str(DOCUMENTS),
            &JsValue::from_str(COLLECTIONS),
            &JsValue::from_str(CLIENTS),
            &JsValue::from_str(PACKS),
        );
        self.db
            .transaction_with_str_sequence_and_mode(&stores, mode)
            .map_err(|e| StorageError::of("transaction", e))
    }

    /// Commits one command's changes in a single transaction.
    pub async fn commit(&self, batch: &ChangeBatch) -> Result<(), StorageError> {
        self.commit_marked(batch, None).await
    }

    /// Commits one command's changes in a single transaction, with the mark `(client, seq)` of
    /// the command they came from (see [`IdbStore::marks`]).
    pub async fn commit_marked(
        &self,
        batch: &ChangeBatch,
        mark: Option<(&str, u64)>,
    ) -> Result<(), StorageError> {
        if batch.is_empty() {
            return Ok(());
        }
        let tx = self.transaction(IdbTransactionMode::Readwrite)?;
        let store = |name| {
            tx.object_store(name)
                .map_err(|e| StorageError::of("store", e))
        };
        let docs = store(DOCUMENTS)?;
        let colls = store(COLLECTIONS)?;
        let clients = store(CLIENTS)?;
        let packs = store(PACKS)?;
        let done = completion(&tx);
        if let Some((client, seq)) = mark {
            let value = Array::of2(
                &JsValue::from_f64(seq as f64),
                &JsValue::from_f64(js_sys::Date::now()),
            );
            if let Err(e) = clients.put_with_key(&value, &JsValue::from_str(client)) {
                let _ = tx.abort();
                return Err(StorageError::of("write", e));
            }
        }
        for change in &batch.changes {
            let r = match change {
                Change::PutCollection { ns, options } => {
                    let bytes = options.to_vec().unwrap_or_default();
                    colls
                        .put_with_key(
                            &Uint8Array::from(bytes.as_slice()),
                            &JsValue::from_str(&collection_key(ns)),
                        )
                        .map(|_| ())
                }
                Change::DropCollection { ns } => {
                    // All of the collection's documents: keys from "db\x01coll\x01" to "db\x01coll\x02".
                    let prefix = collection_key(ns);
                    let range = IdbKeyRange::bound(
                        &JsValue::from_str(&format!("{prefix}\u{1}")),
                        &JsValue::from_str(&format!("{prefix}\u{2}")),
                    );
                    range
                        .and_then(|r| docs.delete(&r).and_then(|_| packs.delete(&r)))
                        .and_then(|_| colls.delete(&JsValue::from_str(&prefix)))
                        .map(|_| ())
                }
                Change::PutDocument {
                    ns,
                    record_id,
                    bson,
                } => docs
                    .put_with_key(
                        &Uint8Array::from(bson.as_slice()),
                        &JsValue::from_str(&document_key(ns, *record_id)),
                    )
                    .map(|_| ()),
                // No bytes: deleted (a pack may still hold the document).
                Change::DeleteDocument { ns, record_id } => docs
                    .put_with_key(
                        &Uint8Array::new_with_length(0),
                        &JsValue::from_str(&document_key(ns, *record_id)),
                    )
                    .map(|_| ()),
            };
            if let Err(e) = r {
                let _ = tx.abort();
                return Err(StorageError::of("write", e));
            }
        }
        done.await.map_err(|e| StorageError::of("commit", e))
    }

    /// The last applied command of each page (client id → seq), as [`IdbStore::commit_marked`]
    /// recorded them; marks older than a day are dropped on the way.
    pub async fn marks(&self) -> Result<HashMap<String, u64>, StorageError> {
        let tx = self.transaction(IdbTransactionMode::Readwrite)?;
        let clients = tx
            .object_store(CLIENTS)
            .map_err(|e| StorageError::of("store", e))?;
        let done = completion(&tx);
        let (keys, values) = read_all(&clients).await?;
        let now = js_sys::Date::now();
        let mut marks = HashMap::new();
        for (k, v) in keys.iter().zip(values.iter()) {
            let Some(client) = k.as_string() else {
                continue;
            };
            let pair: Array = v.unchecked_into();
            let seq = pair.get(0).as_f64().unwrap_or(0.0) as u64;
            let at = pair.get(1).as_f64().unwrap_or(0.0);
            if now - at > MARK_LIFETIME_MS {
                let _ = clients.delete(&k);
            } else {
                marks.insert(client, seq);
            }
        }
        done.await.map_err(|e| StorageError::of("commit", e))?;
        Ok(marks)
    }

    /// Reads everything back, for [`engine::Engine::load`].
    pub async fn snapshot(&self) -> Result<Snapshot, StorageError> {
        Ok(self.load().await?.0)
    }

    /// Reads everything back, for [`engine::Engine::load`]: the collections, the packs'
    /// documents with the changes since laid over them; and how many change records there are
    /// (see [`IdbStore::compact`]). Documents come in any order ([`engine::Engine::load`] sorts).
    pub async fn load(&self) -> Result<(Snapshot, usize), StorageError> {
        let tx = self.transaction(IdbTransactionMode::Readonly)?;
        let store = |name| {
            tx.object_store(name)
                .map_err(|e| StorageError::of("store", e))
        };
        // All six reads are asked for at once; IndexedDB answers them in order.
        let colls = start_read_all(&store(COLLECTIONS)?)?;
        let packs = start_read_all(&store(PACKS)?)?;
        let changes = start_read_all(&store(DOCUMENTS)?)?;
        let mut snapshot = Snapshot::default();
        let (keys, values) = colls.finish().await?;
        for (k, v) in keys.iter().zip(values.iter()) {
            let Some(ns) = k.as_string().and_then(|k| parse_collection_key(&k)) else {
                continue;
            };
            let bytes = Uint8Array::new(&v).to_vec();
            let options = bson::Document::from_reader(bytes.as_slice()).unwrap_or_default();
            snapshot.collections.push((ns, options));
        }
        // The change records first (few, once compacted): they override the packs.
        let (pack_keys, pack_values) = packs.finish().await?;
        let (keys, values) = changes.finish().await?;
        let change_records = keys.length() as usize;
        let mut overrides: BTreeMap<Namespace, BTreeMap<u64, Vec<u8>>> = BTreeMap::new();
        for (k, v) in keys.iter().zip(values.iter()) {
            let Some((ns, record_id)) = k.as_string().and_then(|k| parse_document_key(&k)) else {
                continue;
            };
            overrides
                .entry(ns)
                .or_default()
                .insert(record_id, Uint8Array::new(&v).to_vec());
        }
        for (k, v) in pack_keys.iter().zip(pack_values.iter()) {
            let Some((ns, _)) = k.as_string().and_then(|k| parse_document_key(&k)) else {
                continue;
            };
            let entries =
                decode_pack(&Uint8Array::new(&v).to_vec()).map_err(StorageError::Failed)?;
            let mut changed = overrides.get_mut(&ns);
            for (record_id, bytes) in entries {
                let bytes = match changed.as_mut().and_then(|c| c.remove(&record_id)) {
                    Some(newer) => newer,
                    None => bytes,
                };
                // No bytes: deleted since the pack was written.
                if !bytes.is_empty() {
                    snapshot.documents.push((ns.clone(), record_id, bytes));
                }
            }
        }
        // Documents inserted since the packs were written.
        for (ns, changed) in overrides {
            for (record_id, bytes) in changed {
                if !bytes.is_empty() {
                    snapshot.documents.push((ns.clone(), record_id, bytes));
                }
            }
        }
        Ok((snapshot, change_records))
    }

    /// Replaces the stored documents by `packs` (key, pack bytes: every document of the
    /// database, as the owner's engine holds them after its last commit) and drops the change
    /// records, in one transaction: a crash leaves the old form or the new one.
    pub async fn compact(&self, packs: &[(String, Vec<u8>)]) -> Result<(), StorageError> {
        let tx = self.transaction(IdbTransactionMode::Readwrite)?;
        let store = |name| {
            tx.object_store(name)
                .map_err(|e| StorageError::of("store", e))
        };
        let docs = store(DOCUMENTS)?;
        let pack_store = store(PACKS)?;
        let done = completion(&tx);
        let written = docs.clear().and_then(|_| pack_store.clear()).and_then(|_| {
            for (key, bytes) in packs {
                pack_store
                    .put_with_key(&Uint8Array::from(bytes.as_slice()), &JsValue::from_str(key))?;
            }
            Ok(())
        });
        if let Err(e) = written {
            let _ = tx.abort();
            return Err(StorageError::of("write", e));
        }
        done.await.map_err(|e| StorageError::of("commit", e))
    }

    pub fn close(&self) {
        self.db.close();
    }
}

/// A store's keys and values being read.
struct ReadAll {
    keys: Promise,
    values: Promise,
}

/// Asks for all of a store's keys and values, listening from now on.
fn start_read_all(store: &web_sys::IdbObjectStore) -> Result<ReadAll, StorageError> {
    let read = |e| StorageError::of("read", e);
    Ok(ReadAll {
        keys: request_promise(&store.get_all_keys().map_err(read)?),
        values: request_promise(&store.get_all().map_err(read)?),
    })
}

impl ReadAll {
    async fn finish(self) -> Result<(Array, Array), StorageError> {
        let read = |e| StorageError::of("read", e);
        let keys = JsFuture::from(self.keys).await.map_err(read)?;
        let values = JsFuture::from(self.values).await.map_err(read)?;
        Ok((keys.unchecked_into(), values.unchecked_into()))
    }
}

async fn read_all(store: &web_sys::IdbObjectStore) -> Result<(Array, Array), StorageError> {
    let read = |e| StorageError::of("read", e);
    let keys_req = store.get_all_keys().map_err(read)?;
    let values_req = store.get_all().map_err(read)?;
    let keys = request(&keys_req).await.map_err(read)?;
    let values = request(&values_req).await.map_err(read)?;
    Ok((keys.unchecked_into(), values.unchecked_into()))
}
