//! Index correctness: every find of the DocumentDB replays re-run with indexes on its filtered
//! and sorted paths must return the same documents (`tests/conformance/index_shadow.rs`).
//! Known failures: `tests/baselines/index_correctness.txt`; `SPROUT_BLESS=1` rewrites it.

#[test]
fn index_correctness() {
    let result = sprout_tests::conformance::documentdb::run_index_shadow()
        .and_then(|report| report.finish());
    if let Err(problems) = result {
        panic!("{problems}");
    }
}
