//! The shell worker: the engine, the shell and IndexedDB live in a dedicated Web Worker, not on
//! the page's thread.
//!
//! Why: learner code can hang (a catastrophic regular expression) or exhaust memory (a string
//! doubled in a loop), and Boa has neither a time interrupt nor a heap limit. In a worker such a
//! command only takes the worker down: the page stays responsive, offers "Stop", terminates the
//! worker and starts a fresh one from what IndexedDB holds (every completed command was committed
//! as one transaction, so nothing half-done is ever stored).
//!
//! The worker runs one input at a time, commits its changes, and answers with a
//! [`Response::Done`].

use std::cell::RefCell;
use std::collections::VecDeque;

use engine::Engine;
use engine::clock::Clock;
use engine::storage::Snapshot;
use shell::{Shell, ShellConfig};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

use crate::idb_store::IdbStore;
use crate::lessons::in_worker;
use crate::protocol::{
    Catalog, CollectionSummary, ErrorInfo, IndexSummary, Phase, Request, RequestBody, Response,
    StructuredResult,
};

/// The browser's clock (std's SystemTime is not available in wasm32-unknown-unknown).
pub struct BrowserClock;

impl Clock for BrowserClock {
    fn now_millis(&self) -> i64 {
        js_sys::Date::now() as i64
    }
}

/// The IndexedDB database the playground keeps its data in.
pub const DATABASE_NAME: &str = "sprout-playground";

struct Session {
    shell: Shell,
    store: Option<IdbStore>,
}

thread_local! {
    static SESSION: RefCell<Option<Session>> = const { RefCell::new(None) };
    /// Inputs received while another is being committed; run strictly in order.
    static QUEUE: RefCell<VecDeque<Request>> = const { RefCell::new(VecDeque::new()) };
    static DRAINING: RefCell<bool> = const { RefCell::new(false) };
    /// The moments of the worker's start, sent with [`Response::Ready`].
    static PHASES: RefCell<Vec<Phase>> = const { RefCell::new(Vec::new()) };
    /// The shell has started: queued requests may run.
    static STARTED: RefCell<bool> = const { RefCell::new(false) };
}

fn random_seed() -> u64 {
    (js_sys::Math::random() * 9_007_199_254_740_991.0) as u64
}

/// The worker's entry point: load the stored data, start the shell, announce readiness, then
/// answer requests (those that arrive while it starts wait in the queue).
pub fn run() {
    console_error_panic_hook::set_once();
    phase("sprout:worker-module-running");
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
        let warning = start().await.err();
        post(&Response::Ready {
            warning,
            catalog: catalog(),
            phases: PHASES.with(|p| std::mem::take(&mut *p.borrow_mut())),
        });
        STARTED.with(|s| *s.borrow_mut() = true);
        drain().await;
    });
}

/// Notes that the worker's first start reached `name` (see [`Phase`]); the later starts (back
/// from a lesson to the playground's data) are not reported.
fn phase(name: &str) {
    if STARTED.with(|s| *s.borrow()) {
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

/// Queues one request from the page; it runs once the shell has started.
fn receive(data: &JsValue) {
    let Some(text) = data.as_string() else {
        return;
    };
    match serde_json::from_str::<Request>(&text) {
        Ok(request) => {
            QUEUE.with(|q| q.borrow_mut().push_back(request));
            if STARTED.with(|s| *s.borrow()) {
                wasm_bindgen_futures::spawn_local(drain());
            }
        }
        Err(e) => web_sys::console::error_1(&format!("shell worker: bad request: {e}").into()),
    }
}

fn post(response: &Response) {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    match serde_json::to_string(response) {
        Ok(text) => {
            if let Err(e) = scope.post_message(&JsValue::from_str(&text)) {
                web_sys::console::error_2(&"shell worker: postMessage failed".into(), &e);
            }
        }
        Err(e) => web_sys::console::error_1(&format!("shell worker: {e}").into()),
    }
}

/// Runs queued inputs one after another (an input's commit is awaited before the next runs).
async fn drain() {
    if DRAINING.with(|d| std::mem::replace(&mut *d.borrow_mut(), true)) {
        return;
    }
    while let Some(request) = QUEUE.with(|q| q.borrow_mut().pop_front()) {
        let response = answer(request).await;
        post(&response);
    }
    DRAINING.with(|d| *d.borrow_mut() = false);
}

/// Makes `session` the one requests run in, closing the previous one's IndexedDB connection.
fn replace_session(session: Session) {
    let previous = SESSION.with(|c| c.borrow_mut().replace(session));
    if let Some(store) = previous.and_then(|p| p.store) {
        store.close();
    }
}

/// Opens IndexedDB, loads what it holds into a fresh engine, and starts the shell. On storage
/// failure the playground still works, in memory, and says so.
async fn start() -> Result<(), String> {
    // IndexedDB opens and reads on the browser's side while the shell's JavaScript is evaluated
    // here (the larger part of starting): the read is started, then the shell is built.
    let (stored_tx, stored_rx) = futures_channel::oneshot::channel();
    wasm_bindgen_futures::spawn_local(async move {
        let _ = stored_tx.send(read_store().await);
    });
    yield_to_tasks().await;
    let mut shell = Shell::new(
        Engine::with_clock(Box::new(BrowserClock), random_seed()),
        ShellConfig {
            seed: random_seed(),
            ..ShellConfig::default()
        },
    );
    phase("sprout:shell-built");
    let (store, snapshot, warning) = stored_rx.await.unwrap_or_else(|_| {
        (
            None,
            Default::default(),
            Some("IndexedDB was not read".into()),
        )
    });
    let engine = Engine::with_clock(Box::new(BrowserClock), random_seed())
        .load(snapshot)
        .map_err(|e| format!("stored data could not be loaded: {e}"))?;
    shell.replace_engine(engine);
    phase("sprout:data-loaded");
    replace_session(Session { shell, store });
    match warning {
        Some(w) => Err(format!("{w} — data will not survive a reload")),
        None => Ok(()),
    }
}

/// The playground's store and what it holds; on failure, no store, no data, and why.
async fn read_store() -> (Option<IdbStore>, Snapshot, Option<String>) {
    match IdbStore::open(DATABASE_NAME).await {
        Ok(store) => match store.snapshot().await {
            Ok(s) => (Some(store), s, None),
            Err(e) => (None, Default::default(), Some(e)),
        },
        Err(e) => (None, Default::default(), Some(e)),
    }
}

/// Lets other spawned tasks run up to their first wait (a resolved promise's microtask).
async fn yield_to_tasks() {
    let _ =
        wasm_bindgen_futures::JsFuture::from(js_sys::Promise::resolve(&JsValue::UNDEFINED)).await;
}

/// Does what one request asks and says how it went.
async fn answer(request: Request) -> Response {
    match request.body {
        RequestBody::Run { input } => {
            let ran = run_input(&input).await;
            Response::Done {
                id: request.id,
                output: ran.output,
                is_error: ran.is_error,
                catalog: catalog(),
                result: ran.result,
                error: ran.error,
            }
        }
        RequestBody::OpenLesson { lesson, replay } => match in_worker::open(&lesson, replay) {
            Ok((shell, note)) => {
                // The lesson's data lives in memory only: the playground's stored data stays
                // as it was, and comes back on CloseLesson.
                replace_session(Session { shell, store: None });
                text_answer(request.id, note, false)
            }
            Err(e) => text_answer(request.id, e, true),
        },
        RequestBody::CloseLesson => match start().await {
            Ok(()) => text_answer(request.id, "the playground's data is back".into(), false),
            Err(warning) => text_answer(request.id, warning, true),
        },
        RequestBody::CheckExercise {
            lesson,
            exercise,
            answer,
        } => {
            let outcome = in_worker::check(&lesson, exercise, &answer);
            text_answer(request.id, outcome.message, !outcome.passed)
        }
    }
}

/// An answer that is only text (no result documents, no shell error).
fn text_answer(id: u64, output: String, is_error: bool) -> Response {
    Response::Done {
        id,
        output,
        is_error,
        catalog: catalog(),
        result: None,
        error: None,
    }
}

/// What one shell input produced.
struct Ran {
    output: String,
    is_error: bool,
    result: Option<StructuredResult>,
    error: Option<ErrorInfo>,
}

/// Runs one input in the shell, then commits its changes to IndexedDB.
async fn run_input(input: &str) -> Ran {
    let (evaluation, batch, store) = SESSION.with(|c| {
        let mut c = c.borrow_mut();
        match c.as_mut() {
            Some(session) => {
                let ev = session.shell.eval(input);
                let batch = session.shell.with_engine(|e| e.take_changes());
                (Some(ev), batch, session.store.clone())
            }
            None => (None, Default::default(), None),
        }
    });
    let Some(ev) = evaluation else {
        return Ran {
            output: "the shell could not start".into(),
            is_error: true,
            result: None,
            error: None,
        };
    };
    let is_error = ev.error.is_some() || ev.incomplete;
    let mut output = if ev.incomplete {
        "SyntaxError: the statement is not finished (missing a closing bracket or quote?)".into()
    } else {
        ev.text()
    };
    if let Some(store) = store
        && let Err(e) = store.commit(&batch).await
    {
        output.push_str(&format!("\nwarning: {e}"));
    }
    let more = ev
        .result
        .as_deref()
        .is_some_and(|r| r.ends_with("Type \"it\" for more"));
    Ran {
        output,
        is_error,
        result: ev
            .value
            .as_ref()
            .filter(|_| ev.error.is_none())
            .and_then(|v| StructuredResult::of(v, more)),
        error: ev.error.as_ref().map(|e| ErrorInfo {
            name: e.name.clone(),
            code: e.code,
            code_name: e
                .code
                .map(|c| engine::error::ErrorCode::from_code(c).name()),
        }),
    }
}

/// Databases and collections with document counts, and the current database.
fn catalog() -> Catalog {
    SESSION.with(|c| {
        let mut c = c.borrow_mut();
        let Some(session) = c.as_mut() else {
            return Catalog {
                collections: Vec::new(),
                current_db: "test".into(),
            };
        };
        let collections = session.shell.with_engine(|e| {
            let cat = e.catalog();
            cat.database_names()
                .flat_map(|db| {
                    cat.collections(db)
                        .map(move |(name, coll)| CollectionSummary {
                            db: db.to_string(),
                            name: name.to_string(),
                            count: coll.len(),
                            indexes: coll
                                .indexes()
                                .iter()
                                .map(|i| IndexSummary {
                                    name: i.name().to_string(),
                                    key: bson::Bson::Document(i.spec.key.clone())
                                        .into_relaxed_extjson(),
                                })
                                .collect(),
                        })
                })
                .collect()
        });
        Catalog {
            collections,
            current_db: session.shell.current_db(),
        }
    })
}
