//! What the sidebar shows, asked of the engine the way a client asks a server: `listDatabases`,
//! `listCollections`, `count`, `listIndexes` and a `find` of the first documents (for the field
//! paths completion offers), each drained through `getMore` when its cursor has more; and, when
//! the session is connected to a replica set, its topology from `rs.status()`
//! (`Shell::replica_set_view`). No engine internals: the page's sidebar sees what a driver
//! connected to the database would see. A session connected to a simulated replica set or
//! sharded cluster is read through its connection (`Shell::run_view_command`: the set's primary,
//! or the router), not through the shell's own standalone engine, which then holds nothing.

use bson::{Bson, Document, doc};
use engine::Engine;
use shell::{ReplicaSetView, Shell};

use crate::protocol::doc_text::field_paths;
use crate::protocol::{CollectionSummary, IndexSummary, MemberStateView, Topology, TopologyMember};

/// Documents of each collection whose field paths completion offers.
const FIELD_SAMPLE: i32 = 20;

/// A way to send a command and read its reply: an engine directly, or a shell's connection.
type Commands<'a> = dyn FnMut(&str, &Document) -> Document + 'a;

/// The collections of every database of `engine`, sorted by database and name, each with its
/// document count, its indexes and the field paths of its first documents.
pub fn collections_of(engine: &mut Engine) -> Vec<CollectionSummary> {
    collections_through(&mut |db, command| engine.run_command(db, command))
}

/// The collections `shell`'s connection sees (see [`collections_of`]): its engine's for a
/// standalone, the primary's of a replica set, the router's of a sharded cluster.
pub fn collections_seen_by(shell: &mut Shell) -> Vec<CollectionSummary> {
    collections_through(&mut |db, command| shell.run_view_command(db, command))
}

fn collections_through(engine: &mut Commands<'_>) -> Vec<CollectionSummary> {
    let mut out = Vec::new();
    for db in database_names(engine) {
        for name in collection_names(engine, &db) {
            let count = count_of(engine, &db, &name);
            let indexes = cursor_documents(engine, &db, doc! {"listIndexes": name.as_str()})
                .into_iter()
                .filter_map(|index| {
                    Some(IndexSummary {
                        name: index.get_str("name").ok()?.to_string(),
                        key: Bson::Document(index.get_document("key").ok()?.clone())
                            .into_relaxed_extjson(),
                    })
                })
                .collect();
            let sample: Vec<serde_json::Value> = cursor_documents(
                engine,
                &db,
                doc! {"find": name.as_str(), "limit": FIELD_SAMPLE, "batchSize": FIELD_SAMPLE},
            )
            .into_iter()
            .map(|d| Bson::Document(d).into_relaxed_extjson())
            .collect();
            let mut fields = Vec::new();
            field_paths(&sample, &mut fields);
            out.push(CollectionSummary {
                db: db.clone(),
                name,
                count,
                indexes,
                fields,
            });
        }
    }
    out
}

/// `listDatabases`' names, sorted.
fn database_names(engine: &mut Commands<'_>) -> Vec<String> {
    let reply = engine("admin", &doc! {"listDatabases": 1, "nameOnly": true});
    let mut names: Vec<String> = reply
        .get_array("databases")
        .map(|dbs| {
            dbs.iter()
                .filter_map(|d| d.as_document()?.get_str("name").ok().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    engine::sort_slice::sort(&mut names);
    names
}

/// The collections of `db` (not its views), sorted by name.
fn collection_names(engine: &mut Commands<'_>, db: &str) -> Vec<String> {
    let command = doc! {"listCollections": 1, "nameOnly": true, "filter": {"type": "collection"}};
    let mut names: Vec<String> = cursor_documents(engine, db, command)
        .into_iter()
        .filter_map(|c| c.get_str("name").ok().map(str::to_string))
        .collect();
    engine::sort_slice::sort(&mut names);
    names
}

/// `count`'s `n` (0 when the command fails).
fn count_of(engine: &mut Commands<'_>, db: &str, collection: &str) -> usize {
    let reply = engine(db, &doc! {"count": collection});
    match reply.get("n") {
        Some(Bson::Int32(n)) => usize::try_from(*n).unwrap_or(0),
        Some(Bson::Int64(n)) => usize::try_from(*n).unwrap_or(0),
        Some(Bson::Double(n)) if *n >= 0.0 => *n as usize,
        _ => 0,
    }
}

/// Every document of the cursor `command` opens: its first batch, then `getMore`s until the
/// cursor is exhausted. A failed command gives no documents.
fn cursor_documents(engine: &mut Commands<'_>, db: &str, command: Document) -> Vec<Document> {
    let mut reply = engine(db, &command);
    let mut docs = Vec::new();
    let mut batch_field = "firstBatch";
    loop {
        let Ok(cursor) = reply.get_document("cursor") else {
            return docs;
        };
        if let Ok(batch) = cursor.get_array(batch_field) {
            docs.extend(batch.iter().filter_map(|d| d.as_document().cloned()));
        }
        let id = cursor.get_i64("id").unwrap_or(0);
        let Some(collection) = cursor
            .get_str("ns")
            .ok()
            .and_then(|ns| ns.split_once('.'))
            .map(|(_, c)| c.to_string())
        else {
            return docs;
        };
        if id == 0 {
            return docs;
        }
        reply = engine(db, &doc! {"getMore": id, "collection": collection});
        batch_field = "nextBatch";
    }
}

/// The replica set `shell` is connected to, for the topology panel; `None` for a standalone.
pub fn topology_of(shell: &Shell) -> Option<Topology> {
    shell.replica_set_view().map(|view| topology_of_view(&view))
}

/// Reads `rs.status()`'s reply as the panel shows it: each member's host and state, and its lag
/// behind the primary (the primary's `optimeDate` less the member's, as
/// `rs.printSecondaryReplicationInfo()` measures it).
fn topology_of_view(view: &ReplicaSetView) -> Topology {
    let status = &view.status;
    let members: Vec<&Document> = status
        .get_array("members")
        .map(|ms| ms.iter().filter_map(Bson::as_document).collect())
        .unwrap_or_default();
    let optime_ms = |m: &Document| {
        m.get_datetime("optimeDate")
            .ok()
            .map(|d| d.timestamp_millis())
    };
    let primary_optime = members
        .iter()
        .find(|m| m.get_str("stateStr").ok() == Some("PRIMARY"))
        .and_then(|m| optime_ms(m));
    Topology {
        set: status.get_str("set").unwrap_or_default().to_string(),
        members: members
            .iter()
            .map(|m| {
                let state = member_state(m);
                let lag_ms = match (state, primary_optime, optime_ms(m)) {
                    (MemberStateView::Primary | MemberStateView::Arbiter, _, _) => None,
                    (_, Some(primary), Some(own)) => Some((primary - own).max(0)),
                    _ => None,
                };
                TopologyMember {
                    host: m.get_str("name").unwrap_or_default().to_string(),
                    state,
                    lag_ms,
                }
            })
            .collect(),
        last_served: view.last_served.clone(),
    }
}

/// The state of one of `rs.status()`'s members: unhealthy (`health: 0`) is a stopped member.
fn member_state(member: &Document) -> MemberStateView {
    let healthy = match member.get("health") {
        Some(Bson::Double(h)) => *h != 0.0,
        Some(Bson::Int32(h)) => *h != 0,
        _ => true,
    };
    if !healthy {
        return MemberStateView::Stopped;
    }
    match member.get_str("stateStr") {
        Ok("PRIMARY") => MemberStateView::Primary,
        Ok("SECONDARY") => MemberStateView::Secondary,
        Ok("ARBITER") => MemberStateView::Arbiter,
        _ => MemberStateView::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sidebar's summary of an engine, as commands report it.
    #[test]
    fn collections_are_read_through_commands() {
        let mut engine = Engine::new();
        let docs: Vec<Document> = (0..150).map(|i| doc! {"_id": i, "a": {"b": i}}).collect();
        engine.run_command("shop", &doc! {"insert": "orders", "documents": docs});
        engine.run_command(
            "shop",
            &doc! {"createIndexes": "orders", "indexes": [{"key": {"a.b": 1}, "name": "a.b_1"}]},
        );
        engine.run_command("shop", &doc! {"insert": "carts", "documents": [{"x": 1}]});
        engine.run_command(
            "shop",
            &doc! {"create": "big_orders", "viewOn": "orders", "pipeline": []},
        );
        let summary = collections_of(&mut engine);
        let names: Vec<(&str, &str, usize)> = summary
            .iter()
            .map(|c| (c.db.as_str(), c.name.as_str(), c.count))
            .collect();
        assert_eq!(names, vec![("shop", "carts", 1), ("shop", "orders", 150)]);
        let orders = &summary[1];
        let index_names: Vec<&str> = orders.indexes.iter().map(|i| i.name.as_str()).collect();
        assert_eq!(index_names, vec!["_id_", "a.b_1"]);
        assert_eq!(orders.indexes[1].key, serde_json::json!({"a.b": 1}));
        assert!(
            orders.fields.iter().any(|f| f == "a.b"),
            "{:?}",
            orders.fields
        );
    }

    /// More than a batch of collections still all show (the cursor is drained with getMore).
    #[test]
    fn every_batch_of_a_cursor_is_read() {
        let mut engine = Engine::new();
        for i in 0..120 {
            engine.run_command(
                "many",
                &doc! {"insert": format!("c{i:03}"), "documents": [{"i": i}]},
            );
        }
        let docs = cursor_documents(
            &mut |db, command| engine.run_command(db, command),
            "many",
            doc! {"listCollections": 1, "cursor": {"batchSize": 7}},
        );
        assert_eq!(docs.len(), 120);
    }

    /// A set's topology as `rs.status()` reports it, before and after its primary is stopped.
    #[test]
    fn the_topology_follows_an_election() {
        let mut shell = Shell::new(Engine::new(), shell::ShellConfig::default());
        assert_eq!(topology_of(&shell), None);
        let run = |shell: &mut Shell, input: &str| {
            let ev = shell.eval(input);
            assert!(ev.error.is_none(), "{input}: {ev:?}");
        };
        run(
            &mut shell,
            r#"rs.initiate({_id: "rs1", members: [{_id: 0, host: "a:1"}, {_id: 1, host: "b:1"}, {_id: 2, host: "c:1", arbiterOnly: true}]})"#,
        );
        run(&mut shell, "db.t.insertOne({x: 1})");
        let topology = topology_of(&shell).unwrap();
        assert_eq!(topology.set, "rs1");
        let states: Vec<(&str, MemberStateView)> = topology
            .members
            .iter()
            .map(|m| (m.host.as_str(), m.state))
            .collect();
        assert_eq!(
            states,
            vec![
                ("a:1", MemberStateView::Primary),
                ("b:1", MemberStateView::Secondary),
                ("c:1", MemberStateView::Arbiter),
            ]
        );
        assert_eq!(topology.members[0].lag_ms, None);
        assert_eq!(topology.members[1].lag_ms, Some(0));
        assert_eq!(topology.last_served.as_deref(), Some("a:1"));
        run(&mut shell, r#"sprout.replSet.stop("a:1")"#);
        let after = topology_of(&shell).unwrap();
        assert_eq!(after.members[0].state, MemberStateView::Stopped);
        assert_eq!(after.members[1].state, MemberStateView::Primary);
    }

    /// Connected to a replica set or a cluster, the sidebar lists what the connection sees
    /// (the primary's data, the router's), not the shell's own engine, and its reads leave the
    /// member that served the learner's last read as it was.
    #[test]
    fn a_cluster_session_is_read_through_its_connection() {
        let run = |shell: &mut Shell, input: &str| {
            let ev = shell.eval(input);
            assert!(ev.error.is_none(), "{input}: {ev:?}");
        };
        let listed = |shell: &mut Shell| -> Vec<(String, String, usize)> {
            collections_seen_by(shell)
                .into_iter()
                .map(|c| (c.db, c.name, c.count))
                .collect()
        };
        let mut shell = Shell::new(Engine::new(), shell::ShellConfig::default());
        run(&mut shell, "db.standalone.insertOne({x: 1})");
        assert_eq!(
            listed(&mut shell),
            [("test".into(), "standalone".into(), 1)]
        );
        run(
            &mut shell,
            r#"rs.initiate({_id: "rs1", members: [{_id: 0, host: "a:1"}, {_id: 1, host: "b:1"}]})"#,
        );
        run(&mut shell, "db.t.insertMany([{x: 1}, {x: 2}])");
        run(&mut shell, r#"db.t.find().readPref("secondary").toArray()"#);
        let seen = listed(&mut shell);
        assert!(seen.contains(&("test".into(), "t".into(), 2)), "{seen:?}");
        assert!(
            !seen.iter().any(|(_, name, _)| name == "standalone"),
            "{seen:?}"
        );
        // As `show dbs` there: the members' oplog too.
        assert!(
            seen.iter()
                .any(|(db, name, _)| db == "local" && name == "oplog.rs")
        );
        assert_eq!(
            topology_of(&shell).unwrap().last_served.as_deref(),
            Some("b:1")
        );

        run(&mut shell, "var st = new ShardingTest({shards: 2})");
        run(
            &mut shell,
            r#"db.getSiblingDB("shop").users.insertOne({name: "Ann"})"#,
        );
        let seen = listed(&mut shell);
        assert!(
            seen.contains(&("shop".into(), "users".into(), 1)),
            "{seen:?}"
        );
        assert!(!seen.iter().any(|(_, name, _)| name == "t"), "{seen:?}");
    }
}
