//! The command editor: a multi-line text area; Ctrl+Enter (or Cmd+Enter) runs it; while a command
//! runs, the button stops it.

use leptos::prelude::*;

use crate::{AppState, engine_client, run_in_console};

#[component]
pub fn Editor() -> impl IntoView {
    let state = expect_context::<AppState>();
    let text = state.editor_text;
    let run = move || {
        let input = text.get_untracked();
        if input.trim().is_empty() || state.busy.get_untracked() || !state.ready.get_untracked() {
            return;
        }
        leptos::task::spawn_local(async move {
            run_in_console(state, input).await;
        });
    };
    // A command that runs too long (a catastrophic regular expression, a huge sort) is stopped
    // by replacing the shell worker; the page itself never blocks.
    let stop = move |_| {
        if state.busy.get_untracked() {
            engine_client::interrupt();
        }
    };
    let on_keydown = move |ev: web_sys::KeyboardEvent| {
        if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) {
            ev.prevent_default();
            run();
        }
    };
    view! {
        <div class="editor">
            <span class="prompt">{move || format!("{}>", state.current_db.get())}</span>
            <textarea
                data-testid="editor"
                spellcheck="false"
                rows="4"
                placeholder="db.products.insertOne({name: \"Product 1\", price: 10})"
                prop:value=move || text.get()
                on:input=move |ev| text.set(event_target_value(&ev))
                on:keydown=on_keydown
            ></textarea>
            <Show
                when=move || state.busy.get()
                fallback=move || view! {
                    <button data-testid="run" on:click=move |_| run() disabled=move || !state.ready.get()>
                        "Run ⌃⏎"
                    </button>
                }
            >
                <button data-testid="stop" class="stop" on:click=stop title="Stop the running command">
                    "Stop ■"
                </button>
            </Show>
        </div>
    }
}
