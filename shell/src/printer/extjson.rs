//! `mongosh --json=relaxed|canonical`: js-bson's `EJSON.stringify(value, undefined, 2, …)` of
//! the JavaScript value the shell holds. Because the driver reads Int32 and Double as plain
//! numbers, canonical output writes an integral double as `$numberInt` (as mongosh does), and
//! relaxed output writes an int64 as a JavaScript number.

use bson::{Bson, Document};

use super::JsonMode;
use super::base64;
use super::isodate::js_iso_string;
use super::jsnum::js_number;
use super::jsregex;
use super::jsview::{DbRefView, dbpointer_view, dbref_of, js_key_order, js_order, js_truthy};
use super::text::json_quote;

/// A JSON value ready to print; numbers are already in JavaScript's text form.
enum Json {
    Null,
    Bool(bool),
    Number(String),
    Str(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

/// The 2-space indented Extended JSON text of `v`.
pub fn format(v: &Bson, mode: JsonMode) -> String {
    format_indented(v, mode, 2)
}

/// The Extended JSON text of `v`, `step` spaces per level; with 0, on one line without spaces
/// (`JSON.stringify`'s layout without `space`, as `EJSON.stringify(v)` prints).
pub fn format_indented(v: &Bson, mode: JsonMode, step: usize) -> String {
    let mut out = String::new();
    write(
        &serialize(v, mode == JsonMode::Relaxed),
        &Layout { step, level: 0 },
        &mut out,
    );
    out
}

/// Where `write` is: spaces per level and the current level.
#[derive(Clone, Copy)]
struct Layout {
    step: usize,
    level: usize,
}

impl Layout {
    fn inner(self) -> Layout {
        Layout {
            level: self.level + 1,
            ..self
        }
    }

    /// Before an item: a new line and its indentation (nothing on one line).
    fn break_line(self, out: &mut String) {
        if self.step > 0 {
            out.push('\n');
            out.extend(std::iter::repeat_n(' ', self.level * self.step));
        }
    }
}

fn obj(pairs: Vec<(&str, Json)>) -> Json {
    Json::Object(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

fn text(s: impl Into<String>) -> Json {
    Json::Str(s.into())
}

/// js-bson's `serializeValue`.
fn serialize(v: &Bson, relaxed: bool) -> Json {
    match v {
        Bson::Null | Bson::Undefined => Json::Null,
        Bson::Boolean(b) => Json::Bool(*b),
        Bson::String(s) | Bson::Symbol(s) => text(s.as_str()),
        Bson::Int32(i) => number(f64::from(*i), relaxed),
        Bson::Double(f) => number(*f, relaxed),
        Bson::Int64(n) if relaxed => Json::Number(js_number(*n as f64)),
        Bson::Int64(n) => obj(vec![("$numberLong", text(n.to_string()))]),
        Bson::Decimal128(d) => obj(vec![("$numberDecimal", text(d.to_string()))]),
        Bson::ObjectId(oid) => obj(vec![("$oid", text(oid.to_hex()))]),
        Bson::DateTime(dt) => date(dt.timestamp_millis(), relaxed),
        Bson::Timestamp(ts) => obj(vec![(
            "$timestamp",
            obj(vec![
                ("t", Json::Number(ts.time.to_string())),
                ("i", Json::Number(ts.increment.to_string())),
            ]),
        )]),
        Bson::Binary(b) => obj(vec![(
            "$binary",
            obj(vec![
                ("base64", text(base64::encode(&b.bytes))),
                ("subType", text(format!("{:02x}", u8::from(b.subtype)))),
            ]),
        )]),
        Bson::RegularExpression(r) => obj(vec![(
            "$regularExpression",
            obj(vec![
                ("pattern", text(jsregex::js_source(r.pattern.as_str()))),
                ("options", text(regex_options(r.options.as_str()))),
            ]),
        )]),
        Bson::MinKey => obj(vec![("$minKey", Json::Number("1".into()))]),
        Bson::MaxKey => obj(vec![("$maxKey", Json::Number("1".into()))]),
        Bson::JavaScriptCode(code) => obj(vec![("$code", text(code.as_str()))]),
        Bson::JavaScriptCodeWithScope(c) => obj(vec![
            ("$code", text(c.code.as_str())),
            (
                "$scope",
                serialize(&Bson::Document(c.scope.clone()), relaxed),
            ),
        ]),
        Bson::DbPointer(p) => match dbpointer_view(p) {
            Some(r) => dbref(&r, relaxed),
            None => Json::Null,
        },
        Bson::Array(items) => Json::Array(items.iter().map(|v| serialize(v, relaxed)).collect()),
        Bson::Document(d) => match dbref_of(d) {
            Some(r) => dbref(&r, relaxed),
            None => document(d, relaxed),
        },
    }
}

fn document(d: &Document, relaxed: bool) -> Json {
    Json::Object(
        js_key_order(d)
            .into_iter()
            .map(|(k, v)| (k.to_string(), serialize(v, relaxed)))
            .collect(),
    )
}

/// A JavaScript number: as is when relaxed and finite, else the smallest BSON type that holds it
/// (js-bson 6 writes an integral double beyond the int32 range as `$numberLong`).
fn number(f: f64, relaxed: bool) -> Json {
    let negative_zero = f == 0.0 && f.is_sign_negative();
    if relaxed && f.is_finite() {
        return Json::Number(js_number(f));
    }
    if f.fract() == 0.0
        && f.is_finite()
        && !negative_zero
        && (f64::from(i32::MIN)..=f64::from(i32::MAX)).contains(&f)
    {
        return obj(vec![("$numberInt", text(js_number(f)))]);
    }
    if f.fract() == 0.0
        && f.is_finite()
        && !negative_zero
        && (-(2f64.powi(63))..=2f64.powi(63)).contains(&f)
    {
        return obj(vec![("$numberLong", text(js_number(f)))]);
    }
    let s = if negative_zero {
        "-0.0".to_string()
    } else {
        js_number(f)
    };
    obj(vec![("$numberDouble", text(s))])
}

/// Relaxed dates from 1970 to 9999 as ISO text (no `.000` when the milliseconds are zero).
fn date(ms: i64, relaxed: bool) -> Json {
    if relaxed
        && (0..253_402_318_800_000).contains(&ms)
        && let Some(iso) = js_iso_string(ms)
    {
        let iso = if ms % 1000 == 0 {
            iso.replace(".000Z", "Z")
        } else {
            iso
        };
        return obj(vec![("$date", text(iso))]);
    }
    let millis = if js_iso_string(ms).is_some() {
        ms.to_string()
    } else {
        "NaN".to_string()
    };
    obj(vec![("$date", obj(vec![("$numberLong", text(millis))]))])
}

/// The options of the RegExp mongosh holds, in the alphabetical order BSONRegExp keeps. mongosh
/// itself fails on a JavaScript `g` flag (from a BSON `s`); Sprout writes `s` back instead.
fn regex_options(options: &str) -> String {
    ['i', 'm', 's']
        .into_iter()
        .filter(|f| options.contains(*f))
        .collect()
}

/// js-bson's `DBRef.toExtendedJSON`: `{ $ref, $id, $db, ...fields }` as a JavaScript object
/// (so integer-like field names move first). A falsy id is not serialised, only stringified.
fn dbref(r: &DbRefView, relaxed: bool) -> Json {
    let id = if js_truthy(&r.oid) {
        serialize(&r.oid, relaxed)
    } else {
        match &r.oid {
            Bson::Int32(_) | Bson::Double(_) => {
                let f = r
                    .oid
                    .as_f64()
                    .or(r.oid.as_i32().map(f64::from))
                    .unwrap_or(0.0);
                if f.is_finite() {
                    Json::Number(js_number(f))
                } else {
                    Json::Null
                }
            }
            other => serialize(other, relaxed),
        }
    };
    let mut pairs = vec![
        ("$ref".to_string(), text(r.collection.as_str())),
        ("$id".to_string(), id),
    ];
    if let Some(db) = r.db.as_deref().filter(|db| !db.is_empty()) {
        pairs.push(("$db".to_string(), text(db)));
    }
    if let Json::Object(fields) = document(&r.fields, relaxed) {
        pairs.extend(fields);
    }
    Json::Object(js_order(pairs))
}

/// `JSON.stringify(value, undefined, 2)`.
fn write(v: &Json, at: &Layout, out: &mut String) {
    match v {
        Json::Null => out.push_str("null"),
        Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Json::Number(n) => out.push_str(n),
        Json::Str(s) => out.push_str(&json_quote(s)),
        Json::Array(items) if items.is_empty() => out.push_str("[]"),
        Json::Object(pairs) if pairs.is_empty() => out.push_str("{}"),
        Json::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                at.inner().break_line(out);
                write(item, &at.inner(), out);
            }
            at.break_line(out);
            out.push(']');
        }
        Json::Object(pairs) => {
            out.push('{');
            for (i, (k, v)) in pairs.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                at.inner().break_line(out);
                out.push_str(&json_quote(k));
                out.push_str(if at.step > 0 { ": " } else { ":" });
                write(v, &at.inner(), out);
            }
            at.break_line(out);
            out.push('}');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    #[test]
    fn numbers_follow_javascript_types() {
        assert_eq!(
            format(&Bson::Double(10.0), JsonMode::Canonical),
            "{\n  \"$numberInt\": \"10\"\n}"
        );
        assert_eq!(format(&Bson::Double(1.5), JsonMode::Relaxed), "1.5");
        assert_eq!(
            format(&Bson::Double(-0.0), JsonMode::Canonical),
            "{\n  \"$numberDouble\": \"-0.0\"\n}"
        );
        assert_eq!(
            format(&Bson::Double(1e10), JsonMode::Canonical),
            "{\n  \"$numberLong\": \"10000000000\"\n}"
        );
        assert_eq!(
            format(&Bson::Double(1e21), JsonMode::Canonical),
            "{\n  \"$numberDouble\": \"1e+21\"\n}"
        );
        assert_eq!(
            format(&Bson::Int64(i64::MAX), JsonMode::Relaxed),
            "9223372036854776000"
        );
    }

    #[test]
    fn one_line_output_has_no_spaces() {
        let d = bson::doc! {"a": 1, "b": [true, {"c": "x"}]};
        assert_eq!(
            format_indented(&Bson::Document(d), JsonMode::Relaxed, 0),
            r#"{"a":1,"b":[true,{"c":"x"}]}"#
        );
    }

    #[test]
    fn documents_indent_by_two() {
        let d = Bson::Document(doc! { "a": [], "b": {}, "c": [1, "x\n"] });
        assert_eq!(
            format(&d, JsonMode::Relaxed),
            "{\n  \"a\": [],\n  \"b\": {},\n  \"c\": [\n    1,\n    \"x\\n\"\n  ]\n}"
        );
    }
}
