//! The output pane: each command with what the shell showed. A result that is documents can
//! also be seen as a collapsible tree or a table; an explain reply as a plan tree; an error is
//! red, with MongoDB's code and codeName.

use leptos::prelude::*;

use crate::components::explain_view::ExplainView;
use crate::components::result_views::{DocumentTable, DocumentTree};
use crate::protocol::{ErrorInfo, StructuredResult};
use crate::{AppState, Entry};

/// How a result is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Text,
    Tree,
    Table,
    Plan,
}

impl Mode {
    fn label(self) -> &'static str {
        match self {
            Mode::Text => "Text",
            Mode::Tree => "Tree",
            Mode::Table => "Table",
            Mode::Plan => "Plan",
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
        <div class="output" data-testid="output">
            <Show when=move || state.entries.with(|e| e.iter().all(|e| e.note.is_some()))>
                <div class="welcome">
                    <p>"Type a mongo shell command below and press "<kbd>"Ctrl"</kbd>"+"<kbd>"Enter"</kbd>
                        " (or "<kbd>"Enter"</kbd>" when the statement is complete)."</p>
                    <p>"Try: "<code>"db.products.insertOne({name: \"Product 1\", price: 10})"</code>
                        " then "<code>"db.products.find({price: 10})"</code></p>
                    <p class="muted">"Everything runs in this page (WebAssembly); your data stays in this browser."</p>
                </div>
            </Show>
            <For each=move || state.entries.get() key=|e| e.id children=move |e| view! { <EntryView entry=e/> }/>
        </div>
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
    let modes = Mode::offered(entry.result.as_ref());
    let mode = RwSignal::new(modes[0]);
    let switcher = (modes.len() > 1).then(|| {
        view! {
            <div class="view-switch" role="tablist">
                {modes
                    .iter()
                    .map(|&m| {
                        view! {
                            <button
                                role="tab"
                                data-view=m.label().to_lowercase()
                                class:active=move || mode.get() == m
                                on:click=move |_| mode.set(m)
                            >
                                {m.label()}
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
        ..
    } = entry;
    let body = move || match (mode.get(), result.as_ref()) {
        (Mode::Tree, Some(StructuredResult::Documents { docs, .. })) => {
            view! { <DocumentTree docs=docs.clone()/> }.into_any()
        }
        (
            Mode::Tree,
            Some(StructuredResult::Document { doc } | StructuredResult::Explain { doc }),
        ) => view! { <DocumentTree docs=vec![doc.clone()]/> }.into_any(),
        (Mode::Table, Some(StructuredResult::Documents { docs, .. })) => {
            view! { <DocumentTable docs=docs.clone()/> }.into_any()
        }
        (Mode::Table, Some(StructuredResult::Document { doc })) => {
            view! { <DocumentTable docs=vec![doc.clone()]/> }.into_any()
        }
        (Mode::Plan, Some(StructuredResult::Explain { doc })) => {
            view! { <ExplainView reply=doc.clone()/> }.into_any()
        }
        _ => view! {
            <pre class=if is_error { "result error" } else { "result" }>{output.clone()}</pre>
        }
        .into_any(),
    };
    view! {
        <div class="entry">
            <div class="entry-head">
                <pre class="input">{format!("> {input}")}</pre>
                {switcher}
            </div>
            {error_badge}
            {body}
        </div>
    }
    .into_any()
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
