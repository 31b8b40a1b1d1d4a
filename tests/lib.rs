//! Shared helpers for the cross-crate suites in this folder.
//!
//! [`conformance`] holds the conformance runners (BSON corpus, spec CRUD unified tests,
//! DocumentDB transcripts) and the index-correctness re-run of the transcripts' finds. Each is
//! driven by one `#[test]` in `tests/tests/`, which prints a per-area table and compares its
//! failures with a checked-in baseline in `tests/baselines/`.

pub mod conformance;
