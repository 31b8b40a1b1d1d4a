//! A collection's shard key: its pattern (`{zip: 1, registered: 1}` or `{user: "hashed"}`),
//! the key values a document gives (hashed fields as MongoDB hashes them), and the order of
//! key values (MongoDB's value order, field by field).

use std::cmp::Ordering;

use bson::{Bson, Document};

use crate::error::{Error, ErrorCode, Result};
use crate::path::FieldPath;
use crate::path::lookup;
use crate::value::compare_values_simple;
use crate::value::hashed::hash_value;

/// MongoDB's limit on a shard key value (`BSONObjMaxUserSize` aside, keys are at most 512 bytes
/// before 4.4; since 4.4 there is no key size limit, so Sprout checks none).
///
/// How one field of the key orders its values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyKind {
    Ascending,
    Hashed,
}

/// A shard key pattern.
#[derive(Debug, Clone, PartialEq)]
pub struct ShardKey {
    pub fields: Vec<(String, KeyKind)>,
}

/// One point of the key space: a value per key field (`MinKey`/`MaxKey` at the ends).
pub type KeyValues = Vec<Bson>;

impl ShardKey {
    /// Parses a key pattern as `shardCollection` accepts it: fields `1` or `"hashed"`, at most
    /// one hashed field.
    pub fn parse(key: &Document) -> Result<ShardKey> {
        if key.is_empty() {
            return Err(Error::bad_value("Shard key cannot be empty"));
        }
        let mut fields = Vec::new();
        for (name, value) in key {
            let kind = match value {
                Bson::String(s) if s == "hashed" => KeyKind::Hashed,
                v if crate::value::as_i64(v) == Some(1) => KeyKind::Ascending,
                _ => {
                    // Message as ShardKeyPattern::checkShardKeyPattern words it.
                    return Err(Error::bad_value(format!(
                        "Shard key {} can contain either a single 'hashed' field or multiple \
                         range fields, each with value 1",
                        super::show(key)
                    )));
                }
            };
            if name.is_empty() || name.starts_with('$') || name.split('.').any(str::is_empty) {
                return Err(Error::bad_value(format!(
                    "Field {name} used in shard key pattern is invalid"
                )));
            }
            fields.push((name.clone(), kind));
        }
        if fields.iter().filter(|(_, k)| *k == KeyKind::Hashed).count() > 1 {
            return Err(Error::bad_value(
                "Shard key can contain at most one 'hashed' field",
            ));
        }
        Ok(ShardKey { fields })
    }

    /// The pattern as a document (`config.collections.key`).
    pub fn to_document(&self) -> Document {
        let mut d = Document::new();
        for (name, kind) in &self.fields {
            match kind {
                KeyKind::Ascending => d.insert(name.clone(), 1),
                KeyKind::Hashed => d.insert(name.clone(), "hashed"),
            };
        }
        d
    }

    pub fn is_hashed(&self) -> bool {
        self.fields.iter().any(|(_, k)| *k == KeyKind::Hashed)
    }

    pub fn field_names(&self) -> impl Iterator<Item = &str> {
        self.fields.iter().map(|(n, _)| n.as_str())
    }

    /// The key values a document gives: a missing field is `null` (as 4.4+ treats documents
    /// without the key); an array along a key path is refused, as MongoDB refuses it.
    pub fn extract(&self, doc: &Document) -> Result<KeyValues> {
        let mut values = Vec::with_capacity(self.fields.len());
        for (name, kind) in &self.fields {
            let value = raw_key_value(doc, name)?.unwrap_or(Bson::Null);
            values.push(match kind {
                KeyKind::Ascending => value,
                KeyKind::Hashed => hash_value(&value),
            });
        }
        Ok(values)
    }

    /// The key values written as a document (`{zip: 2492, registered: ...}`).
    pub fn key_document(&self, values: &[Bson]) -> Document {
        self.fields
            .iter()
            .zip(values)
            .map(|((n, _), v)| (n.clone(), v.clone()))
            .collect()
    }

    /// Reads a bound given as a document (`sh.splitAt`'s middle, a zone's min/max): every key
    /// field in order, nothing else.
    pub fn values_of_bound(&self, bound: &Document) -> Result<KeyValues> {
        let names: Vec<&str> = bound.keys().map(String::as_str).collect();
        let expected: Vec<&str> = self.field_names().collect();
        if names != expected {
            return Err(Error::new(
                ErrorCode::ShardKeyNotFound,
                format!(
                    "the bound {} does not match the shard key pattern {}",
                    super::show(bound),
                    super::show(&self.to_document())
                ),
            ));
        }
        Ok(bound.values().cloned().collect())
    }

    pub fn global_min(&self) -> KeyValues {
        vec![Bson::MinKey; self.fields.len()]
    }

    pub fn global_max(&self) -> KeyValues {
        vec![Bson::MaxKey; self.fields.len()]
    }
}

/// The value at a key path, refusing arrays on the way (MongoDB: a shard key value cannot be
/// or lie inside an array).
pub(crate) fn raw_key_value(doc: &Document, path: &str) -> Result<Option<Bson>> {
    let parts: Vec<&str> = path.split('.').collect();
    let mut current = doc;
    for (i, part) in parts.iter().enumerate() {
        match current.get(*part) {
            None => return Ok(None),
            Some(Bson::Array(_)) => {
                return Err(Error::bad_value(
                    "Shard key cannot contain array values or array descendants.",
                ));
            }
            Some(Bson::Document(d)) if i + 1 < parts.len() => current = d,
            Some(_) if i + 1 < parts.len() => return Ok(None),
            Some(v) => return Ok(Some(v.clone())),
        }
    }
    Ok(None)
}

/// Whether a document has an array anywhere along one of the key's paths (its index on the
/// key would be multikey).
pub fn has_array_on_paths(key: &ShardKey, doc: &Document) -> bool {
    key.field_names().any(|name| {
        let path = FieldPath::parse(name);
        let parts = path.parts();
        (1..=parts.len()).any(|n| {
            let prefix = FieldPath::from_parts(parts[..n].to_vec());
            matches!(lookup(doc, &prefix), Some(Bson::Array(_)))
        })
    })
}

/// Orders two points of the key space field by field (strings in binary order, as index keys).
pub fn compare_keys(a: &[Bson], b: &[Bson]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        match compare_values_simple(x, y) {
            Ordering::Equal => continue,
            other => return other,
        }
    }
    a.len().cmp(&b.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    #[test]
    fn parses_range_and_hashed_patterns() {
        let key = ShardKey::parse(&doc! {"address.zip": 1, "registered": 1}).unwrap();
        assert_eq!(key.fields.len(), 2);
        assert!(!key.is_hashed());
        let hashed = ShardKey::parse(&doc! {"user": "hashed"}).unwrap();
        assert!(hashed.is_hashed());
        assert_eq!(hashed.to_document(), doc! {"user": "hashed"});
        assert!(ShardKey::parse(&doc! {"a": -1}).is_err());
        assert!(ShardKey::parse(&doc! {"a": "hashed", "b": "hashed"}).is_err());
        assert!(ShardKey::parse(&doc! {}).is_err());
    }

    #[test]
    fn extracts_values_missing_as_null_and_refuses_arrays() {
        let key = ShardKey::parse(&doc! {"address.zip": 1, "registered": 1}).unwrap();
        let values = key
            .extract(&doc! {"address": {"zip": 2492}, "x": 1})
            .unwrap();
        assert_eq!(values, vec![Bson::Int32(2492), Bson::Null]);
        let err = key.extract(&doc! {"address": [{"zip": 1}]}).unwrap_err();
        assert_eq!(err.code(), 2);
        let hashed = ShardKey::parse(&doc! {"u": "hashed"}).unwrap();
        assert_eq!(
            hashed.extract(&doc! {"u": 1}).unwrap(),
            vec![hash_value(&Bson::Int32(1))]
        );
    }

    #[test]
    fn orders_keys_with_min_and_max() {
        let a = vec![Bson::MinKey];
        let b = vec![Bson::Int32(5)];
        let c = vec![Bson::MaxKey];
        assert_eq!(compare_keys(&a, &b), Ordering::Less);
        assert_eq!(compare_keys(&c, &b), Ordering::Greater);
        assert!(has_array_on_paths(
            &ShardKey::parse(&doc! {"to": 1}).unwrap(),
            &doc! {"to": ["a"]}
        ));
    }
}
