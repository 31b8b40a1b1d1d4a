//! Printing shell results: a pure function from BSON to the text a shell shows.
//!
//! Two styles. [`Style::Mongosh`] is what mongosh prints: Node's `util.inspect` with mongosh's
//! options over the JavaScript values the driver makes of BSON (`{ name: 'Product 1', price: 10 }`,
//! `ObjectId('…')`, `Long('10')`, `ISODate('…')`). [`Style::Legacy`] is the 3.0 `mongo` shell the
//! books show: `tojson` (`{ "name" : "Product 1", "price" : 10 }`, `NumberLong(10)`,
//! `ISODate("…")`). [`format_extjson`] is `mongosh --json=relaxed|canonical`.
//!
//! Nothing here can panic or fail: every BSON value has a text.
//!
//! How it is checked: the mongosh and `--json` golden cases (and thousands of random documents,
//! see `shell/tests/golden/printer/`) were printed by Node 20's `util.inspect` and js-bson 6 with
//! mongosh's options and BSON inspectors; the legacy cases follow the shell's `tojson` source.
//!
//! Known differences, all in corners:
//! - Column widths for grouping arrays are summed per code point from Node's ICU table; Node
//!   measures whole grapheme clusters (emoji sequences) after NFC normalisation.
//! - `--json` of a regex with the BSON `s` option: mongosh fails (its RegExp has a `g` flag that
//!   Extended JSON rejects); Sprout writes the `s` option.
//! - `--json` of a DBRef whose `$id` is falsy (`0`, `""`) and that has extra BSON-typed fields:
//!   mongosh writes those fields through `toJSON`; Sprout writes Extended JSON.
//! - Legacy: a BSON UUID prints `BinData(4,"…")` and code prints its source text, as the 3.0
//!   shell did (later shells print `UUID("…")`); regex flags keep only `g`, `i`, `m`.

mod base64;
mod extjson;
mod isodate;
mod jsnum;
mod jsregex;
mod jsview;
mod legacy;
mod mongosh;
mod text;
mod width_table;

#[cfg(test)]
mod golden;
#[cfg(test)]
mod random_values;

use bson::{Bson, Document};

/// Which shell's output to reproduce.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// mongosh, MongoDB's current shell (the default).
    Mongosh,
    /// The legacy 3.0 `mongo` shell that the books show.
    Legacy,
}

/// How to print.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PrintOptions {
    pub style: Style,
    /// Legacy only: `true` prints as `tojson(x)` (multi-line with tabs, folded onto one line
    /// when shorter than 80 characters), as the 3.0 shell shows results, `printjson` and
    /// `find().pretty()`; `false` prints `tojson(x, "", true)`, one line, as plain `find()`.
    pub pretty: bool,
}

/// Which Extended JSON `mongosh --json` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonMode {
    Relaxed,
    Canonical,
}

/// One value as the shell prints a result.
///
/// mongosh: a string prints bare (unless it holds control characters other than tab and
/// newline), `undefined` prints nothing, anything else as `util.inspect` with depth 6, 100
/// array items and 10000 string characters. Legacy: `shellPrintHelper` (bare strings and
/// numbers, nothing for `undefined`, objects via `tojson`).
pub fn format_value(v: &Bson, opts: &PrintOptions) -> String {
    match opts.style {
        Style::Mongosh => match v {
            Bson::String(s) | Bson::Symbol(s) if !has_hidden_controls(s) => s.clone(),
            Bson::Undefined => String::new(),
            _ => mongosh::inspect(v, mongosh::Limits::RESULT),
        },
        Style::Legacy => legacy::shell_print(v, legacy_layout(opts)),
    }
}

/// A batch of cursor results as printed after `find()`. mongosh prints the array
/// `[ {...}, {...} ]` with no depth, array or string limit (an empty batch prints nothing); the
/// caller adds `Type "it" for more`. Legacy prints one document per line (`pretty`: `tojson`).
pub fn format_cursor_batch(docs: &[Document], opts: &PrintOptions) -> String {
    match opts.style {
        Style::Mongosh if docs.is_empty() => String::new(),
        Style::Mongosh => mongosh::inspect_documents(docs, mongosh::Limits::CURSOR),
        Style::Legacy => docs
            .iter()
            .map(|d| legacy::tojson(&Bson::Document(d.clone()), "", legacy_layout(opts)))
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

/// A shell result object with a class name. mongosh prints such results (InsertOneResult,
/// UpdateResult, …) as plain documents, so the name is not shown; the legacy shell prints
/// `WriteResult({ "nInserted" : 1 })`, `BulkWriteResult({…})` with `tojson`.
pub fn format_named(name: &str, doc: &Document, opts: &PrintOptions) -> String {
    let v = Bson::Document(doc.clone());
    match opts.style {
        Style::Mongosh => mongosh::inspect(&v, mongosh::Limits::RESULT),
        Style::Legacy => format!("{name}({})", legacy::tojson(&v, "", legacy::Layout::Pretty)),
    }
}

/// Extended JSON as `mongosh --eval … --json=relaxed|canonical` prints it (2-space indented).
pub fn format_extjson(v: &Bson, mode: JsonMode) -> String {
    extjson::format(v, mode)
}

/// Extended JSON with `step` spaces per level (0: on one line), for `EJSON.stringify`.
pub fn format_extjson_indented(v: &Bson, mode: JsonMode, step: usize) -> String {
    extjson::format_indented(v, mode, step)
}

/// The legacy shell's `tojson(v, indent, nolint)`: `nolint` absent (null or undefined) is the
/// pretty form folded when short, true one line, false pretty and never folded.
pub fn legacy_tojson(v: &Bson, indent: &str, nolint: Option<bool>) -> String {
    let layout = match nolint {
        None => legacy::Layout::Pretty,
        Some(true) => legacy::Layout::OneLine,
        Some(false) => legacy::Layout::Unfolded,
    };
    legacy::tojson(v, indent, layout)
}

fn legacy_layout(opts: &PrintOptions) -> legacy::Layout {
    if opts.pretty {
        legacy::Layout::Pretty
    } else {
        legacy::Layout::OneLine
    }
}

/// mongosh inspects (quotes) a string result that holds these instead of printing it bare.
fn has_hidden_controls(s: &str) -> bool {
    s.chars()
        .any(|c| matches!(c as u32, 0x00..=0x08 | 0x0B..=0x1F | 0x7F..=0x9F))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    const MONGOSH: PrintOptions = PrintOptions {
        style: Style::Mongosh,
        pretty: false,
    };
    const LEGACY: PrintOptions = PrintOptions {
        style: Style::Legacy,
        pretty: false,
    };
    const LEGACY_PRETTY: PrintOptions = PrintOptions {
        style: Style::Legacy,
        pretty: true,
    };

    #[test]
    fn top_level_strings_print_bare() {
        assert_eq!(format_value(&Bson::String("it's".into()), &MONGOSH), "it's");
        assert_eq!(
            format_value(&Bson::String("a\u{1}".into()), &MONGOSH),
            "'a\\x01'"
        );
        assert_eq!(format_value(&Bson::String("x".into()), &LEGACY), "x");
        assert_eq!(format_value(&Bson::Undefined, &MONGOSH), "");
        assert_eq!(format_value(&Bson::Undefined, &LEGACY), "");
        assert_eq!(format_value(&Bson::Null, &LEGACY), "null");
    }

    #[test]
    fn named_results() {
        let d = doc! { "nInserted": 1 };
        assert_eq!(
            format_named("WriteResult", &d, &LEGACY),
            "WriteResult({ \"nInserted\" : 1 })"
        );
        assert_eq!(
            format_named("WriteResult", &d, &MONGOSH),
            "{ nInserted: 1 }"
        );
    }

    #[test]
    fn deep_and_odd_values_print_without_panicking() {
        let mut deep = Bson::Int32(1);
        for i in 0..150 {
            deep = if i % 2 == 0 {
                Bson::Array(vec![deep])
            } else {
                Bson::Document(doc! { "k": deep })
            };
        }
        let odd = Bson::Document(doc! {
            "deep": deep,
            "wide": (0..300).map(Bson::Int32).collect::<Vec<_>>(),
            "emoji": "😀".repeat(6000),
            "nul": "\u{0}",
            "ref": { "$ref": "a.b.c", "$id": { "$ref": "x", "$id": 1 } },
        });
        for style in [Style::Mongosh, Style::Legacy] {
            for pretty in [false, true] {
                let opts = PrintOptions { style, pretty };
                assert!(!format_value(&odd, &opts).is_empty());
                let d = odd.as_document().cloned().unwrap_or_default();
                assert!(!format_cursor_batch(&[d], &opts).is_empty());
            }
        }
        for mode in [JsonMode::Relaxed, JsonMode::Canonical] {
            assert!(format_extjson(&odd, mode).starts_with("{\n"));
        }
        // 10000 UTF-16 units end inside the 5000th emoji's surrogate pair.
        let cut = format_value(
            &Bson::Array(vec![Bson::String(format!("a{}", "😀".repeat(6000)))]),
            &MONGOSH,
        );
        assert!(cut.contains("\\ud83d'... 2001 more characters"));
    }

    #[test]
    fn cursor_batches() {
        let docs = [doc! { "_id": 1 }, doc! { "_id": 2 }];
        assert_eq!(
            format_cursor_batch(&docs, &MONGOSH),
            "[ { _id: 1 }, { _id: 2 } ]"
        );
        assert_eq!(
            format_cursor_batch(&docs, &LEGACY),
            "{ \"_id\" : 1 }\n{ \"_id\" : 2 }"
        );
        assert_eq!(
            format_cursor_batch(&docs, &LEGACY_PRETTY),
            "{ \"_id\" : 1 }\n{ \"_id\" : 2 }"
        );
        assert_eq!(format_cursor_batch(&[], &MONGOSH), "");
        assert_eq!(format_cursor_batch(&[], &LEGACY), "");
    }
}
