//! `validate`: checks a collection's indexes against its documents, as MongoDB's `validate`
//! command reports it (`valid`, `nrecords`, `keysPerIndex`, `errors`). Sprout keeps every index
//! in memory beside the documents, so the check regenerates each document's keys for each
//! index and compares the count with the index's entries.

use bson::{Bson, Document, doc};

use super::target_namespace;
use crate::Engine;
use crate::error::{Error, ErrorCode, Result};

/// `{validate: <coll>, full}` → `{ns, nrecords, nIndexes, keysPerIndex, valid, errors, …}`.
pub fn validate(engine: &mut Engine, db: &str, command: &Document) -> Result<Document> {
    let ns = target_namespace(db, command)?;
    let Some(coll) = engine.catalog().collection(&ns) else {
        return Err(Error::new(
            ErrorCode::NamespaceNotFound,
            format!("Collection '{ns}' does not exist to validate."),
        ));
    };
    let mut keys_per_index = Document::new();
    let mut errors: Vec<Bson> = Vec::new();
    for index in coll.indexes() {
        let mut expected = 0usize;
        for (_, doc) in coll.iter() {
            if let Some(keys) = index.keys_for(doc)? {
                expected += keys.keys.len();
            }
        }
        if expected != index.len() {
            errors.push(Bson::String(format!(
                "index '{}' has {} entries where its documents give {expected}",
                index.name(),
                index.len()
            )));
        }
        keys_per_index.insert(index.name(), index.len() as i64);
    }
    Ok(doc! {
        "ns": ns.to_string(),
        "nInvalidDocuments": 0,
        "nNonCompliantDocuments": 0,
        "nrecords": coll.len() as i64,
        "nIndexes": coll.indexes().len() as i32,
        "keysPerIndex": keys_per_index,
        "valid": errors.is_empty(),
        "repaired": false,
        "warnings": [],
        "errors": errors,
        "extraIndexEntries": [],
        "missingIndexEntries": [],
        "corruptRecords": [],
        "ok": 1.0,
    })
}

#[cfg(test)]
mod tests {
    use crate::Engine;
    use bson::doc;

    #[test]
    fn validate_counts_records_and_keys() {
        let mut e = Engine::new();
        e.run_command(
            "t",
            &doc! {"insert": "c", "documents": [{"_id": 1, "a": [1, 2]}, {"_id": 2}]},
        );
        e.run_command(
            "t",
            &doc! {"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1"}]},
        );
        let r = e.run_command("t", &doc! {"validate": "c"});
        assert!(r.get_bool("valid").unwrap(), "{r}");
        assert_eq!(r.get_i64("nrecords").unwrap(), 2);
        let keys = r.get_document("keysPerIndex").unwrap();
        assert_eq!(keys.get_i64("_id_").unwrap(), 2);
        assert_eq!(keys.get_i64("a_1").unwrap(), 3);
        let r = e.run_command("t", &doc! {"validate": "nope"});
        assert_eq!(r.get_i32("code").unwrap(), 26);
    }
}
