//! Catalog commands: `create`, `drop`, `dropDatabase`, `listCollections`, `listDatabases`,
//! and `buildInfo`.

use bson::{Bson, Document, doc};

use super::target_namespace;
use crate::Engine;
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
    let mut options = Document::new();
    for (k, v) in command.iter().skip(1) {
        match k.as_str() {
            "writeConcern" | "comment" | "lsid" | "$db" => {}
            "capped" | "size" | "max" | "validator" | "validationLevel" | "validationAction" => {
                options.insert(k.clone(), v.clone());
            }
            other => {
                return Err(Error::new(
                    ErrorCode::Location(40415),
                    format!("BSON field 'create.{other}' is an unknown field."),
                ));
            }
        }
    }
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
    Ok(doc! {"nIndexesWas": dropped.indexes().len() as i32, "ns": ns.to_string(), "ok": 1.0})
}

pub fn drop_database(engine: &mut Engine, db: &str) -> Result<Document> {
    let names: Vec<String> = engine
        .catalog()
        .collection_names(db)
        .into_iter()
        .map(str::to_string)
        .collect();
    for coll in names {
        let ns = Namespace::new(db, coll);
        engine.catalog_mut().drop_collection(&ns);
        engine.record(Change::DropCollection { ns });
    }
    Ok(doc! {"dropped": db, "ok": 1.0})
}

pub fn list_collections(engine: &mut Engine, db: &str, command: &Document) -> Result<Document> {
    let name_only = matches!(command.get("nameOnly"), Some(Bson::Boolean(true)));
    let filter = match command.get("filter") {
        Some(Bson::Document(f)) => crate::matcher::Filter::parse(f)?,
        _ => crate::matcher::Filter::all(),
    };
    let mut out = Vec::new();
    for (name, coll) in engine.catalog().collections(db) {
        let entry = if name_only {
            doc! {"name": name, "type": "collection"}
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

pub fn list_databases(engine: &mut Engine) -> Result<Document> {
    let mut dbs = Vec::new();
    let mut total: i64 = 0;
    for db in engine.catalog().database_names() {
        let size: i64 = engine
            .catalog()
            .collections(db)
            .flat_map(|(_, c)| c.iter())
            .map(|(_, d)| d.to_vec().map(|v| v.len() as i64).unwrap_or(0))
            .sum();
        total += size;
        dbs.push(doc! {"name": db, "sizeOnDisk": size, "empty": size == 0});
    }
    Ok(doc! {"databases": dbs, "totalSize": total, "totalSizeMb": total / (1024 * 1024), "ok": 1.0})
}

pub fn build_info() -> Document {
    doc! {
        "version": crate::MONGODB_COMPAT_VERSION,
        "gitVersion": "sprout",
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
    use bson::doc;

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
}
