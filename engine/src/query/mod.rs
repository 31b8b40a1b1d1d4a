//! Read queries: a find's filter, sort, skip, limit and projection parsed once ([`FindSpec`]),
//! its canonical form for the planner ([`canonical::CanonicalQuery`]). Sort patterns are
//! [`crate::sort`].

pub mod canonical;
mod find;

pub use canonical::CanonicalQuery;
pub use find::{FindSpec, FoundRecords, run_find, run_find_with};
