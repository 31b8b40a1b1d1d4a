//! The page's side of the playground (the `web` binary's wasm module, `web_bg`): a Leptos
//! (client-side rendered) page with a command editor, an output pane, a sidebar of collections
//! and the lessons. It never runs the engine or the shell: it asks the shell worker
//! ([`crate::worker`]) through [`crate::protocol`], by way of [`engine_client`].

pub mod completion;
pub mod components;
pub mod embed;
pub mod engine_client;
pub mod explain;
pub mod explain_reading;
pub mod explain_text;
pub mod history;
pub mod i18n;
pub mod lessons;
pub mod persistence;
pub mod share;
pub mod syntax;
pub mod theme;

use leptos::prelude::*;

use crate::protocol;
use wasm_bindgen::{JsCast, JsValue};

use crate::page::lessons::session::LessonState;
use components::{
    Editor, LanguageSwitch, LessonPanel, OutputPane, Pane, PaneTabs, Sidebar, on_drag_over, on_drop,
};
use i18n::{Lang, tr};

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
    /// Not a command: a line saying which data the console now works on.
    pub note: Option<ConsoleNote>,
    /// The shell's hints below the result ("did you mean find?").
    pub hints: Vec<String>,
    /// For an aggregation: what each stage returns (the stage-by-stage view).
    pub stages: Vec<protocol::StageView>,
    /// Shown again from the saved transcript after a reload (not run in this page).
    pub restored: bool,
}

/// Lines the console shows between commands when the data under it changes (a lesson opened, or
/// back to the playground), so that earlier output is not taken for the current data's.
#[derive(Debug, Clone, PartialEq)]
pub enum ConsoleNote {
    /// A lesson's dataset was loaded: "db.coll (n), …".
    LessonData(String),
    /// Back to the playground's own data (kept in IndexedDB).
    PlaygroundData,
    /// Something happened to the storage under the console (another page took the database
    /// over, upgrades it, or blocks an upgrade); the worker's words.
    Storage(String),
}

impl ConsoleNote {
    pub fn text(&self, lang: Lang) -> String {
        match self {
            ConsoleNote::LessonData(data) => format!(
                "{} {data}",
                tr(lang, "The console now works on the lesson's data:")
            ),
            ConsoleNote::PlaygroundData => tr(
                lang,
                "The console is back on your own data (kept in this browser).",
            )
            .into(),
            ConsoleNote::Storage(message) => message.clone(),
        }
    }
}

/// Adds a [`ConsoleNote`] to the output.
pub fn push_note(state: AppState, note: ConsoleNote) {
    state.entries.update(|entries| {
        let id = entries.len();
        entries.push(Entry {
            id,
            input: String::new(),
            output: String::new(),
            is_error: false,
            result: None,
            error: None,
            note: Some(note),
            hints: Vec::new(),
            stages: Vec::new(),
            restored: false,
        });
    });
    scroll_output_to_end();
}

/// What the status line in the top bar says about the shell.
#[derive(Debug, Clone, PartialEq)]
pub enum Status {
    Starting,
    /// The shell worker loaded the stored data of `database` in `ms` milliseconds;
    /// `persistent`: whether the browser keeps it under storage pressure (`None`: unknown).
    Ready {
        ms: f64,
        database: String,
        persistent: Option<bool>,
    },
    /// The shell works, but IndexedDB failed (why): nothing will survive a reload.
    InMemory(String),
}

impl Status {
    pub fn text(&self, lang: Lang) -> String {
        match (self, lang) {
            (Status::Starting, lang) => tr(lang, "starting the engine…").to_string(),
            (
                Status::Ready {
                    ms,
                    database,
                    persistent,
                },
                Lang::En,
            ) => {
                let kept = match persistent {
                    Some(true) => ", persistent",
                    Some(false) => ", not persistent: the browser may clear it",
                    None => "",
                };
                format!(
                    "ready · database “{database}” kept in this browser (IndexedDB{kept}) · \
                     loaded in {ms:.0} ms"
                )
            }
            (
                Status::Ready {
                    ms,
                    database,
                    persistent,
                },
                Lang::Zh,
            ) => {
                let kept = match persistent {
                    Some(true) => "，持久保存",
                    Some(false) => "，非持久：浏览器可能清除",
                    None => "",
                };
                format!(
                    "就绪 · 数据库“{database}”保存在本浏览器中（IndexedDB{kept}）· 加载用时 {ms:.0} ms"
                )
            }
            (Status::InMemory(why), Lang::En) => format!("ready (in memory only): {why}"),
            (Status::InMemory(why), Lang::Zh) => format!("就绪（仅在内存中）：{why}"),
        }
    }
}

/// Page-wide state, created at the root and shared by context.
#[derive(Clone, Copy)]
pub struct AppState {
    pub entries: RwSignal<Vec<Entry>>,
    pub collections: RwSignal<Vec<protocol::CollectionSummary>>,
    pub current_db: RwSignal<String>,
    /// The replica set the console is connected to (after `rs.initiate`), for the sidebar.
    pub topology: RwSignal<Option<protocol::Topology>>,
    /// The sharded cluster the console is connected to (after `new ShardingTest(...)`).
    pub cluster: RwSignal<Option<protocol::ShardedCluster>>,
    /// What the prompt shows before the database's name (`rs1 [direct: primary] `).
    pub prompt_prefix: RwSignal<String>,
    pub status: RwSignal<Status>,
    pub ready: RwSignal<bool>,
    pub busy: RwSignal<bool>,
    /// The editor's text (the lesson pane's "Run this step" puts its command here).
    pub editor_text: RwSignal<String>,
    /// The language of the UI strings and lesson prose.
    pub lang: RwSignal<Lang>,
    /// The column a narrow screen shows (components/pane_tabs.rs).
    pub pane: RwSignal<Pane>,
}

impl AppState {
    /// A page's state before the worker answers: no entries, database `test`, starting, in
    /// `lang`. The main page and the embedded page both start from it.
    pub fn new(lang: Lang) -> Self {
        AppState {
            entries: RwSignal::new(Vec::new()),
            collections: RwSignal::new(Vec::new()),
            current_db: RwSignal::new("test".into()),
            topology: RwSignal::new(None),
            cluster: RwSignal::new(None),
            prompt_prefix: RwSignal::new(String::new()),
            status: RwSignal::new(Status::Starting),
            ready: RwSignal::new(false),
            busy: RwSignal::new(false),
            editor_text: RwSignal::new(String::new()),
            lang: RwSignal::new(lang),
            pane: RwSignal::new(Pane::Console),
        }
    }
}

/// Entry point called by the `web` binary's `main`: mounts the app. (The shell worker is the
/// `worker` binary, whose `main` calls [`shell_worker::run`].)
pub fn start() {
    console_error_panic_hook::set_once();
    if embed::is_embed_page() {
        // `embed.html`: a console or a lesson inside another site's page (docs/embedding.md).
        embed::page::mount();
        return;
    }
    leptos::mount::mount_to_body(App);
}

#[component]
fn App() -> impl IntoView {
    let state = AppState::new(Lang::En);
    provide_context(state);
    let lesson_state = LessonState::new();
    provide_context(lesson_state);
    crate::page::lessons::session::save_on_change(state, lesson_state);
    engine_client::set_listener(move |event| match event {
        engine_client::WorkerEvent::DataChanged => refresh(state),
        engine_client::WorkerEvent::Notice(message) => {
            push_note(state, ConsoleNote::Storage(message))
        }
    });
    leptos::task::spawn_local(async move {
        mark("sprout:ui-started");
        let t0 = js_sys::Date::now();
        let started = engine_client::start().await;
        mark("sprout:shell-ready");
        let ms = js_sys::Date::now() - t0;
        let database = started.storage.database.clone();
        state.status.set(match started.warning {
            Some(e) => Status::InMemory(e),
            None if started.storage.in_memory => {
                Status::InMemory(match state.lang.get_untracked() {
                    Lang::En => {
                        format!("database “{database}” lives in this page only (storage=memory)")
                    }
                    Lang::Zh => format!("数据库“{database}”只存在于此页面中（storage=memory）"),
                })
            }
            None => Status::Ready {
                ms,
                database,
                persistent: None,
            },
        });
        refresh(state);
        show_persistence(state, crate::page::persistence::persisted().await);
        state.ready.set(true);
        // A share link's data and commands (`#share=…`), in the fresh database index.html chose.
        crate::page::share::receive(state).await;
        // Reopens the lesson the learner was on, once the shell worker can load its data.
        crate::page::lessons::session::restore(state, lesson_state);
    });
    // `help` and the shell's notes follow the page's language.
    Effect::new(move |_| {
        // Again once the worker is up (the saved language may have come back before it).
        let _ = state.ready.get();
        let chinese = state.lang.get() == Lang::Zh;
        leptos::task::spawn_local(async move {
            engine_client::request(protocol::RequestBody::SetLanguage { chinese }).await;
        });
    });
    view! {
        <div
            class="app"
            data-pane=move || state.pane.get().key()
            on:dragover=on_drag_over
            on:drop=move |ev| on_drop(state, ev)
        >
            <header class="topbar">
                <h1 class="logo">
                    <svg class="leaf" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
                        <path d="M12 22V11" stroke="currentColor" stroke-width="2" fill="none" stroke-linecap="round"/>
                        <path d="M12 12C12 7 8 4 3 4c0 5 3.5 8 9 8z" fill="currentColor"/>
                        <path d="M12 10c0-4 3-7 9-7 0 5-3.5 7-9 7z" fill="currentColor" opacity=".75"/>
                    </svg>
                    "Sprout"
                </h1>
                <span class="tagline">{move || tr(state.lang.get(), "MongoDB playground in your browser")}</span>
                <span
                    class="status"
                    data-testid="status"
                    role="status"
                    data-ready=move || state.ready.get().to_string()
                    title=move || state.status.get().text(state.lang.get())
                >
                    {move || state.status.get().text(state.lang.get())}
                </span>
                <share::ShareButton/>
                <LanguageSwitch/>
            </header>
            <PaneTabs/>
            <div class="main">
                <LessonPanel/>
                <Sidebar/>
                <main class="console" aria-label=move || tr(state.lang.get(), "Console")>
                    <OutputPane/>
                    <Editor/>
                </main>
            </div>
        </div>
    }
}

/// A named point in the page's performance timeline (the end-to-end test reports them).
fn mark(name: &str) {
    if let Some(performance) = web_sys::window().and_then(|w| w.performance()) {
        let _ = performance.mark(name);
    }
}

/// A named point in the page's performance timeline at wall-clock time `at` (milliseconds since
/// the epoch, as another thread measured it).
pub(crate) fn mark_at(name: &str, at: f64) {
    // `performance.mark(name, {startTime})`; web-sys has it only among its unstable APIs.
    let Some(performance) = web_sys::window().and_then(|w| w.performance()) else {
        return;
    };
    let options = js_sys::Object::new();
    let start = JsValue::from_f64(at - performance.time_origin());
    let _ = js_sys::Reflect::set(&options, &JsValue::from_str("startTime"), &start);
    if let Ok(mark) = js_sys::Reflect::get(&performance, &JsValue::from_str("mark"))
        .and_then(|f| f.dyn_into::<js_sys::Function>())
    {
        let _ = mark.call2(&performance, &JsValue::from_str(name), &options);
    }
}

/// Runs `input` as if typed in the editor: it is placed in the editor, runs in the shell worker,
/// and its entry appears in the output (the editor is cleared when it succeeds). The editor's Run
/// and the lesson pane's "Run this step" both come here.
pub async fn run_in_console(state: AppState, input: String) -> engine_client::Outcome {
    state.editor_text.set(input.clone());
    state.busy.set(true);
    let outcome = engine_client::run(&input).await;
    let first = state
        .entries
        .with_untracked(|entries| entries.iter().all(|e| e.note.is_some() || e.restored));
    state.entries.update(|entries| {
        let id = entries.len();
        entries.push(Entry {
            id,
            input,
            output: outcome.output.clone(),
            is_error: outcome.is_error,
            result: outcome.result.clone(),
            error: outcome.error.clone(),
            note: None,
            hints: outcome.notes.clone(),
            stages: outcome.stages.clone(),
            restored: false,
        });
    });
    if !outcome.is_error {
        state.editor_text.set(String::new());
    }
    refresh(state);
    state.busy.set(false);
    if !outcome.is_error && !state.collections.with_untracked(Vec::is_empty) {
        // The learner has data of their own: ask once that the browser keeps it.
        leptos::task::spawn_local(async move {
            if let Some(granted) = crate::page::persistence::ask_once().await {
                show_persistence(state, Some(granted));
            }
        });
    }
    if first {
        mark("sprout:first-result");
    }
    scroll_output_to_end();
    outcome
}

/// Keeps the newest result in view.
pub(crate) fn scroll_output_to_end() {
    // Run after Leptos has rendered the new entry.
    leptos::task::spawn_local(async {
        if let Some(el) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.query_selector("[data-testid=output]").ok().flatten())
        {
            el.set_scroll_top(el.scroll_height());
        }
    });
}

/// Puts whether storage is persistent on the status line (when the data is in IndexedDB).
fn show_persistence(state: AppState, persistent: Option<bool>) {
    state.status.update(|status| {
        if let Status::Ready { persistent: p, .. } = status {
            *p = persistent;
        }
    });
}

/// Re-reads what the sidebar shows from the engine.
pub fn refresh(state: AppState) {
    state.collections.set(engine_client::collections());
    state.current_db.set(engine_client::current_db());
    state.topology.set(engine_client::topology());
    state.cluster.set(engine_client::cluster());
    state.prompt_prefix.set(engine_client::prompt_prefix());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_status_line_speaks_both_languages() {
        let ready = Status::Ready {
            ms: 412.4,
            database: "playground".into(),
            persistent: None,
        };
        assert_eq!(
            ready.text(Lang::En),
            "ready · database “playground” kept in this browser (IndexedDB) · loaded in 412 ms"
        );
        let kept = Status::Ready {
            ms: 1.0,
            database: "shop".into(),
            persistent: Some(true),
        };
        assert!(
            kept.text(Lang::En)
                .contains("“shop” kept in this browser (IndexedDB, persistent)")
        );
        assert!(
            ready.text(Lang::Zh).starts_with("就绪") && ready.text(Lang::Zh).contains("412 ms")
        );
        assert_eq!(Status::Starting.text(Lang::Zh), "正在启动引擎…");
        let note = ConsoleNote::LessonData("ecommerce.products (10)".into());
        assert_eq!(
            note.text(Lang::En),
            "The console now works on the lesson's data: ecommerce.products (10)"
        );
        assert!(note.text(Lang::Zh).ends_with("ecommerce.products (10)"));
        assert_ne!(
            ConsoleNote::PlaygroundData.text(Lang::Zh),
            ConsoleNote::PlaygroundData.text(Lang::En)
        );
        assert!(
            Status::InMemory("no IndexedDB".into())
                .text(Lang::En)
                .contains("in memory only")
        );
    }
}
