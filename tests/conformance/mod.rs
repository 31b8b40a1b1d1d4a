//! Conformance runners over the third-party data in `../shared/conformance`.
//!
//! Every runner turns its data into [`report::Case`]s (an id, an area and an outcome) and hands
//! them to [`report::Report::finish`], which prints the per-area table, checks the failures
//! against `tests/baselines/<runner>.txt` and, under `SPROUT_BLESS=1`, rewrites the baseline
//! and the runner's section of `docs/conformance.md`.

pub mod bson_corpus;
pub mod documentdb;
pub mod ejson;
pub mod index_shadow;
pub mod report;
pub mod server_selection;
pub mod unified;

use std::path::PathBuf;

/// The workspace root (the parent of this crate's folder).
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")))
}

/// The third-party conformance data, `../shared/conformance` from the workspace root.
///
/// Returns an error with a clear message when the folder is missing.
pub fn data_dir() -> Result<PathBuf, String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance");
    if dir.is_dir() {
        Ok(dir)
    } else {
        Err(format!(
            "conformance data not found at {} (expected the read-only folder \
             `../shared/conformance` next to the workspace root; see its README.md)",
            dir.display()
        ))
    }
}

/// Lists the files in `dir` whose names end with `suffix`, sorted by name.
pub fn list_files(dir: &std::path::Path, suffix: &str) -> Result<Vec<PathBuf>, String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.is_file()
                && p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.ends_with(suffix))
        })
        .collect();
    files.sort();
    Ok(files)
}

/// The file name of `path` as text (lossy), for case ids.
pub fn file_name(path: &std::path::Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Whether an engine error says a feature is missing rather than that the input is wrong: a
/// command the engine does not know, or its "not supported (by Sprout) yet" wording. An
/// expected error is not met by such an error.
pub fn is_unimplemented(code: i64, message: &str) -> bool {
    let m = message.to_ascii_lowercase();
    code == 59
        || m.contains("no such command")
        || m.contains("not supported yet")
        || m.contains("by sprout yet")
        || m.contains("of sprout yet")
        || m.contains("sprout has no")
}
