//! The simulated replica set end to end through its commands: replication, lag, read
//! preference routing, write concern, elections, reconfiguration.

use std::rc::Rc;

use bson::{Bson, Document, doc};

use super::replica_set::{MemberState, ReplicaSet};
use crate::clock::SimulatedClock;

const A: &str = "172.17.0.2:27017";
const B: &str = "172.17.0.3:27017";
const C: &str = "172.17.0.4:27017";

fn three_members() -> ReplicaSet {
    let config = doc! {"_id": "rs1", "members": [
        {"_id": 0, "host": A},
        {"_id": 1, "host": B, "tags": {"use": "reporting"}},
        {"_id": 2, "host": C},
    ]};
    let clock = Rc::new(SimulatedClock::new(1_700_000_000_000));
    ReplicaSet::initiate(&config, clock, 1).unwrap()
}

/// Both secondaries apply the oplog `millis` behind the primary.
fn lag_secondaries(set: &mut ReplicaSet, millis: i64) {
    for host in [B, C] {
        let reply = set.run_command(
            "admin",
            &doc! {"sproutReplSetMember": host, "lagMillis": millis},
        );
        assert_eq!(reply.get_f64("ok").ok(), Some(1.0), "{reply}");
    }
}

fn first_batch(reply: &Document) -> Vec<Bson> {
    reply
        .get_document("cursor")
        .and_then(|c| c.get_array("firstBatch"))
        .cloned()
        .unwrap_or_else(|_| panic!("no cursor in {reply}"))
}

fn find_on(set: &mut ReplicaSet, mode: &str) -> Vec<Bson> {
    let reply = set.run_command(
        "test",
        &doc! {"find": "c", "$readPreference": {"mode": mode}},
    );
    first_batch(&reply)
}

#[test]
fn the_first_member_becomes_primary_and_hello_says_so() {
    let mut set = three_members();
    assert_eq!(set.primary_host(), Some(A));
    let hello = set.run_command("admin", &doc! {"hello": 1});
    assert_eq!(hello.get_bool("isWritablePrimary").ok(), Some(true));
    assert_eq!(hello.get_str("setName").ok(), Some("rs1"));
    assert_eq!(hello.get_array("hosts").unwrap().len(), 3);
    let legacy = set.run_command("admin", &doc! {"isMaster": 1});
    assert_eq!(legacy.get_bool("ismaster").ok(), Some(true));
}

#[test]
fn writes_reach_the_secondaries_and_their_oplogs() {
    let mut set = three_members();
    let reply = set.run_command("test", &doc! {"insert": "c", "documents": [{"_id": 1}]});
    assert_eq!(reply.get_i32("n").ok(), Some(1), "{reply}");
    assert_eq!(
        find_on(&mut set, "secondary"),
        vec![Bson::Document(doc! {"_id": 1})]
    );
    let served = set.last_served.clone().unwrap();
    assert_ne!(served, A, "a secondary served the read");
    let oplog = set.run_command(
        "local",
        &doc! {"find": "oplog.rs", "filter": {"op": "i"}, "projection": {"_id": 0}, "$readPreference": {"mode": "secondary"}},
    );
    let entries = first_batch(&oplog);
    assert_eq!(entries.len(), 1);
    let entry = entries[0].as_document().unwrap();
    assert_eq!(entry.get_str("ns").ok(), Some("test.c"));
    assert_eq!(entry.get_document("o").ok(), Some(&doc! {"_id": 1}));
}

#[test]
fn a_lagging_secondary_serves_old_data_until_time_passes() {
    let mut set = three_members();
    lag_secondaries(&mut set, 5000);
    set.run_command("test", &doc! {"insert": "c", "documents": [{"_id": 1}]});
    assert!(find_on(&mut set, "secondary").is_empty());
    assert_eq!(find_on(&mut set, "primary").len(), 1);
    set.advance_clock(5000);
    assert_eq!(find_on(&mut set, "secondary").len(), 1);
}

#[test]
fn explain_names_the_member_that_served_the_read() {
    let mut set = three_members();
    let reply = set.run_command(
        "test",
        &doc! {"explain": {"find": "c", "filter": {}}, "$readPreference": {"mode": "secondary", "tags": [{"use": "reporting"}]}},
    );
    let info = reply.get_document("serverInfo").unwrap();
    assert_eq!(info.get_str("host").ok(), Some("172.17.0.3"));
    assert_eq!(info.get_i32("port").ok(), Some(27017));
}

#[test]
fn majority_waits_for_a_lagging_secondary_within_wtimeout() {
    let mut set = three_members();
    lag_secondaries(&mut set, 2000);
    let before = set.now_millis();
    let reply = set.run_command(
        "test",
        &doc! {"insert": "c", "documents": [{"_id": 1}], "writeConcern": {"w": "majority", "wtimeout": 5000}},
    );
    assert!(!reply.contains_key("writeConcernError"), "{reply}");
    assert_eq!(
        set.now_millis() - before,
        2000,
        "the write waited for one secondary"
    );
}

#[test]
fn w_all_times_out_when_a_member_is_stopped() {
    let mut set = three_members();
    set.run_command("admin", &doc! {"sproutReplSetMember": C, "running": false});
    let before = set.now_millis();
    let reply = set.run_command(
        "test",
        &doc! {"insert": "c", "documents": [{"_id": 1}], "writeConcern": {"w": 3, "wtimeout": 1000}},
    );
    assert_eq!(
        reply.get_i32("n").ok(),
        Some(1),
        "the write itself succeeded: {reply}"
    );
    let wce = reply.get_document("writeConcernError").unwrap();
    assert_eq!(wce.get_i32("code").ok(), Some(64));
    assert_eq!(wce.get_str("codeName").ok(), Some("WriteConcernTimeout"));
    assert_eq!(
        wce.get_str("errmsg").ok(),
        Some("waiting for replication timed out")
    );
    assert_eq!(
        wce.get_document("errInfo")
            .unwrap()
            .get_bool("wtimeout")
            .ok(),
        Some(true)
    );
    assert_eq!(
        set.now_millis() - before,
        1000,
        "the primary waited wtimeout"
    );
}

#[test]
fn majority_times_out_when_the_secondaries_lag() {
    let mut set = three_members();
    lag_secondaries(&mut set, 10_000);
    let reply = set.run_command(
        "test",
        &doc! {"insert": "c", "documents": [{"_id": 1}], "writeConcern": {"w": "majority", "wtimeout": 1000}},
    );
    let wce = reply.get_document("writeConcernError").unwrap();
    assert_eq!(wce.get_i32("code").ok(), Some(64));
}

#[test]
fn a_primary_without_a_majority_steps_down() {
    let mut set = three_members();
    set.run_command("admin", &doc! {"sproutReplSetMember": B, "running": false});
    assert_eq!(set.primary_host(), Some(A));
    set.run_command("admin", &doc! {"sproutReplSetMember": C, "running": false});
    assert_eq!(set.primary_host(), None);
    assert_eq!(set.state(0), MemberState::Secondary);
    set.run_command("admin", &doc! {"sproutReplSetMember": C, "running": true});
    assert!(set.primary_host().is_some());
}

#[test]
fn w_above_the_data_members_is_unsatisfiable() {
    let mut set = three_members();
    let reply = set.run_command(
        "test",
        &doc! {"insert": "c", "documents": [{"_id": 1}], "writeConcern": {"w": 5}},
    );
    let wce = reply.get_document("writeConcernError").unwrap();
    assert_eq!(wce.get_i32("code").ok(), Some(100));
    assert_eq!(
        wce.get_str("errmsg").ok(),
        Some("Not enough data-bearing nodes")
    );
}

#[test]
fn step_down_elects_another_member_in_a_new_term() {
    let mut set = three_members();
    set.run_command("test", &doc! {"insert": "c", "documents": [{"_id": 1}]});
    let reply = set.run_command("admin", &doc! {"replSetStepDown": 60});
    assert_eq!(reply.get_f64("ok").ok(), Some(1.0), "{reply}");
    let primary = set.primary_host().unwrap().to_string();
    assert_ne!(primary, A);
    assert_eq!(set.term(), 2);
    assert_eq!(set.state(0), MemberState::Secondary);
    let status = set.run_command("admin", &doc! {"replSetGetStatus": 1});
    let states: Vec<&str> = status
        .get_array("members")
        .unwrap()
        .iter()
        .map(|m| m.as_document().unwrap().get_str("stateStr").unwrap())
        .collect();
    assert_eq!(states.iter().filter(|s| **s == "PRIMARY").count(), 1);
    // The new primary has the data and takes writes.
    assert_eq!(find_on(&mut set, "primary").len(), 1);
    let reply = set.run_command("test", &doc! {"insert": "c", "documents": [{"_id": 2}]});
    assert_eq!(reply.get_i32("n").ok(), Some(1));
}

#[test]
fn stopping_the_primary_elects_the_freshest_member() {
    let mut set = three_members();
    set.run_command(
        "admin",
        &doc! {"sproutReplSetMember": C, "lagMillis": 60_000},
    );
    set.run_command("test", &doc! {"insert": "c", "documents": [{"_id": 1}]});
    set.run_command("admin", &doc! {"sproutReplSetMember": A, "running": false});
    assert_eq!(set.primary_host(), Some(B), "B had the write, C did not");
    let hello = set.run_command("admin", &doc! {"hello": 1});
    assert_eq!(hello.get_str("primary").ok(), Some(B));
    set.run_command("admin", &doc! {"sproutReplSetMember": A, "running": true});
    assert_eq!(set.state(0), MemberState::Secondary);
}

#[test]
fn without_a_majority_there_is_no_primary() {
    let mut set = three_members();
    set.run_command("admin", &doc! {"sproutReplSetMember": B, "running": false});
    set.run_command("admin", &doc! {"sproutReplSetMember": A, "running": false});
    assert_eq!(set.primary_host(), None);
    let reply = set.run_command("test", &doc! {"insert": "c", "documents": [{"_id": 1}]});
    assert_eq!(reply.get_i32("code").ok(), Some(10107));
    let reply = set.run_command(
        "test",
        &doc! {"find": "c", "$readPreference": {"mode": "primary"}},
    );
    assert_eq!(reply.get_i32("code").ok(), Some(133));
    assert!(
        first_batch(&set.run_command(
            "test",
            &doc! {"find": "c", "$readPreference": {"mode": "primaryPreferred"}}
        ))
        .is_empty()
    );
}

#[test]
fn reconfig_checks_the_version_and_syncs_new_members() {
    let mut set = three_members();
    set.run_command("test", &doc! {"insert": "c", "documents": [{"_id": 1}]});
    let mut config = set.config().to_document(set.term());
    let reply = set.run_command("admin", &doc! {"replSetReconfig": config.clone()});
    assert_eq!(reply.get_i32("code").ok(), Some(103), "{reply}");
    let mut members = config.get_array("members").unwrap().clone();
    members.push(Bson::Document(
        doc! {"_id": 3, "host": "172.17.0.5:27017", "priority": 0, "hidden": true},
    ));
    config.insert("members", members);
    config.insert("version", 2);
    let reply = set.run_command("admin", &doc! {"replSetReconfig": config});
    assert_eq!(reply.get_f64("ok").ok(), Some(1.0), "{reply}");
    assert_eq!(set.config().version, 2);
    let hidden = set.member_index("172.17.0.5:27017").unwrap();
    let reply = set
        .member_engine(hidden)
        .run_command("test", &doc! {"find": "c"});
    assert_eq!(
        first_batch(&reply).len(),
        1,
        "the new member copied the data"
    );
    let hello = set.run_command("admin", &doc! {"hello": 1});
    assert_eq!(
        hello.get_array("hosts").unwrap().len(),
        3,
        "hidden members are not listed"
    );
}

#[test]
fn a_custom_write_concern_mode_counts_distinct_tag_values() {
    let config = doc! {"_id": "rs1", "members": [
        {"_id": 0, "host": A, "tags": {"dc": "east"}},
        {"_id": 1, "host": B, "tags": {"dc": "east"}},
        {"_id": 2, "host": C, "tags": {"dc": "west"}},
    ], "settings": {"getLastErrorModes": {"multiDC": {"dc": 2}}}};
    let clock = Rc::new(SimulatedClock::new(1_700_000_000_000));
    let mut set = ReplicaSet::initiate(&config, clock, 1).unwrap();
    set.run_command("admin", &doc! {"sproutReplSetMember": C, "running": false});
    let reply = set.run_command(
        "test",
        &doc! {"insert": "c", "documents": [{"_id": 1}], "writeConcern": {"w": "multiDC", "wtimeout": 100}},
    );
    assert_eq!(
        reply
            .get_document("writeConcernError")
            .unwrap()
            .get_i32("code")
            .ok(),
        Some(64)
    );
    let reply = set.run_command(
        "test",
        &doc! {"insert": "c", "documents": [{"_id": 2}], "writeConcern": {"w": "noSuchMode"}},
    );
    assert_eq!(reply.get_i32("code").ok(), Some(79));
}

#[test]
fn max_staleness_below_ninety_seconds_is_refused() {
    let mut set = three_members();
    let reply = set.run_command(
        "test",
        &doc! {"find": "c", "$readPreference": {"mode": "secondary", "maxStalenessSeconds": 30}},
    );
    assert_eq!(reply.get_i32("code").ok(), Some(160));
}

#[test]
fn step_down_waits_for_a_secondary_to_catch_up() {
    let mut set = three_members();
    lag_secondaries(&mut set, 30_000);
    set.run_command("test", &doc! {"insert": "c", "documents": [{"_id": 1}]});
    let reply = set.run_command("admin", &doc! {"replSetStepDown": 60});
    assert_eq!(reply.get_i32("code").ok(), Some(262), "{reply}");
    assert!(
        reply
            .get_str("errmsg")
            .unwrap()
            .starts_with("No electable secondaries caught up as of ")
    );
    assert_eq!(set.primary_host(), Some(A));
    let reply = set.run_command(
        "admin",
        &doc! {"replSetStepDown": 60, "secondaryCatchUpPeriodSecs": 40},
    );
    assert_eq!(reply.get_f64("ok").ok(), Some(1.0), "{reply}");
    assert_ne!(set.primary_host(), Some(A));
    let reply = set.run_command("admin", &doc! {"replSetStepDown": 10});
    assert_eq!(
        reply.get_str("errmsg").ok(),
        Some("stepdown period must be longer than secondaryCatchUpPeriodSecs")
    );
}

fn find_with_concern(set: &mut ReplicaSet, level: &str, batch_size: i32) -> Document {
    set.run_command(
        "test",
        &doc! {"find": "c", "batchSize": batch_size, "readConcern": {"level": level}},
    )
}

#[test]
fn a_majority_read_does_not_see_a_write_only_the_primary_has() {
    let mut set = three_members();
    set.run_command("test", &doc! {"insert": "c", "documents": [{"_id": 1}]});
    lag_secondaries(&mut set, 5000);
    let before = set.majority_commit_point();
    set.run_command("test", &doc! {"insert": "c", "documents": [{"_id": 2}]});
    assert_eq!(set.majority_commit_point(), before);
    let last_write = set.hello(false).get_document("lastWrite").unwrap().clone();
    assert_ne!(last_write.get("opTime"), last_write.get("majorityOpTime"));
    let local = find_with_concern(&mut set, "local", 10);
    assert_eq!(
        first_batch(&local),
        vec![
            Bson::Document(doc! {"_id": 1}),
            Bson::Document(doc! {"_id": 2})
        ]
    );
    let majority = find_with_concern(&mut set, "majority", 10);
    assert_eq!(
        first_batch(&majority),
        vec![Bson::Document(doc! {"_id": 1})]
    );
    // Once a majority has applied the write, a majority read sees it.
    set.advance_clock(5000);
    let majority = find_with_concern(&mut set, "majority", 10);
    assert_eq!(first_batch(&majority).len(), 2);
}

#[test]
fn a_majority_read_keeps_its_snapshot_across_get_more() {
    let mut set = three_members();
    set.run_command(
        "test",
        &doc! {"insert": "c", "documents": [{"_id": 1}, {"_id": 2}, {"_id": 3}]},
    );
    set.run_command("admin", &doc! {"sproutReplSetMember": B, "running": false});
    set.run_command("admin", &doc! {"sproutReplSetMember": C, "running": false});
    // The primary alone cannot commit: it steps down without a majority, so restart one.
    set.run_command("admin", &doc! {"sproutReplSetMember": C, "running": true});
    set.run_command(
        "admin",
        &doc! {"sproutReplSetMember": C, "lagMillis": 60_000},
    );
    set.run_command("test", &doc! {"insert": "c", "documents": [{"_id": 4}]});
    let reply = find_with_concern(&mut set, "majority", 2);
    assert_eq!(first_batch(&reply).len(), 2);
    let id = reply.get_document("cursor").unwrap().get_i64("id").unwrap();
    assert_ne!(id, 0);
    // A local read on the primary opens a cursor of its own meanwhile.
    let local = find_with_concern(&mut set, "local", 1);
    assert_ne!(
        local.get_document("cursor").unwrap().get_i64("id").ok(),
        Some(id)
    );
    let more = set.run_command("test", &doc! {"getMore": id, "collection": "c"});
    let next = more.get_document("cursor").unwrap();
    assert_eq!(
        next.get_array("nextBatch").unwrap(),
        &vec![Bson::Document(doc! {"_id": 3})]
    );
    assert_eq!(next.get_i64("id").ok(), Some(0));
}

#[test]
fn an_unknown_read_concern_level_fails() {
    let mut set = three_members();
    let reply = find_with_concern(&mut set, "most", 10);
    assert_eq!(reply.get_i32("code").ok(), Some(2));
}

fn error_of(reply: &Document) -> (i32, String) {
    (
        reply.get_i32("code").unwrap_or(0),
        reply.get_str("errmsg").unwrap_or("").to_string(),
    )
}

#[test]
fn a_linearizable_read_runs_on_the_primary_and_writes_a_no_op() {
    let mut set = three_members();
    set.run_command("test", &doc! {"insert": "c", "documents": [{"_id": 1}]});
    let reply = find_with_concern(&mut set, "linearizable", 10);
    assert_eq!(first_batch(&reply), vec![Bson::Document(doc! {"_id": 1})]);
    let oplog = set.run_command(
        "local",
        &doc! {"find": "oplog.rs", "filter": {"op": "n"}, "sort": {"$natural": -1}, "limit": 1},
    );
    let last = first_batch(&oplog);
    let last = last[0].as_document().unwrap();
    assert_eq!(
        last.get_document("o").unwrap().get_str("msg").ok(),
        Some("linearizable read")
    );
    // The secondaries refuse, as MongoDB's do.
    let reply = set.run_command(
        "test",
        &doc! {"find": "c", "readConcern": {"level": "linearizable"}, "$readPreference": {"mode": "secondary"}},
    );
    assert_eq!(
        error_of(&reply),
        (
            10107,
            "cannot satisfy linearizable read concern on non-primary node".to_string()
        )
    );
    let reply = set.run_command(
        "test",
        &doc! {"find": "c", "readConcern": {"level": "linearizable", "afterOpTime": {"ts": bson::Timestamp {time: 1, increment: 1}, "t": 1_i64}}},
    );
    assert_eq!(error_of(&reply).0, 9);
}

#[test]
fn a_linearizable_read_waits_for_lagging_secondaries() {
    let mut set = three_members();
    lag_secondaries(&mut set, 3000);
    set.run_command("test", &doc! {"insert": "c", "documents": [{"_id": 1}]});
    let before = set.now_millis();
    let reply = find_with_concern(&mut set, "linearizable", 10);
    assert_eq!(first_batch(&reply).len(), 1, "{reply}");
    assert!(
        set.now_millis() - before >= 3000,
        "the read waited for a majority"
    );
}

#[test]
fn a_linearizable_read_without_a_majority_to_confirm_it_ends_at_max_time_ms() {
    // Primary, secondary, arbiter: with the secondary stopped the primary keeps its place
    // (two of three voters run) but no majority can acknowledge a write.
    let config = doc! {"_id": "psa", "members": [
        {"_id": 0, "host": A},
        {"_id": 1, "host": B},
        {"_id": 2, "host": C, "arbiterOnly": true},
    ]};
    let clock = Rc::new(SimulatedClock::new(1_700_000_000_000));
    let mut set = ReplicaSet::initiate(&config, clock, 1).unwrap();
    set.run_command("admin", &doc! {"sproutReplSetMember": B, "running": false});
    assert_eq!(set.primary_host(), Some(A));
    // A local read answers at once.
    assert!(crate::reply_ok(&find_with_concern(&mut set, "local", 10)));
    let before = set.now_millis();
    let reply = set.run_command(
        "test",
        &doc! {"find": "c", "readConcern": {"level": "linearizable"}, "maxTimeMS": 2000},
    );
    assert_eq!(
        error_of(&reply),
        (50, "operation exceeded time limit".to_string())
    );
    assert_eq!(set.now_millis() - before, 2000);
    let reply = find_with_concern(&mut set, "linearizable", 10);
    assert_eq!(error_of(&reply).0, 187, "{reply}");
}

#[test]
fn a_snapshot_read_reads_the_majority_point_and_names_it() {
    let mut set = three_members();
    set.run_command("test", &doc! {"insert": "c", "documents": [{"_id": 1}]});
    lag_secondaries(&mut set, 5000);
    set.run_command("test", &doc! {"insert": "c", "documents": [{"_id": 2}]});
    let reply = find_with_concern(&mut set, "snapshot", 10);
    assert_eq!(first_batch(&reply), vec![Bson::Document(doc! {"_id": 1})]);
    let cursor = reply.get_document("cursor").unwrap();
    let keys: Vec<&str> = cursor.keys().map(String::as_str).collect();
    assert_eq!(keys, ["firstBatch", "atClusterTime", "id", "ns"]);
    assert!(matches!(
        cursor.get("atClusterTime"),
        Some(Bson::Timestamp(_))
    ));
}

#[test]
fn a_standalone_server_refuses_the_replica_set_levels() {
    let mut engine = crate::Engine::new();
    for (level, message) in [
        (
            "linearizable",
            "node needs to be a replica set member to use read concern",
        ),
        (
            "snapshot",
            "node needs to be a replica set member to use readConcern: snapshot",
        ),
    ] {
        let reply =
            engine.run_command("test", &doc! {"find": "c", "readConcern": {"level": level}});
        assert_eq!(error_of(&reply), (123, message.to_string()));
        let reply = engine.run_command(
            "test",
            &doc! {"aggregate": "c", "pipeline": [], "cursor": {}, "readConcern": {"level": level}},
        );
        assert_eq!(error_of(&reply).0, 123);
    }
    let reply = engine.run_command(
        "test",
        &doc! {"find": "c", "readConcern": {"level": "majority"}},
    );
    assert!(crate::reply_ok(&reply));
}
