//! Data in and out in MongoDB's formats through the shell helpers (`sprout.exportJSON`,
//! `sprout.importJSON`, `sprout.exportArchive`, `sprout.importArchive`): export → import of
//! every lesson dataset is exact (same documents as BSON bytes, so the same field order and
//! types; the same options and indexes), collections with options, indexes and views survive
//! an archive, and a failed import changes nothing.

use bson::{Bson, Document, doc};
use engine::Engine;
use engine::catalog::Namespace;
use shell::dataset::{DATASETS, dataset};
use shell::{Shell, ShellConfig};

fn fresh_shell() -> Shell {
    Shell::new(Engine::new(), ShellConfig::default())
}

fn dataset_shell(name: &str) -> (Shell, String) {
    let mut shell = fresh_shell();
    let d = dataset(name).unwrap();
    d.load_into(&mut shell).unwrap();
    (shell, d.db)
}

/// One collection as stored: its options, `listIndexes`' documents, its documents' BSON bytes
/// in natural order.
#[derive(Debug, PartialEq)]
struct CollectionState {
    name: String,
    options: Vec<u8>,
    indexes: Vec<Vec<u8>>,
    documents: Vec<Vec<u8>>,
}

fn state(shell: &Shell, db: &str) -> Vec<CollectionState> {
    shell.with_engine(|e| {
        let names: Vec<String> = e
            .catalog()
            .collection_names(db)
            .into_iter()
            .map(str::to_string)
            .collect();
        names
            .into_iter()
            .map(|name| {
                let coll = e
                    .catalog()
                    .collection(&Namespace::new(db, name.as_str()))
                    .unwrap();
                let options = coll.options.to_vec().unwrap();
                let documents = coll.iter().map(|(_, d)| d.to_vec().unwrap()).collect();
                let indexes = if coll.options.contains_key("viewOn") {
                    Vec::new()
                } else {
                    let reply = e.run_command(db, &doc! {"listIndexes": name.as_str()});
                    reply
                        .get_document("cursor")
                        .unwrap()
                        .get_array("firstBatch")
                        .unwrap()
                        .iter()
                        .map(|i| i.as_document().unwrap().to_vec().unwrap())
                        .collect()
                };
                CollectionState {
                    name,
                    options,
                    indexes,
                    documents,
                }
            })
            .collect()
    })
}

fn eval_value(shell: &mut Shell, code: &str) -> Bson {
    let ev = shell.eval(code);
    assert!(ev.error.is_none(), "{code}: {:?}", ev.error);
    ev.value.unwrap_or(Bson::Null)
}

fn js_string(text: &str) -> String {
    serde_json::to_string(text).unwrap()
}

fn export_text(shell: &mut Shell, db: &str, coll: &str, options: &str) -> String {
    let code = format!(
        "sprout.exportJSON({}, Object.assign({{db: {}}}, {options}))",
        js_string(coll),
        js_string(db)
    );
    match eval_value(shell, &code) {
        Bson::String(s) => s,
        other => panic!("exportJSON returned {other:?}"),
    }
}

/// Int64 values that fit in 32 bits come back as int32 from relaxed JSON (as through
/// mongoimport); everything else survives.
fn relaxed_image(value: &Bson) -> Bson {
    match value {
        Bson::Int64(n) if i32::try_from(*n).is_ok() => Bson::Int32(*n as i32),
        Bson::Document(d) => Bson::Document(
            d.iter()
                .map(|(k, v)| (k.clone(), relaxed_image(v)))
                .collect::<Document>(),
        ),
        Bson::Array(items) => Bson::Array(items.iter().map(relaxed_image).collect()),
        other => other.clone(),
    }
}

#[test]
fn every_dataset_round_trips_exactly_through_canonical_json() {
    for (name, _) in DATASETS {
        let (mut source, db) = dataset_shell(name);
        let mut target = fresh_shell();
        for layout in [
            "{jsonFormat: 'canonical'}",
            "{mode: 'canonical', jsonArray: true}",
        ] {
            for coll in state(&source, &db) {
                let text = export_text(&mut source, &db, &coll.name, layout);
                let array = if layout.contains("jsonArray") {
                    "true"
                } else {
                    "false"
                };
                let reply = eval_value(
                    &mut target,
                    &format!(
                        "sprout.importJSON({}, {}, {{db: {}, jsonArray: {array}, drop: true}})",
                        js_string(&coll.name),
                        js_string(&text),
                        js_string(&db)
                    ),
                );
                let imported = reply.as_document().and_then(|d| d.get_i32("imported").ok());
                assert_eq!(
                    imported,
                    Some(coll.documents.len() as i32),
                    "{name}.{}",
                    coll.name
                );
            }
            assert_eq!(state(&source, &db), state(&target, &db), "{name} {layout}");
        }
    }
}

#[test]
fn every_dataset_round_trips_through_relaxed_json_as_mongoimport_reads_it() {
    for (name, _) in DATASETS {
        let (mut source, db) = dataset_shell(name);
        let mut target = fresh_shell();
        for coll in state(&source, &db) {
            let text = export_text(&mut source, &db, &coll.name, "{}");
            eval_value(
                &mut target,
                &format!(
                    "sprout.importJSON({}, {}, {{db: {}}})",
                    js_string(&coll.name),
                    js_string(&text),
                    js_string(&db)
                ),
            );
            let decode = |docs: &[Vec<u8>]| -> Vec<Vec<u8>> {
                docs.iter()
                    .map(|b| {
                        let d = bson::Document::from_reader(&mut b.as_slice()).unwrap();
                        match relaxed_image(&Bson::Document(d)) {
                            Bson::Document(d) => d.to_vec().unwrap(),
                            _ => unreachable!(),
                        }
                    })
                    .collect()
            };
            let after = state(&target, &db)
                .into_iter()
                .find(|c| c.name == coll.name)
                .unwrap();
            assert_eq!(
                decode(&coll.documents),
                after.documents,
                "{name}.{}",
                coll.name
            );
        }
    }
}

#[test]
fn every_dataset_round_trips_exactly_through_an_archive() {
    for (name, _) in DATASETS {
        let (mut source, db) = dataset_shell(name);
        let archive = eval_value(&mut source, "sprout.exportArchive().base64()");
        let Bson::String(base64) = archive else {
            panic!("{name}: no archive");
        };
        let mut target = fresh_shell();
        let reply = eval_value(
            &mut target,
            &format!(
                "sprout.importArchive({}, {{db: {}}})",
                js_string(&base64),
                js_string(&db)
            ),
        );
        let restored = reply.as_document().and_then(|d| d.get_i32("restored").ok());
        let total: usize = state(&source, &db).iter().map(|c| c.documents.len()).sum();
        assert_eq!(restored, Some(total as i32), "{name}");
        assert_eq!(state(&source, &db), state(&target, &db), "{name}");
    }
}

const SETUP: &str = r#"
db.people.insertMany([{_id: 1, name: 'ana', age: NumberLong(31), at: new Date(0)},
                      {_id: 2, name: 'bo', tags: ['x', 'y'], d: NumberDecimal('1.50')}]);
db.people.createIndex({name: 1}, {unique: true});
db.people.createIndex({age: -1, name: 1}, {name: 'age_name', partialFilterExpression: {age: {$gt: 5}}});
db.people.createIndex({at: 1}, {expireAfterSeconds: 3600});
db.people.createIndex({name: 1, age: 1}, {collation: {locale: 'fr', strength: 2}});
db.people.createIndex({bio: 'text'}, {default_language: 'english', weights: {bio: 3}});
db.createCollection('log', {capped: true, size: 4096, max: 10});
db.log.insertOne({msg: 'hi'});
db.createCollection('checked', {validator: {$jsonSchema: {required: ['n']}}, validationLevel: 'moderate'});
db.checked.insertOne({n: 1});
db.createCollection('sorted', {collation: {locale: 'de'}});
db.createCollection('names', {viewOn: 'people', pipeline: [{$project: {name: 1}}]});
db.createCollection('empty');
"#;

#[test]
fn options_indexes_and_views_survive_an_archive() {
    let mut source = fresh_shell();
    eval_value(&mut source, "use shop");
    let ev = source.eval(SETUP);
    assert!(ev.error.is_none(), "{:?}", ev.error);
    let archive = eval_value(&mut source, "sprout.exportArchive()");
    assert!(matches!(archive, Bson::Binary(_)));
    let mut target = fresh_shell();
    eval_value(&mut target, "use shop");
    let base64 = eval_value(&mut source, "sprout.exportArchive().base64()");
    let Bson::String(base64) = base64 else {
        panic!()
    };
    eval_value(
        &mut target,
        &format!("sprout.importArchive(BinData(0, {}))", js_string(&base64)),
    );
    let before = state(&source, "shop");
    assert_eq!(before.len(), 6);
    assert_eq!(before, state(&target, "shop"));
    // The view works after the restore.
    let names = eval_value(
        &mut target,
        "db.names.find().sort({_id: 1}).toArray().length",
    );
    assert_eq!(names.as_i32().or(names.as_f64().map(|f| f as i32)), Some(2));
}

#[test]
fn a_failed_json_import_changes_nothing() {
    let mut shell = fresh_shell();
    eval_value(&mut shell, "db.c.insertOne({_id: 3, keep: true})");
    let _ = shell.with_engine(Engine::take_changes);
    let before = state(&shell, "test");
    let text = "{\"_id\":1}\n{\"_id\":2}\n{\"_id\":3}\n{\"_id\":4}\n";
    let ev = shell.eval(&format!("sprout.importJSON('c', {})", js_string(text)));
    let err = ev.error.expect("duplicate key").to_string();
    assert!(
        err.contains("document #3 (line 3) was not imported"),
        "{err}"
    );
    assert!(
        err.contains("E11000") || err.contains("duplicate key"),
        "{err}"
    );
    assert_eq!(before, state(&shell, "test"));
    assert!(shell.with_engine(Engine::take_changes).is_empty());

    // With drop: the drop is undone too.
    let ev = shell.eval(&format!(
        "sprout.importJSON('c', {}, {{drop: true}})",
        js_string("{\"_id\":1}\n{\"_id\":1}\n")
    ));
    assert!(ev.error.is_some());
    assert_eq!(before, state(&shell, "test"));

    // A syntax error names its line; nothing is inserted.
    let ev = shell.eval(&format!(
        "sprout.importJSON('d', {})",
        js_string("{\"a\":1}\n{\"a\":\n")
    ));
    let err = ev.error.expect("syntax error").to_string();
    assert!(err.contains("line 3") || err.contains("line 2"), "{err}");
    assert!(state(&shell, "test").iter().all(|c| c.name != "d"));
}

#[test]
fn a_failed_archive_import_changes_nothing() {
    let mut source = fresh_shell();
    eval_value(
        &mut source,
        "db.a.insertMany([{_id: 1}, {_id: 2}]); db.b.insertMany([{_id: 1}, {_id: 2}])",
    );
    let base64 = eval_value(&mut source, "sprout.exportArchive().base64()");
    let Bson::String(base64) = base64 else {
        panic!()
    };
    let mut target = fresh_shell();
    // `b` already holds _id 2: restoring `a` works, `b` fails, and `a` is undone.
    eval_value(&mut target, "db.b.insertOne({_id: 2, mine: true})");
    let _ = target.with_engine(Engine::take_changes);
    let before = state(&target, "test");
    let ev = target.eval(&format!("sprout.importArchive({})", js_string(&base64)));
    let err = ev.error.expect("duplicate key").to_string();
    assert!(err.contains("restoring test.b"), "{err}");
    assert_eq!(before, state(&target, "test"));
    assert!(target.with_engine(Engine::take_changes).is_empty());

    // A damaged archive names the byte offset.
    let ev = target.eval("sprout.importArchive(BinData(0, 'AAAAAA=='))");
    let err = ev.error.expect("corrupt").to_string();
    assert!(err.contains("corrupt archive at byte 0"), "{err}");
}

#[test]
fn export_options_select_and_order() {
    let mut shell = fresh_shell();
    eval_value(
        &mut shell,
        "db.c.insertMany([{_id: 2, a: 1}, {_id: 1, a: 2}, {_id: 3, a: 3}])",
    );
    let text = export_text(
        &mut shell,
        "test",
        "c",
        "{filter: {a: {$gte: 2}}, sort: {_id: 1}, fields: {a: 0}}",
    );
    assert_eq!(text, "{\"_id\":1}\n{\"_id\":3}\n");
    let text = export_text(&mut shell, "test", "c", "{limit: 1, jsonArray: true}");
    assert_eq!(text, "[{\"_id\":2,\"a\":1}]\n");
    let ev = shell.eval("sprout.exportJSON('c', {jsonFormat: 'pretty'})");
    assert!(ev.error.unwrap().to_string().contains("invalid jsonFormat"));
    let ev = shell.eval("sprout.exportJSON('c', {nope: 1})");
    assert!(
        ev.error
            .unwrap()
            .to_string()
            .contains("unknown option 'nope'")
    );
    // A collection that does not exist exports nothing, as mongoexport does.
    assert_eq!(export_text(&mut shell, "test", "missing", "{}"), "");
}
