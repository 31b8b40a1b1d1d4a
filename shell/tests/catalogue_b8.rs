//! Book B, chapter 8: the Node.js `app.js` listings (B8-C11, C14, C20) run through the shell's
//! driver shim, with the console lines the book shows (B8-C12, C15, C21) and the documents they
//! leave. Errata applied in the input: B8-C11's URL string gets its missing closing quote.
//! The engine clock is 2015-04-04T12:00:00Z (UTC), so "today" is 2015-04-04T00:00:00Z and the
//! minute of the day is 720.

pub mod common;

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
pub fn app_js_v1_logs_a_hit() {
    let mut sh = common::shell(Style::Mongosh);
    let ev = sh.eval(&format!("{PRELUDE}{C11}"));
    assert_eq!(ev.error, None, "B8-C11");
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

/// The day's document pre-allocated (B8-C14, with B8-C15's console lines), then read back by
/// B8-C20 at 03:03 (minute 183) after 27,450 hits of which 142 in that minute: B8-C21's figures.
#[test]
pub fn app_js_v2_preallocates_and_v3_reads() {
    let three_past_three = common::START_MILLIS - 12 * 3_600_000 + 183 * 60_000;
    let mut sh = common::shell_at(Style::Mongosh, three_past_three);
    let ev = sh.eval(&format!("{PRELUDE}{C14}"));
    assert_eq!(ev.error, None, "B8-C14");
    assert_eq!(
        ev.printed,
        [
            "Connected to server",
            "Pre-allocated successfully!",
            "Disconnected from server"
        ],
        "B8-C15"
    );
    assert!(sh.eval("use monitoring").error.is_none());
    assert_eq!(
        sh.eval("var d = db.events.findOne(); [Object.keys(d).join(), Object.keys(d.minute).length, d.minute['1439']]").text(),
        "[ '_id,daily,date,resource,minute', 1440, 0 ]"
    );
    assert!(
        sh.eval("db.events.update({resource: '/'}, {$inc: {daily: 27450, 'minute.183': 142}})")
            .error
            .is_none()
    );
    let ev = sh.eval(&format!("{PRELUDE}{C20}"));
    assert_eq!(ev.error, None, "B8-C20");
    let id = sh.eval("db.events.findOne()._id.str").text();
    assert_eq!(
        ev.printed,
        [
            "Connected to server".to_string(),
            "Document found.".to_string(),
            format!("{{ _id: ObjectId('{id}'), daily: 27450 }}"),
            "Document found.".to_string(),
            format!("{{ _id: ObjectId('{id}'), minute: {{ '183': 142 }} }}"),
            "Disconnected from server".to_string(),
        ],
        "B8-C21"
    );
}

/// The rest of the 2.0 driver's callback API a chapter 8 reader reaches for: count, the
/// throughput pipeline of B8-C9 through `aggregate(pipeline, cb)` and
/// `aggregate(pipeline).toArray(cb)`, createIndex/ensureIndex (B8-C19's and B8-C17's keys on
/// `events`, errata E40) and remove, each with a callback. Events: the book's 5,201 / 1,332 /
/// 3,512 hits per resource, so the throughputs are the book's (B8-C9's output).
#[test]
pub fn driver_count_aggregate_indexes_and_remove_with_callbacks() {
    let mut sh = common::shell(Style::Mongosh);
    let listing = r#"
var url = 'mongodb://127.0.0.1:27017/monitoring';
var throughput = [
  {$group: {_id: "$resource", hits: {$sum: 1}}},
  {$project: {_id: 0, resource: "$_id", throughput: {$divide: ["$hits", 1440]}}},
  {$sort: {throughput: -1}}
];
mongo.connect(url, function(err, db) {
  assert.equal(null, err);
  var collection = db.collection('events');
  var events = [];
  [['/', 5201], ['/legal/faq', 1332], ['/legal/terms', 3512]].forEach(function (r) {
    for (var i = 0; i < r[1]; i++) events.push({resource: r[0]});
  });
  collection.insert(events, function(err, result) {
    assert.equal(err, null);
    console.log("Inserted " + result.result.n);
    collection.count(function(err, n) {
      console.log("Events: " + n);
      collection.count({resource: "/"}, function(err, n) {
        console.log("Hits on /: " + n);
        collection.aggregate(throughput, function(err, docs) {
          assert.equal(err, null);
          docs.forEach(function (d) { console.log(d.resource + " " + d.throughput); });
          collection.aggregate(throughput).toArray(function(err, docs) {
            console.log("toArray: " + docs.length);
            collection.createIndex({resource: 1, date: 1}, function(err, name) {
              console.log("Index " + name);
              collection.ensureIndex({date: 1}, {expireAfterSeconds: 31556926}, function(err, name) {
                console.log("Index " + name);
                collection.remove({resource: "/legal/faq"}, function(err, result) {
                  console.log("Removed " + result.result.n);
                  db.close();
                });
              });
            });
          });
        });
      });
    });
  });
});
"#;
    let ev = sh.eval(&format!("{PRELUDE}{listing}"));
    assert_eq!(ev.error, None);
    assert_eq!(
        ev.printed,
        [
            "Inserted 10045",
            "Events: 10045",
            "Hits on /: 5201",
            "/ 3.6118055555555557",
            "/legal/terms 2.438888888888889",
            "/legal/faq 0.925",
            "toArray: 3",
            "Index resource_1_date_1",
            "Index date_1",
            "Removed 1332",
        ]
    );
    sh.eval("use monitoring");
    assert_eq!(
        sh.eval("db.events.getIndexes().map(function (i) { return i.name + (i.expireAfterSeconds ? ':' + i.expireAfterSeconds : '') }).join()").text(),
        "_id_,resource_1_date_1,date_1:31556926"
    );
    // Without a callback the driver answers with promises; an error reaches the callback.
    let ev = sh.eval(&format!(
        "{PRELUDE}require('mongodb').MongoClient.connect('mongodb://h/monitoring', function (e, db) {{ db.collection('events').aggregate([{{$bogus: 1}}], function (err, docs) {{ console.log(err.codeName + ' ' + (docs === undefined)); }}); }});"
    ));
    assert_eq!(ev.printed, ["Location40324 true"]);
}

/// The chapter's shell commands on events that reproduce the book's figures: 5,201 / 1,332 /
/// 3,512 hits per resource (B8-C7), and per-minute counts of 50, 13 and 26 at 04:48, 04:38 and
/// 04:17 on 2015-03-30 (B8-C5's three groups shown). `$group` output order is unspecified, so
/// the rows sort or pick groups. Errata: B8-C8/C9 query `db.documents` (E38) — run as printed
/// (an empty collection, so no result) and on `events`; B8-C17/C19 use `db.monitoring` (E40),
/// which names a collection called `monitoring`, not the database: run as printed and on
/// `events`.
#[test]
pub fn shell_pipelines_and_indexes_of_chapter_8() {
    let mut sh = common::shell(Style::Mongosh);
    sh.eval("use monitoring");
    let setup = r#"
var docs = [];
var minutes = [[48, 50], [38, 13], [17, 26]];
minutes.forEach(function (m) {
  for (var i = 0; i < m[1]; i++) docs.push({resource: '/', date_created: new Date(Date.UTC(2015, 2, 30, 4, m[0], i % 60))});
});
[['/', 5201 - 89], ['/legal/faq', 1332], ['/legal/terms', 3512]].forEach(function (r) {
  for (var i = 0; i < r[1]; i++) docs.push({resource: r[0], date_created: new Date(Date.UTC(2015, 2, 30, 5, i % 60, 0))});
});
db.events.insertMany(docs).acknowledged
"#;
    assert_eq!(sh.eval(setup).text(), "true");
    let per_minute = "db.events.aggregate(\n{\n $group: {\n _id: {\n request_time: {\n month: {\n $month: \"$date_created\"\n },\n day: {\n $dayOfMonth: \"$date_created\"\n },\n year: {\n $year: \"$date_created\"\n },\n hour: {\n $hour: \"$date_created\"\n },\n min: {\n $minute: \"$date_created\"\n }\n }\n },\n count: {\n $sum: 1\n }\n }\n})";
    let throughput = "[\n {\n $group: {\n _id: \"$resource\",\n hits: {\n $sum: 1\n }\n }\n },\n {\n $project: {\n _id: 0,\n resource: \"$_id\",\n throughput: {\n $divide: [\n \"$hits\",\n 1440\n ]\n }\n }\n },\n {\n $sort: {\n throughput: -1\n }\n }\n]";
    let rows: Vec<(&str, String, &str)> = vec![
        ("B8-C4", "db.events.find({}).count()".into(), "10045"),
        (
            "B8-C5",
            format!("var g = ({per_minute}).toArray(); [48, 38, 17].map(function (m) {{ var x = g.filter(function (d) {{ return d._id.request_time.hour == 4 && d._id.request_time.min == m }})[0]; return JSON.stringify(x._id.request_time) + ' ' + x.count }}).join(' | ')"),
            "{\"month\":3,\"day\":30,\"year\":2015,\"hour\":4,\"min\":48} 50 | {\"month\":3,\"day\":30,\"year\":2015,\"hour\":4,\"min\":38} 13 | {\"month\":3,\"day\":30,\"year\":2015,\"hour\":4,\"min\":17} 26",
        ),
        (
            "B8-C7",
            "db.events.aggregate([{$group: {_id: \"$resource\", hits: {$sum: 1}}}]).toArray().sort(function (a, b) { return a._id < b._id ? -1 : 1 }).map(function (d) { return d._id + ' ' + d.hits }).join()".into(),
            "/ 5201,/legal/faq 1332,/legal/terms 3512",
        ),
        ("B8-C8", "db.documents.aggregate([{$group: {_id: \"$resource\", hits: {$sum: 1}}}, {$project: {_id: 0, resource: \"$_id\", throughput: {$divide: [\"$hits\", 1440]}}}])".into(), ""),
        (
            "B8-C8",
            "db.events.aggregate([{$group: {_id: \"$resource\", hits: {$sum: 1}}}, {$project: {_id: 0, resource: \"$_id\", throughput: {$divide: [\"$hits\", 1440]}}}]).toArray().length".into(),
            "3",
        ),
        (
            "B8-C6",
            format!("db.events.aggregate({throughput})"),
            "[\n  { resource: '/', throughput: 3.6118055555555557 },\n  { resource: '/legal/terms', throughput: 2.438888888888889 },\n  { resource: '/legal/faq', throughput: 0.925 }\n]",
        ),
        (
            "B8-C9",
            format!("db.documents.aggregate({throughput}).toArray().length + ' ' + db.events.aggregate({throughput}).toArray().length"),
            "0 3",
        ),
        (
            "B8-C17",
            "db.monitoring.createIndex({date: 1}, {expireAfterSeconds: 31556926})".into(),
            "date_1",
        ),
        (
            "B8-C17",
            "db.events.createIndex({date_created: 1}, {expireAfterSeconds: 31556926})".into(),
            "date_created_1",
        ),
        (
            "B8-C19",
            "db.monitoring.createIndex({resource: 1, date: 1})".into(),
            "resource_1_date_1",
        ),
        (
            "B8-C19",
            "db.getCollectionNames().join()".into(),
            "events,monitoring",
        ),
    ];
    let rows: Vec<(&str, &str, &str)> = rows.iter().map(|(a, b, c)| (*a, b.as_str(), *c)).collect();
    common::assert_rows(&mut sh, &rows);
}

/// B8-C12 run 383 times from 00:00 on 2015-04-04: 90 runs in minute 0, 150 in minute 1 and 143
/// in minute 2 leave the hits B8-D5 shows (daily 383), which B8-C13's `findOne` prints. The
/// book's author is at UTC−3 (its `date` is 03:00Z); the engine clock is UTC. The upsert seeds
/// its equality fields in MongoDB's order (`date` before `resource`, as B8-D6 shows).
#[test]
pub fn app_js_v1_run_383_times_then_find_one() {
    let midnight = common::START_MILLIS - 12 * 3_600_000;
    let mut sh = common::shell_at(Style::Mongosh, midnight);
    let app = format!("{PRELUDE}{C11}");
    for (minute, runs) in [(0, 90), (1, 150), (2, 143)] {
        for run in 0..runs {
            let ev = sh.eval(&app);
            assert_eq!(ev.error, None, "B8-C12 run {run} in minute {minute}");
        }
        assert!(sh.eval("sprout.advanceClock(60)").error.is_none());
    }
    sh.eval("use monitoring");
    assert_eq!(sh.eval("db.events.countDocuments()").text(), "1");
    let id = sh.eval("db.events.findOne()._id.str").text();
    assert_eq!(
        sh.eval("db.events.findOne()").text(),
        format!(
            "{{\n  _id: ObjectId('{id}'),\n  date: ISODate('2015-04-04T00:00:00.000Z'),\n  resource: '/',\n  daily: 383,\n  minute: {{ '0': 90, '1': 150, '2': 143 }}\n}}"
        ),
        "B8-C13"
    );
}

/// B8-C16: the pre-allocated document (B8-D6) as the shell prints it: `_id`, the upsert's
/// equality fields in order, then the 1,440 minutes, one per line.
#[test]
pub fn find_one_after_preallocation() {
    let mut sh = common::shell(Style::Mongosh);
    assert_eq!(sh.eval(&format!("{PRELUDE}{C14}")).error, None);
    sh.eval("use monitoring");
    let id = sh.eval("db.events.findOne()._id.str").text();
    let minutes: Vec<String> = (0..1440).map(|m| format!("    '{m}': 0")).collect();
    let expected = format!(
        "{{\n  _id: ObjectId('{id}'),\n  daily: 0,\n  date: ISODate('2015-04-04T00:00:00.000Z'),\n  resource: '/',\n  minute: {{\n{}\n  }}\n}}",
        minutes.join(",\n")
    );
    assert_eq!(sh.eval("db.events.findOne();").text(), expected, "B8-C16");
}

const C22: &str = r#"
var url = 'mongodb://127.0.0.1:27017/monitoring';

var getAverageRequestPerMinuteStats = function(db, resource, callback){
  var collection = db.collection('events');
  var now = new Date();
  var hour = now.getHours()
  var minute = now.getMinutes();
  var minuteOfDay = minute + (hour * 60);
  now.setHours(0, 0, 0, 0);
  collection.findOne({resource: resource, date: now},
    {daily: 1}, function(err, doc) {
    assert.equal(err, null);
    console.log("The avg rpm is: "+doc.daily / minuteOfDay);
    console.dir(doc);
    callback(doc);
  });
}

var getBetweenDatesDailyStats = function(db, resource, dtFrom, dtTo, callback){
  var collection = db.collection('events');
  dtFrom.setHours(0,0,0,0);
  dtTo.setHours(0,0,0,0);
  collection.find({date:{$gte: dtFrom, $lte: dtTo}, resource: resource},
  {date: 1, daily: 1},{sort: [['date', 1]]}).toArray(function(err, docs) {
    assert.equal(err, null);
    console.log("Documents founded.");
    console.dir(docs);
    callback(docs);
  });
}

mongo.connect(url, function(err, db) {
  assert.equal(null, err);
  console.log("Connected to server");
  var resource = "/";
  getAverageRequestPerMinuteStats(db, resource, function(){
    var now = new Date();
    var yesterday = new Date(now.getTime());
    yesterday.setDate(now.getDate() -1);
    getBetweenDatesDailyStats(db, resource, yesterday, now, function(){
      db.close();
      console.log("Disconnected from server");
    });

  });
});
"#;

/// B8-C22 (`app.js` v4; the book shows no output) on a week of per-day documents for three
/// resources, inserted in shuffled order with numbered `_id`s. The expected lines are computed
/// here from the generated data: today's (2015-04-04) daily hits on "/" over the minute of the
/// day (720 at 12:00), then yesterday's and today's documents of "/" by date, `_id`, `date`
/// and `daily` only.
#[test]
pub fn app_js_v4_average_rpm_and_between_dates() {
    const RESOURCES: [&str; 3] = ["/", "/legal/faq", "/legal/terms"];
    let day_ms = 86_400_000_i64;
    let today = common::START_MILLIS - 12 * 3_600_000;
    // (id, resource, day offset from today, daily hits)
    let mut events: Vec<(i32, &str, i64, i64)> = Vec::new();
    for (r, resource) in RESOURCES.iter().enumerate() {
        for back in 0..7_i64 {
            let id = (r as i32) * 10 + back as i32 + 1;
            events.push((
                id,
                resource,
                -back,
                20_000 + 3_517 * back + 7_919 * r as i64,
            ));
        }
    }
    // Not in date order, so the sort has work to do.
    events.sort_by_key(|e| (e.0 * 7919) % 23);
    let iso = |millis: i64| {
        bson::DateTime::from_millis(millis)
            .try_to_rfc3339_string()
            .unwrap()
            .replace('Z', ".000Z")
    };
    let docs: Vec<String> = events
        .iter()
        .map(|(id, res, off, daily)| {
            format!(
                "{{_id: {id}, resource: '{res}', date: ISODate('{}'), daily: {daily}, minute: {{'0': {}}}}}",
                iso(today + off * day_ms),
                daily % 97
            )
        })
        .collect();
    let mut sh = common::shell(Style::Mongosh);
    sh.eval("use monitoring");
    let ev = sh.eval(&format!(
        "db.events.insertMany([{}]).acknowledged",
        docs.join(",\n")
    ));
    assert_eq!(ev.text(), "true");

    let today_root = events
        .iter()
        .find(|e| e.1 == "/" && e.2 == 0)
        .expect("today's '/' document");
    let minute_of_day = 12 * 60;
    let avg = today_root.3 as f64 / minute_of_day as f64;
    let mut between: Vec<&(i32, &str, i64, i64)> = events
        .iter()
        .filter(|e| e.1 == "/" && (-1..=0).contains(&e.2))
        .collect();
    between.sort_by_key(|e| e.2);
    let listed: Vec<String> = between
        .iter()
        .map(|(id, _, off, daily)| {
            format!(
                "  {{ _id: {id}, date: ISODate('{}'), daily: {daily} }}",
                iso(today + off * day_ms)
            )
        })
        .collect();
    let ev = sh.eval(&format!("{PRELUDE}{C22}"));
    assert_eq!(ev.error, None, "B8-C22");
    assert_eq!(
        ev.printed,
        [
            "Connected to server".to_string(),
            format!("The avg rpm is: {avg}"),
            format!("{{ _id: {}, daily: {} }}", today_root.0, today_root.3),
            "Documents founded.".to_string(),
            format!("[\n{}\n]", listed.join(",\n")),
            "Disconnected from server".to_string(),
        ],
        "B8-C22"
    );
}

/// B0-C1 and B0-C2, the preface's fragments of B8-C11, inside the smallest wrapper that runs
/// them: B0-C1 is the body of `logDailyHit`, B0-C2 the first ten lines of `logMinuteHit`
/// (completed with the rest of that function from B8-C11). Each leaves its hit in `events`.
#[test]
pub fn preface_fragments_of_app_js() {
    let b0_c1 = r#"  collection.update({resource: resource, date: today},
    {$inc : {daily: 1}}, {upsert: true},
    function(error, result){
      assert.equal(error, null);
      assert.equal(1, result.result.n);
      console.log("Daily Hit logged");
      callback(result);
  });"#;
    let b0_c2 = r#"var logMinuteHit = function(db, resource, callback) {
 // Get the events collection
  var collection = db.collection('events');
 // Get current minute to update
  var currentDate = new Date();
  var minute = currentDate.getMinutes();
  var hour = currentDate.getHours();
 // We calculate the minute of the day
  var minuteOfDay = minute + (hour * 60);
  var minuteField = util.format('minute.%s', minuteOfDay);"#;
    let rest_of_log_minute_hit = r#"
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
}"#;
    let wrapper = |body: &str| {
        format!(
            "{PRELUDE}var today = new Date();\ntoday.setHours(0, 0, 0, 0);\n\
             mongo.connect('mongodb://127.0.0.1:27017/monitoring', function (err, db) {{\n\
             var collection = db.collection('events');\nvar resource = '/';\n\
             var callback = function (result) {{ console.log('n: ' + result.result.n); }};\n\
             {body}\n}});"
        )
    };
    let mut sh = common::shell(Style::Mongosh);
    let ev = sh.eval(&wrapper(b0_c1));
    assert_eq!(ev.error, None, "B0-C1");
    assert_eq!(ev.printed, ["Daily Hit logged", "n: 1"], "B0-C1");
    let ev = sh.eval(&wrapper(&format!(
        "{b0_c2}{rest_of_log_minute_hit}\nlogMinuteHit(db, resource, callback);"
    )));
    assert_eq!(ev.error, None, "B0-C2");
    assert_eq!(ev.printed, ["Minute Hit logged", "n: 1"], "B0-C2");
    sh.eval("use monitoring");
    assert_eq!(
        sh.eval("db.events.find({}, {_id: 0}).toArray()").text(),
        "[\n  {\n    date: ISODate('2015-04-04T00:00:00.000Z'),\n    resource: '/',\n    daily: 1,\n    minute: { '720': 1 }\n  }\n]"
    );
}

/// B8-C18 on the simulated sharded cluster, as the book shows it: `monitoring.events` sharded on
/// `{resource: 1, date: 1}` while still empty (MongoDB creates the shard key's index itself).
/// Then the order B8-C19 asks for on a collection that already holds documents: the same call
/// is refused until the index exists (on `events`, errata E40). With the key range split at
/// `/legal` and the upper chunk on the second shard, a report on one page (B8-C22's query)
/// targets one shard and a query on the date alone asks both. B8-C14 and B8-C20 run through
/// the router unchanged.
#[test]
pub fn shard_key_of_chapter_8() {
    let mut sh = common::shell(Style::Mongosh);
    let rows: Vec<(&str, String, &str)> = vec![
        ("B8-C18", "var st = new ShardingTest({shards: 2})".into(), ""),
        (
            "B8-C18",
            "sh.shardCollection(\"monitoring.events\", {resource: 1, date: 1})".into(),
            "{ collectionsharded: 'monitoring.events', ok: 1 }",
        ),
        ("B8-C18", "use monitoring".into(), "switched to db monitoring"),
        (
            "B8-C18",
            "db.events.getIndexes().map(i => i.name).join()".into(),
            "_id_,resource_1_date_1",
        ),
        (
            "B8-C14",
            format!(
                "{PRELUDE}{}",
                C14.replace("var resource = \"/\";", "var resource = '/legal/terms';")
            ),
            "Connected to server\nPre-allocated successfully!\nDisconnected from server",
        ),
        (
            "B8-C18",
            "db.events.insertOne({resource: '/legal/terms', date: ISODate('2015-04-03T00:00:00Z'), daily: 3512}); sh.splitAt('monitoring.events', {resource: '/legal', date: MinKey()}); sh.moveChunk('monitoring.events', {resource: '/legal/terms', date: MinKey()}, 'shard0001').ok".into(),
            "1",
        ),
        (
            "B8-C22",
            "db.events.find({date: {$gte: ISODate('2015-04-03T00:00:00Z'), $lte: ISODate('2015-04-04T00:00:00Z')}, resource: '/legal/terms'}).explain().queryPlanner.winningPlan.stage".into(),
            "SINGLE_SHARD",
        ),
        (
            "B8-C18",
            "db.events.find({date: ISODate('2015-04-03T00:00:00Z')}).explain().queryPlanner.winningPlan.stage".into(),
            "SHARD_MERGE",
        ),
        (
            "B8-C18",
            "db.events.find({}, {_id: 0, resource: 1, daily: 1}).sort({date: 1}).toArray().map(d => d.resource + ' ' + d.daily).join()".into(),
            "/legal/terms 3512,/legal/terms 0",
        ),
        // B8-C19 first on a collection that already has documents.
        (
            "B8-C19",
            "db.pages.insertOne({resource: '/', date: ISODate('2015-04-04T00:00:00Z'), daily: 1}); sh.shardCollection('monitoring.pages', {resource: 1, date: 1})".into(),
            "MongoServerError[InvalidOptions]: Please create an index that starts with the proposed shard key before sharding the collection. ",
        ),
        (
            "B8-C19",
            "db.pages.createIndex({resource: 1, date: 1})".into(),
            "resource_1_date_1",
        ),
        (
            "B8-C19",
            "sh.shardCollection('monitoring.pages', {resource: 1, date: 1})".into(),
            "{ collectionsharded: 'monitoring.pages', ok: 1 }",
        ),
    ];
    let rows: Vec<(&str, &str, &str)> = rows.iter().map(|(a, b, c)| (*a, b.as_str(), *c)).collect();
    common::assert_rows(&mut sh, &rows);
    // B8-C20's reads through the router: the pre-allocated day of /legal/terms has no hits yet.
    let ev = sh.eval(&format!(
        "{PRELUDE}mongo.connect('mongodb://127.0.0.1:27017/monitoring', function (err, db) {{ db.collection('events').findOne({{resource: '/legal/terms', date: ISODate('2015-04-04T00:00:00Z')}}, {{_id: 0, daily: 1, 'minute.183': 1}}, function (err, doc) {{ console.dir(doc); db.close(); }}); }});"
    ));
    assert_eq!(ev.error, None, "B8-C20");
    assert_eq!(ev.printed, ["{ daily: 0, minute: { '183': 0 } }"], "B8-C20");
}
