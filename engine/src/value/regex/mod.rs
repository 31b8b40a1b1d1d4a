//! `$regex` and BSON regular expressions, matched by `regress` (the engine Boa already links for
//! the shell's JavaScript), with MongoDB's PCRE dialect translated to the JavaScript (`u` mode)
//! syntax `regress` parses.
//!
//! MongoDB 8.0 compiles patterns with PCRE2 in UTF mode, without Unicode properties for `\d`,
//! `\w`, `\s` and `\b` (they are ASCII there). [`translate`] rewrites everything whose meaning
//! differs between the two dialects (`.`, `^`, `$`, `\s`, `\A`, `\z`, `\Z`, `\h`, `\v`, `\R`,
//! `\Q…\E`, POSIX classes, `\x{…}`, octal escapes, Unicode scripts, named groups, inline
//! options, the extended option's whitespace and comments) and refuses, as an invalid pattern
//! (51091), the PCRE syntax with no JavaScript counterpart: possessive quantifiers, atomic and
//! branch-reset groups, recursion, `\G`, `\K`, `\X`, `\C`, and a change of case sensitivity
//! after the start of the pattern (docs/reliability.md).
//!
//! `regress` backtracks: a search takes at most [`MAX_REGEX_STEPS`] backtracking steps (PCRE2's
//! default match limit is also 10,000,000). Past it `$regex` does not match (MongoDB's matcher
//! treats a PCRE match error as no match) and `$regexMatch`, `$regexFind` and `$regexFindAll`
//! fail with 51156, as MongoDB's do on PCRE's "match limit exceeded".

use bson::Bson;

use crate::error::{Error, Result};
use translate::{Options, translate};

mod translate;

/// Backtracking steps one search may take (about a second of matching natively at most).
pub const MAX_REGEX_STEPS: u64 = 10_000_000;

/// The longest pattern MongoDB compiles, in bytes (`kMaxRegexPatternLen` in regex_limit.js).
pub const MAX_PATTERN_LENGTH: usize = 32_761;

/// A compiled query regular expression, with its source for equality against BSON regexes.
#[derive(Debug, Clone)]
pub struct QueryRegex {
    pub pattern: String,
    pub options: String,
    compiled: regress::Regex,
}

/// A match: the whole match's and each group's range, in UTF-16 code units of the searched text.
pub type RegexMatch = regress::Match;

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
        // MongoDB's PCRE wrapper compiles with a maximum pattern length
        // (jstests/core/regex_limit.js: 32,761 bytes compile, one more is 51091).
        if pattern.len() > MAX_PATTERN_LENGTH {
            return Err(invalid(
                "pattern string is longer than the limit set by the application",
            ));
        }
        let mut flags = Options::default();
        for flag in options.chars() {
            match flag {
                'i' => flags.i = true,
                'm' => flags.m = true,
                's' => flags.s = true,
                'x' => flags.x = true,
                'u' | 'l' => {}
                other => {
                    return Err(Error::location(
                        51108,
                        format!("invalid flag in regex options: {other}"),
                    ));
                }
            }
        }
        let (source, icase) = translate(pattern, flags).map_err(invalid)?;
        // The pattern's code points through `from_code_points` (vendor/regress), whose copy of
        // regress's parser (generic over the pattern's iterator) Boa's lexer and RegExp share:
        // `with_flags` compiled one more in the shipped wasm (issue #22).
        let code_points: Vec<u32> = source.chars().map(u32::from).collect();
        let compiled = regress::Regex::from_code_points(
            code_points,
            regress::Flags {
                icase,
                unicode: true,
                ..regress::Flags::default()
            },
        )
        .map_err(|e| invalid(e.to_string()))?;
        Ok(QueryRegex {
            pattern: pattern.to_string(),
            options: options.to_string(),
            compiled,
        })
    }

    /// Whether a value matches: strings and symbols by search, BSON regexes by equality.
    pub fn matches(&self, v: &Bson) -> bool {
        match v {
            Bson::String(s) | Bson::Symbol(s) => self.is_match(s),
            Bson::RegularExpression(r) => r.pattern == self.pattern && r.options == self.options,
            _ => false,
        }
    }

    /// Whether a string matches (`$regex`, `$jsonSchema`'s `pattern`). A search that reaches
    /// the step limit does not match, as a PCRE match error does not in MongoDB's matcher.
    pub fn is_match(&self, s: &str) -> bool {
        let text: Vec<u16> = s.encode_utf16().collect();
        self.search(&text, 0).0.is_some()
    }

    /// The first match at or after `from` (UTF-16 code units) in `text`; `op` names the
    /// operator in the error when the search reaches the step limit (MongoDB's 51156).
    pub fn find_at(&self, text: &[u16], from: usize, op: &str) -> Result<Option<RegexMatch>> {
        match self.search(text, from) {
            (_, true) => Err(Error::location(
                51156,
                format!(
                    "Error occurred while executing the regular expression in {op}. \
                     Result code: match limit exceeded"
                ),
            )),
            (found, false) => Ok(found),
        }
    }

    fn search(&self, text: &[u16], from: usize) -> (Option<RegexMatch>, bool) {
        regress::with_backtrack_limit(MAX_REGEX_STEPS, || {
            self.compiled.find_from_utf16(text, from).next()
        })
    }
}

fn invalid(reason: impl std::fmt::Display) -> Error {
    Error::location(51091, format!("Regular expression is invalid: {reason}"))
}

#[cfg(test)]
mod tests;
