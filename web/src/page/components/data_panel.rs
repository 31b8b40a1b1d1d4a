//! The sidebar's "Data in and out" panel: export the current database as a `mongodump
//! --archive` file, or one of its collections as `mongoexport` JSON lines, a JSON array or an
//! archive, downloaded as a file; import a file (picked, or dropped anywhere on the page) or
//! pasted JSON into the current database. Each transfer runs in the database's owner like an
//! input ([`engine_client::transfer`]) and shows a line in the console.

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::page::i18n::tr;
use crate::page::{AppState, Entry, engine_client, refresh, scroll_output_to_end};
use crate::protocol::transfer::{
    Transfer, TransferFormat, collection_of_file, detect_format, encode, file_name,
};

/// What the export select offers besides the current database's collections.
const WHOLE_DATABASE: &str = "";

#[component]
pub fn DataPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    let source = RwSignal::new(WHOLE_DATABASE.to_string());
    let format = RwSignal::new(TransferFormat::Archive);
    let pasting = RwSignal::new(false);
    let pasted = RwSignal::new(String::new());
    let paste_into = RwSignal::new("pasted".to_string());
    let picker = NodeRef::<leptos::html::Input>::new();
    let lang = move || state.lang.get();
    let collections = move || {
        let db = state.current_db.get();
        state
            .collections
            .get()
            .into_iter()
            .filter(|c| c.db == db)
            .map(|c| c.name)
            .collect::<Vec<_>>()
    };
    // A whole database leaves as an archive only (mongoexport reads one collection).
    Effect::new(move |_| {
        if source.get().is_empty() && format.get_untracked() != TransferFormat::Archive {
            format.set(TransferFormat::Archive);
        }
    });
    let export = move |_| {
        let db = state.current_db.get_untracked();
        let collection = Some(source.get_untracked()).filter(|c| !c.is_empty());
        let format = format.get_untracked();
        leptos::task::spawn_local(export_file(state, db, collection, format));
    };
    let on_pick = move |_| {
        let Some(input) = picker.get_untracked() else {
            return;
        };
        // Taken out of the list before the input is cleared (which empties it).
        if let Some(files) = input.files() {
            leptos::task::spawn_local(import_files(state, files_of(&files)));
        }
        // Picking the same file again fires `change` again.
        input.set_value("");
    };
    let import_pasted = move |_| {
        let text = pasted.get_untracked();
        let collection = paste_into.get_untracked().trim().to_string();
        if text.trim().is_empty() || collection.is_empty() {
            return;
        }
        leptos::task::spawn_local(async move {
            let ok = import_bytes(state, "pasted JSON", Some(collection), text.into_bytes()).await;
            if ok {
                pasted.set(String::new());
                pasting.set(false);
            }
        });
    };
    let format_option = move |value: TransferFormat, label: &'static str| {
        let disabled = move || source.get().is_empty() && value != TransferFormat::Archive;
        view! {
            <option value=format_value(value) selected=move || format.get() == value disabled=disabled>
                {move || tr(lang(), label)}
            </option>
        }
    };
    view! {
        <section class="data-panel" data-testid="data-panel" aria-labelledby="data-panel-title">
            <h2 id="data-panel-title">{move || tr(lang(), "Data in and out")}</h2>
            <label class="data-field">
                <span>{move || tr(lang(), "Export")}</span>
                <select
                    data-testid="export-source"
                    on:change=move |ev| source.set(event_target_value(&ev))
                    prop:value=move || source.get()
                >
                    <option value=WHOLE_DATABASE>
                        {move || format!("{} “{}”", tr(lang(), "database"), state.current_db.get())}
                    </option>
                    {move || collections().into_iter().map(|c| view! { <option value=c.clone()>{c.clone()}</option> }).collect_view()}
                </select>
            </label>
            <label class="data-field">
                <span>{move || tr(lang(), "as")}</span>
                <select
                    data-testid="export-format"
                    on:change=move |ev| format.set(format_of(&event_target_value(&ev)))
                    prop:value=move || format_value(format.get())
                >
                    {format_option(TransferFormat::Archive, "mongodump archive")}
                    {format_option(TransferFormat::JsonLines, "JSON lines (mongoexport)")}
                    {format_option(TransferFormat::JsonArray, "JSON array")}
                </select>
            </label>
            <div class="data-actions">
                <button data-testid="export" on:click=export disabled=move || state.busy.get()>
                    {move || format!("⇩ {}", tr(lang(), "Export"))}
                </button>
                <button
                    data-testid="import-file"
                    title=move || tr(lang(), "Import a mongoexport JSON file or a mongodump archive (or drop it on the page)")
                    disabled=move || state.busy.get()
                    on:click=move |_| {
                        if let Some(input) = picker.get_untracked() {
                            input.click();
                        }
                    }
                >
                    {move || format!("⇧ {}", tr(lang(), "Import file…"))}
                </button>
                <button
                    data-testid="paste-toggle"
                    aria-expanded=move || pasting.get().to_string()
                    on:click=move |_| pasting.update(|p| *p = !*p)
                >
                    {move || tr(lang(), "Paste…")}
                </button>
            </div>
            <input
                type="file"
                class="visually-hidden"
                data-testid="import-input"
                accept=".json,.jsonl,.archive,application/json"
                aria-label=move || tr(lang(), "Import file…")
                tabindex="-1"
                node_ref=picker
                on:change=on_pick
            />
            <Show when=move || pasting.get()>
                <div class="paste-box">
                    <label class="data-field">
                        <span>{move || tr(lang(), "into collection")}</span>
                        <input
                            data-testid="paste-collection"
                            prop:value=move || paste_into.get()
                            on:input=move |ev| paste_into.set(event_target_value(&ev))
                        />
                    </label>
                    <textarea
                        data-testid="paste-text"
                        rows="4"
                        aria-label=move || tr(lang(), "JSON documents, one per line or an array")
                        placeholder=move || tr(lang(), "JSON documents, one per line or an array")
                        prop:value=move || pasted.get()
                        on:input=move |ev| pasted.set(event_target_value(&ev))
                    ></textarea>
                    <button data-testid="paste-import" on:click=import_pasted disabled=move || state.busy.get()>
                        {move || tr(lang(), "Import")}
                    </button>
                </div>
            </Show>
            <p class="data-hint">{move || tr(lang(), "Drop a file anywhere on the page to import it.")}</p>
        </section>
    }
}

fn format_value(format: TransferFormat) -> &'static str {
    match format {
        TransferFormat::Archive => "archive",
        TransferFormat::JsonLines => "json",
        TransferFormat::JsonArray => "json-array",
    }
}

fn format_of(value: &str) -> TransferFormat {
    match value {
        "json" => TransferFormat::JsonLines,
        "json-array" => TransferFormat::JsonArray,
        _ => TransferFormat::Archive,
    }
}

/// Imports the files dropped on the page (the page's `drop` handler calls this).
pub fn on_drop(state: AppState, ev: web_sys::DragEvent) {
    ev.prevent_default();
    if let Some(files) = ev.data_transfer().and_then(|d| d.files()) {
        leptos::task::spawn_local(import_files(state, files_of(&files)));
    }
}

/// Lets the page take dropped files (the page's `dragover` handler calls this).
pub fn on_drag_over(ev: web_sys::DragEvent) {
    ev.prevent_default();
    if let Some(transfer) = ev.data_transfer() {
        transfer.set_drop_effect("copy");
    }
}

fn files_of(list: &web_sys::FileList) -> Vec<web_sys::File> {
    (0..list.length()).filter_map(|i| list.item(i)).collect()
}

async fn import_files(state: AppState, files: Vec<web_sys::File>) {
    for file in files {
        let name = file.name();
        let bytes = match JsFuture::from(file.array_buffer()).await {
            Ok(buffer) => js_sys::Uint8Array::new(&buffer).to_vec(),
            Err(e) => {
                show(
                    state,
                    format!("import {name}"),
                    engine_client::Outcome {
                        output: format!("the file could not be read: {e:?}"),
                        is_error: true,
                        result: None,
                        error: None,
                        ..Default::default()
                    },
                );
                continue;
            }
        };
        let collection = Some(collection_of_file(&name));
        import_bytes(state, &name, collection, bytes).await;
    }
}

/// Imports `bytes` (named `what` in the console) into the current database: JSON into
/// `collection`, an archive's collections by their own names. Returns whether it worked.
async fn import_bytes(
    state: AppState,
    what: &str,
    collection: Option<String>,
    bytes: Vec<u8>,
) -> bool {
    let db = state.current_db.get_untracked();
    let format = detect_format(&bytes);
    let collection = collection.filter(|_| format != TransferFormat::Archive);
    let target = match &collection {
        Some(c) => format!("{db}.{c}"),
        None => db.clone(),
    };
    state.busy.set(true);
    let outcome = engine_client::transfer(Transfer::Import {
        db,
        collection,
        format,
        data: encode(&bytes),
    })
    .await;
    state.busy.set(false);
    let ok = !outcome.is_error;
    show(state, format!("import {what} → {target}"), outcome);
    ok
}

async fn export_file(
    state: AppState,
    db: String,
    collection: Option<String>,
    format: TransferFormat,
) {
    let name = file_name(&db, collection.as_deref(), format);
    state.busy.set(true);
    let mut outcome = engine_client::transfer(Transfer::Export {
        db,
        collection,
        format,
    })
    .await;
    state.busy.set(false);
    if let Some(data) = outcome.file.take() {
        if let Err(e) = download(&name, &data, format) {
            outcome.output = format!("the file could not be saved: {e}");
            outcome.is_error = true;
        } else {
            outcome.output = format!("{} → {name}", outcome.output);
        }
    }
    show(state, format!("export {name}"), outcome);
}

/// Offers `data` (base64) as a download named `name`.
fn download(name: &str, data: &str, format: TransferFormat) -> Result<(), String> {
    let bytes = crate::protocol::transfer::decode(data)?;
    let array = js_sys::Uint8Array::from(bytes.as_slice());
    let parts = js_sys::Array::of1(&array);
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(match format {
        TransferFormat::Archive => "application/octet-stream",
        _ => "application/json",
    });
    let blob = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options)
        .map_err(|e| format!("{e:?}"))?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(|e| format!("{e:?}"))?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let link: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(|e| format!("{e:?}"))?
        .unchecked_into();
    link.set_href(&url);
    link.set_download(name);
    link.click();
    // Once the browser has taken the file, the URL is not needed any more.
    let revoke = wasm_bindgen::closure::Closure::once_into_js(move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    });
    if let Some(window) = web_sys::window() {
        let _ = window
            .set_timeout_with_callback_and_timeout_and_arguments_0(revoke.unchecked_ref(), 10_000);
    }
    Ok(())
}

/// A console entry for a transfer.
fn show(state: AppState, label: String, outcome: engine_client::Outcome) {
    state.entries.update(|entries| {
        let id = entries.len();
        entries.push(Entry {
            id,
            input: label,
            output: outcome.output,
            is_error: outcome.is_error,
            result: None,
            error: outcome.error,
            note: None,
            hints: outcome.notes,
            stages: Vec::new(),
            restored: false,
        });
    });
    refresh(state);
    scroll_output_to_end();
}
