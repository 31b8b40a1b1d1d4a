//! A collection's `metadata.json` as mongodump writes it (mongo-tools
//! `mongodump/metadata_dump.go`): `{"options": {…}, "indexes": [{…}, …], "uuid": "…",
//! "collectionName": "…", "type": "…"}` in canonical Extended JSON, `options` left out when
//! empty, `uuid` when unknown and `type` when empty. `indexes` holds `listIndexes`' documents;
//! `options` holds `listCollections`' options (`viewOn` and `pipeline` for a view).
//! Reading accepts older tools' files too: relaxed or legacy JSON, index specs with `ns`,
//! no `collectionName` or `type`.

use bson::{Bson, Document};

use super::extjson_text::{ExtJsonMode, document_text};
use crate::error::{Error, ErrorCode, Result};
use crate::value::extjson::parse_document;

/// What mongodump records about one collection besides its documents.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CollectionMetadata {
    pub options: Document,
    pub indexes: Vec<Document>,
    /// The collection's UUID as 32 hex digits (Sprout's collections have none).
    pub uuid: Option<String>,
    pub collection_name: String,
    /// `"collection"`, `"view"` or `"timeseries"` (`listCollections`' `type`).
    pub kind: String,
}

impl CollectionMetadata {
    /// The `metadata.json` text.
    pub fn to_json(&self) -> String {
        let mut doc = Document::new();
        if !self.options.is_empty() {
            doc.insert("options", self.options.clone());
        }
        doc.insert(
            "indexes",
            self.indexes
                .iter()
                .cloned()
                .map(Bson::Document)
                .collect::<Vec<_>>(),
        );
        if let Some(uuid) = &self.uuid {
            doc.insert("uuid", uuid.as_str());
        }
        doc.insert("collectionName", self.collection_name.as_str());
        if !self.kind.is_empty() {
            doc.insert("type", self.kind.as_str());
        }
        document_text(&doc, ExtJsonMode::Canonical)
    }

    /// Reads a `metadata.json` text; `collection` names the collection in errors and stands in
    /// for a missing `collectionName`.
    pub fn parse(text: &str, collection: &str) -> Result<Self> {
        let bad = |message: String| {
            Error::new(
                ErrorCode::FailedToParse,
                format!("the metadata of collection {collection} is not valid: {message}"),
            )
        };
        if text.trim().is_empty() {
            return Ok(CollectionMetadata {
                collection_name: collection.to_string(),
                ..CollectionMetadata::default()
            });
        }
        let json: serde_json::Value = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
        let doc = parse_document(json).map_err(|e| bad(e.message))?;
        let options = match doc.get("options") {
            None | Some(Bson::Null) => Document::new(),
            Some(Bson::Document(d)) => d.clone(),
            Some(_) => return Err(bad("`options` is not a document".into())),
        };
        let indexes = match doc.get("indexes") {
            None | Some(Bson::Null) => Vec::new(),
            Some(Bson::Array(items)) => items
                .iter()
                .map(|i| match i {
                    Bson::Document(d) => Ok(d.clone()),
                    _ => Err(bad("an index specification is not a document".into())),
                })
                .collect::<Result<_>>()?,
            Some(_) => return Err(bad("`indexes` is not an array".into())),
        };
        let text_field = |field: &str| match doc.get(field) {
            Some(Bson::String(s)) => Ok(Some(s.clone())),
            None | Some(Bson::Null) => Ok(None),
            Some(_) => Err(bad(format!("`{field}` is not a string"))),
        };
        Ok(CollectionMetadata {
            options,
            indexes,
            uuid: text_field("uuid")?,
            collection_name: text_field("collectionName")?
                .unwrap_or_else(|| collection.to_string()),
            kind: text_field("type")?.unwrap_or_default(),
        })
    }

    /// Whether this describes a view (by `type`, or by a `viewOn` option in older files).
    pub fn is_view(&self) -> bool {
        self.kind == "view" || self.options.contains_key("viewOn")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    #[test]
    fn written_as_mongodump_writes_it() {
        let meta = CollectionMetadata {
            options: Document::new(),
            indexes: vec![
                doc! {"v": 2, "key": {"_id": 1}, "name": "_id_"},
                doc! {"v": 2, "key": {"f": 1.0}, "name": "f_1", "expireAfterSeconds": 1000},
            ],
            uuid: None,
            collection_name: "foo".into(),
            kind: "collection".into(),
        };
        assert_eq!(
            meta.to_json(),
            concat!(
                r#"{"indexes":[{"v":{"$numberInt":"2"},"key":{"_id":{"$numberInt":"1"}},"name":"_id_"},"#,
                r#"{"v":{"$numberInt":"2"},"key":{"f":{"$numberDouble":"1.0"}},"name":"f_1","#,
                r#""expireAfterSeconds":{"$numberInt":"1000"}}],"collectionName":"foo","type":"collection"}"#
            )
        );
        assert_eq!(
            CollectionMetadata::parse(&meta.to_json(), "foo").unwrap(),
            meta
        );
    }

    #[test]
    fn older_files_are_read() {
        // mongodump 3.4's metadata (from mongo-tools' test archive): relaxed numbers, `ns`.
        let text =
            r#"{"options":{},"indexes":[{"v":2,"key":{"_id":1},"name":"_id_","ns":"test.bar"}]}"#;
        let meta = CollectionMetadata::parse(text, "bar").unwrap();
        assert_eq!(meta.collection_name, "bar");
        assert_eq!(meta.indexes[0].get_str("ns").unwrap(), "test.bar");
        assert!(!meta.is_view());
        let err = CollectionMetadata::parse(r#"{"indexes": 5}"#, "bar").unwrap_err();
        assert!(err.message.contains("collection bar"), "{}", err.message);
        assert!(CollectionMetadata::parse("{", "bar").is_err());
    }
}
