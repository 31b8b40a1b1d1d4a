//! The shell's connection to a simulated sharded cluster (`engine::sharding`): starting one
//! (`new ShardingTest({shards, rs})`, `sprout --sharded N`), routing every command through
//! its router (`mongos`) once started, and the prompt's `[direct: mongos] ` prefix.

use std::rc::Rc;

use bson::{Bson, Document, doc};
use engine::Router;
use engine::clock::SimulatedClock;

use crate::session::Session;

/// Starts a cluster from ShardingTest's options: `shards` (a count), `rs` (`{nodes: n}` for
/// replica-set shards; standalone shards without it) and `name`. Every shard starts empty,
/// and the shell's current data does not carry over, as with new processes.
pub(crate) fn start(session: &mut Session, options: &Document) -> Document {
    let shards = options.get("shards").and_then(whole_number).unwrap_or(2);
    if !(0..=16).contains(&shards) {
        return doc! {"ok": 0.0, "errmsg": "ShardingTest: shards must be between 0 and 16", "code": 2, "codeName": "BadValue"};
    }
    let nodes = match options.get("rs") {
        Some(Bson::Document(rs)) => Some(rs.get("nodes").and_then(whole_number).unwrap_or(3)),
        _ => None,
    };
    if nodes.is_some_and(|n| !(1..=7).contains(&n)) {
        return doc! {"ok": 0.0, "errmsg": "ShardingTest: rs.nodes must be between 1 and 7", "code": 2, "codeName": "BadValue"};
    }
    let name = options
        .get_str("name")
        .unwrap_or("shardingTest")
        .to_string();
    let clock = Rc::new(SimulatedClock::new(session.engine.now_millis()));
    let mut router = Router::new(clock, session.next_random());
    for i in 0..shards {
        let host = match nodes {
            None => format!("localhost:{}", 27018 + i),
            Some(n) => {
                let members: Vec<String> = (0..n)
                    .map(|j| format!("172.17.{}.{}:27017", i + 1, j + 2))
                    .collect();
                format!("{name}-rs{i}/{}", members.join(","))
            }
        };
        if let Err(e) = router.add_shard(&host, None) {
            return engine::error_reply(&e);
        }
    }
    let shard_docs = router.metadata().documents("shards");
    session.router = Some(router);
    session.last_routed_query = None;
    session.replica_set = None;
    session.connected_host = None;
    doc! {"shards": shard_docs, "ok": 1.0}
}

/// A whole number given as any BSON number (`2`, `2.0`, `NumberLong(2)`).
fn whole_number(value: &Bson) -> Option<i64> {
    match value {
        Bson::Int32(n) => Some(i64::from(*n)),
        Bson::Int64(n) => Some(*n),
        Bson::Double(d) if d.fract() == 0.0 && d.abs() < 1e15 => Some(*d as i64),
        _ => None,
    }
}

/// Runs a command through the router, when the shell is connected to one.
pub(crate) fn run_command(session: &mut Session, db: &str, command: &Document) -> Option<Document> {
    let router = session.router.as_mut()?;
    let reply = router.run_command(db, command);
    let query = crate::sharding_view::routed_query(router, db, command);
    let behind = router.now_millis() - session.engine.now_millis();
    if query.is_some() {
        session.last_routed_query = query;
    }
    if behind > 0 {
        session.engine.advance_clock(behind);
    }
    Some(reply)
}

/// Runs a command for a monitoring view through the router: it does not count as the learner's
/// last query (`sharding_view.rs`) and leaves the router's `last_targeted` as it was.
pub(crate) fn run_view_command(
    session: &mut Session,
    db: &str,
    command: &Document,
) -> Option<Document> {
    let router = session.router.as_mut()?;
    let targeted = std::mem::take(&mut router.last_targeted);
    let reply = router.run_command(db, command);
    router.last_targeted = targeted;
    Some(reply)
}

/// The prompt's prefix as mongosh shows it when connected to a router: mongosh connects to one
/// `mongos` directly and names the server's type (`[direct: mongos] `; its
/// `getTopologySinglePrompt`), with no set name since a router belongs to none.
pub(crate) fn prompt_prefix(session: &Session) -> Option<String> {
    session
        .router
        .as_ref()
        .map(|_| "[direct: mongos] ".to_string())
}

/// `__sproutNative.shardingStart(options)`: starts the cluster; answers with its shards.
pub(crate) fn start_native(
    _: &boa_engine::JsValue,
    args: &[boa_engine::JsValue],
    ctx: &mut boa_engine::Context,
) -> boa_engine::JsResult<boa_engine::JsValue> {
    let options = crate::convert::to_document(&args.first().cloned().unwrap_or_default(), ctx)?;
    let session = crate::runtime::session(ctx)?;
    let reply = {
        let mut s = session.try_borrow_mut().map_err(|_| {
            boa_engine::JsNativeError::error()
                .with_message("ShardingTest is not available inside $where")
        })?;
        start(&mut s, &options)
    };
    crate::convert::to_js(&Bson::Document(reply), ctx)
}
