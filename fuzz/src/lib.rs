//! Fuzz targets for Sprout: each `targets::<name>::run(&[u8])` takes the fuzzer's bytes and must
//! return (never panic, never hang past the shell's limits) whatever they hold. libFuzzer drives
//! them through `fuzz_targets/*.rs` (`cargo xtask fuzz`); `tests/replay.rs` replays the seed
//! corpora through the same functions as a plain test. `seeds` writes those corpora from the
//! conformance data and the lessons.

pub mod grammar;
pub mod input;
pub mod sample;
pub mod seeds;
pub mod targets;

/// A target: takes the fuzzer's bytes, panics on a finding.
pub type Target = fn(&[u8]);

/// Every target by name, in the order `cargo xtask fuzz` runs them.
pub const TARGETS: &[(&str, Target)] = &[
    ("filter", targets::filter::run),
    ("update", targets::update::run),
    ("projection", targets::projection::run),
    ("pipeline", targets::pipeline::run),
    ("extjson", targets::extjson::run),
    ("preprocess", targets::preprocess::run),
    ("shell_program", targets::shell_program::run),
    ("index_scan", targets::index_scan::run),
    ("printer_roundtrip", targets::printer_roundtrip::run),
];
