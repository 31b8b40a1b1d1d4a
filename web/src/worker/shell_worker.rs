//! The shell worker: the engine, the shell and IndexedDB live in a dedicated Web Worker, not on
//! the page's thread.
//!
//! Why: learner code can hang (a catastrophic regular expression) or exhaust memory (a string
//! doubled in a loop), and Boa has neither a time interrupt nor a heap limit. In a worker such a
//! command only takes the worker down: the page stays responsive, offers "Stop", terminates the
//! worker and starts a fresh one from what IndexedDB holds (every completed command was committed
//! as one transaction, so nothing half-done is ever stored).
//!
//! One database, many pages: the pages (tabs, frames) that open one database elect one owner
//! with a Web Lock named after the database (`page_coordination`). The owner's worker holds the
//! one engine ([`SharedEngine`]) and runs every page's inputs, in arrival order, each in its
//! page's own shell session; the other pages' workers forward their inputs over the database's
//! `BroadcastChannel` ([`ChannelMessage`]) and never hold data or write IndexedDB. When the
//! owner's page closes or dies, the lock passes to a waiting page, whose worker reloads the engine
//! from IndexedDB (exactly the committed commands) and announces itself; inputs still waiting for
//! an answer are sent again, and the marks stored with each commit say which of them were applied
//! already (those are reported, never run twice). `docs/ARCHITECTURE.md` tells the whole design.
//!
//! The worker runs the page's inputs one at a time and answers each with a [`Response::Done`].

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;

use engine::Engine;
use engine::clock::Clock;
use futures_channel::oneshot;
use shell::Shell;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{BroadcastChannel, DedicatedWorkerGlobalScope, MessageEvent};

use crate::protocol::database_choice::{DatabaseChoice, Persistence};
use crate::protocol::page_coordination as coordination;
use crate::protocol::{
    Catalog, ChannelMessage, Phase, Reply, Request, RequestBody, Response, StorageInfo, Work,
    from_js, to_js,
};
use crate::worker::idb_store::{IdbStore, StoreEvent};
use crate::worker::lessons as lesson_requests;
use crate::worker::shared_engine::{self, SharedEngine, catalog_of, failure, reply_of, text_reply};

/// The browser's clock (std's SystemTime is not available in wasm32-unknown-unknown).
pub struct BrowserClock;

impl Clock for BrowserClock {
    fn now_millis(&self) -> i64 {
        js_sys::Date::now() as i64
    }
}

/// One input for the owner's engine: this page's or another's (answered over the channel).
struct Job {
    client: String,
    seq: u64,
    work: Work,
    answer: Option<oneshot::Sender<Reply>>,
}

/// What became of an input forwarded to the owner.
enum Forwarded {
    Answered(Box<Reply>),
    /// The owner changed (this page took over, or a new owner announced itself): ask again.
    Retry,
}

thread_local! {
    static CHOICE: RefCell<DatabaseChoice> = RefCell::new(DatabaseChoice::default());
    /// This worker's name among the database's pages (a fresh one per worker).
    static CLIENT: RefCell<String> = const { RefCell::new(String::new()) };
    /// The database's engine, when this worker owns it and has loaded it.
    static SHARED: Rc<RefCell<Option<SharedEngine>>> = Rc::new(RefCell::new(None));
    /// This worker holds the owner's lock (or works in memory alone).
    static OWNING: Cell<bool> = const { Cell::new(false) };
    /// A lesson's shell: while a lesson is open, the page's inputs run here, in memory.
    static LESSON: RefCell<Option<Shell>> = const { RefCell::new(None) };
    static CHANNEL: RefCell<Option<BroadcastChannel>> = const { RefCell::new(None) };
    /// The owner's inputs, run strictly in order.
    static JOBS: RefCell<VecDeque<Job>> = const { RefCell::new(VecDeque::new()) };
    static JOBS_DRAINING: Cell<bool> = const { Cell::new(false) };
    /// As owner: each other page's last accepted seq, and its reply once sent.
    static ACCEPTED: RefCell<HashMap<String, (u64, Option<Reply>)>> = RefCell::new(HashMap::new());
    /// As another page: the input sent to the owner and not yet answered.
    static PENDING: RefCell<Option<(u64, Work, oneshot::Sender<Forwarded>)>> = const { RefCell::new(None) };
    /// As another page: the learner asked to stop this input (sent to the owner, answer awaited).
    static STOP_REQUESTED: Cell<Option<u64>> = const { Cell::new(None) };
    static NEXT_SEQ: Cell<u64> = const { Cell::new(1) };
    /// The page's requests, run strictly in order.
    static QUEUE: RefCell<VecDeque<Request>> = const { RefCell::new(VecDeque::new()) };
    static DRAINING: Cell<bool> = const { Cell::new(false) };
    /// The moments of the worker's start, sent with [`Response::Ready`].
    static PHASES: RefCell<Vec<Phase>> = const { RefCell::new(Vec::new()) };
    /// The worker has started: queued requests may run.
    static STARTED: Cell<bool> = const { Cell::new(false) };
}

fn shared() -> Rc<RefCell<Option<SharedEngine>>> {
    SHARED.with(Rc::clone)
}

fn client() -> String {
    CLIENT.with(|c| c.borrow().clone())
}

/// The worker's entry point: decide the database from the URL, become its owner or join the
/// owner, announce readiness, then answer requests (those that arrive meanwhile wait).
pub fn run() {
    console_error_panic_hook::set_once();
    phase("sprout:worker-module-running");
    // Before any input: a collation's tailorings and the time-zone database are read from the
    // site when first used.
    crate::worker::collation_data::install();
    engine::tzdata::set_zone_loader(Box::new(|file| {
        crate::worker::site_file::read(&format!("tz/{file}"))
    }));
    CLIENT.with(|c| {
        *c.borrow_mut() = format!(
            "{:x}-{:x}",
            js_sys::Date::now() as u64,
            (js_sys::Math::random() * 4_294_967_296.0) as u64
        )
    });
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
        receive(&ev.data());
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The handler lives as long as the worker.
    on_message.forget();
    // What the page sent before this module ran (static/worker.js kept it).
    let early = js_sys::Reflect::get(&scope, &JsValue::from_str(EARLY_REQUESTS))
        .ok()
        .and_then(|v| v.dyn_into::<js_sys::Array>().ok());
    for data in early.iter().flat_map(|a| a.iter()) {
        receive(&data);
    }
    wasm_bindgen_futures::spawn_local(async move {
        let (warning, storage) = start().await;
        let catalog = run_shared(input("")).await.catalog;
        phase("sprout:first-input-run");
        post(&Response::Ready {
            warning,
            storage,
            catalog,
            phases: PHASES.with(|p| std::mem::take(&mut *p.borrow_mut())),
        });
        STARTED.with(|s| s.set(true));
        drain().await;
    });
}

/// The database this page opens: the worker's URL carries the page's query string.
fn choice_from_location() -> Result<DatabaseChoice, String> {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    DatabaseChoice::from_query(&scope.location().search())
}

/// Becomes the database's owner or joins it; says why data will not survive a reload, if so.
async fn start() -> (Option<String>, StorageInfo) {
    let (choice, mut warning) = match choice_from_location() {
        Ok(c) => (c, None),
        Err(e) => (
            DatabaseChoice {
                persistence: Persistence::Memory,
                ..DatabaseChoice::default()
            },
            Some(format!("{e}; the data is kept in memory only")),
        ),
    };
    CHOICE.with(|c| *c.borrow_mut() = choice.clone());
    let mut in_memory = choice.persistence == Persistence::Memory;
    if !in_memory && !coordination::locks_available() {
        // Without a lock, two pages could each write from their own copy: refuse to share.
        warning = Some(
            "this browser cannot coordinate its pages here (no Web Locks: an http page that is \
             not on localhost?), so the data is kept in this page's memory only"
                .into(),
        );
        in_memory = true;
    }
    if !in_memory {
        match coordination::open_channel(&choice.channel_name(), on_channel_message) {
            Ok(channel) => CHANNEL.with(|c| *c.borrow_mut() = Some(channel)),
            Err(e) => {
                warning = Some(format!("{e}; the data is kept in memory only"));
                in_memory = true;
            }
        }
    }
    if in_memory {
        OWNING.with(|o| o.set(true));
        if let Some(w) = take_over(false).await {
            warning.get_or_insert(w);
        }
    } else {
        match coordination::acquire(&choice.lock_name(), true).await {
            Ok(true) => {
                OWNING.with(|o| o.set(true));
                warning = take_over(true).await;
                in_memory = warning.is_some();
            }
            _ => {
                post(&Response::Role { owner: false });
                let name = choice.lock_name();
                wasm_bindgen_futures::spawn_local(wait_for_ownership(name));
            }
        }
    }
    let storage = StorageInfo {
        database: choice.name.clone(),
        in_memory,
    };
    (
        warning.map(|w| format!("{w} — data will not survive a reload")),
        storage,
    )
}

/// Waits for the owner's lock (the owner's page closes or dies), then takes the database over.
async fn wait_for_ownership(lock: String) {
    if let Ok(true) = coordination::acquire(&lock, false).await {
        OWNING.with(|o| o.set(true));
        let was_started = STARTED.with(Cell::get);
        let warning = take_over(true).await;
        if !was_started {
            // Still starting (a fresh worker after Stop, while the old one's lock was being
            // released): nothing to tell.
            return;
        }
        let mut message =
            "This page now holds the database (the page that held it closed): its data was \
             reloaded from IndexedDB. Shell variables defined before are gone (they lived in \
             the page that closed); the data is all there."
                .to_string();
        if let Some(w) = warning {
            message.push_str(&format!(" Warning: {w}."));
        }
        post(&Response::Notice { message });
    }
}

/// Loads the database's engine (from IndexedDB when `persistent`) and starts answering inputs,
/// this page's and the others'. Returns why the data is in memory only, if it is.
async fn take_over(persistent: bool) -> Option<String> {
    post(&Response::Role { owner: true });
    let first_start = !STARTED.with(Cell::get);
    let name = CHOICE.with(|c| c.borrow().indexed_db_name());
    // IndexedDB opens and reads on the browser's side while the shell's JavaScript is evaluated
    // here (the larger part of starting): the read is started, then the shell is built.
    let (stored_tx, stored_rx) = oneshot::channel();
    wasm_bindgen_futures::spawn_local(async move {
        let stored = if persistent {
            read_store(&name).await
        } else {
            Ok((None, (shared_engine::new_engine(), 0), HashMap::new()))
        };
        let _ = stored_tx.send(stored);
    });
    yield_to_tasks().await;
    let own = first_start.then(|| (client(), shared_engine::new_shell()));
    phase("sprout:shell-built");
    let stored = stored_rx
        .await
        .unwrap_or_else(|_| Err("IndexedDB was not read".into()));
    let (engine, warning) = match stored {
        Ok((store, engine, marks)) => (SharedEngine::new(engine, store, marks, own), None),
        Err(e) => (
            SharedEngine::new((shared_engine::new_engine(), 0), None, HashMap::new(), own),
            Some(e),
        ),
    };
    *shared().borrow_mut() = Some(engine);
    phase("sprout:data-loaded");
    broadcast(&ChannelMessage::OwnerReady);
    if let Some((_, _, waiting)) = PENDING.with(|p| p.borrow_mut().take()) {
        let _ = waiting.send(Forwarded::Retry);
    }
    wasm_bindgen_futures::spawn_local(drain_jobs());
    warning
}

/// The store and what it holds, or why it cannot be used.
async fn read_store(
    name: &str,
) -> Result<(Option<IdbStore>, (Engine, usize), HashMap<String, u64>), String> {
    let store = IdbStore::open_watched(name, Rc::new(on_store_event))
        .await
        .map_err(|e| e.to_string())?;
    phase("sprout:store-opened");
    // The documents and the marks are asked for together: the documents first (their
    // transaction only reads), then the marks (a read-write one: it drops stale marks), so
    // IndexedDB reads both without waiting for this thread in between.
    let (stored, marks) = both(store.load(), store.marks()).await;
    let (snapshot, change_records) = stored.map_err(|e| e.to_string())?;
    let marks = marks.map_err(|e| e.to_string())?;
    phase("sprout:store-read");
    let engine = shared_engine::engine_of(snapshot)?;
    Ok((Some(store), (engine, change_records), marks))
}

/// Runs two futures side by side (each is first polled in this order) and returns both results.
async fn both<A: Future, B: Future>(a: A, b: B) -> (A::Output, B::Output) {
    let mut a = std::pin::pin!(a);
    let mut b = std::pin::pin!(b);
    let (mut done_a, mut done_b) = (None, None);
    std::future::poll_fn(move |cx| {
        if done_a.is_none()
            && let std::task::Poll::Ready(v) = a.as_mut().poll(cx)
        {
            done_a = Some(v);
        }
        if done_b.is_none()
            && let std::task::Poll::Ready(v) = b.as_mut().poll(cx)
        {
            done_b = Some(v);
        }
        match (done_a.take(), done_b.take()) {
            (Some(x), Some(y)) => std::task::Poll::Ready((x, y)),
            (x, y) => {
                done_a = x;
                done_b = y;
                std::task::Poll::Pending
            }
        }
    })
    .await
}

/// Another page's connection blocks this page's upgrade, or another page upgrades the database.
fn on_store_event(event: StoreEvent) {
    match event {
        StoreEvent::Blocked => post(&Response::Notice {
            message: "Waiting for another Sprout page that keeps this database open with an older \
                      version: close or reload that page."
                .into(),
        }),
        StoreEvent::VersionChange => {
            // Hand the database to the page that upgrades it: release the lock and forward.
            if let Some(engine) = shared().borrow_mut().as_mut() {
                engine.drop_store();
            }
            *shared().borrow_mut() = None;
            OWNING.with(|o| o.set(false));
            JOBS.with(|j| j.borrow_mut().clear());
            coordination::release();
            post(&Response::Role { owner: false });
            post(&Response::Notice {
                message: "Another page opened this database with a newer version of Sprout: \
                          this page now sends its commands to that page. Reload it to update."
                    .into(),
            });
            let lock = CHOICE.with(|c| c.borrow().lock_name());
            wasm_bindgen_futures::spawn_local(wait_for_ownership(lock));
        }
    }
}

/// Lets other spawned tasks run up to their first wait (a resolved promise's microtask).
async fn yield_to_tasks() {
    let _ =
        wasm_bindgen_futures::JsFuture::from(js_sys::Promise::resolve(&JsValue::UNDEFINED)).await;
}

/// Notes that the worker's first start reached `name` (see [`Phase`]); later starts are not
/// reported.
fn phase(name: &str) {
    if STARTED.with(Cell::get) {
        return;
    }
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    if let Some(performance) = scope.performance() {
        let at = performance.time_origin() + performance.now();
        PHASES.with(|p| {
            p.borrow_mut().push(Phase {
                name: name.into(),
                at,
            })
        });
    }
}

/// The global under which `worker.js` keeps requests that arrived before this module ran.
const EARLY_REQUESTS: &str = "sproutEarlyRequests";

/// Queues one request from the page; it runs once the worker has started.
fn receive(data: &JsValue) {
    match from_js::<Request>(data.clone()) {
        // Not queued: the input it stops is running, and the queue waits for it.
        Ok(Request {
            body: RequestBody::Stop,
            ..
        }) => request_stop(),
        Ok(request) => {
            QUEUE.with(|q| q.borrow_mut().push_back(request));
            if STARTED.with(Cell::get) {
                wasm_bindgen_futures::spawn_local(drain());
            }
        }
        Err(e) => web_sys::console::error_1(&format!("shell worker: bad request: {e}").into()),
    }
}

fn post(response: &Response) {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    match to_js(response) {
        Ok(message) => {
            if let Err(e) = scope.post_message(&message) {
                web_sys::console::error_2(&"shell worker: postMessage failed".into(), &e);
            }
        }
        Err(e) => web_sys::console::error_1(&format!("shell worker: {e}").into()),
    }
}

fn broadcast(message: &ChannelMessage) {
    let Ok(message) = to_js(message) else {
        return;
    };
    CHANNEL.with(|c| {
        if let Some(channel) = c.borrow().as_ref() {
            let _ = channel.post_message(&message);
        }
    });
}

/// A message from another page of the database.
fn on_channel_message(data: JsValue) {
    let Ok(message) = from_js::<ChannelMessage>(data) else {
        return;
    };
    let owning = OWNING.with(Cell::get);
    match message {
        ChannelMessage::Forward { client, seq, work } if owning => accept(client, seq, work),
        ChannelMessage::Forward { .. } => {}
        ChannelMessage::Stop { client, seq } if owning => stop_job(client, seq),
        ChannelMessage::Stop { .. } => {}
        ChannelMessage::Reply {
            client: to,
            seq,
            reply,
        } if to == client() => {
            let waiting = PENDING.with(|p| {
                let mut p = p.borrow_mut();
                match p.as_ref() {
                    Some((s, _, _)) if *s == seq => p.take(),
                    _ => None,
                }
            });
            if let Some((_, _, tx)) = waiting {
                let _ = tx.send(Forwarded::Answered(reply));
            }
        }
        ChannelMessage::Reply { .. } => {}
        ChannelMessage::Changed { collections } if !owning => {
            post(&Response::Changed { collections });
        }
        ChannelMessage::Changed { .. } => {}
        ChannelMessage::OwnerReady if !owning => {
            // The previous owner may have died with this page's input: ask the new one (or, when
            // the learner stopped it, ask the new one how it ended: it is never run again).
            let again = PENDING.with(|p| {
                p.borrow()
                    .as_ref()
                    .map(|(seq, work, _)| (*seq, work.clone()))
            });
            if let Some((seq, work)) = again {
                if STOP_REQUESTED.with(Cell::get) == Some(seq) {
                    broadcast(&ChannelMessage::Stop {
                        client: client(),
                        seq,
                    });
                } else {
                    broadcast(&ChannelMessage::Forward {
                        client: client(),
                        seq,
                        work,
                    });
                }
            }
            if !STARTED.with(Cell::get) {
                return;
            }
            post(&Response::Notice {
                message: "The page that held this database closed; another page took it over \
                          with every completed command. Shell variables of this page are gone."
                    .into(),
            });
        }
        ChannelMessage::OwnerReady => {}
    }
}

/// As another page: the learner pressed Stop while the owner runs (or queues) this page's input.
/// The owner drops it from its queue, or its page terminates its worker when it is running; the
/// answer that comes says which.
fn request_stop() {
    if OWNING.with(Cell::get) {
        // The page terminates this worker itself.
        return;
    }
    let seq = PENDING.with(|p| p.borrow().as_ref().map(|(seq, _, _)| *seq));
    if let Some(seq) = seq {
        STOP_REQUESTED.with(|s| s.set(Some(seq)));
        broadcast(&ChannelMessage::Stop {
            client: client(),
            seq,
        });
    }
}

/// As owner: another page asks to stop its input `seq`. Reached only between inputs (an input
/// runs synchronously; a running one is stopped by this page's main thread, which terminates the
/// worker, see `engine_client`): the input is queued, answered, or unknown to this owner (which
/// took over after the owner that ran it was stopped).
fn stop_job(client: String, seq: u64) {
    let queued = JOBS.with(|j| {
        let mut jobs = j.borrow_mut();
        let at = jobs
            .iter()
            .position(|job| job.client == client && job.seq == seq)?;
        jobs.remove(at)
    });
    let known = ACCEPTED.with(|a| a.borrow().get(&client).cloned());
    let reply = match (queued, known) {
        (Some(_), _) => failure("Stopped: the command was dropped before it ran; nothing changed."),
        // Answered already (it finished before the stop arrived): answer again.
        (None, Some((last, Some(reply)))) if last == seq => reply,
        // Being committed: its answer comes.
        (None, Some((last, None))) if last == seq => return,
        (None, Some((last, _))) if last > seq => return,
        (None, _) => settled_after_stop(&client, seq),
    };
    ACCEPTED.with(|a| {
        a.borrow_mut()
            .insert(client.clone(), (seq, Some(reply.clone())))
    });
    broadcast(&ChannelMessage::Reply {
        client,
        seq,
        reply: Box::new(reply),
    });
}

/// How an input ended that was running when its owner was stopped: its changes are stored (it
/// completed just before) or none are.
fn settled_after_stop(client: &str, seq: u64) -> Reply {
    let engine = shared();
    let mut engine = engine.borrow_mut();
    let Some(engine) = engine.as_mut() else {
        return failure("Stopped.");
    };
    let catalog = engine.catalog_for(client);
    let message = if engine.applied(client, seq) {
        "Stopped too late: the command had completed and its changes are saved; its output is lost."
    } else {
        "Stopped: the command was interrupted in the page that holds this database; none of its \
         changes were saved. That page started a fresh shell: its variables are gone."
    };
    Reply {
        catalog,
        ..failure(message)
    }
}

/// As owner: takes another page's input unless it was taken already (a page sends an input
/// again when a new owner announces itself).
fn accept(client: String, seq: u64, work: Work) {
    let repeat = ACCEPTED.with(|a| match a.borrow().get(&client) {
        Some((last, reply)) if seq <= *last => {
            Some((seq == *last).then(|| reply.clone()).flatten())
        }
        _ => None,
    });
    match repeat {
        // Answered already: the answer may have been lost, send it again.
        Some(Some(reply)) => broadcast(&ChannelMessage::Reply {
            client,
            seq,
            reply: Box::new(reply),
        }),
        // Queued or running: its answer will come.
        Some(None) => {}
        None => {
            ACCEPTED.with(|a| a.borrow_mut().insert(client.clone(), (seq, None)));
            JOBS.with(|j| {
                j.borrow_mut().push_back(Job {
                    client,
                    seq,
                    work,
                    answer: None,
                })
            });
            wasm_bindgen_futures::spawn_local(drain_jobs());
        }
    }
}

/// As owner: runs queued inputs one after another, each committed before it is answered.
async fn drain_jobs() {
    if shared().borrow().is_none() || JOBS_DRAINING.with(|d| d.replace(true)) {
        return;
    }
    let me = client();
    while let Some(job) = JOBS.with(|j| j.borrow_mut().pop_front()) {
        let engine = shared();
        let applied = engine
            .borrow()
            .as_ref()
            .is_some_and(|e| e.applied(&job.client, job.seq));
        let reply = if applied {
            let catalog = engine
                .borrow_mut()
                .as_mut()
                .map(|e| e.catalog_for(&job.client))
                .unwrap_or_default();
            Reply {
                catalog,
                ..failure(
                    "This command was completed and saved by the page that held the database, \
                     which closed before it could answer: its output is lost. It was not run again.",
                )
            }
        } else {
            let others = job.answer.is_none();
            if others {
                // While another page's input runs, this page's Stop must reach it (see
                // `engine_client`).
                post(&Response::Running {
                    job: Some((job.client.clone(), job.seq)),
                });
            }
            let evaluated = engine
                .borrow_mut()
                .as_mut()
                .map(|e| e.evaluate(&job.client, &job.work));
            if others {
                post(&Response::Running { job: None });
            }
            let Some((reply, batch)) = evaluated else {
                // The engine was handed over (another page upgrades the database).
                break;
            };
            match SharedEngine::commit(&engine, &batch, &job.client, job.seq).await {
                Ok(()) if batch.is_empty() => reply,
                Ok(()) => {
                    announce_change(&job.client, &me);
                    reply
                }
                Err(failed) => failed,
            }
        };
        match job.answer {
            Some(tx) => {
                let _ = tx.send(reply);
            }
            None => {
                ACCEPTED.with(|a| {
                    if let Some(entry) = a.borrow_mut().get_mut(&job.client)
                        && entry.0 == job.seq
                    {
                        entry.1 = Some(reply.clone());
                    }
                });
                broadcast(&ChannelMessage::Reply {
                    client: job.client,
                    seq: job.seq,
                    reply: Box::new(reply),
                });
            }
        }
        // Between commands, once answered: the engine holds exactly what is stored.
        SharedEngine::compact_if_due(&engine).await;
    }
    JOBS_DRAINING.with(|d| d.set(false));
}

/// Tells the other pages (and this page, when another page's command did it) that data changed.
fn announce_change(by: &str, me: &str) {
    let collections = shared()
        .borrow_mut()
        .as_mut()
        .map(SharedEngine::collections)
        .unwrap_or_default();
    if by != me {
        post(&Response::Changed {
            collections: collections.clone(),
        });
    }
    broadcast(&ChannelMessage::Changed { collections });
}

fn input(text: &str) -> Work {
    Work::Input {
        input: text.to_string(),
    }
}

/// Runs `work` on the database's engine, wherever it is, in this page's session.
async fn run_shared(work: Work) -> Reply {
    let seq = NEXT_SEQ.with(|n| {
        let seq = n.get();
        n.set(seq + 1);
        seq
    });
    loop {
        if OWNING.with(Cell::get) {
            if STOP_REQUESTED.with(Cell::get) == Some(seq) {
                // This page took over from the owner it asked to stop: never run it again.
                return settled_after_stop(&client(), seq);
            }
            let (tx, rx) = oneshot::channel();
            JOBS.with(|j| {
                j.borrow_mut().push_back(Job {
                    client: client(),
                    seq,
                    work: work.clone(),
                    answer: Some(tx),
                })
            });
            wasm_bindgen_futures::spawn_local(drain_jobs());
            match rx.await {
                Ok(reply) => return reply,
                // Handed over while queued: ask the new owner.
                Err(_) => continue,
            }
        }
        let (tx, rx) = oneshot::channel();
        PENDING.with(|p| *p.borrow_mut() = Some((seq, work.clone(), tx)));
        broadcast(&ChannelMessage::Forward {
            client: client(),
            seq,
            work: work.clone(),
        });
        match rx.await {
            Ok(Forwarded::Answered(reply)) => return *reply,
            Ok(Forwarded::Retry) | Err(_) => continue,
        }
    }
}

/// Runs the page's requests one after another.
async fn drain() {
    if DRAINING.with(|d| d.replace(true)) {
        return;
    }
    while let Some(request) = QUEUE.with(|q| q.borrow_mut().pop_front()) {
        let response = answer(request).await;
        post(&response);
    }
    DRAINING.with(|d| d.set(false));
}

/// Does what one request asks and says how it went.
async fn answer(request: Request) -> Response {
    let id = request.id;
    match request.body {
        RequestBody::Run { input } => {
            let in_lesson = LESSON.with(|l| {
                l.borrow_mut().as_mut().map(|shell| {
                    shell.set_language(crate::worker::shared_engine::chinese());
                    let evaluation = shell.eval(&input);
                    let stages = crate::worker::shared_engine::stage_views(shell, &evaluation);
                    // A lesson's data lives in memory only.
                    let _ = shell.with_engine(|e| e.take_changes());
                    Reply {
                        stages,
                        ..reply_of(&evaluation, catalog_of(shell))
                    }
                })
            });
            let reply = match in_lesson {
                Some(reply) => reply,
                None => run_shared(Work::Input { input }).await,
            };
            done(id, reply)
        }
        RequestBody::SetLanguage { chinese } => {
            crate::worker::shared_engine::set_chinese(chinese);
            done(
                id,
                text_reply_with(String::new(), false, current_catalog().await),
            )
        }
        RequestBody::Transfer { transfer } => {
            let in_lesson = LESSON.with(|l| {
                l.borrow_mut().as_mut().map(|shell| {
                    let outcome = crate::worker::transfer::run(shell, &transfer);
                    let _ = shell.with_engine(|e| e.take_changes());
                    let catalog = catalog_of(shell);
                    match outcome {
                        Ok(done) => Reply {
                            file: done.file,
                            catalog,
                            ..text_reply(done.summary, false)
                        },
                        Err(why) => Reply {
                            catalog,
                            ..text_reply(why, true)
                        },
                    }
                })
            });
            let reply = match in_lesson {
                Some(reply) => reply,
                None => run_shared(Work::Transfer { transfer }).await,
            };
            done(id, reply)
        }
        // Handled as it arrives (see `receive`).
        RequestBody::Stop => done(id, failure("nothing to stop")),
        RequestBody::OpenLesson { lesson, replay } => {
            match lesson_requests::open(&lesson, replay) {
                Ok((mut shell, note)) => {
                    // The lesson's data lives in memory only: the database stays as it was, and
                    // comes back on CloseLesson.
                    let catalog = catalog_of(&mut shell);
                    LESSON.with(|l| *l.borrow_mut() = Some(shell));
                    done(id, text_reply_with(note, false, catalog))
                }
                Err(e) => done(id, failure(&e)),
            }
        }
        RequestBody::CloseLesson => {
            LESSON.with(|l| *l.borrow_mut() = None);
            let catalog = run_shared(input("")).await.catalog;
            done(
                id,
                text_reply_with("the playground's data is back".into(), false, catalog),
            )
        }
        RequestBody::CheckExercise {
            lesson,
            exercise,
            answer,
        } => {
            let outcome = lesson_requests::check(&lesson, exercise, &answer);
            let mut reply =
                text_reply_with(outcome.message, !outcome.passed, current_catalog().await);
            reply.result =
                outcome
                    .comparison
                    .map(|c| crate::protocol::StructuredResult::Document {
                        doc: crate::protocol::feedback::to_json(&c),
                    });
            done(id, reply)
        }
        RequestBody::DefineLesson { file, markdown } => {
            let (output, is_error) = match lesson_requests::define(&file, &markdown) {
                Ok(id) => (id, false),
                Err(e) => (e, true),
            };
            done(
                id,
                text_reply_with(output, is_error, current_catalog().await),
            )
        }
    }
}

/// The catalogue the page shows now: the lesson's, or the database's.
async fn current_catalog() -> Catalog {
    let lesson = LESSON.with(|l| l.borrow_mut().as_mut().map(catalog_of));
    match lesson {
        Some(c) => c,
        None => run_shared(input("")).await.catalog,
    }
}

fn text_reply_with(output: String, is_error: bool, catalog: Catalog) -> Reply {
    Reply {
        catalog,
        ..text_reply(output, is_error)
    }
}

fn done(id: u64, reply: Reply) -> Response {
    Response::Done {
        id,
        output: reply.output,
        is_error: reply.is_error,
        catalog: reply.catalog,
        result: reply.result,
        error: reply.error,
        notes: reply.notes,
        stages: reply.stages,
        file: reply.file,
    }
}
