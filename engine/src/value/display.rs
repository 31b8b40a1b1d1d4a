//! Values written the way MongoDB's server writes them inside error messages
//! (`dup key: { _id: 1.0 }`, `ObjectId('…')`).

use bson::Bson;

/// A value as the server prints it in a key (BSONObj::toString style).
pub fn key_value(v: &Bson) -> String {
    match v {
        Bson::Double(d) => {
            if d.is_finite() && d.fract() == 0.0 && d.abs() < 1e16 {
                format!("{d:.1}")
            } else {
                format!("{d}")
            }
        }
        Bson::Int32(i) => i.to_string(),
        Bson::Int64(i) => i.to_string(),
        Bson::String(s) => format!("\"{s}\""),
        Bson::ObjectId(o) => format!("ObjectId('{}')", o.to_hex()),
        Bson::Boolean(b) => b.to_string(),
        Bson::Null => "null".into(),
        Bson::Document(d) => {
            let inner: Vec<String> = d
                .iter()
                .map(|(k, v)| format!("{k}: {}", key_value(v)))
                .collect();
            if inner.is_empty() {
                "{}".into()
            } else {
                format!("{{ {} }}", inner.join(", "))
            }
        }
        Bson::Array(a) => {
            let inner: Vec<String> = a.iter().map(key_value).collect();
            format!("[ {} ]", inner.join(", "))
        }
        Bson::DateTime(d) => format!("new Date({})", d.timestamp_millis()),
        other => other.to_string(),
    }
}

/// MongoDB's name for a value's type, as `$type` and error messages spell it.
pub fn type_name(v: &Bson) -> &'static str {
    match v {
        Bson::Double(_) => "double",
        Bson::String(_) => "string",
        Bson::Document(_) => "object",
        Bson::Array(_) => "array",
        Bson::Binary(_) => "binData",
        Bson::Undefined => "undefined",
        Bson::ObjectId(_) => "objectId",
        Bson::Boolean(_) => "bool",
        Bson::DateTime(_) => "date",
        Bson::Null => "null",
        Bson::RegularExpression(_) => "regex",
        Bson::DbPointer(_) => "dbPointer",
        Bson::JavaScriptCode(_) => "javascript",
        Bson::Symbol(_) => "symbol",
        Bson::JavaScriptCodeWithScope(_) => "javascriptWithScope",
        Bson::Int32(_) => "int",
        Bson::Timestamp(_) => "timestamp",
        Bson::Int64(_) => "long",
        Bson::Decimal128(_) => "decimal",
        Bson::MinKey => "minKey",
        Bson::MaxKey => "maxKey",
    }
}
