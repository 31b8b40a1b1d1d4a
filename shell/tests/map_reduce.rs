//! mapReduce runs its map, reduce and finalize functions through the shell's Boa context, in
//! both styles (mongosh answers the reply, the legacy shell a MapReduceResult).

use engine::Engine;
use shell::{Shell, ShellConfig, Style};

fn shell(style: Style) -> Shell {
    let mut s = Shell::new(
        Engine::new(),
        ShellConfig {
            style,
            ..ShellConfig::default()
        },
    );
    let ev = s.eval(
        "db.c.insertMany([{_id: 1, tags: ['a', 'b']}, {_id: 2, tags: ['b', 'c']}, {_id: 3, tags: ['c', 'a', 'b']}])",
    );
    assert!(ev.error.is_none(), "{ev:?}");
    s
}

fn text(s: &mut Shell, input: &str) -> String {
    s.eval(input).text()
}

const MAP: &str = "var m = function() { this.tags.forEach(function(t) { emit(t, 1); }); }; \
                   var r = function(k, vs) { return Array.sum(vs); };";

#[test]
fn mongosh_answers_the_reply_after_its_deprecation_warning() {
    let mut s = shell(Style::Mongosh);
    text(&mut s, MAP);
    assert_eq!(
        text(&mut s, "db.c.mapReduce(m, r, {out: {inline: 1}})"),
        "DeprecationWarning: Collection.mapReduce() is deprecated. Use an aggregation instead.\n\
         See https://mongodb.com/docs/manual/core/map-reduce for details.\n\
         {\n  results: [\n    { _id: 'a', value: 2 },\n    { _id: 'b', value: 3 },\n    { _id: 'c', value: 2 }\n  ],\n  ok: 1\n}"
    );
    assert_eq!(
        text(&mut s, "db.c.mapReduce(m, r, 'out')"),
        "{ result: 'out', ok: 1 }"
    );
    assert_eq!(
        text(&mut s, "db.out.find({_id: 'b'})"),
        "[ { _id: 'b', value: 3 } ]"
    );
    // Scope variables are globals; finalize sees the key and the reduced value.
    assert_eq!(
        text(
            &mut s,
            "db.c.mapReduce(function() { emit(this._id % 2, k); }, r, \
             {out: {inline: 1}, scope: {k: 5}, finalize: function(key, v) { return v * 10; }}).results"
        ),
        "[ { _id: 0, value: 50 }, { _id: 1, value: 100 } ]"
    );
    assert_eq!(
        text(&mut s, "db.c.mapReduce(m, r, {})"),
        "MongoshInvalidInputError: Missing required option: out"
    );
}

#[test]
fn legacy_answers_a_map_reduce_result() {
    let mut s = shell(Style::Legacy);
    text(&mut s, MAP);
    // A global `emit` of the test's own is put back after the map runs.
    text(&mut s, "emit = 'mine'");
    assert_eq!(
        text(
            &mut s,
            "tojson(db.c.mapReduce(m, r, 'out').convertToSingleObject())"
        ),
        "{ \"a\" : 2, \"b\" : 3, \"c\" : 2 }"
    );
    assert_eq!(text(&mut s, "emit"), "mine");
    assert_eq!(
        text(
            &mut s,
            "db.c.mapReduce(m, r, {out: {inline: 1}}).results.length"
        ),
        "3"
    );
    assert_eq!(
        text(&mut s, "db.c.mapReduce(m, r, 'out').find().count()"),
        "3"
    );
    assert_eq!(
        text(&mut s, "tojson(db.out.convertToSingleObject('value'))"),
        "{ \"a\" : 2, \"b\" : 3, \"c\" : 2 }"
    );
}

#[test]
fn failures_are_errors_and_hostile_functions_end() {
    let mut s = shell(Style::Mongosh);
    text(&mut s, MAP);
    let out = text(
        &mut s,
        "db.c.mapReduce(function() { emit(1); }, r, {out: {inline: 1}})",
    );
    assert!(out.contains("emit takes 2 args"), "{out}");
    let out = text(
        &mut s,
        "db.c.mapReduce(function() { (function myFunction() { throw new Error('boom'); })(); }, r, {out: {inline: 1}})",
    );
    assert!(
        out.contains("JSInterpreterFailure") && out.contains("boom"),
        "{out}"
    );
    assert!(out.contains("myFunction@"), "{out}");
    // A map that never ends is stopped by the shell's loop limit.
    let out = text(
        &mut s,
        "db.c.mapReduce(function() { while (true) {} }, r, {out: {inline: 1}})",
    );
    assert!(out.contains("JSInterpreterFailure"), "{out}");
    // Database commands are not available inside the functions; the session survives.
    let out = text(
        &mut s,
        "db.c.mapReduce(function() { db.c.findOne(); }, r, {out: {inline: 1}})",
    );
    assert!(out.contains("JSInterpreterFailure"), "{out}");
    assert_eq!(text(&mut s, "db.c.countDocuments()"), "3");
    // print and printjson inside them write to the server's log: nothing in the shell.
    assert_eq!(
        text(
            &mut s,
            "db.c.mapReduce(function() { print('x'); emit(1, tojson({a: 1})); }, \
             function(k, vs) { printjson(vs); return vs[0]; }, {out: {inline: 1}}).results"
        ),
        "[ { _id: 1, value: '{ \"a\" : 1 }' } ]"
    );
}
