//! Persistent storage (`navigator.storage`, page side): whether the browser may clear this
//! site's IndexedDB under storage pressure, and the request that it does not.
//!
//! The browser is asked once, when the learner first has data of their own (a collection after
//! a command of theirs), not at page load: an unprompted request on a first visit is a question a
//! learner has no reason to answer, and Chromium grants it by its own measure of engagement
//! anyway. The answer shows in the status line.

use wasm_bindgen_futures::JsFuture;

/// Kept in localStorage once asked, so that the browser is asked only once.
const ASKED_KEY: &str = "sprout-persist-asked";

fn manager() -> Option<web_sys::StorageManager> {
    Some(web_sys::window()?.navigator().storage())
}

async fn answer(promise: Result<js_sys::Promise, wasm_bindgen::JsValue>) -> Option<bool> {
    JsFuture::from(promise.ok()?).await.ok()?.as_bool()
}

/// Whether this site's storage is persistent (`None`: the browser does not say).
pub async fn persisted() -> Option<bool> {
    answer(manager()?.persisted()).await
}

/// Asks for persistent storage unless asked before; the answer, or `None` when not asked now.
pub async fn ask_once() -> Option<bool> {
    let local = web_sys::window()?.local_storage().ok()??;
    if local.get_item(ASKED_KEY).ok()?.is_some() {
        return None;
    }
    let _ = local.set_item(ASKED_KEY, "1");
    answer(manager()?.persist()).await
}
