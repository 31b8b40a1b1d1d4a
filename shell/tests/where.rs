//! `$where` runs the learner's JavaScript through the shell's Boa context.

use engine::Engine;
use shell::{Shell, ShellConfig};

fn shell() -> Shell {
    let mut s = Shell::new(Engine::new(), ShellConfig::default());
    let ev = s.eval(
        "db.c.insertMany([{_id: 1, a: 1, b: 2}, {_id: 2, a: 3, b: 1}, {_id: 3, a: 5, b: 5}])",
    );
    assert!(ev.error.is_none(), "{ev:?}");
    s
}

fn text(s: &mut Shell, input: &str) -> String {
    s.eval(input).text()
}

#[test]
fn string_and_function_predicates_see_this_and_obj() {
    let mut s = shell();
    assert_eq!(
        text(&mut s, "db.c.find({$where: 'this.a > this.b'})"),
        "[ { _id: 2, a: 3, b: 1 } ]"
    );
    assert_eq!(
        text(
            &mut s,
            "db.c.find({$where: function() { return this.a < this.b }})"
        ),
        "[ { _id: 1, a: 1, b: 2 } ]"
    );
    assert_eq!(
        text(&mut s, "db.c.find({$where: 'obj.a == obj.b'}, {_id: 1})"),
        "[ { _id: 3 } ]"
    );
    assert_eq!(
        text(&mut s, "db.c.countDocuments({$where: 'this.a >= 3'})"),
        "2"
    );
    // A function's text may end with semicolons and spaces (a driver's string).
    assert_eq!(
        text(
            &mut s,
            "db.c.countDocuments({$where: 'function() { return this.a >= 3 } ; '})"
        ),
        "2"
    );
    // An expression statement ending with `;` answers its value; a body needs its `return`.
    assert_eq!(
        text(&mut s, "db.c.countDocuments({$where: 'this.a >= 3;'})"),
        "2"
    );
    assert_eq!(
        text(
            &mut s,
            "db.c.countDocuments({$where: 'return this.a >= 3;'})"
        ),
        "2"
    );
    assert_eq!(
        text(
            &mut s,
            "db.c.countDocuments({$where: 'var x = this.a; x >= 3;'})"
        ),
        "2"
    );
    assert_eq!(
        text(
            &mut s,
            "db.c.updateMany({$where: 'this.a == 5'}, {$set: {hit: true}}).modifiedCount"
        ),
        "1"
    );
    assert_eq!(
        text(
            &mut s,
            "db.c.deleteOne({$where: 'this._id == 1'}).deletedCount"
        ),
        "1"
    );
}

#[test]
fn failures_are_server_errors_and_the_session_survives() {
    let mut s = shell();
    let ev = s.eval("db.c.find({$where: 'this.x.y == 1'})");
    let err = ev.error.expect("error");
    assert_eq!(err.name, "MongoServerError[JSInterpreterFailure]");
    assert!(err.message.starts_with("TypeError"), "{}", err.message);
    let ev = s.eval("db.c.find({$where: 'db.c.count() > 0'})");
    assert!(
        ev.error
            .expect("error")
            .message
            .contains("not available inside $where")
    );
    let ev = s.eval("db.c.find({$where: 'while(true){}'})");
    assert!(ev.error.is_some(), "a runaway $where is stopped");
    assert_eq!(text(&mut s, "db.c.countDocuments({})"), "3");
}

#[test]
fn explain_runs_the_where_predicate_too() {
    let mut s = shell();
    assert_eq!(
        text(
            &mut s,
            "db.c.find({$where: 'this.a > this.b'}).explain('executionStats').executionStats.nReturned"
        ),
        "1"
    );
    assert_eq!(
        text(
            &mut s,
            "db.c.explain('executionStats').count({$where: function() { return this.a == this.b }}).executionStats.executionStages.nCounted"
        ),
        "1"
    );
}
