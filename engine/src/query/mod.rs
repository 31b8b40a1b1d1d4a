//! Read queries: a find's filter, sort, skip, limit and projection applied to a collection.

mod find;
pub mod sort;

pub use find::{FindSpec, as_i64, as_i64_signed, run_find, run_find_with};
