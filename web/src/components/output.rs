//! The output pane: each command with what the shell showed, errors in red.

use leptos::prelude::*;

use crate::AppState;

#[component]
pub fn OutputPane() -> impl IntoView {
    let state = expect_context::<AppState>();
    view! {
        <div class="output" data-testid="output">
            <Show when=move || state.entries.get().is_empty()>
                <div class="welcome">
                    <p>"Type a mongo shell command below and press "<kbd>"Ctrl"</kbd>"+"<kbd>"Enter"</kbd>"."</p>
                    <p>"Try: "<code>"db.products.insertOne({name: \"Product 1\", price: 10})"</code>
                        " then "<code>"db.products.find({price: 10})"</code></p>
                    <p class="muted">"Everything runs in this page (WebAssembly); your data stays in this browser."</p>
                </div>
            </Show>
            <For
                each=move || state.entries.get()
                key=|e| e.id
                children=move |e| {
                    view! {
                        <div class="entry">
                            <pre class="input">{format!("> {}", e.input)}</pre>
                            <pre class=if e.is_error { "result error" } else { "result" }>{e.output.clone()}</pre>
                        </div>
                    }
                }
            />
        </div>
    }
}
