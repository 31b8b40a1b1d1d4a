//! IndexedDB's request plumbing, used by both sides of the page/worker split: the shell worker's
//! document store (`crate::worker::idb_store`) and the page's lesson progress
//! (`crate::page::lessons::progress_store`). Requests and transactions as futures, opening a
//! database with its object stores, and the typed errors a DOM failure stands for.

use std::rc::Rc;

use js_sys::Promise;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{IdbDatabase, IdbOpenDbRequest, IdbRequest, IdbTransaction};

/// Why IndexedDB did not do what was asked.
#[derive(Debug, Clone, PartialEq)]
pub enum StorageError {
    /// There is no IndexedDB here (a private window, storage blocked by the user's settings).
    Unavailable(String),
    /// The browser's storage quota for this site is used up; the transaction was aborted and
    /// nothing of it was written.
    QuotaExceeded(String),
    /// Any other failure, with IndexedDB's words.
    Failed(String),
}

impl std::fmt::Display for StorageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StorageError::Unavailable(why) => write!(f, "IndexedDB is not available: {why}"),
            StorageError::QuotaExceeded(why) => {
                write!(
                    f,
                    "the browser's storage quota for this site is used up ({why})"
                )
            }
            StorageError::Failed(why) => f.write_str(why),
        }
    }
}

impl StorageError {
    /// The typed error a DOM failure of `context` stands for.
    pub fn of(context: &str, e: JsValue) -> StorageError {
        let name = e
            .dyn_ref::<web_sys::DomException>()
            .map(|d| d.name())
            .unwrap_or_default();
        let text = js_err(context, e);
        match name.as_str() {
            "QuotaExceededError" => StorageError::QuotaExceeded(text),
            "SecurityError" | "InvalidStateError" if context == "open" => {
                StorageError::Unavailable(text)
            }
            _ => StorageError::Failed(text),
        }
    }
}

/// What a page is told while its database is opened or held: another page's connection blocks a
/// schema upgrade, or another page upgrades the schema under this one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoreEvent {
    /// Opening waits: another page keeps an older version open.
    Blocked,
    /// Another page wants a newer version: this connection was closed.
    VersionChange,
}

pub fn js_err(context: &str, e: JsValue) -> String {
    let detail = e
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.dyn_ref::<web_sys::DomException>().map(|d| d.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| format!("{e:?}"));
    format!("IndexedDB {context}: {detail}")
}

/// Resolves when an IDBRequest succeeds, with its result.
pub async fn request(req: &IdbRequest) -> Result<JsValue, JsValue> {
    JsFuture::from(request_promise(req)).await
}

/// A promise of the request's result, listening from now on (so that it may be awaited later,
/// after other work, without missing the request's events).
pub fn request_promise(req: &IdbRequest) -> Promise {
    let req_ok = req.clone();
    let req_err = req.clone();
    Promise::new(&mut |resolve, reject| {
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
    })
}

/// Resolves when a transaction completes (commits); rejects when it aborts or fails.
pub async fn completion(tx: &IdbTransaction) -> Result<(), JsValue> {
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
        let tx_abort = tx.clone();
        let on_abort = Closure::once_into_js(move |_: web_sys::Event| {
            // A quota failure aborts the transaction: its error says why.
            let err = tx_abort
                .error()
                .map(JsValue::from)
                .unwrap_or(JsValue::from_str("transaction aborted"));
            let _ = reject2.call1(&JsValue::UNDEFINED, &err);
        });
        tx.set_oncomplete(Some(on_complete.unchecked_ref()));
        tx.set_onerror(Some(on_error.unchecked_ref()));
        tx.set_onabort(Some(on_abort.unchecked_ref()));
    });
    JsFuture::from(promise).await.map(|_| ())
}

/// Opens (creating on first use) the IndexedDB database `name` with the object stores `stores`
/// (created by the upgrade from an older `version`).
pub async fn open_database(
    name: &str,
    version: u32,
    stores: &'static [&'static str],
) -> Result<IdbDatabase, String> {
    open_watched(name, version, stores, Rc::new(|_| {}))
        .await
        .map_err(|e| e.to_string())
}

/// [`open_database`], telling `on_event` when the open is blocked by another page's connection
/// and, later, when another page asks for a newer version (this connection is then closed, so
/// that the other page's upgrade never waits on this one).
pub async fn open_watched(
    name: &str,
    version: u32,
    stores: &'static [&'static str],
    on_event: Rc<dyn Fn(StoreEvent)>,
) -> Result<IdbDatabase, StorageError> {
    // `indexedDB` of the global scope: the page's window or the shell worker's scope.
    let factory = js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("indexedDB"))
        .map_err(|e| StorageError::Unavailable(js_err("lookup", e)))?;
    if factory.is_undefined() || factory.is_null() {
        return Err(StorageError::Unavailable(
            "this browser offers no IndexedDB here".into(),
        ));
    }
    let factory: web_sys::IdbFactory = factory.unchecked_into();
    let open: IdbOpenDbRequest = factory
        .open_with_u32(name, version)
        .map_err(|e| StorageError::of("open", e))?;
    let blocked_event = on_event.clone();
    let on_blocked = Closure::<dyn FnMut(web_sys::Event)>::new(move |_| {
        blocked_event(StoreEvent::Blocked);
    });
    open.set_onblocked(Some(on_blocked.as_ref().unchecked_ref()));
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
    let db = request(&open)
        .await
        .map_err(|e| StorageError::of("open", e))?;
    drop(on_upgrade);
    open.set_onblocked(None);
    drop(on_blocked);
    let db: IdbDatabase = db.unchecked_into();
    let closing = db.clone();
    let on_version_change = Closure::<dyn FnMut(web_sys::Event)>::new(move |_| {
        closing.close();
        on_event(StoreEvent::VersionChange);
    });
    db.set_onversionchange(Some(on_version_change.as_ref().unchecked_ref()));
    // Lives as long as the connection (one per page start).
    on_version_change.forget();
    Ok(db)
}
