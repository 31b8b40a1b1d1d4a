//! How mongosh's driver (js-bson 6) turns BSON into JavaScript values, where that changes what is
//! printed: a plain object lists integer-like keys first in ascending order, and a document that
//! looks like a DBRef (or a BSON DBPointer) becomes a `DBRef` object.

use bson::{Bson, Document, oid::ObjectId};

/// The keys of a document in JavaScript property order: array-index keys (`"0"`, `"17"`, below
/// 2^32 - 1) first in ascending numeric order, then the others in insertion order.
pub fn js_key_order(doc: &Document) -> Vec<(&str, &Bson)> {
    js_order(doc.iter().map(|(k, v)| (k.as_str(), v)).collect())
}

/// Key-value pairs in JavaScript property order (see [`js_key_order`]).
pub fn js_order<K: AsRef<str>, V>(pairs: Vec<(K, V)>) -> Vec<(K, V)> {
    let mut indexed: Vec<(u64, (K, V))> = Vec::new();
    let mut named: Vec<(K, V)> = Vec::new();
    for (k, v) in pairs {
        match array_index(k.as_ref()) {
            Some(i) => indexed.push((i, (k, v))),
            None => named.push((k, v)),
        }
    }
    engine::sort_slice::sort_by_key(&mut indexed, |(i, _)| *i);
    indexed
        .into_iter()
        .map(|(_, pair)| pair)
        .chain(named)
        .collect()
}

fn array_index(key: &str) -> Option<u64> {
    let canonical = key == "0" || (!key.starts_with('0') && !key.is_empty() && key.len() <= 10);
    if !canonical || !key.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    key.parse::<u64>().ok().filter(|n| *n < u64::from(u32::MAX))
}

/// A `DBRef` as js-bson builds it: the collection (split from a `db.collection` namespace), the
/// id, the database and any extra fields.
#[derive(Debug, Clone, PartialEq)]
pub struct DbRefView {
    pub collection: String,
    pub oid: Bson,
    pub db: Option<String>,
    pub fields: Document,
}

impl DbRefView {
    fn new(namespace: &str, oid: Bson, db: Option<String>, fields: Document) -> DbRefView {
        let parts: Vec<&str> = namespace.split('.').collect();
        if let [db_part, collection] = parts.as_slice() {
            return DbRefView {
                collection: (*collection).to_string(),
                oid,
                db: Some((*db_part).to_string()),
                fields,
            };
        }
        DbRefView {
            collection: namespace.to_string(),
            oid,
            db,
            fields,
        }
    }
}

/// The DBRef a document deserialises to in js-bson: every `$`-key is `$ref`, `$id` or `$db`,
/// `$ref` is a string (or symbol), `$id` is neither null nor undefined, and `$db` (if present) is a string.
pub fn dbref_of(doc: &Document) -> Option<DbRefView> {
    let dollar_keys: Vec<&String> = doc.keys().filter(|k| k.starts_with('$')).collect();
    if dollar_keys.is_empty()
        || !dollar_keys
            .iter()
            .all(|k| matches!(k.as_str(), "$ref" | "$id" | "$db"))
    {
        return None;
    }
    // A BSON symbol reads as a JavaScript string too.
    let Some(Bson::String(namespace) | Bson::Symbol(namespace)) = doc.get("$ref") else {
        return None;
    };
    let oid = doc
        .get("$id")
        .filter(|v| !matches!(v, Bson::Null | Bson::Undefined))?;
    let db = match doc.get("$db") {
        None => None,
        Some(Bson::String(db) | Bson::Symbol(db)) => Some(db.clone()),
        Some(_) => return None,
    };
    let mut fields = doc.clone();
    // `Object.assign({}, object)` makes the fields: an own `__proto__` key is not copied.
    for k in ["$ref", "$id", "$db", "__proto__"] {
        fields.remove(k);
    }
    Some(DbRefView::new(namespace, oid.clone(), db, fields))
}

/// A BSON DBPointer, which js-bson reads as `new DBRef(namespace, oid)`.
pub fn dbpointer_view(pointer: &bson::DbPointer) -> Option<DbRefView> {
    // The crate keeps the parts private; its canonical Extended JSON names them.
    let json = Bson::DbPointer(pointer.clone()).into_canonical_extjson();
    let inner = json.get("$dbPointer")?;
    let namespace = inner.get("$ref")?.as_str()?;
    let oid = ObjectId::parse_str(inner.get("$id")?.get("$oid")?.as_str()?).ok()?;
    Some(DbRefView::new(
        namespace,
        Bson::ObjectId(oid),
        None,
        Document::new(),
    ))
}

/// JavaScript truthiness, for the 3.0 shell's `this.$db ? … : …`.
pub fn js_truthy(v: &Bson) -> bool {
    match v {
        Bson::Null | Bson::Undefined => false,
        Bson::Boolean(b) => *b,
        Bson::String(s) => !s.is_empty(),
        Bson::Int32(i) => *i != 0,
        Bson::Double(f) => *f != 0.0 && !f.is_nan(),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    #[test]
    fn integer_keys_come_first() {
        let d =
            doc! { "b": 1, "10": 2, "2": 3, "01": 4, "-1": 5, "4294967295": 6, "4294967294": 7 };
        let keys: Vec<&str> = js_key_order(&d).into_iter().map(|(k, _)| k).collect();
        assert_eq!(
            keys,
            ["2", "10", "4294967294", "b", "01", "-1", "4294967295"]
        );
    }

    #[test]
    fn dbref_detection_follows_js_bson() {
        let oid = ObjectId::parse_str("5563a3a3e9a1c6b1b41b1d1a").unwrap();
        let r = dbref_of(&doc! { "$ref": "users", "$id": oid, "extra": 1 }).unwrap();
        assert_eq!(r.collection, "users");
        assert_eq!(r.db, None);
        assert_eq!(r.fields, doc! { "extra": 1 });
        let r = dbref_of(&doc! { "$ref": "shop.users", "$id": 1, "$db": "other" }).unwrap();
        assert_eq!(
            (r.collection.as_str(), r.db.as_deref()),
            ("users", Some("shop"))
        );
        assert!(dbref_of(&doc! { "$ref": "users" }).is_none());
        assert!(dbref_of(&doc! { "$ref": "users", "$id": Bson::Null }).is_none());
        assert!(dbref_of(&doc! { "$ref": "users", "$id": 1, "$set": 1 }).is_none());
        assert!(dbref_of(&doc! { "$ref": 1, "$id": 1 }).is_none());
        assert!(dbref_of(&doc! { "$ref": "u", "$id": 1, "$db": 2 }).is_none());
        assert!(dbref_of(&doc! { "a": 1 }).is_none());
    }

    #[test]
    fn truthiness() {
        assert!(!js_truthy(&Bson::String(String::new())));
        assert!(js_truthy(&Bson::String("db".into())));
        assert!(!js_truthy(&Bson::Double(f64::NAN)));
    }
}
