//! Where the lesson progress is kept: the IndexedDB database `sprout-lessons`, apart from the
//! playground's data (`sprout-playground`), so that resetting or replacing the data never loses
//! progress. One object store, `progress`, holds one value: the [`super::progress::Progress`]
//! as JSON.

use wasm_bindgen::JsValue;
use web_sys::{IdbDatabase, IdbTransactionMode};

use crate::indexed_db::{completion, js_err, open_database, request};

const DATABASE: &str = "sprout-lessons";
const STORE: &str = "progress";
const KEY: &str = "progress";
const VERSION: u32 = 1;

#[derive(Clone)]
pub struct ProgressStore {
    db: IdbDatabase,
}

impl ProgressStore {
    pub async fn open() -> Result<ProgressStore, String> {
        Ok(ProgressStore {
            db: open_database(DATABASE, VERSION, &[STORE]).await?,
        })
    }

    /// The saved progress as JSON, if any was saved.
    pub async fn load(&self) -> Result<Option<String>, String> {
        let tx = self
            .db
            .transaction_with_str(STORE)
            .map_err(|e| js_err("transaction", e))?;
        let store = tx.object_store(STORE).map_err(|e| js_err("store", e))?;
        let req = store
            .get(&JsValue::from_str(KEY))
            .map_err(|e| js_err("read", e))?;
        let value = request(&req).await.map_err(|e| js_err("read", e))?;
        Ok(value.as_string())
    }

    /// Replaces the saved progress (one transaction).
    pub async fn save(&self, json: &str) -> Result<(), String> {
        let tx = self
            .db
            .transaction_with_str_and_mode(STORE, IdbTransactionMode::Readwrite)
            .map_err(|e| js_err("transaction", e))?;
        let store = tx.object_store(STORE).map_err(|e| js_err("store", e))?;
        let done = completion(&tx);
        store
            .put_with_key(&JsValue::from_str(json), &JsValue::from_str(KEY))
            .map_err(|e| js_err("write", e))?;
        done.await.map_err(|e| js_err("commit", e))
    }
}
