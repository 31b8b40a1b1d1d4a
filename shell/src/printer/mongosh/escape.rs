//! Strings and keys as util.inspect writes them: single quotes unless the text holds one (then
//! double quotes, then backticks), control characters escaped as `\n` / `\x1B`, long strings
//! cut at `maxStringLength` and long multi-line strings split into `'…\n' +` pieces.

use super::Limits;
use crate::printer::text::{slice_utf16, utf16_len};

const BREAK_LENGTH: usize = 80;
/// Strings up to this length are never split over lines (`kMinLineLength`).
const MIN_LINE_LENGTH: usize = 16;

/// A string value at indentation `indentation` (`formatPrimitive`).
pub fn string_primitive(s: &str, indentation: usize, limits: Limits) -> String {
    let (value, dangling, trailer) = truncate(s, limits.max_string_length);
    let len = utf16_len(value) + usize::from(dangling.is_some());
    let fits = (len as i64) <= BREAK_LENGTH as i64 - indentation as i64 - 4;
    if len > MIN_LINE_LENGTH && !fits {
        let pieces: Vec<&str> = value.split_inclusive('\n').collect();
        let last = pieces.len().saturating_sub(1);
        let joined = pieces
            .iter()
            .enumerate()
            .map(|(i, piece)| quote(piece, if i == last { dangling } else { None }))
            .collect::<Vec<_>>()
            .join(&format!(" +\n{}", " ".repeat(indentation + 2)));
        return joined + &trailer;
    }
    quote(value, dangling) + &trailer
}

/// `maxStringLength`: the kept prefix (in UTF-16 units), a dangling half surrogate pair, and the
/// `... N more characters` trailer.
fn truncate(s: &str, max: usize) -> (&str, Option<u16>, String) {
    let len = utf16_len(s);
    if len <= max {
        return (s, None, String::new());
    }
    let remaining = len - max;
    let (kept, dangling) = slice_utf16(s, max);
    (
        kept,
        dangling,
        format!(
            "... {remaining} more character{}",
            if remaining > 1 { "s" } else { "" }
        ),
    )
}

/// A property name: bare when it is an identifier made of ASCII letters, digits and `_`.
pub fn key(k: &str) -> String {
    if k == "__proto__" {
        return "['__proto__']".to_string();
    }
    let mut chars = k.chars();
    let identifier = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if identifier {
        k.to_string()
    } else {
        quote(k, None)
    }
}

/// `strEscape`: picks the quote and escapes what must be.
pub fn quote(s: &str, dangling: Option<u16>) -> String {
    let q = if !s.contains('\'') {
        '\''
    } else if !s.contains('"') {
        '"'
    } else if !s.contains('`') && !s.contains("${") {
        '`'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(q);
    for c in s.chars() {
        match c {
            '\'' if q == '\'' => out.push_str("\\'"),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || (0x7F..=0x9F).contains(&(c as u32)) => {
                out.push_str(&format!("\\x{:02X}", c as u32));
            }
            c => out.push(c),
        }
    }
    if let Some(unit) = dangling {
        out.push_str(&format!("\\u{unit:x}"));
    }
    out.push(q);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quote_choice() {
        assert_eq!(quote("abc", None), "'abc'");
        assert_eq!(quote("it's", None), "\"it's\"");
        assert_eq!(quote("it's \"x\"", None), "`it's \"x\"`");
        assert_eq!(quote("it's \"x\" `y`", None), "'it\\'s \"x\" `y`'");
        assert_eq!(quote("'${a}\"", None), "'\\'${a}\"'");
    }

    #[test]
    fn control_characters() {
        assert_eq!(
            quote("a\tb\nc\u{1b}\u{7f}\u{85}\\", None),
            "'a\\tb\\nc\\x1B\\x7F\\x85\\\\'"
        );
        assert_eq!(quote("a", Some(0xd83d)), "'a\\ud83d'");
    }

    #[test]
    fn keys() {
        assert_eq!(key("name"), "name");
        assert_eq!(key("_id"), "_id");
        assert_eq!(key("first-name"), "'first-name'");
        assert_eq!(key("$set"), "'$set'");
        assert_eq!(key("2"), "'2'");
        assert_eq!(key("产品"), "'产品'");
        assert_eq!(key(""), "''");
        assert_eq!(key("__proto__"), "['__proto__']");
    }

    #[test]
    fn truncation_and_splitting() {
        let limits = Limits {
            depth: None,
            max_array_length: 100,
            max_string_length: 3,
        };
        assert_eq!(
            string_primitive("abcdef", 0, limits),
            "'abc'... 3 more characters"
        );
        assert_eq!(
            string_primitive("abcd", 0, limits),
            "'abc'... 1 more character"
        );
        let long = format!("{}\n{}", "a".repeat(40), "b".repeat(40));
        assert_eq!(
            string_primitive(&long, 2, Limits::RESULT),
            format!("'{}\\n' +\n    '{}'", "a".repeat(40), "b".repeat(40))
        );
    }
}
