//! The output pane: each command with what the shell showed. A result that is documents can
//! also be seen as a collapsible tree or a table; an explain reply as a plan tree; an error is
//! red, with MongoDB's code and codeName.

use leptos::prelude::*;

use crate::page::components::explain_view::ExplainView;
use crate::page::components::result_views::{DocumentTable, DocumentTree};
use crate::page::components::stage_view::StageByStage;
use crate::page::i18n::tr;
use crate::page::lessons::library::Page;
use crate::page::lessons::session::LessonState;
use crate::page::{AppState, Entry};
use crate::protocol::{ErrorInfo, StructuredResult};

/// How a result is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Text,
    Tree,
    Table,
    Plan,
    Stages,
}

impl Mode {
    fn label(self) -> &'static str {
        match self {
            Mode::Text => "Text",
            Mode::Tree => "Tree",
            Mode::Table => "Table",
            Mode::Plan => "Plan",
            Mode::Stages => "Stages",
        }
    }

    /// The views a result offers, the first being the one shown at first.
    fn offered(result: Option<&StructuredResult>) -> &'static [Mode] {
        match result {
            Some(StructuredResult::Explain { .. }) => &[Mode::Plan, Mode::Text, Mode::Tree],
            Some(StructuredResult::Documents { docs, .. }) if !docs.is_empty() => {
                &[Mode::Text, Mode::Tree, Mode::Table]
            }
            Some(StructuredResult::Document { .. }) => &[Mode::Text, Mode::Tree, Mode::Table],
            _ => &[Mode::Text],
        }
    }
}

#[component]
pub fn OutputPane() -> impl IntoView {
    let state = expect_context::<AppState>();
    view! {
        // A log region that takes the focus, so that keyboard users can scroll it.
        <div
            class="output"
            data-testid="output"
            role="log"
            tabindex="0"
            aria-label=move || tr(state.lang.get(), "Output")
        >
            <Show when=move || state.entries.with(|e| e.iter().all(|e| e.note.is_some() || e.restored))>
                <Welcome/>
            </Show>
            <For each=move || state.entries.get() key=|e| e.id children=move |e| view! { <EntryView entry=e/> }/>
        </div>
    }
}

/// What the empty console says: how to run a command, and examples a click puts in the editor
/// (the open lesson's step inside a lesson, the playground's otherwise).
#[component]
fn Welcome() -> impl IntoView {
    let state = expect_context::<AppState>();
    let ls = expect_context::<LessonState>();
    let examples = move || -> Vec<String> {
        match ls.current_page() {
            Some((lesson, Page::Step(i))) => lesson
                .steps
                .get(i)
                .map(|s| s.command.clone())
                .into_iter()
                .collect(),
            Some((lesson, _)) => lesson
                .steps
                .first()
                .map(|s| s.command.clone())
                .into_iter()
                .collect(),
            None => vec![
                "db.products.insertOne({name: \"Product 1\", price: 10})".into(),
                "db.products.find({price: 10})".into(),
            ],
        }
    };
    let example_buttons = move || {
        let lang = state.lang.get();
        let examples = examples();
        let count = examples.len();
        examples
            .into_iter()
            .enumerate()
            .map(|(i, command)| {
                let shown = command.clone();
                view! {
                    <button
                        class="example"
                        data-testid="example"
                        on:click=move |_| {
                            state.editor_text.set(command.clone());
                            focus_editor();
                        }
                    >
                        <code>{shown}</code>
                    </button>
                    {(i + 1 < count).then(|| format!(" {} ", tr(lang, "then")))}
                }
            })
            .collect_view()
    };
    view! {
        <div class="welcome" data-testid="welcome">
            <p>{move || tr(state.lang.get(), "Type a mongo shell command below and press")}" "
                <kbd>"Ctrl"</kbd>"+"<kbd>"Enter"</kbd>" "
                {move || tr(state.lang.get(), "(or Enter when the statement is complete).")}</p>
            <p>{move || tr(state.lang.get(), "Try:")}" "{example_buttons}</p>
            <p class="muted">{move || tr(state.lang.get(), "Everything runs in this page (WebAssembly); your data stays in this browser.")}</p>
        </div>
    }
}

/// Puts the keyboard focus in the command editor.
fn focus_editor() {
    use wasm_bindgen::JsCast;
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector("[data-testid=editor]").ok().flatten())
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = el.focus();
    }
}

#[component]
fn EntryView(entry: Entry) -> impl IntoView {
    if let Some(note) = entry.note {
        let state = expect_context::<AppState>();
        return view! {
            <p class="console-note" data-testid="console-note">{move || note.text(state.lang.get())}</p>
        }
        .into_any();
    }
    let state = expect_context::<AppState>();
    let mut modes = Mode::offered(entry.result.as_ref()).to_vec();
    if !entry.stages.is_empty() {
        modes.push(Mode::Stages);
    }
    let mode = RwSignal::new(modes[0]);
    let switcher = (modes.len() > 1).then(|| {
        view! {
            <div class="view-switch" role="group" aria-label=move || tr(state.lang.get(), "View")>
                {modes
                    .iter()
                    .map(|&m| {
                        view! {
                            <button
                                data-view=m.label().to_lowercase()
                                class:active=move || mode.get() == m
                                aria-pressed=move || (mode.get() == m).to_string()
                                on:click=move |_| mode.set(m)
                            >
                                {move || tr(state.lang.get(), m.label())}
                            </button>
                        }
                    })
                    .collect_view()}
            </div>
        }
    });
    let error_badge = entry.error.as_ref().and_then(error_badge);
    let Entry {
        input,
        output,
        is_error,
        result,
        hints,
        stages,
        restored,
        ..
    } = entry;
    let hints = hints
        .into_iter()
        .map(|h| view! { <p class="shell-note" data-testid="shell-note">{h}</p> })
        .collect_view();
    let body = move || match (mode.get(), result.as_ref()) {
        (Mode::Tree, Some(StructuredResult::Documents { docs, .. })) => {
            view! { <DocumentTree docs=docs.clone()/> }.into_any()
        }
        (
            Mode::Tree,
            Some(StructuredResult::Document { doc } | StructuredResult::Explain { doc, .. }),
        ) => view! { <DocumentTree docs=vec![doc.clone()]/> }.into_any(),
        (Mode::Table, Some(StructuredResult::Documents { docs, .. })) => {
            view! { <DocumentTable docs=docs.clone()/> }.into_any()
        }
        (Mode::Table, Some(StructuredResult::Document { doc })) => {
            view! { <DocumentTable docs=vec![doc.clone()]/> }.into_any()
        }
        (Mode::Plan, Some(StructuredResult::Explain { plan, .. })) => {
            view! { <ExplainView plan=(**plan).clone()/> }.into_any()
        }
        (Mode::Stages, _) => view! { <StageByStage stages=stages.clone()/> }.into_any(),
        (Mode::Text, Some(StructuredResult::Explain { .. })) => {
            view! { <ExplainText output=output.clone()/> }.into_any()
        }
        _ => view! {
            <pre class=if is_error { "result error" } else { "result" }>{output.clone()}</pre>
        }
        .into_any(),
    };
    view! {
        <div class=if restored { "past-entry" } else { "entry" }>
            <div class="entry-head">
                <pre class="input">{format!("> {input}")}</pre>
                {switcher}
            </div>
            {error_badge}
            {body}
            {hints}
        </div>
    }
    .into_any()
}

/// An explain reply's text, with `serverParameters` and `command` behind a toggle.
#[component]
fn ExplainText(output: String) -> impl IntoView {
    let state = expect_context::<AppState>();
    let short =
        crate::page::explain_text::without_fields(&output, &crate::page::explain_text::HIDDEN);
    let full = RwSignal::new(short.is_none());
    let has_short = short.is_some();
    let shown = move || {
        if full.get() {
            output.clone()
        } else {
            short.clone().unwrap_or_default()
        }
    };
    view! {
        {has_short.then(|| view! {
            <label class="toggle">
                <input type="checkbox" data-testid="show-hidden-fields" prop:checked=move || full.get()
                    on:change=move |ev| full.set(event_target_checked(&ev))/>
                " "{move || tr(state.lang.get(), "Show serverParameters and command")}
            </label>
        })}
        <pre class="result" data-testid="explain-text">{shown}</pre>
    }
}

/// "code 2 · BadValue" above an engine error's text.
fn error_badge(error: &ErrorInfo) -> Option<impl IntoView + use<>> {
    let code = error.code?;
    let text = match &error.code_name {
        Some(name) => format!("code {code} · {name}"),
        None => format!("code {code}"),
    };
    Some(view! { <span class="error-code" data-testid="error-code">{text}</span> })
}
