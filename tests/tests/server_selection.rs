//! Server Selection and Max Staleness specification tests through the engine's selection code
//! (`engine::replication::server_selection`), against the known failures in
//! `tests/baselines/server_selection.txt`.
//!
//! `cargo test -p sprout-tests --test server_selection` prints the per-area table;
//! `SPROUT_BLESS=1` rewrites the baseline and `docs/conformance.md`.

#[test]
fn server_selection() {
    let result =
        sprout_tests::conformance::server_selection::run().and_then(|report| report.finish());
    if let Err(problems) = result {
        panic!("{problems}");
    }
}
