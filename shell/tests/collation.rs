//! Collation through the shell: `cursor.collation()`, the `collation` option of the CRUD helpers,
//! and a collection's default collation.

use engine::Engine;
use shell::{Shell, ShellConfig};

fn shell() -> Shell {
    let mut s = Shell::new(Engine::new(), ShellConfig::default());
    let ev = s.eval(
        "db.names.insertMany([{_id: 1, n: 'bob'}, {_id: 2, n: 'Bob'}, {_id: 3, n: 'alice'}, {_id: 4, n: 'Émile'}, {_id: 5, n: 'eve'}])",
    );
    assert!(ev.error.is_none(), "{ev:?}");
    s
}

fn text(s: &mut Shell, input: &str) -> String {
    let ev = s.eval(input);
    assert!(ev.error.is_none(), "{input}: {ev:?}");
    ev.text()
}

#[test]
fn cursor_collation_matches_and_sorts() {
    let mut s = shell();
    assert_eq!(
        text(
            &mut s,
            "db.names.find({n: 'BOB'}).collation({locale: 'en', strength: 2}).toArray().map(d => d._id)"
        ),
        "[ 1, 2 ]"
    );
    assert_eq!(
        text(
            &mut s,
            "db.names.find({}, {_id: 0, n: 1}).sort({n: 1}).collation({locale: 'en'}).toArray().map(d => d.n)"
        ),
        "[ 'alice', 'bob', 'Bob', 'Émile', 'eve' ]"
    );
    // Binary order without a collation.
    assert_eq!(
        text(
            &mut s,
            "db.names.find({}).sort({n: 1}).toArray().map(d => d.n)"
        ),
        "[ 'Bob', 'alice', 'bob', 'eve', 'Émile' ]"
    );
}

#[test]
fn write_helpers_and_count_take_a_collation() {
    let mut s = shell();
    let ci = "{collation: {locale: 'en', strength: 1}}";
    assert_eq!(
        text(
            &mut s,
            &format!("db.names.countDocuments({{n: 'emile'}}, {ci})")
        ),
        "1"
    );
    assert_eq!(
        text(
            &mut s,
            &format!(
                "db.names.updateMany({{n: 'BOB'}}, {{$set: {{seen: true}}}}, {ci}).modifiedCount"
            )
        ),
        "2"
    );
    assert_eq!(
        text(
            &mut s,
            &format!("db.names.deleteMany({{n: 'EVE'}}, {ci}).deletedCount")
        ),
        "1"
    );
}

#[test]
fn a_collection_default_collation_applies_and_is_listed() {
    let mut s = Shell::new(Engine::new(), ShellConfig::default());
    text(
        &mut s,
        "db.createCollection('people', {collation: {locale: 'fr', strength: 1}})",
    );
    text(&mut s, "db.people.insertMany([{n: 'Côte'}, {n: 'cote'}])");
    assert_eq!(text(&mut s, "db.people.countDocuments({n: 'COTE'})"), "2");
    assert_eq!(
        text(
            &mut s,
            "db.people.countDocuments({n: 'COTE'}, {collation: {locale: 'simple'}})"
        ),
        "0"
    );
    assert_eq!(
        text(
            &mut s,
            "db.getCollectionInfos()[0].options.collation.strength"
        ),
        "1"
    );
    text(&mut s, "db.people.createIndex({n: 1})");
    assert_eq!(
        text(&mut s, "db.people.getIndexes()[1].collation.locale"),
        "fr"
    );
}

#[test]
fn a_bad_locale_is_refused_like_mongodb() {
    let mut s = shell();
    let ev = s.eval("db.names.find().collation({locale: 'xx'}).toArray()");
    let err = ev.error.expect("an error");
    assert!(
        err.to_string()
            .contains("Field 'locale' is invalid in: { locale: \"xx\" }"),
        "{err}"
    );
}
