//! The simulated replica set through the shell: `ReplSetTest`/`rs.*`, an election after
//! `rs.stepDown()`, a lagging secondary read through `cursor.readPref`, and a
//! `w: "majority"` write that times out (engine/src/replication, shell/src/js/replset.js).

use engine::Engine;
use engine::clock::SimulatedClock;
use shell::{Shell, ShellConfig};

fn shell() -> Shell {
    let engine = Engine::with_clock(Box::new(SimulatedClock::new(1_700_000_000_000)), 3);
    let mut s = Shell::new(engine, ShellConfig::default());
    run(
        &mut s,
        "var rst = new ReplSetTest({name: 'rs1', nodes: 3}); rst.startSet(); rst.initiate()",
    );
    s
}

fn run(s: &mut Shell, input: &str) -> String {
    let ev = s.eval(input);
    assert!(ev.error.is_none(), "{input}: {ev:?}");
    ev.text()
}

#[test]
fn the_set_starts_with_a_primary_and_the_prompt_shows_it() {
    let mut s = shell();
    assert_eq!(s.prompt_prefix(), "rs1 [direct: primary] ");
    assert_eq!(run(&mut s, "db.hello().isWritablePrimary"), "true");
    assert_eq!(run(&mut s, "db.hello().primary"), "172.17.0.2:27017");
    assert_eq!(
        run(&mut s, "rs.status().members.map(m => m.stateStr).join()"),
        "PRIMARY,SECONDARY,SECONDARY"
    );
    assert_eq!(run(&mut s, "rs.conf().members.length"), "3");
}

#[test]
fn step_down_elects_a_new_primary() {
    let mut s = shell();
    run(&mut s, "db.c.insertOne({_id: 1})");
    assert_eq!(run(&mut s, "rs.stepDown().ok"), "1");
    assert_eq!(run(&mut s, "rs.status().term"), "Long('2')");
    let primary = run(&mut s, "db.hello().primary");
    assert_ne!(primary, "172.17.0.2:27017");
    assert_eq!(s.prompt_prefix(), "rs1 [direct: secondary] ");
    assert_eq!(
        run(
            &mut s,
            "rs.status().members.filter(m => m.stateStr == 'PRIMARY').length"
        ),
        "1"
    );
    // Writes follow the new primary, which has the data.
    run(&mut s, "db.c.insertOne({_id: 2})");
    assert_eq!(run(&mut s, "db.c.countDocuments({})"), "2");
}

#[test]
fn a_lagging_secondary_serves_stale_reads() {
    let mut s = shell();
    run(
        &mut s,
        "sprout.replSet.setLag('172.17.0.3:27017', 10000); sprout.replSet.setLag('172.17.0.4:27017', 10000)",
    );
    run(&mut s, "db.c.insertOne({_id: 1})");
    assert_eq!(
        run(&mut s, "db.c.find().readPref('secondary').toArray().length"),
        "0"
    );
    let host = run(
        &mut s,
        "db.c.find().readPref('secondary').explain().serverInfo.host",
    );
    assert!(host == "172.17.0.3" || host == "172.17.0.4", "{host}");
    assert_eq!(
        run(&mut s, "db.c.find().readPref('primary').toArray().length"),
        "1"
    );
    run(&mut s, "sprout.advanceClock(10)");
    assert_eq!(
        run(&mut s, "db.c.find().readPref('secondary').toArray().length"),
        "1"
    );
    run(&mut s, "db.getMongo().setReadPref('secondary')");
    assert_eq!(run(&mut s, "db.c.find().toArray().length"), "1");
}

#[test]
fn a_majority_write_times_out_when_secondaries_lag() {
    let mut s = shell();
    run(
        &mut s,
        "sprout.replSet.setLag('172.17.0.3:27017', 60000); sprout.replSet.setLag('172.17.0.4:27017', 60000)",
    );
    let ev = s.eval("db.c.insertOne({_id: 1}, {writeConcern: {w: 'majority', wtimeout: 2000}})");
    let error = ev.error.expect("a write concern error");
    assert!(
        error.message.contains("waiting for replication timed out"),
        "{error}"
    );
    assert_eq!(
        run(&mut s, "db.c.countDocuments({})"),
        "1",
        "the write itself happened"
    );
}

#[test]
fn reconfig_bumps_the_version_and_validates() {
    let mut s = shell();
    run(
        &mut s,
        "rs.add({host: '172.17.0.5:27017', priority: 0, hidden: true})",
    );
    assert_eq!(run(&mut s, "rs.conf().version"), "2");
    let ev = s.eval("var c = rs.conf(); c.members[3].priority = 1; rs.reconfig(c)");
    let error = ev.error.expect("hidden members need priority 0");
    assert!(
        error
            .message
            .contains("priority must be 0 when hidden=true"),
        "{error}"
    );
    run(&mut s, "rs.remove('172.17.0.5:27017')");
    assert_eq!(run(&mut s, "rs.conf().members.length"), "3");
}

#[test]
fn the_oplog_is_readable() {
    let mut s = shell();
    run(&mut s, "db.c.insertOne({_id: 1, x: 1})");
    assert_eq!(
        run(
            &mut s,
            "db.getSiblingDB('local').getCollection('oplog.rs').find({op: 'i'}, {_id: 0, ns: 1, o: 1}).toArray()"
        ),
        "[ { ns: 'test.c', o: { _id: 1, x: 1 } } ]"
    );
}

#[test]
fn the_cli_starts_connected_to_a_replica_set() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sprout"))
        .args(["--replset", "rs1", "--nodes", "5", "--eval"])
        .arg("rs.status().members.length + ' members, set ' + db.hello().setName")
        .output()
        .expect("sprout runs");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("5 members, set rs1"), "{text}");
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_sprout"))
        .args(["--replset", "rs1", "--nodes", "0", "--eval", "1"])
        .output()
        .expect("sprout runs");
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn waiting_for_a_write_concern_moves_the_shell_clock() {
    let mut s = shell();
    run(&mut s, "sprout.replSet.setLag('172.17.0.3:27017', 4000)");
    run(&mut s, "var before = sprout.clock()");
    run(
        &mut s,
        "db.c.insertOne({_id: 1}, {writeConcern: {w: 3, wtimeout: 10000}})",
    );
    assert_eq!(run(&mut s, "sprout.clock() - before"), "4000");
}

#[test]
fn hello_on_a_standalone_answers_as_mongod_does() {
    let engine = Engine::with_clock(Box::new(SimulatedClock::new(1_700_000_000_000)), 3);
    let mut s = Shell::new(engine, ShellConfig::default());
    assert_eq!(s.prompt_prefix(), "");
    assert_eq!(run(&mut s, "db.hello().isWritablePrimary"), "true");
    assert_eq!(
        run(&mut s, "Object.keys(db.hello()).join()"),
        "isWritablePrimary,topologyVersion,maxBsonObjectSize,maxMessageSizeBytes,\
         maxWriteBatchSize,localTime,logicalSessionTimeoutMinutes,connectionId,\
         minWireVersion,maxWireVersion,readOnly,ok"
    );
    assert_eq!(run(&mut s, "db.hello().maxWireVersion"), "25");
    assert_eq!(run(&mut s, "db.isMaster().ismaster"), "true");
    assert_eq!(
        run(&mut s, "db.runCommand({isMaster: 1}).hosts === undefined"),
        "true"
    );
}

#[test]
fn print_replication_info_reports_the_oplog_window() {
    let mut s = shell();
    let first = run(&mut s, "new Date(1700000000000).toString()");
    run(&mut s, "sprout.advanceClock(5400)");
    run(&mut s, "db.c.insertOne({_id: 1})");
    let last = run(&mut s, "new Date(1700005400000).toString()");
    run(&mut s, "sprout.advanceClock(60)");
    let now = run(&mut s, "new Date().toString()");
    assert_eq!(
        run(&mut s, "rs.printReplicationInfo()"),
        format!(
            "actual oplog size\n'16 MB'\n---\nconfigured oplog size\n'16 MB'\n---\n\
             log length start to end\n'5400 secs (1.5 hrs)'\n---\n\
             oplog first event time\n'{first}'\n---\n\
             oplog last event time\n'{last}'\n---\nnow\n'{now}'"
        )
    );
    assert_eq!(run(&mut s, "db.getReplicationInfo().timeDiff"), "5400");
    assert_eq!(run(&mut s, "db.getReplicationInfo().usedMB > 0"), "true");
}

#[test]
fn print_replication_info_on_a_standalone_says_there_is_no_replication() {
    let engine = Engine::with_clock(Box::new(SimulatedClock::new(1_700_000_000_000)), 3);
    let mut s = Shell::new(engine, ShellConfig::default());
    let ev = s.eval("db.printReplicationInfo()");
    let error = format!("{:?}", ev.error);
    assert!(
        error.contains("Replication not detected. Are you connected to a replset?"),
        "{error}"
    );
}

#[test]
fn a_majority_read_does_not_see_a_write_only_the_primary_has() {
    let mut s = shell();
    run(&mut s, "db.c.insertOne({_id: 1})");
    run(
        &mut s,
        "sprout.replSet.setLag('172.17.0.3:27017', 10000); sprout.replSet.setLag('172.17.0.4:27017', 10000)",
    );
    run(&mut s, "db.c.insertOne({_id: 2})");
    assert_eq!(
        run(&mut s, "db.c.find().readConcern('local').toArray().length"),
        "2"
    );
    assert_eq!(
        run(&mut s, "db.c.find().readConcern('majority').toArray()"),
        "[ { _id: 1 } ]"
    );
    assert_eq!(
        run(
            &mut s,
            "db.runCommand({find: 'c', readConcern: {level: 'majority'}}).cursor.firstBatch.length"
        ),
        "1"
    );
    run(&mut s, "sprout.advanceClock(10)");
    assert_eq!(
        run(
            &mut s,
            "db.c.find().readConcern('majority').toArray().length"
        ),
        "2"
    );
}

#[test]
fn a_majority_read_on_a_standalone_sees_every_write() {
    let engine = Engine::with_clock(Box::new(SimulatedClock::new(1_700_000_000_000)), 3);
    let mut s = Shell::new(engine, ShellConfig::default());
    run(&mut s, "db.c.insertOne({_id: 1})");
    assert_eq!(
        run(&mut s, "db.c.find().readConcern('majority').toArray()"),
        "[ { _id: 1 } ]"
    );
}

/// `Shell::replica_set_view`: rs.status()'s members and the member that served the last read,
/// before and after the primary is stopped (an election follows).
#[test]
fn the_view_shows_members_states_and_the_last_read() {
    let plain = Shell::new(Engine::new(), ShellConfig::default());
    assert_eq!(plain.replica_set_view(), None);
    let mut s = shell();
    run(&mut s, "db.c.insertOne({a: 1})");
    let states = |s: &Shell| -> Vec<(String, String)> {
        let view = s.replica_set_view().unwrap();
        assert_eq!(view.status.get_str("set").unwrap(), "rs1");
        view.status
            .get_array("members")
            .unwrap()
            .iter()
            .map(|m| {
                let m = m.as_document().unwrap();
                (
                    m.get_str("name").unwrap().to_string(),
                    m.get_str("stateStr").unwrap().to_string(),
                )
            })
            .collect()
    };
    assert_eq!(
        states(&s),
        vec![
            ("172.17.0.2:27017".to_string(), "PRIMARY".to_string()),
            ("172.17.0.3:27017".to_string(), "SECONDARY".to_string()),
            ("172.17.0.4:27017".to_string(), "SECONDARY".to_string()),
        ]
    );
    run(&mut s, "db.c.find().readPref('secondary').toArray()");
    let served = s.replica_set_view().unwrap().last_served.unwrap();
    assert_ne!(served, "172.17.0.2:27017", "a secondary read");
    run(&mut s, "sprout.replSet.stop('172.17.0.2:27017')");
    let after = states(&s);
    assert_eq!(after[0].1, "(not reachable/healthy)");
    assert_eq!(
        after.iter().filter(|(_, state)| state == "PRIMARY").count(),
        1,
        "{after:?}"
    );
}

#[test]
fn a_read_served_by_a_secondary_is_noted_under_the_result() {
    let mut s = shell();
    run(&mut s, "db.c.insertOne({_id: 1}); sprout.advanceClock(5)");
    let primary = s.eval("db.c.find().toArray()");
    assert!(primary.notes.is_empty(), "{:?}", primary.notes);
    let secondary = s.eval("db.c.find().readPref('secondary').toArray()");
    assert_eq!(secondary.notes.len(), 1, "{:?}", secondary.notes);
    let note = &secondary.notes[0];
    assert!(
        note.starts_with("Read from 172.17.0.3:27017 (SECONDARY)")
            || note.starts_with("Read from 172.17.0.4:27017 (SECONDARY)"),
        "{note}"
    );
    assert!(
        !secondary.text().contains("Read from"),
        "a note is not mongosh's output"
    );
    // The next input starts without it.
    assert!(s.eval("1").notes.is_empty());
    s.set_language(true);
    let zh = s.eval("db.c.find().readPref('secondary').itcount()");
    assert!(
        zh.notes[0].starts_with("读取由 172.17.0."),
        "{:?}",
        zh.notes
    );
}
