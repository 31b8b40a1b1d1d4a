//! The command editor: a multi-line text area; Ctrl+Enter (or Cmd+Enter) runs it; while a command
//! runs, the button stops it.

use leptos::prelude::*;

use crate::{AppState, Entry, engine_client, refresh};

#[component]
pub fn Editor() -> impl IntoView {
    let state = expect_context::<AppState>();
    let text = RwSignal::new(String::new());
    let run = move || {
        let input = text.get_untracked();
        if input.trim().is_empty() || state.busy.get_untracked() || !state.ready.get_untracked() {
            return;
        }
        state.busy.set(true);
        leptos::task::spawn_local(async move {
            let outcome = engine_client::run(&input).await;
            let is_error = outcome.is_error;
            state.entries.update(|entries| {
                let id = entries.len();
                entries.push(Entry {
                    id,
                    input,
                    output: outcome.output,
                    is_error,
                });
            });
            if !is_error {
                text.set(String::new());
            }
            refresh(state);
            state.busy.set(false);
            scroll_output_to_end();
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

/// Keeps the newest result in view.
fn scroll_output_to_end() {
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
