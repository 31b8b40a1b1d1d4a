//! Sprout's web playground: the engine and the shell compiled to WebAssembly, run in a Web
//! Worker, with data kept in IndexedDB, behind a Leptos page.
//!
//! Two sides that never import each other (`tests/tests/tidy.rs` checks it): [`page`], the UI the
//! `web` binary runs in the page, and [`worker`], the engine, shell and storage the `worker`
//! binary runs in the shell worker. Between them, [`protocol`]: the messages they exchange and
//! the values inside them. [`indexed_db`] is the IndexedDB plumbing both sides store with.

pub mod indexed_db;
pub mod page;
pub mod protocol;
pub mod worker;

pub use page::start;
