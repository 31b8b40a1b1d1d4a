//! DocumentDB `pg_regress` transcripts replayed against the engine, with the known failures in
//! `tests/baselines/documentdb.txt`. Extra transcripts: `SPROUT_DOCUMENTDB_DIR=<folder>`.
//!
//! `cargo test -p sprout-tests --test documentdb` prints the per-area table and one JSON line
//! of totals per file; `SPROUT_BLESS=1` rewrites the baseline and `docs/conformance.md`.

#[test]
fn documentdb() {
    let result = sprout_tests::conformance::documentdb::run().and_then(|report| report.finish());
    if let Err(problems) = result {
        panic!("{problems}");
    }
}
