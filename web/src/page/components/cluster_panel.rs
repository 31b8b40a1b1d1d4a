//! The sidebar's sharded-cluster panel (issue #17), beside the replica set's: when the console
//! is connected to a cluster's router (after `new ShardingTest(...)`), its shards, how many
//! chunks of each sharded collection each shard holds, and which shards the last query went
//! to, targeted or scatter-gather. The worker reads it from the `config` database through the
//! router after each command (`worker/sharded_cluster.rs`).

use leptos::prelude::*;

use crate::page::AppState;
use crate::page::i18n::{Lang, tr};
use crate::protocol::{ClusterShard, QueryRouting, ShardedCluster, ShardedCollection};

#[component]
pub fn ClusterPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    move || {
        state
            .cluster
            .get()
            .map(|cluster| panel(cluster, state.lang.get()))
    }
}

fn panel(cluster: ShardedCluster, lang: Lang) -> impl IntoView {
    let queried: Vec<String> = cluster
        .last_query
        .as_ref()
        .map(|q| q.shards.clone())
        .unwrap_or_default();
    let shards = cluster
        .shards
        .into_iter()
        .map(|s| {
            let queried = queried.contains(&s.id);
            shard_item(s, queried, lang)
        })
        .collect_view();
    let collections = if cluster.collections.is_empty() {
        view! { <p class="cluster-none">{tr(lang, "No sharded collections yet.")}</p> }.into_any()
    } else {
        let items = cluster
            .collections
            .into_iter()
            .map(|c| collection_item(c, lang))
            .collect_view();
        view! { <ul class="sharded-collections">{items}</ul> }.into_any()
    };
    view! {
        <section class="topology cluster" data-testid="cluster">
            <h3>{tr(lang, "Sharded cluster")} " " <code class="set-name">"mongos"</code></h3>
            <h4>{tr(lang, "Shards")}</h4>
            <ul class="members">{shards}</ul>
            <h4>{tr(lang, "Chunks per shard")}</h4>
            {collections}
            {cluster.last_query.map(|q| last_query(q, lang))}
        </section>
    }
}

fn shard_item(shard: ClusterShard, queried: bool, lang: Lang) -> impl IntoView {
    view! {
        <li
            class="member"
            data-testid="cluster-shard"
            data-shard=shard.id.clone()
            data-queried=queried.to_string()
        >
            <span class="member-host">{shard.id.clone()}</span>
            <span class="member-facts">
                <span class="shard-host">{shard.host}</span>
                {queried.then(|| view! {
                    <span class="member-served" title=tr(lang, "got the last query")>
                        {format!("← {}", tr(lang, "last query"))}
                    </span>
                })}
            </span>
        </li>
    }
}

fn collection_item(collection: ShardedCollection, lang: Lang) -> impl IntoView {
    let chunks = collection
        .chunks
        .iter()
        .map(|(shard, n)| {
            view! {
                <span class="shard-chunks" data-shard=shard.clone() data-chunks=n.to_string()>
                    <span class="shard-chunks-shard">{shard.clone()}</span>
                    " "
                    {format!("{n} {}", tr(lang, if *n == 1 { "chunk" } else { "chunks" }))}
                </span>
            }
        })
        .collect_view();
    view! {
        <li class="sharded-collection" data-testid="cluster-collection" data-ns=collection.namespace.clone()>
            <span class="member-host">{collection.namespace.clone()}</span>
            <code class="shard-key">{collection.key.clone()}</code>
            <span class="member-facts">{chunks}</span>
        </li>
    }
}

fn last_query(query: QueryRouting, lang: Lang) -> impl IntoView {
    let routing = routing_key(&query);
    view! {
        <p
            class="last-query"
            data-testid="cluster-last-query"
            data-routing=routing
            data-shards=query.shards.join(",")
        >
            <span class="last-query-title">{tr(lang, "Last query")}</span>
            " "
            <code>{format!("{} {}", query.command, query.namespace)}</code>
            " → "
            {query.shards.join(", ")}
            " "
            <span class=format!("member-state routing-{routing}")>{tr(lang, routing)}</span>
        </p>
    }
}

/// `scatter-gather` when the router broadcast the query, else `targeted`: the page's markup
/// (`data-routing`) and the badge's words.
fn routing_key(query: &QueryRouting) -> &'static str {
    if query.scatter_gather() {
        "scatter-gather"
    } else {
        "targeted"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_routing_is_named_and_its_words_translate() {
        let query = QueryRouting {
            command: "find".into(),
            namespace: "shop.users".into(),
            shards: vec!["shard0000".into(), "shard0001".into()],
            owners: vec!["shard0000".into(), "shard0001".into()],
        };
        assert_eq!(routing_key(&query), "scatter-gather");
        let one = QueryRouting {
            shards: vec!["shard0001".into()],
            ..query
        };
        assert_eq!(routing_key(&one), "targeted");
        assert_eq!(tr(Lang::Zh, "scatter-gather"), "分散-收集");
        assert_eq!(tr(Lang::Zh, "targeted"), "定向");
        assert_eq!(tr(Lang::Zh, "Sharded cluster"), "分片集群");
    }
}
