//! Book A (tip #10) and book B chapter 2 snippets through `Shell::eval` (legacy style), checked
//! against MongoDB's results. Placeholders get the values the catalogue presumes (`criteria` =
//! `{"_id": 123}`); errata applied in the input: A-C14's `/* other criteria */,` is dropped and
//! its `db.fruit` [sic] is run as `db.food`. 9 snippets run: A-C11, C12, C13, C14 and B2-C1..C4
//! (C4 twice, as the catalogue's derived check does).

pub mod common;

use shell::Style;

fn run(sh: &mut shell::Shell, input: &str) -> String {
    let ev = sh.eval(input);
    assert!(!ev.incomplete, "incomplete: {input}");
    ev.text()
}

#[test]
pub fn book_a_tip_10_counters_and_locking() {
    let mut sh = common::shell(Style::Legacy);
    run(
        &mut sh,
        r#"db.food.insert({"_id" : 123, "apples" : 10, "oranges" : 5, "total" : 15})"#,
    );
    run(&mut sh, r#"var criteria = {"_id" : 123}"#);
    // A-C11, entered over two lines as the book shows.
    let ev = sh.eval("db.food.update(criteria, ");
    assert!(ev.incomplete);
    assert_eq!(
        run(
            &mut sh,
            "db.food.update(criteria, \n{\"$inc\" : {\"apples\" : 10, \"oranges\" : -2, \"total\" : 8}})"
        ),
        r#"WriteResult({ "nMatched" : 1, "nUpserted" : 0, "nModified" : 1 })"#,
        "A-C11"
    );
    // A-C12: the book's shown output.
    assert_eq!(
        run(&mut sh, "tojsononeline(db.food.findOne())"),
        r#"{ "_id" : 123, "apples" : 20, "oranges" : 3, "total" : 23 }"#,
        "A-C12"
    );
    // A-C13
    assert_eq!(
        run(
            &mut sh,
            r#"db.food.update({"_id" : 123}, {"$inc" : {"banana" : 3, "total" : 1}})"#
        ),
        r#"WriteResult({ "nMatched" : 1, "nUpserted" : 0, "nModified" : 1 })"#,
        "A-C13"
    );
    assert_eq!(
        run(
            &mut sh,
            "db.food.findOne().banana + ',' + db.food.findOne().total"
        ),
        "3,24"
    );
    // A-C14
    run(
        &mut sh,
        r#"db.food.update(criteria, {"$set" : {"locked" : false}})"#,
    );
    let c14 = "var result = db.runCommand({\"findAndModify\" : \"food\", \n\"query\" : {\"locked\" : false},\n\"update\" : {\"$set\" : {\"locked\" : true}}})\n\nif (\"banana\" in result.value) {\n  db.food.update(criteria, {\"$set\" : {\"locked\" : false}, \n      \"$inc\" : {\"banana\" : 3}})\n} else {\n  // increment total if banana field doesn\"t exist yet\n  db.food.update(criteria, {\"$set\" : {\"locked\" : false}, \n      \"$inc\" : {\"banana\" : 3, \"total\" : 1}})\n} ";
    assert_eq!(
        run(&mut sh, c14),
        r#"WriteResult({ "nMatched" : 1, "nUpserted" : 0, "nModified" : 1 })"#,
        "A-C14"
    );
    assert_eq!(
        run(&mut sh, "tojsononeline(db.food.findOne())"),
        r#"{ "_id" : 123, "apples" : 20, "oranges" : 3, "total" : 24, "banana" : 6, "locked" : false }"#
    );
}

#[test]
pub fn book_b_chapter_2_sequences() {
    let mut sh = common::shell(Style::Legacy);
    // B2-C1
    assert_eq!(
        run(
            &mut sh,
            "db.counters.insert(\n {\n _id: \"userid\",\n seq: 0\n }\n)"
        ),
        r#"WriteResult({ "nInserted" : 1 })"#,
        "B2-C1"
    );
    // B2-C2
    assert_eq!(
        run(
            &mut sh,
            "function getNextSequence(name) {\n var ret = db.counters.findAndModify(\n {\n query: { _id: name },\n update: { $inc: { seq: 1 } },\n new: true\n }\n );\n return ret.seq;\n}"
        ),
        "",
        "B2-C2"
    );
    // B2-C3
    assert_eq!(
        run(
            &mut sh,
            "db.users.insert(\n {\n _id: getNextSequence(\"userid\"),\n name: \"Sarah C.\"\n }\n)"
        ),
        r#"WriteResult({ "nInserted" : 1 })"#,
        "B2-C3"
    );
    assert_eq!(
        run(&mut sh, "tojsononeline(db.counters.findOne())"),
        r#"{ "_id" : "userid", "seq" : 1 }"#
    );
    assert_eq!(
        run(&mut sh, "tojsononeline(db.users.findOne())"),
        r#"{ "_id" : 1, "name" : "Sarah C." }"#
    );
    // B2-C4
    let c4 = "function insertDocument(doc, targetCollection) {\n    while (1) {\n        var cursor = targetCollection.find( {}, { _id: 1 } ).sort( { _id: -1 } ).limit(1);\n        var seq = cursor.hasNext() ? cursor.next()._id + 1 : 1;\n        doc._id = seq;\n        var results = targetCollection.insert(doc);\n        if( results.hasWriteError() ) {\n            if( results.writeError.code == 11000 /* dup key */ )\n                continue;\n            else\n                print( \"unexpected error inserting data: \" + tojson( results ) );\n        }\n        break;\n    }\n}";
    assert_eq!(run(&mut sh, c4), "", "B2-C4");
    run(
        &mut sh,
        "insertDocument({x: 1}, db.t); insertDocument({x: 2}, db.t)",
    );
    assert_eq!(
        run(
            &mut sh,
            "db.t.find().sort({_id: 1}).map(function (d) { return d._id + ':' + d.x }).join()"
        ),
        "1:1,2:2",
        "B2-C4"
    );
}

/// Book A's remaining shell snippets (A-C1 to C10, C15, C16). Their placeholders get values
/// (`someTag`, `authorName`, `id`, `latestDateSeen`, `pageId`, `thisHour`, `collection`,
/// `someLongString`) over posts, authors, pages, characters and members the tips describe but
/// do not show (catalogue Part F). Errata applied in the input: A-C8's `/* other fields */,` is
/// dropped (E4); A-C7 runs as written (`visits.0.0` makes a field "0", E3) and as meant
/// (`visits.minutes.0.0`).
#[test]
pub fn book_a_queries_updates_and_where() {
    let mut sh = common::shell(Style::Legacy);
    for seed in [
        common::PLAN_HELPERS,
        // 25 blog posts, dated 1..25; every other one tagged "mongodb"; threads of the
        // image board alternate between "t1" and "t2".
        "for (var i = 1; i <= 25; i++) db.posts.insert({title: 'Post ' + i, author: 'Ann', slug: 'post-' + i, date: new Date(Date.UTC(2015, 0, i)), tag: i % 2 ? ['mongodb', 'tips'] : ['tips'], threadId: i % 2 ? 't1' : 't2'})",
        "db.authors.insert({name: 'Ann', bio: 'Writes about MongoDB'})",
        "var someTag = 'mongodb', authorName = 'Ann', id = 't1', latestDateSeen = new Date(Date.UTC(2015, 0, 21))",
    ] {
        let ev = sh.eval(seed);
        assert!(ev.error.is_none(), "{seed}: {ev:?}");
    }
    let posts = |days: &[u32]| {
        days.iter()
            .map(|d| format!("Post {d}"))
            .collect::<Vec<_>>()
            .join(",")
    };
    let newest_10 = posts(&[25, 24, 23, 22, 21, 20, 19, 18, 17, 16]);
    let tagged = posts(&[25, 23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1]);
    let thread_t1 = posts(&[1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25]);
    let rows: Vec<(&str, String, String)> = vec![
        ("A-C1", "field(db.posts.find({}, {\"title\" : 1, \"author\" : 1, \"slug\" : 1, \"_id\" : 0}).sort(\n{\"date\" : -1}).limit(10), 'title')".into(), newest_10),
        ("A-C1", "tojsononeline(db.posts.find({}, {\"title\" : 1, \"author\" : 1, \"slug\" : 1, \"_id\" : 0}).sort(\n{\"date\" : -1}).limit(10).next())".into(), r#"{ "title" : "Post 25", "author" : "Ann", "slug" : "post-25" }"#.into()),
        ("A-C2", "field(db.posts.find({\"tag\" : someTag}, {\"title\" : 1, \"author\" : 1, \n\"slug\" : 1, \"_id\" : 0}).sort({\"date\" : -1}).limit(20), 'title')".into(), tagged),
        ("A-C3", "db.authors.findOne({\"name\" : authorName}).bio".into(), "Writes about MongoDB".into()),
        ("A-C4", "field(db.posts.find({\"threadId\" : id}).sort({\"date\" : 1}).limit(20), 'title')".into(), thread_t1),
        ("A-C5", "field(db.posts.find({\"threadId\" : id, \"date\" : {\"$gt\" : latestDateSeen}}).sort(\n{\"date\" : 1}).limit(20), 'title')".into(), posts(&[23, 25])),
        ("A-C6", "db.posts.createIndex({threadId : 1, date : 1}).numIndexesAfter".into(), "2".into()),
        ("A-C6", "plan(db.posts.find({\"threadId\" : id, \"date\" : {\"$gt\" : latestDateSeen}}).sort(\n{\"date\" : 1}).limit(20))".into(), "LIMIT > FETCH > IXSCAN threadId_1_date_1".into()),
    ];
    common::assert_rows(&mut sh, &rows);

    // Tip 7: a pre-allocated 6-hour page document (A-D8) and A-C7.
    let template = "db.pages.insert({_id: 'home', start: new Date(Date.UTC(2015, 0, 1, 6)), visits: {minutes: [0, 1, 2, 3, 4, 5].map(function () { return new Array(60).fill(0); }), hours: [0, 0, 0, 0, 0, 0]}})";
    assert!(sh.eval(template).error.is_none());
    sh.eval("var pageId = 'home', thisHour = new Date(Date.UTC(2015, 0, 1, 6))");
    // Tip 8: the padding trick on a placeholder collection.
    sh.eval("var collection = db.padded, someLongString = new Array(1001).join('x')");
    // Tip 9: the character with items as a sub-document (A-D9) and as an array (A-D10).
    sh.eval(r#"db.characters.insert({"_id" : "fred", "items" : {"slingshot" : {"type" : "weapon", "damage" : 23, "ranged" : true}, "jar" : {"type" : "container", "contains" : "fairy"}, "sword" : {"type" : "weapon", "damage" : 50, "ranged" : false}}})"#);
    sh.eval(r#"db.characters2.insert({"_id" : "fred", "items" : [{"id" : "slingshot", "type" : "weapon", "damage" : 23, "ranged" : true}, {"id" : "jar", "type" : "container", "contains" : "fairy"}, {"id" : "sword", "type" : "weapon", "damage" : 50, "ranged" : false}]})"#);
    // Tip 11: members of every type; equal ages in m1 (joint) and m3 (individual).
    sh.eval("db.members.insert([{_id: 'm1', type: 'joint', member: [{age: 40}, {age: 40}]}, {_id: 'm2', type: 'family', member: [{age: 40}, {age: 12}]}, {_id: 'm3', type: 'individual', member: [{age: 30}, {age: 30}]}])");
    common::assert_rows(
        &mut sh,
        &[
            (
                "A-C7",
                "db.pages.update({\"_id\" : pageId, \"start\" : thisHour}, \n{\"$inc\" : {\"visits.0.0\" : 3}})",
                r#"WriteResult({ "nMatched" : 1, "nUpserted" : 0, "nModified" : 1 })"#,
            ),
            (
                "A-C7",
                "tojsononeline(db.pages.findOne().visits['0'])",
                r#"{ "0" : 3 }"#,
            ),
            (
                "A-C7",
                "db.pages.update({\"_id\" : pageId, \"start\" : thisHour}, \n{\"$inc\" : {\"visits.minutes.0.0\" : 3}})",
                r#"WriteResult({ "nMatched" : 1, "nUpserted" : 0, "nModified" : 1 })"#,
            ),
            (
                "A-C7",
                "db.pages.findOne().visits.minutes[0].slice(0, 3).join()",
                "3,0,0",
            ),
            (
                "A-C8",
                "collection.insert({\"_id\" : 123, \"garbage\" : someLongString})",
                r#"WriteResult({ "nInserted" : 1 })"#,
            ),
            (
                "A-C9",
                "collection.update({\"_id\" : 123}, {\"$unset\" : {\"garbage\" : 1}})",
                r#"WriteResult({ "nMatched" : 1, "nUpserted" : 0, "nModified" : 1 })"#,
            ),
            (
                "A-C9",
                "tojsononeline(db.padded.findOne())",
                r#"{ "_id" : 123 }"#,
            ),
            // Items as a sub-document cannot be queried anonymously; as an array they can.
            (
                "A-C10",
                "db.characters.find({\"items.damage\" : {\"$gt\" : 20}}).count()",
                "0",
            ),
            (
                "A-C10",
                "db.characters2.find({\"items.damage\" : {\"$gt\" : 20}}).count()",
                "1",
            ),
            (
                "A-C10",
                "db.characters2.find({items: {$elemMatch: {damage: {$gt: 20}, ranged: true}}}).count()",
                "1",
            ),
            (
                "A-C15",
                "field(db.members.find({\"$where\" : function() { \nreturn this.member[0].age == this.member[1].age;\n}}), '_id')",
                "m1,m3",
            ),
            (
                "A-C16",
                "field(db.members.find({\"type\" : {$in : [\"joint\", \"family\"]}, \n\"$where\" : function() {\n    return this.member[0].age == this.member[1].age;\n}}), '_id')",
                "m1",
            ),
        ],
    );
}

/// Book A through the real binary, in the legacy printing the book shows (A-C11, A-C12).
#[test]
pub fn book_a_runs_in_sprout_eval() {
    let script = r#"db.food.insert({"_id" : 123, "apples" : 10, "oranges" : 5, "total" : 15});
var criteria = {"_id" : 123};
db.food.update(criteria, 
{"$inc" : {"apples" : 10, "oranges" : -2, "total" : 8}});
db.food.findOne()"#;
    let (out, err, code) = common::sprout(&["--quiet", "--legacy", "--eval", script]);
    assert_eq!(err, "");
    assert_eq!(
        out,
        "{ \"_id\" : 123, \"apples\" : 20, \"oranges\" : 3, \"total\" : 23 }\n"
    );
    assert_eq!(code, Some(0));
}
