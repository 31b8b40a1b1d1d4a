//! The connection from a connection string: `connect(uri)`, `new Mongo(uri)` and the CLI's
//! `mongodb://` argument take the string's database and read preference (readPreference,
//! readPreferenceTags, maxStalenessSeconds), checked as the driver checks them
//! (shell/src/js/connection.js).

use engine::Engine;
use engine::clock::SimulatedClock;
use shell::{Shell, ShellConfig};

/// A three-member set whose secondaries lag ten seconds behind, with one document written
/// (so a read from a secondary finds nothing, and one from the primary finds it).
fn lagging_set() -> Shell {
    let engine = Engine::with_clock(Box::new(SimulatedClock::new(1_700_000_000_000)), 3);
    let mut s = Shell::new(engine, ShellConfig::default());
    run(
        &mut s,
        "new ReplSetTest({name: 'rs1', nodes: 3}).initiate(); \
         sprout.replSet.setLag('172.17.0.3:27017', 10000); \
         sprout.replSet.setLag('172.17.0.4:27017', 10000); \
         db.getSiblingDB('books').c.insertOne({_id: 1})",
    );
    s
}

fn run(s: &mut Shell, input: &str) -> String {
    let ev = s.eval(input);
    assert!(ev.error.is_none(), "{input}: {ev:?}");
    ev.text()
}

fn error(s: &mut Shell, input: &str) -> String {
    let ev = s.eval(input);
    ev.error
        .unwrap_or_else(|| panic!("{input}: no error"))
        .to_string()
}

#[test]
fn connect_takes_the_database_and_read_preference_from_the_string() {
    let mut s = lagging_set();
    run(
        &mut s,
        "db = connect('mongodb://172.17.0.2:27017,172.17.0.3:27017/books?replicaSet=rs1&readPreference=secondary')",
    );
    assert_eq!(run(&mut s, "db.getName()"), "books");
    assert_eq!(run(&mut s, "db.getMongo().getReadPrefMode()"), "secondary");
    assert_eq!(run(&mut s, "db.c.find().toArray().length"), "0");
    let host = run(&mut s, "db.c.find().explain().serverInfo.host");
    assert!(host == "172.17.0.3" || host == "172.17.0.4", "{host}");
    // A read naming its own read preference still wins.
    assert_eq!(
        run(&mut s, "db.c.find().readPref('primary').toArray().length"),
        "1"
    );
    // A new connection without one reads from the primary again.
    run(
        &mut s,
        "db = new Mongo('mongodb://172.17.0.2:27017/').getDB('books')",
    );
    assert_eq!(run(&mut s, "db.getMongo().getReadPrefMode()"), "primary");
    assert_eq!(run(&mut s, "db.c.find().toArray().length"), "1");
}

#[test]
fn tag_sets_and_staleness_come_from_the_string() {
    let mut s = lagging_set();
    run(
        &mut s,
        "db = connect('mongodb://h/books?readPreference=nearest&readPreferenceTags=dc:ny,rack:1&readPreferenceTags=&maxStalenessSeconds=90')",
    );
    assert_eq!(
        run(&mut s, "JSON.stringify(db.getMongo().getReadPref())"),
        r#"{"mode":"nearest","tags":[{"dc":"ny","rack":"1"},{}],"maxStalenessSeconds":90}"#
    );
    assert_eq!(
        run(&mut s, "JSON.stringify(db.getMongo().getReadPrefTagSet())"),
        r#"[{"dc":"ny","rack":"1"},{}]"#
    );
    // No member is tagged dc:ny, so the empty tag set matches any member.
    assert_eq!(run(&mut s, "db.c.find().itcount() >= 0"), "true");
}

#[test]
fn bad_strings_fail_as_the_driver_fails() {
    let mut s = lagging_set();
    assert!(
        error(&mut s, "connect('http://h/books')").starts_with(
            "MongoParseError: Invalid scheme, expected connection string to start with \"mongodb://\" or \"mongodb+srv://\""
        )
    );
    assert_eq!(
        error(&mut s, "connect('mongodb://h/books?readPreference=bogus')"),
        "MongoInvalidArgumentError: Invalid read preference mode \"bogus\""
    );
    assert_eq!(
        error(
            &mut s,
            "connect('mongodb://h/books?readPreferenceTags=dc:ny')"
        ),
        "MongoInvalidArgumentError: Primary read preference cannot be combined with tags"
    );
    assert_eq!(
        error(
            &mut s,
            "connect('mongodb://h/books?readPreference=primary&maxStalenessSeconds=90')"
        ),
        "MongoInvalidArgumentError: Primary read preference cannot be combined with maxStalenessSeconds"
    );
    assert!(
        error(
            &mut s,
            "connect('mongodb://h/b?readPreference=secondary&readPreferenceTags=ny')"
        )
        .starts_with("MongoParseError: Invalid readPreferenceTags \"ny\"")
    );
    // A failed connect leaves the connection as it was.
    assert_eq!(run(&mut s, "db.getMongo().getReadPrefMode()"), "primary");
}

#[test]
fn mongosh_short_forms_name_a_host_and_a_database() {
    let mut s = lagging_set();
    assert_eq!(
        run(&mut s, "connect('localhost:27017/books').getName()"),
        "books"
    );
    assert_eq!(run(&mut s, "connect('books').getName()"), "books");
    assert_eq!(run(&mut s, "db.getMongo().host"), "127.0.0.1:27017");
    assert_eq!(
        run(&mut s, "db.getMongo() === db.getSiblingDB('x').getMongo()"),
        "true"
    );
}

#[test]
fn the_cli_connects_with_a_string_argument() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sprout"))
        .args([
            "--replset",
            "rs1",
            "mongodb://172.17.0.2:27017/books?replicaSet=rs1&readPreference=secondaryPreferred",
            "--eval",
        ])
        .arg("db.getName() + ' ' + db.getMongo().getReadPrefMode()")
        .output()
        .expect("sprout runs");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "books secondaryPreferred"
    );
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_sprout"))
        .args(["mongodb://h/b?readPreference=bogus", "--eval", "1"])
        .output()
        .expect("sprout runs");
    assert_eq!(bad.status.code(), Some(2), "{bad:?}");
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("Invalid read preference mode"),
        "{bad:?}"
    );
}
