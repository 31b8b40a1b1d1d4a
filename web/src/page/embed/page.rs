//! The embedded page's root: the view `params.rs` read from the URL (a console, one lesson, or
//! the invisible bridge), the theme and language the host asked for, the shell started with the
//! database the URL names, then the optional dataset and setup code, then `ready` to the host.
//! The console's commands and solved exercises are told to the host as events.

use leptos::prelude::*;

use super::bridge::{self, load_dataset, post};
use super::params::{self, EmbedParams, Theme, View};
use crate::page::components::{Editor, LessonView, OutputPane};
use crate::page::i18n::tr;
use crate::page::lessons::session::{LessonState, open_lesson};
use crate::page::{AppState, ConsoleNote, Status, engine_client, push_note, refresh};

/// Mounts the embedded page (called by `lib.rs`'s `start` when the page is `embed.html`).
pub fn mount() {
    leptos::mount::mount_to_body(EmbedApp);
}

#[component]
fn EmbedApp() -> impl IntoView {
    let query = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    let params = params::parse(&query);
    apply_theme(params.theme);
    let state = AppState::new(params.lang);
    provide_context(state);
    let ls = LessonState::new();
    provide_context(ls);
    set_document_lang(params.lang.code());
    engine_client::set_listener(move |event| match event {
        engine_client::WorkerEvent::DataChanged => refresh(state),
        engine_client::WorkerEvent::Notice(message) => {
            push_note(state, ConsoleNote::Storage(message))
        }
    });
    bridge::listen(state, ls, params.view.clone());
    tell_host_what_runs(state, ls);
    leptos::task::spawn_local(start(state, ls, params.clone()));
    let status = move || state.status.get().text(state.lang.get());
    let ready = move || state.ready.get().to_string();
    match params.view {
        View::Bridge => view! {
            <div class="embed embed-bridge" data-testid="status" data-ready=ready>{status}</div>
        }
        .into_any(),
        View::Console => view! {
            <div class="embed embed-console" data-view="console">
                <section class="console">
                    <OutputPane/>
                    <Editor/>
                </section>
                <div class="embed-status" data-testid="status" data-ready=ready>{status}</div>
            </div>
        }
        .into_any(),
        View::Lesson { .. } => view! {
            <div class="embed embed-lesson" data-view="lesson">
                <aside class="lesson-panel" data-testid="lesson-panel">
                    <Show
                        when=move || ls.open.get().is_some()
                        fallback=move || view! {
                            <p class="embed-waiting">{move || if state.ready.get() {
                                tr(state.lang.get(), "No lesson is open.")
                            } else {
                                tr(state.lang.get(), "starting the engine…")
                            }}</p>
                        }
                    >
                        <LessonView/>
                    </Show>
                </aside>
                <section class="console">
                    <OutputPane/>
                    <Editor/>
                    <div class="embed-status" data-testid="status" data-ready=ready>{status}</div>
                </section>
            </div>
        }
        .into_any(),
    }
}

/// Starts the shell, loads the dataset and runs the setup code, opens the lesson, says `ready`.
async fn start(state: AppState, ls: LessonState, params: EmbedParams) {
    let t0 = js_sys::Date::now();
    let started = engine_client::start().await;
    let database = started.storage.database.clone();
    state.status.set(match started.warning {
        Some(e) => Status::InMemory(e),
        None if started.storage.in_memory => Status::InMemory(match state.lang.get_untracked() {
            crate::page::i18n::Lang::En => format!("database “{database}” lives in this page only"),
            crate::page::i18n::Lang::Zh => format!("数据库“{database}”只存在于此页面中"),
        }),
        None => Status::Ready {
            ms: js_sys::Date::now() - t0,
            database: database.clone(),
            persistent: None,
        },
    });
    refresh(state);
    if let Some(name) = &params.dataset {
        let outcome = load_dataset(state, &params.view, name, None).await;
        if outcome.is_error {
            push_note(state, ConsoleNote::Storage(outcome.output));
        }
    }
    if let Some(setup) = &params.setup {
        let outcome = engine_client::run(setup).await;
        if outcome.is_error {
            push_note(
                state,
                ConsoleNote::Storage(format!("setup failed: {}", outcome.output)),
            );
        }
        refresh(state);
    }
    if let View::Lesson { .. } = &params.view {
        crate::page::lessons::session::load_built_in(ls).await;
    }
    if let View::Lesson { id: Some(id), page } = &params.view {
        let index = ls
            .lessons
            .with_untracked(|lessons| lessons.iter().position(|l| &l.id == id));
        match index {
            Some(index) => open_lesson(state, ls, index, *page).await,
            None => push_note(
                state,
                ConsoleNote::Storage(format!("no lesson called `{id}`")),
            ),
        }
    }
    state.ready.set(true);
    post(&serde_json::json!({"sprout": "ready", "database": database}));
}

/// Tells the host page about each command the learner runs in the console (`ran`) and each
/// exercise solved (`solved`).
fn tell_host_what_runs(state: AppState, ls: LessonState) {
    let told = StoredValue::new(0usize);
    Effect::new(move |_| {
        state.entries.with(|entries| {
            let from = told.get_value();
            for entry in entries.iter().skip(from).filter(|e| e.note.is_none()) {
                post(&serde_json::json!({
                    "sprout": "ran",
                    "input": entry.input,
                    "output": entry.output,
                    "isError": entry.is_error,
                    "result": entry.result,
                }));
            }
            told.set_value(entries.len());
        });
    });
    let solved = StoredValue::new(std::collections::HashSet::<usize>::new());
    Effect::new(move |_| {
        let checks = ls.checks.get();
        let Some(lesson) = ls.current() else { return };
        for (exercise, checked) in checks {
            if checked.passed && solved.try_update_value(|s| s.insert(exercise)) == Some(true) {
                post(&serde_json::json!({
                    "sprout": "solved",
                    "lesson": lesson.id,
                    "exercise": exercise + 1,
                }));
            }
        }
    });
}

/// `data-theme` on the root element; `auto` follows the browser (style.css reads it).
fn apply_theme(theme: Theme) {
    let dark = match theme {
        Theme::Dark => true,
        Theme::Light => false,
        Theme::Auto => web_sys::window()
            .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
            .is_some_and(|m| m.matches()),
    };
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute("data-theme", if dark { "dark" } else { "light" });
    }
}

fn set_document_lang(code: &str) {
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute("lang", code);
    }
}
