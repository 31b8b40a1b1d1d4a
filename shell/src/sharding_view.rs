//! What a monitoring view of the simulated sharded cluster shows (the page's cluster panel):
//! the shards and how many chunks of each sharded collection each one holds, read from the
//! `config` database through the router as `sh.status()` reads them, and where the learner's
//! last query went (which shards the router sent it to, and which shards held the
//! collection's data then), recorded as each query passes the router.

use bson::{Bson, Document, doc};
use engine::Router;

use crate::session::Session;

/// The commands that count as queries for the view (and `explain` of one of them).
const QUERIES: &[&str] = &["find", "aggregate", "count", "distinct"];

/// Where the router sent a query.
#[derive(Debug, Clone, PartialEq)]
pub struct RoutedQuery {
    /// `find`, `aggregate`, `count`, `distinct`, or `explain` of one of them.
    pub command: String,
    /// `db.collection`.
    pub namespace: String,
    /// The shards the router sent it to, in `config.shards`' order.
    pub shards: Vec<String>,
    /// The shards that held the collection's data when it ran: those owning a chunk of a
    /// sharded collection, the database's primary shard for an unsharded one. A query sent to
    /// all of them (more than one) is a broadcast, "scatter-gather"; to fewer, targeted.
    pub owners: Vec<String>,
}

/// A sharded cluster as a monitoring view reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct ShardedClusterView {
    /// `config.shards`' documents (`_id`, `host`, …), in the order the shards were added.
    pub shards: Vec<Document>,
    /// `config.collections`' documents (`_id` the namespace, `key`, `uuid`, …).
    pub collections: Vec<Document>,
    /// `config.chunks` counted per collection and shard:
    /// `{_id: {uuid: <collection uuid>, shard: <shard id>}, chunks: <n>}`.
    pub chunk_counts: Vec<Document>,
    /// The learner's last query through the router, if any since the cluster started.
    pub last_query: Option<RoutedQuery>,
}

/// Where query `command` on `db` went, after the router ran it (`Router::last_targeted`);
/// `None` for anything but a query on a user database, or a query that reached no shard.
pub(crate) fn routed_query(router: &Router, db: &str, command: &Document) -> Option<RoutedQuery> {
    if matches!(db, "admin" | "config" | "local") || router.last_targeted.is_empty() {
        return None;
    }
    let name = command.keys().next()?;
    let (query, body) = match command.get(name) {
        Some(Bson::Document(inner)) if name == "explain" => (inner.keys().next()?, inner),
        _ => (name, command),
    };
    if !QUERIES.contains(&query.as_str()) {
        return None;
    }
    let collection = body.get_str(query).ok()?;
    let namespace = format!("{db}.{collection}");
    let metadata = router.metadata();
    let owners = match metadata.collection(&namespace) {
        Some(entry) => entry
            .chunks
            .counts(&metadata.shard_ids())
            .into_iter()
            .filter(|(_, n)| *n > 0)
            .map(|(shard, _)| shard)
            .collect(),
        None => metadata
            .database(db)
            .map(|d| d.primary.clone())
            .or_else(|| metadata.shard_ids().into_iter().next())
            .into_iter()
            .collect(),
    };
    Some(RoutedQuery {
        command: name.clone(),
        namespace,
        shards: router.last_targeted.clone(),
        owners,
    })
}

/// The view of the cluster the shell is connected to, when it is connected to one. Its reads
/// leave the router's `last_targeted` as the learner's last command left it.
pub(crate) fn view(session: &mut Session) -> Option<ShardedClusterView> {
    let last_query = session.last_routed_query.clone();
    let router = session.router.as_mut()?;
    let targeted = std::mem::take(&mut router.last_targeted);
    let shards = cursor_documents(router, doc! {"find": "shards", "sort": {"_id": 1}});
    let collections = cursor_documents(router, doc! {"find": "collections", "sort": {"_id": 1}});
    let chunk_counts = cursor_documents(
        router,
        doc! {
            "aggregate": "chunks",
            "pipeline": [
                {"$group": {"_id": {"uuid": "$uuid", "shard": "$shard"}, "chunks": {"$sum": 1}}},
            ],
            "cursor": {},
        },
    );
    router.last_targeted = targeted;
    Some(ShardedClusterView {
        shards,
        collections,
        chunk_counts,
        last_query,
    })
}

/// Every document of the cursor a command on the `config` database opens, drained with
/// `getMore`; none when the command fails.
fn cursor_documents(router: &mut Router, command: Document) -> Vec<Document> {
    let mut reply = router.run_command("config", &command);
    let mut docs = Vec::new();
    let mut batch = "firstBatch";
    loop {
        let Ok(cursor) = reply.get_document("cursor") else {
            return docs;
        };
        if let Ok(items) = cursor.get_array(batch) {
            docs.extend(items.iter().filter_map(|d| d.as_document().cloned()));
        }
        let id = cursor.get_i64("id").unwrap_or(0);
        let collection = cursor
            .get_str("ns")
            .ok()
            .and_then(|ns| ns.split_once('.'))
            .map(|(_, c)| c.to_string());
        let Some(collection) = collection.filter(|_| id != 0) else {
            return docs;
        };
        reply = router.run_command("config", &doc! {"getMore": id, "collection": collection});
        batch = "nextBatch";
    }
}

#[cfg(test)]
mod tests {
    use crate::{Shell, ShellConfig};

    fn run(shell: &mut Shell, input: &str) -> String {
        let ev = shell.eval(input);
        assert!(ev.error.is_none(), "{input}: {ev:?}");
        ev.text()
    }

    /// The view follows the cluster: its shards, the chunks each holds, and the last query's
    /// shards, which the view's own reads (and the sidebar's) leave alone.
    #[test]
    fn the_view_shows_shards_chunks_and_the_last_query() {
        let mut shell = Shell::new(engine::Engine::new(), ShellConfig::default());
        assert!(shell.sharded_cluster_view().is_none());
        run(&mut shell, "var st = new ShardingTest({shards: 2})");
        assert_eq!(shell.prompt_prefix(), "[direct: mongos] ");
        run(&mut shell, r#"sh.enableSharding("shop")"#);
        run(&mut shell, r#"sh.shardCollection("shop.users", {name: 1})"#);
        let shop = r#"db.getSiblingDB("shop").users"#;
        run(
            &mut shell,
            &format!(r#"{shop}.insertMany([{{name: "Ann"}}, {{name: "Zoe"}}])"#),
        );
        run(&mut shell, r#"sh.splitAt("shop.users", {name: "M"})"#);
        run(
            &mut shell,
            r#"sh.moveChunk("shop.users", {name: "Zoe"}, "shard0001")"#,
        );
        let view = shell.sharded_cluster_view().unwrap();
        let ids: Vec<&str> = view
            .shards
            .iter()
            .filter_map(|s| s.get_str("_id").ok())
            .collect();
        assert_eq!(ids, ["shard0000", "shard0001"]);
        assert!(
            view.collections
                .iter()
                .any(|c| c.get_str("_id").ok() == Some("shop.users")),
            "{:?}",
            view.collections
        );
        let mut per_shard: Vec<(String, i64)> = view
            .chunk_counts
            .iter()
            .map(|c| {
                let id = c.get_document("_id").unwrap();
                let n = match c.get("chunks") {
                    Some(bson::Bson::Int32(n)) => i64::from(*n),
                    Some(bson::Bson::Int64(n)) => *n,
                    other => panic!("{other:?}"),
                };
                (id.get_str("shard").unwrap().to_string(), n)
            })
            .collect();
        engine::sort_slice::sort(&mut per_shard);
        assert_eq!(
            per_shard,
            [("shard0000".to_string(), 1), ("shard0001".to_string(), 1)]
        );

        run(
            &mut shell,
            &format!(r#"{shop}.find({{name: "Zoe"}}).toArray()"#),
        );
        let query = shell.sharded_cluster_view().unwrap().last_query.unwrap();
        assert_eq!(query.command, "find");
        assert_eq!(query.namespace, "shop.users");
        assert_eq!(query.shards, ["shard0001"]);
        assert_eq!(query.owners, ["shard0000", "shard0001"]);
        // The view's reads, and a sidebar's, are not the learner's queries.
        shell.run_view_command("shop", &bson::doc! {"find": "users"});
        let again = shell.sharded_cluster_view().unwrap().last_query.unwrap();
        assert_eq!(again.shards, ["shard0001"]);

        run(&mut shell, &format!(r#"{shop}.find({{}}).toArray()"#));
        let broadcast = shell.sharded_cluster_view().unwrap().last_query.unwrap();
        assert_eq!(broadcast.shards, ["shard0000", "shard0001"]);
        // sh.status() reads the config database: not a query of the learner's data.
        run(&mut shell, "sh.status()");
        assert_eq!(
            shell.sharded_cluster_view().unwrap().last_query,
            Some(broadcast)
        );
    }
}
