//! `convertToCapped`: turns an ordinary collection into a capped one of the given size. As in
//! MongoDB, the documents are copied in natural order into the capped collection (so when they
//! do not fit, the oldest are evicted) and only the `_id` index survives.
//! `cloneCollectionAsCapped` makes that capped copy under another name in the same database
//! and leaves the source as it is.

use bson::Document;

use super::target_namespace;
use crate::Engine;
use crate::catalog::capped::{numeric_option, stored_number, validated_size};
use crate::error::{Error, ErrorCode, Result};
use crate::storage::Change;

pub fn convert_to_capped(engine: &mut Engine, db: &str, command: &Document) -> Result<Document> {
    let ns = target_namespace(db, command)?;
    let size = required_size(command, "convertToCapped")?;
    // The name is used exactly as given: the book's `{convertToCapped: " ordersQueue ", ...}`
    // names a collection with spaces around it, which does not exist, so MongoDB answers
    // NamespaceNotFound "source collection test. ordersQueue  does not exist", and so do we.
    let Some(coll) = engine.catalog_mut().collection_mut(&ns) else {
        return Err(Error::new(
            ErrorCode::NamespaceNotFound,
            format!("source collection {ns} does not exist"),
        ));
    };
    coll.options = capped_options(size, &coll.options);
    coll.drop_secondary_indexes();
    let evicted = coll.evict_over_cap();
    let options = coll.catalog_options();
    engine.record(Change::PutCollection {
        ns: ns.clone(),
        options,
    });
    for record_id in evicted {
        engine.record(Change::DeleteDocument {
            ns: ns.clone(),
            record_id,
        });
    }
    Ok(bson::doc! {"ok": 1.0})
}

/// The command's required `size`, checked as `create`'s is.
fn required_size(command: &Document, cmd: &str) -> Result<i64> {
    let Some(size) = numeric_option(command, cmd, "size")? else {
        return Err(Error::location(
            40414,
            format!("BSON field '{cmd}.size' is missing but a required field"),
        ));
    };
    validated_size("size", size)
}

/// A capped collection's options of `size` bytes, with the other options of `from` (its
/// collation, validator…) and none of its capped limits.
fn capped_options(size: i64, from: &Document) -> Document {
    let mut options = Document::new();
    options.insert("capped", true);
    options.insert("size", stored_number(size));
    for (k, v) in from {
        if !matches!(k.as_str(), "capped" | "size" | "max") {
            options.insert(k.clone(), v.clone());
        }
    }
    options
}

/// `{cloneCollectionAsCapped: <source>, toCollection: <name>, size: <bytes>}`: a new capped
/// collection of `size` bytes holding the source's documents in natural order (the newest
/// that fit), with the source's other options and the `_id` index alone.
pub fn clone_collection_as_capped(
    engine: &mut Engine,
    db: &str,
    command: &Document,
) -> Result<Document> {
    let from = target_namespace(db, command)?;
    let to = match command.get("toCollection") {
        Some(bson::Bson::String(name)) => {
            let ns = crate::catalog::Namespace::new(db, name.as_str());
            crate::catalog::validate_collection_name(&ns)?;
            ns
        }
        _ => {
            return Err(Error::location(
                40414,
                "BSON field 'cloneCollectionAsCapped.toCollection' is missing but a required field",
            ));
        }
    };
    let size = required_size(command, "cloneCollectionAsCapped")?;
    // The messages jstests/core/clone_as_capped_nonexistant.js expects of a single server.
    if !engine.catalog().holds_database(db) {
        return Err(Error::new(
            ErrorCode::NamespaceNotFound,
            format!("database {db} not found"),
        ));
    }
    let Some(source) = engine.catalog().collection(&from) else {
        return Err(Error::new(
            ErrorCode::NamespaceNotFound,
            format!("source collection {from} does not exist"),
        ));
    };
    if source.options.contains_key("viewOn") {
        return Err(Error::new(
            ErrorCode::CommandNotSupportedOnView,
            format!("cloneCollectionAsCapped not supported for views: {from}"),
        ));
    }
    if engine.catalog().collection(&to).is_some() {
        return Err(Error::new(
            ErrorCode::NamespaceExists,
            format!(
                "cloneCollectionAsCapped failed - destination collection {to} already exists. source collection: {from}"
            ),
        ));
    }
    let options = capped_options(size, &source.options);
    let documents: Vec<Document> = source.iter().map(|(_, d)| d.clone()).collect();
    let to_text = to.to_string();
    let mut capped = crate::catalog::Collection::with_options(options);
    for d in documents {
        capped.insert(&to_text, d)?;
        capped.evict_over_cap();
    }
    super::admin::install_collection(engine, &to, capped);
    Ok(bson::doc! {"ok": 1.0})
}

#[cfg(test)]
mod tests {
    use crate::Engine;
    use crate::catalog::Namespace;
    use bson::doc;

    #[test]
    fn converts_keeping_the_newest_that_fit() {
        let mut e = Engine::new();
        let docs: Vec<_> = (0..10)
            .map(|i| doc! {"_id": i, "pad": "x".repeat(80)})
            .collect();
        e.run_command("t", &doc! {"insert": "q", "documents": docs});
        e.run_command(
            "t",
            &doc! {"createIndexes": "q", "indexes": [{"key": {"pad": 1}, "name": "pad_1"}]},
        );
        e.take_changes();
        // Each document is 105 bytes: 300 bytes keep the last two.
        let r = e.run_command("t", &doc! {"convertToCapped": "q", "size": 300});
        assert_eq!(r, doc! {"ok": 1.0});
        let coll = e.catalog().collection(&Namespace::new("t", "q")).unwrap();
        let ids: Vec<i32> = coll
            .iter()
            .map(|(_, d)| d.get_i32("_id").unwrap())
            .collect();
        assert_eq!(ids, [8, 9]);
        assert_eq!(coll.indexes().len(), 1);
        assert_eq!(coll.options, doc! {"capped": true, "size": 300});
        assert_eq!(e.take_changes().changes.len(), 1 + 8);
        let r = e.run_command("t", &doc! {"convertToCapped": " q ", "size": 300});
        assert_eq!(r.get_i32("code").unwrap(), 26);
        assert_eq!(
            r.get_str("errmsg").unwrap(),
            "source collection t. q  does not exist"
        );
        let r = e.run_command("t", &doc! {"convertToCapped": "q"});
        assert_eq!(r.get_i32("code").unwrap(), 40414);
    }

    #[test]
    fn clones_the_newest_that_fit_and_leaves_the_source() {
        let mut e = Engine::new();
        let r = e.run_command(
            "c",
            &doc! {"cloneCollectionAsCapped": "q", "toCollection": "r", "size": 300},
        );
        assert_eq!(
            r.get_str("errmsg").ok(),
            Some("database c not found"),
            "{r}"
        );
        let docs: Vec<_> = (0..10)
            .map(|i| doc! {"_id": i, "pad": "x".repeat(80)})
            .collect();
        e.run_command("c", &doc! {"insert": "q", "documents": docs});
        let r = e.run_command(
            "c",
            &doc! {"cloneCollectionAsCapped": "nope", "toCollection": "r", "size": 300},
        );
        assert_eq!(
            (r.get_i32("code").ok(), r.get_str("errmsg").ok()),
            (Some(26), Some("source collection c.nope does not exist"))
        );
        e.take_changes();
        let r = e.run_command(
            "c",
            &doc! {"cloneCollectionAsCapped": "q", "toCollection": "r", "size": 300},
        );
        assert_eq!(r, doc! {"ok": 1.0});
        let clone = e.catalog().collection(&Namespace::new("c", "r")).unwrap();
        let ids: Vec<i32> = clone
            .iter()
            .map(|(_, d)| d.get_i32("_id").unwrap())
            .collect();
        assert_eq!(ids, [8, 9]);
        assert_eq!(clone.options, doc! {"capped": true, "size": 300});
        // The catalog entry and the two documents kept.
        assert_eq!(e.take_changes().changes.len(), 3);
        let source = e.catalog().collection(&Namespace::new("c", "q")).unwrap();
        assert_eq!(source.iter().count(), 10);
        assert!(!source.options.contains_key("capped"));
        let r = e.run_command(
            "c",
            &doc! {"cloneCollectionAsCapped": "q", "toCollection": "r", "size": 300},
        );
        assert_eq!(r.get_i32("code").ok(), Some(48), "{r}");
        let r = e.run_command("c", &doc! {"cloneCollectionAsCapped": "q", "size": 300});
        assert_eq!(r.get_i32("code").ok(), Some(40414), "{r}");
    }
}
