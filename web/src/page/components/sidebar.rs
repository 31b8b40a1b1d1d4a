//! The sidebar: the replica set's members when the console is connected to one
//! (`topology_panel.rs`), the sharded cluster's shards and chunks when it is connected to a
//! router (`cluster_panel.rs`), databases → collections (with document counts) → indexes
//! (names and key patterns; a server's own `admin`, `config` and `local` last and closed), the
//! data in and out panel, and the light/dark theme switch.

use std::collections::BTreeMap;

use leptos::prelude::*;

use crate::page::AppState;
use crate::page::i18n::tr;
use crate::page::theme;
use crate::protocol::CollectionSummary;
use crate::protocol::doc_text::compact;

#[component]
pub fn Sidebar() -> impl IntoView {
    let state = expect_context::<AppState>();
    let dark = RwSignal::new(theme::saved_is_dark());
    Effect::new(move |_| theme::apply(dark.get()));
    let databases = move || {
        let mut by_db: BTreeMap<String, Vec<CollectionSummary>> = BTreeMap::new();
        for c in state.collections.get() {
            by_db.entry(c.db.clone()).or_default().push(c);
        }
        let mut databases: Vec<(String, Vec<CollectionSummary>)> = by_db.into_iter().collect();
        databases.sort_by_key(|(db, _)| server_database(db));
        databases
            .into_iter()
            .map(|(db, collections)| {
                let current = db == state.current_db.get();
                let open = current || !server_database(&db);
                view! {
                    <details class="db-node" open=open data-db=db.clone()>
                        <summary class:current=current>
                            <span class="db-name">{db.clone()}</span>
                            {current.then(|| view! { <span class="current-tag">{move || tr(state.lang.get(), "current")}</span> })}
                        </summary>
                        <ul class="collections">
                            {collections.into_iter().map(collection_item).collect_view()}
                        </ul>
                    </details>
                }
            })
            .collect_view()
    };
    view! {
        <aside class="sidebar" data-testid="sidebar" aria-label=move || tr(state.lang.get(), "Databases")>
            <super::TopologyPanel/>
            <super::ClusterPanel/>
            <h2 data-testid="sidebar-title">{move || tr(state.lang.get(), "Databases")}</h2>
            <Show
                when=move || !state.collections.get().is_empty()
                fallback=move || view! { <p class="empty">{move || tr(state.lang.get(), "No collections yet. Insert a document to create one.")}</p> }
            >
                {databases}
            </Show>
            <super::DataPanel/>
            <div class="sidebar-foot">
                <button
                    class="theme-toggle"
                    data-testid="theme-toggle"
                    title=move || tr(state.lang.get(), "Switch between the light and the dark theme")
                    on:click=move |_| dark.update(|d| *d = !*d)
                >
                    {move || {
                        let lang = state.lang.get();
                        if dark.get() {
                            format!("☀ {}", tr(lang, "Light theme"))
                        } else {
                            format!("☾ {}", tr(lang, "Dark theme"))
                        }
                    }}
                </button>
            </div>
        </aside>
    }
}

/// A server's own database (`admin`; `config`, a router's metadata; `local`, a replica set
/// member's oplog): listed after the learner's databases, closed unless it is the current one.
fn server_database(db: &str) -> bool {
    matches!(db, "admin" | "config" | "local")
}

fn collection_item(c: CollectionSummary) -> impl IntoView {
    let indexes = c
        .indexes
        .iter()
        .map(|i| {
            view! {
                <li class="index" title=format!("index {}", i.name)>
                    <span class="index-name">{i.name.clone()}</span>
                    <span class="index-key">{compact(&i.key)}</span>
                </li>
            }
        })
        .collect_view();
    view! {
        <li class="collection">
            <details open=true>
                <summary>
                    <span class="coll">{c.name.clone()}</span>
                    <span class="count" title="documents">{c.count}</span>
                </summary>
                <ul class="indexes">{indexes}</ul>
            </details>
        </li>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_servers_own_databases_are_told_apart() {
        let mut names = vec!["config", "ecommerce", "admin", "shop", "local"];
        names.sort_by_key(|db| server_database(db));
        assert_eq!(names, ["ecommerce", "shop", "config", "admin", "local"]);
    }
}
