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
        if pattern.contains('\0') {
            return Err(Error::location(
                51095,
                "Regular expression cannot contain an embedded null byte",
            ));
        }
        if options.contains('\0') {
            return Err(Error::location(
                51096,
                "Regular expression options string cannot contain an embedded null byte",
            ));
        }
        let mut builder = RegexBuilder::new(&translate(pattern));
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

    /// Whether a string matches (`$jsonSchema`'s `pattern`).
    pub fn is_match(&self, s: &str) -> bool {
        self.compiled.is_match(s)
    }
}

/// Rewrites PCRE syntax the `regex` crate spells differently.
fn translate(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('Z') => out.push_str(r"(?:\n?\z)"),
            Some(next) => {
                out.push('\\');
                out.push(next);
            }
            None => out.push('\\'),
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
    }
}
