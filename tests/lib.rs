//! Shared helpers for the cross-crate suites in this folder.
//!
//! [`conformance`] holds the three conformance runners (BSON corpus, spec CRUD unified tests,
//! DocumentDB transcripts). Each is driven by one `#[test]` in `tests/tests/`, which prints a
//! per-area table and compares its failures with a checked-in baseline in `tests/baselines/`.

pub mod conformance;
