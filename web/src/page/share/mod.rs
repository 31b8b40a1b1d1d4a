//! Share links: "Share" puts the commands typed in this page and, when small, the data into a
//! link (`#share=<code>`, see `state.rs` and `codec.rs`); nothing is sent to any server. Opening
//! the link gives the receiver a fresh database of their own (`index.html` picks a new
//! `?db=shared-…` name before the worker starts), loads the data into it through the shell and
//! puts the commands in the editor, ready to run.

pub mod codec;
pub mod state;

use leptos::prelude::*;

use crate::page::embed::dataset_input::insert_many_json;
use crate::page::engine_client;
use crate::page::i18n::tr;
use crate::page::lessons::deep_link::{fragment_pairs, replace_fragment};
use crate::page::{AppState, ConsoleNote, push_note, refresh};
use crate::protocol::StructuredResult;
use state::{MAX_SHARED_DOCUMENTS, MAX_SHARED_JSON_BYTES, ShareState, SharedCollection, VERSION};

/// The fragment key of a share link.
pub const KEY: &str = "share";

/// The commands typed in this page, in order (notes and empty inputs left out).
fn typed_commands(app: AppState) -> Vec<String> {
    app.entries.with_untracked(|entries| {
        entries
            .iter()
            .filter(|e| e.note.is_none() && !e.input.trim().is_empty())
            .map(|e| e.input.clone())
            .collect()
    })
}

/// Every collection's documents, when they are few enough for a link.
async fn current_data() -> Option<Vec<SharedCollection>> {
    let collections = engine_client::collections();
    let total: usize = collections.iter().map(|c| c.count).sum();
    if total > MAX_SHARED_DOCUMENTS {
        return None;
    }
    let mut data = Vec::new();
    for c in collections {
        let input = format!(
            "db.getSiblingDB({}).getCollection({}).find().toArray()",
            crate::protocol::doc_text::quoted_string(&c.db),
            crate::protocol::doc_text::quoted_string(&c.name)
        );
        let outcome = engine_client::run(&input).await;
        let docs = match outcome.result {
            Some(StructuredResult::Documents { docs, .. }) => docs,
            _ if c.count == 0 => Vec::new(),
            _ => return None,
        };
        data.push(SharedCollection {
            db: c.db,
            name: c.name,
            docs,
        });
    }
    Some(data)
}

/// Makes the link: this page's address without its query (the receiver gets a database of their
/// own) and with `#share=<code>`.
pub async fn make_link(app: AppState) -> Result<(String, bool), String> {
    let mut state = ShareState {
        v: VERSION,
        commands: typed_commands(app),
        data: current_data().await,
    };
    let mut json = state.to_json();
    if json.len() > MAX_SHARED_JSON_BYTES && state.data.is_some() {
        state.data = None;
        json = state.to_json();
    }
    if json.len() > MAX_SHARED_JSON_BYTES {
        return Err(format!(
            "the commands are too long for a link ({} KB of text; at most {} KB)",
            json.len() / 1024,
            MAX_SHARED_JSON_BYTES / 1024
        ));
    }
    let code = codec::encode(&json).await?;
    let location = web_sys::window().ok_or("no window")?.location();
    let origin = location.origin().map_err(|_| "no origin")?;
    let path = location.pathname().map_err(|_| "no path")?;
    Ok((format!("{origin}{path}#{KEY}={code}"), state.data.is_some()))
}

/// The `share=` code in the page's fragment, if any.
fn code_in_url() -> Option<String> {
    let fragment = crate::page::lessons::deep_link::current_fragment();
    fragment_pairs(&fragment)
        .into_iter()
        .find(|(k, _)| k == KEY)
        .map(|(_, v)| v)
}

/// Opens the share link the page was opened with (after the shell started): loads its data,
/// puts its commands in the editor, and drops the fragment so a reload does not load it twice.
pub async fn receive(app: AppState) {
    let Some(code) = code_in_url() else {
        return;
    };
    replace_fragment("");
    let lang = app.lang.get_untracked();
    let state = match codec::decode(&code)
        .await
        .and_then(|t| ShareState::from_json(&t))
    {
        Ok(s) => s,
        Err(e) => {
            push_note(app, ConsoleNote::Storage(e));
            return;
        }
    };
    let mut loaded = Vec::new();
    for c in state.data.iter().flatten() {
        if c.docs.is_empty() {
            let _ = engine_client::run(&format!(
                "db.getSiblingDB({}).createCollection({})",
                crate::protocol::doc_text::quoted_string(&c.db),
                crate::protocol::doc_text::quoted_string(&c.name)
            ))
            .await;
        }
        for chunk in c
            .docs
            .chunks(crate::page::embed::dataset_input::DOCUMENTS_PER_INPUT)
        {
            let outcome = engine_client::run(&insert_many_json(&c.db, &c.name, chunk)).await;
            if outcome.is_error {
                push_note(
                    app,
                    ConsoleNote::Storage(format!("{}.{}: {}", c.db, c.name, outcome.output)),
                );
            }
        }
        loaded.push(format!("{}.{} ({})", c.db, c.name, c.docs.len()));
    }
    refresh(app);
    let data = if state.data.is_none() {
        tr(lang, "no data (it was too large for a link)").to_string()
    } else if loaded.is_empty() {
        tr(lang, "no data").to_string()
    } else {
        loaded.join(", ")
    };
    push_note(
        app,
        ConsoleNote::Storage(format!(
            "{} {data}; {} {}",
            tr(lang, "Opened a shared link:"),
            state.commands.len(),
            tr(lang, "command(s), in the editor, ready to run.")
        )),
    );
    app.editor_text.set(state.commands.join("\n"));
}

/// The "Share" button of the top bar, and the link it made.
#[component]
pub fn ShareButton() -> impl IntoView {
    let app = expect_context::<AppState>();
    let link = RwSignal::new(None::<Result<(String, bool), String>>);
    let working = RwSignal::new(false);
    let share = move |_: leptos::ev::MouseEvent| {
        working.set(true);
        leptos::task::spawn_local(async move {
            let made = make_link(app).await;
            if let Ok((url, _)) = &made {
                copy_to_clipboard(url);
            }
            link.set(Some(made));
            working.set(false);
        });
    };
    let shown = move || {
        let lang = app.lang.get();
        link.get().map(|made| match made {
            Ok((url, with_data)) => view! {
                <div class="share-popup" data-testid="share-popup">
                    <p>{tr(lang, if with_data {
                        "A link with your data and commands (copied):"
                    } else {
                        "A link with your commands (copied; the data is too large for a link):"
                    })}</p>
                    <input readonly data-testid="share-link" value=url on:focus=|e| {
                        use wasm_bindgen::JsCast;
                        if let Some(input) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                            input.select();
                        }
                    }/>
                    <button class="link" on:click=move |_| link.set(None)>{tr(lang, "Close")}</button>
                </div>
            }
            .into_any(),
            Err(e) => view! {
                <div class="share-popup error" data-testid="share-popup">
                    <p>{e}</p>
                    <button class="link" on:click=move |_| link.set(None)>{tr(lang, "Close")}</button>
                </div>
            }
            .into_any(),
        })
    };
    view! {
        <span class="share">
            <button class="share-button" data-testid="share" on:click=share
                disabled=move || working.get() || !app.ready.get()>
                {move || tr(app.lang.get(), "Share")}
            </button>
            {shown}
        </span>
    }
}

/// `navigator.clipboard.writeText(text)`, when the browser allows it (a secure context and a
/// click); the link is shown either way.
fn copy_to_clipboard(text: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let navigator = window.navigator();
    let Ok(clipboard) = js_sys::Reflect::get(&navigator, &"clipboard".into()) else {
        return;
    };
    if clipboard.is_undefined() {
        return;
    }
    if let Ok(write) = js_sys::Reflect::get(&clipboard, &"writeText".into())
        .and_then(wasm_bindgen::JsCast::dyn_into::<js_sys::Function>)
        && let Ok(promise) = write.call1(&clipboard, &text.into())
        && let Ok(promise) = wasm_bindgen::JsCast::dyn_into::<js_sys::Promise>(promise)
    {
        // A refusal (no permission) is fine: the link is on the page to copy by hand.
        wasm_bindgen_futures::spawn_local(async move {
            let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
        });
    }
}
