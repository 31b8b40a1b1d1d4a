//! `reIndex` (and the legacy shell's `db.c.reIndex()`): drops and rebuilds every index of a
//! collection from its documents. MongoDB 8.0 allows it on a standalone server, which is what
//! Sprout is. The index specs do not change, so nothing is recorded for the durable store.

use bson::{Bson, Document, doc};

use super::target_namespace;
use crate::Engine;
use crate::error::{Error, ErrorCode, Result};

pub fn reindex(engine: &mut Engine, db: &str, command: &Document) -> Result<Document> {
    let ns = target_namespace(db, command)?;
    let Some(coll) = engine.catalog_mut().collection_mut(&ns) else {
        return Err(Error::new(
            ErrorCode::NamespaceNotFound,
            "collection does not exist",
        ));
    };
    let before = coll.indexes().len() as i32;
    coll.rebuild_indexes()?;
    let specs: Vec<Bson> = coll
        .indexes()
        .iter()
        .map(|i| Bson::Document(i.spec.document.clone()))
        .collect();
    Ok(doc! {
        "nIndexesWas": before,
        "nIndexes": specs.len() as i32,
        "indexes": specs,
        "ok": 1.0,
    })
}

#[cfg(test)]
mod tests {
    use crate::Engine;
    use bson::doc;

    #[test]
    fn rebuilds_every_index() {
        let mut e = Engine::new();
        e.run_command(
            "t",
            &doc! {"insert": "c", "documents": [{"_id": 1, "a": 1}, {"_id": 2, "a": [2, 3]}]},
        );
        e.run_command(
            "t",
            &doc! {"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1"}]},
        );
        let r = e.run_command("t", &doc! {"reIndex": "c"});
        assert_eq!(
            r,
            doc! {"nIndexesWas": 2, "nIndexes": 2, "indexes": [
            {"v": 2, "key": {"_id": 1}, "name": "_id_"},
            {"v": 2, "key": {"a": 1}, "name": "a_1"}], "ok": 1.0}
        );
        let coll = e
            .catalog()
            .collection(&crate::catalog::Namespace::new("t", "c"))
            .unwrap();
        assert_eq!(coll.index("a_1").unwrap().len(), 3);
        assert!(coll.index("a_1").unwrap().is_multikey());
        let r = e.run_command("t", &doc! {"reIndex": "nope"});
        assert_eq!(r.get_i32("code").unwrap(), 26);
    }
}
