//! Book A (tip #10) and book B chapter 2 snippets through `Shell::eval` (legacy style), checked
//! against MongoDB's results. Placeholders get the values the catalogue presumes (`criteria` =
//! `{"_id": 123}`); errata applied in the input: A-C14's `/* other criteria */,` is dropped and
//! its `db.fruit` [sic] is run as `db.food`. 9 snippets run: A-C11, C12, C13, C14 and B2-C1..C4
//! (C4 twice, as the catalogue's derived check does).

mod common;

use shell::Style;

fn run(sh: &mut shell::Shell, input: &str) -> String {
    let ev = sh.eval(input);
    assert!(!ev.incomplete, "incomplete: {input}");
    ev.text()
}

#[test]
fn book_a_tip_10_counters_and_locking() {
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
        r#"WriteResult({ "nMatched" : 1, "nUpserted" : 0, "nModified" : 1 })"#
    );
    // A-C12: the book's shown output.
    assert_eq!(
        run(&mut sh, "tojsononeline(db.food.findOne())"),
        r#"{ "_id" : 123, "apples" : 20, "oranges" : 3, "total" : 23 }"#
    );
    // A-C13
    assert_eq!(
        run(
            &mut sh,
            r#"db.food.update({"_id" : 123}, {"$inc" : {"banana" : 3, "total" : 1}})"#
        ),
        r#"WriteResult({ "nMatched" : 1, "nUpserted" : 0, "nModified" : 1 })"#
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
        r#"WriteResult({ "nMatched" : 1, "nUpserted" : 0, "nModified" : 1 })"#
    );
    assert_eq!(
        run(&mut sh, "tojsononeline(db.food.findOne())"),
        r#"{ "_id" : 123, "apples" : 20, "oranges" : 3, "total" : 24, "banana" : 6, "locked" : false }"#
    );
}

#[test]
fn book_b_chapter_2_sequences() {
    let mut sh = common::shell(Style::Legacy);
    // B2-C1
    assert_eq!(
        run(
            &mut sh,
            "db.counters.insert(\n {\n _id: \"userid\",\n seq: 0\n }\n)"
        ),
        r#"WriteResult({ "nInserted" : 1 })"#
    );
    // B2-C2
    assert_eq!(
        run(
            &mut sh,
            "function getNextSequence(name) {\n var ret = db.counters.findAndModify(\n {\n query: { _id: name },\n update: { $inc: { seq: 1 } },\n new: true\n }\n );\n return ret.seq;\n}"
        ),
        ""
    );
    // B2-C3
    assert_eq!(
        run(
            &mut sh,
            "db.users.insert(\n {\n _id: getNextSequence(\"userid\"),\n name: \"Sarah C.\"\n }\n)"
        ),
        r#"WriteResult({ "nInserted" : 1 })"#
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
    assert_eq!(run(&mut sh, c4), "");
    run(
        &mut sh,
        "insertDocument({x: 1}, db.t); insertDocument({x: 2}, db.t)",
    );
    assert_eq!(
        run(
            &mut sh,
            "db.t.find().sort({_id: 1}).map(function (d) { return d._id + ':' + d.x }).join()"
        ),
        "1:1,2:2"
    );
}
