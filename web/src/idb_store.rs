//! IndexedDB persistence: the browser's [`engine::storage`] store.
//!
//! Two object stores in the database: `collections` (key `db\x01coll`, value: the options
//! document as BSON bytes) and `documents` (key `db\x01coll\x01<record id hex>`, value: the
//! document's BSON bytes). Each [`ChangeBatch`] commits in one readwrite transaction, so a closed
//! tab never leaves half a command behind. Indexes are not stored: they are rebuilt on load.

use std::cell::RefCell;
use std::rc::Rc;

use engine::storage::{
    Change, ChangeBatch, Snapshot, collection_key, document_key, parse_collection_key,
    parse_document_key,
};
use js_sys::{Array, Promise, Uint8Array};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    IdbDatabase, IdbKeyRange, IdbOpenDbRequest, IdbRequest, IdbTransaction, IdbTransactionMode,
};

const DOCUMENTS: &str = "documents";
const COLLECTIONS: &str = "collections";
const VERSION: u32 = 1;

/// An open IndexedDB database holding one Sprout deployment.
#[derive(Clone)]
pub struct IdbStore {
    db: IdbDatabase,
}

pub(crate) fn js_err(context: &str, e: JsValue) -> String {
    let detail = e
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.dyn_ref::<web_sys::DomException>().map(|d| d.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| format!("{e:?}"));
    format!("IndexedDB {context}: {detail}")
}

/// Resolves when an IDBRequest succeeds, with its result.
pub(crate) async fn request(req: &IdbRequest) -> Result<JsValue, JsValue> {
    let req_ok = req.clone();
    let req_err = req.clone();
    let promise = Promise::new(&mut |resolve, reject| {
        let ok_req = req_ok.clone();
        let on_ok = Closure::once_into_js(move |_: web_sys::Event| {
            let _ = resolve.call1(
                &JsValue::UNDEFINED,
                &ok_req.result().unwrap_or(JsValue::UNDEFINED),
            );
        });
        let err_req = req_err.clone();
        let on_err = Closure::once_into_js(move |_: web_sys::Event| {
            let err = err_req
                .error()
                .ok()
                .flatten()
                .map(JsValue::from)
                .unwrap_or(JsValue::from_str("request failed"));
            let _ = reject.call1(&JsValue::UNDEFINED, &err);
        });
        req_ok.set_onsuccess(Some(on_ok.unchecked_ref()));
        req_ok.set_onerror(Some(on_err.unchecked_ref()));
    });
    JsFuture::from(promise).await
}

/// Resolves when a transaction completes (commits); rejects when it aborts or fails.
pub(crate) async fn completion(tx: &IdbTransaction) -> Result<(), JsValue> {
    let tx = tx.clone();
    let promise = Promise::new(&mut |resolve, reject| {
        let on_complete = Closure::once_into_js(move |_: web_sys::Event| {
            let _ = resolve.call0(&JsValue::UNDEFINED);
        });
        let reject2 = reject.clone();
        let tx_err = tx.clone();
        let on_error = Closure::once_into_js(move |_: web_sys::Event| {
            let err = tx_err
                .error()
                .map(JsValue::from)
                .unwrap_or(JsValue::from_str("transaction failed"));
            let _ = reject.call1(&JsValue::UNDEFINED, &err);
        });
        let on_abort = Closure::once_into_js(move |_: web_sys::Event| {
            let _ = reject2.call1(
                &JsValue::UNDEFINED,
                &JsValue::from_str("transaction aborted"),
            );
        });
        tx.set_oncomplete(Some(on_complete.unchecked_ref()));
        tx.set_onerror(Some(on_error.unchecked_ref()));
        tx.set_onabort(Some(on_abort.unchecked_ref()));
    });
    JsFuture::from(promise).await.map(|_| ())
}

/// Opens (creating on first use) the IndexedDB database `name` with the object stores `stores`
/// (created by the upgrade from an older `version`).
pub(crate) async fn open_database(
    name: &str,
    version: u32,
    stores: &'static [&'static str],
) -> Result<IdbDatabase, String> {
    // `indexedDB` of the global scope: the page's window or the shell worker's scope.
    let factory = js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("indexedDB"))
        .map_err(|e| js_err("unavailable", e))?;
    if factory.is_undefined() || factory.is_null() {
        return Err("IndexedDB is not available in this browser".into());
    }
    let factory: web_sys::IdbFactory = factory.unchecked_into();
    let open: IdbOpenDbRequest = factory
        .open_with_u32(name, version)
        .map_err(|e| js_err("open", e))?;
    let upgrading = open.clone();
    let on_upgrade = Closure::<dyn FnMut(web_sys::IdbVersionChangeEvent)>::new(move |_| {
        if let Ok(result) = upgrading.result() {
            let db: IdbDatabase = result.unchecked_into();
            let names = db.object_store_names();
            for store in stores {
                if !names.contains(store) {
                    let _ = db.create_object_store(store);
                }
            }
        }
    });
    open.set_onupgradeneeded(Some(on_upgrade.as_ref().unchecked_ref()));
    let db = request(&open).await.map_err(|e| js_err("open", e))?;
    drop(on_upgrade);
    Ok(db.unchecked_into())
}

impl IdbStore {
    /// Opens (creating on first use) the IndexedDB database `name`.
    pub async fn open(name: &str) -> Result<IdbStore, String> {
        let db = open_database(name, VERSION, &[DOCUMENTS, COLLECTIONS]).await?;
        Ok(IdbStore { db })
    }

    fn transaction(&self, mode: IdbTransactionMode) -> Result<IdbTransaction, String> {
        let stores = Array::of2(
            &JsValue::from_str(DOCUMENTS),
            &JsValue::from_str(COLLECTIONS),
        );
        self.db
            .transaction_with_str_sequence_and_mode(&stores, mode)
            .map_err(|e| js_err("transaction", e))
    }

    /// Commits one command's changes in a single transaction.
    pub async fn commit(&self, batch: &ChangeBatch) -> Result<(), String> {
        if batch.is_empty() {
            return Ok(());
        }
        let tx = self.transaction(IdbTransactionMode::Readwrite)?;
        let docs = tx.object_store(DOCUMENTS).map_err(|e| js_err("store", e))?;
        let colls = tx
            .object_store(COLLECTIONS)
            .map_err(|e| js_err("store", e))?;
        let done = completion(&tx);
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
                        .and_then(|r| docs.delete(&r))
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
                Change::DeleteDocument { ns, record_id } => docs
                    .delete(&JsValue::from_str(&document_key(ns, *record_id)))
                    .map(|_| ()),
            };
            if let Err(e) = r {
                let _ = tx.abort();
                return Err(js_err("write", e));
            }
        }
        done.await.map_err(|e| js_err("commit", e))
    }

    /// Reads everything back, for [`engine::Engine::load`].
    pub async fn snapshot(&self) -> Result<Snapshot, String> {
        let tx = self.transaction(IdbTransactionMode::Readonly)?;
        let mut snapshot = Snapshot::default();
        let colls = tx
            .object_store(COLLECTIONS)
            .map_err(|e| js_err("store", e))?;
        let (keys, values) = read_all(&colls).await?;
        for (k, v) in keys.iter().zip(values.iter()) {
            let Some(ns) = k.as_string().and_then(|k| parse_collection_key(&k)) else {
                continue;
            };
            let bytes = Uint8Array::new(&v).to_vec();
            let options = bson::Document::from_reader(bytes.as_slice()).unwrap_or_default();
            snapshot.collections.push((ns, options));
        }
        let docs = tx.object_store(DOCUMENTS).map_err(|e| js_err("store", e))?;
        let (keys, values) = read_all(&docs).await?;
        for (k, v) in keys.iter().zip(values.iter()) {
            let Some((ns, rid)) = k.as_string().and_then(|k| parse_document_key(&k)) else {
                continue;
            };
            snapshot
                .documents
                .push((ns, rid, Uint8Array::new(&v).to_vec()));
        }
        Ok(snapshot)
    }

    pub fn close(&self) {
        self.db.close();
    }
}

async fn read_all(store: &web_sys::IdbObjectStore) -> Result<(Array, Array), String> {
    let keys_req = store.get_all_keys().map_err(|e| js_err("read", e))?;
    let values_req = store.get_all().map_err(|e| js_err("read", e))?;
    let keys = request(&keys_req).await.map_err(|e| js_err("read", e))?;
    let values = request(&values_req).await.map_err(|e| js_err("read", e))?;
    Ok((keys.unchecked_into(), values.unchecked_into()))
}

/// A store shared by the UI's closures.
pub type SharedStore = Rc<RefCell<Option<IdbStore>>>;
