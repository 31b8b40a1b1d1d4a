//! Commands against the simulated replica set, as a client connected to the set sees them:
//! writes go to the primary and wait for their write concern; reads go to the member that
//! server selection picks for their `$readPreference` (default primary), and getMore follows
//! its cursor; `hello`/`isMaster`, `replSetGetStatus`, `replSetGetConfig`, `replSetReconfig`,
//! `replSetStepDown` and `replSetInitiate` answer as MongoDB 8.0 does. Sprout's own
//! `sproutReplSetMember` stops or restarts a member and sets its lag and round-trip time.

use bson::{Bson, Document, doc};

use super::config::ReplSetConfig;
use super::read_concern::ReadConcernLevel;
use super::replica_set::{MemberState, ReplicaSet};
use super::server_selection::{
    Operation, ReadPreference, ReadPreferenceMode, SelectionSettings, TagSet, choose_in_window,
    latency_window, suitable_servers,
};
use super::write_concern::WriteConcern;
use crate::commands::hello as limits;
use crate::error::{Error, ErrorCode, Result};
use crate::value::as_i64;
use crate::{error_reply, reply_ok};

/// The default `secondaryCatchUpPeriodSecs` of `replSetStepDown`.
const STEP_DOWN_CATCH_UP_SECS: i64 = 10;
/// The default `stepDownSecs` of `replSetStepDown` (`rs.stepDown()` with no argument).
const DEFAULT_STEP_DOWN_SECS: i64 = 60;

/// Commands that only read, routed by read preference.
const READ_COMMANDS: &[&str] = &[
    "find",
    "aggregate",
    "count",
    "distinct",
    "listCollections",
    "listIndexes",
    "listDatabases",
    "dbStats",
    "collStats",
    "explain",
];

impl ReplicaSet {
    /// Runs one command against database `db` of the set and returns MongoDB's reply.
    pub fn run_command(&mut self, db: &str, command: &Document) -> Document {
        self.replicate();
        match self.dispatch(db, command) {
            Ok(reply) => reply,
            Err(e) => error_reply(&e),
        }
    }

    fn dispatch(&mut self, db: &str, command: &Document) -> Result<Document> {
        let name = command.keys().next().map(String::as_str).unwrap_or("");
        match name {
            "hello" | "isMaster" | "ismaster" => Ok(self.hello(name != "hello")),
            "replSetGetStatus" => Ok(self.status()),
            "replSetGetConfig" => {
                Ok(doc! {"config": self.config().to_document(self.term()), "ok": 1.0})
            }
            "replSetInitiate" => Err(Error::new(
                ErrorCode::AlreadyInitialized,
                "already initialized",
            )),
            "replSetReconfig" => self.reconfig_command(command),
            "replSetStepDown" => self.step_down_command(command),
            "sproutReplSetMember" => self.member_command(command),
            "getMore" | "killCursors" => self.cursor_command(db, command),
            _ if is_read(name, command) => self.read_command(db, command),
            _ => self.write_command(db, command),
        }
    }

    fn primary_index(&self) -> Result<usize> {
        self.primary
            .ok_or_else(|| Error::new(ErrorCode::NotWritablePrimary, "not primary"))
    }

    fn write_command(&mut self, db: &str, command: &Document) -> Result<Document> {
        let primary = self.primary_index()?;
        let wc = WriteConcern::parse(command, self)?;
        // The member's engine checks the rest of the write concern as a standalone would;
        // `w` is the set's business (WriteConcern::parse above).
        let mut cmd = command.clone();
        if let Some(Bson::Document(w)) = cmd.get_mut("writeConcern") {
            w.insert("w", 1);
        }
        let mut reply = self.member_engine(primary).run_command(db, &cmd);
        self.record_changes(primary);
        self.last_served = self.primary_host().map(str::to_string);
        if reply_ok(&reply) || reply.contains_key("writeErrors") {
            let upto = self.oplog.len();
            if let Some(error) = self.wait_for_write_concern(&wc, upto) {
                reply.insert("writeConcernError", error);
            }
        }
        Ok(reply)
    }

    fn read_command(&mut self, db: &str, command: &Document) -> Result<Document> {
        let level = ReadConcernLevel::of(command)?;
        let index = self.select_for_read(command)?;
        if level == ReadConcernLevel::Linearizable {
            self.check_linearizable(command, index)?;
        }
        let mut cmd = command.clone();
        cmd.remove("$readPreference");
        // The set has carried out the read concern; the member's engine reads as it is told.
        cmd.remove("readConcern");
        let snapshot = match level {
            ReadConcernLevel::Majority | ReadConcernLevel::Snapshot => {
                self.majority_snapshot(index)
            }
            _ => None,
        };
        let mut reply = match snapshot {
            Some(mut engine) => {
                let mut reply = engine.run_command(db, &cmd);
                self.snapshot_cursors.adopt(&mut reply, engine);
                reply
            }
            None => {
                let reply = self.member_engine(index).run_command(db, &cmd);
                self.record_changes(index);
                reply
            }
        };
        let host = self.config().members[index].host.clone();
        if let Some(Bson::Document(cursor)) = reply.get("cursor")
            && let Some(id) = cursor.get("id").and_then(as_i64)
            && id != 0
        {
            self.cursor_members.push((id, index));
        }
        if let Some(Bson::Document(info)) = reply.get_mut("serverInfo") {
            let (h, port) = split_host(&host);
            info.insert("host", h);
            info.insert("port", port);
        }
        self.last_served = Some(host);
        if !reply_ok(&reply) {
            return Ok(reply);
        }
        match level {
            ReadConcernLevel::Linearizable => self.confirm_linearizable(command)?,
            ReadConcernLevel::Snapshot => self.stamp_snapshot_read(&mut reply),
            _ => {}
        }
        Ok(reply)
    }

    fn cursor_command(&mut self, db: &str, command: &Document) -> Result<Document> {
        if let Some(reply) = self.snapshot_cursors.run(db, command) {
            return Ok(reply);
        }
        let id = match command.get("getMore") {
            Some(v) => as_i64(v),
            None => match command.get("cursors") {
                Some(Bson::Array(ids)) => ids.first().and_then(as_i64),
                _ => None,
            },
        };
        let index = id
            .and_then(|id| self.cursor_members.iter().find(|(c, _)| *c == id))
            .map(|(_, m)| *m)
            .map_or_else(|| self.primary_index(), Ok)?;
        let reply = self.member_engine(index).run_command(db, command);
        self.record_changes(index);
        Ok(reply)
    }

    /// The member server selection picks for the command's `$readPreference`.
    fn select_for_read(&mut self, command: &Document) -> Result<usize> {
        let rp = match command.get("$readPreference") {
            Some(Bson::Document(d)) => parse_read_preference(d)?,
            _ => ReadPreference::new(ReadPreferenceMode::Primary),
        };
        let topology = self.topology();
        let settings = SelectionSettings::default();
        let suitable = suitable_servers(&topology, Operation::Read, &rp, &settings, &[])
            .map_err(|e| Error::new(ErrorCode::from_code(e.code()), e.to_string()))?;
        let window = latency_window(&suitable, &settings);
        let mut draws = Vec::new();
        for n in [
            window.len().max(1),
            window.len().saturating_sub(1).max(1),
            2,
        ] {
            draws.push(self.random_below(n));
        }
        let mut draws = draws.into_iter();
        let chosen = choose_in_window(&window, |_| 0, |_| draws.next().unwrap_or(0))
            .map(|s| s.address.clone());
        match chosen {
            Some(host) => self.member_index(&host),
            None => Err(Error::new(
                ErrorCode::FailedToSatisfyReadPreference,
                format!(
                    "Could not find host matching read preference {{ mode: \"{}\" }} for set {}",
                    rp.mode.name(),
                    self.name()
                ),
            )),
        }
    }

    /// `hello` (or the legacy `isMaster`) as the primary (else the first running member)
    /// answers it.
    pub fn hello(&self, legacy: bool) -> Document {
        let me = self
            .primary
            .or_else(|| (0..self.members.len()).find(|&i| !self.member(i).stopped))
            .unwrap_or(0);
        let hosts_where = |f: &dyn Fn(usize) -> bool| -> Vec<Bson> {
            (0..self.members.len())
                .filter(|&i| !self.config().members[i].hidden && f(i))
                .map(|i| Bson::String(self.config().members[i].host.clone()))
                .collect()
        };
        let cfg = &self.config().members;
        let hosts = hosts_where(&|i| cfg[i].is_electable());
        let passives = hosts_where(&|i| !cfg[i].arbiter_only && cfg[i].priority == 0.0);
        let arbiters = hosts_where(&|i| cfg[i].arbiter_only);
        let state = self.state(me);
        let mut d = doc! {"topologyVersion": {"processId": bson::oid::ObjectId::from_bytes([0; 12]), "counter": self.term()}};
        d.insert("hosts", hosts);
        if !passives.is_empty() {
            d.insert("passives", passives);
        }
        if !arbiters.is_empty() {
            d.insert("arbiters", arbiters);
        }
        d.insert("setName", self.name());
        d.insert("setVersion", self.config().version as i32);
        let writable = state == MemberState::Primary;
        d.insert(
            if legacy {
                "ismaster"
            } else {
                "isWritablePrimary"
            },
            writable,
        );
        d.insert("secondary", state == MemberState::Secondary);
        if let Some(p) = self.primary_host() {
            d.insert("primary", p);
        }
        let me_cfg = &cfg[me];
        if me_cfg.hidden {
            d.insert("hidden", true);
        }
        if me_cfg.secondary_delay_secs > 0 {
            d.insert("secondaryDelaySecs", me_cfg.secondary_delay_secs);
        }
        if !me_cfg.tags.is_empty() {
            let tags: Document = me_cfg
                .tags
                .iter()
                .map(|(k, v)| (k.clone(), Bson::String(v.clone())))
                .collect();
            d.insert("tags", tags);
        }
        d.insert("me", &me_cfg.host);
        let applied = self.member(me).applied;
        let wall = bson::DateTime::from_millis(self.last_applied_wall_ms(applied));
        let op_time = self.op_time(applied);
        // The majority fields are the member's view of the majority commit point.
        let majority = applied.min(self.majority_commit_point());
        let majority_wall = bson::DateTime::from_millis(self.last_applied_wall_ms(majority));
        d.insert(
            "lastWrite",
            doc! {"opTime": op_time, "lastWriteDate": wall, "majorityOpTime": self.op_time(majority), "majorityWriteDate": majority_wall},
        );
        d.insert("maxBsonObjectSize", limits::MAX_BSON_OBJECT_SIZE);
        d.insert("maxMessageSizeBytes", limits::MAX_MESSAGE_SIZE_BYTES);
        d.insert("maxWriteBatchSize", limits::MAX_WRITE_BATCH_SIZE);
        d.insert("localTime", bson::DateTime::from_millis(self.now_millis()));
        d.insert(
            "logicalSessionTimeoutMinutes",
            limits::LOGICAL_SESSION_TIMEOUT_MINUTES,
        );
        d.insert("minWireVersion", limits::MIN_WIRE_VERSION);
        d.insert("maxWireVersion", limits::MAX_WIRE_VERSION);
        d.insert("readOnly", false);
        d.insert("ok", 1.0);
        d
    }

    /// `{ts, t}` of the last of the first `applied` entries.
    fn op_time(&self, applied: usize) -> Document {
        match applied.checked_sub(1).and_then(|i| self.oplog.get(i)) {
            Some(e) => doc! {"ts": e.ts, "t": e.term},
            None => doc! {"ts": bson::Timestamp { time: 0, increment: 0 }, "t": -1_i64},
        }
    }

    /// `replSetGetStatus` (`rs.status()`), as seen from the primary.
    pub fn status(&self) -> Document {
        let now = self.now_millis();
        let me = self.primary.unwrap_or(0);
        let members: Vec<Bson> = (0..self.members.len())
            .map(|i| {
                let state = self.state(i);
                let applied = self.member(i).applied;
                let mut m = doc! {
                    "_id": self.config().members[i].id as i32,
                    "name": &self.config().members[i].host,
                    "health": if state == MemberState::Down { 0.0 } else { 1.0 },
                    "state": state.code(),
                    "stateStr": state.name(),
                };
                if state != MemberState::Arbiter {
                    m.insert("optime", self.op_time(applied));
                    m.insert(
                        "optimeDate",
                        bson::DateTime::from_millis(self.last_applied_wall_ms(applied)),
                    );
                }
                if state == MemberState::Secondary {
                    let source = self.primary_host().unwrap_or("");
                    m.insert("syncSourceHost", source);
                }
                if i == me {
                    m.insert("self", true);
                }
                if state == MemberState::Down {
                    m.insert(
                        "lastHeartbeatMessage",
                        "Error connecting to member (stopped in Sprout)",
                    );
                }
                Bson::Document(m)
            })
            .collect();
        doc! {
            "set": self.name(),
            "date": bson::DateTime::from_millis(now),
            "myState": self.state(me).code(),
            "term": self.term(),
            "heartbeatIntervalMillis": 2000_i64,
            "majorityVoteCount": (self.config().members.iter().filter(|m| m.votes > 0).count() / 2 + 1) as i32,
            "writeMajorityCount": self.config().write_majority() as i32,
            "votingMembersCount": self.config().members.iter().filter(|m| m.votes > 0).count() as i32,
            "writableVotingMembersCount": self.config().members.iter().filter(|m| m.votes > 0 && !m.arbiter_only).count() as i32,
            "members": members,
            "ok": 1.0,
        }
    }

    fn reconfig_command(&mut self, command: &Document) -> Result<Document> {
        let Some(Bson::Document(new)) = command.get("replSetReconfig") else {
            return Err(Error::type_mismatch("replSetReconfig must be an object"));
        };
        let force = matches!(command.get("force"), Some(Bson::Boolean(true)));
        if !force {
            self.primary_index()?;
        }
        let config = ReplSetConfig::parse(new)?;
        let incompatible = |msg: String| {
            Err(Error::new(
                ErrorCode::NewReplicaSetConfigurationIncompatible,
                msg,
            ))
        };
        if config.name != self.config().name {
            return incompatible(format!(
                "New and old configurations differ in replica set name; old was {}, and new is {}",
                self.config().name,
                config.name
            ));
        }
        if !force && config.version <= self.config().version {
            return incompatible(format!(
                "New replica set configuration version must be greater than old, but {} is not greater than {} for replica set {}",
                config.version,
                self.config().version,
                config.name
            ));
        }
        self.reconfigure(config);
        Ok(doc! {"ok": 1.0})
    }

    /// `replSetStepDown`, with the server's errors (replication_coordinator_impl.cpp).
    fn step_down_command(&mut self, command: &Document) -> Result<Document> {
        let primary = self.primary.ok_or_else(|| {
            Error::new(
                ErrorCode::NotWritablePrimary,
                "not primary so can't step down",
            )
        })?;
        let secs = command
            .get("replSetStepDown")
            .and_then(as_i64)
            .unwrap_or(DEFAULT_STEP_DOWN_SECS);
        let catch_up = command
            .get("secondaryCatchUpPeriodSecs")
            .and_then(as_i64)
            .unwrap_or(STEP_DOWN_CATCH_UP_SECS);
        if secs < 0 {
            return Err(Error::bad_value(
                "stepdown period must be a positive integer",
            ));
        }
        if secs <= catch_up {
            return Err(Error::new(
                ErrorCode::BadValue,
                "stepdown period must be longer than secondaryCatchUpPeriodSecs",
            ));
        }
        let force = matches!(command.get("force"), Some(Bson::Boolean(true)));
        let end = self.oplog.len();
        let write_wall = self.last_applied_wall_ms(end);
        // The earliest time an electable secondary has everything.
        let ready = (0..self.members.len())
            .filter(|&i| {
                i != primary && !self.member(i).stopped && self.config().members[i].is_electable()
            })
            .map(|i| {
                if self.member(i).applied >= end {
                    self.now_millis()
                } else {
                    write_wall
                        .saturating_add(self.delay_ms(i))
                        .max(self.now_millis())
                }
            })
            .min();
        let deadline = self
            .now_millis()
            .saturating_add(catch_up.saturating_mul(1000));
        match ready {
            Some(t) if t <= deadline => {
                let step = t - self.now_millis();
                self.advance_clock(step);
            }
            _ if !force => {
                // The member waited the catch-up period; the server writes the time with
                // dateToISOStringLocal (UTC here) and no separator before "Please".
                self.advance_clock(deadline - self.now_millis());
                let when = bson::DateTime::from_millis(deadline)
                    .try_to_rfc3339_string()
                    .unwrap_or_default()
                    .replace('Z', "+0000");
                return Err(Error::new(
                    ErrorCode::ExceededTimeLimit,
                    format!(
                        "No electable secondaries caught up as of {when}Please use the replSetStepDown command with the argument {{force: true}} to force node to step down."
                    ),
                ));
            }
            _ => {}
        }
        let now = self.now_millis();
        self.member_mut(primary).electable_after_ms = now.saturating_add(secs.saturating_mul(1000));
        self.hold_election(Some(primary));
        Ok(doc! {"ok": 1.0})
    }

    fn member_command(&mut self, command: &Document) -> Result<Document> {
        let host = command
            .get_str("sproutReplSetMember")
            .map_err(|_| Error::type_mismatch("sproutReplSetMember must name a member's host"))?;
        let index = self.member_index(host)?;
        if let Some(Bson::Boolean(running)) = command.get("running") {
            match (running, self.member(index).stopped) {
                (true, true) => self.start_member(index),
                (false, false) => self.stop_member(index),
                _ => {}
            }
        }
        if let Some(lag) = command.get("lagMillis").and_then(as_i64) {
            self.member_mut(index).lag_ms = lag.max(0);
            self.replicate();
        }
        if let Some(rtt) = command.get("rttMillis") {
            let rtt = match rtt {
                Bson::Double(d) => *d,
                other => as_i64(other).unwrap_or(0) as f64,
            };
            self.member_mut(index).rtt_ms = rtt.max(0.0);
        }
        Ok(doc! {"host": host, "state": self.state(index).name(), "ok": 1.0})
    }
}

/// Whether the command only reads (an aggregate that writes with `$out`/`$merge` does not).
fn is_read(name: &str, command: &Document) -> bool {
    if !READ_COMMANDS.contains(&name) {
        return false;
    }
    let writes = |pipeline: Option<&Bson>| {
        match pipeline {
        Some(Bson::Array(stages)) => stages.iter().any(|s| {
            matches!(s, Bson::Document(d) if d.contains_key("$out") || d.contains_key("$merge"))
        }),
        _ => false,
    }
    };
    match name {
        "aggregate" => !writes(command.get("pipeline")),
        "explain" => match command.get("explain") {
            Some(Bson::Document(inner)) => {
                let inner_name = inner.keys().next().map(String::as_str).unwrap_or("");
                matches!(inner_name, "find" | "count" | "distinct")
                    || (inner_name == "aggregate" && !writes(inner.get("pipeline")))
            }
            _ => false,
        },
        _ => true,
    }
}

/// A `$readPreference` document: `{mode, tags, maxStalenessSeconds}`.
pub fn parse_read_preference(d: &Document) -> Result<ReadPreference> {
    let mode_name = d.get_str("mode").map_err(|_| {
        Error::new(
            ErrorCode::FailedToParse,
            "$readPreference must have a string field 'mode'",
        )
    })?;
    let mode = ReadPreferenceMode::parse(mode_name).ok_or_else(|| {
        Error::new(
            ErrorCode::FailedToParse,
            format!("Could not parse $readPreference mode '{mode_name}'. Only the modes 'primary', 'primaryPreferred', 'secondary', 'secondaryPreferred', and 'nearest' are supported."),
        )
    })?;
    let mut rp = ReadPreference::new(mode);
    if let Some(tags) = d.get("tags") {
        let Bson::Array(sets) = tags else {
            return Err(Error::type_mismatch(
                "$readPreference tags must be an array",
            ));
        };
        rp.tag_sets = sets
            .iter()
            .map(|s| match s {
                Bson::Document(s) => Ok(s
                    .iter()
                    .map(|(k, v)| {
                        (
                            k.clone(),
                            match v {
                                Bson::String(v) => v.clone(),
                                other => other.to_string(),
                            },
                        )
                    })
                    .collect::<TagSet>()),
                _ => Err(Error::type_mismatch("each tag set must be an object")),
            })
            .collect::<Result<_>>()?;
    }
    // The server's rules (read_preference.cpp): 0 means none; a negative value, a value below
    // 90 and any value with mode primary are refused.
    let max_staleness = match d.get("maxStalenessSeconds") {
        None => 0,
        Some(v) => {
            as_i64(v).ok_or_else(|| Error::type_mismatch("maxStalenessSeconds must be a number"))?
        }
    };
    if max_staleness < 0 {
        return Err(Error::bad_value(
            "maxStalenessSeconds must be a non-negative integer",
        ));
    }
    if max_staleness > 0 {
        let smallest = super::server_selection::SMALLEST_MAX_STALENESS_SECONDS;
        if max_staleness < smallest {
            return Err(Error::new(
                ErrorCode::MaxStalenessOutOfRange,
                format!("maxStalenessSeconds value can not be less than {smallest}"),
            ));
        }
        if mode == ReadPreferenceMode::Primary {
            return Err(Error::bad_value(
                "maxStalenessSeconds can not be set for the primary mode",
            ));
        }
        rp.max_staleness_seconds = Some(max_staleness);
    }
    Ok(rp)
}

/// `host:port` split as explain's `serverInfo` shows it.
fn split_host(host: &str) -> (String, i32) {
    match host.rsplit_once(':') {
        Some((h, p)) => (h.to_string(), p.parse().unwrap_or(27017)),
        None => (host.to_string(), 27017),
    }
}
