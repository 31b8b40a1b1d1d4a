//! How much of the seeds catalogue (`../shared/seeds/catalogue.md`) the catalogue suites run.
//!
//! Every numbered command or snippet in the catalogue has an id (`A-C7`, `B4-C14b`, …). A suite
//! covers an id when the id opens a string literal in a `catalogue_*.rs` file: the label of a
//! checked row or the message of an assertion (a mention in a comment does not count). Issue #4's
//! bar is book A and book B chapters 2–5: there, every id must be covered or listed in
//! [`NOT_RUNNABLE`] with the reason. Run with `--nocapture` to see the coverage line per part:
//!
//! ```text
//! cargo test -p shell --test catalogue_coverage -- --nocapture
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// The parts held to "every snippet runs": issue #4's (A, B2–B5) and issue #17's (B6–B8).
const BAR: &[&str] = &["A", "B2", "B3", "B4", "B5", "B6", "B7", "B8"];

/// Ids that are not shell input, with the reason (the bar's parts may leave only these out).
const NOT_RUNNABLE: &[(&str, &str)] = &[
    (
        "B3-C2",
        "syntax template: db.collection.find({criteria}, {projection})",
    ),
    (
        "B3-C23",
        "syntax template: insert(<document or array of documents>, {...})",
    ),
    (
        "B3-C25",
        "syntax template: update(<query>, <update>, {...})",
    ),
    (
        "B7-C1",
        "terminal (B7-C1 … C4): mongod --configsvr, mongos --configdb, mongod shards, mongo host:port",
    ),
    ("B7-C2", "terminal (B7-C1 … C4): mongos --fork --configdb"),
    (
        "B7-C3",
        "terminal (B7-C1 … C4): mongod --fork --port 27001/27002",
    ),
    ("B7-C4", "terminal (B7-C1 … C4): mongo localhost:27017"),
    (
        "B8-C1",
        "Nginx configuration (B8-C1 … C3: log_format, access_log)",
    ),
    ("B8-C3", "terminal (B8-C1 … C3): /usr/sbin/nginx reload"),
    ("B8-C10", "terminal: mkdir, npm init, npm install mongodb"),
];

fn catalogue() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/seeds/catalogue.md");
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("the seeds catalogue at {}: {e}", path.display()))
}

/// The id starting at `s` (`A-C12`, `B4-C14b`), if there is one.
fn id_at(s: &str) -> Option<&str> {
    let part_len = if s.starts_with("A-C") {
        1
    } else if s.len() > 3
        && s.as_bytes()[0] == b'B'
        && s.as_bytes()[1].is_ascii_digit()
        && s[2..].starts_with("-C")
    {
        2
    } else {
        return None;
    };
    let digits_start = part_len + 2;
    let digits = s[digits_start..]
        .bytes()
        .take_while(u8::is_ascii_digit)
        .count();
    if digits == 0 {
        return None;
    }
    let mut end = digits_start + digits;
    if s[end..].starts_with('b') && !s[end + 1..].starts_with(|c: char| c.is_alphanumeric()) {
        end += 1;
    }
    if s[end..].starts_with(|c: char| c.is_alphanumeric()) {
        return None;
    }
    Some(&s[..end])
}

fn part_of(id: &str) -> &str {
    id.split('-').next().unwrap_or(id)
}

/// Every id the catalogue numbers, by part.
fn catalogue_ids(text: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut ids: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (i, _) in text.char_indices() {
        let before_ok = i == 0 || !text[..i].ends_with(|c: char| c.is_alphanumeric());
        if let Some(id) = id_at(&text[i..]).filter(|_| before_ok) {
            ids.entry(part_of(id).to_string())
                .or_default()
                .insert(id.to_string());
        }
    }
    ids
}

/// The ids that open a string literal in the catalogue suites.
fn covered_ids() -> BTreeSet<String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut covered = BTreeSet::new();
    let entries = std::fs::read_dir(&dir).expect("shell/tests");
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with("catalogue_") || name == "catalogue_coverage.rs" {
            continue;
        }
        let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
        for (i, _) in text.match_indices('"') {
            if let Some(id) = id_at(&text[i + 1..]) {
                covered.insert(id.to_string());
            }
        }
    }
    covered
}

#[test]
fn catalogue_snippets_in_the_bar_are_covered() {
    let ids = catalogue_ids(&catalogue());
    let covered = covered_ids();
    let excluded: BTreeMap<&str, &str> = NOT_RUNNABLE.iter().copied().collect();
    let mut missing = Vec::new();
    println!("catalogue snippets covered by the shell's catalogue suites:");
    for (part, part_ids) in &ids {
        let done = part_ids.iter().filter(|i| covered.contains(*i)).count();
        let skipped = part_ids
            .iter()
            .filter(|i| excluded.contains_key(i.as_str()))
            .count();
        let in_bar = BAR.contains(&part.as_str());
        println!(
            "  {part:>2}: {done:>2} of {:>2} covered{}{}",
            part_ids.len(),
            if skipped > 0 {
                format!(", {skipped} not shell input")
            } else {
                String::new()
            },
            if in_bar { "  (issue #4 bar)" } else { "" }
        );
        if in_bar {
            missing.extend(
                part_ids
                    .iter()
                    .filter(|i| !covered.contains(*i) && !excluded.contains_key(i.as_str()))
                    .cloned(),
            );
        }
    }
    for (id, reason) in NOT_RUNNABLE {
        println!("  not shell input: {id} ({reason})");
    }
    assert!(
        missing.is_empty(),
        "snippets in the bar without a test: {missing:?}"
    );
    // Every label a suite uses is a real catalogue id.
    let known: BTreeSet<&String> = ids.values().flatten().collect();
    let unknown: Vec<&String> = covered.iter().filter(|c| !known.contains(c)).collect();
    assert!(
        unknown.is_empty(),
        "labels that are not catalogue ids: {unknown:?}"
    );
}

#[test]
fn ids_are_read_as_whole_tokens() {
    assert_eq!(id_at("B4-C14b tail"), Some("B4-C14b"));
    assert_eq!(id_at("B4-C1, B4-C2"), Some("B4-C1"));
    assert_eq!(id_at("A-C12: text"), Some("A-C12"));
    assert_eq!(id_at("A-C<n>"), None);
    assert_eq!(id_at("B3-C2x"), None);
    assert_eq!(id_at("B8-D2"), None);
    let ids = catalogue_ids("B3-C31…C36 and `B5-C9` / B5-C10, XB2-C1");
    assert_eq!(
        ids.values().flatten().cloned().collect::<Vec<_>>(),
        ["B3-C31", "B5-C10", "B5-C9"]
    );
}
