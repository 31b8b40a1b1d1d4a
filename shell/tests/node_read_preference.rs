//! The Node driver shim's read preferences (`require('mongodb')`, js/node_shim.js) on a
//! simulated replica set: the `ReadPreference` class and its checks, the connection string's
//! `readPreference` and `readPreferenceTags`, the `readPreference` option of `connect`, `db`,
//! `collection` and each read (find, findOne, count, distinct, aggregate), and a cursor's
//! `setReadPreference`. Both secondaries lag 10 s behind the primary, so a read shows where it
//! went: the primary has the document, the secondaries do not yet. `explain().serverInfo.host`
//! names the member that served a find.

pub mod common;

use shell::{Shell, Style};

/// A three-member set (`172.17.0.7` primary, `.5` and `.6` secondaries tagged by use), the
/// secondaries 10 s behind, and one document written to the primary.
fn lagging_set() -> Shell {
    let mut sh = common::shell(Style::Mongosh);
    let setup = r#"
rs.initiate({_id: "rs1", members: [
  {_id: 0, host: "172.17.0.7:27017", tags: {use: "main"}},
  {_id: 1, host: "172.17.0.5:27017", tags: {use: "main"}},
  {_id: 2, host: "172.17.0.6:27017", tags: {use: "report"}}
]});
sprout.replSet.setLag("172.17.0.5:27017", 10000);
sprout.replSet.setLag("172.17.0.6:27017", 10000);
db.getSiblingDB("monitoring").events.insertOne({_id: 1, resource: "/"}).acknowledged
"#;
    let ev = sh.eval(setup);
    assert_eq!(ev.error, None);
    assert_eq!(ev.text(), "true");
    sh
}

/// Runs Node-style `code` after the usual `require`s and returns what it printed.
fn node(sh: &mut Shell, code: &str) -> Vec<String> {
    let ev = sh.eval(&format!(
        "var mongodb = require('mongodb'); var MongoClient = mongodb.MongoClient; var ReadPreference = mongodb.ReadPreference;\n{code}"
    ));
    assert_eq!(ev.error, None, "{code}");
    ev.printed
}

/// Each read of the events collection, through a client connected with `url`/`options`: the
/// findOne, count, distinct and aggregate results on one line.
fn reads(sh: &mut Shell, url: &str, options: &str) -> String {
    let code = format!(
        r#"MongoClient.connect('{url}', {options}, function (err, db) {{
  if (err) {{ console.log(err.name + ': ' + err.message); return; }}
  var c = db.collection('events');
  c.findOne({{_id: 1}}, function (e, doc) {{
    c.count({{}}, function (e, n) {{
      c.distinct('resource', {{}}, function (e, values) {{
        c.aggregate([{{$match: {{}}}}], function (e, docs) {{
          console.log([doc === null ? 'null' : doc.resource, n, values.length, docs.length].join(' '));
        }});
      }});
    }});
  }});
}});"#
    );
    node(sh, &code).join("\n")
}

#[test]
fn the_connection_string_and_connect_options_choose_the_member() {
    let mut sh = lagging_set();
    let primary = "/ 1 1 1";
    let secondary = "null 0 0 0";
    assert_eq!(
        reads(&mut sh, "mongodb://172.17.0.7:27017/monitoring", "{}"),
        primary
    );
    assert_eq!(
        reads(
            &mut sh,
            "mongodb://172.17.0.7:27017/monitoring?readPreference=secondary",
            "{}"
        ),
        secondary
    );
    assert_eq!(
        reads(
            &mut sh,
            "mongodb://h/monitoring?replicaSet=rs1&readPreference=primaryPreferred",
            "{}"
        ),
        primary
    );
    assert_eq!(
        reads(
            &mut sh,
            "mongodb://h/monitoring",
            "{readPreference: ReadPreference.SECONDARY_PREFERRED}"
        ),
        secondary
    );
    // The options win over the connection string.
    assert_eq!(
        reads(
            &mut sh,
            "mongodb://h/monitoring?readPreference=secondary",
            "{readPreference: ReadPreference.primary}"
        ),
        primary
    );
    assert_eq!(
        reads(&mut sh, "mongodb://h/monitoring?readPreference=bogus", "{}"),
        "MongoInvalidArgumentError: Invalid read preference mode \"bogus\""
    );
    // Once the secondaries have caught up, they answer with the document too.
    assert!(sh.eval("sprout.advanceClock(11)").error.is_none());
    assert_eq!(
        reads(
            &mut sh,
            "mongodb://h/monitoring?readPreference=secondary",
            "{}"
        ),
        primary
    );
}

#[test]
fn db_collection_and_operation_options_override_the_client() {
    let mut sh = lagging_set();
    let printed = node(
        &mut sh,
        r#"var client = new MongoClient('mongodb://h/monitoring?readPreference=secondary');
client.connect(function (err, client) {
  var show = function (label) { return function (e, doc) { console.log(label + ' ' + (e ? e.message : doc === null ? 'null' : JSON.stringify(doc))); }; };
  client.db().collection('events').findOne({_id: 1}, show('client'));
  client.db('monitoring', {readPreference: 'primary'}).collection('events').findOne({_id: 1}, show('db'));
  client.db().collection('events', {readPreference: new ReadPreference('primary')}).findOne({_id: 1}, show('collection'));
  client.db().collection('events').findOne({_id: 1}, {readPreference: 'primary'}, show('findOne options'));
  client.db().collection('events').findOne({_id: 1}, {projection: {_id: 0}, readPreference: ReadPreference.PRIMARY}, show('projection and options'));
  client.db().collection('events').find({_id: 1}, {readPreference: 'primaryPreferred'}).toArray(show('find options'));
  client.db().collection('events').find({_id: 1}).setReadPreference('primary').toArray(show('setReadPreference'));
  client.db('monitoring', {readPreference: 'primary'}).collection('events').find({_id: 1}).setReadPreference(ReadPreference.secondary).toArray(show('back to secondary'));
  client.db().collection('events').count({}, {readPreference: 'primary'}, show('count'));
  client.db().collection('events').aggregate([], {readPreference: 'primary'}).toArray(function (e, docs) { console.log('aggregate ' + docs.length); });
  console.log([client.readPreference.mode, client.db().readPreference.mode, client.db().collection('events', {readPreference: 'nearest'}).readPreference.mode].join());
});"#,
    );
    assert_eq!(
        printed,
        [
            "client null",
            "db {\"_id\":1,\"resource\":\"/\"}",
            "collection {\"_id\":1,\"resource\":\"/\"}",
            "findOne options {\"_id\":1,\"resource\":\"/\"}",
            "projection and options {\"resource\":\"/\"}",
            "find options [{\"_id\":1,\"resource\":\"/\"}]",
            "setReadPreference [{\"_id\":1,\"resource\":\"/\"}]",
            "back to secondary []",
            "count 1",
            "aggregate 1",
            "secondary,secondary,nearest",
        ]
    );
}

#[test]
fn tag_sets_pick_the_member_that_serves_the_read() {
    let mut sh = lagging_set();
    let printed = node(
        &mut sh,
        r#"MongoClient.connect('mongodb://h/monitoring?readPreference=secondary&readPreferenceTags=use:report', function (err, db) {
  var c = db.collection('events');
  c.find({}).explain(function (e, x) { console.log('url tags ' + x.serverInfo.host); });
  c.find({}, {readPreference: new ReadPreference('nearest', [{use: 'main'}, {}])}).explain(function (e, x) { console.log('nearest main ' + (['172.17.0.7', '172.17.0.5'].indexOf(x.serverInfo.host) >= 0)); });
  c.find({}).setReadPreference(new ReadPreference('secondary', {use: 'main'})).explain(function (e, x) { console.log('one tag set ' + x.serverInfo.host); });
  c.find({}, {readPreference: {mode: 'secondary', tags: [{use: 'nowhere'}]}}).toArray(function (e, docs) { console.log(e.codeName + ' ' + e.code); });
});"#,
    );
    assert_eq!(
        printed,
        [
            "url tags 172.17.0.6",
            "nearest main true",
            "one tag set 172.17.0.5",
            "FailedToSatisfyReadPreference 133",
        ]
    );
}

#[test]
fn the_read_preference_class_checks_as_the_driver_does() {
    let mut sh = common::shell(Style::Mongosh);
    let printed = node(
        &mut sh,
        r#"[
  function () { return new ReadPreference('bogus'); },
  function () { return new ReadPreference('primary', [{dc: 'ny'}]); },
  function () { return new ReadPreference('primary', [], {maxStalenessSeconds: 90}); },
  function () { return new ReadPreference('secondary', [], {maxStalenessSeconds: 0}); },
  function () { return new ReadPreference('secondary', 'dc:ny'); },
  function () { MongoClient.connect('mongodb://h/t?readPreferenceTags=dc', function (e) { if (e) throw e; }); },
].forEach(function (f) { try { f(); console.log('no error'); } catch (e) { console.log(e.name + ': ' + e.message); } });
var rp = new ReadPreference('nearest', [{dc: 'ny'}], {maxStalenessSeconds: 120});
console.log(JSON.stringify(rp.toJSON()), rp.secondaryOk(), ReadPreference.primary.secondaryOk(), ReadPreference.isValid('secondary'), ReadPreference.isValid('slave'));
console.log(JSON.stringify(ReadPreference('secondary', {dc: 'ny'}).toJSON()), ReadPreference.NEAREST, ReadPreference.PRIMARY_PREFERRED);"#,
    );
    assert_eq!(
        printed,
        [
            "MongoInvalidArgumentError: Invalid read preference mode \"bogus\"",
            "MongoInvalidArgumentError: Primary read preference cannot be combined with tags",
            "MongoInvalidArgumentError: Primary read preference cannot be combined with maxStalenessSeconds",
            "MongoInvalidArgumentError: maxStalenessSeconds must be a positive integer",
            "MongoInvalidArgumentError: ReadPreference tags must be an array",
            "MongoParseError: Invalid readPreferenceTags \"dc\": expected key:value pairs",
            "{\"mode\":\"nearest\",\"tags\":[{\"dc\":\"ny\"}],\"maxStalenessSeconds\":120} true false true false",
            "{\"mode\":\"secondary\",\"tags\":[{\"dc\":\"ny\"}]} nearest primaryPreferred",
        ]
    );
    // A standalone serves every read itself, whatever the read preference.
    let printed = node(
        &mut sh,
        "MongoClient.connect('mongodb://h/t?readPreference=secondary', function (err, db) { db.collection('c').insertOne({_id: 1}, function () { db.collection('c').findOne({}, function (e, doc) { console.log(JSON.stringify(doc)); }); }); });",
    );
    assert_eq!(printed, ["{\"_id\":1}"]);
}
