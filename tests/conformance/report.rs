//! Case outcomes, the per-area table, the known-failures baseline and `docs/conformance.md`.
//!
//! A baseline file (`tests/baselines/<runner>.txt`) lists the ids of the cases that fail
//! today, one per line, sorted, each optionally followed by `  # reason`. A run fails when a
//! case fails that is not listed (a regression) and also when a listed case passes or no longer
//! exists (an improvement), so the list is always exact. `SPROUT_BLESS=1` rewrites the baseline
//! and the runner's section of `docs/conformance.md` from the current run; it keeps reasons a
//! person wrote as `note: …` and replaces the others with the current failure message.
//! `SPROUT_CONFORMANCE_LIST=pass,fail,skip` (any subset) lists those cases after the table.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Writes a line to the process's stderr directly, so the table shows even when the test
/// harness captures output (the `eprintln!` macro is captured; a direct write is not).
macro_rules! emit {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

/// What happened to one case.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Pass,
    /// The case ran and did not give the expected result; the text says how.
    Fail(String),
    /// The case was not run; the text is the reason, shared by similar cases.
    Skip(String),
}

/// One conformance case: a stable id, the area it counts towards and its outcome.
#[derive(Debug, Clone)]
pub struct Case {
    pub id: String,
    pub area: String,
    pub outcome: Outcome,
}

/// Counts for one area.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct Tally {
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
}

impl Tally {
    fn add(&mut self, outcome: &Outcome) {
        match outcome {
            Outcome::Pass => self.passed += 1,
            Outcome::Fail(_) => self.failed += 1,
            Outcome::Skip(_) => self.skipped += 1,
        }
    }

    /// Passed over run (passed + failed), as a percentage; `n/a` when nothing ran.
    pub fn rate(&self) -> String {
        let run = self.passed + self.failed;
        if run == 0 {
            "n/a".to_string()
        } else {
            format!("{:.1}%", self.passed as f64 * 100.0 / run as f64)
        }
    }
}

/// All the cases of one runner, and what to call it.
#[derive(Debug)]
pub struct Report {
    runner: String,
    title: String,
    source: String,
    areas: Vec<String>,
    cases: Vec<Case>,
    ids: HashMap<String, usize>,
    started: Instant,
    extra_output: Vec<String>,
    untracked_prefix: Option<String>,
    /// The cargo package whose test target is the runner (for the re-bless hints).
    package: String,
    /// Lines written under the table in `docs/conformance.md`.
    docs_lines: Vec<String>,
}

impl Report {
    /// `runner` is the test target's name (and the baseline's file stem); `areas` fixes the
    /// order of the table's rows (areas met later are appended).
    pub fn new(runner: &str, title: &str, source: &str, areas: &[&str]) -> Report {
        Report {
            runner: runner.to_string(),
            title: title.to_string(),
            source: source.to_string(),
            areas: areas.iter().map(|a| a.to_string()).collect(),
            cases: Vec::new(),
            ids: HashMap::new(),
            started: Instant::now(),
            extra_output: Vec::new(),
            untracked_prefix: None,
            package: "sprout-tests".to_string(),
            docs_lines: Vec::new(),
        }
    }

    /// Records a case. Ids are normalised (whitespace collapsed) and made unique by appending
    /// ` (2)`, ` (3)`, … to repeats, so duplicate descriptions in the data stay distinct.
    pub fn push(&mut self, id: &str, area: &str, outcome: Outcome) {
        let base = normalise_id(id);
        let n = self.ids.entry(base.clone()).or_insert(0);
        *n += 1;
        let id = if *n == 1 {
            base
        } else {
            format!("{base} ({n})")
        };
        if !self.areas.iter().any(|a| a == area) {
            self.areas.push(area.to_string());
        }
        self.cases.push(Case {
            id,
            area: area.to_string(),
            outcome,
        });
    }

    /// Names the cargo package of a runner that lives outside `sprout-tests` (the book's index
    /// check is a `shell` test), so the re-bless hints name the right command.
    pub fn set_package(&mut self, package: &str) {
        self.package = package.to_string();
    }

    /// A line printed after the table and written under it in `docs/conformance.md`.
    pub fn add_summary_line(&mut self, line: String) {
        self.docs_lines.push(line.clone());
        self.extra_output.push(line);
    }

    /// A line printed after the table (for example machine-readable totals).
    pub fn add_output_line(&mut self, line: String) {
        self.extra_output.push(line);
    }

    /// Cases whose ids start with `prefix` (data from outside the vendored folder) are printed
    /// in the table but left out of the baseline and `docs/conformance.md`.
    pub fn set_untracked_prefix(&mut self, prefix: &str) {
        self.untracked_prefix = Some(prefix.to_string());
    }

    pub fn cases(&self) -> &[Case] {
        &self.cases
    }

    /// Counts per area, in table order.
    pub fn tallies(&self) -> Vec<(String, Tally)> {
        let mut map: BTreeMap<&str, Tally> = BTreeMap::new();
        for case in &self.cases {
            map.entry(case.area.as_str())
                .or_default()
                .add(&case.outcome);
        }
        self.areas
            .iter()
            .map(|a| (a.clone(), map.get(a.as_str()).copied().unwrap_or_default()))
            .collect()
    }

    /// Prints the table, compares with the baseline (or rewrites it under `SPROUT_BLESS=1`)
    /// and returns an error describing every regression and improvement.
    pub fn finish(mut self) -> Result<(), String> {
        let elapsed = self.started.elapsed();
        let table = self.table_text(elapsed);
        emit!("{table}");
        for line in &self.extra_output {
            emit!("{line}");
        }
        if let Ok(kinds) = std::env::var("SPROUT_CONFORMANCE_LIST") {
            // e.g. SPROUT_CONFORMANCE_LIST=pass,skip lists those cases with their details.
            for case in &self.cases {
                let (kind, detail) = match &case.outcome {
                    Outcome::Pass => ("pass", ""),
                    Outcome::Fail(m) => ("fail", m.as_str()),
                    Outcome::Skip(r) => ("skip", r.as_str()),
                };
                if kinds.split(',').any(|k| k.trim() == kind) {
                    emit!("{kind}: {}  # {}", case.id, clip(detail, 300));
                }
            }
        }
        if let Some(prefix) = self.untracked_prefix.clone() {
            let (untracked, tracked): (Vec<Case>, Vec<Case>) = std::mem::take(&mut self.cases)
                .into_iter()
                .partition(|c| c.id.starts_with(&prefix));
            self.cases = tracked;
            let failures: Vec<&Case> = untracked
                .iter()
                .filter(|c| matches!(c.outcome, Outcome::Fail(_)))
                .collect();
            emit!(
                "{} cases from outside the vendored data ({prefix}…), not compared with the \
                 baseline; {} failed:",
                untracked.len(),
                failures.len()
            );
            for case in failures {
                if let Outcome::Fail(msg) = &case.outcome {
                    emit!("  failed: {}\n      {}", case.id, clip(msg, 400));
                }
            }
        }
        let bless = std::env::var("SPROUT_BLESS").is_ok_and(|v| !v.is_empty() && v != "0");
        let baseline_path = baseline_path(&self.runner);
        let failing: BTreeMap<String, String> = self
            .cases
            .iter()
            .filter_map(|c| match &c.outcome {
                Outcome::Fail(msg) => Some((c.id.clone(), msg.clone())),
                _ => None,
            })
            .collect();
        let baseline = read_baseline(&baseline_path)?;

        if bless {
            write_baseline(&baseline_path, &failing, &baseline)?;
            let section = self.docs_section(&read_baseline(&baseline_path)?);
            update_docs(&self.runner, &section)?;
            emit!(
                "blessed: {} known failures written to {}; docs/conformance.md updated",
                failing.len(),
                baseline_path.display()
            );
            return Ok(());
        }

        let known: BTreeSet<&String> = baseline.keys().collect();
        let regressions: Vec<(&String, &String)> = failing
            .iter()
            .filter(|(id, _)| !known.contains(id))
            .collect();
        let improvements: Vec<&String> = baseline
            .keys()
            .filter(|id| !failing.contains_key(*id))
            .collect();
        let mut problems = String::new();
        if !regressions.is_empty() {
            let _ = writeln!(
                problems,
                "{} regression(s) in {} (failing, not in {}):",
                regressions.len(),
                self.runner,
                baseline_path.display()
            );
            for (id, msg) in &regressions {
                let _ = writeln!(problems, "  regression: {id}\n      {}", clip(msg, 600));
            }
        }
        if !improvements.is_empty() {
            let _ = writeln!(
                problems,
                "{} baseline entr{} of {} now pass or no longer exist:",
                improvements.len(),
                if improvements.len() == 1 { "y" } else { "ies" },
                self.runner
            );
            for id in improvements.iter().take(50) {
                let _ = writeln!(problems, "  improvement: {id}");
            }
            if improvements.len() > 50 {
                let _ = writeln!(problems, "  … and {} more", improvements.len() - 50);
            }
            let _ = writeln!(
                problems,
                "improvement: run SPROUT_BLESS=1 cargo test -p {} --test {} to shrink the baseline",
                self.package, self.runner
            );
        }
        if problems.is_empty()
            && !docs_section_is_current(&self.runner, &self.docs_section(&baseline))
        {
            let _ = writeln!(
                problems,
                "docs/conformance.md does not show the current figures of {}: run \
                 SPROUT_BLESS=1 cargo test -p {} --test {} to refresh it",
                self.runner, self.package, self.runner
            );
        }
        if problems.is_empty() {
            emit!(
                "{}: failures match the baseline exactly ({} known failures)",
                self.runner,
                failing.len()
            );
            Ok(())
        } else {
            Err(problems)
        }
    }

    /// Prints the table and every failure with its message, without comparing with a
    /// baseline or touching the docs (for surveys over data that has no baseline, such as
    /// `cargo xtask jstests`).
    pub fn print_only(self) {
        emit!("{}", self.table_text(self.started.elapsed()));
        for line in &self.extra_output {
            emit!("{line}");
        }
        for case in &self.cases {
            if let Outcome::Fail(msg) = &case.outcome {
                emit!("fail: {}  # {}", case.id, clip(msg, 300));
            }
        }
    }

    /// The counts over every case.
    pub fn total(&self) -> Tally {
        let mut total = Tally::default();
        for case in &self.cases {
            total.add(&case.outcome);
        }
        total
    }

    fn table_text(&self, elapsed: Duration) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "\n{} ({}), {} cases in {:.2}s",
            self.title,
            self.runner,
            self.cases.len(),
            elapsed.as_secs_f64()
        );
        let width = self.areas.iter().map(|a| a.len()).max().unwrap_or(5).max(5);
        let _ = writeln!(
            out,
            "{:<width$}  {:>7} {:>7} {:>7}  {:>7}",
            "area", "passed", "failed", "skipped", "rate"
        );
        for (area, t) in self.tallies() {
            let _ = writeln!(
                out,
                "{:<width$}  {:>7} {:>7} {:>7}  {:>7}",
                area,
                t.passed,
                t.failed,
                t.skipped,
                t.rate()
            );
        }
        let t = self.total();
        let _ = write!(
            out,
            "{:<width$}  {:>7} {:>7} {:>7}  {:>7}",
            "TOTAL",
            t.passed,
            t.failed,
            t.skipped,
            t.rate()
        );
        out
    }

    /// The runner's section of `docs/conformance.md` (deterministic: no timings). Baseline
    /// entries explained by a `note:` are listed under the table.
    fn docs_section(&self, baseline: &BTreeMap<String, String>) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "## {} (`{}`)\n", self.title, self.runner);
        let _ = writeln!(out, "{}\n", self.source);
        let _ = writeln!(out, "| Area | Passed | Failed | Skipped | Pass rate |");
        let _ = writeln!(out, "|---|---:|---:|---:|---:|");
        for (area, t) in self.tallies() {
            let _ = writeln!(
                out,
                "| {area} | {} | {} | {} | {} |",
                t.passed,
                t.failed,
                t.skipped,
                t.rate()
            );
        }
        let t = self.total();
        let _ = writeln!(
            out,
            "| **Total** | **{}** | **{}** | **{}** | **{}** |",
            t.passed,
            t.failed,
            t.skipped,
            t.rate()
        );
        let mut reasons: BTreeMap<&str, usize> = BTreeMap::new();
        for case in &self.cases {
            if let Outcome::Skip(reason) = &case.outcome {
                *reasons.entry(reason.as_str()).or_default() += 1;
            }
        }
        for line in &self.docs_lines {
            let _ = writeln!(out, "\n{line}");
        }
        let _ = writeln!(
            out,
            "\nKnown failures: {} (listed in `tests/baselines/{}.txt`).",
            t.failed, self.runner
        );
        let notes: Vec<(&String, &String)> = baseline
            .iter()
            .filter(|(_, r)| r.starts_with(NOTE_PREFIX))
            .collect();
        if !notes.is_empty() {
            let _ = writeln!(out, "\nKnown failures explained:\n");
            for (id, note) in notes {
                let note = note.trim_start_matches(NOTE_PREFIX).trim();
                let _ = writeln!(
                    out,
                    "- `{}`: {}",
                    id.replace('`', "'"),
                    note.replace('|', "\\|")
                );
            }
        }
        if !reasons.is_empty() {
            let mut reasons: Vec<(&str, usize)> = reasons.into_iter().collect();
            reasons.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
            let _ = writeln!(out, "\nSkipped, by reason:\n");
            for (reason, n) in reasons {
                let _ = writeln!(out, "- {n} × {}", reason.replace('|', "\\|"));
            }
        }
        out
    }
}

/// Runs `f`, turning a panic into an `Err` holding the panic message, so one bad case cannot
/// stop a runner. The default panic hook is silenced while `f` runs.
pub fn catch_panic<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    result.map_err(|payload| {
        let msg = if let Some(s) = payload.downcast_ref::<&str>() {
            (*s).to_string()
        } else if let Some(s) = payload.downcast_ref::<String>() {
            s.clone()
        } else {
            "non-text panic payload".to_string()
        };
        format!("panicked: {msg}")
    })
}

/// Installs a panic hook that stays quiet, for the duration of a runner (the panics it expects
/// are caught by [`catch_panic`] and reported as failures). Restored when the guard drops.
pub fn quiet_panics() -> QuietPanics {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    QuietPanics {
        previous: Some(previous),
    }
}

type PanicHook = Box<dyn Fn(&std::panic::PanicHookInfo<'_>) + Sync + Send + 'static>;

/// Restores the previous panic hook when dropped.
pub struct QuietPanics {
    previous: Option<PanicHook>,
}

impl Drop for QuietPanics {
    fn drop(&mut self) {
        if let Some(previous) = self.previous.take() {
            std::panic::set_hook(previous);
        }
    }
}

/// Shortens `text` to at most `max` characters, on one line.
pub fn clip(text: &str, max: usize) -> String {
    let one_line: String = text
        .chars()
        .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
        .collect();
    if one_line.chars().count() <= max {
        one_line
    } else {
        let mut s: String = one_line.chars().take(max).collect();
        s.push('…');
        s
    }
}

fn normalise_id(id: &str) -> String {
    id.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn baseline_path(runner: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("baselines")
        .join(format!("{runner}.txt"))
}

const REASON_SEPARATOR: &str = "  # ";

/// A reason starting with this is a person's explanation, kept by a bless; other reasons are
/// the failure message, rewritten by every bless.
pub const NOTE_PREFIX: &str = "note:";

/// Reads a baseline: id → reason (empty when none). A missing file is an empty baseline.
fn read_baseline(path: &Path) -> Result<BTreeMap<String, String>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeMap::new()),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let mut map = BTreeMap::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let (id, reason) = match line.split_once(REASON_SEPARATOR) {
            Some((id, reason)) => (id.trim(), reason.trim()),
            None => (trimmed, ""),
        };
        map.insert(normalise_id(id), reason.to_string());
    }
    Ok(map)
}

/// Writes the failing ids, sorted, keeping the reasons already written for ids still failing
/// and using the failure message for new ones.
fn write_baseline(
    path: &Path,
    failing: &BTreeMap<String, String>,
    old: &BTreeMap<String, String>,
) -> Result<(), String> {
    let mut text = String::from(
        "# Known failures: one case id per line, sorted, then `  # reason`.\n\
         # Exact: a new failure or a listed case that passes fails the test.\n\
         # Rewrite with SPROUT_BLESS=1 cargo test -p sprout-tests --test <runner>; a bless keeps\n\
         # reasons written as `note: …` and replaces the others with the current failure.\n",
    );
    for (id, msg) in failing {
        let reason = match old.get(id) {
            Some(r) if r.starts_with(NOTE_PREFIX) => r.clone(),
            _ => clip(msg, 160),
        };
        let _ = writeln!(text, "{id}{REASON_SEPARATOR}{reason}");
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn docs_path() -> PathBuf {
    super::workspace_root().join("docs").join("conformance.md")
}

fn begin_marker(runner: &str) -> String {
    format!("<!-- conformance:begin {runner} -->")
}

fn end_marker(runner: &str) -> String {
    format!("<!-- conformance:end {runner} -->")
}

const DOCS_HEADER: &str = "# Conformance\n\n\
Generated by the conformance runners in `tests/` (`tests/conformance/`, one `#[test]` each in\n\
`tests/tests/`); do not edit by hand. The data is the third-party folder `../shared/conformance`\n\
(mongodb/specifications @ 92b3c0b9, microsoft/documentdb @ b2e220c4). The pass rate is\n\
passed / (passed + failed); skipped cases are listed by reason. Each runner fails on a failure\n\
missing from its baseline (`tests/baselines/<runner>.txt`) and on a baseline entry that now\n\
passes, so the baseline is always exact.\n\n\
- Run one: `cargo test -p sprout-tests --test <runner>` (the table is printed to stderr).\n\
- Re-bless after a change in behaviour: `SPROUT_BLESS=1 cargo test -p sprout-tests --test <runner>`\n\
  rewrites the baseline and this file's section for that runner (reasons written as `note: …`\n\
  are kept).\n\
- List cases: `SPROUT_CONFORMANCE_LIST=fail` (or `pass`, `skip`, comma-separated).\n";

fn current_section(text: &str, runner: &str) -> Option<String> {
    let begin = begin_marker(runner);
    let end = end_marker(runner);
    let start = text.find(&begin)? + begin.len();
    let stop = text[start..].find(&end)? + start;
    Some(text[start..stop].trim().to_string())
}

fn docs_section_is_current(runner: &str, section: &str) -> bool {
    std::fs::read_to_string(docs_path())
        .ok()
        .and_then(|text| current_section(&text, runner))
        .is_some_and(|s| s == section.trim())
}

/// Replaces (or appends) the runner's section of `docs/conformance.md`, under a lock file
/// because the three runners may be blessed at once.
fn update_docs(runner: &str, section: &str) -> Result<(), String> {
    let path = docs_path();
    let lock = path.with_extension("md.lock");
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut locked = false;
    while Instant::now() < deadline {
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&lock)
        {
            Ok(_) => {
                locked = true;
                break;
            }
            Err(_) => std::thread::sleep(Duration::from_millis(50)),
        }
    }
    // A lock older than the wait is left over from an interrupted run: take it over.
    let locked = locked || lock.exists();
    let result = (|| {
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => DOCS_HEADER.to_string(),
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        let block = format!(
            "{}\n{}\n{}",
            begin_marker(runner),
            section.trim(),
            end_marker(runner)
        );
        let begin = begin_marker(runner);
        let end = end_marker(runner);
        let new_text = match (text.find(&begin), text.find(&end)) {
            (Some(b), Some(e)) if e > b => {
                format!("{}{}{}", &text[..b], block, &text[e + end.len()..])
            }
            _ => format!("{}\n\n{}\n", text.trim_end(), block),
        };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        std::fs::write(&path, new_text).map_err(|e| format!("cannot write {}: {e}", path.display()))
    })();
    if locked {
        let _ = std::fs::remove_file(&lock);
    }
    result
}
