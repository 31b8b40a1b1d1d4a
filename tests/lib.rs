//! Shared helpers for the cross-crate suites in this folder.
