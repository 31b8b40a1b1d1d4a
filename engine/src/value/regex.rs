//! `$regex` and BSON regular expressions, compiled with the `regex` crate.
//!
//! MongoDB uses PCRE; the `regex` crate covers its common syntax (classes, anchors, repetition,
//! `(?i)` style flags). The PCRE-isms translated here: `\Z` (end, or before a final newline).
//! Look-around and backreferences are not supported by the crate and are reported as invalid
//! patterns.

use bson::Bson;
use regex::{Regex, RegexBuilder};

use crate::error::{Error, Result};

/// A compiled query regular expression, with its source for equality against BSON regexes.
#[derive(Debug, Clone)]
pub struct QueryRegex {
    pub pattern: String,
    pub options: String,
    compiled: Regex,
}

impl QueryRegex {
    /// Compiles `pattern` with MongoDB's options letters (`i`, `m`, `s`, `x`, `u`).
    pub fn new(pattern: &str, options: &str) -> Result<QueryRegex> {
        // MongoDB 8.0's RegexMatchExpression: a NUL in the pattern is BadValue; a NUL in the
        // options is an invalid flag (51108), as jstests/core/regex_error.js (FCV 5.1+) expects.
        if pattern.contains('\0') {
            return Err(Error::bad_value(
                "Regular expression cannot contain an embedded null byte",
            ));
        }
        let mut builder = RegexBuilder::new(&translate(pattern, options.contains('x')));
        for flag in options.chars() {
            match flag {
                'i' => builder.case_insensitive(true),
                'm' => builder.multi_line(true),
                's' => builder.dot_matches_new_line(true),
                'x' => builder.ignore_whitespace(true),
                'u' | 'l' => &mut builder,
                other => {
                    return Err(Error::location(
                        51108,
                        format!("invalid flag in regex options: {other}"),
                    ));
                }
            };
        }
        let compiled = builder.build().map_err(|e| {
            Error::location(
                51091,
                format!("Regular expression is invalid: {}", short_message(&e)),
            )
        })?;
        Ok(QueryRegex {
            pattern: pattern.to_string(),
            options: options.to_string(),
            compiled,
        })
    }

    /// Whether a value matches: strings and symbols by search, BSON regexes by equality.
    pub fn matches(&self, v: &Bson) -> bool {
        match v {
            Bson::String(s) | Bson::Symbol(s) => self.compiled.is_match(s),
            Bson::RegularExpression(r) => r.pattern == self.pattern && r.options == self.options,
            _ => false,
        }
    }

    /// The compiled expression (the aggregation operators `$regexFind` and friends read
    /// matches and captures from it).
    pub fn compiled(&self) -> &Regex {
        &self.compiled
    }

    /// Whether a string matches (`$jsonSchema`'s `pattern`).
    pub fn is_match(&self, s: &str) -> bool {
        self.compiled.is_match(s)
    }
}

/// Rewrites PCRE syntax the `regex` crate spells differently or means differently. MongoDB's
/// PCRE runs without Unicode properties, so `\d`, `\w`, `\s` and `\b` are ASCII there (the
/// crate's are Unicode); `\Z`, `\h` and `\Q...\E` have no direct equivalent. With PCRE's
/// extended option (`x`, `extended`), whitespace and `#` inside a character class stay literal
/// (the crate's verbose mode ignores them there too), so they are written as escapes; the
/// classes this function writes itself never hold a bare space for the same reason.
fn translate(pattern: &str, extended: bool) -> String {
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut chars = pattern.chars().peekable();
    let mut in_class = false;
    // Whether the previous character opened a class (a `]` right after `[` or `[^` is literal).
    let mut class_start = false;
    while let Some(c) = chars.next() {
        let was_class_start = class_start;
        class_start = false;
        match c {
            '[' if !in_class => {
                in_class = true;
                class_start = true;
                out.push(c);
                if chars.peek() == Some(&'^') {
                    out.push('^');
                    chars.next();
                }
                continue;
            }
            ']' if in_class && !was_class_start => {
                in_class = false;
                out.push(c);
                continue;
            }
            c if in_class && extended && (c.is_ascii_whitespace() || c == '#' || c == '\x0B') => {
                out.push_str(&format!("\\x{{{:X}}}", u32::from(c)));
                continue;
            }
            '\\' => {}
            _ => {
                out.push(c);
                continue;
            }
        }
        let Some(next) = chars.next() else {
            out.push('\\');
            break;
        };
        match next {
            'd' => out.push_str("[0-9]"),
            'D' => out.push_str("[^0-9]"),
            'w' => out.push_str("[0-9A-Za-z_]"),
            'W' => out.push_str("[^0-9A-Za-z_]"),
            's' => out.push_str("[\\t\\n\\x0B\\f\\r\\x20]"),
            'S' => out.push_str("[^\\t\\n\\x0B\\f\\r\\x20]"),
            'h' => out.push_str("[\\t\\x20]"),
            'b' if in_class => out.push_str("\\x08"),
            'b' => out.push_str("(?-u:\\b)"),
            'B' if !in_class => out.push_str("(?-u:\\B)"),
            'Z' if !in_class => out.push_str("(?:\\n?\\z)"),
            'Q' => {
                // Everything up to \E is literal.
                let mut literal = String::new();
                while let Some(q) = chars.next() {
                    if q == '\\' && chars.peek() == Some(&'E') {
                        chars.next();
                        break;
                    }
                    literal.push(q);
                }
                for q in literal.chars() {
                    if q.is_whitespace() || q == '#' {
                        out.push_str(&format!("\\x{{{:X}}}", u32::from(q)));
                    } else {
                        out.push_str(&regex::escape(&q.to_string()));
                    }
                }
            }
            other => {
                out.push('\\');
                out.push(other);
            }
        }
    }
    out
}

/// The one-line reason from the `regex` crate's error.
fn short_message(e: &regex::Error) -> String {
    let text = e.to_string();
    text.lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix("error: "))
        .unwrap_or(text.lines().next().unwrap_or("invalid pattern"))
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::bson;

    #[test]
    fn options_and_matching() {
        let r = QueryRegex::new("^ab", "i").unwrap();
        assert!(r.matches(&bson!("ABc")));
        assert!(!r.matches(&bson!("cab")));
        assert!(!r.matches(&bson!(1)));
        let r = QueryRegex::new("^b", "m").unwrap();
        assert!(r.matches(&bson!("a\nb")));
        let r = QueryRegex::new("a.b", "s").unwrap();
        assert!(r.matches(&bson!("a\nb")));
        let r = QueryRegex::new("a b # comment", "x").unwrap();
        assert!(r.matches(&bson!("ab")));
        let r = QueryRegex::new(r"end\Z", "").unwrap();
        assert!(r.matches(&bson!("the end\n")));
    }

    /// PCRE's extended option: whitespace and `#` comments are ignored outside classes, kept
    /// inside them; `\s` and escaped spaces still match a space.
    #[test]
    fn extended_option() {
        let r = QueryRegex::new("a\\sb", "x").unwrap();
        assert!(r.matches(&bson!("a b")));
        let r = QueryRegex::new("^a[ ]b$", "x").unwrap();
        assert!(r.matches(&bson!("a b")) && !r.matches(&bson!("ab")));
        let r = QueryRegex::new("^[#]x", "x").unwrap();
        assert!(r.matches(&bson!("#x")));
        let r = QueryRegex::new("^a\\ b  # a comment\n c$", "x").unwrap();
        assert!(r.matches(&bson!("a bc")) && !r.matches(&bson!("abc")));
        let r = QueryRegex::new("^\\Qa b\\E$", "x").unwrap();
        assert!(r.matches(&bson!("a b")));
        let r = QueryRegex::new("a\\h b", "x").unwrap();
        assert!(r.matches(&bson!("a b")));
    }

    #[test]
    fn pcre_classes_are_ascii_and_quoting_works() {
        let r = QueryRegex::new(r"^\d+$", "").unwrap();
        assert!(r.matches(&bson!("123")));
        assert!(!r.matches(&bson!("١٢٣"))); // Arabic-Indic digits are not \d in MongoDB
        let r = QueryRegex::new(r"^\w+\s\w+$", "").unwrap();
        assert!(r.matches(&bson!("ab cd")));
        assert!(!r.matches(&bson!("éa cd")));
        let r = QueryRegex::new(r"\bcat\b", "").unwrap();
        assert!(r.matches(&bson!("a cat sat")));
        assert!(!r.matches(&bson!("concatenate")));
        let r = QueryRegex::new(r"[\d\]x]", "").unwrap();
        assert!(r.matches(&bson!("]")) && r.matches(&bson!("5")));
        let r = QueryRegex::new(r"^\Qa.b*\E$", "").unwrap();
        assert!(r.matches(&bson!("a.b*")));
        assert!(!r.matches(&bson!("axbb")));
        let r = QueryRegex::new("caf\u{e9}", "i").unwrap();
        assert!(r.matches(&bson!("CAFÉ")));
    }

    #[test]
    fn errors_like_mongodb() {
        let e = QueryRegex::new("(", "").unwrap_err();
        assert_eq!(e.code(), 51091);
        assert!(
            e.message.starts_with("Regular expression is invalid: "),
            "{}",
            e.message
        );
        let e = QueryRegex::new("a", "q").unwrap_err();
        assert_eq!(
            (e.code(), e.message.as_str()),
            (51108, "invalid flag in regex options: q")
        );
        // jstests/core/regex_error.js (MongoDB 5.1+): NUL in the pattern, NUL in the options.
        assert_eq!(QueryRegex::new("ab\0c", "").unwrap_err().code(), 2);
        assert_eq!(QueryRegex::new("ab", "\0i").unwrap_err().code(), 51108);
    }
}
