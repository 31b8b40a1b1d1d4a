//! BSON values as MongoDB sees them: the total order across types and exact numeric comparison.
//!
//! Architecture invariant: only this module decides how two values compare.

pub mod bson_bytes;
pub mod bson_size;
mod decimal_arith;
mod decimal_math;
pub mod decimal_parse;
pub mod display;
pub mod extjson;
pub mod hashed;
mod identical;
mod integer;
pub mod nesting;
pub mod numeric;
mod order;
pub mod regex;
pub mod string_order;
pub mod type_set;

pub use identical::identical;

/// An empty document with the hasher state of one made once. `Document::new()` draws a new
/// `ahash` state each time (four hash rounds over the process's random seeds: 1-1.3% of an
/// insert or a `$lookup` in wasm, `docs/performance.md`, session 17); the state only keeps a
/// map's hashes apart from another map's, which nothing here relies on, and the document is
/// the same document either way.
pub fn empty_document() -> bson::Document {
    static EMPTY: std::sync::OnceLock<bson::Document> = std::sync::OnceLock::new();
    EMPTY.get_or_init(bson::Document::new).clone()
}
pub use integer::{as_i64, as_i64_signed};
pub use numeric::{Decimal, as_f64, decimal_is_nan};
pub(crate) use order::db_pointer_parts;
pub use order::{
    OrderedValue, SimpleOrderedValue, canonical_type, canonical_type_rank, compare_values,
    compare_values_simple, values_equal,
};
