//! Book index correctness (issue #5, the book half of "run every query a second time with
//! indexes on the filtered and sorted paths and require identical results").
//!
//! This runner plays every catalogue suite (`catalogue_*.rs`, included here as modules) with
//! recording on: each find, count, distinct, aggregate `$match` (and explained find) that the
//! books' snippets send is re-run on a copy of its collection with an index on each path it
//! filters and sorts on, hinted onto each index and once left to the planner, and must return
//! the same documents as a collection scan (`common/index_check.rs`). It prints
//! `book index correctness: N/M` and the per-chapter table; known failures live in
//! `tests/baselines/book_index_correctness.txt` and the figures in `docs/conformance.md`
//! (`SPROUT_BLESS=1 cargo test -p shell --test book_index_correctness` refreshes both).

// Each included suite declares its own `common` (it is also a test target of its own), so
// `common` is compiled once per suite here; the runner drives each copy's switches.
#![allow(clippy::duplicate_mod)]

#[path = "catalogue_a_b2.rs"]
mod a_b2;
#[path = "catalogue_b3.rs"]
mod b3;
#[path = "catalogue_b4.rs"]
mod b4;
#[path = "catalogue_b4_text.rs"]
mod b4_text;
#[path = "catalogue_b5.rs"]
mod b5;
#[path = "catalogue_b6.rs"]
mod b6;
#[path = "catalogue_b7.rs"]
mod b7;
#[path = "catalogue_b8.rs"]
mod b8;

use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;

use sprout_tests::conformance::report::{Outcome, Report};

/// One catalogue suite: its file, the table row it counts towards, its tests, and its copy of
/// `common::index_check`'s switches (each included file has its own `common`).
struct Suite {
    file: &'static str,
    area: &'static str,
    tests: &'static [(&'static str, fn())],
    start: fn(),
    stop: fn() -> Vec<(String, Outcome)>,
}

macro_rules! suite {
    ($file:literal, $area:literal, $module:ident: $($test:ident),+ $(,)?) => {
        Suite {
            file: $file,
            area: $area,
            tests: &[$((stringify!($test), $module::$test as fn())),+],
            start: $module::common::index_check::start,
            stop: $module::common::index_check::stop,
        }
    };
}

const SUITES: &[Suite] = &[
    suite!("catalogue_a_b2.rs", "A and B2", a_b2:
        book_a_tip_10_counters_and_locking, book_b_chapter_2_sequences,
        book_a_queries_updates_and_where, book_a_runs_in_sprout_eval),
    suite!("catalogue_b3.rs", "B3", b3:
        chapter_3_queries, chapter_3_shown_output, chapter_3_writes,
        chapter_3_replica_write_concerns_on_a_standalone, chapter_3_runs_in_sprout_eval,
        unacknowledged_writes),
    suite!("catalogue_b4.rs", "B4", b4:
        single_field_and_sub_document_indexes, compound_indexes_and_prefixes,
        multikey_indexes_and_parallel_arrays, ttl_unique_and_sparse_indexes,
        chapter_4_runs_in_sprout_eval, index_conflicts_answer_as_mongodb_8_0),
    suite!("catalogue_b4_text.rs", "B4", b4_text:
        c21_to_c23_one_text_index_per_collection, c23_array_of_strings_is_searchable,
        c24_compound_and_c25_wildcard, c26_portuguese_and_c27_none,
        text_score_in_projection_and_sort),
    suite!("catalogue_b5.rs", "B5", b5:
        collection_scan_index_scan_and_covered_query, multikey_index_is_not_covering,
        embedded_field_index, sort_plans_and_hint, read_preference,
        chapter_5_runs_in_sprout_eval),
    suite!("catalogue_b6.rs", "B6", b6:
        capped_collections, capped_collections_evict_the_oldest, ttl_indexes,
        capped_snippets_through_the_binary, replica_set_tags_and_write_concerns,
        custom_write_concern_with_the_legacy_insert),
    suite!("catalogue_b7.rs", "B7", b7: sharding_walkthrough, social_inbox_designs),
    suite!("catalogue_b8.rs", "B8 and B0", b8:
        app_js_v1_logs_a_hit, app_js_v2_preallocates_and_v3_reads,
        driver_count_aggregate_indexes_and_remove_with_callbacks,
        shell_pipelines_and_indexes_of_chapter_8, app_js_v1_run_383_times_then_find_one,
        find_one_after_preallocation, app_js_v4_average_rpm_and_between_dates,
        preface_fragments_of_app_js, shard_key_of_chapter_8),
];

/// Fewer re-checked queries than this means the recording broke, not that the books are fine.
const MIN_CHECKED: usize = 80;

/// The table's rows: the suites' areas in order, once each.
fn areas() -> Vec<&'static str> {
    let mut areas: Vec<&str> = SUITES.iter().map(|s| s.area).collect();
    areas.dedup();
    areas
}

#[test]
fn book_queries_return_the_same_documents_with_indexes() {
    let mut report = Report::new(
        "book_index_correctness",
        "Book index correctness (the catalogue suites' queries re-run with indexes)",
        "Every find, count, distinct, aggregate `$match` (with a `$sort` right after it) and \
         explained find that the catalogue suites (`shell/tests/catalogue_*.rs`, the books' \
         snippets) send is re-run on a copy of its collection with an index on each path it \
         filters and sorts on, hinted onto each index and once left to the planner, and must \
         return the same documents as a collection scan (a sorted query must stay in sort \
         order). One case per query sent; areas are the books' parts. Runner: \
         `cargo test -p shell --test book_index_correctness` (`shell/tests/common/index_check.rs`); \
         add `SPROUT_BLESS=1` to refresh this section.",
        &areas(),
    );
    report.set_package("shell");
    let mut broken = Vec::new();
    for suite in SUITES {
        for (name, test) in suite.tests {
            (suite.start)();
            let ran = catch_unwind(AssertUnwindSafe(test));
            for (i, (query, outcome)) in (suite.stop)().into_iter().enumerate() {
                report.push(&format!("{name} #{} {query}", i + 1), suite.area, outcome);
            }
            if ran.is_err() {
                broken.push(format!("{}::{name}", suite.file));
            }
        }
    }
    let total = report.total();
    let checked = total.passed + total.failed;
    let line = format!("book index correctness: {}/{checked}", total.passed);
    report.add_summary_line(line);
    // The table first, so an index bug shows as failing queries even when the suites' own
    // assertions (which read through indexes too) also fail.
    let finished = report.finish();
    assert!(
        broken.is_empty(),
        "catalogue tests that fail on their own (see their panics above): {broken:?}\n{}",
        finished.as_ref().err().cloned().unwrap_or_default()
    );
    assert!(
        checked >= MIN_CHECKED,
        "only {checked} queries re-checked: is the recording still attached?"
    );
    if let Err(problems) = finished {
        panic!("{problems}");
    }
}

/// Every test of every catalogue suite is played, so a new snippet cannot escape the check.
#[test]
fn every_catalogue_test_is_played() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("shell/tests")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("catalogue_") && n.ends_with(".rs"))
        .filter(|n| n != "catalogue_coverage.rs")
        .collect();
    files.sort();
    let mut listed: Vec<&str> = SUITES.iter().map(|s| s.file).collect();
    listed.sort();
    assert_eq!(files, listed, "catalogue suites missing from SUITES");
    for suite in SUITES {
        let text = std::fs::read_to_string(dir.join(suite.file)).expect("suite source");
        let in_source: BTreeSet<&str> = text
            .split("#[test]")
            .skip(1)
            .filter_map(|rest| rest.split("fn ").nth(1))
            .filter_map(|rest| rest.split('(').next())
            .map(str::trim)
            .collect();
        let played: BTreeSet<&str> = suite.tests.iter().map(|(n, _)| *n).collect();
        assert_eq!(
            in_source, played,
            "tests of {} missing from SUITES",
            suite.file
        );
    }
}
