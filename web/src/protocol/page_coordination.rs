//! The browser's means for pages of one origin to agree on who owns a database: Web Locks
//! (`navigator.locks`, one holder per lock name, released when the holder's page or worker goes
//! away) and `BroadcastChannel` (messages to every other page's listener of a name). Both exist in
//! dedicated workers; web-sys offers Web Locks only among its unstable APIs, so they are reached
//! through `js_sys::Reflect` here.

use std::cell::RefCell;

use futures_channel::oneshot;
use js_sys::{Function, Object, Promise, Reflect};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{BroadcastChannel, MessageEvent};

thread_local! {
    /// Resolving this ends the held lock's callback, which releases the lock.
    static RELEASE: RefCell<Option<Function>> = const { RefCell::new(None) };
}

/// `navigator.locks` of this global scope, when the browser has it (a secure context is needed:
/// https, or http on localhost).
fn lock_manager() -> Option<JsValue> {
    let navigator = Reflect::get(&js_sys::global(), &JsValue::from_str("navigator")).ok()?;
    let locks = Reflect::get(&navigator, &JsValue::from_str("locks")).ok()?;
    (!locks.is_undefined() && !locks.is_null()).then_some(locks)
}

/// Whether Web Locks are available here.
pub fn locks_available() -> bool {
    lock_manager().is_some()
}

/// Asks for the exclusive lock `name`. With `if_available`, answers at once (`false`: another
/// holds it); otherwise waits until it is granted. A granted lock is held until [`release`] or
/// until this worker ends (closed page, terminated worker, crash).
pub async fn acquire(name: &str, if_available: bool) -> Result<bool, String> {
    let locks = lock_manager().ok_or("this browser has no Web Locks here")?;
    let request: Function = Reflect::get(&locks, &JsValue::from_str("request"))
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or("navigator.locks.request is missing")?;
    let (granted_tx, granted_rx) = oneshot::channel::<bool>();
    let callback = Closure::once_into_js(move |lock: JsValue| -> JsValue {
        let granted = !lock.is_null() && !lock.is_undefined();
        let _ = granted_tx.send(granted);
        if !granted {
            return JsValue::UNDEFINED;
        }
        // The lock is held while this promise is pending.
        Promise::new(&mut |resolve, _| {
            RELEASE.with(|r| *r.borrow_mut() = Some(resolve));
        })
        .into()
    });
    let options = Object::new();
    if if_available {
        let _ = Reflect::set(&options, &JsValue::from_str("ifAvailable"), &JsValue::TRUE);
    }
    let pending = request
        .call3(&locks, &JsValue::from_str(name), &options, &callback)
        .map_err(|e| format!("navigator.locks.request failed: {e:?}"))?;
    // Nobody awaits the request's own promise: keep a rejection from being "unhandled" (which
    // static/worker.js reports as a crash).
    if let Ok(promise) = pending.dyn_into::<Promise>() {
        let ignore = Closure::<dyn FnMut(JsValue)>::new(|_| {});
        let _ = promise.catch(&ignore);
        ignore.forget();
    }
    granted_rx
        .await
        .map_err(|_| "the lock request was dropped".to_string())
}

/// Releases the lock this worker holds, if any.
pub fn release() {
    if let Some(resolve) = RELEASE.with(|r| r.borrow_mut().take()) {
        let _ = resolve.call0(&JsValue::UNDEFINED);
    }
}

/// Opens the channel `name`, handing each message (a `protocol::ChannelMessage` as a JavaScript
/// object) to `on_message`.
pub fn open_channel(
    name: &str,
    on_message: impl FnMut(JsValue) + 'static,
) -> Result<BroadcastChannel, String> {
    let channel =
        BroadcastChannel::new(name).map_err(|e| format!("BroadcastChannel failed: {e:?}"))?;
    let mut on_data = on_message;
    let on_message =
        Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| on_data(ev.data()));
    channel.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The channel lives as long as the worker.
    on_message.forget();
    Ok(channel)
}
