//! `<db>.system.views`: where MongoDB keeps a database's view definitions, one document
//! `{_id: "<db>.<view>", viewOn, pipeline[, collation]}` a view. Sprout keeps views in the
//! catalog instead (a collection entry whose options hold `viewOn` and `pipeline`), and this
//! namespace shows them as those documents and takes the direct writes a superuser makes there:
//! `find`, `insert` (stored as given, unchecked, as MongoDB stores it; the next view definition
//! checks every view), `delete` and `drop` (jstests/core/views/views_drop.js, views_creation.js).
//! Other commands on it are refused as on any other system namespace.

use bson::{Bson, Document, doc};

use crate::Engine;
use crate::catalog::{Collection, Namespace};
use crate::error::{Error, ErrorCode, Result};
use crate::storage::Change;

/// The collection name of a database's view definitions.
pub const NAME: &str = "system.views";

/// Answers `command` when it is a find, insert, delete or drop of `<db>.system.views`;
/// `Ok(None)` otherwise.
pub fn intercept(
    engine: &mut Engine,
    db: &str,
    name: &str,
    command: &Document,
) -> Result<Option<Document>> {
    if !matches!(name, "find" | "insert" | "delete" | "drop")
        || command.get_str(name).ok() != Some(NAME)
    {
        return Ok(None);
    }
    let reply = match name {
        "find" => find(engine, db, command)?,
        "insert" => insert(engine, db, command)?,
        "delete" => delete(engine, db, command)?,
        _ => drop_all(engine, db),
    };
    Ok(Some(reply))
}

/// The definition documents of `db`'s views, in name order.
fn definitions(engine: &Engine, db: &str) -> Vec<Document> {
    engine
        .catalog()
        .collections(db)
        .filter_map(|(name, c)| {
            let on = c.options.get_str("viewOn").ok()?;
            let mut d = doc! {"_id": format!("{db}.{name}"), "viewOn": on};
            d.insert(
                "pipeline",
                c.options
                    .get("pipeline")
                    .cloned()
                    .unwrap_or(Bson::Array(Vec::new())),
            );
            if let Some(collation) = c.options.get("collation") {
                d.insert("collation", collation.clone());
            }
            Some(d)
        })
        .collect()
}

/// The definitions a filter selects.
fn selected(engine: &Engine, db: &str, filter: Option<&Document>) -> Result<Vec<Document>> {
    let filter = crate::query::FindSpec::parse(filter, None, None, None, None)?.filter;
    Ok(definitions(engine, db)
        .into_iter()
        .filter(|d| filter.matches(d))
        .collect())
}

fn find(engine: &Engine, db: &str, command: &Document) -> Result<Document> {
    let docs = selected(engine, db, command.get_document("filter").ok())?;
    Ok(doc! {
        "cursor": {"firstBatch": docs, "id": 0_i64, "ns": format!("{db}.{NAME}")},
        "ok": 1.0,
    })
}

fn insert(engine: &mut Engine, db: &str, command: &Document) -> Result<Document> {
    let documents = command.get_array("documents").map_err(|_| {
        Error::location(
            40414,
            "BSON field 'insert.documents' is missing but a required field",
        )
    })?;
    let mut n = 0;
    for (index, d) in documents.iter().enumerate() {
        if let Err(e) = insert_one(engine, db, d) {
            return Ok(doc! {
                "n": n,
                "writeErrors": [super::insert::write_error(index, &e)],
                "ok": 1.0,
            });
        }
        n += 1;
    }
    Ok(doc! {"n": n, "ok": 1.0})
}

/// Stores one definition document as the view it names. Its pipeline is not checked here:
/// MongoDB takes such a write as it is and refuses the next view definition while any stored
/// one is invalid (`view::check_definition`).
fn insert_one(engine: &mut Engine, db: &str, definition: &Bson) -> Result<()> {
    let Bson::Document(d) = definition else {
        return Err(Error::type_mismatch("a view definition must be a document"));
    };
    let invalid = |why: &str| Error::location(INVALID_VIEW_DEFINITION, why.to_string());
    let Ok(id) = d.get_str("_id") else {
        return Err(invalid(
            "a view definition's _id must be the string '<db>.<view>'",
        ));
    };
    let Some(coll) = id.strip_prefix(db).and_then(|rest| rest.strip_prefix('.')) else {
        return Err(invalid(&format!(
            "a view definition's _id must name a view of database {db}: {id}"
        )));
    };
    let ns = Namespace::new(db, coll);
    crate::catalog::validate_collection_name(&ns)?;
    let Ok(view_on) = d.get_str("viewOn") else {
        return Err(invalid("a view definition needs a string 'viewOn'"));
    };
    let Ok(pipeline) = d.get_array("pipeline") else {
        return Err(invalid("a view definition needs an array 'pipeline'"));
    };
    if let Some(existing) = engine.catalog().collection(&ns) {
        return Err(if existing.options.contains_key("viewOn") {
            Error::new(
                ErrorCode::DuplicateKey,
                format!(
                    "E11000 duplicate key error collection: {db}.{NAME} index: _id_ dup key: {{ _id: \"{id}\" }}"
                ),
            )
        } else {
            Error::new(
                ErrorCode::NamespaceExists,
                format!("Collection {ns} already exists."),
            )
        });
    }
    let mut options = doc! {"viewOn": view_on, "pipeline": pipeline.clone()};
    if let Ok(collation) = d.get_document("collation") {
        options.insert("collation", collation.clone());
    }
    engine
        .catalog_mut()
        .insert_collection(&ns, Collection::with_options(options.clone()));
    engine.record(Change::PutCollection { ns, options });
    Ok(())
}

/// MongoDB's InvalidViewDefinition (182).
const INVALID_VIEW_DEFINITION: i32 = 182;

fn delete(engine: &mut Engine, db: &str, command: &Document) -> Result<Document> {
    let deletes = command.get_array("deletes").map_err(|_| {
        Error::location(
            40414,
            "BSON field 'delete.deletes' is missing but a required field",
        )
    })?;
    let mut n = 0;
    for statement in deletes {
        let Bson::Document(statement) = statement else {
            return Err(Error::type_mismatch(
                "each delete statement must be a document",
            ));
        };
        let mut chosen = selected(engine, db, statement.get_document("q").ok())?;
        if statement.get("limit").map(crate::value::as_i64_signed) == Some(1) {
            chosen.truncate(1);
        }
        for d in chosen {
            let id = d.get_str("_id").unwrap_or_default();
            let coll = id
                .strip_prefix(db)
                .and_then(|r| r.strip_prefix('.'))
                .unwrap_or_default();
            drop_view(engine, &Namespace::new(db, coll));
            n += 1;
        }
    }
    Ok(doc! {"n": n, "ok": 1.0})
}

/// Dropping `system.views` drops every view of the database.
fn drop_all(engine: &mut Engine, db: &str) -> Document {
    let views: Vec<String> = engine
        .catalog()
        .collections(db)
        .filter(|(_, c)| c.options.contains_key("viewOn"))
        .map(|(name, _)| name.to_string())
        .collect();
    for view in views {
        drop_view(engine, &Namespace::new(db, view));
    }
    doc! {"ns": format!("{db}.{NAME}"), "ok": 1.0}
}

fn drop_view(engine: &mut Engine, ns: &Namespace) {
    if engine.catalog_mut().drop_collection(ns).is_some() {
        engine.record(Change::DropCollection { ns: ns.clone() });
        engine
            .cursors_mut()
            .kill_namespace(ns, "collection dropped");
    }
}

#[cfg(test)]
mod tests {
    use bson::{Bson, doc};

    use crate::Engine;

    fn batch(r: &bson::Document) -> Vec<Bson> {
        r.get_document("cursor")
            .unwrap()
            .get_array("firstBatch")
            .unwrap()
            .clone()
    }

    #[test]
    fn views_show_as_definitions_and_direct_writes_define_and_drop_them() {
        let mut e = Engine::new();
        e.run_command("db", &doc! {"insert": "c", "documents": [{"_id": 1}]});
        let r = e.run_command(
            "db",
            &doc! {"create": "v", "viewOn": "c", "pipeline": [{"$match": {}}]},
        );
        assert_eq!(r, doc! {"ok": 1.0});
        let r = e.run_command("db", &doc! {"find": "system.views", "filter": {}});
        assert_eq!(
            batch(&r),
            vec![Bson::Document(
                doc! {"_id": "db.v", "viewOn": "c", "pipeline": [{"$match": {}}]}
            )]
        );
        let r = e.run_command(
            "db",
            &doc! {"insert": "system.views", "documents": [{"_id": "db.w", "viewOn": "v", "pipeline": []}]},
        );
        assert_eq!(r, doc! {"n": 1, "ok": 1.0});
        let r = e.run_command("db", &doc! {"find": "w"});
        assert_eq!(batch(&r).len(), 1);
        let r = e.run_command(
            "db",
            &doc! {"delete": "system.views", "deletes": [{"q": {"_id": "db.w"}, "limit": 1}]},
        );
        assert_eq!(r, doc! {"n": 1, "ok": 1.0});
        let r = e.run_command("db", &doc! {"drop": "system.views"});
        assert_eq!(r.get_f64("ok").ok(), Some(1.0));
        let r = e.run_command("db", &doc! {"listCollections": 1});
        assert_eq!(batch(&r).len(), 1, "only the collection is left");
    }

    #[test]
    fn a_stored_invalid_definition_fails_the_next_view_definition() {
        let mut e = Engine::new();
        let r = e.run_command(
            "db",
            &doc! {"insert": "system.views", "documents": [{"_id": "db.bad", "viewOn": "c", "pipeline": [{"$project": {"_id": 0}}, {"$out": "x"}]}]},
        );
        assert_eq!(r.get_i32("n").ok(), Some(1));
        let r = e.run_command("db", &doc! {"create": "v", "viewOn": "c", "pipeline": []});
        assert_eq!(r.get_i32("code").ok(), Some(167));
        e.run_command(
            "db",
            &doc! {"delete": "system.views", "deletes": [{"q": {"_id": "db.bad"}, "limit": 0}]},
        );
        let r = e.run_command("db", &doc! {"create": "v", "viewOn": "c", "pipeline": []});
        assert_eq!(r, doc! {"ok": 1.0});
    }

    #[test]
    fn system_views_cannot_be_renamed() {
        let mut e = Engine::new();
        e.run_command("db", &doc! {"create": "v", "viewOn": "c"});
        let r = e.run_command(
            "admin",
            &doc! {"renameCollection": "db.system.views", "to": "db.views", "dropTarget": true},
        );
        assert_eq!(r.get_i32("code").ok(), Some(20));
    }
}
