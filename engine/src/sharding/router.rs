//! The router (`mongos`): it owns the config metadata and the shards' servers, and sends each
//! command where MongoDB's router would: a sharded collection's reads and writes to the
//! shards its chunks say (`reads.rs`, `writes.rs`), the cluster's admin commands to the
//! config metadata (`admin_commands.rs`), anything about an unsharded collection to its
//! database's primary shard, and reads of the `config` database to a config server whose
//! collections are rewritten from the metadata before each read.

use std::rc::Rc;

use bson::{Bson, Document, doc};

use super::metadata::{CONFIG_COLLECTIONS, ConfigMetadata, DatabaseEntry};
use super::shard::ShardServer;
use crate::Engine;
use crate::clock::Clock;
use crate::error::{Error, ErrorCode, Result};

/// How often the balancer runs a round, in simulated milliseconds (MongoDB's balancer sleeps
/// 10 seconds between rounds).
pub const BALANCER_ROUND_INTERVAL_MS: i64 = 10_000;

/// The chunk size at which the router splits a chunk, in bytes written into it. MongoDB's
/// default chunk size is 128 MB; the simulation uses a teaching size so that a few dozen
/// documents show splits (`docs/reliability.md`).
pub const TEACHING_CHUNK_SIZE_BYTES: usize = 4 * 1024;

/// A clock shared by the router and the shards' engines.
#[derive(Clone)]
pub(super) struct SharedClock(pub(super) Rc<dyn Clock>);

impl Clock for SharedClock {
    fn now_millis(&self) -> i64 {
        self.0.now_millis()
    }
}

/// Who holds an open cursor the router handed out.
#[derive(Debug)]
pub(super) enum CursorOwner {
    /// A shard's cursor, passed through.
    Shard(usize),
    /// The merge of several shards' results, held by a private engine.
    Merger(Box<Engine>),
}

/// The router.
pub struct Router {
    pub(super) metadata: ConfigMetadata,
    /// The shards' servers, in the order of `metadata.shards`.
    pub(super) servers: Vec<ShardServer>,
    pub(super) config_server: Engine,
    pub(super) clock: Rc<dyn Clock>,
    pub(super) offset_ms: i64,
    pub(super) seed: u64,
    /// Draws for ids (uuids, epochs) the metadata needs.
    pub(super) counter: u64,
    pub(super) cursors: Vec<(i64, CursorOwner)>,
    pub(super) last_balancer_round_ms: i64,
    pub(super) balancer_rounds: i64,
    pub chunk_size_bytes: usize,
    /// The shards the last command went to (the page's topology view shows them).
    pub last_targeted: Vec<String>,
}

impl std::fmt::Debug for Router {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Router")
            .field("shards", &self.metadata.shard_ids())
            .finish_non_exhaustive()
    }
}

impl Router {
    /// A router with no shards yet, on `clock`.
    pub fn new(clock: Rc<dyn Clock>, seed: u64) -> Router {
        let mut config_server = Engine::with_clock(Box::new(SharedClock(clock.clone())), seed);
        let cluster_id = config_server.new_object_id();
        let now = clock.now_millis();
        Router {
            metadata: ConfigMetadata::new(cluster_id),
            servers: Vec::new(),
            config_server,
            clock,
            offset_ms: 0,
            seed,
            counter: 0,
            cursors: Vec::new(),
            last_balancer_round_ms: now,
            balancer_rounds: 0,
            chunk_size_bytes: TEACHING_CHUNK_SIZE_BYTES,
            last_targeted: Vec::new(),
        }
    }

    /// The cluster's time.
    pub fn now_millis(&self) -> i64 {
        self.clock.now_millis().saturating_add(self.offset_ms)
    }

    /// Moves simulated time on for the router and every shard; the balancer runs the rounds
    /// that fell due.
    pub fn advance_clock(&mut self, millis: i64) {
        let millis = millis.max(0);
        self.offset_ms = self.offset_ms.saturating_add(millis);
        self.config_server.advance_clock(millis);
        for server in &mut self.servers {
            server.advance_clock(millis);
        }
        self.run_due_balancer_rounds();
    }

    pub fn metadata(&self) -> &ConfigMetadata {
        &self.metadata
    }

    /// A shard's server by id (tests and the page's topology view).
    pub fn server(&mut self, shard: &str) -> Option<&mut ShardServer> {
        let i = self.shard_index(shard)?;
        self.servers.get_mut(i)
    }

    pub(super) fn shard_index(&self, shard: &str) -> Option<usize> {
        self.metadata.shards.iter().position(|s| s.id == shard)
    }

    /// A fresh engine on the cluster's clock (a shard's or a merger's).
    pub(super) fn new_engine(&mut self) -> Engine {
        self.counter += 1;
        let mut engine = Engine::with_clock(
            Box::new(SharedClock(self.clock.clone())),
            self.seed.wrapping_add(self.counter.wrapping_mul(7919)),
        );
        engine.advance_clock(self.offset_ms);
        engine
    }

    /// 16 bytes for a uuid, from the seed and a counter (deterministic).
    pub(super) fn next_uuid(&mut self) -> bson::Uuid {
        self.counter += 1;
        let mut bytes = [0u8; 16];
        bytes[..8].copy_from_slice(&self.seed.to_be_bytes());
        bytes[8..].copy_from_slice(&self.counter.to_be_bytes());
        bytes[6] = (bytes[6] & 0x0f) | 0x40;
        bytes[8] = (bytes[8] & 0x3f) | 0x80;
        bson::Uuid::from_bytes(bytes)
    }

    pub(super) fn cluster_time(&self) -> bson::Timestamp {
        bson::Timestamp {
            time: (self.now_millis() / 1000).max(0) as u32,
            increment: 1,
        }
    }

    /// Runs one command as `mongos` would and returns MongoDB's reply.
    pub fn run_command(&mut self, db: &str, command: &Document) -> Document {
        self.last_targeted.clear();
        match self.dispatch(db, command) {
            Ok(reply) => reply,
            Err(e) => crate::error_reply(&e),
        }
    }

    fn dispatch(&mut self, db: &str, command: &Document) -> Result<Document> {
        let name = command.keys().next().map(String::as_str).unwrap_or("");
        if let Some(reply) = self.admin_command(db, name, command)? {
            return Ok(reply);
        }
        if db == "config" {
            self.sync_config_server();
            return Ok(self.config_server.run_command(db, command));
        }
        match name {
            "getMore" | "killCursors" => return self.cursor_command(db, name, command),
            "hello" | "isMaster" | "ismaster" => return Ok(self.hello(name == "hello")),
            "listDatabases" => return self.list_databases(command),
            "dropDatabase" => return self.drop_database(db, command),
            _ => {}
        }
        let collection = match command.get(name) {
            Some(Bson::String(c)) => Some(c.clone()),
            _ => None,
        };
        if name == "explain" {
            return self.explain(db, command);
        }
        if let Some(coll) = &collection {
            let ns = format!("{db}.{coll}");
            if self.metadata.collection(&ns).is_some() {
                return self.sharded_command(db, coll, name, command);
            }
            if name == "aggregate" && first_stage_is(command, "$collStats") {
                let primary = self.primary_index(db, false)?;
                return self.coll_stats_stage(db, command, &[primary]);
            }
        }
        let creates = matches!(
            name,
            "insert"
                | "update"
                | "delete"
                | "findAndModify"
                | "findandmodify"
                | "create"
                | "createIndexes"
        );
        let shard = self.primary_index(db, creates)?;
        Ok(self.forward(shard, db, command))
    }

    /// Runs a command on one shard, remembering any cursor it opens.
    pub(super) fn forward(&mut self, shard: usize, db: &str, command: &Document) -> Document {
        let reply = self.servers[shard].run_command(db, command);
        self.last_targeted = vec![self.metadata.shards[shard].id.clone()];
        if let Ok(cursor) = reply.get_document("cursor")
            && let Ok(id) = cursor.get_i64("id")
            && id != 0
        {
            self.cursors.push((id, CursorOwner::Shard(shard)));
        }
        reply
    }

    /// The index of a database's primary shard. With `create`, a database the cluster does
    /// not know yet is created with the shard holding the fewest databases as its primary, as
    /// MongoDB picks it; without, an unknown database reads from the first shard.
    pub(super) fn primary_index(&mut self, db: &str, create: bool) -> Result<usize> {
        if self.metadata.shards.is_empty() {
            return Err(Error::new(ErrorCode::ShardNotFound, "No shards found"));
        }
        if db == "admin" {
            return Ok(0);
        }
        if let Some(entry) = self.metadata.database(db) {
            return Ok(self.shard_index(&entry.primary).unwrap_or(0));
        }
        if !create {
            return Ok(0);
        }
        Ok(self.create_database(db))
    }

    pub(super) fn create_database(&mut self, db: &str) -> usize {
        let index = (0..self.metadata.shards.len())
            .min_by_key(|&i| {
                let id = &self.metadata.shards[i].id;
                self.metadata
                    .databases
                    .iter()
                    .filter(|d| &d.primary == id)
                    .count()
            })
            .unwrap_or(0);
        let uuid = self.next_uuid();
        let timestamp = self.cluster_time();
        self.metadata.databases.push(DatabaseEntry {
            name: db.to_string(),
            primary: self.metadata.shards[index].id.clone(),
            uuid,
            timestamp,
        });
        index
    }

    /// Rewrites the config server's collections from the metadata.
    pub(super) fn sync_config_server(&mut self) {
        for name in CONFIG_COLLECTIONS {
            let docs = self.metadata.documents(name);
            self.config_server.run_command(
                "config",
                &doc! {"delete": *name, "deletes": [{"q": {}, "limit": 0}]},
            );
            if !docs.is_empty() {
                self.config_server
                    .run_command("config", &doc! {"insert": *name, "documents": docs});
            }
        }
        self.config_server.take_changes();
    }

    fn cursor_command(&mut self, db: &str, name: &str, command: &Document) -> Result<Document> {
        let ids: Vec<i64> = match name {
            "getMore" => vec![
                crate::value::as_i64(command.get("getMore").unwrap_or(&Bson::Null)).unwrap_or(0),
            ],
            _ => command
                .get_array("cursors")
                .map(|a| a.iter().filter_map(crate::value::as_i64).collect())
                .unwrap_or_default(),
        };
        let Some(first) = ids.first() else {
            return Ok(self.forward(0, db, command));
        };
        let Some(pos) = self.cursors.iter().position(|(id, _)| id == first) else {
            // Unknown to the router: the first shard answers CursorNotFound as a mongod does.
            return Ok(self.servers[0].run_command(db, command));
        };
        let reply = match &mut self.cursors[pos].1 {
            CursorOwner::Shard(i) => {
                let i = *i;
                self.servers[i].run_command(db, command)
            }
            CursorOwner::Merger(engine) => engine.run_command(db, command),
        };
        let done = name == "killCursors"
            || reply
                .get_document("cursor")
                .map(|c| c.get_i64("id").unwrap_or(0) == 0)
                .unwrap_or(true);
        if done {
            self.cursors.remove(pos);
        }
        Ok(reply)
    }

    /// `hello` as a router answers it (`msg: "isdbgrid"`).
    fn hello(&self, current: bool) -> Document {
        let mut reply = Document::new();
        if current {
            reply.insert("isWritablePrimary", true);
        } else {
            reply.insert("ismaster", true);
        }
        reply.insert("msg", "isdbgrid");
        reply.insert(
            "topologyVersion",
            doc! {"processId": self.metadata.cluster_id, "counter": 0_i64},
        );
        reply.insert("maxBsonObjectSize", 16 * 1024 * 1024);
        reply.insert("maxMessageSizeBytes", 48_000_000);
        reply.insert("maxWriteBatchSize", 100_000);
        reply.insert("localTime", bson::DateTime::from_millis(self.now_millis()));
        reply.insert("logicalSessionTimeoutMinutes", 30);
        reply.insert("connectionId", 1);
        reply.insert("minWireVersion", 0);
        reply.insert("maxWireVersion", 25);
        reply.insert("readOnly", false);
        reply.insert("ok", 1.0);
        reply
    }

    fn list_databases(&mut self, command: &Document) -> Result<Document> {
        let mut sizes: Vec<(String, i64)> = Vec::new();
        for i in 0..self.servers.len() {
            let reply = self.servers[i].run_command("admin", command);
            if let Ok(dbs) = reply.get_array("databases") {
                for d in dbs.iter().filter_map(Bson::as_document) {
                    let name = d.get_str("name").unwrap_or("").to_string();
                    if name == "local" || name == "config" || name == "admin" {
                        continue;
                    }
                    let size = d
                        .get("sizeOnDisk")
                        .and_then(crate::value::as_i64)
                        .unwrap_or(0);
                    match sizes.iter_mut().find(|(n, _)| *n == name) {
                        Some((_, s)) => *s += size,
                        None => sizes.push((name, size)),
                    }
                }
            }
        }
        sizes.push(("config".into(), 4096));
        sizes.push(("admin".into(), 4096));
        crate::sort_slice::sort(&mut sizes);
        let name_only = command.get_bool("nameOnly").unwrap_or(false);
        let total: i64 = sizes.iter().map(|(_, s)| s).sum();
        let databases: Vec<Bson> = sizes
            .into_iter()
            .map(|(name, size)| {
                if name_only {
                    Bson::Document(doc! {"name": name})
                } else {
                    Bson::Document(doc! {"name": name, "sizeOnDisk": size, "empty": size == 0})
                }
            })
            .collect();
        let mut reply = doc! {"databases": databases};
        if !name_only {
            reply.insert("totalSize", total);
            reply.insert("totalSizeMb", total / (1024 * 1024));
        }
        reply.insert("ok", 1.0);
        Ok(reply)
    }

    fn drop_database(&mut self, db: &str, command: &Document) -> Result<Document> {
        for i in 0..self.servers.len() {
            let reply = self.servers[i].run_command(db, command);
            if let Some(e) = crate::reply_error(&reply) {
                return Err(e);
            }
        }
        let prefix = format!("{db}.");
        self.metadata.databases.retain(|d| d.name != db);
        self.metadata
            .collections
            .retain(|c| !c.namespace.starts_with(&prefix));
        self.metadata
            .zones
            .retain(|z| !z.namespace.starts_with(&prefix));
        Ok(doc! {"dropped": db, "ok": 1.0})
    }

    /// A command on a sharded collection.
    fn sharded_command(
        &mut self,
        db: &str,
        coll: &str,
        name: &str,
        command: &Document,
    ) -> Result<Document> {
        match name {
            "find" => self.find(db, coll, command),
            "count" => self.count(db, coll, command),
            "distinct" => self.distinct(db, coll, command),
            "aggregate" => self.aggregate(db, coll, command),
            "insert" => self.insert(db, coll, command),
            "update" => self.update(db, coll, command),
            "delete" => self.delete(db, coll, command),
            "findAndModify" | "findandmodify" => self.find_and_modify(db, coll, command),
            "drop" => {
                let reply = self.broadcast_ddl(db, coll, command, true)?;
                let ns = format!("{db}.{coll}");
                self.metadata.collections.retain(|c| c.namespace != ns);
                self.metadata.zones.retain(|z| z.namespace != ns);
                Ok(reply)
            }
            "listIndexes" => {
                let i = self.primary_index(db, false)?;
                Ok(self.forward(i, db, command))
            }
            "collStats" => self.coll_stats(db, coll, command),
            _ => self.broadcast_ddl(db, coll, command, false),
        }
    }

    /// The shards a sharded collection lives on: those owning chunks, and its primary shard.
    pub(super) fn collection_shards(&self, db: &str, ns: &str) -> Vec<usize> {
        let primary = self
            .metadata
            .database(db)
            .and_then(|d| self.shard_index(&d.primary));
        (0..self.metadata.shards.len())
            .filter(|&i| {
                Some(i) == primary
                    || self.metadata.collection(ns).is_some_and(|c| {
                        c.chunks
                            .chunks
                            .iter()
                            .any(|ch| ch.shard == self.metadata.shards[i].id)
                    })
            })
            .collect()
    }

    /// A command every shard holding the collection runs (index builds, drops): the first
    /// failure, or the first reply with each shard's in `raw`.
    fn broadcast_ddl(
        &mut self,
        db: &str,
        coll: &str,
        command: &Document,
        ignore_missing: bool,
    ) -> Result<Document> {
        let ns = format!("{db}.{coll}");
        let mut raw = Document::new();
        let mut first: Option<Document> = None;
        for i in self.collection_shards(db, &ns) {
            let reply = self.servers[i].run_command(db, command);
            if let Some(e) = crate::reply_error(&reply)
                && !(ignore_missing && e.code == ErrorCode::NamespaceNotFound)
            {
                return Err(super::shard::error_with_details(e, &reply));
            }
            raw.insert(self.metadata.shards[i].host.clone(), reply.clone());
            first.get_or_insert(reply);
        }
        let mut reply = first.unwrap_or_else(|| doc! {"ok": 1.0});
        if command.keys().next().map(String::as_str) == Some("createIndexes") {
            reply.insert("raw", raw);
        }
        Ok(reply)
    }

    /// `collStats` through the router: the shards' statistics summed, each shard's under
    /// `shards`.
    fn coll_stats(&mut self, db: &str, coll: &str, command: &Document) -> Result<Document> {
        let ns = format!("{db}.{coll}");
        let mut shards = Document::new();
        let mut sums = [0_i64; 4];
        let mut nindexes = 0;
        for i in self.collection_shards(db, &ns) {
            let reply = self.servers[i].run_command(db, command);
            if crate::reply_ok(&reply) {
                for (slot, field) in ["count", "size", "storageSize", "totalIndexSize"]
                    .iter()
                    .enumerate()
                {
                    sums[slot] += reply
                        .get(*field)
                        .and_then(crate::value::as_i64)
                        .unwrap_or(0);
                }
                nindexes = reply.get_i32("nindexes").unwrap_or(nindexes);
                shards.insert(self.metadata.shards[i].id.clone(), reply);
            }
        }
        let nchunks = self
            .metadata
            .collection(&ns)
            .map(|c| c.chunks.chunks.len() as i32)
            .unwrap_or(1);
        Ok(doc! {
            "sharded": true,
            "ns": ns,
            "count": sums[0],
            "size": sums[1],
            "storageSize": sums[2],
            "totalIndexSize": sums[3],
            "avgObjSize": if sums[0] > 0 { sums[1] / sums[0] } else { 0 },
            "nindexes": nindexes,
            "nchunks": nchunks,
            "shards": shards,
            "ok": 1.0,
        })
    }

    /// An aggregation opening with `$collStats`: each shard's statistics with its `shard`
    /// name, as `getShardDistribution()` reads them.
    pub(super) fn coll_stats_stage(
        &mut self,
        db: &str,
        command: &Document,
        shards: &[usize],
    ) -> Result<Document> {
        let mut out = Vec::new();
        for &i in shards {
            let mut cmd = command.clone();
            cmd.insert("cursor", doc! {});
            for mut d in self.servers[i].run_to_end(db, &cmd)? {
                d.insert("shard", self.metadata.shards[i].id.clone());
                out.push(Bson::Document(d));
            }
        }
        let coll = command.get_str("aggregate").unwrap_or("");
        Ok(
            doc! {"cursor": {"firstBatch": out, "id": 0_i64, "ns": format!("{db}.{coll}")}, "ok": 1.0},
        )
    }
}

/// Whether an aggregate command's pipeline opens with `stage`.
pub(super) fn first_stage_is(command: &Document, stage: &str) -> bool {
    command
        .get_array("pipeline")
        .ok()
        .and_then(|p| p.first())
        .and_then(Bson::as_document)
        .is_some_and(|d| d.contains_key(stage))
}
