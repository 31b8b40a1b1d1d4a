//! Memory caps on arrays built by expressions. MongoDB 8.0 caps `$range` at 100 MB
//! (`internalQueryMaxRangeBytes`, ExceededMemoryLimit); later versions add the same kind of cap
//! for `$map`/`$reduce` (`internalQueryMaxMapReduceExpressionBytes`) and `$concatArrays`.
//! Sprout applies the 100 MB to these and to `$regexFindAll`, `$split` and array and object
//! literals, measured in its own memory: a value here costs
//! [`VALUE_BYTES`] bytes (the size of a `Bson`) plus what it owns, several times MongoDB's
//! 16-byte `Value`, and the page's WebAssembly memory ends at 1 GiB. So `$range` stops at
//! about a million elements where MongoDB allows six and a half million.

use bson::{Bson, Document};

use crate::error::{Error, ErrorCode, Result};

/// The most bytes one array (or object) built by an expression may take.
pub const MAX_BUILT_ARRAY_BYTES: usize = 100 * 1024 * 1024;
/// What one value costs in Sprout's memory before what it owns.
pub const VALUE_BYTES: usize = std::mem::size_of::<Bson>();
/// What a vector costs before its elements (MongoDB counts `sizeof(std::vector<Value>)` too).
pub const VECTOR_BYTES: usize = std::mem::size_of::<Vec<Bson>>();

/// MongoDB's message for `$range` (expression.cpp), used for every capped operator.
pub fn too_much_memory(op: &str, needed: usize) -> Error {
    Error::new(
        ErrorCode::ExceededMemoryLimit,
        format!(
            "{op} would use too much memory ({needed} bytes) and cannot spill to disk. Memory \
             limit: {MAX_BUILT_ARRAY_BYTES} bytes"
        ),
    )
}

/// The bytes `v` takes in Sprout's memory, counting no further than the cap.
pub fn value_memory(v: &Bson) -> usize {
    VALUE_BYTES + owned_memory(v)
}

fn owned_memory(v: &Bson) -> usize {
    match v {
        Bson::String(s) | Bson::JavaScriptCode(s) | Bson::Symbol(s) => s.len(),
        Bson::Binary(b) => b.bytes.len(),
        Bson::Array(items) => {
            let mut total = VECTOR_BYTES;
            for item in items {
                total += value_memory(item);
                if total > MAX_BUILT_ARRAY_BYTES {
                    break;
                }
            }
            total
        }
        Bson::Document(d) => document_memory(d),
        Bson::JavaScriptCodeWithScope(c) => c.code.len() + document_memory(&c.scope),
        _ => 0,
    }
}

/// The bytes `d` takes in Sprout's memory, counting no further than the cap.
pub fn document_memory(d: &Document) -> usize {
    let mut total = VECTOR_BYTES;
    for (k, v) in d {
        total += k.len() + std::mem::size_of::<String>() + value_memory(v);
        if total > MAX_BUILT_ARRAY_BYTES {
            break;
        }
    }
    total
}

/// Running total of an array being built by `op`.
pub struct ArrayBudget {
    op: &'static str,
    used: usize,
}

impl ArrayBudget {
    pub fn new(op: &'static str) -> Self {
        ArrayBudget {
            op,
            used: VECTOR_BYTES,
        }
    }

    /// Counts `bytes` more, failing past the cap.
    pub fn add(&mut self, bytes: usize) -> Result<()> {
        self.used = self.used.saturating_add(bytes);
        if self.used >= MAX_BUILT_ARRAY_BYTES {
            return Err(too_much_memory(self.op, self.used));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_fails_at_the_cap() {
        let mut b = ArrayBudget::new("$map");
        b.add(MAX_BUILT_ARRAY_BYTES - VECTOR_BYTES - 1).unwrap();
        let e = b.add(1).unwrap_err();
        assert_eq!(e.code(), 146);
        assert_eq!(
            e.message,
            format!(
                "$map would use too much memory ({MAX_BUILT_ARRAY_BYTES} bytes) and cannot \
                 spill to disk. Memory limit: {MAX_BUILT_ARRAY_BYTES} bytes"
            )
        );
    }

    #[test]
    fn values_count_what_they_own() {
        assert_eq!(value_memory(&Bson::Int32(1)), VALUE_BYTES);
        assert_eq!(value_memory(&Bson::String("abc".into())), VALUE_BYTES + 3);
        let a = Bson::Array(vec![Bson::Int32(1), Bson::Int32(2)]);
        assert_eq!(
            value_memory(&a),
            VALUE_BYTES + VECTOR_BYTES + 2 * VALUE_BYTES
        );
    }
}
