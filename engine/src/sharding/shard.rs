//! One shard of the simulated cluster: a standalone [`Engine`] or a simulated
//! [`ReplicaSet`], each answering commands as a `mongod` (or a set's primary) would.

use bson::{Bson, Document, doc};

use crate::Engine;
use crate::error::{Error, Result};
use crate::replication::ReplicaSet;

/// A shard's server.
#[derive(Debug)]
pub enum ShardServer {
    Standalone(Box<Engine>),
    ReplicaSet(Box<ReplicaSet>),
}

impl ShardServer {
    pub fn run_command(&mut self, db: &str, command: &Document) -> Document {
        match self {
            ShardServer::Standalone(engine) => {
                let reply = engine.run_command(db, command);
                // No storage behind a simulated shard: its change batch is dropped.
                engine.take_changes();
                reply
            }
            ShardServer::ReplicaSet(set) => set.run_command(db, command),
        }
    }

    pub fn advance_clock(&mut self, millis: i64) {
        match self {
            ShardServer::Standalone(engine) => engine.advance_clock(millis),
            ShardServer::ReplicaSet(set) => set.advance_clock(millis),
        }
    }

    /// The host that answers for the shard (a set's primary).
    pub fn serving_host(&self, shard_host: &str) -> String {
        match self {
            ShardServer::Standalone(_) => shard_host.to_string(),
            ShardServer::ReplicaSet(set) => set
                .primary_host()
                .map(str::to_string)
                .unwrap_or_else(|| shard_host.to_string()),
        }
    }

    /// Runs a command that opens a cursor and reads it to the end (`getMore` until the id is
    /// 0); the documents of every batch in order.
    pub fn run_to_end(&mut self, db: &str, command: &Document) -> Result<Vec<Document>> {
        let reply = self.run_command(db, command);
        if let Some(e) = crate::reply_error(&reply) {
            return Err(error_with_details(e, &reply));
        }
        let cursor = reply.get_document("cursor").cloned().unwrap_or_default();
        let mut docs = batch(&cursor, "firstBatch");
        let mut id = cursor.get_i64("id").unwrap_or(0);
        let collection = cursor
            .get_str("ns")
            .ok()
            .and_then(|ns| ns.split_once('.').map(|(_, c)| c.to_string()))
            .unwrap_or_default();
        while id != 0 {
            let reply = self.run_command(db, &doc! {"getMore": id, "collection": &collection});
            if let Some(e) = crate::reply_error(&reply) {
                return Err(e);
            }
            let cursor = reply.get_document("cursor").cloned().unwrap_or_default();
            docs.extend(batch(&cursor, "nextBatch"));
            id = cursor.get_i64("id").unwrap_or(0);
        }
        Ok(docs)
    }
}

fn batch(cursor: &Document, field: &str) -> Vec<Document> {
    cursor
        .get_array(field)
        .map(|items| {
            items
                .iter()
                .filter_map(|b| match b {
                    Bson::Document(d) => Some(d.clone()),
                    _ => None,
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The error of a failed reply, keeping the reply's extra fields (`keyPattern`, `errInfo`...).
pub fn error_with_details(e: Error, reply: &Document) -> Error {
    let mut details = reply.clone();
    for k in ["ok", "errmsg", "code", "codeName"] {
        details.remove(k);
    }
    if details.is_empty() {
        e
    } else {
        e.with_details(details)
    }
}
