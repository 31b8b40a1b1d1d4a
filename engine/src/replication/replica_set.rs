//! A simulated replica set: members (each an [`Engine`] with its own data), the set's oplog,
//! replication driven by the injected clock (each secondary applies an entry once its
//! `secondaryDelaySecs` plus a learner-set lag have passed since the entry's wall time), and
//! elections when the primary stops or steps down (the freshest electable member with the
//! highest priority wins, given a majority of voters up). No I/O, no threads: time moves only
//! when the clock does or [`ReplicaSet::advance_clock`] is called.

use std::rc::Rc;

use bson::Document;

use super::config::ReplSetConfig;
use super::oplog::{OPLOG_SIZE_BYTES, OplogEntry, OplogWriter};
use crate::Engine;
use crate::catalog::{Collection, Namespace};
use crate::clock::Clock;
use crate::error::{Error, ErrorCode, Result};

/// A member's state as `rs.status()` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemberState {
    Primary,
    Secondary,
    Arbiter,
    /// Stopped by the learner: unreachable, as MongoDB reports a down member.
    Down,
}

impl MemberState {
    /// `stateStr` and `state` of `rs.status()`.
    pub fn name(self) -> &'static str {
        match self {
            MemberState::Primary => "PRIMARY",
            MemberState::Secondary => "SECONDARY",
            MemberState::Arbiter => "ARBITER",
            MemberState::Down => "(not reachable/healthy)",
        }
    }

    pub fn code(self) -> i32 {
        match self {
            MemberState::Primary => 1,
            MemberState::Secondary => 2,
            MemberState::Arbiter => 7,
            MemberState::Down => 8,
        }
    }
}

/// One member.
#[derive(Debug)]
pub struct Member {
    pub(super) engine: Engine,
    /// How many oplog entries it has applied.
    pub(super) applied: usize,
    pub(super) stopped: bool,
    /// The simulated round-trip time from the shell, in milliseconds.
    pub rtt_ms: f64,
    /// A replication delay the learner set, on top of `secondaryDelaySecs`.
    pub lag_ms: i64,
    /// A stepped-down primary may not stand for election before this time.
    pub(super) electable_after_ms: i64,
    /// Its data diverged (it had writes the set rolled back): resynchronised when restarted.
    pub(super) needs_resync: bool,
}

/// A clock shared by the set and its members' engines.
#[derive(Clone)]
struct SharedClock(Rc<dyn Clock>);

impl Clock for SharedClock {
    fn now_millis(&self) -> i64 {
        self.0.now_millis()
    }
}

/// The replica set.
pub struct ReplicaSet {
    pub(super) config: ReplSetConfig,
    pub(super) members: Vec<Member>,
    pub(super) oplog: Vec<OplogEntry>,
    pub(super) writer: OplogWriter,
    pub(super) term: i64,
    pub(super) primary: Option<usize>,
    clock: Rc<dyn Clock>,
    offset_ms: i64,
    seed: u64,
    /// The state of the generator that picks a member within the latency window.
    pub(super) random_state: u64,
    /// The host that served the last read.
    pub last_served: Option<String>,
    /// Which member holds each open cursor (getMore follows its cursor).
    pub(super) cursor_members: Vec<(i64, usize)>,
}

impl std::fmt::Debug for ReplicaSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReplicaSet")
            .field("config", &self.config)
            .field("term", &self.term)
            .field("primary", &self.primary)
            .finish_non_exhaustive()
    }
}

impl ReplicaSet {
    /// Initiates a set from a configuration document (`rs.initiate(cfg)`): every member starts
    /// empty, the first electable member with the highest priority becomes primary in term 1.
    pub fn initiate(config: &Document, clock: Rc<dyn Clock>, seed: u64) -> Result<ReplicaSet> {
        let config = ReplSetConfig::parse(config)?;
        let mut set = ReplicaSet {
            config,
            members: Vec::new(),
            oplog: Vec::new(),
            writer: OplogWriter::default(),
            term: 0,
            primary: None,
            clock,
            offset_ms: 0,
            seed,
            random_state: seed,
            last_served: None,
            cursor_members: Vec::new(),
        };
        for i in 0..set.config.members.len() {
            let member = set.new_member(i as u64);
            set.members.push(member);
        }
        let now = set.now_millis();
        let entry = set.writer.noop("initiating set", set.term, now);
        for (member, config) in set.members.iter_mut().zip(&set.config.members) {
            if !config.arbiter_only {
                write_local_oplog(&mut member.engine, &entry.document);
                member.applied = 1;
            }
        }
        set.oplog.push(entry);
        set.hold_election(None);
        set.replicate();
        Ok(set)
    }

    fn new_member(&self, index: u64) -> Member {
        let clock = SharedClock(self.clock.clone());
        let mut engine = Engine::with_clock(Box::new(clock), self.seed.wrapping_add(index));
        engine.advance_clock(self.offset_ms);
        Member {
            engine,
            applied: 0,
            stopped: false,
            rtt_ms: 1.0 + index as f64,
            lag_ms: 0,
            electable_after_ms: i64::MIN,
            needs_resync: false,
        }
    }

    /// The set's time: the clock plus what [`ReplicaSet::advance_clock`] added.
    pub fn now_millis(&self) -> i64 {
        self.clock.now_millis().saturating_add(self.offset_ms)
    }

    /// Moves simulated time on for the set and every member, then replicates what fell due.
    pub fn advance_clock(&mut self, millis: i64) {
        let millis = millis.max(0);
        self.offset_ms = self.offset_ms.saturating_add(millis);
        for m in &mut self.members {
            m.engine.advance_clock(millis);
        }
        self.replicate();
    }

    pub fn config(&self) -> &ReplSetConfig {
        &self.config
    }

    pub fn name(&self) -> &str {
        &self.config.name
    }

    pub fn term(&self) -> i64 {
        self.term
    }

    /// The primary's host, when the set has one.
    pub fn primary_host(&self) -> Option<&str> {
        self.primary.map(|i| self.config.members[i].host.as_str())
    }

    /// The index of the member at `host`.
    pub fn member_index(&self, host: &str) -> Result<usize> {
        self.config
            .members
            .iter()
            .position(|m| m.host == host)
            .ok_or_else(|| {
                Error::new(
                    ErrorCode::NodeNotFound,
                    format!(
                        "No member with host {host} in replica set {}",
                        self.config.name
                    ),
                )
            })
    }

    /// A member's state now.
    pub fn state(&self, index: usize) -> MemberState {
        if self.members[index].stopped {
            MemberState::Down
        } else if self.config.members[index].arbiter_only {
            MemberState::Arbiter
        } else if self.primary == Some(index) {
            MemberState::Primary
        } else {
            MemberState::Secondary
        }
    }

    /// The member's engine (its own copy of the data).
    pub fn member_engine(&mut self, index: usize) -> &mut Engine {
        &mut self.members[index].engine
    }

    pub fn member(&self, index: usize) -> &Member {
        &self.members[index]
    }

    pub fn member_mut(&mut self, index: usize) -> &mut Member {
        &mut self.members[index]
    }

    /// How far behind the member lags, in milliseconds: its applied entry's wall time against
    /// the newest entry's.
    pub fn lag_behind_ms(&self, index: usize) -> i64 {
        self.last_applied_wall_ms(self.oplog.len())
            - self.last_applied_wall_ms(self.members[index].applied)
    }

    /// The wall time of the last of the first `applied` entries.
    pub(super) fn last_applied_wall_ms(&self, applied: usize) -> i64 {
        applied
            .checked_sub(1)
            .and_then(|i| self.oplog.get(i))
            .map_or(0, |e| e.wall_ms)
    }

    /// The total delay of a member: `secondaryDelaySecs` plus the learner's lag.
    pub(super) fn delay_ms(&self, index: usize) -> i64 {
        self.config.members[index]
            .secondary_delay_secs
            .saturating_mul(1000)
            .saturating_add(self.members[index].lag_ms)
    }

    /// Appends entries written by the primary and records them in its `local.oplog.rs`.
    pub(super) fn append(&mut self, entries: Vec<OplogEntry>) {
        let Some(p) = self.primary else { return };
        for entry in entries {
            write_local_oplog(&mut self.members[p].engine, &entry.document);
            self.oplog.push(entry);
        }
        self.members[p].applied = self.oplog.len();
    }

    /// Every running data-bearing secondary applies the entries whose time has come, up to the
    /// newest entry some running member holds (its sync source).
    pub fn replicate(&mut self) {
        let now = self.now_millis();
        let available = self
            .members
            .iter()
            .zip(&self.config.members)
            .filter(|(m, c)| !m.stopped && !c.arbiter_only)
            .map(|(m, _)| m.applied)
            .max()
            .unwrap_or(0);
        for i in 0..self.members.len() {
            if self.members[i].stopped || self.config.members[i].arbiter_only {
                continue;
            }
            let delay = self.delay_ms(i);
            while self.members[i].applied < available {
                let entry = &self.oplog[self.members[i].applied];
                if entry.wall_ms.saturating_add(delay) > now {
                    break;
                }
                let (changes, document) = (entry.changes.clone(), entry.document.clone());
                let member = &mut self.members[i];
                // A change the primary made applies cleanly to the same data; an error here
                // would be a bug in the simulation, and the member simply stops applying.
                if member.engine.apply_changes(&changes).is_err() {
                    break;
                }
                write_local_oplog(&mut member.engine, &document);
                member.applied += 1;
            }
        }
    }

    /// Elects a primary among the running electable members (not `excluded`), given a majority
    /// of the voting members up: the freshest, then the highest priority, then the first.
    /// Entries only the old primary had are rolled back. Returns whether a primary was elected.
    pub(super) fn hold_election(&mut self, excluded: Option<usize>) -> bool {
        let now = self.now_millis();
        self.primary = None;
        if !self.majority_up() {
            return false;
        }
        let winner = (0..self.members.len())
            .filter(|&i| Some(i) != excluded)
            .filter(|&i| {
                let (m, c) = (&self.members[i], &self.config.members[i]);
                !m.stopped && c.is_electable() && m.electable_after_ms <= now
            })
            .max_by(|&a, &b| {
                let key = |i: usize| (self.members[i].applied, self.config.members[i].priority);
                let (ka, kb) = (key(a), key(b));
                ka.0.cmp(&kb.0).then(ka.1.total_cmp(&kb.1)).then(b.cmp(&a))
            });
        let Some(winner) = winner else {
            return false;
        };
        let kept = self.members[winner].applied;
        self.term += 1;
        self.primary = Some(winner);
        if kept < self.oplog.len() {
            // Rollback: what only other members had is gone; a running member copies the new
            // primary's data now, a stopped one when it restarts.
            self.oplog.truncate(kept);
            for i in 0..self.members.len() {
                if self.members[i].applied > kept {
                    if self.members[i].stopped {
                        self.members[i].needs_resync = true;
                    } else {
                        self.resync_from(i, winner);
                    }
                }
            }
        }
        let entry = self.writer.noop("new primary", self.term, now);
        self.append(vec![entry]);
        true
    }

    /// Stops a member (`sprout.replSet.stop(host)`); a stopped primary leads to an election.
    /// A primary that no longer sees a majority of the voters steps down, as MongoDB's does.
    pub fn stop_member(&mut self, index: usize) {
        self.members[index].stopped = true;
        if self.primary == Some(index) {
            self.hold_election(Some(index));
        } else if self.primary.is_some() && !self.majority_up() {
            self.primary = None;
        }
    }

    /// Whether a majority of the voting members are running.
    pub(super) fn majority_up(&self) -> bool {
        let voters = self.config.members.iter().filter(|m| m.votes > 0).count();
        let up_voters = self
            .config
            .members
            .iter()
            .zip(&self.members)
            .filter(|(c, m)| c.votes > 0 && !m.stopped)
            .count();
        up_voters > voters / 2
    }

    /// Restarts a stopped member; one that diverged first copies a running member's data
    /// (rollback by resynchronisation). A set without a primary then holds an election.
    pub fn start_member(&mut self, index: usize) {
        self.members[index].stopped = false;
        if self.members[index].needs_resync || self.members[index].applied > self.oplog.len() {
            self.resync(index);
        }
        self.replicate();
        if self.primary.is_none() {
            self.hold_election(None);
        }
    }

    /// Gives member `index` a copy of the freshest running member's data (an initial sync).
    /// The source is the primary when there is one, else the freshest running member.
    pub(super) fn resync(&mut self, index: usize) {
        let source = self.primary.filter(|&p| p != index).or_else(|| {
            (0..self.members.len())
                .filter(|&i| {
                    i != index && !self.members[i].stopped && !self.config.members[i].arbiter_only
                })
                .max_by_key(|&i| self.members[i].applied)
        });
        match source {
            Some(source) => self.resync_from(index, source),
            None => {
                let member = &mut self.members[index];
                member
                    .engine
                    .replace_catalog(crate::catalog::Catalog::default());
                member.applied = 0;
                member.needs_resync = false;
            }
        }
    }

    /// Gives member `index` a copy of member `source`'s data and oplog position.
    fn resync_from(&mut self, index: usize, source: usize) {
        let catalog = self.members[source].engine.catalog().clone();
        let applied = self.members[source].applied.min(self.oplog.len());
        let member = &mut self.members[index];
        member.engine.replace_catalog(catalog);
        member.applied = applied;
        member.needs_resync = false;
    }

    /// Takes what a command changed on member `index`: the primary's changes become oplog
    /// entries (the `local` database is never replicated); anything else a member changed by
    /// itself (a TTL pass on a secondary) stays local to it, as the primary's own TTL deletes
    /// reach it through the oplog anyway.
    pub(super) fn record_changes(&mut self, index: usize) {
        let mut batch = self.members[index].engine.take_changes();
        if self.primary != Some(index) {
            return;
        }
        batch.changes.retain(|c| change_db(c) != "local");
        if !batch.is_empty() {
            let now = self.now_millis();
            let entries = self.writer.entries(&batch, self.term, now);
            self.append(entries);
        }
    }

    /// The set's replica-set tags and states as a server-selection topology.
    pub fn topology(&self) -> super::server_selection::TopologyDescription {
        use super::server_selection::{
            ServerDescription, ServerType, TopologyDescription, TopologyType,
        };
        let now = self.now_millis();
        let servers = (0..self.members.len())
            .filter(|&i| !self.config.members[i].hidden)
            .filter_map(|i| {
                let server_type = match self.state(i) {
                    MemberState::Primary => ServerType::RsPrimary,
                    MemberState::Secondary => ServerType::RsSecondary,
                    MemberState::Arbiter => ServerType::RsArbiter,
                    MemberState::Down => return None,
                };
                let mut s = ServerDescription::new(
                    &self.config.members[i].host,
                    server_type,
                    self.members[i].rtt_ms,
                );
                s.tags = self.config.members[i].tags.clone();
                s.last_write_date_ms = self.last_applied_wall_ms(self.members[i].applied);
                s.last_update_time_ms = now;
                Some(s)
            })
            .collect();
        TopologyDescription {
            topology_type: if self.primary.is_some() {
                TopologyType::ReplicaSetWithPrimary
            } else {
                TopologyType::ReplicaSetNoPrimary
            },
            servers,
        }
    }

    /// A random number in `0..n` from the set's seeded generator.
    pub(super) fn random_below(&mut self, n: usize) -> usize {
        self.random_state = self
            .random_state
            .wrapping_add(crate::clock::SPLITMIX64_GAMMA);
        (crate::clock::splitmix64_mix(self.random_state) % n.max(1) as u64) as usize
    }

    /// Replaces the configuration (`replSetReconfig`): members kept by `_id` keep their data,
    /// new ones copy it from the primary, removed ones go; the primary stays primary unless it
    /// was removed or made unelectable.
    pub fn reconfigure(&mut self, new: ReplSetConfig) {
        let old_members = std::mem::take(&mut self.members);
        let old_config = std::mem::replace(&mut self.config, new);
        let old_primary_id = self.primary.map(|p| old_config.members[p].id);
        let mut slots: Vec<Option<Member>> = old_members.into_iter().map(Some).collect();
        self.primary = None;
        let mut fresh = Vec::new();
        for (i, m) in self.config.members.clone().iter().enumerate() {
            let kept = old_config
                .members
                .iter()
                .position(|o| o.id == m.id)
                .and_then(|o| slots[o].take());
            match kept {
                Some(member) => self.members.push(member),
                None => {
                    let member = self.new_member(i as u64 + 100);
                    self.members.push(member);
                    fresh.push(i);
                }
            }
            if Some(m.id) == old_primary_id && m.is_electable() {
                self.primary = Some(i);
            }
        }
        for i in fresh {
            if !self.config.members[i].arbiter_only {
                self.resync(i);
            }
        }
        if self.primary.is_none() {
            self.hold_election(None);
        }
        self.replicate();
    }
}

/// Records an oplog entry in a member's own capped `local.oplog.rs`, which learners can read.
/// Sprout's collections need an `_id`, which MongoDB's oplog entries lack: the entry's `ts`
/// (unique) is stored as `_id`, last, so the entry reads as MongoDB's up to that field.
fn write_local_oplog(engine: &mut Engine, entry: &Document) {
    let ns = Namespace::new("local", "oplog.rs");
    let ns_text = ns.to_string();
    if engine.catalog.collection(&ns).is_none() {
        let options = bson::doc! {"capped": true, "size": OPLOG_SIZE_BYTES};
        engine
            .catalog
            .insert_collection(&ns, Collection::with_options(options));
    }
    if let Some(coll) = engine.catalog.collection_mut(&ns) {
        // The entry was built by the oplog writer and fits easily under the document limit.
        let mut stored = entry.clone();
        if let Some(ts) = entry.get("ts") {
            stored.insert("_id", ts.clone());
        }
        if coll.insert(&ns_text, stored).is_ok() {
            coll.evict_over_cap();
        }
    }
}

fn change_db(change: &crate::storage::Change) -> &str {
    use crate::storage::Change;
    match change {
        Change::PutCollection { ns, .. }
        | Change::DropCollection { ns }
        | Change::PutDocument { ns, .. }
        | Change::DeleteDocument { ns, .. } => &ns.db,
    }
}
