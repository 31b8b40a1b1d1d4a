//! Shared helpers for the shell's integration suites: a reproducible shell (simulated clock at
//! 2015-04-04T12:00:00Z, fixed seeds) and running inputs in one session.

#![allow(dead_code)]

pub mod index_check;

use engine::Engine;
use engine::clock::SimulatedClock;
use shell::{Evaluation, Shell, ShellConfig, Style};

/// 2015-04-04T12:00:00Z, in the books' era.
pub const START_MILLIS: i64 = 1_428_148_800_000;

pub fn shell(style: Style) -> Shell {
    shell_at(style, START_MILLIS)
}

/// A shell like [`shell`] whose clock starts at `millis` (UTC).
pub fn shell_at(style: Style, millis: i64) -> Shell {
    let mut engine = Engine::with_clock(Box::new(SimulatedClock::new(millis)), 7);
    index_check::attach(&mut engine);
    Shell::new(
        engine,
        ShellConfig {
            style,
            ..ShellConfig::default()
        },
    )
}

/// Runs every input in one session; returns each evaluation.
pub fn run_all(shell: &mut Shell, inputs: &[&str]) -> Vec<Evaluation> {
    inputs.iter().map(|i| shell.eval(i)).collect()
}

/// Runs the inputs in a fresh shell of `style` and returns what the last one shows.
pub fn last_text(style: Style, inputs: &[&str]) -> String {
    let mut sh = shell(style);
    run_all(&mut sh, inputs)
        .last()
        .map(Evaluation::text)
        .unwrap_or_default()
}

/// Runs `(catalogue id, input, expected text)` rows in one session, in order; returns a
/// description of each row whose shown text differs.
pub fn check_rows<I: AsRef<str>, E: AsRef<str>>(
    shell: &mut Shell,
    rows: &[(&str, I, E)],
) -> Vec<String> {
    let mut failures = Vec::new();
    for (id, input, expected) in rows {
        let (input, expected) = (input.as_ref(), expected.as_ref());
        let got = shell.eval(input).text();
        if got != expected {
            failures.push(format!(
                "{id}: {input}\n  expected {expected:?}\n  got      {got:?}"
            ));
        }
    }
    failures
}

/// [`check_rows`], failing the test with every differing row.
pub fn assert_rows<I: AsRef<str>, E: AsRef<str>>(shell: &mut Shell, rows: &[(&str, I, E)]) {
    let failures = check_rows(shell, rows);
    assert!(
        failures.is_empty(),
        "{} of {} rows differ:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
}

/// Shell functions the catalogue suites use to read plans: `plan(cursor)` is the winning
/// plan's stages from the root (`FETCH > IXSCAN price_1`), `candidates(cursor)` the sorted
/// leaf of every candidate plan (index name or COLLSCAN), `counters(explain)` the
/// `nReturned,totalKeysExamined,totalDocsExamined` of an executionStats explain, and
/// `field(cursor, name)` the named field of each document returned.
pub const PLAN_HELPERS: &str = r#"
function stagesOf(p) { var s = []; while (p) { s.push(p.indexName ? p.stage + ' ' + p.indexName : p.stage); p = p.inputStage; } return s.join(' > '); }
function plan(q) { return stagesOf(q.explain().queryPlanner.winningPlan); }
function candidates(q) {
  var qp = q.explain().queryPlanner;
  return [qp.winningPlan].concat(qp.rejectedPlans).map(function (p) {
    while (p.inputStage) p = p.inputStage;
    return p.indexName || p.stage;
  }).sort().join(' ');
}
function counters(e) { var x = e.executionStats; return [x.nReturned, x.totalKeysExamined, x.totalDocsExamined].join(); }
function field(q, name) { return q.toArray().map(function (d) { return d[name]; }).join(); }
"#;

/// Runs the real `sprout` binary with `args`; returns stdout, stderr and the exit code.
pub fn sprout(args: &[&str]) -> (String, String, Option<i32>) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sprout"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("sprout runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}
