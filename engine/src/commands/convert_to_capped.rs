//! `convertToCapped`: turns an ordinary collection into a capped one of the given size. As in
//! MongoDB, the documents are copied in natural order into the capped collection (so when they
//! do not fit, the oldest are evicted) and only the `_id` index survives.

use bson::Document;

use super::target_namespace;
use crate::Engine;
use crate::catalog::capped::{numeric_option, stored_number, validated_size};
use crate::error::{Error, ErrorCode, Result};
use crate::storage::Change;

pub fn convert_to_capped(engine: &mut Engine, db: &str, command: &Document) -> Result<Document> {
    let ns = target_namespace(db, command)?;
    let Some(size) = numeric_option(command, "convertToCapped", "size")? else {
        return Err(Error::location(
            40414,
            "BSON field 'convertToCapped.size' is missing but a required field",
        ));
    };
    let size = validated_size("size", size)?;
    // The name is used exactly as given: the book's `{convertToCapped: " ordersQueue ", ...}`
    // names a collection with spaces around it, which does not exist, so MongoDB answers
    // NamespaceNotFound "source collection test. ordersQueue  does not exist", and so do we.
    let Some(coll) = engine.catalog_mut().collection_mut(&ns) else {
        return Err(Error::new(
            ErrorCode::NamespaceNotFound,
            format!("source collection {ns} does not exist"),
        ));
    };
    let mut options = Document::new();
    options.insert("capped", true);
    options.insert("size", stored_number(size));
    for (k, v) in &coll.options {
        if !matches!(k.as_str(), "capped" | "size" | "max") {
            options.insert(k.clone(), v.clone());
        }
    }
    coll.options = options;
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
}
