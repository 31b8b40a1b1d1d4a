//! Read queries: a find's filter, sort, skip, limit and projection parsed once ([`FindSpec`]),
//! its canonical form for the planner ([`canonical::CanonicalQuery`]), sort keys.

pub mod canonical;
mod find;
pub mod sort;

pub use canonical::CanonicalQuery;
pub use find::{FindSpec, as_i64, as_i64_signed, run_find, run_find_with};
