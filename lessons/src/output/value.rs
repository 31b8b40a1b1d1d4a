//! A value as the shell prints it, read back: what a printed document, array or BSON class
//! means, with the spelling (mongosh or legacy shell, quotes, line breaks) left behind.

use std::fmt;

/// One printed value. Documents keep their fields in order; numbers keep the type the text
/// shows (mongosh prints an Int32 and a Double alike, as a bare JavaScript number).
#[derive(Debug, Clone, PartialEq)]
pub enum PrintedValue {
    Document(Vec<(String, PrintedValue)>),
    Array(Vec<PrintedValue>),
    String(String),
    /// A string cut by the printer: `'abc'... 3 more characters`.
    TruncatedString {
        kept: String,
        more: u64,
    },
    /// A bare number: an Int32 or a Double (the printed text cannot tell them apart).
    Number(f64),
    /// `Int32(5)` / `NumberInt(5)`: an Int32 the shell did not turn into a JavaScript number.
    Int32(i32),
    /// `Double(5)`: a Double the shell did not turn into a JavaScript number.
    Double(f64),
    /// `Long('5')` / `NumberLong(5)`.
    Long(i64),
    /// `Decimal128('1.50')` / `NumberDecimal("1.50")`: the decimal's own text (trailing zeros
    /// are part of its value).
    Decimal128(String),
    Boolean(bool),
    Null,
    Undefined,
    /// Lower-case hex.
    ObjectId(String),
    /// `ISODate('…')` as RFC 3339 with milliseconds (or the text when it is not a date, such
    /// as `Invalid Date`).
    Date(String),
    Timestamp {
        t: u64,
        i: u64,
    },
    /// `Binary.createFromBase64(…)`, `BinData(…)`, `UUID('…')` (subtype 4), `MD5('…')` (5).
    Binary {
        subtype: u8,
        bytes: Vec<u8>,
    },
    Regex {
        source: String,
        flags: String,
    },
    MinKey,
    MaxKey,
    /// Any other constructor the shell shows: `DBRef(…)`, `Code(…)`, `WriteResult({ … })`,
    /// `Binary.fromInt8Array(new Int8Array([ … ]))` (`new` dropped).
    Call {
        name: String,
        args: Vec<PrintedValue>,
    },
    /// What the printer left out: `[Object]`, `[Array]`, `... 5 more items`.
    Elided(String),
}

impl PrintedValue {
    /// The kind of value, as a failure message names it.
    pub fn kind(&self) -> &'static str {
        match self {
            PrintedValue::Document(_) => "document",
            PrintedValue::Array(_) => "array",
            PrintedValue::String(_) | PrintedValue::TruncatedString { .. } => "string",
            PrintedValue::Number(_) => "number (Int32 or Double)",
            PrintedValue::Int32(_) => "Int32",
            PrintedValue::Double(_) => "Double",
            PrintedValue::Long(_) => "Long",
            PrintedValue::Decimal128(_) => "Decimal128",
            PrintedValue::Boolean(_) => "boolean",
            PrintedValue::Null => "null",
            PrintedValue::Undefined => "undefined",
            PrintedValue::ObjectId(_) => "ObjectId",
            PrintedValue::Date(_) => "date",
            PrintedValue::Timestamp { .. } => "Timestamp",
            PrintedValue::Binary { .. } => "binary",
            PrintedValue::Regex { .. } => "regular expression",
            PrintedValue::MinKey => "MinKey",
            PrintedValue::MaxKey => "MaxKey",
            PrintedValue::Call { .. } => "constructor call",
            PrintedValue::Elided(_) => "elided value",
        }
    }
}

/// One line in mongosh's spelling, for failure messages.
impl fmt::Display for PrintedValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PrintedValue::Document(fields) if fields.is_empty() => f.write_str("{}"),
            PrintedValue::Document(fields) => {
                f.write_str("{ ")?;
                for (n, (k, v)) in fields.iter().enumerate() {
                    if n > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{}: {v}", key_text(k))?;
                }
                f.write_str(" }")
            }
            PrintedValue::Array(items) if items.is_empty() => f.write_str("[]"),
            PrintedValue::Array(items) => {
                f.write_str("[ ")?;
                for (n, v) in items.iter().enumerate() {
                    if n > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str(" ]")
            }
            PrintedValue::String(s) => f.write_str(&quoted(s)),
            PrintedValue::TruncatedString { kept, more } => {
                write!(f, "{}... {more} more characters", quoted(kept))
            }
            PrintedValue::Number(n) => f.write_str(&number_text(*n)),
            PrintedValue::Int32(n) => write!(f, "Int32({n})"),
            PrintedValue::Double(n) => write!(f, "Double({})", number_text(*n)),
            PrintedValue::Long(n) => write!(f, "Long('{n}')"),
            PrintedValue::Decimal128(d) => write!(f, "Decimal128('{d}')"),
            PrintedValue::Boolean(b) => write!(f, "{b}"),
            PrintedValue::Null => f.write_str("null"),
            PrintedValue::Undefined => f.write_str("undefined"),
            PrintedValue::ObjectId(hex) => write!(f, "ObjectId('{hex}')"),
            PrintedValue::Date(iso) => write!(f, "ISODate('{iso}')"),
            PrintedValue::Timestamp { t, i } => write!(f, "Timestamp({{ t: {t}, i: {i} }})"),
            PrintedValue::Binary { subtype, bytes } => {
                let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
                write!(f, "Binary(subtype {subtype}, hex '{hex}')")
            }
            PrintedValue::Regex { source, flags } => write!(f, "/{}/{flags}", regex_source(source)),
            PrintedValue::MinKey => f.write_str("MinKey()"),
            PrintedValue::MaxKey => f.write_str("MaxKey()"),
            PrintedValue::Call { name, args } => {
                write!(f, "{name}(")?;
                for (n, v) in args.iter().enumerate() {
                    if n > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str(")")
            }
            PrintedValue::Elided(text) => f.write_str(text),
        }
    }
}

/// A field name as mongosh shows it (util.inspect's rule, as the shell's printer applies it in
/// `shell/src/printer/mongosh/escape.rs`): bare when it is made of ASCII letters, digits and
/// `_` and does not start with a digit, else quoted (`'$gt'`, `'a.b'`, `'é'`); `__proto__`
/// as `['__proto__']`. The one copy for the lessons, the plan tree and the page.
pub fn key_text(k: &str) -> String {
    if k == "__proto__" {
        return "['__proto__']".to_string();
    }
    let mut chars = k.chars();
    let identifier = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if identifier { k.to_string() } else { quoted(k) }
}

fn quoted(s: &str) -> String {
    let escaped = s
        .replace('\\', "\\\\")
        .replace('\'', "\\'")
        .replace('\n', "\\n");
    format!("'{escaped}'")
}

/// A regex source with `/` escaped outside character classes, as mongosh prints it.
fn regex_source(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let (mut in_class, mut escaped) = (false, false);
    for c in source.chars() {
        if c == '/' && !in_class && !escaped {
            out.push('\\');
        }
        out.push(c);
        match c {
            '[' if !escaped => in_class = true,
            ']' if !escaped => in_class = false,
            _ => {}
        }
        escaped = c == '\\' && !escaped;
    }
    out
}

fn number_text(n: f64) -> String {
    if n.is_nan() {
        "NaN".into()
    } else if n.is_infinite() {
        if n > 0.0 { "Infinity" } else { "-Infinity" }.into()
    } else if n == 0.0 && n.is_sign_negative() {
        "-0".into()
    } else {
        n.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_bare_only_when_util_inspect_leaves_them_bare() {
        assert_eq!(key_text("price"), "price");
        assert_eq!(key_text("_id"), "_id");
        assert_eq!(key_text("a1_b"), "a1_b");
        assert_eq!(key_text("$gt"), "'$gt'");
        assert_eq!(key_text("a.b"), "'a.b'");
        assert_eq!(key_text("1a"), "'1a'");
        assert_eq!(key_text("é"), "'é'");
        assert_eq!(key_text(""), "''");
        assert_eq!(key_text("__proto__"), "['__proto__']");
    }

    #[test]
    fn values_show_on_one_line_in_mongosh_spelling() {
        let v = PrintedValue::Document(vec![
            ("_id".into(), PrintedValue::ObjectId("ab".into())),
            ("first-name".into(), PrintedValue::String("it's".into())),
            (
                "n".into(),
                PrintedValue::Array(vec![
                    PrintedValue::Number(0.5),
                    PrintedValue::Long(5),
                    PrintedValue::Number(f64::NEG_INFINITY),
                ]),
            ),
        ]);
        assert_eq!(
            v.to_string(),
            "{ _id: ObjectId('ab'), 'first-name': 'it\\'s', n: [ 0.5, Long('5'), -Infinity ] }"
        );
        assert_eq!(PrintedValue::Document(vec![]).to_string(), "{}");
        let re = PrintedValue::Regex {
            source: "a/b[/]\\\\/".into(),
            flags: "i".into(),
        };
        assert_eq!(re.to_string(), "/a\\/b[/]\\\\\\//i");
        assert_eq!(PrintedValue::Number(-0.0).to_string(), "-0");
    }
}
