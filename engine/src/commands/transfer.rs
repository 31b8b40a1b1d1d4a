//! Sprout's data-transfer commands, so the shell, the CLI and the page move data in MongoDB's
//! formats through the one command interface (`transfer/` holds the formats):
//!
//! - `{sproutExportJSON: <coll>, jsonFormat: "relaxed"|"canonical", jsonArray: <bool>,
//!   filter, sort, skip, limit, projection}` → `{text, count, ok}`: what `mongoexport` writes;
//! - `{sproutImportJSON: <coll>, text: <string>, jsonArray: <bool>, drop: <bool>}` →
//!   `{imported, ok}`: what `mongoimport` reads;
//! - `{sproutExportArchive: 1, collections: [<name>, …]}` → `{archive: BinData, collections,
//!   documents, ok}`: the database as `mongodump --archive` writes it;
//! - `{sproutImportArchive: BinData, fromDb: <name>, drop: <bool>}` → `{restored, collections,
//!   ok}`: a mongodump archive's database restored into this one, as `mongorestore --archive
//!   --nsFrom '<fromDb>.*' --nsTo '<db>.*'` would (collections with their options, documents,
//!   then indexes; views recreated).
//!
//! An import is all or nothing: the whole input is parsed first, then applied; when any write
//! fails, the collections it touched are put back as they were and the command's change batch
//! is emptied, so nothing of it is stored.

use bson::spec::BinarySubtype;
use bson::{Binary, Bson, Document, doc};

use super::dispatch;
use crate::Engine;
use crate::catalog::{Collection, Namespace, validate_collection_name};
use crate::error::{Error, ErrorCode, Result};
use crate::matcher::MatchContext;
use crate::transfer::archive::{
    Archive, ArchiveHeader, ArchivedCollection, FORMAT_VERSION, read_archive, write_archive,
};
use crate::transfer::metadata::CollectionMetadata;
use crate::transfer::mongoexport::export_json;
use crate::transfer::mongoimport::parse_json_import;
use crate::transfer::{ExtJsonMode, JsonLayout};
use crate::value::bson_bytes::decode_document;

/// Documents per internal insert command (MongoDB's `maxWriteBatchSize` is 100,000).
const INSERT_CHUNK: usize = 1000;
/// Databases a dump of a whole deployment holds besides the user's.
const SYSTEM_DATABASES: [&str; 3] = ["admin", "config", "local"];

/// `sproutExportJSON`.
pub fn export_json_command(
    engine: &mut Engine,
    db: &str,
    command: &Document,
    ctx: &MatchContext<'_>,
) -> Result<Document> {
    let coll = collection_argument(db, command, "sproutExportJSON")?;
    let mode = match optional_string(command, "sproutExportJSON", "jsonFormat")? {
        None | Some("relaxed") => ExtJsonMode::Relaxed,
        Some("canonical") => ExtJsonMode::Canonical,
        Some(other) => {
            return Err(Error::bad_value(format!(
                "invalid jsonFormat '{other}': use 'relaxed' or 'canonical'"
            )));
        }
    };
    let layout = layout_option(command)?;
    let docs = read_all(engine, db, &coll, command, ctx)?;
    let text = export_json(&docs, mode, layout);
    Ok(doc! {"text": text, "count": count(docs.len()), "ok": 1.0})
}

/// `sproutImportJSON`.
pub fn import_json_command(engine: &mut Engine, db: &str, command: &Document) -> Result<Document> {
    let coll = collection_argument(db, command, "sproutImportJSON")?;
    let Some(Bson::String(text)) = command.get("text") else {
        return Err(Error::type_mismatch(
            "BSON field 'sproutImportJSON.text' is missing or not a string",
        ));
    };
    let layout = layout_option(command)?;
    let drop = super::bool_option(command, "drop", false)?;
    let bypass = super::bool_option(command, "bypassDocumentValidation", false)?;
    let parsed = parse_json_import(text, layout)?;
    let ns = Namespace::new(db, coll.as_str());
    let mut undo = Undo::new(engine);
    undo.remember(engine, &ns);
    let outcome = (|| {
        if drop {
            drop_if_exists(engine, db, &coll)?;
        }
        let docs: Vec<Document> = parsed.iter().map(|d| d.document.clone()).collect();
        insert_all(engine, db, &coll, docs, bypass).map_err(|(index, e)| {
            let line = parsed.get(index).map_or(0, |d| d.line);
            Error::new(
                e.code,
                format!(
                    "document #{} (line {line}) was not imported: {}",
                    index + 1,
                    e.message
                ),
            )
        })
    })();
    match outcome {
        Ok(()) => Ok(doc! {"imported": count(parsed.len()), "ok": 1.0}),
        Err(e) => {
            undo.restore(engine);
            Err(e)
        }
    }
}

/// `sproutExportArchive`.
pub fn export_archive_command(
    engine: &mut Engine,
    db: &str,
    command: &Document,
) -> Result<Document> {
    let only: Option<Vec<String>> = match command.get("collections") {
        None | Some(Bson::Null) => None,
        Some(Bson::Array(names)) => Some(
            names
                .iter()
                .map(|n| match n {
                    Bson::String(s) => Ok(s.clone()),
                    _ => Err(Error::type_mismatch(
                        "BSON field 'sproutExportArchive.collections' holds a non-string",
                    )),
                })
                .collect::<Result<_>>()?,
        ),
        Some(_) => {
            return Err(Error::type_mismatch(
                "BSON field 'sproutExportArchive.collections' is not an array of names",
            ));
        }
    };
    if let Some(names) = &only
        && let Some(missing) = names.iter().find(|n| {
            engine
                .catalog()
                .collection(&Namespace::new(db, n.as_str()))
                .is_none()
        })
    {
        return Err(Error::new(
            ErrorCode::NamespaceNotFound,
            format!("collection {db}.{missing} does not exist"),
        ));
    }
    let names: Vec<String> = engine
        .catalog()
        .collection_names(db)
        .into_iter()
        .map(str::to_string)
        .filter(|n| only.as_ref().is_none_or(|o| o.contains(n)))
        .collect();
    let mut collections = Vec::new();
    let mut documents = 0usize;
    for name in names {
        let ns = Namespace::new(db, name.as_str());
        let Some(coll) = engine.catalog().collection(&ns) else {
            continue;
        };
        let is_view = coll.options.contains_key("viewOn");
        let options = coll.options.clone();
        let docs = if is_view {
            Vec::new()
        } else {
            coll.iter()
                .map(|(_, d)| {
                    d.to_vec()
                        .map_err(|e| Error::bad_value(format!("cannot encode a document: {e}")))
                })
                .collect::<Result<Vec<_>>>()?
        };
        let indexes = if is_view {
            Vec::new()
        } else {
            list_indexes(engine, db, &name)?
        };
        documents += docs.len();
        let kind = if is_view { "view" } else { "collection" };
        let metadata = CollectionMetadata {
            options,
            indexes,
            uuid: None,
            collection_name: name.clone(),
            kind: kind.to_string(),
        };
        collections.push(ArchivedCollection {
            db: db.to_string(),
            collection: name,
            metadata: metadata.to_json(),
            kind: kind.to_string(),
            documents: docs,
        });
    }
    let collection_count = collections.len();
    let archive = Archive {
        header: ArchiveHeader {
            // mongodump's default --numParallelCollections.
            concurrent_collections: 4,
            format_version: FORMAT_VERSION.to_string(),
            server_version: crate::MONGODB_COMPAT_VERSION.to_string(),
            tool_version: format!("sprout {}", env!("CARGO_PKG_VERSION")),
        },
        collections,
    };
    let bytes = write_archive(&archive)?;
    Ok(doc! {
        "archive": Binary { subtype: BinarySubtype::Generic, bytes },
        "collections": count(collection_count),
        "documents": count(documents),
        "ok": 1.0,
    })
}

/// `sproutImportArchive`.
pub fn import_archive_command(
    engine: &mut Engine,
    db: &str,
    command: &Document,
) -> Result<Document> {
    let bytes = match command.get("sproutImportArchive") {
        Some(Bson::Binary(b)) => &b.bytes,
        _ => {
            return Err(Error::type_mismatch(
                "BSON field 'sproutImportArchive' must be the archive's bytes (binData)",
            ));
        }
    };
    let from_db = optional_string(command, "sproutImportArchive", "fromDb")?;
    let drop = super::bool_option(command, "drop", false)?;
    let bypass = super::bool_option(command, "bypassDocumentValidation", false)?;
    let archive = read_archive(bytes)?;
    let source = source_database(&archive, from_db)?;

    // Everything is read and checked before anything changes.
    let mut plan = Vec::new();
    for coll in archive.collections.iter().filter(|c| c.db == source) {
        if coll.collection.starts_with("system.") {
            continue;
        }
        let meta = CollectionMetadata::parse(&coll.metadata, &coll.collection)?;
        validate_collection_name(&Namespace::new(db, coll.collection.as_str()))?;
        let docs = coll
            .documents
            .iter()
            .map(|raw| decode_document(raw))
            .collect::<Result<Vec<_>>>()?;
        plan.push((coll.collection.clone(), meta, docs));
    }

    let mut undo = Undo::new(engine);
    for (name, _, _) in &plan {
        undo.remember(engine, &Namespace::new(db, name.as_str()));
    }
    let mut restored = 0usize;
    let mut summary = Vec::new();
    let outcome = (|| {
        for (name, meta, docs) in &plan {
            restore_collection(engine, db, name, meta, docs.clone(), drop, bypass)
                .map_err(|e| Error::new(e.code, format!("restoring {db}.{name}: {}", e.message)))?;
            restored += docs.len();
            summary.push(Bson::Document(doc! {
                "name": name.as_str(),
                "type": if meta.is_view() { "view" } else { "collection" },
                "documents": count(docs.len()),
                "indexes": count(meta.indexes.len()),
            }));
        }
        Ok::<(), Error>(())
    })();
    match outcome {
        Ok(()) => Ok(doc! {"restored": count(restored), "collections": summary, "ok": 1.0}),
        Err(e) => {
            undo.restore(engine);
            Err(e)
        }
    }
}

/// The archive database to restore: `fromDb`, else the only one besides the system databases.
fn source_database<'a>(archive: &'a Archive, from_db: Option<&'a str>) -> Result<&'a str> {
    let mut dbs: Vec<&str> = Vec::new();
    for c in &archive.collections {
        if !dbs.contains(&c.db.as_str()) {
            dbs.push(&c.db);
        }
    }
    if let Some(wanted) = from_db {
        return if dbs.contains(&wanted) {
            Ok(wanted)
        } else {
            Err(Error::new(
                ErrorCode::NamespaceNotFound,
                format!(
                    "the archive holds no database '{wanted}' (it holds: {})",
                    dbs.join(", ")
                ),
            ))
        };
    }
    let users: Vec<&str> = dbs
        .iter()
        .copied()
        .filter(|d| !SYSTEM_DATABASES.contains(d))
        .collect();
    match users.as_slice() {
        [one] => Ok(one),
        [] => Err(Error::bad_value(
            "the archive holds no user database to import",
        )),
        many => Err(Error::bad_value(format!(
            "the archive holds the databases {}: choose one with fromDb",
            many.join(", ")
        ))),
    }
}

/// Creates (unless it exists), fills and indexes one collection, or recreates a view.
fn restore_collection(
    engine: &mut Engine,
    db: &str,
    name: &str,
    meta: &CollectionMetadata,
    docs: Vec<Document>,
    drop: bool,
    bypass: bool,
) -> Result<()> {
    if drop {
        drop_if_exists(engine, db, name)?;
    }
    let exists = engine
        .catalog()
        .collection(&Namespace::new(db, name))
        .is_some();
    if !exists || meta.is_view() {
        let mut create = doc! {"create": name};
        create.extend(meta.options.clone());
        run(engine, db, &create)?;
    }
    if meta.is_view() {
        return Ok(());
    }
    insert_all(engine, db, name, docs, bypass).map_err(|(index, e)| {
        Error::new(e.code, format!("document #{}: {}", index + 1, e.message))
    })?;
    let indexes: Vec<Bson> = meta
        .indexes
        .iter()
        .filter(|spec| spec.get_str("name").ok() != Some("_id_"))
        .map(|spec| {
            let mut spec = spec.clone();
            spec.remove("ns");
            Bson::Document(spec)
        })
        .collect();
    if !indexes.is_empty() {
        run(
            engine,
            db,
            &doc! {"createIndexes": name, "indexes": indexes},
        )?;
    }
    Ok(())
}

/// Inserts in ordered chunks; the error carries the index of the document that failed.
fn insert_all(
    engine: &mut Engine,
    db: &str,
    coll: &str,
    docs: Vec<Document>,
    bypass: bool,
) -> std::result::Result<(), (usize, Error)> {
    if docs.is_empty() {
        // An empty import still leaves the collection behind, as mongoimport's does.
        let ns = Namespace::new(db, coll);
        if engine.catalog().collection(&ns).is_none() {
            run(engine, db, &doc! {"create": coll}).map_err(|e| (0, e))?;
        }
        return Ok(());
    }
    let mut start = 0;
    let mut docs = docs.into_iter().peekable();
    while docs.peek().is_some() {
        let chunk: Vec<Bson> = docs
            .by_ref()
            .take(INSERT_CHUNK)
            .map(Bson::Document)
            .collect();
        let len = chunk.len();
        let mut insert = doc! {"insert": coll, "documents": chunk, "ordered": true};
        if bypass {
            insert.insert("bypassDocumentValidation", true);
        }
        let reply = run(engine, db, &insert).map_err(|e| (start, e))?;
        if let Ok(errors) = reply.get_array("writeErrors")
            && let Some(Bson::Document(first)) = errors.first()
        {
            let index = first.get_i32("index").unwrap_or(0).max(0) as usize;
            let code = first.get_i32("code").unwrap_or(1);
            let message = first.get_str("errmsg").unwrap_or_default().to_string();
            return Err((
                start + index,
                Error::new(ErrorCode::from_code(code), message),
            ));
        }
        start += len;
    }
    Ok(())
}

fn drop_if_exists(engine: &mut Engine, db: &str, coll: &str) -> Result<()> {
    if engine
        .catalog()
        .collection(&Namespace::new(db, coll))
        .is_some()
    {
        run(engine, db, &doc! {"drop": coll})?;
    }
    Ok(())
}

/// A count as the server writes one: an int, or a long when it does not fit.
fn count(n: usize) -> Bson {
    match i32::try_from(n) {
        Ok(small) => Bson::Int32(small),
        Err(_) => Bson::Int64(i64::try_from(n).unwrap_or(i64::MAX)),
    }
}

/// Runs a command of this engine as part of the running one.
fn run(engine: &mut Engine, db: &str, command: &Document) -> Result<Document> {
    dispatch(engine, db, command, &MatchContext::default())
}

/// Every document a find on `coll` returns (a view's too), in natural order unless sorted.
fn read_all(
    engine: &mut Engine,
    db: &str,
    coll: &str,
    command: &Document,
    ctx: &MatchContext<'_>,
) -> Result<Vec<Document>> {
    let mut find = doc! {"find": coll};
    for field in ["filter", "sort", "skip", "limit", "projection"] {
        if let Some(v) = command.get(field) {
            find.insert(field, v.clone());
        }
    }
    let reply = dispatch(engine, db, &find, ctx)?;
    let mut docs = Vec::new();
    let mut cursor = reply.get_document("cursor").cloned().unwrap_or_default();
    let mut batch_field = "firstBatch";
    loop {
        if let Ok(batch) = cursor.get_array(batch_field) {
            docs.extend(batch.iter().filter_map(|d| d.as_document().cloned()));
        }
        let id = cursor.get_i64("id").unwrap_or(0);
        if id == 0 {
            return Ok(docs);
        }
        let more = dispatch(engine, db, &doc! {"getMore": id, "collection": coll}, ctx)?;
        cursor = more.get_document("cursor").cloned().unwrap_or_default();
        batch_field = "nextBatch";
    }
}

/// `listIndexes`' documents for a collection.
fn list_indexes(engine: &mut Engine, db: &str, coll: &str) -> Result<Vec<Document>> {
    let reply = run(engine, db, &doc! {"listIndexes": coll})?;
    let cursor = reply.get_document("cursor").cloned().unwrap_or_default();
    Ok(cursor
        .get_array("firstBatch")
        .map(|b| b.iter().filter_map(|d| d.as_document().cloned()).collect())
        .unwrap_or_default())
}

fn collection_argument(db: &str, command: &Document, cmd: &str) -> Result<String> {
    match command.get(cmd) {
        Some(Bson::String(name)) => {
            validate_collection_name(&Namespace::new(db, name.as_str()))?;
            Ok(name.clone())
        }
        _ => Err(Error::new(
            ErrorCode::InvalidNamespace,
            format!("{cmd} needs a collection name"),
        )),
    }
}

fn optional_string<'a>(command: &'a Document, cmd: &str, field: &str) -> Result<Option<&'a str>> {
    match command.get(field) {
        None | Some(Bson::Null) => Ok(None),
        Some(Bson::String(s)) => Ok(Some(s)),
        Some(other) => Err(Error::type_mismatch(format!(
            "BSON field '{cmd}.{field}' is the wrong type '{}', expected type 'string'",
            crate::value::display::type_name(other)
        ))),
    }
}

fn layout_option(command: &Document) -> Result<JsonLayout> {
    Ok(if super::bool_option(command, "jsonArray", false)? {
        JsonLayout::Array
    } else {
        JsonLayout::Lines
    })
}

/// What an import must put back when it fails: the collections it may touch as they were, and
/// the length of the change batch before it.
struct Undo {
    saved: Vec<(Namespace, Option<Collection>)>,
    first_change: usize,
}

impl Undo {
    fn new(engine: &Engine) -> Self {
        Undo {
            saved: Vec::new(),
            first_change: engine.pending.changes.len(),
        }
    }

    fn remember(&mut self, engine: &Engine, ns: &Namespace) {
        if self.saved.iter().all(|(saved, _)| saved != ns) {
            self.saved
                .push((ns.clone(), engine.catalog().collection(ns).cloned()));
        }
    }

    fn restore(self, engine: &mut Engine) {
        for (ns, coll) in self.saved {
            match coll {
                Some(coll) => engine.catalog_mut().insert_collection(&ns, coll),
                None => {
                    engine.catalog_mut().drop_collection(&ns);
                }
            }
        }
        engine.pending.changes.truncate(self.first_change);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transfer::archive::read_archive;

    fn engine_with(db: &str, docs: &[Document]) -> Engine {
        let mut e = Engine::new();
        let docs: Vec<Bson> = docs.iter().cloned().map(Bson::Document).collect();
        // An insert of nothing creates no collection (as in MongoDB): create it first.
        let reply = e.run_command(db, &doc! {"create": "c"});
        assert_eq!(reply.get_f64("ok").unwrap(), 1.0, "{reply}");
        // (An insert takes at least one document: InvalidLength otherwise, as in MongoDB.)
        if !docs.is_empty() {
            let reply = e.run_command(db, &doc! {"insert": "c", "documents": docs});
            assert_eq!(reply.get_f64("ok").unwrap(), 1.0, "{reply}");
        }
        let _ = e.take_changes();
        e
    }

    fn error_of(reply: &Document) -> (i32, String) {
        assert_eq!(reply.get_f64("ok").unwrap(), 0.0, "{reply}");
        (
            reply.get_i32("code").unwrap(),
            reply.get_str("errmsg").unwrap().to_string(),
        )
    }

    #[test]
    fn a_json_import_is_one_change_batch() {
        let mut e = engine_with("d", &[]);
        let reply = e.run_command(
            "d",
            &doc! {"sproutImportJSON": "c", "text": "{\"_id\":1}\n{\"_id\":2}\n"},
        );
        assert_eq!(reply.get_i32("imported").unwrap(), 2);
        assert_eq!(e.take_changes().changes.len(), 2);
    }

    #[test]
    fn a_failed_import_leaves_no_change() {
        let mut e = engine_with("d", &[doc! {"_id": 2}]);
        let reply = e.run_command(
            "d",
            &doc! {"sproutImportJSON": "c", "text": "{\"_id\":1}\n{\"_id\":2}\n", "drop": true},
        );
        // The drop empties the collection, so this import succeeds …
        assert_eq!(reply.get_i32("imported").unwrap(), 2);
        let _ = e.take_changes();
        // … and this one fails on its own duplicate, undoing its drop and its first insert.
        let reply = e.run_command(
            "d",
            &doc! {"sproutImportJSON": "c", "text": "{\"_id\":7}\n{\"_id\":7}\n", "drop": true},
        );
        let (code, message) = error_of(&reply);
        assert_eq!(code, 11000);
        assert!(
            message.starts_with("document #2 (line 2) was not imported"),
            "{message}"
        );
        assert!(e.take_changes().is_empty());
        let ns = Namespace::new("d", "c");
        let ids: Vec<Bson> = e
            .catalog()
            .collection(&ns)
            .unwrap()
            .iter()
            .map(|(_, d)| d.get("_id").unwrap().clone())
            .collect();
        assert_eq!(ids, vec![Bson::Int32(1), Bson::Int32(2)]);
    }

    #[test]
    fn bad_arguments_are_errors() {
        let mut e = engine_with("d", &[doc! {"_id": 1}]);
        let cases = [
            (
                doc! {"sproutExportJSON": 5},
                ErrorCode::InvalidNamespace.code(),
            ),
            (doc! {"sproutExportJSON": "c", "jsonFormat": "xml"}, 2),
            (doc! {"sproutExportJSON": "c", "jsonFormat": 1}, 14),
            (doc! {"sproutImportJSON": "c"}, 14),
            (doc! {"sproutImportJSON": "c", "text": "{"}, 9),
            (doc! {"sproutImportArchive": "x"}, 14),
            (doc! {"sproutExportArchive": 1, "collections": ["nope"]}, 26),
            (doc! {"sproutExportArchive": 1, "collections": "c"}, 14),
        ];
        for (command, code) in cases {
            let reply = e.run_command("d", &command);
            assert_eq!(error_of(&reply).0, code, "{command}");
        }
    }

    #[test]
    fn the_archive_database_is_chosen_or_named() {
        let mut e = engine_with("a", &[doc! {"_id": 1}]);
        let reply = e.run_command("b", &doc! {"insert": "c", "documents": [{"_id": 2}]});
        assert_eq!(reply.get_i32("n").unwrap(), 1);
        let mut bytes = Vec::new();
        for db in ["a", "b"] {
            let reply = e.run_command(db, &doc! {"sproutExportArchive": 1});
            bytes.push(reply.get_binary_generic("archive").unwrap().clone());
        }
        // Two one-database archives joined by hand would not be an archive; build one with two
        // databases from their parts instead.
        let mut both = read_archive(&bytes[0]).unwrap();
        both.collections
            .extend(read_archive(&bytes[1]).unwrap().collections);
        let both = write_archive(&both).unwrap();
        let binary = |b: &Vec<u8>| Binary {
            subtype: BinarySubtype::Generic,
            bytes: b.clone(),
        };
        let mut target = Engine::new();
        let reply = target.run_command("t", &doc! {"sproutImportArchive": binary(&both)});
        let (code, message) = error_of(&reply);
        assert_eq!(code, 2);
        assert!(
            message.contains("the databases a, b: choose one with fromDb"),
            "{message}"
        );
        let reply = target.run_command(
            "t",
            &doc! {"sproutImportArchive": binary(&both), "fromDb": "b"},
        );
        assert_eq!(reply.get_i32("restored").unwrap(), 1, "{reply}");
        let reply = target.run_command(
            "t",
            &doc! {"sproutImportArchive": binary(&both), "fromDb": "zz"},
        );
        assert_eq!(error_of(&reply).0, 26);
    }
}
