//! The hostile-input table: inputs from issue #18's classes (stack depth, memory, time, sandbox,
//! surrogates, NUL keys, the clock, regex backtracking, promise floods, sparse arrays, proxies,
//! huge objects, engine limits) and from the fuzzers' finds, each with its expected outcome.
//! `hostile_table.rs` runs every row through the `sprout` binary in its own process.

mod engine_limits;
mod fuzz_finds;
mod parsers;
mod shell_limits;

use std::ffi::OsString;

/// What a row must end in (besides ending at all: within the time limit, without a signal or a
/// panic).
#[derive(Debug, Clone)]
pub enum Expect {
    /// Exit status 0 and the output matches this regular expression.
    Result(&'static str),
    /// Exit status 1 and the error output matches this regular expression.
    Error(&'static str),
    /// Either a result or a clean error (where both are acceptable answers).
    Ends,
}

/// One hostile input: the `sprout` arguments and the expected outcome.
#[derive(Debug, Clone)]
pub struct Row {
    pub name: String,
    /// Program text, passed with `--eval` (or as a script file when too long for an argument).
    pub code: Option<String>,
    /// Raw arguments instead of `--eval code` (for arguments that are not UTF-8).
    pub raw_args: Option<Vec<OsString>>,
    pub expect: Expect,
}

/// A row whose program prints a result matching `pattern`.
pub fn result(name: impl Into<String>, code: impl Into<String>, pattern: &'static str) -> Row {
    row(name, code, Expect::Result(pattern))
}

/// A row whose program fails with an error matching `pattern`.
pub fn error(name: impl Into<String>, code: impl Into<String>, pattern: &'static str) -> Row {
    row(name, code, Expect::Error(pattern))
}

/// A row that may give a result or a clean error.
pub fn ends(name: impl Into<String>, code: impl Into<String>) -> Row {
    row(name, code, Expect::Ends)
}

fn row(name: impl Into<String>, code: impl Into<String>, expect: Expect) -> Row {
    Row {
        name: name.into(),
        code: Some(code.into()),
        raw_args: None,
        expect,
    }
}

/// Errors that say a depth limit was reached (the parser's, the evaluator's or BSON's).
pub const DEPTH: &str = r"(?i)(nest|deep|depth|recursi|call stack|stack size|too many levels)";
/// Errors that say a size, memory or count limit was reached.
pub const SIZE: &str = r"(?i)(too large|larger than|too long|too big|exceed|memory|limit|maximum|invalid (string|array) length|out of range|size)";
/// Errors that say a time or step limit was reached.
pub const TIME: &str =
    r"(?i)(limit|exceed|too many|more than [0-9]+|maximum|steps|iteration|backtrack|timed? ?out)";

/// Every row.
pub fn all() -> Vec<Row> {
    let mut rows = Vec::new();
    rows.extend(shell_limits::rows());
    rows.extend(engine_limits::rows());
    rows.extend(parsers::rows());
    rows.extend(fuzz_finds::rows());
    rows
}
