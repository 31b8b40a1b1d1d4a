//! The JavaScript the engine asks its caller to run: the engine itself runs none. mapReduce's
//! map, reduce and finalize functions go through a [`MapReduceEvaluator`] (the shell's runs
//! them with Boa), as `$where` goes through a [`crate::matcher::WhereEvaluator`]; both reach the
//! commands in a [`crate::matcher::MatchContext`].

use bson::{Bson, Document};

use crate::error::{Error, Result};

/// Runs mapReduce's JavaScript. The shell implements it with its JavaScript engine; the
/// command's `scope` variables and the database's stored functions (`system.js`) are globals
/// while the command runs, as the server loads them into its scope.
pub trait MapReduceEvaluator {
    /// Runs the map function `code` with `this` bound to `doc` and a global `emit(key, value)`,
    /// and returns the pairs it emitted, in order (an `undefined` key is null). `emit` with
    /// other than two arguments fails with [`EmitBudget::arguments_error`]; more than
    /// [`MAX_EMIT_BYTES`] emitted for one document fails as [`EmitBudget::add`] says.
    fn map(&self, code: &str, doc: &Document) -> Result<Vec<(Bson, Bson)>>;

    /// Calls the function `code` with `args` and returns its result: the reduce function with
    /// the key and the array of values, finalize with the key and the reduced value.
    fn call(&self, code: &str, args: &[Bson]) -> Result<Bson>;
}

/// MongoDB's `internalQueryMaxJsEmitBytes` (100 MiB): the most one map call may emit.
pub const MAX_EMIT_BYTES: usize = 100 * 1024 * 1024;

/// What one map call has emitted, counted against [`MAX_EMIT_BYTES`] as MongoDB's `EmitState`
/// counts it (expression_js_emit.h), for the evaluator's `emit` to stop a runaway map early.
#[derive(Debug, Default)]
pub struct EmitBudget {
    bytes: usize,
}

impl EmitBudget {
    /// Counts one emitted pair; an error (31292) once the call has emitted too much.
    pub fn add(&mut self, key: &Bson, value: &Bson) -> Result<()> {
        self.bytes +=
            crate::value::bson_size::value_size(key) + crate::value::bson_size::value_size(value);
        if self.bytes >= MAX_EMIT_BYTES {
            return Err(Error::location(
                31292,
                format!(
                    "Size of emitted values exceeds the set size limit of {MAX_EMIT_BYTES} bytes"
                ),
            ));
        }
        Ok(())
    }

    /// The error for `emit` called with other than two arguments (expression_js_emit.cpp).
    pub fn arguments_error() -> Error {
        Error::location(31220, "emit takes 2 args")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_emit_budget_stops_at_mongodbs_limit() {
        let mut budget = EmitBudget::default();
        let chunk = Bson::String("x".repeat(10 * 1024 * 1024));
        for _ in 0..9 {
            budget.add(&Bson::Null, &chunk).unwrap();
        }
        let e = budget.add(&Bson::Null, &chunk).unwrap_err();
        assert_eq!(e.code(), 31292);
        assert_eq!(
            e.message,
            "Size of emitted values exceeds the set size limit of 104857600 bytes"
        );
        assert_eq!(EmitBudget::arguments_error().code(), 31220);
    }
}
