//! The shell's connection to a simulated replica set (`engine::replication`): starting one
//! (`rs.initiate`, `new ReplSetTest(...)`, `sprout --replset`), routing every command through
//! it once started, the connection's read preference (`db.getMongo().setReadPref`), and the
//! prompt's `rs1 [direct: primary] test>` prefix (the state of the member the shell first
//! connected to, the primary at initiation; commands follow the current primary).

use std::rc::Rc;

use bson::{Bson, Document};
use engine::clock::SimulatedClock;
use engine::{MemberState, ReplicaSet};

use crate::session::Session;

/// Commands that carry the connection's read preference when they name none.
const READS: &[&str] = &[
    "find",
    "aggregate",
    "count",
    "distinct",
    "explain",
    "listCollections",
    "listIndexes",
    "dbStats",
    "collStats",
];

/// Starts a replica set from `config` (the shell's current data does not carry over: every
/// member starts empty, as new mongod processes do). Its clock starts at the engine's time and
/// moves with `sprout.advanceClock`.
pub(crate) fn initiate(session: &mut Session, config: &Document) -> Document {
    let clock = Rc::new(SimulatedClock::new(session.engine.now_millis()));
    match ReplicaSet::initiate(config, clock, session.next_random()) {
        Ok(set) => {
            session.connected_host = set.primary_host().map(str::to_string);
            session.replica_set = Some(set);
            session.router = None;
            bson::doc! {"ok": 1.0}
        }
        Err(e) => engine::error_reply(&e),
    }
}

/// Runs a command through the replica set, adding the connection's read preference to reads
/// that name none.
pub(crate) fn run_command(session: &mut Session, db: &str, command: &Document) -> Option<Document> {
    let read_preference = session.read_preference.clone();
    let set = session.replica_set.as_mut()?;
    let name = command.keys().next().map(String::as_str).unwrap_or("");
    let reply = match read_preference {
        Some(rp) if READS.contains(&name) && !command.contains_key("$readPreference") => {
            let mut cmd = command.clone();
            cmd.insert("$readPreference", Bson::Document(rp));
            set.run_command(db, &cmd)
        }
        _ => set.run_command(db, command),
    };
    // A read served by a member other than the primary is told under the result (the prompt
    // names the member the shell connected to, not the one server selection picked).
    if READS.contains(&name)
        && let Some(host) = set.last_served.clone()
        && set.primary_host() != Some(host.as_str())
        && !session
            .reads_served_elsewhere
            .iter()
            .any(|(h, _)| *h == host)
    {
        // rs.status()'s stateStr for the member.
        let state = set
            .member_index(&host)
            .map(|i| set.state(i).name())
            .unwrap_or("member");
        session
            .reads_served_elsewhere
            .push((host, state.to_string()));
    }
    // A write that waited for its write concern moved the set's clock: `new Date()` follows.
    let behind = set.now_millis() - session.engine.now_millis();
    if behind > 0 {
        session.engine.advance_clock(behind);
    }
    Some(reply)
}

/// Reads a monitoring view sends (`Shell::run_view_command`): they go to the primary when there
/// is one, else to a secondary, whatever the connection's read preference says.
const VIEW_READS: &[&str] = &[
    "find",
    "aggregate",
    "count",
    "distinct",
    "listCollections",
    "listIndexes",
    "listDatabases",
];

/// Runs a command for a monitoring view through the set: reads with `primaryPreferred` (the
/// data the learner's writes reached first, and still an answer while the set has no primary),
/// and the member that served the learner's last command stays the one the view reports.
pub(crate) fn run_view_command(
    session: &mut Session,
    db: &str,
    command: &Document,
) -> Option<Document> {
    let set = session.replica_set.as_mut()?;
    let served = set.last_served.clone();
    let name = command.keys().next().map(String::as_str).unwrap_or("");
    let reply = if VIEW_READS.contains(&name) && !command.contains_key("$readPreference") {
        let mut cmd = command.clone();
        cmd.insert("$readPreference", bson::doc! {"mode": "primaryPreferred"});
        set.run_command(db, &cmd)
    } else {
        set.run_command(db, command)
    };
    set.last_served = served;
    Some(reply)
}

/// What a monitoring view of the replica set shows: `replSetGetStatus`'s reply (`rs.status()`:
/// the set's name, each member's host, state and optime) and the host that served the last read
/// or write (which mongosh does not report; Sprout's playground shows it beside the members).
#[derive(Debug, Clone, PartialEq)]
pub struct ReplicaSetView {
    pub status: Document,
    pub last_served: Option<String>,
}

/// [`ReplicaSetView`] of the set the shell is connected to, when it is connected to one. The
/// status is asked as `rs.status()` asks it, a `replSetGetStatus` command (not a read: the last
/// served member stays the one that served the learner's last command).
pub(crate) fn view(session: &mut Session) -> Option<ReplicaSetView> {
    let set = session.replica_set.as_mut()?;
    let status = set.run_command("admin", &bson::doc! {"replSetGetStatus": 1});
    Some(ReplicaSetView {
        status,
        last_served: set.last_served.clone(),
    })
}

/// The prompt's prefix as mongosh shows it when connected to a set: `rs1 [direct: primary] `.
pub(crate) fn prompt_prefix(session: &Session) -> Option<String> {
    let set = session.replica_set.as_ref()?;
    let host = session.connected_host.as_deref()?;
    let state = match set.member_index(host).map(|i| set.state(i)) {
        Ok(MemberState::Primary) => "primary",
        Ok(MemberState::Secondary) => "secondary",
        Ok(MemberState::Arbiter) => "arbiter",
        _ => "not reachable",
    };
    Some(format!("{} [direct: {state}] ", set.name()))
}

/// `__sproutNative.replSetInitiate(config)`: starts the set; answers as `replSetInitiate` does.
pub(crate) fn initiate_native(
    _: &boa_engine::JsValue,
    args: &[boa_engine::JsValue],
    ctx: &mut boa_engine::Context,
) -> boa_engine::JsResult<boa_engine::JsValue> {
    let config = crate::convert::to_document(&args.first().cloned().unwrap_or_default(), ctx)?;
    let session = crate::runtime::session(ctx)?;
    let reply = {
        let mut s = session.try_borrow_mut().map_err(|_| {
            boa_engine::JsNativeError::error()
                .with_message("rs.initiate is not available inside $where")
        })?;
        match s.replica_set.as_mut() {
            // The set answers as a running member does: AlreadyInitialized (23).
            Some(set) => set.run_command("admin", &bson::doc! {"replSetInitiate": config}),
            None => initiate(&mut s, &config),
        }
    };
    crate::convert::to_js(&Bson::Document(reply), ctx)
}

/// `__sproutNative.setReadPref(doc | null)`: the connection's read preference.
pub(crate) fn set_read_pref_native(
    _: &boa_engine::JsValue,
    args: &[boa_engine::JsValue],
    ctx: &mut boa_engine::Context,
) -> boa_engine::JsResult<boa_engine::JsValue> {
    let value = args.first().cloned().unwrap_or_default();
    let read_preference = if value.is_null_or_undefined() {
        None
    } else {
        Some(crate::convert::to_document(&value, ctx)?)
    };
    let session = crate::runtime::session(ctx)?;
    session
        .try_borrow_mut()
        .map_err(|_| {
            boa_engine::JsNativeError::error()
                .with_message("setReadPref is not available inside $where")
        })?
        .read_preference = read_preference;
    Ok(boa_engine::JsValue::undefined())
}
