//! BSON corpus conformance: every valid, decodeErrors and parseErrors case of the corpus through
//! the `bson` crate, against the known failures in `tests/baselines/bson_corpus.txt`.
//!
//! `cargo test -p sprout-tests --test bson_corpus` prints the per-area table;
//! `SPROUT_BLESS=1` rewrites the baseline and `docs/conformance.md`.

#[test]
fn bson_corpus() {
    let result = sprout_tests::conformance::bson_corpus::run().and_then(|report| report.finish());
    if let Err(problems) = result {
        panic!("{problems}");
    }
}
