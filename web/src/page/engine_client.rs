//! The page's side of the shell worker (see [`crate::worker::shell_worker`]): the only module the UI
//! calls to run shell input.
//!
//! It adopts the worker `index.html` started at load (or starts one), sends one input at a time
//! and awaits the answer. When the user stops a command, or the worker dies (out of memory, an
//! internal error), it terminates the worker, answers the pending command with what happened, and
//! starts a fresh worker from IndexedDB.
//!
//! The worker may own the page's database or forward to the page that does (see
//! [`crate::worker::shell_worker`]); either way it tells this module when another page changed the data
//! and when something about the storage should be said ([`WorkerEvent`]).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use futures_channel::oneshot;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{ErrorEvent, MessageEvent, Worker, WorkerOptions, WorkerType};

pub use crate::protocol::CollectionSummary;
use crate::protocol::database_choice::DatabaseChoice;
use crate::protocol::{
    Catalog, ChannelMessage, ErrorInfo, Request, RequestBody, Response, StorageInfo,
    StructuredResult, Transfer, from_js, to_js,
};

/// The script that boots the `worker` binary's wasm module inside the worker (in `static/`).
const WORKER_SCRIPT: &str = "./worker.js";

/// The global under which `index.html` leaves the worker it started at page load.
const BOOT_WORKER: &str = "sproutBootWorker";

/// What a command produced, as the output pane shows it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Outcome {
    pub output: String,
    pub is_error: bool,
    /// The result as documents, when it is documents (for the tree, table and explain views).
    pub result: Option<StructuredResult>,
    /// The error's name, code and codeName, when the command failed in the shell.
    pub error: Option<ErrorInfo>,
    /// The worker was replaced while this command ran: shell variables are gone.
    pub restarted: bool,
    /// The shell's hints for a learner ("did you mean find?", "collection … does not exist").
    pub notes: Vec<String>,
    /// For an aggregation: what each stage returns (the stage-by-stage view).
    pub stages: Vec<crate::protocol::StageView>,
    /// An exported file's bytes (base64).
    pub file: Option<String>,
}

impl Outcome {
    /// A command that did not get an answer from the shell.
    fn failed(output: impl Into<String>, restarted: bool) -> Outcome {
        Outcome {
            output: output.into(),
            is_error: true,
            result: None,
            error: None,
            restarted,
            notes: Vec::new(),
            stages: Vec::new(),
            file: None,
        }
    }
}

/// What the worker tells the page between answers.
#[derive(Debug, Clone, PartialEq)]
pub enum WorkerEvent {
    /// Another page changed the data: [`collections`] has the new list.
    DataChanged,
    /// A line about the storage to show (another page took the database over, upgrades it…).
    Notice(String),
}

/// What the page does with a [`WorkerEvent`].
type Listener = Rc<dyn Fn(WorkerEvent)>;

/// How the worker started: the database and how it is kept, and why data will not survive a
/// reload, if it will not.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Started {
    pub storage: StorageInfo,
    pub warning: Option<String>,
}

struct Proxy {
    worker: Worker,
    next_id: u64,
    pending: HashMap<u64, oneshot::Sender<Outcome>>,
    ready: Option<oneshot::Sender<Started>>,
    catalog: Catalog,
    /// The worker owns the database's engine (else the commands run in another page).
    owner: bool,
    /// As owner: the other page's input the worker runs now (client, seq).
    running: Option<(String, u64)>,
    /// As another page: Stop was sent to the owner for the command that runs now.
    stop_asked: bool,
    // Kept alive as long as the worker they listen to.
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

thread_local! {
    static PROXY: RefCell<Option<Proxy>> = const { RefCell::new(None) };
    static SESSION_SETUP: RefCell<Option<RequestBody>> = const { RefCell::new(None) };
    static LISTENER: RefCell<Option<Listener>> = const { RefCell::new(None) };
    /// The database's channel, on which other pages ask to stop their inputs.
    static STOP_CHANNEL: RefCell<Option<web_sys::BroadcastChannel>> = const { RefCell::new(None) };
}

/// Calls `listener` with what the worker says between answers.
pub fn set_listener(listener: impl Fn(WorkerEvent) + 'static) {
    LISTENER.with(|l| *l.borrow_mut() = Some(Rc::new(listener)));
}

/// Tells the listener, outside any borrow of the proxy.
fn tell(event: WorkerEvent) {
    wasm_bindgen_futures::spawn_local(async move {
        if let Some(listener) = LISTENER.with(|l| l.borrow().clone()) {
            listener(event);
        }
    });
}

/// Starts the shell worker and waits until it has loaded the stored data (or joined the page
/// that holds it).
pub async fn start() -> Started {
    let (ready_tx, ready_rx) = oneshot::channel();
    if let Err(e) = spawn_worker(ready_tx) {
        return Started {
            warning: Some(e),
            ..Started::default()
        };
    }
    let started = ready_rx.await.unwrap_or_else(|_| Started {
        warning: Some("the shell worker stopped while starting".into()),
        ..Started::default()
    });
    watch_stops(&started.storage);
    started
}

/// The worker's script with the page's query string, which chooses the database.
fn worker_url() -> String {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    format!("{WORKER_SCRIPT}{search}")
}

/// The worker `index.html` started before the page's wasm loaded, with what it said meanwhile
/// (`{data}` messages and `{error}` failures). Taken once: later workers are started here.
fn take_boot_worker() -> Option<(Worker, js_sys::Array)> {
    let window = web_sys::window()?;
    let key = JsValue::from_str(BOOT_WORKER);
    let boot = js_sys::Reflect::get(&window, &key).ok()?;
    if boot.is_undefined() || boot.is_null() {
        return None;
    }
    let _ = js_sys::Reflect::delete_property(&window, &key);
    let worker = js_sys::Reflect::get(&boot, &JsValue::from_str("worker"))
        .ok()?
        .dyn_into::<Worker>()
        .ok()?;
    let early = js_sys::Reflect::get(&boot, &JsValue::from_str("early"))
        .ok()?
        .dyn_into::<js_sys::Array>()
        .unwrap_or_default();
    Some((worker, early))
}

/// Hands what the boot worker said before the page listened to the usual handlers.
fn replay_early(early: &js_sys::Array) {
    for item in early.iter() {
        let field = |name: &str| {
            js_sys::Reflect::get(&item, &JsValue::from_str(name))
                .ok()
                .filter(|v| !v.is_undefined())
        };
        if let Some(data) = field("data") {
            on_response(data);
        } else if let Some(error) = field("error").and_then(|e| e.as_string()) {
            worker_died(&error);
        }
    }
}

fn spawn_worker(ready: oneshot::Sender<Started>) -> Result<(), String> {
    let (worker, early) = match take_boot_worker() {
        Some((worker, early)) => (worker, Some(early)),
        None => {
            let options = WorkerOptions::new();
            options.set_type(WorkerType::Module);
            let worker = Worker::new_with_options(&worker_url(), &options)
                .map_err(|e| format!("the shell worker could not start: {e:?}"))?;
            (worker, None)
        }
    };
    let on_message =
        Closure::<dyn FnMut(MessageEvent)>::new(|ev: MessageEvent| on_response(ev.data()));
    let on_error = Closure::<dyn FnMut(ErrorEvent)>::new(|ev: ErrorEvent| {
        ev.prevent_default();
        worker_died(&ev.message());
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    PROXY.with(|p| {
        let catalog = p
            .borrow()
            .as_ref()
            .map(|old| old.catalog.clone())
            .unwrap_or_default();
        *p.borrow_mut() = Some(Proxy {
            worker,
            next_id: 0,
            pending: HashMap::new(),
            ready: Some(ready),
            catalog,
            owner: true,
            running: None,
            stop_asked: false,
            _on_message: on_message,
            _on_error: on_error,
        });
    });
    if let Some(early) = early {
        replay_early(&early);
    }
    Ok(())
}

/// The worker died (its wasm trapped: a stack overflow, exhausted memory): replace it.
fn worker_died(why: &str) {
    let message = crate::protocol::crash_explanation(why);
    // Not from inside the handler that noticed: restarting drops the closure that is running.
    wasm_bindgen_futures::spawn_local(async move { restart(&message) });
}

fn on_response(data: JsValue) {
    let response = match from_js::<Response>(data) {
        Ok(r) => r,
        Err(e) => {
            web_sys::console::error_1(&format!("bad message from the shell worker: {e}").into());
            return;
        }
    };
    if let Response::Crashed { message } = &response {
        worker_died(message);
        return;
    }
    PROXY.with(|p| {
        let mut p = p.borrow_mut();
        let Some(proxy) = p.as_mut() else { return };
        match response {
            Response::Crashed { .. } => {}
            Response::Ready {
                warning,
                storage,
                catalog,
                phases,
            } => {
                proxy.catalog = catalog;
                for phase in &phases {
                    crate::page::mark_at(&phase.name, phase.at);
                }
                if let Some(ready) = proxy.ready.take() {
                    let _ = ready.send(Started { storage, warning });
                }
            }
            // Another page changed the database's engine; a console connected to a replica
            // set or a cluster lists what that connection sees instead.
            Response::Changed { collections }
                if proxy.catalog.topology.is_none() && proxy.catalog.cluster.is_none() =>
            {
                proxy.catalog.collections = collections;
                tell(WorkerEvent::DataChanged);
            }
            Response::Changed { .. } => {}
            Response::Notice { message } => tell(WorkerEvent::Notice(message)),
            Response::Role { owner } => proxy.owner = owner,
            Response::Running { job } => proxy.running = job,
            Response::Done {
                id,
                output,
                is_error,
                catalog,
                result,
                error,
                notes,
                stages,
                file,
            } => {
                proxy.catalog = catalog;
                proxy.stop_asked = false;
                if let Some(tx) = proxy.pending.remove(&id) {
                    let _ = tx.send(Outcome {
                        output,
                        is_error,
                        result,
                        error,
                        restarted: false,
                        notes,
                        stages,
                        file,
                    });
                }
            }
        }
    });
}

/// Runs one input in the worker and waits for its answer (which comes after its changes are
/// committed to IndexedDB).
pub async fn run(input: &str) -> Outcome {
    request(RequestBody::Run {
        input: input.to_string(),
    })
    .await
}

/// Exports or imports a file (see [`crate::protocol::transfer`]) in this page's session, through the
/// database's owner like an input.
pub async fn transfer(transfer: Transfer) -> Outcome {
    request(RequestBody::Transfer { transfer }).await
}

/// Sends one request to the worker and waits for its answer.
pub async fn request(body: RequestBody) -> Outcome {
    let receiver = PROXY.with(|p| {
        let mut p = p.borrow_mut();
        let proxy = p.as_mut()?;
        let id = proxy.next_id;
        proxy.next_id += 1;
        let message = to_js(&Request { id, body }).ok()?;
        let (tx, rx) = oneshot::channel();
        proxy.pending.insert(id, tx);
        proxy.worker.post_message(&message).ok()?;
        Some(rx)
    });
    let Some(receiver) = receiver else {
        return Outcome::failed("the shell is not running", false);
    };
    receiver
        .await
        .unwrap_or_else(|_| Outcome::failed("the shell stopped before answering", true))
}

/// What a fresh worker must do before it takes commands: open the lesson the page shows
/// (`None`: the free playground, which a fresh worker loads by itself). Sent again to every
/// worker started after Stop or a crash, so the console keeps the lesson's data.
pub fn set_session(setup: Option<RequestBody>) {
    SESSION_SETUP.with(|s| *s.borrow_mut() = setup);
}

/// Stops the running command. In the page that owns the database the worker is terminated and
/// a fresh one started. In another page the owner is asked to stop it (its page terminates its
/// worker, or it drops the command from its queue) and the answer says how it ended; a second
/// Stop gives up waiting and restarts this page's worker.
pub fn interrupt() {
    let ask_owner = PROXY.with(|p| {
        let mut p = p.borrow_mut();
        let proxy = p.as_mut()?;
        if proxy.owner || proxy.stop_asked {
            return None;
        }
        proxy.stop_asked = true;
        let message = to_js(&Request {
            id: u64::MAX,
            body: RequestBody::Stop,
        })
        .ok()?;
        proxy.worker.post_message(&message).ok()
    });
    if ask_owner.is_some() {
        return;
    }
    let owner = PROXY.with(|p| p.borrow().as_ref().is_none_or(|proxy| proxy.owner));
    restart(if owner {
        "Interrupted: the command was stopped. A fresh shell was started: variables are gone; \
         the data is as it was after the last completed command."
    } else {
        "Stopped waiting: the page that holds this database (a tab or frame of this site) did \
         not answer the stop; the command may still complete there. A fresh shell was started \
         here: variables are gone."
    });
}

/// Listens on the database's channel for other pages' Stop: when this page's worker owns the
/// database and runs the input to stop, the worker is terminated (the next owner answers the
/// asking page that none of it was saved).
fn watch_stops(storage: &StorageInfo) {
    let choice = DatabaseChoice::from_query(
        &web_sys::window()
            .and_then(|w| w.location().search().ok())
            .unwrap_or_default(),
    );
    let Ok(choice) = choice else { return };
    if storage.in_memory {
        return;
    }
    let opened = crate::protocol::page_coordination::open_channel(&choice.channel_name(), |data| {
        let Ok(ChannelMessage::Stop { client, seq }) = from_js::<ChannelMessage>(data) else {
            return;
        };
        let running = PROXY.with(|p| {
            p.borrow().as_ref().is_some_and(|proxy| {
                proxy.owner && proxy.running.as_ref() == Some(&(client.clone(), seq))
            })
        });
        if running {
            // Not from inside the handler: restarting replaces the proxy.
            wasm_bindgen_futures::spawn_local(async {
                tell(WorkerEvent::Notice(
                    "Another page stopped its command, which was running in this page (it holds \
                     the database): this page's shell was restarted, its variables are gone; the \
                     data is as it was after the last completed command."
                        .into(),
                ));
                restart(
                    "Not run: another page stopped its command, which this page was running for \
                     it. A fresh shell was started (variables are gone): run the command again.",
                );
            });
        }
    });
    if let Ok(channel) = opened {
        STOP_CHANNEL.with(|c| *c.borrow_mut() = Some(channel));
    }
}

/// Terminates the worker, answers pending commands with `message`, and starts a new worker.
fn restart(message: &str) {
    let pending = PROXY.with(|p| {
        let mut p = p.borrow_mut();
        let proxy = p.as_mut()?;
        proxy.worker.terminate();
        Some(std::mem::take(&mut proxy.pending))
    });
    let (ready_tx, ready_rx) = oneshot::channel();
    let started = spawn_worker(ready_tx);
    // Answer the stopped command once the new worker is ready, so the UI never sends input to a
    // worker that is still loading.
    wasm_bindgen_futures::spawn_local({
        let message = message.to_string();
        async move {
            let mut message = message;
            match started {
                Ok(()) => {
                    if let Ok(Started {
                        warning: Some(warning),
                        ..
                    }) = ready_rx.await
                    {
                        message.push_str(&format!("\nwarning: {warning}"));
                    }
                }
                Err(e) => message.push_str(&format!("\n{e}")),
            }
            if let Some(setup) = SESSION_SETUP.with(|s| s.borrow().clone()) {
                let reopened = request(setup).await;
                message.push_str(if reopened.is_error {
                    "\nThe lesson's data could not be reloaded."
                } else {
                    "\nThe lesson's data was reloaded."
                });
            }
            for (_, tx) in pending.into_iter().flatten() {
                let _ = tx.send(Outcome::failed(message.clone(), true));
            }
        }
    });
}

/// Databases and collections with document counts, for the sidebar (as of the last answer).
pub fn collections() -> Vec<CollectionSummary> {
    PROXY.with(|p| {
        p.borrow()
            .as_ref()
            .map(|proxy| proxy.catalog.collections.clone())
            .unwrap_or_default()
    })
}

/// The replica set the shell is connected to (as of the last answer), for the sidebar.
pub fn topology() -> Option<crate::protocol::Topology> {
    PROXY.with(|p| {
        p.borrow()
            .as_ref()
            .and_then(|proxy| proxy.catalog.topology.clone())
    })
}

/// The sharded cluster the shell is connected to (as of the last answer), for the sidebar.
pub fn cluster() -> Option<crate::protocol::ShardedCluster> {
    PROXY.with(|p| {
        p.borrow()
            .as_ref()
            .and_then(|proxy| proxy.catalog.cluster.clone())
    })
}

/// What the prompt shows before the database's name (as of the last answer).
pub fn prompt_prefix() -> String {
    PROXY.with(|p| {
        p.borrow()
            .as_ref()
            .map(|proxy| proxy.catalog.prompt_prefix.clone())
            .unwrap_or_default()
    })
}

/// The shell's current database (as of the last answer).
pub fn current_db() -> String {
    PROXY.with(|p| {
        p.borrow()
            .as_ref()
            .map(|proxy| proxy.catalog.current_db.clone())
            .filter(|db| !db.is_empty())
            .unwrap_or_else(|| "test".into())
    })
}
