//! Catalog commands: `create`, `drop`, `dropDatabase`, `listCollections`, `listDatabases`,
//! and `buildInfo`.

use bson::{Bson, Document, doc};

use super::target_namespace;
use crate::Engine;
use crate::catalog::stats::{collection_sizes, number, scale_option, storage_stats};
use crate::catalog::{Collection, Namespace};
use crate::error::{Error, ErrorCode, Result};
use crate::storage::Change;

pub fn create(engine: &mut Engine, db: &str, command: &Document) -> Result<Document> {
    let ns = target_namespace(db, command)?;
    if engine.catalog().collection(&ns).is_some() {
        return Err(Error::new(
            ErrorCode::NamespaceExists,
            format!("Collection {ns} already exists."),
        ));
    }
    // capped, size and max are checked together and stored first, as mongod lists them.
    let mut options = crate::catalog::capped::create_options(command)?;
    for (k, v) in command.iter().skip(1) {
        match k.as_str() {
            "writeConcern" | "comment" | "lsid" | "$db" | "capped" | "size" | "max" => {}
            // `autoIndexId: false` creates no `_id` index, allowed only where nothing is
            // replicated (the `local` database): MongoDB's DatabaseImpl::createCollection
            // uasserts 50001 otherwise. listCollections shows the option as given.
            "autoIndexId" => {
                let auto = super::bool_option(command, "autoIndexId", true)?;
                if !auto && ns.db != "local" {
                    return Err(Error::location(
                        50001,
                        format!(
                            "autoIndexId:false is not allowed for collection {ns} because it can be replicated"
                        ),
                    ));
                }
                options.insert("autoIndexId", auto);
            }
            "validator" => {
                crate::validation::check_validator(&ns, "create", v)?;
                options.insert(k.clone(), v.clone());
            }
            "validationLevel" | "validationAction" => {
                options.insert(k.clone(), v.clone());
            }
            "viewOn" => match v {
                // create_command_validation::validateViewOnNotEmpty
                Bson::String(on) if on.is_empty() => {
                    return Err(Error::bad_value("'viewOn' cannot be empty"));
                }
                Bson::String(_) => {
                    options.insert("viewOn", v.clone());
                    options.insert(
                        "pipeline",
                        command
                            .get("pipeline")
                            .cloned()
                            .unwrap_or(Bson::Array(Vec::new())),
                    );
                }
                other => {
                    return Err(Error::type_mismatch(format!(
                        "BSON field 'create.viewOn' is the wrong type '{}', expected type 'string'",
                        crate::value::display::type_name(other)
                    )));
                }
            },
            "pipeline" => {
                if !command.contains_key("viewOn") {
                    return Err(Error::bad_value(
                        "'pipeline' requires 'viewOn' to also be specified",
                    ));
                }
                if !matches!(v, Bson::Array(_)) {
                    return Err(Error::type_mismatch(format!(
                        "BSON field 'create.pipeline' is the wrong type '{}', expected type 'array'",
                        crate::value::display::type_name(v)
                    )));
                }
            }
            // The default collation of the collection's queries and indexes, kept resolved (as
            // listCollections shows it); the simple collation is not kept.
            "collation" => {
                if let Some(c) = crate::collation::Collation::parse(v, "create.collation")? {
                    options.insert("collation", c.to_document());
                }
            }
            other => {
                return Err(Error::new(
                    ErrorCode::Location(40415),
                    format!("BSON field 'create.{other}' is an unknown field."),
                ));
            }
        }
    }
    if let Ok(view_on) = options.get_str("viewOn") {
        let pipeline = options
            .get_array("pipeline")
            .map(Vec::as_slice)
            .unwrap_or_default();
        super::view::check_definition(engine, &ns, view_on, pipeline)?;
    }
    engine.catalog().check_new_database(&ns.db)?;
    engine
        .catalog_mut()
        .insert_collection(&ns, Collection::with_options(options.clone()));
    engine.record(Change::PutCollection { ns, options });
    Ok(doc! {"ok": 1.0})
}

pub fn drop(engine: &mut Engine, db: &str, command: &Document) -> Result<Document> {
    let ns = target_namespace(db, command)?;
    // Since MongoDB 7.0, dropping a collection that does not exist succeeds.
    let Some(dropped) = engine.catalog_mut().drop_collection(&ns) else {
        return Ok(doc! {"ok": 1.0});
    };
    engine.record(Change::DropCollection { ns: ns.clone() });
    engine
        .cursors_mut()
        .kill_namespace(&ns, "collection dropped");
    Ok(doc! {"nIndexesWas": dropped.indexes().len() as i32, "ns": ns.to_string(), "ok": 1.0})
}

/// `dropDatabase`: `dropped` names the database only when there was one to drop (a database
/// with collections, or one kept open after its last collection was dropped); MongoDB 8.0's
/// command answers a database it does not hold with `{ok: 1}` alone (drop_database_cmd.cpp
/// returns an empty reply on NamespaceNotFound; jstests/core/dropdb.js).
pub fn drop_database(engine: &mut Engine, db: &str) -> Result<Document> {
    let existed = engine.catalog().holds_database(db);
    let names: Vec<String> = engine
        .catalog()
        .collection_names(db)
        .into_iter()
        .map(str::to_string)
        .collect();
    for coll in names {
        let ns = Namespace::new(db, coll);
        engine.catalog_mut().drop_collection(&ns);
        engine
            .cursors_mut()
            .kill_namespace(&ns, "collection dropped");
        engine.record(Change::DropCollection { ns });
    }
    engine.catalog_mut().close_database(db);
    if !existed {
        return Ok(doc! {"ok": 1.0});
    }
    Ok(doc! {"dropped": db, "ok": 1.0})
}

pub fn list_collections(engine: &mut Engine, db: &str, command: &Document) -> Result<Document> {
    let name_only = matches!(command.get("nameOnly"), Some(Bson::Boolean(true)));
    let filter = match command.get("filter") {
        Some(Bson::Document(f)) => {
            crate::query::FindSpec::parse(Some(f), None, None, None, None)?.filter
        }
        _ => crate::matcher::Filter::all(),
    };
    let mut out = Vec::new();
    for (name, coll) in engine.catalog().collections(db) {
        let is_view = coll.options.contains_key("viewOn");
        let entry = if name_only {
            doc! {"name": name, "type": if is_view { "view" } else { "collection" }}
        } else if is_view {
            doc! {"name": name, "type": "view", "options": coll.options.clone(), "info": {"readOnly": true}}
        } else {
            doc! {
                "name": name,
                "type": "collection",
                "options": coll.options.clone(),
                "info": {"readOnly": false},
                "idIndex": {"v": 2, "key": {"_id": 1}, "name": "_id_"},
            }
        };
        if filter.matches(&entry) {
            out.push(Bson::Document(entry));
        }
    }
    Ok(doc! {
        "cursor": {"id": 0_i64, "ns": format!("{db}.$cmd.listCollections"), "firstBatch": out},
        "ok": 1.0,
    })
}

pub fn list_databases(engine: &mut Engine, command: &Document) -> Result<Document> {
    // MongoDB 8.0's listDatabases (list_databases_common.h): `nameOnly` lists names alone and
    // no totals; `filter` matches each entry as listed, parsed without `$text`, `$where` or
    // near queries, and an `$expr` that fails fails the command (jstests/core/list_databases.js,
    // dbadmin.js).
    let name_only = super::bool_option(command, "nameOnly", false)?;
    let filter = match command.get("filter") {
        None | Some(Bson::Null) => None,
        Some(Bson::Document(f)) => {
            crate::matcher::ban_features(f, false)?;
            Some(crate::query::FindSpec::parse(Some(f), None, None, None, None)?.filter)
        }
        Some(other) => {
            return Err(Error::type_mismatch(format!(
                "BSON field 'listDatabases.filter' is the wrong type '{}', expected type 'object'",
                crate::value::display::type_name(other)
            )));
        }
    };
    let mut dbs = Vec::new();
    let mut total: i64 = 0;
    for db in engine.catalog().database_names() {
        let size: i64 = engine
            .catalog()
            .collections(db)
            .map(|(_, c)| c.data_size() as i64)
            .sum();
        let entry = if name_only {
            doc! {"name": db}
        } else {
            doc! {"name": db, "sizeOnDisk": size, "empty": size == 0}
        };
        if let Some(f) = &filter
            && !f.matches_with(&entry, &crate::matcher::MatchContext::default())?
        {
            continue;
        }
        total += size;
        dbs.push(entry);
    }
    if name_only {
        return Ok(doc! {"databases": dbs, "ok": 1.0});
    }
    Ok(doc! {"databases": dbs, "totalSize": total, "totalSizeMb": total / (1024 * 1024), "ok": 1.0})
}

/// `dbStats`: the database's totals. Sprout keeps documents uncompressed, so storageSize is the
/// data size (MongoDB's WiredTiger would report compressed, page-rounded figures).
pub fn db_stats(engine: &mut Engine, db: &str, command: &Document) -> Result<Document> {
    let scale = scale_option(command)?;
    let (mut collections, mut objects, mut data, mut indexes, mut index_size) =
        (0u64, 0u64, 0u64, 0u64, 0u64);
    for (_, coll) in engine.catalog().collections(db) {
        let (count, bytes, idx) = collection_sizes(coll);
        collections += 1;
        objects += count;
        data += bytes;
        indexes += idx.len() as u64;
        index_size += idx.iter().map(|(_, b)| b).sum::<u64>();
    }
    let avg = if objects == 0 {
        0.0
    } else {
        data as f64 / objects as f64
    };
    Ok(doc! {
        "db": db,
        "collections": number(collections as f64),
        "views": 0,
        "objects": number(objects as f64),
        "avgObjSize": number(avg),
        "dataSize": number(data as f64 / scale),
        "storageSize": number(data as f64 / scale),
        "indexes": number(indexes as f64),
        "indexSize": number(index_size as f64 / scale),
        "totalSize": number((data + index_size) as f64 / scale),
        "scaleFactor": number(scale),
        "ok": 1.0,
    })
}

/// `collStats` (what `db.c.stats()`, `dataSize()` and `totalIndexSize()` read).
pub fn coll_stats(engine: &mut Engine, db: &str, command: &Document) -> Result<Document> {
    let ns = target_namespace(db, command)?;
    let scale = scale_option(command)?;
    let Some(coll) = engine.catalog().collection(&ns) else {
        // MongoDB's collStats answers a collection that does not exist with zeros
        // (appendCollectionStorageStats fills them and the command ignores its
        // NamespaceNotFound; jstests/core/apitest_dbcollection.js).
        return Ok(doc! {
            "ns": ns.to_string(), "size": 0, "count": 0, "numOrphanDocs": 0,
            "storageSize": 0, "totalSize": 0, "nindexes": 0, "totalIndexSize": 0,
            "indexDetails": {}, "indexSizes": {}, "scaleFactor": number(scale), "ok": 1.0,
        });
    };
    let mut reply = doc! {"ns": ns.to_string()};
    reply.extend(storage_stats(coll, scale));
    reply.insert("ok", 1.0);
    Ok(reply)
}

/// `renameCollection` (an admin command): `{renameCollection: "db.a", to: "db.b", dropTarget}`.
pub fn rename_collection(engine: &mut Engine, db: &str, command: &Document) -> Result<Document> {
    if db != "admin" {
        return Err(Error::new(
            ErrorCode::Location(13),
            "renameCollection may only be run against the admin database.",
        ));
    }
    let parse = |field: &str| -> Result<Namespace> {
        let text = match command.get(field) {
            Some(Bson::String(s)) => s.clone(),
            _ => {
                return Err(Error::location(
                    40414,
                    format!(
                        "BSON field 'renameCollection.{field}' is missing but a required field"
                    ),
                ));
            }
        };
        let Some((d, c)) = text.split_once('.') else {
            return Err(Error::new(
                ErrorCode::InvalidNamespace,
                format!("Invalid namespace specified '{text}'"),
            ));
        };
        let ns = Namespace::new(d, c);
        // MongoDB 8.0's validateAndRunRenameCollection refuses this before the name checks.
        if ns.coll == super::system_views::NAME {
            return Err(Error::new(
                ErrorCode::IllegalOperation,
                "renaming system.views collection or renaming to system.views is not allowed",
            ));
        }
        crate::catalog::validate_collection_name(&ns)?;
        Ok(ns)
    };
    let from = parse("renameCollection")?;
    let to = parse("to")?;
    let drop_target = super::bool_option(command, "dropTarget", false)?;
    if engine.catalog().collection(&from).is_none() {
        return Err(Error::new(
            ErrorCode::NamespaceNotFound,
            format!("Source collection {from} does not exist"),
        ));
    }
    if from == to {
        return Err(Error::new(
            ErrorCode::IllegalOperation,
            "Can't rename a collection to itself",
        ));
    }
    engine.catalog().check_new_database(&to.db)?;
    if engine.catalog().collection(&to).is_some() {
        if !drop_target {
            return Err(Error::new(
                ErrorCode::NamespaceExists,
                "target namespace exists",
            ));
        }
        engine.catalog_mut().drop_collection(&to);
        engine.record(Change::DropCollection { ns: to.clone() });
    }
    let Some(coll) = engine.catalog_mut().drop_collection(&from) else {
        return Ok(doc! {"ok": 1.0});
    };
    engine.record(Change::DropCollection { ns: from });
    install_collection(engine, &to, coll);
    Ok(doc! {"ok": 1.0})
}

/// Puts a whole collection in the catalog under `ns`, replacing any collection there, and
/// records it as changes: the drop of the old one, the catalog entry, every document (used by
/// `renameCollection` and `$out`).
pub(super) fn install_collection(engine: &mut Engine, ns: &Namespace, coll: Collection) {
    if engine.catalog_mut().drop_collection(ns).is_some() {
        engine.record(Change::DropCollection { ns: ns.clone() });
    }
    engine.record(Change::PutCollection {
        ns: ns.clone(),
        options: coll.catalog_options(),
    });
    let docs: Vec<(u64, Vec<u8>)> = coll
        .iter()
        .map(|(rid, d)| (rid, d.to_vec().unwrap_or_default()))
        .collect();
    engine.catalog_mut().insert_collection(ns, coll);
    for (record_id, bson) in docs {
        engine.record(Change::PutDocument {
            ns: ns.clone(),
            record_id,
            bson,
        });
    }
}

pub fn build_info() -> Document {
    // MongoDB's buildInfo carries the version as numbers too (`versionArray`: major, minor,
    // patch, and 0 for a release; buildinfo.idl), which the legacy shell's tests compare
    // (bulk_api_ordered.js: `versionArray.slice(0, 3).join("")`).
    let mut version_array: Vec<i32> = crate::MONGODB_COMPAT_VERSION
        .split('.')
        .map(|p| p.parse().unwrap_or(0))
        .collect();
    version_array.resize(4, 0);
    doc! {
        "version": crate::MONGODB_COMPAT_VERSION,
        "gitVersion": "sprout",
        "versionArray": version_array,
        "sprout": env!("CARGO_PKG_VERSION"),
        "modules": [],
        "javascriptEngine": "boa",
        "bits": 64,
        "maxBsonObjectSize": 16 * 1024 * 1024,
        "ok": 1.0,
    }
}

#[cfg(test)]
mod tests {
    use crate::Engine;
    use crate::catalog::Namespace;
    use bson::{Document, doc};

    #[test]
    fn build_info_has_the_version_as_numbers() {
        let r = super::build_info();
        assert_eq!(
            r.get_array("versionArray").unwrap(),
            &vec![8.into(), 0.into(), 0.into(), 0.into()]
        );
    }

    #[test]
    fn create_list_drop() {
        let mut e = Engine::new();
        assert_eq!(e.run_command("t", &doc! {"create": "b"}), doc! {"ok": 1.0});
        assert_eq!(
            e.run_command("t", &doc! {"create": "b"})
                .get_i32("code")
                .unwrap(),
            48
        );
        e.run_command("t", &doc! {"insert": "a", "documents": [{}]});
        let r = e.run_command("t", &doc! {"listCollections": 1, "nameOnly": true});
        let names: Vec<_> = r
            .get_document("cursor")
            .unwrap()
            .get_array("firstBatch")
            .unwrap()
            .iter()
            .map(|d| {
                d.as_document()
                    .unwrap()
                    .get_str("name")
                    .unwrap()
                    .to_string()
            })
            .collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(
            e.run_command("t", &doc! {"drop": "a"}),
            doc! {"nIndexesWas": 1, "ns": "t.a", "ok": 1.0}
        );
        // MongoDB 7.0+: dropping a collection that is gone is a no-op that succeeds.
        assert_eq!(e.run_command("t", &doc! {"drop": "a"}), doc! {"ok": 1.0});
        e.run_command("t", &doc! {"dropDatabase": 1});
        assert_eq!(e.catalog().database_names().count(), 0);
        assert_eq!(
            e.run_command("t", &doc! {"frob": 1})
                .get_str("codeName")
                .unwrap(),
            "CommandNotFound"
        );
    }

    #[test]
    fn stats_and_rename() {
        let mut e = Engine::new();
        e.run_command(
            "t",
            &doc! {"insert": "a", "documents": [{"_id": 1, "x": "abc"}, {"_id": 2}]},
        );
        let s = e.run_command("t", &doc! {"collStats": "a"});
        // {_id: 1, x: "abc"} is 25 BSON bytes, {_id: 2} is 14.
        assert_eq!(s.get_i32("size").unwrap(), 39);
        assert_eq!(s.get_i32("count").unwrap(), 2);
        assert_eq!(s.get_i32("nindexes").unwrap(), 1);
        assert!(s.get_document("indexSizes").unwrap().contains_key("_id_"));
        let d = e.run_command("t", &doc! {"dbStats": 1});
        assert_eq!(
            (
                d.get_i32("collections").unwrap(),
                d.get_i32("objects").unwrap()
            ),
            (1, 2)
        );
        let nope = e.run_command("t", &doc! {"collStats": "nope", "scale": 1024});
        assert_eq!(
            (
                nope.get_i32("count").ok(),
                nope.get_i32("nindexes").ok(),
                nope.get_i32("scaleFactor").ok()
            ),
            (Some(0), Some(0), Some(1024)),
            "{nope}"
        );
        assert_eq!(nope.get_f64("ok").ok(), Some(1.0));
        e.take_changes();
        let r = e.run_command("admin", &doc! {"renameCollection": "t.a", "to": "t.b"});
        assert_eq!(r, doc! {"ok": 1.0});
        assert!(e.catalog().collection(&Namespace::new("t", "a")).is_none());
        assert_eq!(
            e.catalog()
                .collection(&Namespace::new("t", "b"))
                .unwrap()
                .len(),
            2
        );
        assert_eq!(e.take_changes().changes.len(), 1 + 1 + 2);
        let r = e.run_command("admin", &doc! {"renameCollection": "t.a", "to": "t.c"});
        assert_eq!(r.get_i32("code").unwrap(), 26);
        assert_eq!(
            e.run_command("t", &doc! {"renameCollection": "t.b", "to": "t.c"})
                .get_i32("code")
                .unwrap(),
            13
        );
    }

    /// `dropped` only when there was a database to drop (jstests/core/dropdb.js).
    #[test]
    fn drop_database_names_only_a_database_it_dropped() {
        let mut e = Engine::new();
        e.run_command("d", &doc! {"insert": "c", "documents": [{}]});
        let drop = doc! {"dropDatabase": 1};
        assert_eq!(e.run_command("d", &drop), doc! {"dropped": "d", "ok": 1.0});
        assert_eq!(e.run_command("d", &drop), doc! {"ok": 1.0});
        assert_eq!(e.run_command("never", &drop), doc! {"ok": 1.0});
        // A database whose last collection was dropped is still held, and dropped.
        e.run_command("d", &doc! {"insert": "c", "documents": [{}]});
        e.run_command("d", &doc! {"drop": "c"});
        assert_eq!(e.run_command("d", &drop), doc! {"dropped": "d", "ok": 1.0});
    }

    #[test]
    fn capped_collections_evict_the_oldest_by_size_and_count() {
        let mut e = Engine::new();
        let r = e.run_command(
            "t",
            &doc! {"create": "log", "capped": true, "size": 10000, "max": 3},
        );
        assert_eq!(r, doc! {"ok": 1.0});
        for i in 0..5 {
            e.run_command("t", &doc! {"insert": "log", "documents": [{"_id": i}]});
        }
        let ids = |e: &mut Engine, sort: i32| -> Vec<i32> {
            let r = e.run_command("t", &doc! {"find": "log", "sort": {"$natural": sort}});
            super::super::first_batch(&r)
                .iter()
                .map(|d| d.get_i32("_id").unwrap())
                .collect()
        };
        assert_eq!(ids(&mut e, 1), [2, 3, 4]);
        assert_eq!(ids(&mut e, -1), [4, 3, 2]);
        let s = e.run_command("t", &doc! {"collStats": "log"});
        assert_eq!(
            (
                s.get_bool("capped").unwrap(),
                s.get_i32("max").unwrap(),
                s.get_i32("maxSize").unwrap()
            ),
            (true, 3, 10000)
        );
        let l = e.run_command("t", &doc! {"listCollections": 1});
        let first = super::super::first_batch(&l).remove(0);
        assert_eq!(
            first.get_document("options").unwrap(),
            &doc! {"capped": true, "size": 10000, "max": 3}
        );
        // By size: 14-byte documents in a 40-byte collection keep the last two; a multi-document
        // insert ends in the same state as one insert at a time.
        e.run_command("t", &doc! {"create": "small", "capped": true, "size": 40});
        e.take_changes();
        let docs: Vec<_> = (0..4).map(|i| doc! {"_id": i}).collect();
        let r = e.run_command("t", &doc! {"insert": "small", "documents": docs});
        assert_eq!(r.get_i32("n").unwrap(), 4);
        let coll = e
            .catalog()
            .collection(&Namespace::new("t", "small"))
            .unwrap();
        let kept: Vec<i32> = coll
            .iter()
            .map(|(_, d)| d.get_i32("_id").unwrap())
            .collect();
        assert_eq!(kept, [2, 3]);
        // 4 puts, then 2 deletes of the evicted documents.
        assert_eq!(e.take_changes().changes.len(), 6);
        // MongoDB 8.0 allows deletes and size-changing updates on capped collections.
        let r = e.run_command(
            "t",
            &doc! {"delete": "small", "deletes": [{"q": {"_id": 2}, "limit": 1}]},
        );
        assert_eq!(r.get_i32("n").unwrap(), 1);
    }

    #[test]
    fn capped_options_survive_a_reload_and_keep_evicting() {
        use crate::storage::{DurableStore, MemoryStore};
        let mut e = Engine::new();
        e.run_command(
            "t",
            &doc! {"create": "log", "capped": true, "size": 4096, "max": 2},
        );
        e.run_command(
            "t",
            &doc! {"insert": "log", "documents": [{"_id": 1}, {"_id": 2}]},
        );
        let mut store = MemoryStore::default();
        store.commit(&e.take_changes()).unwrap();
        let mut back = Engine::new().load(store.snapshot().unwrap()).unwrap();
        back.run_command("t", &doc! {"insert": "log", "documents": [{"_id": 3}]});
        store.commit(&back.take_changes()).unwrap();
        let again = Engine::new().load(store.snapshot().unwrap()).unwrap();
        let coll = again
            .catalog()
            .collection(&Namespace::new("t", "log"))
            .unwrap();
        assert!(coll.is_capped());
        let ids: Vec<i32> = coll
            .iter()
            .map(|(_, d)| d.get_i32("_id").unwrap())
            .collect();
        assert_eq!(ids, [2, 3]);
    }

    fn names(r: &Document) -> Vec<String> {
        r.get_array("databases")
            .unwrap_or_else(|_| panic!("{r}"))
            .iter()
            .filter_map(|d| d.as_document()?.get_str("name").ok().map(str::to_string))
            .collect()
    }

    #[test]
    fn filter_and_name_only_are_mongodbs() {
        let mut e = Engine::new();
        for db in ["ld_bar", "ld_baz", "ld_foo"] {
            e.run_command(db, &doc! {"insert": "c", "documents": [{"x": 1}]});
        }
        let list = |e: &mut Engine, extra: Document| {
            let mut c = doc! {"listDatabases": 1};
            c.extend(extra);
            e.run_command("admin", &c)
        };
        let r = list(&mut e, doc! {"filter": {"name": {"$regex": "^ld_ba"}}});
        assert_eq!(names(&r), ["ld_bar", "ld_baz"]);
        let sizes: i64 = r
            .get_array("databases")
            .unwrap()
            .iter()
            .map(|d| d.as_document().unwrap().get_i64("sizeOnDisk").unwrap())
            .sum();
        assert_eq!(r.get_i64("totalSize").ok(), Some(sizes));
        let r = list(
            &mut e,
            doc! {"nameOnly": true, "filter": {"name": {"$regex": "foo"}}},
        );
        assert_eq!(r, doc! {"databases": [{"name": "ld_foo"}], "ok": 1.0});
        let r = list(
            &mut e,
            doc! {"filter": {"$expr": {"$eq": ["$name", "ld_baz"]}}},
        );
        assert_eq!(names(&r), ["ld_baz"]);
        for bad in [
            doc! {"$expr": {"$abs": "$name"}},
            doc! {"$text": {"$search": "x"}},
            doc! {"$where": "true"},
            doc! {"a": {"$nearSphere": [0, 0]}},
        ] {
            let r = list(&mut e, doc! {"filter": bad.clone()});
            assert_eq!(r.get_f64("ok").ok(), Some(0.0), "{bad}: {r}");
        }
    }
}
