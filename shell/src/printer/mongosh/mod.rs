//! mongosh's printing: Node's `util.inspect` with the options mongosh passes (`compact: 3`,
//! `breakLength: 80`, `depth: 6`, Node's default `maxArrayLength: 100` and
//! `maxStringLength: 10000`; cursors lift all three limits), applied to the JavaScript values
//! the driver makes of BSON, with mongosh's custom inspectors for the BSON classes.
//!
//! The walk mirrors `formatValue` / `formatRaw` / `formatProperty`: each nesting level indents
//! by two, and `layout` decides whether a level fits on one line.

mod custom;
mod escape;
mod layout;

use bson::{Bson, Document};

use super::jsnum::inspect_number;
use super::jsregex;
use super::jsview::{dbref_of, js_key_order};

/// The inspect options that vary between mongosh's uses of `util.inspect`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Nesting below which objects print as `[Object]` / `[Array]`; `None` is unlimited.
    pub depth: Option<usize>,
    pub max_array_length: usize,
    pub max_string_length: usize,
}

impl Limits {
    /// A shell result: mongosh's `inspectDepth` 6 and Node's default array and string limits.
    pub const RESULT: Limits = Limits {
        depth: Some(6),
        max_array_length: 100,
        max_string_length: 10_000,
    };
    /// A cursor batch (and explain output): nothing is cut.
    pub const CURSOR: Limits = Limits {
        depth: None,
        max_array_length: usize::MAX,
        max_string_length: usize::MAX,
    };
}

/// `util.inspect(value, options)` for a BSON value as mongosh holds it.
pub fn inspect(value: &Bson, limits: Limits) -> String {
    Inspector::new(limits).value(value, 0)
}

/// `util.inspect` of an array of documents (a cursor batch).
pub fn inspect_documents(docs: &[Document], limits: Limits) -> String {
    let items: Vec<Bson> = docs.iter().cloned().map(Bson::Document).collect();
    Inspector::new(limits).array(&items, 0)
}

/// `util.inspect` of a typed array (`Int8Array(3) [ 1, 2, 3 ]`, Node's default 100-item limit)
/// with the `Int8Array(3) ` prefix then removed, as mongosh's vector inspector shows it.
pub fn typed_array_contents(type_name: &str, items: &[Bson], limits: Limits) -> String {
    if items.is_empty() {
        return "[]".to_string();
    }
    let mut ins = Inspector::new(Limits {
        max_array_length: 100,
        ..limits
    });
    ins.current_depth = 1;
    let shown = items.len().min(ins.limits.max_array_length);
    let mut output: Vec<String> = items[..shown].iter().map(|v| ins.value(v, 1)).collect();
    let remaining = items.len() - shown;
    if remaining > 0 {
        output.push(format!(
            "... {remaining} more item{}",
            if remaining > 1 { "s" } else { "" }
        ));
    }
    let open = format!("{type_name}({}) [", items.len());
    let text = layout::reduce_to_single_string(&ins, output, (&open, "]"), Some(items), 1);
    text.get(open.len() - 1..).unwrap_or_default().to_string()
}

/// The state util.inspect threads through one call.
struct Inspector {
    limits: Limits,
    /// Spaces before the current nesting level (`ctx.indentationLvl`).
    indentation: usize,
    /// The depth of the object or array most recently entered (`ctx.currentDepth`).
    current_depth: usize,
}

impl Inspector {
    fn new(limits: Limits) -> Inspector {
        Inspector {
            limits,
            indentation: 0,
            current_depth: 0,
        }
    }

    fn value(&mut self, v: &Bson, recurse_times: usize) -> String {
        match v {
            Bson::Double(f) => inspect_number(*f),
            Bson::Int32(i) => i.to_string(),
            Bson::String(s) | Bson::Symbol(s) => {
                escape::string_primitive(s, self.indentation, self.limits)
            }
            Bson::Boolean(b) => b.to_string(),
            Bson::Null => "null".to_string(),
            Bson::Undefined => "undefined".to_string(),
            Bson::RegularExpression(r) => {
                jsregex::js_literal(r.pattern.as_str(), r.options.as_str())
            }
            Bson::Array(items) => self.array(items, recurse_times),
            Bson::Document(d) => match dbref_of(d) {
                Some(r) => self.custom(custom::dbref(&r, self.limits)),
                None => self.object(d, recurse_times),
            },
            other => self.custom(custom::bson_class(other, self.limits)),
        }
    }

    /// A custom inspector's string, re-indented to the current level as util.inspect does.
    fn custom(&self, text: String) -> String {
        if text.contains('\n') {
            text.replace('\n', &format!("\n{}", " ".repeat(self.indentation)))
        } else {
            text
        }
    }

    fn depth_exceeded(&self, recurse_times: usize) -> bool {
        self.limits.depth.is_some_and(|d| recurse_times > d)
    }

    fn object(&mut self, d: &Document, recurse_times: usize) -> String {
        let entries = js_key_order(d);
        if entries.is_empty() {
            return "{}".to_string();
        }
        if self.depth_exceeded(recurse_times) {
            return "[Object]".to_string();
        }
        let recurse_times = recurse_times + 1;
        self.current_depth = recurse_times;
        let output: Vec<String> = entries
            .into_iter()
            .map(|(k, v)| {
                let text = self.nested(v, recurse_times);
                format!("{}: {text}", escape::key(k))
            })
            .collect();
        layout::reduce_to_single_string(self, output, ("{", "}"), None, recurse_times)
    }

    fn array(&mut self, items: &[Bson], recurse_times: usize) -> String {
        if items.is_empty() {
            return "[]".to_string();
        }
        if self.depth_exceeded(recurse_times) {
            return "[Array]".to_string();
        }
        let recurse_times = recurse_times + 1;
        self.current_depth = recurse_times;
        let shown = items.len().min(self.limits.max_array_length);
        let mut output: Vec<String> = items[..shown]
            .iter()
            .map(|v| self.nested(v, recurse_times))
            .collect();
        let remaining = items.len() - shown;
        if remaining > 0 {
            output.push(format!(
                "... {remaining} more item{}",
                if remaining > 1 { "s" } else { "" }
            ));
        }
        layout::reduce_to_single_string(self, output, ("[", "]"), Some(items), recurse_times)
    }

    /// `formatProperty`: a member is formatted two columns further in.
    fn nested(&mut self, v: &Bson, recurse_times: usize) -> String {
        self.indentation += 2;
        let text = self.value(v, recurse_times);
        self.indentation -= 2;
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::{doc, oid::ObjectId};

    fn show(v: Bson) -> String {
        inspect(&v, Limits::RESULT)
    }

    #[test]
    fn insert_one_result_breaks_at_81_columns() {
        let oid = ObjectId::parse_str("5563a3a3e9a1c6b1b41b1d1a").unwrap();
        assert_eq!(
            show(Bson::Document(
                doc! { "acknowledged": true, "insertedId": oid }
            )),
            "{\n  acknowledged: true,\n  insertedId: ObjectId('5563a3a3e9a1c6b1b41b1d1a')\n}"
        );
        assert_eq!(show(Bson::Document(doc! { "ok": 1 })), "{ ok: 1 }");
    }

    #[test]
    fn depth_limit_prints_placeholders() {
        let deep = doc! { "a": { "b": { "c": { "d": { "e": { "f": { "g": { "h": 1 } } } } } } } };
        assert_eq!(
            show(Bson::Document(deep)),
            "{\n  a: {\n    b: {\n      c: {\n        d: { e: { f: { g: [Object] } } }\n      }\n    }\n  }\n}"
        );
        assert_eq!(
            inspect(&Bson::Array(vec![Bson::Array(vec![])]), Limits::RESULT),
            "[ [] ]"
        );
    }
}
