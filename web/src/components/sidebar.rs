//! The sidebar: databases and their collections with document counts.

use leptos::prelude::*;

use crate::AppState;

#[component]
pub fn Sidebar() -> impl IntoView {
    let state = expect_context::<AppState>();
    view! {
        <nav class="sidebar" data-testid="sidebar">
            <h2>"Collections"</h2>
            <Show
                when=move || !state.collections.get().is_empty()
                fallback=|| view! { <p class="empty">"No collections yet. Insert a document to create one."</p> }
            >
                <ul>
                    {move || {
                        state
                            .collections
                            .get()
                            .into_iter()
                            .map(|c| {
                                view! {
                                    <li>
                                        <span class="db">{c.db.clone()}"."</span>
                                        <span class="coll">{c.name.clone()}</span>
                                        <span class="count">{c.count}</span>
                                    </li>
                                }
                            })
                            .collect_view()
                    }}
                </ul>
            </Show>
        </nav>
    }
}
