//! Runs MongoDB's own jstests files through the `sprout` binary, one process per file.
//!
//! Each file runs as `sprout --legacy --quiet PREAMBLE FILE` with the jstests folder as the
//! working directory, so the file's `load("jstests/libs/…")` calls read MongoDB's own helpers
//! from that folder (they are SSPL: read there at test time, never copied into the project).
//! The preamble sets `TestData` as MongoDB's test runner (resmoke) does. A file passes when
//! the process ends by itself with status 0 within [`TIME_LIMIT`]; otherwise its failure is
//! the first line the shell wrote to stderr (the first failing assertion), a time-out or a
//! crash.

pub mod skip;

#[path = "../common/capped_pipe.rs"]
mod capped_pipe;
use capped_pipe::read_capped;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use sprout_tests::conformance::report::Outcome;

/// Seconds one file may run (MongoDB's files run in well under a second on a server; Boa is
/// slower, and two files run side by side on two cores).
pub const TIME_LIMIT: Duration = Duration::from_secs(60);
/// Files run at once (CI machines have 2 cores).
pub const PARALLEL: usize = 2;
/// The address-space cap (`ulimit -v`, KiB): 4 GiB, so a runaway file cannot take the machine.
const ADDRESS_SPACE_KIB: u64 = 4 * 1024 * 1024;

/// One file to run: its path relative to the jstests folder and the area it counts towards.
#[derive(Debug, Clone)]
pub struct Entry {
    pub path: String,
    pub area: String,
}

/// Reads a list file: one `area path` per line; `#` starts a comment.
pub fn read_list(text: &str) -> Result<Vec<Entry>, String> {
    let mut entries = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut parts = line.split_whitespace();
        match (parts.next(), parts.next(), parts.next()) {
            (Some(area), Some(path), None) => entries.push(Entry {
                path: path.to_string(),
                area: area.to_string(),
            }),
            _ => return Err(format!("list line {}: expected `area path`: {line}", n + 1)),
        }
    }
    Ok(entries)
}

/// Reads a list of paths, one per line (`#` starts a comment), each in the area its name
/// suggests ([`area_of`]): the survey list `tests/data/jstests_survey.txt`.
pub fn read_names(text: &str) -> Vec<Entry> {
    text.lines()
        .map(|line| line.split('#').next().unwrap_or("").trim())
        .filter(|line| !line.is_empty())
        .map(|path| Entry {
            area: area_of(path).to_string(),
            path: path.to_string(),
        })
        .collect()
}

/// Every `.js` file under `jstests/core` and `jstests/aggregation` of `root`, sorted, each in
/// the area its name suggests ([`area_of`]).
pub fn every_file(root: &Path) -> Vec<Entry> {
    let mut found = Vec::new();
    for dir in ["jstests/core", "jstests/aggregation"] {
        collect_js(root, &root.join(dir), &mut found);
    }
    found.sort();
    found
        .into_iter()
        .map(|path| Entry {
            area: area_of(&path).to_string(),
            path,
        })
        .collect()
}

/// Folders of helpers and data that the files load, not tests themselves.
const HELPER_FOLDERS: &[&str] = &["jstests/aggregation/extras/", "jstests/aggregation/data/"];

fn collect_js(root: &Path, dir: &Path, found: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_js(root, &path, found);
        } else if path.extension().is_some_and(|e| e == "js")
            && let Ok(relative) = path.strip_prefix(root)
        {
            let relative = relative.to_string_lossy().into_owned();
            // resmoke's aggregation suite leaves out the helpers and data in these folders.
            if !HELPER_FOLDERS.iter().any(|f| relative.starts_with(f)) {
                found.push(relative);
            }
        }
    }
}

/// The area of a file by its folder and name (the topics of issue #19's sample).
pub fn area_of(path: &str) -> &'static str {
    if path.starts_with("jstests/aggregation") {
        return "aggregation";
    }
    let name = path.rsplit('/').next().unwrap_or(path);
    let starts = |prefixes: &[&str]| prefixes.iter().any(|p| name.starts_with(p));
    if starts(&["find_and_modify", "fm", "findandmodify"]) {
        "findAndModify"
    } else if starts(&["explain"]) {
        "explain"
    } else if starts(&["capped"]) {
        "capped"
    } else if starts(&["count", "distinct"]) {
        "count/distinct"
    } else if starts(&[
        "cursor",
        "batch_size",
        "skip",
        "limit",
        "sort",
        "getmore",
        "single_batch",
    ]) {
        "cursor"
    } else if starts(&[
        "index", "hint", "covered", "sparse", "unique", "compound", "multikey",
    ]) {
        "index"
    } else if starts(&[
        "update", "upsert", "inc", "push", "pull", "set", "unset", "rename",
    ]) {
        "update"
    } else if starts(&[
        "all",
        "and",
        "array",
        "exists",
        "in",
        "find",
        "regex",
        "not",
        "or",
        "ne",
        "nin",
        "type",
        "elemmatch",
        "elemMatch",
        "mod",
        "size",
        "expr",
        "null",
        "basic",
        "nan",
        "date",
    ]) {
        "query"
    } else {
        "other"
    }
}

/// How one file's process ended.
struct Ended {
    status: Option<i32>,
    timed_out: bool,
    stderr: String,
}

/// Runs `entries` under `root`, [`PARALLEL`] at a time, and returns each one's outcome in
/// the order given. A file that times out beside another runs once more alone (on two cores
/// its neighbour can double its time).
pub fn run_all(root: &Path, entries: &[Entry], work: &Path) -> Vec<Outcome> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Outcome>>> = Mutex::new(vec![None; entries.len()]);
    let retry: Mutex<Vec<usize>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..PARALLEL {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(entry) = entries.get(i) else { break };
                    match run_one(root, entry, work) {
                        None => retry.lock().unwrap_or_else(|p| p.into_inner()).push(i),
                        Some(outcome) => {
                            results.lock().unwrap_or_else(|p| p.into_inner())[i] = Some(outcome)
                        }
                    }
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_else(|p| p.into_inner());
    for i in retry.into_inner().unwrap_or_else(|p| p.into_inner()) {
        let outcome = run_one(root, &entries[i], work)
            .unwrap_or_else(|| Outcome::Fail(format!("timed out after {}s", TIME_LIMIT.as_secs())));
        results[i] = Some(outcome);
    }
    results
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Outcome::Fail("not run".to_string())))
        .collect()
}

/// One file's outcome, or `None` when it ran out of time.
fn run_one(root: &Path, entry: &Entry, work: &Path) -> Option<Outcome> {
    let file = root.join(&entry.path);
    let source = match std::fs::read_to_string(&file) {
        Ok(s) => s,
        Err(e) => {
            return Some(Outcome::Fail(format!(
                "cannot read {}: {e}",
                file.display()
            )));
        }
    };
    if let Some(why) = skip::reason(&source) {
        return Some(Outcome::Skip(why.to_string()));
    }
    if skip::missing_load(root, &source).is_some() {
        return Some(Outcome::Skip(
            "loads a helper missing from the vendored folder (jstests/concurrency, …)".to_string(),
        ));
    }
    let preamble = match write_preamble(work, &entry.path) {
        Ok(p) => p,
        Err(e) => return Some(Outcome::Fail(e)),
    };
    let ended = run_sprout(root, &preamble, &entry.path);
    let _ = std::fs::remove_file(&preamble);
    if ended.timed_out {
        return None;
    }
    Some(match ended.status {
        Some(0) => Outcome::Pass,
        Some(code) => Outcome::Fail(first_failure(&ended.stderr, code)),
        None => Outcome::Fail(format!("crashed: {}", first_line(&ended.stderr))),
    })
}

/// `TestData` as resmoke sets it for a jstests file (its name, the database `test`, and the
/// storage engine: Sprout's is in memory, which resmoke names `inMemory`, so files that ask
/// `jsTest.options().storageEngine` take that engine's branch).
fn write_preamble(work: &Path, path: &str) -> Result<PathBuf, String> {
    let stem = Path::new(path)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let file = work.join(format!("{}.preamble.js", path.replace('/', "_")));
    let text = format!(
        "var TestData = {{testName: {stem:?}, dbName: \"test\", noJournal: false, storageEngine: \"inMemory\"}};\n"
    );
    std::fs::write(&file, text).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    Ok(file)
}

fn run_sprout(root: &Path, preamble: &Path, file: &str) -> Ended {
    let started = Instant::now();
    let spawned = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {ADDRESS_SPACE_KIB} && exec \"$0\" \"$@\""
        ))
        .arg(env!("CARGO_BIN_EXE_sprout"))
        .args(["--legacy", "--quiet"])
        .arg(preamble)
        .arg(file)
        .current_dir(root)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match spawned {
        Ok(child) => child,
        Err(e) => {
            return Ended {
                status: Some(-1),
                timed_out: false,
                stderr: format!("could not start sprout: {e}"),
            };
        }
    };
    let Some(mut err) = child.stderr.take() else {
        return Ended {
            status: Some(-1),
            timed_out: false,
            stderr: "no stderr pipe".to_string(),
        };
    };
    let reader = std::thread::spawn(move || read_capped(&mut err));
    let mut timed_out = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) => {}
            Err(_) => break None,
        }
        if started.elapsed() > TIME_LIMIT {
            timed_out = true;
            let _ = child.kill();
            break child.wait().ok();
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Ended {
        status: status.and_then(|s| s.code()),
        timed_out,
        stderr: reader.join().unwrap_or_default(),
    }
}

fn first_line(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("")
        .to_string()
}

/// The failure as the shell reported it: the first non-empty stderr line (the error), with
/// the exit status when the shell wrote nothing.
fn first_failure(stderr: &str, code: i32) -> String {
    let line = first_line(stderr);
    if line.is_empty() {
        format!("exit status {code} with no message")
    } else {
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_lines() {
        let list = read_list("# comment\nquery jstests/core/all2.js  # why\n\n").unwrap();
        assert_eq!(list.len(), 1);
        assert_eq!(list[0].area, "query");
        assert!(read_list("query").is_err());
    }

    #[test]
    fn name_lines() {
        let list =
            read_names("# comment\njstests/core/index9.js\n\njstests/aggregation/a.js # x\n");
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].area, "index");
        assert_eq!(list[1].path, "jstests/aggregation/a.js");
        assert_eq!(list[1].area, "aggregation");
    }

    #[test]
    fn areas_by_name() {
        assert_eq!(
            area_of("jstests/aggregation/bugs/server1.js"),
            "aggregation"
        );
        assert_eq!(area_of("jstests/core/find_and_modify4.js"), "findAndModify");
        assert_eq!(area_of("jstests/core/index_many.js"), "index");
        assert_eq!(area_of("jstests/core/zzz.js"), "other");
    }
}
