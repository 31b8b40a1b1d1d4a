//! Sprout's web playground: a Leptos (client-side rendered) page with a command editor, an output
//! pane and a sidebar of collections, over the engine and shell compiled to WebAssembly, with
//! data kept in IndexedDB.

pub mod completion;
pub mod components;
pub mod doc_text;
pub mod engine_client;
pub mod explain;
pub mod history;
pub mod idb_store;
pub mod protocol;
pub mod shell_worker;
pub mod syntax;
pub mod theme;

use leptos::prelude::*;

use components::{Editor, OutputPane, Sidebar};

/// One command and what the shell showed for it.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub id: usize,
    pub input: String,
    pub output: String,
    pub is_error: bool,
    /// The result as documents, for the tree, table and explain views.
    pub result: Option<protocol::StructuredResult>,
    /// The error's code and codeName, for the badge beside an engine error.
    pub error: Option<protocol::ErrorInfo>,
}

/// Page-wide state, created at the root and shared by context.
#[derive(Clone, Copy)]
pub struct AppState {
    pub entries: RwSignal<Vec<Entry>>,
    pub collections: RwSignal<Vec<protocol::CollectionSummary>>,
    pub current_db: RwSignal<String>,
    pub status: RwSignal<String>,
    pub ready: RwSignal<bool>,
    pub busy: RwSignal<bool>,
}

/// Entry point called by the `web` binary's `main`: the page mounts the app; the same module
/// loaded in the shell worker runs the shell instead.
pub fn start() {
    if shell_worker::in_worker() {
        shell_worker::run();
        return;
    }
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(App);
}

#[component]
fn App() -> impl IntoView {
    let state = AppState {
        entries: RwSignal::new(Vec::new()),
        collections: RwSignal::new(Vec::new()),
        current_db: RwSignal::new("test".into()),
        status: RwSignal::new("starting the engine…".into()),
        ready: RwSignal::new(false),
        busy: RwSignal::new(false),
    };
    provide_context(state);
    leptos::task::spawn_local(async move {
        let t0 = js_sys::Date::now();
        let result = engine_client::start().await;
        let ms = js_sys::Date::now() - t0;
        state.status.set(match result {
            Ok(()) => {
                format!("ready · data kept in this browser (IndexedDB) · loaded in {ms:.0} ms")
            }
            Err(e) => format!("ready (in memory only): {e}"),
        });
        refresh(state);
        state.ready.set(true);
    });
    view! {
        <div class="app">
            <header class="topbar">
                <span class="logo">
                    <svg class="leaf" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
                        <path d="M12 22V11" stroke="currentColor" stroke-width="2" fill="none" stroke-linecap="round"/>
                        <path d="M12 12C12 7 8 4 3 4c0 5 3.5 8 9 8z" fill="currentColor"/>
                        <path d="M12 10c0-4 3-7 9-7 0 5-3.5 7-9 7z" fill="currentColor" opacity=".75"/>
                    </svg>
                    "Sprout"
                </span>
                <span class="tagline">"MongoDB playground in your browser"</span>
                <span class="status" data-testid="status">{move || state.status.get()}</span>
            </header>
            <div class="main">
                <Sidebar/>
                <section class="console">
                    <OutputPane/>
                    <Editor/>
                </section>
            </div>
        </div>
    }
}

/// Re-reads what the sidebar shows from the engine.
pub fn refresh(state: AppState) {
    state.collections.set(engine_client::collections());
    state.current_db.set(engine_client::current_db());
}
