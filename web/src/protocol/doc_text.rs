//! Relaxed Extended JSON values (as the worker sends results) written the way mongosh writes
//! them, on one line: `{ _id: ObjectId('…'), price: 10, tags: [ 'a' ] }`. The tree and table
//! views use it for leaves and nested values. Pure logic, no DOM.

use serde_json::{Map, Value};

/// Field names as mongosh shows them (one rule for the lessons and the page).
pub use lessons::key_text;

/// The whole value on one line.
pub fn compact(v: &Value) -> String {
    if let Some(leaf) = leaf_text(v) {
        return leaf;
    }
    match v {
        Value::Array(items) if items.is_empty() => "[]".into(),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(compact).collect();
            format!("[ {} ]", parts.join(", "))
        }
        Value::Object(fields) if fields.is_empty() => "{}".into(),
        Value::Object(fields) => {
            let parts: Vec<String> = fields
                .iter()
                .map(|(k, v)| format!("{}: {}", key_text(k), compact(v)))
                .collect();
            format!("{{ {} }}", parts.join(", "))
        }
        _ => String::new(),
    }
}

/// The text of a value that has no fields to open: scalars and the Extended JSON wrappers
/// (`{"$oid": …}` is an ObjectId, not a document); `None` for documents and arrays.
pub fn leaf_text(v: &Value) -> Option<String> {
    match v {
        Value::Null => Some("null".into()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => i.to_string(),
            (None, Some(f)) => number_text(f),
            _ => n.to_string(),
        }),
        Value::String(s) => Some(quoted(s)),
        Value::Object(o) => wrapper_text(o),
        Value::Array(_) => None,
    }
}

/// The kind of a value for styling: `string`, `number`, `bool`, `null`, `oid`, `date`, …
pub fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(o) => match o.keys().next().map(String::as_str) {
            Some("$oid") if o.len() == 1 => "oid",
            Some("$date") if o.len() == 1 => "date",
            Some("$numberDecimal" | "$numberLong" | "$numberInt" | "$numberDouble")
                if o.len() == 1 =>
            {
                "number"
            }
            _ if wrapper_text(o).is_some() => "special",
            _ => "object",
        },
    }
}

fn number_text(f: f64) -> String {
    if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e21 {
        format!("{f:.0}")
    } else {
        f.to_string()
    }
}

/// A JavaScript string literal in single quotes (as mongosh writes strings).
pub fn quoted_string(s: &str) -> String {
    quoted(s)
}

fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('\'');
    for c in s.chars() {
        match c {
            '\'' => out.push_str("\\'"),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

fn str_field<'a>(o: &'a Map<String, Value>, k: &str) -> Option<&'a str> {
    o.get(k).and_then(Value::as_str)
}

/// The mongosh form of an Extended JSON wrapper object; `None` for an ordinary document.
fn wrapper_text(o: &Map<String, Value>) -> Option<String> {
    let (key, value) = o.iter().next()?;
    if o.len() != 1 {
        return None;
    }
    let text = match key.as_str() {
        "$oid" => format!("ObjectId('{}')", value.as_str()?),
        "$date" => match value {
            Value::String(iso) => format!("ISODate('{iso}')"),
            Value::Object(inner) => format!("new Date({})", str_field(inner, "$numberLong")?),
            Value::Number(n) => format!("new Date({n})"),
            _ => return None,
        },
        "$numberDecimal" => format!("Decimal128('{}')", value.as_str()?),
        "$numberLong" => format!("Long('{}')", value.as_str()?),
        "$numberInt" => value.as_str()?.to_string(),
        "$numberDouble" => value.as_str()?.to_string(),
        "$binary" => {
            let inner = value.as_object()?;
            let sub = str_field(inner, "subType")?;
            let base64 = str_field(inner, "base64")?;
            if sub == "04" {
                format!("UUID('{base64}')")
            } else {
                format!(
                    "Binary.createFromBase64('{base64}', {})",
                    u8::from_str_radix(sub, 16).ok()?
                )
            }
        }
        "$regularExpression" => {
            let inner = value.as_object()?;
            format!(
                "/{}/{}",
                str_field(inner, "pattern")?,
                str_field(inner, "options")?
            )
        }
        "$timestamp" => {
            let inner = value.as_object()?;
            format!(
                "Timestamp({{ t: {}, i: {} }})",
                inner.get("t")?,
                inner.get("i")?
            )
        }
        "$minKey" => "MinKey()".into(),
        "$maxKey" => "MaxKey()".into(),
        "$undefined" => "undefined".into(),
        "$symbol" => value.as_str()?.to_string(),
        "$code" => format!("Code('{}')", value.as_str()?),
        _ => return None,
    };
    Some(text)
}

/// The union of the documents' top-level field names, in the order they first appear
/// (the table view's columns).
pub fn columns(docs: &[Value]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for d in docs.iter().filter_map(Value::as_object) {
        for k in d.keys() {
            if !out.iter().any(|c| c == k) {
                out.push(k.clone());
            }
        }
    }
    out
}

/// Every field path in the documents (`a`, `a.b`), for the editor's completion.
pub fn field_paths(docs: &[Value], out: &mut Vec<String>) {
    fn walk(prefix: &str, v: &Value, out: &mut Vec<String>, depth: usize) {
        let Value::Object(fields) = v else { return };
        if depth > 4 || wrapper_text(fields).is_some() {
            return;
        }
        for (k, child) in fields {
            let path = if prefix.is_empty() {
                k.clone()
            } else {
                format!("{prefix}.{k}")
            };
            walk(&path, child, out, depth + 1);
            if !out.contains(&path) {
                out.push(path);
            }
        }
    }
    for d in docs {
        walk("", d, out, 0);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn documents_read_as_mongosh_writes_them() {
        let d = json!({
            "_id": {"$oid": "64b7f0c2a1b2c3d4e5f60718"},
            "name": "Product 'one'",
            "price": 10.0,
            "ratio": 0.5,
            "when": {"$date": "2024-01-02T03:04:05Z"},
            "tags": ["a", 1],
            "dims": {"w": 2, "my-key": null},
            "empty": {},
            "none": []
        });
        assert_eq!(
            compact(&d),
            "{ _id: ObjectId('64b7f0c2a1b2c3d4e5f60718'), name: 'Product \\'one\\'', price: 10, \
             ratio: 0.5, when: ISODate('2024-01-02T03:04:05Z'), tags: [ 'a', 1 ], \
             dims: { w: 2, 'my-key': null }, empty: {}, none: [] }"
        );
    }

    #[test]
    fn wrappers_are_leaves() {
        assert_eq!(
            leaf_text(&json!({"$numberDecimal": "1.5"})).as_deref(),
            Some("Decimal128('1.5')")
        );
        assert_eq!(
            leaf_text(&json!({"$regularExpression": {"pattern": "^a", "options": "i"}})).as_deref(),
            Some("/^a/i")
        );
        assert_eq!(
            leaf_text(&json!({"$binary": {"base64": "AAE=", "subType": "00"}})).as_deref(),
            Some("Binary.createFromBase64('AAE=', 0)")
        );
        assert_eq!(
            leaf_text(&json!({"$timestamp": {"t": 1, "i": 2}})).as_deref(),
            Some("Timestamp({ t: 1, i: 2 })")
        );
        assert_eq!(leaf_text(&json!({"a": 1})), None);
        assert_eq!(leaf_text(&json!({"$oid": "x", "b": 1})), None);
        assert_eq!(kind(&json!({"$oid": "x"})), "oid");
        assert_eq!(kind(&json!({"$oid": "x", "b": 1})), "object");
    }

    #[test]
    fn columns_are_the_union_in_first_seen_order() {
        let docs = vec![json!({"_id": 1, "a": 1}), json!({"_id": 2, "b": 1, "a": 2})];
        assert_eq!(columns(&docs), ["_id", "a", "b"]);
    }

    #[test]
    fn field_paths_include_nested_fields_but_not_wrappers() {
        let mut out = Vec::new();
        field_paths(&[json!({"_id": {"$oid": "x"}, "dims": {"w": 1}})], &mut out);
        assert_eq!(out, ["_id", "dims.w", "dims"]);
    }
}
