//! The sidebar's cluster panel data: the sharded cluster a session is connected to, read from
//! `Shell::sharded_cluster_view` (the `config` database's shards, collections and chunks as
//! the router serves them, and where the last query went) into the protocol's
//! [`ShardedCluster`].

use bson::{Bson, Document};
use shell::{ShardedClusterView, Shell};

use crate::protocol::doc_text::compact;
use crate::protocol::{ClusterShard, QueryRouting, ShardedCluster, ShardedCollection};

/// The sharded cluster `shell` is connected to, for the cluster panel; `None` otherwise.
pub fn cluster_of(shell: &Shell) -> Option<ShardedCluster> {
    shell
        .sharded_cluster_view()
        .map(|view| cluster_of_view(&view))
}

fn cluster_of_view(view: &ShardedClusterView) -> ShardedCluster {
    let shards: Vec<ClusterShard> = view
        .shards
        .iter()
        .filter_map(|s| {
            Some(ClusterShard {
                id: s.get_str("_id").ok()?.to_string(),
                host: s.get_str("host").unwrap_or_default().to_string(),
            })
        })
        .collect();
    let mut collections: Vec<ShardedCollection> = view
        .collections
        .iter()
        .filter_map(|c| {
            let namespace = c.get_str("_id").ok()?.to_string();
            let key = c
                .get_document("key")
                .map(|k| compact(&Bson::Document(k.clone()).into_relaxed_extjson()))
                .unwrap_or_default();
            let uuid = c.get("uuid");
            let chunks = shards
                .iter()
                .map(|shard| {
                    let n = view
                        .chunk_counts
                        .iter()
                        .filter(|count| {
                            let Ok(id) = count.get_document("_id") else {
                                return false;
                            };
                            id.get("uuid") == uuid && id.get_str("shard").ok() == Some(&shard.id)
                        })
                        .map(chunk_count)
                        .sum();
                    (shard.id.clone(), n)
                })
                .collect();
            Some(ShardedCollection {
                namespace,
                key,
                chunks,
            })
        })
        .collect();
    engine::sort_slice::sort_by(&mut collections, |a, b| a.namespace.cmp(&b.namespace));
    ShardedCluster {
        shards,
        collections,
        last_query: view.last_query.as_ref().map(|q| QueryRouting {
            command: q.command.clone(),
            namespace: q.namespace.clone(),
            shards: q.shards.clone(),
            owners: q.owners.clone(),
        }),
    }
}

/// A `$group`'s `$sum: 1` (an int32, or an int64 past its range).
fn chunk_count(count: &Document) -> usize {
    match count.get("chunks") {
        Some(Bson::Int32(n)) => usize::try_from(*n).unwrap_or(0),
        Some(Bson::Int64(n)) => usize::try_from(*n).unwrap_or(0),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use engine::Engine;

    use super::*;

    fn run(shell: &mut Shell, input: &str) {
        let ev = shell.eval(input);
        assert!(ev.error.is_none(), "{input}: {ev:?}");
    }

    /// Shards, chunks per shard of each sharded collection, and a targeted then a
    /// scatter-gather query, as the panel receives them.
    #[test]
    fn the_cluster_panel_follows_chunks_and_queries() {
        let mut shell = Shell::new(Engine::new(), shell::ShellConfig::default());
        assert_eq!(cluster_of(&shell), None);
        run(&mut shell, "var st = new ShardingTest({shards: 2})");
        run(&mut shell, r#"sh.enableSharding("shop")"#);
        run(&mut shell, r#"sh.shardCollection("shop.users", {name: 1})"#);
        run(
            &mut shell,
            r#"db.getSiblingDB("shop").users.insertMany([{name: "Ann"}, {name: "Zoe"}])"#,
        );
        run(&mut shell, r#"sh.splitAt("shop.users", {name: "M"})"#);
        run(&mut shell, r#"sh.splitAt("shop.users", {name: "T"})"#);
        run(
            &mut shell,
            r#"sh.moveChunk("shop.users", {name: "Zoe"}, "shard0001")"#,
        );
        let cluster = cluster_of(&shell).unwrap();
        let ids: Vec<&str> = cluster.shards.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["shard0000", "shard0001"]);
        assert_eq!(cluster.shards[0].host, "localhost:27018");
        let users = cluster
            .collections
            .iter()
            .find(|c| c.namespace == "shop.users")
            .unwrap();
        assert_eq!(users.key, "{ name: 1 }");
        assert_eq!(
            users.chunks,
            [("shard0000".to_string(), 2), ("shard0001".to_string(), 1)]
        );
        assert_eq!(cluster.last_query, None);
        // A second collection, sharded in the same simulated second, has its own chunks.
        run(
            &mut shell,
            r#"sh.shardCollection("shop.orders", {customer: "hashed"})"#,
        );
        let cluster = cluster_of(&shell).unwrap();
        let orders = cluster
            .collections
            .iter()
            .find(|c| c.namespace == "shop.orders")
            .unwrap();
        assert_eq!(orders.key, "{ customer: 'hashed' }");
        assert!(orders.chunks.iter().all(|(_, n)| *n > 0), "{orders:?}");

        run(
            &mut shell,
            r#"db.getSiblingDB("shop").users.find({name: "Zoe"}).toArray()"#,
        );
        let targeted = cluster_of(&shell).unwrap().last_query.unwrap();
        assert_eq!(targeted.shards, ["shard0001"]);
        assert!(!targeted.scatter_gather());
        run(
            &mut shell,
            r#"db.getSiblingDB("shop").users.find({}).toArray()"#,
        );
        let broadcast = cluster_of(&shell).unwrap().last_query.unwrap();
        assert_eq!(broadcast.command, "find");
        assert_eq!(broadcast.namespace, "shop.users");
        assert!(broadcast.scatter_gather(), "{broadcast:?}");
    }
}
