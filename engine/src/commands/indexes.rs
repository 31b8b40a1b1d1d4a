//! `createIndexes`, `dropIndexes` and `listIndexes`, with MongoDB 8.0's replies and errors.
//! Index specs are saved in the collection's catalog entry (a `PutCollection` change), so a
//! reload rebuilds every index.

use bson::{Bson, Document, doc};

use super::find::first_batch_reply;
use super::{count_option, target_namespace};
use crate::Engine;
use crate::catalog::Namespace;
use crate::error::{Error, ErrorCode, Result};
use crate::index::{IndexComparison, IndexSpec};
use crate::storage::Change;
use crate::value::display::{key_value, type_name};

/// An index without a `collation` takes the collection's default collation, as in MongoDB.
fn with_default_collation(engine: &Engine, ns: &Namespace, spec: &Document) -> Document {
    let default = engine
        .catalog()
        .collection(ns)
        .and_then(|c| c.options.get_document("collation").ok());
    match default {
        Some(c) if !spec.contains_key("collation") => {
            let mut out = spec.clone();
            out.insert("collation", c.clone());
            out
        }
        _ => spec.clone(),
    }
}

/// At most 64 indexes per collection, `_id` included (MongoDB's `kMaxNumIndexesAllowed`;
/// jstests/core/index_create_too_many.js expects CannotCreateIndex past it).
pub const MAX_INDEXES: usize = 64;

pub fn create_indexes(engine: &mut Engine, db: &str, command: &Document) -> Result<Document> {
    let ns = target_namespace(db, command)?;
    // MongoDB 8.0's IDL parser refuses a field createIndexes does not define (40415; the
    // current jstests/core/ddl/create_indexes.js expects kUnknownIDLFieldError).
    crate::write::check_known_fields(
        command,
        "createIndexes",
        &[
            "indexes",
            "commitQuorum",
            "ignoreUnknownIndexOptions",
            "isTimeseriesNamespace",
        ],
    )?;
    // MongoDB's createIndexes keeps the sessions' transaction table as the server made it.
    if ns.db == "config" && ns.coll == "transactions" {
        return Err(Error::new(
            ErrorCode::IllegalOperation,
            format!("not allowed to create index on {ns}"),
        ));
    }
    let items = match command.get("indexes") {
        Some(Bson::Array(items)) => items,
        Some(other) => {
            return Err(Error::type_mismatch(format!(
                "BSON field 'createIndexes.indexes' is the wrong type '{}', expected type 'array'",
                type_name(other)
            )));
        }
        None => {
            return Err(Error::location(
                40414,
                "BSON field 'createIndexes.indexes' is missing but a required field",
            ));
        }
    };
    if items.is_empty() {
        return Err(Error::bad_value(
            "Must specify at least one index to create",
        ));
    }
    let mut specs = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let Bson::Document(d) = item else {
            return Err(Error::type_mismatch(format!(
                "BSON field 'createIndexes.indexes.{i}' is the wrong type '{}', expected type 'object'",
                type_name(item)
            )));
        };
        let spec = IndexSpec::parse(&with_default_collation(engine, &ns, d))?.with_id_index_name();
        if spec.is_id() {
            // MongoDB's IndexCatalogImpl::_isSpecOk: "_id index must have the collection
            // default collation" (jstests/core/index_id_options.js).
            let default = engine
                .catalog()
                .collection(&ns)
                .and_then(|c| c.options.get_document("collation").ok());
            if spec.collation.as_ref() != default {
                return Err(Error::bad_value(
                    "_id index must have the collection default collation",
                ));
            }
        }
        specs.push(spec);
    }
    let ns_text = ns.to_string();
    let existed = engine.catalog().collection(&ns).is_some();
    let before = engine
        .catalog()
        .collection(&ns)
        .map_or(1, |c| c.indexes().len());
    // Decide, for every requested index, whether it exists already or conflicts
    // (MongoDB's `IndexCatalogImpl::_doesSpecConflictWithExisting`).
    let mut to_build = Vec::new();
    if let Some(coll) = engine.catalog().collection(&ns) {
        for spec in specs {
            if let Some(existing) = coll.indexes().iter().find(|i| i.name() == spec.name) {
                match spec.compare(&existing.spec) {
                    IndexComparison::Different => {
                        return Err(conflict(
                            ErrorCode::IndexKeySpecsConflict,
                            "An existing index has the same name as the requested index. When index names are not specified, they are auto generated and can cause conflicts. Please refer to our documentation",
                            &spec,
                            &existing.spec,
                        ));
                    }
                    IndexComparison::Equivalent if !existing.spec.is_id() => {
                        return Err(conflict(
                            ErrorCode::IndexOptionsConflict,
                            "An equivalent index already exists with the same name but different options",
                            &spec,
                            &existing.spec,
                        ));
                    }
                    _ => continue,
                }
            }
            let same_signature = coll.indexes().iter().find_map(|i| {
                let comparison = spec.compare(&i.spec);
                (comparison != IndexComparison::Different).then_some((i, comparison))
            });
            match same_signature {
                Some((existing, IndexComparison::Equivalent)) => {
                    return Err(conflict(
                        ErrorCode::IndexOptionsConflict,
                        "An equivalent index already exists with a different name and options",
                        &spec,
                        &existing.spec,
                    ));
                }
                Some((existing, _)) => {
                    return Err(Error::new(
                        ErrorCode::IndexOptionsConflict,
                        format!(
                            "Index already exists with a different name: {}",
                            existing.name()
                        ),
                    ));
                }
                None => to_build.push(spec),
            }
        }
    } else {
        // A collection created here comes with its `_id` index: asking for it again builds
        // nothing (jstests/core/index9.js).
        to_build = specs.into_iter().filter(|s| !s.is_id()).collect();
    }
    let mut seen = std::collections::BTreeSet::new();
    to_build.retain(|s| seen.insert(s.name.clone()));
    check_one_text_index(engine, &ns, &to_build)?;
    if let Some(spec) = to_build.get(MAX_INDEXES.saturating_sub(before)) {
        return Err(Error::new(
            ErrorCode::CannotCreateIndex,
            format!(
                "add index fails, too many indexes for {ns_text} key:{}",
                key_value(&Bson::Document(spec.key.clone()))
            ),
        ));
    }
    if to_build.is_empty() && existed {
        return Ok(doc! {
            "numIndexesBefore": before as i32,
            "numIndexesAfter": before as i32,
            "note": "all indexes already exist",
            "ok": 1.0,
        });
    }
    engine.catalog().check_new_database(&ns.db)?;
    let (coll, created) = engine.catalog_mut().collection_or_create(&ns);
    let mut built: Vec<String> = Vec::new();
    for spec in to_build {
        let name = spec.name.clone();
        if let Err(e) = coll.create_index(&ns_text, spec) {
            for n in &built {
                coll.drop_index(n);
            }
            if created {
                engine.catalog_mut().drop_collection(&ns);
            }
            return Err(e);
        }
        built.push(name);
    }
    let after = coll.indexes().len();
    let options = coll.catalog_options();
    engine.record(Change::PutCollection {
        ns: ns.clone(),
        options,
    });
    Ok(doc! {
        "numIndexesBefore": before as i32,
        "numIndexesAfter": after as i32,
        "createdCollectionAutomatically": !existed,
        "ok": 1.0,
    })
}

/// A conflict between a requested index and an existing one, both printed as MongoDB prints
/// them: "<what>. Requested index: {…}, existing index: {…}".
fn conflict(code: ErrorCode, what: &str, spec: &IndexSpec, existing: &IndexSpec) -> Error {
    let text = |s: &IndexSpec| key_value(&Bson::Document(s.document.clone()));
    Error::new(
        code,
        format!(
            "{what}. Requested index: {}, existing index: {}",
            text(spec),
            text(existing)
        ),
    )
}

/// A collection has at most one text index (MongoDB's `CannotCreateIndex`).
fn check_one_text_index(engine: &Engine, ns: &Namespace, to_build: &[IndexSpec]) -> Result<()> {
    let mut text_index = engine.catalog().collection(ns).and_then(|c| {
        c.indexes()
            .iter()
            .find(|i| i.spec.text.is_some())
            .map(|i| i.name().to_string())
    });
    for spec in to_build.iter().filter(|s| s.text.is_some()) {
        if let Some(existing) = &text_index {
            return Err(Error::new(
                ErrorCode::CannotCreateIndex,
                format!(
                    "only one text index per collection allowed, found existing text index \"{existing}\""
                ),
            ));
        }
        text_index = Some(spec.name.clone());
    }
    Ok(())
}

pub fn drop_indexes(engine: &mut Engine, db: &str, command: &Document) -> Result<Document> {
    let ns = target_namespace(db, command)?;
    let Some(target) = command.get("index") else {
        return Err(Error::location(
            40414,
            "BSON field 'dropIndexes.index' is missing but a required field",
        ));
    };
    let Some(coll) = engine.catalog().collection(&ns) else {
        return Err(Error::new(
            ErrorCode::NamespaceNotFound,
            format!("ns not found {ns}"),
        ));
    };
    let was = coll.indexes().len() as i32;
    let mut names = Vec::new();
    let mut all = false;
    match target {
        Bson::String(s) if s == "*" => {
            all = true;
            names.extend(
                coll.indexes()
                    .iter()
                    .filter(|i| !i.spec.is_id())
                    .map(|i| i.name().to_string()),
            );
        }
        Bson::String(s) => names.push(resolve_name(coll, s)?),
        Bson::Array(items) => {
            for item in items {
                let Bson::String(s) = item else {
                    return Err(Error::type_mismatch(format!(
                        "dropIndexes index names must be strings, found {}",
                        type_name(item)
                    )));
                };
                names.push(resolve_name(coll, s)?);
            }
        }
        Bson::Document(key) => {
            let matching: Vec<_> = coll
                .indexes()
                .iter()
                .filter(|i| crate::index::spec::same_key_pattern(&i.spec.key, key))
                .collect();
            match matching.as_slice() {
                [] => {
                    return Err(Error::new(
                        ErrorCode::IndexNotFound,
                        format!(
                            "can't find index with key: {}",
                            key_value(&Bson::Document(key.clone()))
                        ),
                    ));
                }
                [one] if one.spec.is_id() => return Err(cannot_drop_id()),
                [one] => names.push(one.name().to_string()),
                many => {
                    // MongoDB's drop_indexes.cpp: AmbiguousIndexKeyPattern (181).
                    return Err(Error::new(
                        ErrorCode::AmbiguousIndexKeyPattern,
                        format!(
                            "{} indexes found for key: {}, identify by name instead. Conflicting indexes: {}",
                            many.len(),
                            key_value(&Bson::Document(key.clone())),
                            many.iter()
                                .map(|i| key_value(&Bson::Document(i.spec.document.clone())))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    ));
                }
            }
        }
        other => {
            return Err(Error::type_mismatch(format!(
                "BSON field 'dropIndexes.index' is the wrong type '{}', expected types '[string, object, array]'",
                type_name(other)
            )));
        }
    }
    let Some(coll) = engine.catalog_mut().collection_mut(&ns) else {
        return Err(Error::new(ErrorCode::NamespaceNotFound, "ns not found"));
    };
    for n in &names {
        coll.drop_index(n);
    }
    let options = coll.catalog_options();
    engine.record(Change::PutCollection { ns, options });
    let mut reply = doc! {"nIndexesWas": was};
    if all {
        reply.insert("msg", "non-_id indexes dropped for collection");
    }
    reply.insert("ok", 1.0);
    Ok(reply)
}

fn resolve_name(coll: &crate::catalog::Collection, name: &str) -> Result<String> {
    if name == crate::index::ID_INDEX_NAME {
        return Err(cannot_drop_id());
    }
    if coll.index(name).is_none() {
        return Err(Error::new(
            ErrorCode::IndexNotFound,
            format!("index not found with name [{name}]"),
        ));
    }
    Ok(name.to_string())
}

fn cannot_drop_id() -> Error {
    Error::new(ErrorCode::InvalidOptions, "cannot drop _id index")
}

pub fn list_indexes(engine: &mut Engine, db: &str, command: &Document) -> Result<Document> {
    let ns = target_namespace(db, command)?;
    let batch_size = match command.get("cursor") {
        Some(Bson::Document(c)) => count_option(c, "listIndexes.cursor", "batchSize")?,
        _ => None,
    };
    let Some(coll) = engine.catalog().collection(&ns) else {
        return Err(Error::new(
            ErrorCode::NamespaceNotFound,
            format!("ns does not exist: {ns}"),
        ));
    };
    let docs: Vec<Document> = coll
        .indexes()
        .iter()
        .map(|i| i.spec.document.clone())
        .collect();
    let cursor_ns = Namespace::new(db, format!("$cmd.listIndexes.{}", ns.coll));
    let mut reply = first_batch_reply(
        engine,
        cursor_ns,
        docs,
        batch_size.map(|b| b as usize),
        false,
    );
    // As MongoDB writes it: `{id, ns, firstBatch}`, naming the collection listed.
    if let Ok(c) = reply.get_document_mut("cursor") {
        let batch = c.remove("firstBatch").unwrap_or(Bson::Array(Vec::new()));
        c.insert("ns", ns.to_string());
        c.insert("firstBatch", batch);
    }
    Ok(reply)
}

#[cfg(test)]
mod tests {
    use crate::Engine;
    use crate::storage::{DurableStore, MemoryStore};
    use bson::{Document, doc};

    fn run(e: &mut Engine, cmd: Document) -> Document {
        e.run_command("db", &cmd)
    }

    fn list(e: &mut Engine) -> Vec<Document> {
        let r = run(e, doc! {"listIndexes": "c"});
        let keys: Vec<&String> = r.get_document("cursor").unwrap().keys().collect();
        assert_eq!(keys, ["id", "ns", "firstBatch"]);
        r.get_document("cursor")
            .unwrap()
            .get_array("firstBatch")
            .unwrap()
            .iter()
            .map(|d| d.as_document().unwrap().clone())
            .collect()
    }

    /// Key order makes two indexes (issue #19: `{a: 1, b: 1}` then `{b: 1, a: 1}` was refused
    /// as IndexOptionsConflict).
    #[test]
    fn key_order_makes_a_different_index() {
        let mut e = Engine::new();
        let r = run(
            &mut e,
            doc! {"createIndexes": "c", "indexes": [{"key": {"a": 1, "b": 1}, "name": "a_1_b_1"}]},
        );
        assert_eq!(r.get_f64("ok").unwrap(), 1.0, "{r}");
        let r = run(
            &mut e,
            doc! {"createIndexes": "c", "indexes": [{"key": {"b": 1, "a": 1}, "name": "b_1_a_1"}]},
        );
        assert_eq!(r.get_f64("ok").unwrap(), 1.0, "{r}");
        assert_eq!(r.get_i32("numIndexesAfter").unwrap(), 3);
    }

    /// `createIndex({_id: 1})` names the request `_id_` and finds the existing index, as MongoDB
    /// does (jstests/core/index_id_options.js); it used to fail with IndexOptionsConflict.
    #[test]
    fn id_index_request_finds_the_id_index() {
        let mut e = Engine::new();
        run(&mut e, doc! {"insert": "c", "documents": [{"_id": 1}]});
        let r = run(
            &mut e,
            doc! {"createIndexes": "c", "indexes": [{"key": {"_id": 1}, "name": "_id_1"}]},
        );
        assert_eq!(
            r.get_str("note").unwrap(),
            "all indexes already exist",
            "{r}"
        );
        assert_eq!(list(&mut e).len(), 1);
    }

    /// A key pattern that names two indexes (different collations) is refused with
    /// AmbiguousIndexKeyPattern (181), as MongoDB's drop_indexes.cpp does; it answered code 6.
    #[test]
    fn ambiguous_key_pattern_drop_is_181() {
        let mut e = Engine::new();
        let r = run(
            &mut e,
            doc! {"createIndexes": "c", "indexes": [
                {"key": {"a": 1}, "name": "foo", "collation": {"locale": "en_US"}},
                {"key": {"a": 1}, "name": "bar", "collation": {"locale": "en_US", "strength": 1}},
            ]},
        );
        assert_eq!(r.get_f64("ok").unwrap(), 1.0, "{r}");
        let r = run(&mut e, doc! {"dropIndexes": "c", "index": {"a": 1}});
        assert_eq!(r.get_i32("code").unwrap(), 181, "{r}");
        assert_eq!(r.get_str("codeName").unwrap(), "AmbiguousIndexKeyPattern");
        assert_eq!(list(&mut e).len(), 3);
    }

    /// The 65th index is refused with CannotCreateIndex, and none of its command is built.
    #[test]
    fn at_most_64_indexes() {
        let mut e = Engine::new();
        for i in 0..62 {
            let name = format!("i{i}");
            let r = run(
                &mut e,
                doc! {"createIndexes": "c", "indexes": [{"key": {&name: 1}, "name": &name}]},
            );
            assert_eq!(r.get_f64("ok").unwrap(), 1.0, "{r}");
        }
        let r = run(
            &mut e,
            doc! {"createIndexes": "c", "indexes": [{"key": {"i62": 1}, "name": "i62"}, {"key": {"i63": 1}, "name": "i63"}]},
        );
        assert_eq!(r.get_i32("code").unwrap(), 67, "{r}");
        assert_eq!(
            r.get_str("errmsg").unwrap(),
            "add index fails, too many indexes for db.c key:{ i63: 1 }"
        );
        assert_eq!(list(&mut e).len(), 63);
        let r = run(
            &mut e,
            doc! {"createIndexes": "c", "indexes": [{"key": {"i62": 1}, "name": "i62"}]},
        );
        assert_eq!(r.get_f64("ok").unwrap(), 1.0, "{r}");
    }

    #[test]
    fn create_list_drop() {
        let mut e = Engine::new();
        let r = run(
            &mut e,
            doc! {"createIndexes": "c", "indexes": [{"key": {"name": 1}, "name": "name_1", "unique": true}]},
        );
        assert_eq!(
            r,
            doc! {"numIndexesBefore": 1, "numIndexesAfter": 2, "createdCollectionAutomatically": true, "ok": 1.0}
        );
        assert_eq!(
            list(&mut e),
            vec![
                doc! {"v": 2, "key": {"_id": 1}, "name": "_id_"},
                doc! {"v": 2, "key": {"name": 1}, "name": "name_1", "unique": true},
            ]
        );
        let r = run(
            &mut e,
            doc! {"createIndexes": "c", "indexes": [{"key": {"name": 1}, "name": "name_1", "unique": true}]},
        );
        assert_eq!(r.get_str("note").unwrap(), "all indexes already exist");
        let r = run(
            &mut e,
            doc! {"createIndexes": "c", "indexes": [{"key": {"name": -1}, "name": "name_1"}]},
        );
        assert_eq!(r.get_i32("code").unwrap(), 86);
        run(
            &mut e,
            doc! {"insert": "c", "documents": [{"_id": 1, "name": "x"}]},
        );
        let r = run(
            &mut e,
            doc! {"insert": "c", "documents": [{"_id": 2, "name": "x"}]},
        );
        let we = r.get_array("writeErrors").unwrap()[0]
            .as_document()
            .unwrap()
            .clone();
        assert_eq!(
            we.get_str("errmsg").unwrap(),
            "E11000 duplicate key error collection: db.c index: name_1 dup key: { name: \"x\" }"
        );
        let r = run(&mut e, doc! {"dropIndexes": "c", "index": "nope"});
        assert_eq!(r.get_i32("code").unwrap(), 27);
        let r = run(&mut e, doc! {"dropIndexes": "c", "index": "_id_"});
        assert_eq!(r.get_i32("code").unwrap(), 72);
        let r = run(&mut e, doc! {"dropIndexes": "c", "index": {"name": 1}});
        assert_eq!(r, doc! {"nIndexesWas": 2, "ok": 1.0});
        assert_eq!(list(&mut e).len(), 1);
        let r = run(&mut e, doc! {"listIndexes": "missing"});
        assert_eq!(r.get_i32("code").unwrap(), 26);
    }

    #[test]
    fn failed_build_leaves_no_index_and_specs_survive_reload() {
        let mut e = Engine::new();
        let mut store = MemoryStore::default();
        run(
            &mut e,
            doc! {"insert": "c", "documents": [{"_id": 1, "a": 1}, {"_id": 2, "a": 1}]},
        );
        let r = run(
            &mut e,
            doc! {"createIndexes": "c", "indexes": [{"key": {"b": 1}, "name": "b_1"}, {"key": {"a": 1}, "name": "a_1", "unique": true}]},
        );
        assert_eq!(r.get_i32("code").unwrap(), 11000);
        assert_eq!(list(&mut e).len(), 1);
        run(
            &mut e,
            doc! {"createIndexes": "c", "indexes": [{"key": {"a": 1, "b": -1}, "name": "a_1_b_-1"}]},
        );
        store.commit(&e.take_changes()).unwrap();
        let mut back = Engine::new().load(store.snapshot().unwrap()).unwrap();
        assert_eq!(list(&mut back).len(), 2);
        let coll = back
            .catalog()
            .collection(&crate::catalog::Namespace::new("db", "c"))
            .unwrap();
        assert_eq!(coll.index("a_1_b_-1").unwrap().len(), 2);
        let r = run(&mut back, doc! {"listCollections": 1});
        let opts = r
            .get_document("cursor")
            .unwrap()
            .get_array("firstBatch")
            .unwrap()[0]
            .as_document()
            .unwrap()
            .get_document("options")
            .unwrap()
            .clone();
        assert!(opts.is_empty());
        let r = run(&mut back, doc! {"dropIndexes": "c", "index": "*"});
        assert_eq!(
            r,
            doc! {"nIndexesWas": 2, "msg": "non-_id indexes dropped for collection", "ok": 1.0}
        );
    }

    fn create(e: &mut Engine, spec: Document) -> Document {
        run(e, doc! {"createIndexes": "c", "indexes": [spec]})
    }

    fn error_of(r: &Document) -> (i32, &str) {
        (r.get_i32("code").unwrap(), r.get_str("errmsg").unwrap())
    }

    #[test]
    fn same_name_with_unique_added_is_a_key_specs_conflict() {
        let mut e = Engine::new();
        create(&mut e, doc! {"key": {"username": 1}, "name": "username_1"});
        let r = create(
            &mut e,
            doc! {"key": {"username": 1}, "name": "username_1", "unique": true},
        );
        assert_eq!(
            error_of(&r),
            (
                86,
                "An existing index has the same name as the requested index. When index names are not specified, they are auto generated and can cause conflicts. Please refer to our documentation. Requested index: { v: 2, key: { username: 1 }, name: \"username_1\", unique: true }, existing index: { v: 2, key: { username: 1 }, name: \"username_1\" }"
            )
        );
        let r = create(
            &mut e,
            doc! {"key": {"username": 1}, "name": "username_1", "sparse": true},
        );
        assert_eq!(r.get_i32("code").unwrap(), 86);
        let r = create(&mut e, doc! {"key": {"username": -1}, "name": "username_1"});
        assert_eq!(r.get_i32("code").unwrap(), 86);
    }

    #[test]
    fn same_name_with_another_option_changed_is_an_options_conflict() {
        let mut e = Engine::new();
        create(
            &mut e,
            doc! {"key": {"at": 1}, "name": "at_1", "expireAfterSeconds": 60},
        );
        let r = create(
            &mut e,
            doc! {"key": {"at": 1}, "name": "at_1", "expireAfterSeconds": 5},
        );
        assert_eq!(
            error_of(&r),
            (
                85,
                "An equivalent index already exists with the same name but different options. Requested index: { v: 2, key: { at: 1 }, name: \"at_1\", expireAfterSeconds: 5 }, existing index: { v: 2, key: { at: 1 }, name: \"at_1\", expireAfterSeconds: 60 }"
            )
        );
    }

    #[test]
    fn another_name_for_the_same_index_is_refused() {
        let mut e = Engine::new();
        create(&mut e, doc! {"key": {"x": 1}, "name": "x_1"});
        let r = create(&mut e, doc! {"key": {"x": 1}, "name": "x_2"});
        assert_eq!(
            error_of(&r),
            (85, "Index already exists with a different name: x_1")
        );
        let r = create(
            &mut e,
            doc! {"key": {"x": 1}, "name": "x_ttl", "expireAfterSeconds": 9},
        );
        assert_eq!(
            error_of(&r),
            (
                85,
                "An equivalent index already exists with a different name and options. Requested index: { v: 2, key: { x: 1 }, name: \"x_ttl\", expireAfterSeconds: 9 }, existing index: { v: 2, key: { x: 1 }, name: \"x_1\" }"
            )
        );
        assert_eq!(list(&mut e).len(), 2);
    }

    #[test]
    fn another_name_with_a_different_signature_builds_a_second_index() {
        let mut e = Engine::new();
        create(&mut e, doc! {"key": {"x": 1}, "name": "x_1"});
        let r = create(
            &mut e,
            doc! {"key": {"x": 1}, "name": "x_unique", "unique": true},
        );
        assert_eq!(r.get_i32("numIndexesAfter").unwrap(), 3);
        let r = create(
            &mut e,
            doc! {"key": {"x": 1}, "name": "x_partial", "partialFilterExpression": {"x": {"$gt": 1}}},
        );
        assert_eq!(r.get_i32("numIndexesAfter").unwrap(), 4);
    }

    #[test]
    fn an_identical_spec_is_a_no_op() {
        let mut e = Engine::new();
        create(
            &mut e,
            doc! {"key": {"x": 1}, "name": "x_1", "unique": true},
        );
        let r = create(
            &mut e,
            doc! {"key": {"x": 1}, "name": "x_1", "unique": true},
        );
        assert_eq!(
            r,
            doc! {"numIndexesBefore": 2, "numIndexesAfter": 2, "note": "all indexes already exist", "ok": 1.0}
        );
        let r = create(&mut e, doc! {"key": {"_id": 1}, "name": "_id_"});
        assert_eq!(r.get_str("note").unwrap(), "all indexes already exist");
    }

    /// `autoIndexId: false` (the `local` database only; 50001 elsewhere) makes a collection
    /// without the `_id` index; asking for `{_id: 1}` then builds it once, and it survives a
    /// reload from the durable store (jstests/core/index9.js).
    #[test]
    fn auto_index_id_false_in_local_only() {
        let mut store = MemoryStore::default();
        let mut e = Engine::new();
        let r = run(&mut e, doc! {"create": "c", "autoIndexId": false});
        assert_eq!(r.get_i32("code").unwrap(), 50001, "{r}");
        let ok = |r: &Document| r.get_f64("ok").ok() == Some(1.0);
        let local = |e: &mut Engine, cmd: Document| e.run_command("local", &cmd);
        assert!(ok(&local(
            &mut e,
            doc! {"create": "c", "autoIndexId": false}
        )));
        let count = |e: &mut Engine| {
            local(e, doc! {"listIndexes": "c"})
                .get_document("cursor")
                .unwrap()
                .get_array("firstBatch")
                .unwrap()
                .len()
        };
        assert_eq!(count(&mut e), 0);
        // Without the `_id` index, an `_id` equality is a collection scan.
        local(&mut e, doc! {"insert": "c", "documents": [{"_id": 1}]});
        let r = local(
            &mut e,
            doc! {"explain": {"find": "c", "filter": {"_id": 1}}, "verbosity": "queryPlanner"},
        );
        let plan = r
            .get_document("queryPlanner")
            .unwrap()
            .get_document("winningPlan")
            .unwrap();
        assert_eq!(plan.get_str("stage").unwrap(), "COLLSCAN");
        for _ in 0..2 {
            let r = local(
                &mut e,
                doc! {"createIndexes": "c", "indexes": [{"key": {"_id": 1}, "name": "bad"}]},
            );
            assert!(ok(&r), "{r}");
            assert_eq!(count(&mut e), 1);
        }
        store.commit(&e.take_changes()).unwrap();
        let mut reloaded = Engine::new().load(store.snapshot().unwrap()).unwrap();
        assert_eq!(count(&mut reloaded), 1);
        // A new collection comes with its `_id` index: asking for it builds nothing more.
        let r = run(
            &mut e,
            doc! {"createIndexes": "fresh", "indexes": [{"key": {"_id": 1}, "name": "_id_"}]},
        );
        assert!(ok(&r), "{r}");
        let r = run(&mut e, doc! {"listIndexes": "fresh"});
        assert_eq!(
            r.get_document("cursor")
                .unwrap()
                .get_array("firstBatch")
                .unwrap()
                .len(),
            1
        );
    }

    /// An `_id` index spec takes only key, name, v, ns and collation, its key must be
    /// `{_id: 1}`, its collation the collection's default, and no other index may be named
    /// `_id_` (MongoDB's validateIdIndexSpec and IndexCatalogImpl::_isSpecOk).
    #[test]
    fn id_index_specs_are_validated() {
        let mut e = Engine::new();
        run(&mut e, doc! {"create": "c"});
        let code = |e: &mut Engine, spec: Document| {
            run(e, doc! {"createIndexes": "c", "indexes": [spec]})
                .get_i32("code")
                .ok()
        };
        assert_eq!(
            code(
                &mut e,
                doc! {"key": {"_id": 1}, "name": "_id_", "unique": true}
            ),
            Some(197)
        );
        assert_eq!(
            code(
                &mut e,
                doc! {"key": {"_id": 1}, "name": "_id_", "background": false}
            ),
            Some(197)
        );
        assert_eq!(
            code(&mut e, doc! {"key": {"_id": -1}, "name": "_id_"}),
            Some(2)
        );
        assert_eq!(
            code(&mut e, doc! {"key": {"_id": "hashed"}, "name": "_id_"}),
            Some(2)
        );
        assert_eq!(
            code(
                &mut e,
                doc! {"key": {"_id": 1}, "name": "_id_", "collation": {"locale": "en_US"}}
            ),
            Some(2)
        );
        assert_eq!(
            code(
                &mut e,
                doc! {"key": {"_id": 1}, "name": "_id_", "v": 2, "collation": {"locale": "simple"}}
            ),
            None
        );
    }

    /// MongoDB 8.0 builds index versions 1 and 2 only, keeps the version asked for, refuses
    /// the name `*`, a field createIndexes does not define (40415) and any index on
    /// config.transactions (jstests/core/create_indexes.js).
    #[test]
    fn versions_reserved_names_and_unknown_fields() {
        let mut e = Engine::new();
        let code = |e: &mut Engine, cmd: Document| e.run_command("db", &cmd).get_i32("code").ok();
        for v in [0, 3] {
            assert_eq!(
                code(
                    &mut e,
                    doc! {"createIndexes": "c", "indexes": [{"key": {"d": 1}, "name": "d_1", "v": v}]}
                ),
                Some(67)
            );
        }
        assert_eq!(
            code(
                &mut e,
                doc! {"createIndexes": "c", "indexes": [{"key": {"d": 1}, "name": "d_1", "v": "2"}]}
            ),
            Some(14)
        );
        assert_eq!(
            code(
                &mut e,
                doc! {"createIndexes": "c", "indexes": [{"key": {"d": 1}, "name": "d_1", "v": 1}]}
            ),
            None
        );
        assert!(list(&mut e).contains(&doc! {"v": 1, "key": {"d": 1}, "name": "d_1"}));
        assert_eq!(
            code(
                &mut e,
                doc! {"createIndexes": "c", "indexes": [{"key": {"s": 1}, "name": "*"}]}
            ),
            Some(2)
        );
        assert_eq!(
            code(
                &mut e,
                doc! {"createIndexes": "c", "indexes": [{"key": {"e": 1}, "name": "e_1"}], "invalidField": 1}
            ),
            Some(40415)
        );
        let r = e.run_command(
            "config",
            &doc! {"createIndexes": "transactions", "indexes": [{"key": {"s": 1}, "name": "s_1"}]},
        );
        assert_eq!(r.get_i32("code").unwrap(), 20, "{r}");
    }

    /// `dropDups` is accepted, ignored (duplicates still fail a unique build with E11000) and
    /// left out of the stored spec (jstests/core/index_dropdups_ignore.js).
    #[test]
    fn drop_dups_is_ignored() {
        let mut e = Engine::new();
        run(
            &mut e,
            doc! {"insert": "c", "documents": [{"_id": 1, "a": "dup"}, {"_id": 2, "a": "dup"}]},
        );
        let spec = doc! {"key": {"a": 1}, "name": "a_1", "unique": true, "dropDups": true};
        let r = run(
            &mut e,
            doc! {"createIndexes": "c", "indexes": [spec.clone()]},
        );
        assert_eq!(r.get_i32("code").unwrap(), 11000, "{r}");
        run(
            &mut e,
            doc! {"delete": "c", "deletes": [{"q": {"_id": 2}, "limit": 1}]},
        );
        let r = run(&mut e, doc! {"createIndexes": "c", "indexes": [spec]});
        assert_eq!(r.get_f64("ok").unwrap(), 1.0, "{r}");
        assert!(list(&mut e).iter().all(|s| !s.contains_key("dropDups")));
    }
}
