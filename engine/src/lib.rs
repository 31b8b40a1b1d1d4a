//! Sprout's database engine: MongoDB's data model and command semantics over BSON, in memory,
//! with every command's changes handed out as one [`storage::ChangeBatch`] for a durable store.
//!
//! ```text
//! command document ──► commands::dispatch ──► catalog (collections, documents)
//!                          │                      ▲
//!                          ├─► matcher::Filter ───┘  (parse once, evaluate per document)
//!                          └─► storage::ChangeBatch ──► DurableStore (IndexedDB, memory)
//! ```
//!
//! The engine is synchronous and performs no I/O; it builds natively and for wasm32 and uses no
//! browser crate. Its public surface is the command interface MongoDB's drivers use
//! ([`Engine::run_command`]), so the shell, the conformance runners and the web app all speak to
//! it the same way.

pub mod accumulator;
pub mod catalog;
pub mod clock;
pub mod collation;
pub mod commands;
pub mod cursor;
pub mod error;
pub mod exec;
pub mod explain;
pub mod expression;
pub mod fold;
pub mod geo;
#[cfg(target_arch = "wasm32")]
pub mod grow_in_steps;
pub mod index;
pub mod javascript;
pub mod matcher;
#[cfg(any(target_arch = "wasm32", test))]
mod memcmp;
pub mod path;
pub mod pipeline;
pub mod planner;
pub mod projection;
pub mod query;
pub mod replication;
pub mod sessions;
pub mod sharding;
pub mod sort;
pub mod sort_slice;
pub mod storage;
pub mod transfer;
pub mod ttl;
pub mod update;
pub mod validation;
pub mod value;
pub mod write;

use bson::{Bson, Document, doc};

use catalog::{Catalog, Collection};
use clock::{Clock, ClusterClock, ObjectIdGenerator, SystemClock};
use cursor::CursorTable;
pub use error::{Error, ErrorCode, Result};
/// The time-zone database the wasm build reads when a named zone is first used.
pub use expression::date::tzdata;
pub use javascript::{EmitBudget, MapReduceEvaluator};
pub use replication::{MemberState, ReplicaSet};
pub use sharding::Router;
// What the page needs beyond commands: the stage-by-stage preview of a pipeline, and telling a
// mongodump archive from JSON by its first four bytes.
pub use commands::aggregate_preview::PreviewOptions;
pub use pipeline::StagePreview;
use storage::{Change, ChangeBatch, Snapshot};
pub use transfer::archive::MAGIC_NUMBER as ARCHIVE_MAGIC_NUMBER;

/// The version of MongoDB whose behaviour Sprout follows.
pub const MONGODB_COMPAT_VERSION: &str = "8.0.0";

/// Called after each command with the engine, the database, the command and its reply; it
/// cannot change the engine. Test suites use it to re-check what a session read (the book's
/// index-correctness runner in `shell/tests`).
pub type CommandObserver = Box<dyn FnMut(&Engine, &str, &Document, &Document)>;

/// A whole deployment's data: every database and collection, and open cursors.
pub struct Engine {
    catalog: Catalog,
    cursors: CursorTable,
    pending: ChangeBatch,
    clock: Box<dyn Clock>,
    object_ids: ObjectIdGenerator,
    /// The cluster time writes tick (a top-level `Timestamp(0, 0)` an insert replaces).
    cluster_clock: ClusterClock,
    /// Seeds the `$rand` generator of each command's evaluation context.
    rand_seeds: u64,
    /// Milliseconds added to the clock (`sprout.advanceClock`), so lessons can move time on.
    clock_offset_millis: i64,
    ttl_monitor: ttl::TtlMonitor,
    /// The logical sessions commands named (`lsid`), for `$listLocalSessions`.
    sessions: sessions::SessionCache,
    /// See [`Engine::set_command_observer`].
    observer: Option<CommandObserver>,
    /// The running command asked `bypassDocumentValidation: true`.
    bypass_document_validation: bool,
    /// `hello`'s `topologyVersion.processId`: fixed for the engine's life, as a mongod's is
    /// for its process.
    process_id: bson::oid::ObjectId,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("catalog", &self.catalog)
            .finish_non_exhaustive()
    }
}

/// A process id as a mongod makes one: an ObjectId whose time is the start and whose other
/// bytes come from the seed (without drawing from the ObjectId generator, so seeded engines
/// keep their `_id` sequences).
fn process_id(start_millis: i64, seed: u64) -> bson::oid::ObjectId {
    let mut bytes = [0u8; 12];
    bytes[..4].copy_from_slice(&((start_millis / 1000) as u32).to_be_bytes());
    bytes[4..].copy_from_slice(&seed.to_be_bytes());
    bson::oid::ObjectId::from_bytes(bytes)
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// An engine on the system clock, with ObjectIds seeded from the time.
    pub fn new() -> Self {
        let seed = SystemClock.now_millis() as u64;
        Engine::with_clock(Box::new(SystemClock), seed)
    }

    /// An engine on the given clock; `seed` makes its generated ObjectIds reproducible.
    pub fn with_clock(clock: Box<dyn Clock>, seed: u64) -> Self {
        let now = clock.now_millis();
        Engine {
            catalog: Catalog::default(),
            cursors: CursorTable::default(),
            pending: ChangeBatch::default(),
            clock,
            object_ids: ObjectIdGenerator::from_seed(seed),
            cluster_clock: ClusterClock::default(),
            rand_seeds: seed,
            clock_offset_millis: 0,
            ttl_monitor: ttl::TtlMonitor::new(now),
            sessions: sessions::SessionCache::default(),
            observer: None,
            bypass_document_validation: false,
            process_id: process_id(now, seed),
        }
    }

    /// `hello`'s `topologyVersion.processId` (see the field).
    pub fn process_id(&self) -> bson::oid::ObjectId {
        self.process_id
    }

    /// The document validation the running command must apply to writes into `ns` (none when
    /// the command bypasses it).
    pub(crate) fn validation_for(
        &self,
        ns: &catalog::Namespace,
    ) -> error::Result<Option<validation::Validation>> {
        if self.bypass_document_validation {
            return Ok(None);
        }
        validation::Validation::of(self.catalog.collection(ns))
    }

    /// The engine's time: its clock plus what [`Engine::advance_clock`] added.
    pub fn now_millis(&self) -> i64 {
        self.clock
            .now_millis()
            .saturating_add(self.clock_offset_millis)
    }

    /// Moves the engine's time forward (Sprout's `sprout.advanceClock`); background work that
    /// falls due, such as the TTL monitor's passes, runs before the next command.
    pub fn advance_clock(&mut self, millis: i64) {
        self.clock_offset_millis = self.clock_offset_millis.saturating_add(millis.max(0));
    }

    /// A fresh ObjectId from this engine's clock and generator.
    /// `{features: 1}` (MongoDB's FeaturesCmd, generic_servers.cpp): the ObjectId generator's
    /// machine id as `oidMachine`; with `oidReset` the old one as `oidMachineOld` and a new one
    /// from then on (jstests/core/objid5.js). Sprout's shell evaluates JavaScript, so `js`
    /// reports `utf8: true` as the server with a script engine does.
    pub fn features(&mut self, command: &bson::Document) -> bson::Document {
        let mut reply = bson::doc! {"js": {"utf8": true}};
        let reset = command
            .get("oidReset")
            .is_some_and(expression::value_truthy);
        if reset {
            reply.insert("oidMachineOld", self.object_ids.machine_id());
            self.object_ids.regenerate_machine_id();
        }
        reply.insert("oidMachine", self.object_ids.machine_id());
        reply.insert("ok", 1.0);
        reply
    }

    pub fn new_object_id(&mut self) -> bson::oid::ObjectId {
        let now = self.now_millis();
        self.object_ids.next(now)
    }

    /// The next cluster time, later than every one before it (MongoDB's `tickClusterTime`).
    pub fn tick_cluster_time(&mut self) -> bson::Timestamp {
        let now = self.now_millis();
        self.cluster_clock.tick(now)
    }

    /// The evaluation context for one command's expressions: `$$NOW` is the clock's time now,
    /// and `$rand` draws from a generator seeded from the engine's seed (each command gets the
    /// next seed, so a seeded engine repeats its random numbers run after run).
    pub fn eval_context(&mut self) -> expression::EvalContext {
        // Weyl step: successive commands get well-separated SplitMix64 streams.
        self.rand_seeds = self.rand_seeds.wrapping_add(0xD1B5_4A32_D192_ED03);
        expression::EvalContext::new(self.now_millis(), self.rand_seeds)
    }

    /// Fills a new engine with a durable store's snapshot.
    pub fn load(mut self, snapshot: Snapshot) -> Result<Self> {
        let engine = &mut self;
        for (ns, options) in snapshot.collections {
            engine
                .catalog
                .insert_collection(&ns, Collection::with_options(options));
        }
        let mut docs = snapshot.documents;
        // Stores hand documents over in key order, mostly: the sort then only checks.
        crate::sort_slice::sort_by(&mut docs, |a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
        // One collection at a time: its name and its place in the catalog are looked up once,
        // not once per document (100,000 documents reload in the browser on every page start).
        let mut at = 0;
        while at < docs.len() {
            let ns = &docs[at].0;
            let end = docs[at..]
                .iter()
                .position(|d| d.0 != *ns)
                .map_or(docs.len(), |n| at + n);
            let ns_text = ns.to_string();
            let mut decoded = Vec::with_capacity(end - at);
            for (_, record_id, bytes) in &docs[at..end] {
                let doc = value::bson_bytes::decode_document(bytes).map_err(|e| {
                    Error::new(
                        ErrorCode::InternalError,
                        format!("corrupt stored document: {}", e.message),
                    )
                })?;
                decoded.push((*record_id, doc, bytes.as_slice()));
            }
            // The records, the `_id` lookup and the indexes are each built in one pass.
            let (coll, _) = engine.catalog.collection_or_create(ns);
            coll.insert_all_encoded(&ns_text, decoded)?;
            at = end;
        }
        self.catalog.stamp_index_usage(self.clock.now_millis());
        Ok(self)
    }

    /// Runs one command against database `db` and returns MongoDB's reply document:
    /// `{..., ok: 1}` on success, `{ok: 0, errmsg, code, codeName}` on failure.
    pub fn run_command(&mut self, db: &str, command: &Document) -> Document {
        self.run_command_with(db, command, &matcher::MatchContext::default())
    }

    /// Like [`Engine::run_command`], with what matching may need from the host: the shell passes
    /// its JavaScript `$where` evaluator here.
    pub fn run_command_with(
        &mut self,
        db: &str,
        command: &Document,
        ctx: &matcher::MatchContext<'_>,
    ) -> Document {
        match self.run_parts(db, command, None, ctx, false) {
            commands::Reply::Document(d) => d,
            bytes => bytes
                .into_document()
                .unwrap_or_else(|e| error_reply(&Error::new(ErrorCode::InternalError, e))),
        }
    }

    /// Like [`Engine::run_command`], for a caller that takes the reply as BSON bytes (the
    /// Node.js binding): a find whose results are stored documents unchanged writes its reply
    /// from their stored bytes, without building a document tree
    /// ([`commands::Reply::into_bytes`] gives the bytes either way). The same reply as
    /// `run_command`'s, encoded. While a command observer is installed, it sees documents, so
    /// replies are documents then.
    pub fn run_command_reply(&mut self, db: &str, command: &Document) -> commands::Reply {
        let bytes = self.observer.is_none();
        self.run_parts(db, command, None, &matcher::MatchContext::default(), bytes)
    }

    /// [`Engine::run_command_reply`] of a command the caller gives away (a binding that decoded
    /// it from bytes): an `insert` then stores its documents themselves instead of copies of
    /// them. With a command observer installed (it is shown the whole command) this is
    /// `run_command`.
    pub fn run_command_owned(&mut self, db: &str, command: Document) -> commands::Reply {
        self.run_owned(db, command, false, Vec::new)
    }

    /// [`Engine::run_command_owned`] of the command's BSON bytes (the Node.js binding's
    /// `runCommandBson`): besides storing an insert's documents themselves, each document
    /// keeps the bytes it arrived as when they are exactly its encoding
    /// (`value::bson_bytes::encodes_to`, or known from decoding them:
    /// `value::bson_bytes::decode_document_exact`), instead of being encoded again for the
    /// change batch and the collection's stored bytes. An error when the bytes are not one BSON
    /// document.
    pub fn run_command_encoded(&mut self, db: &str, bytes: &[u8]) -> Result<commands::Reply> {
        if let Some(reply) = self.point_find_encoded(db, bytes) {
            return Ok(reply);
        }
        // An insert whose documents can be stored as their bytes, without decoding them (a
        // command observer is shown the documents, so not while one is installed).
        if self.observer.is_none()
            && let Some((command, documents)) = value::bson_bytes::insert_parts(bytes)
        {
            let given = commands::GivenDocuments {
                documents: Vec::new(),
                encoded: documents,
                exact: true,
                kept: true,
            };
            return Ok(self.run_parts(
                db,
                &command,
                Some(given),
                &matcher::MatchContext::default(),
                true,
            ));
        }
        let (command, exact) = value::bson_bytes::decode_document_exact(bytes)?;
        Ok(self.run_owned(db, command, exact, || {
            value::bson_bytes::array_documents(bytes, "documents")
        }))
    }

    /// A point find answered from its command's bytes (`commands::find_bytes`), with what
    /// [`Engine::run_parts`] does around a find: the TTL monitor's pass when one is due first,
    /// the `$indexStats` clocks after. (A find without `lsid` touches no session, changes
    /// nothing a capped collection would evict, and leaves `bypassDocumentValidation` unset.)
    /// `None` (nothing done but a due TTL pass) when the general path must run it, and always
    /// while a command observer is installed (it is shown the command as a document).
    fn point_find_encoded(&mut self, db: &str, bytes: &[u8]) -> Option<commands::Reply> {
        if self.observer.is_some() {
            return None;
        }
        let find = commands::find_bytes::PointFind::parse(bytes)?;
        self.run_due_ttl_pass();
        let reply = commands::find_bytes::point_find_reply(self, db, find)?;
        self.catalog.stamp_index_usage(self.clock.now_millis());
        Some(reply)
    }

    /// `run_command_owned`, where `encoded` gives the bytes each of an insert's documents
    /// arrived as, in order (fewer, or none: those are encoded), and `exact` says the command
    /// was decoded from bytes that are exactly its encoding (so each document's are its own).
    fn run_owned<'b>(
        &mut self,
        db: &str,
        mut command: Document,
        exact: bool,
        encoded: impl FnOnce() -> Vec<&'b [u8]>,
    ) -> commands::Reply {
        let is_insert = command.keys().next().is_some_and(|k| k == "insert");
        if self.observer.is_some() {
            return commands::Reply::Document(self.run_command(db, &command));
        }
        // The depth check sees the documents before they are taken out.
        if !is_insert || value::nesting::check_command_depth(&command).is_err() {
            return self.run_command_reply(db, &command);
        }
        let encoded = encoded();
        let documents = match command.get_mut("documents") {
            Some(Bson::Array(items)) => Some(commands::GivenDocuments {
                documents: std::mem::take(items),
                encoded,
                exact,
                kept: false,
            }),
            _ => None,
        };
        self.run_parts(
            db,
            &command,
            documents,
            &matcher::MatchContext::default(),
            true,
        )
    }

    /// Runs a command; `documents`, when given, are an `insert`'s documents, taken out of
    /// `command` (which keeps an empty array in their place); with `bytes` the caller takes
    /// the reply as BSON bytes.
    fn run_parts(
        &mut self,
        db: &str,
        command: &Document,
        documents: Option<commands::GivenDocuments<'_>>,
        ctx: &matcher::MatchContext<'_>,
        bytes: bool,
    ) -> commands::Reply {
        self.run_due_ttl_pass();
        let now = self.now_millis();
        self.sessions.touch(command, now);
        let first_change = self.pending.changes.len();
        self.bypass_document_validation = match path::field(command, "bypassDocumentValidation") {
            Some(Bson::Boolean(b)) => *b,
            Some(v @ (Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_))) => {
                value::as_i64_signed(v) != 0
            }
            _ => false,
        };
        // BSON validation of the incoming command (depth), before anything walks it.
        let checked = value::nesting::check_command_depth(command);
        let reply = match checked
            .and_then(|()| commands::dispatch_reply(self, db, command, documents, ctx, bytes))
        {
            Ok(reply) => reply,
            Err(e) => commands::Reply::Document(error_reply(&e)),
        };
        self.bypass_document_validation = false;
        self.evict_from_capped(first_change);
        // Indexes this command created start their `$indexStats` count now.
        self.catalog.stamp_index_usage(self.clock.now_millis());
        if let Some(mut observe) = self.observer.take() {
            if let commands::Reply::Document(reply) = &reply {
                observe(self, db, command, reply);
            }
            self.observer = Some(observe);
        }
        reply
    }

    /// Installs (or with `None` removes) the observer called after every command; returns the
    /// previous one.
    pub fn set_command_observer(
        &mut self,
        observer: Option<CommandObserver>,
    ) -> Option<CommandObserver> {
        std::mem::replace(&mut self.observer, observer)
    }

    /// Runs the TTL monitor's pass when one is due, recording its deletes.
    fn run_due_ttl_pass(&mut self) {
        let Some(pass_millis) = self.ttl_monitor.due_pass(self.now_millis()) else {
            return;
        };
        let mut deletes = Vec::new();
        for db in self
            .catalog
            .database_names()
            .map(str::to_string)
            .collect::<Vec<_>>()
        {
            for (name, coll) in self.catalog.collections(&db) {
                let expired = ttl::expired_records(coll, pass_millis);
                if !expired.is_empty() {
                    deletes.push((catalog::Namespace::new(&db, name), expired));
                }
            }
        }
        for (ns, record_ids) in deletes {
            if let Some(coll) = self.catalog.collection_mut(&ns) {
                for rid in &record_ids {
                    coll.remove(*rid);
                }
            }
            for record_id in record_ids {
                self.record(Change::DeleteDocument {
                    ns: ns.clone(),
                    record_id,
                });
            }
        }
    }

    /// After a command: capped collections it inserted into drop their oldest documents until
    /// they are within their limits (recorded as deletes in the same batch).
    fn evict_from_capped(&mut self, first_change: usize) {
        let mut written: Vec<catalog::Namespace> = Vec::new();
        for change in &self.pending.changes[first_change..] {
            if let Change::PutDocument { ns, .. } = change
                && !written.contains(ns)
            {
                written.push(ns.clone());
            }
        }
        for ns in written {
            let Some(coll) = self.catalog.collection_mut(&ns) else {
                continue;
            };
            if !coll.take_inserted() {
                continue;
            }
            for record_id in coll.evict_over_cap() {
                self.record(Change::DeleteDocument {
                    ns: ns.clone(),
                    record_id,
                });
            }
        }
    }

    /// What each stage of `pipeline` returns over collection `coll` of `db` (`None` for a
    /// pipeline that starts with `$documents`): its name, its document count and the first
    /// documents, in one pass (see `pipeline::preview`).
    pub fn preview_pipeline(
        &mut self,
        db: &str,
        coll: Option<&str>,
        pipeline: &[bson::Bson],
        options: &commands::aggregate_preview::PreviewOptions,
    ) -> Result<Vec<pipeline::StagePreview>> {
        commands::aggregate_preview::preview_pipeline(
            self,
            db,
            coll,
            pipeline,
            options,
            &matcher::MatchContext::default(),
        )
    }

    /// The changes made since the last call, to be committed as one batch.
    pub fn take_changes(&mut self) -> ChangeBatch {
        std::mem::take(&mut self.pending)
    }

    /// The logical session cache.
    pub fn sessions(&self) -> &sessions::SessionCache {
        &self.sessions
    }

    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    pub(crate) fn catalog_mut(&mut self) -> &mut Catalog {
        &mut self.catalog
    }

    pub(crate) fn cursors_mut(&mut self) -> &mut CursorTable {
        &mut self.cursors
    }

    pub(crate) fn record(&mut self, change: Change) {
        self.pending.changes.push(change);
    }
}

/// The reply MongoDB sends for a failed command.
pub fn error_reply(e: &Error) -> Document {
    let mut reply = doc! {
        "ok": 0.0,
        "errmsg": e.message.clone(),
        "code": e.code(),
        "codeName": e.code_name(),
    };
    if let Some(details) = &e.details {
        reply.extend(details.as_ref().clone());
    }
    reply
}

/// Reads a reply's `ok` field as MongoDB's drivers do (any numeric or boolean truth).
pub fn reply_ok(reply: &Document) -> bool {
    match reply.get("ok") {
        Some(Bson::Double(d)) => *d == 1.0,
        Some(Bson::Int32(i)) => *i == 1,
        Some(Bson::Int64(i)) => *i == 1,
        Some(Bson::Boolean(b)) => *b,
        _ => false,
    }
}

/// Turns an error reply back into an [`Error`].
pub fn reply_error(reply: &Document) -> Option<Error> {
    if reply_ok(reply) {
        return None;
    }
    let code = reply.get_i32("code").unwrap_or(1);
    let message = reply
        .get_str("errmsg")
        .unwrap_or("unknown error")
        .to_string();
    Some(Error::new(ErrorCode::from_code(code), message))
}

#[cfg(test)]
mod observer_tests {
    use super::*;
    use std::cell::RefCell;
    use std::rc::Rc;

    #[test]
    fn the_observer_sees_each_command_after_it_ran() {
        let mut engine = Engine::with_clock(Box::new(clock::SimulatedClock::new(0)), 1);
        let seen: Rc<RefCell<Vec<String>>> = Rc::default();
        let log = Rc::clone(&seen);
        engine.set_command_observer(Some(Box::new(move |engine, db, command, reply| {
            let ns = catalog::Namespace::new(db, "c");
            let count = engine.catalog().collection(&ns).map_or(0, Collection::len);
            let name = command.keys().next().cloned().unwrap_or_default();
            log.borrow_mut()
                .push(format!("{name} ok={} docs={count}", reply_ok(reply)));
        })));
        engine.run_command("db", &doc! {"insert": "c", "documents": [{"_id": 1}]});
        engine.run_command("db", &doc! {"find": "c", "filter": {"$bad": 1}});
        assert!(engine.set_command_observer(None).is_some());
        engine.run_command("db", &doc! {"find": "c"});
        assert_eq!(
            *seen.borrow(),
            ["insert ok=true docs=1", "find ok=false docs=1"]
        );
    }
}

#[cfg(test)]
mod load_tests {
    use super::*;
    use bson::doc;

    fn bytes(d: Document) -> Vec<u8> {
        d.to_vec().unwrap()
    }

    #[test]
    fn a_snapshot_in_any_order_loads_each_collection_in_record_order() {
        let ns = |db: &str, coll: &str| catalog::Namespace::new(db, coll);
        let snapshot = Snapshot {
            collections: vec![(ns("a", "x"), Document::new())],
            documents: vec![
                (ns("b", "y"), 2, bytes(doc! {"_id": 2, "k": "b2"})),
                (ns("a", "x"), 9, bytes(doc! {"_id": 9, "k": "a9"})),
                (ns("b", "y"), 1, bytes(doc! {"_id": 1, "k": "b1"})),
                (ns("a", "x"), 3, bytes(doc! {"_id": 3, "k": "a3"})),
                (ns("a", "z"), 5, bytes(doc! {"_id": 5, "k": "z5"})),
            ],
        };
        let engine = Engine::new().load(snapshot).unwrap();
        let keys = |db: &str, coll: &str| -> Vec<(u64, String)> {
            engine
                .catalog()
                .collection(&ns(db, coll))
                .unwrap()
                .iter()
                .map(|(r, d)| (r, d.get_str("k").unwrap().to_string()))
                .collect()
        };
        assert_eq!(keys("a", "x"), vec![(3, "a3".into()), (9, "a9".into())]);
        assert_eq!(keys("a", "z"), vec![(5, "z5".into())]);
        assert_eq!(keys("b", "y"), vec![(1, "b1".into()), (2, "b2".into())]);
    }

    #[test]
    fn a_damaged_or_duplicated_stored_document_is_an_error() {
        let ns = catalog::Namespace::new("a", "x");
        let mut cut = bytes(doc! {"_id": 1});
        cut.pop();
        let damaged = Snapshot {
            collections: Vec::new(),
            documents: vec![(ns.clone(), 1, cut)],
        };
        let e = Engine::new().load(damaged).err().unwrap();
        assert!(
            e.message.contains("corrupt stored document"),
            "{}",
            e.message
        );
        let twice = Snapshot {
            collections: Vec::new(),
            documents: vec![
                (ns.clone(), 1, bytes(doc! {"_id": 1})),
                (ns, 2, bytes(doc! {"_id": 1})),
            ],
        };
        assert!(Engine::new().load(twice).is_err());
    }
}
