//! The 3.0 `mongo` shell's `tojson`: `"key" : value` pairs, tab-indented when pretty, and any
//! object (at the top level only) whose pretty form is shorter than 80 characters folded onto
//! one line. Numbers are JavaScript numbers (the 3.0 shell turned Int32 into doubles), int64s
//! `NumberLong(…)`, dates `ISODate("…")` without `.000`, binaries `BinData(subtype,"base64")`.

use bson::{Bson, Document};

use super::base64;
use super::isodate::legacy_iso_text;
use super::jsnum::js_number;
use super::jsview::{dbpointer_view, js_truthy};
use super::text::{json_quote as quote, utf16_len};

/// The 3.0 shell's `nolint` argument: `tojson(x)` is pretty, `tojson(x, "", true)` one line,
/// `tojson(x, "", false)` pretty and never folded (jstests/core/json1.js).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    Pretty,
    OneLine,
    Unfolded,
}

/// `tojson(x, indent, nolint)`.
pub fn tojson(v: &Bson, indent: &str, layout: Layout) -> String {
    if let Some(text) = primitive(v) {
        return text;
    }
    let s = tojson_object(v, indent, layout);
    if layout != Layout::Unfolded && utf16_len(&s) < 80 && indent.is_empty() {
        fold_whitespace(&s)
    } else {
        s
    }
}

/// The values the 3.0 shell held as JavaScript primitives (or functions, for code).
fn primitive(v: &Bson) -> Option<String> {
    Some(match v {
        Bson::Null => "null".to_string(),
        Bson::Undefined => "undefined".to_string(),
        Bson::String(s) | Bson::Symbol(s) => quote(s),
        Bson::Int32(i) => i.to_string(),
        Bson::Double(f) => js_number(*f),
        Bson::Boolean(b) => b.to_string(),
        // BSON code became a JavaScript function: `x.toString()`, never folded.
        Bson::JavaScriptCode(code) => code.clone(),
        Bson::JavaScriptCodeWithScope(c) => c.code.clone(),
        _ => return None,
    })
}

/// What `print(x)` / `shellPrintHelper` shows for a shell result.
pub fn shell_print(v: &Bson, layout: Layout) -> String {
    match v {
        Bson::Undefined => String::new(),
        Bson::String(s) | Bson::Symbol(s) => s.clone(),
        _ => tojson(v, "", layout),
    }
}

/// `s.replace(/[\t\r\n]+/gm, " ")`.
fn fold_whitespace(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_run = false;
    for c in s.chars() {
        if matches!(c, '\t' | '\r' | '\n') {
            if !in_run {
                out.push(' ');
            }
            in_run = true;
        } else {
            out.push(c);
            in_run = false;
        }
    }
    out
}

/// `tojsonObject`: the types with their own `tojson`, arrays, and plain documents.
fn tojson_object(v: &Bson, indent: &str, layout: Layout) -> String {
    match v {
        Bson::ObjectId(oid) => format!("ObjectId(\"{}\")", oid.to_hex()),
        Bson::Int64(n) if (-(1i64 << 31) + 1..(1i64 << 31)).contains(n) => {
            format!("NumberLong({n})")
        }
        Bson::Int64(n) => format!("NumberLong(\"{n}\")"),
        Bson::Decimal128(d) => format!("NumberDecimal(\"{d}\")"),
        Bson::DateTime(dt) => format!("ISODate(\"{}\")", legacy_iso_text(dt.timestamp_millis())),
        Bson::Timestamp(ts) => format!("Timestamp({}, {})", ts.time, ts.increment),
        Bson::Binary(b) => format!(
            "BinData({},\"{}\")",
            u8::from(b.subtype),
            base64::encode(&b.bytes)
        ),
        Bson::RegularExpression(r) => {
            format!("/{}/{}", r.pattern.as_str(), v8_flags(r.options.as_str()))
        }
        Bson::MinKey => "{ $minKey : 1 }".to_string(),
        Bson::MaxKey => "{ $maxKey : 1 }".to_string(),
        Bson::DbPointer(p) => match dbpointer_view(p) {
            Some(r) => {
                let ns = match &r.db {
                    Some(db) => format!("{db}.{}", r.collection),
                    None => r.collection.clone(),
                };
                format!(
                    "DBPointer({}, {})",
                    quote(&ns),
                    tojson(&r.oid, "", Layout::Pretty)
                )
            }
            None => "DBPointer()".to_string(),
        },
        Bson::Array(items) => array_tojson(items, indent, layout),
        Bson::Document(d) => match dbref(d) {
            Some(text) => text,
            None => document_tojson(d, indent, layout),
        },
        other => primitive(other).unwrap_or_default(),
    }
}

/// The 3.0 shell made a `DBRef` of a document whose first field is `$ref` and that has `$id`.
fn dbref(d: &Document) -> Option<String> {
    let (first, namespace) = d.iter().next()?;
    let id = d.get("$id")?;
    if first != "$ref" {
        return None;
    }
    let db = d.get("$db").filter(|db| js_truthy(db));
    let mut out = format!(
        "DBRef({}, {}",
        tojson(namespace, "", Layout::Pretty),
        tojson(id, "", Layout::Pretty)
    );
    if let Some(db) = db {
        out.push_str(", ");
        out.push_str(&tojson(db, "", Layout::Pretty));
    }
    out.push(')');
    Some(out)
}

/// V8's RegExp keeps only the JavaScript flags, in `gim` order.
fn v8_flags(options: &str) -> String {
    ['g', 'i', 'm']
        .into_iter()
        .filter(|f| options.contains(*f))
        .collect()
}

/// `Array.tojson`.
fn array_tojson(items: &[Bson], indent: &str, layout: Layout) -> String {
    if items.is_empty() {
        return "[ ]".to_string();
    }
    let (sep, inner) = match layout {
        Layout::OneLine => (" ", String::new()),
        Layout::Pretty | Layout::Unfolded => ("\n", format!("{indent}\t")),
    };
    let body: Vec<String> = items
        .iter()
        .map(|v| format!("{inner}{}", tojson(v, &inner, layout)))
        .collect();
    let outer = match layout {
        Layout::OneLine => "",
        Layout::Pretty | Layout::Unfolded => indent,
    };
    format!("[{sep}{}{sep}{outer}]", body.join(&format!(",{sep}")))
}

/// `tojsonObject` for a plain document. Keys are written as they are, unescaped.
fn document_tojson(d: &Document, indent: &str, layout: Layout) -> String {
    let (line_end, tab) = match layout {
        Layout::OneLine => (" ", ""),
        Layout::Pretty | Layout::Unfolded => ("\n", "\t"),
    };
    let inner = format!("{indent}{tab}");
    let fields: Vec<String> = d
        .iter()
        .map(|(k, v)| format!("{inner}\"{k}\" : {}", tojson(v, &inner, layout)))
        .collect();
    let body = if fields.is_empty() {
        inner.clone()
    } else {
        fields.join(&format!(",{line_end}"))
    };
    // `indent.substring(1)` after the fields: one level out again.
    let outer = inner.get(1..).unwrap_or("");
    format!("{{{line_end}{body}{line_end}{outer}}}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    #[test]
    fn pretty_folds_short_objects_at_the_top_only() {
        let d = Bson::Document(doc! { "a": { "b": 1 }, "c": [] });
        assert_eq!(
            tojson(&d, "", Layout::Pretty),
            "{ \"a\" : { \"b\" : 1 }, \"c\" : [ ] }"
        );
        assert_eq!(tojson(&Bson::Document(doc! {}), "", Layout::Pretty), "{ }");
        assert_eq!(
            tojson(&Bson::Document(doc! {}), "", Layout::OneLine),
            "{  }"
        );
    }

    #[test]
    fn nolint_false_never_folds_and_an_indent_prefixes_the_inner_lines() {
        let d = Bson::Document(doc! { "x": [], "y": {} });
        assert_eq!(
            tojson(&d, "", Layout::Unfolded),
            "{\n\t\"x\" : [ ],\n\t\"y\" : {\n\t\t\n\t}\n}"
        );
        // The closing brace takes `indent.substring(1)` of the inner indent, as the 3.0 shell's.
        assert_eq!(
            tojson(&Bson::Document(doc! { "a": 1 }), "  ", Layout::Pretty),
            "{\n  \t\"a\" : 1\n \t}"
        );
    }

    #[test]
    fn long_documents_stay_tab_indented() {
        let d = Bson::Document(doc! {
            "name": "Product 1234567890 1234567890",
            "tags": ["electronics", "books"],
            "address": { "street": "Main Street 1" },
        });
        assert_eq!(
            tojson(&d, "", Layout::Pretty),
            "{\n\t\"name\" : \"Product 1234567890 1234567890\",\n\t\"tags\" : [\n\t\t\"electronics\",\n\t\t\"books\"\n\t],\n\t\"address\" : {\n\t\t\"street\" : \"Main Street 1\"\n\t}\n}"
        );
    }

    #[test]
    fn number_long_quotes_from_two_to_the_31() {
        assert_eq!(
            tojson(&Bson::Int64(10), "", Layout::Pretty),
            "NumberLong(10)"
        );
        assert_eq!(
            tojson(&Bson::Int64(2147483647), "", Layout::Pretty),
            "NumberLong(2147483647)"
        );
        assert_eq!(
            tojson(&Bson::Int64(2147483648), "", Layout::Pretty),
            "NumberLong(\"2147483648\")"
        );
        assert_eq!(
            tojson(&Bson::Int64(-2147483647), "", Layout::Pretty),
            "NumberLong(-2147483647)"
        );
        assert_eq!(
            tojson(&Bson::Int64(-2147483648), "", Layout::Pretty),
            "NumberLong(\"-2147483648\")"
        );
    }

    #[test]
    fn strings_escape_like_the_old_shell() {
        assert_eq!(
            quote("a\"b\\c\n\u{1}\u{1f}é"),
            "\"a\\\"b\\\\c\\n\\u0001\\u001fé\""
        );
    }
}
