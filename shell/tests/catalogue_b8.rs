//! Book B, chapter 8: the Node.js `app.js` listings (B8-C11, C14, C20) run through the shell's
//! driver shim, with the console lines the book shows (B8-C12, C15, C21) and the documents they
//! leave. Errata applied in the input: B8-C11's URL string gets its missing closing quote.
//! The engine clock is 2015-04-04T12:00:00Z (UTC), so "today" is 2015-04-04T00:00:00Z and the
//! minute of the day is 720.

mod common;

use shell::Style;

const PRELUDE: &str = r#"var fs = require('fs');
var util = require('util');
var mongo = require('mongodb').MongoClient;
var assert = require('assert');
"#;

const C11: &str = r#"
var url = 'mongodb://127.0.0.1:27017/monitoring';
var today = new Date();
today.setHours(0, 0, 0, 0);

var logDailyHit = function(db, resource, callback){
  var collection = db.collection('events');
  collection.update({resource: resource, date: today},
    {$inc : {daily: 1}}, {upsert: true},
    function(error, result){
      assert.equal(error, null);
      assert.equal(1, result.result.n);
      console.log("Daily Hit logged");
      callback(result);
  });
}

var logMinuteHit = function(db, resource, callback) {
  var collection = db.collection('events');
  var currentDate = new Date();
  var minute = currentDate.getMinutes();
  var hour = currentDate.getHours();
  var minuteOfDay = minute + (hour * 60);
  var minuteField = util.format('minute.%s', minuteOfDay);
  var update = {};
  var inc = {};
  inc[minuteField] = 1;
  update['$inc'] = inc;
  collection.update({resource: resource, date: today},
    update, {upsert: true}, function(error, result){
      assert.equal(error, null);
      assert.equal(1, result.result.n);
      console.log("Minute Hit logged");
      callback(result);
  });
}

mongo.connect(url, function(err, db) {
  assert.equal(null, err);
  console.log("Connected to server");
  var resource = "/";
  logDailyHit(db, resource, function() {
    logMinuteHit(db, resource, function(){
      db.close();
      console.log("Disconnected from server")
      });
    });
});
"#;

const C14: &str = r#"
var url = 'mongodb://127.0.0.1:27017/monitoring';
var preAllocate = function(db, resource, callback){
 var collection = db.collection('events');
 var now = new Date();
 now.setHours(0,0,0,0);
 var minuteDoc = {};
 for(i = 0; i < 1440; i++){
 minuteDoc[i] = 0;
 }
 collection.update(
 {resource: resource,
 date: now,
 daily: 0},
 {$set: {minute: minuteDoc}},
 {upsert: true}, function(error, result){
 assert.equal(error, null);
 assert.equal(1, result.result.n);
 console.log("Pre-allocated successfully!");
 callback(result);
 });
}
mongo.connect(url, function(err, db) {
 assert.equal(null, err);
 console.log("Connected to server");
 var resource = "/";
 preAllocate(db, resource, function(){
 db.close();
 console.log("Disconnected from server")
 });
});
"#;

const C20: &str = r#"
var url = 'mongodb://127.0.0.1:27017/monitoring';
var getCurrentDayhitStats = function(db, resource, callback){
  var collection = db.collection('events');
  var now = new Date();
  now.setHours(0,0,0,0);
  collection.findOne({resource: "/", date: now},
    {daily: 1}, function(err, doc) {
    assert.equal(err, null);
    console.log("Document found.");
    console.dir(doc);
    callback(doc);
  });
}
var getCurrentMinuteStats = function(db, resource, callback){
  var collection = db.collection('events');
  var now = new Date();
  var hour = now.getHours()
  var minute = now.getMinutes();
  var minuteOfDay = minute + (hour * 60);
  var minuteField = util.format('minute.%s', minuteOfDay);
  now.setHours(0, 0, 0, 0);
  var project = {};
  project[minuteField] = 1;
  collection.findOne({resource: "/", date: now},
    project, function(err, doc) {
    assert.equal(err, null);
    console.log("Document found.");
    console.dir(doc);
    callback(doc);
  });
}
mongo.connect(url, function(err, db) {
  assert.equal(null, err);
  console.log("Connected to server");
  var resource = "/";
  getCurrentDayhitStats(db, resource, function(){
    getCurrentMinuteStats(db, resource, function(){
      db.close();
      console.log("Disconnected from server");
    });
  });
});
"#;

#[test]
fn app_js_v1_logs_a_hit() {
    let mut sh = common::shell(Style::Mongosh);
    let ev = sh.eval(&format!("{PRELUDE}{C11}"));
    assert_eq!(ev.error, None);
    assert_eq!(
        ev.printed,
        [
            "Connected to server",
            "Daily Hit logged",
            "Minute Hit logged",
            "Disconnected from server"
        ]
    );
    assert!(sh.eval("use monitoring").error.is_none());
    // The upsert seeds the equality fields in the engine's order (alphabetical, as B8-D6 shows).
    assert_eq!(
        sh.eval("db.events.findOne({}, {_id: 0})").text(),
        "{\n  date: ISODate('2015-04-04T00:00:00.000Z'),\n  resource: '/',\n  daily: 1,\n  minute: { '720': 1 }\n}"
    );
}

#[test]
fn app_js_v2_preallocates_and_v3_reads() {
    let mut sh = common::shell(Style::Mongosh);
    let ev = sh.eval(&format!("{PRELUDE}{C14}"));
    assert_eq!(ev.error, None);
    assert_eq!(
        ev.printed,
        [
            "Connected to server",
            "Pre-allocated successfully!",
            "Disconnected from server"
        ]
    );
    assert!(sh.eval("use monitoring").error.is_none());
    assert_eq!(
        sh.eval("var d = db.events.findOne(); [Object.keys(d).join(), Object.keys(d.minute).length, d.minute['1439']]").text(),
        "[ '_id,daily,date,resource,minute', 1440, 0 ]"
    );
    // Log 3 hits in minute 720 and read them back as B8-C21 does.
    assert!(
        sh.eval("db.events.update({resource: '/'}, {$inc: {daily: 3, 'minute.720': 3}})")
            .error
            .is_none()
    );
    let ev = sh.eval(&format!("{PRELUDE}{C20}"));
    assert_eq!(ev.error, None);
    let id = sh.eval("db.events.findOne()._id.str").text();
    assert_eq!(
        ev.printed,
        [
            "Connected to server".to_string(),
            "Document found.".to_string(),
            format!("{{ _id: ObjectId('{id}'), daily: 3 }}"),
            "Document found.".to_string(),
            format!("{{ _id: ObjectId('{id}'), minute: {{ '720': 3 }} }}"),
            "Disconnected from server".to_string(),
        ]
    );
}
