//! Spec CRUD unified-format tests against the engine, with the known failures in
//! `tests/baselines/crud_unified.txt`.
//!
//! `cargo test -p sprout-tests --test crud_unified` prints the per-area table;
//! `SPROUT_BLESS=1` rewrites the baseline and `docs/conformance.md`.

#[test]
fn crud_unified() {
    let result = sprout_tests::conformance::unified::run().and_then(|report| report.finish());
    if let Err(problems) = result {
        panic!("{problems}");
    }
}
