//! `cargo xtask fuzz [--seconds N] [--target T] [--jobs J] [--keep-going]`: builds the libFuzzer
//! targets of `fuzz/` with coverage instrumentation and runs each for N seconds (default 600).
//!
//! Why libFuzzer through `libfuzzer-sys`, built by hand rather than with `cargo fuzz`: the
//! machines (developers' and CI's) have stable Rust only and no `cargo-fuzz`; `cargo fuzz`
//! would pass `-Zsanitizer=address`, which needs nightly. Coverage-guided fuzzing itself needs
//! no nightly feature: the SanitizerCoverage pass is reached with the stable flags
//! `-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-*` (the flags `cargo fuzz build
//! --sanitizer none` passes), and `libfuzzer-sys` compiles libFuzzer from source with the C++
//! compiler. Safe Rust needs no AddressSanitizer; panics abort and are caught as crashes.
//!
//! Seeds: `fuzz-seeds` writes the corpora generated from the conformance data and the lessons
//! to `target/fuzz/seeds/<target>/`; the committed seeds are `fuzz/seeds/<target>/`; what a run
//! discovers is kept in `target/fuzz/corpus/<target>/` (the next run starts from it). Findings
//! go to `target/fuzz/artifacts/<target>/`, logs to `target/fuzz/logs/`, and the figures to
//! `target/fuzz/summary.md`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::{flag_value, root, run_cmd};

/// The targets, in the order they run (the `[[bin]]`s of `fuzz/Cargo.toml`).
pub const TARGETS: &[&str] = &[
    "filter",
    "update",
    "projection",
    "pipeline",
    "extjson",
    "preprocess",
    "shell_program",
    "index_scan",
    "printer_roundtrip",
];

/// The instrumentation `cargo fuzz build --sanitizer none` adds (all stable `-C` flags).
const COVERAGE_FLAGS: &[&str] = &[
    "-Cpasses=sancov-module",
    "-Cllvm-args=-sanitizer-coverage-level=4",
    "-Cllvm-args=-sanitizer-coverage-inline-8bit-counters",
    "-Cllvm-args=-sanitizer-coverage-pc-table",
    "-Cllvm-args=-sanitizer-coverage-trace-compares",
    "--cfg",
    "fuzzing",
    "-Cdebug-assertions",
    "-Coverflow-checks",
];

pub fn run(args: &[String]) -> Result<(), String> {
    let seconds: u64 = match flag_value(args, "--seconds") {
        Some(s) => s
            .parse()
            .map_err(|_| format!("--seconds: not a number: {s}"))?,
        None => 600,
    };
    let jobs: usize = match flag_value(args, "--jobs") {
        Some(s) => s
            .parse()
            .map_err(|_| format!("--jobs: not a number: {s}"))?,
        None => 1,
    };
    let keep_going = args.iter().any(|a| a == "--keep-going");
    let targets: Vec<&'static str> = match flag_value(args, "--target") {
        Some(list) => {
            list.split(',')
                .map(|t| {
                    TARGETS.iter().copied().find(|k| *k == t).ok_or_else(|| {
                        format!("unknown target {t}; targets: {}", TARGETS.join(", "))
                    })
                })
                .collect::<Result<_, _>>()?
        }
        None => TARGETS.to_vec(),
    };
    let work = root().join("target/fuzz");
    write_seeds(&work.join("seeds"))?;
    let binaries = build()?;
    let started = Instant::now();
    let mut results = Vec::new();
    for chunk in targets.chunks(jobs.max(1)) {
        let running: Vec<_> = chunk
            .iter()
            .map(|t| start(t, &binaries, &work, seconds, keep_going))
            .collect::<Result<_, _>>()?;
        for (target, mut child, log) in running {
            let status = child
                .wait()
                .map_err(|e| format!("waiting for {target}: {e}"))?;
            results.push(summarise(target, &work, &log, status.success()));
        }
    }
    let table = summary_table(&results, seconds);
    std::fs::write(work.join("summary.md"), &table)
        .map_err(|e| format!("cannot write summary: {e}"))?;
    eprintln!(
        "xtask: fuzzing took {:.0}s\n{table}",
        started.elapsed().as_secs_f64()
    );
    let failed: Vec<&str> = results
        .iter()
        .filter(|r| !r.clean())
        .map(|r| r.target)
        .collect();
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "findings in {} (see target/fuzz/artifacts/)",
            failed.join(", ")
        ))
    }
}

fn cargo() -> Command {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.current_dir(root());
    cmd
}

fn write_seeds(dir: &Path) -> Result<(), String> {
    run_cmd(
        cargo()
            .args([
                "run",
                "-q",
                "-p",
                "sprout-fuzz",
                "--bin",
                "fuzz-seeds",
                "--",
            ])
            .arg(dir),
    )
}

/// The host's target triple: the flags must reach only the target's code, not build scripts or
/// proc macros, so the build names its target explicitly (as `cargo fuzz` does).
fn host_triple() -> Result<String, String> {
    let out = Command::new("rustc")
        .arg("-vV")
        .output()
        .map_err(|e| format!("rustc -vV: {e}"))?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
        .ok_or_else(|| "rustc -vV names no host".to_string())
}

/// Builds every target; returns the folder holding the binaries.
fn build() -> Result<PathBuf, String> {
    let triple = host_triple()?;
    let target_dir = root().join("target/fuzz-build");
    let mut cmd = cargo();
    cmd.args([
        "build",
        "-p",
        "sprout-fuzz",
        "--features",
        "libfuzzer",
        "--profile",
        "fuzz",
    ])
    .args(["--target", &triple])
    .arg("--target-dir")
    .arg(&target_dir)
    .env("RUSTFLAGS", COVERAGE_FLAGS.join(" "));
    for t in TARGETS {
        cmd.args(["--bin", t]);
    }
    run_cmd(&mut cmd)?;
    Ok(target_dir.join(triple).join("fuzz"))
}

fn start(
    target: &'static str,
    binaries: &Path,
    work: &Path,
    seconds: u64,
    keep_going: bool,
) -> Result<(&'static str, std::process::Child, PathBuf), String> {
    let corpus = work.join("corpus").join(target);
    let artifacts = work.join("artifacts").join(target);
    let logs = work.join("logs");
    for dir in [&corpus, &artifacts, &logs] {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let log = logs.join(format!("{target}.log"));
    let log_file = std::fs::File::create(&log).map_err(|e| format!("{}: {e}", log.display()))?;
    let mut cmd = Command::new("nice");
    cmd.args(["-n", "10"])
        .arg(binaries.join(target))
        .arg(format!("-max_total_time={seconds}"))
        // 4 GiB of memory, as the hostile table's rows get (`ulimit -v`, issue #18's attacker's
        // cap and wasm32's ceiling): the shell's limits are set against that. libFuzzer's
        // default 2 GiB flagged printing a 29-million-character value (within the string cap,
        // about 700 MB at its peak) once a reused shell held the garbage of earlier inputs.
        .args(["-max_len=4096", "-timeout=20", "-rss_limit_mb=4096"])
        .args(["-print_final_stats=1", "-close_fd_mask=1"])
        .arg(format!("-artifact_prefix={}/", artifacts.display()));
    if keep_going {
        // Fork mode: a crash, timeout or out-of-memory ends one child, not the run.
        cmd.args([
            "-fork=1",
            "-ignore_crashes=1",
            "-ignore_timeouts=1",
            "-ignore_ooms=1",
        ]);
    }
    cmd.arg(&corpus);
    for seeds in [
        work.join("seeds").join(target),
        root().join("fuzz/seeds").join(target),
    ] {
        if seeds.is_dir() {
            cmd.arg(seeds);
        }
    }
    cmd.stdout(Stdio::null()).stderr(log_file);
    eprintln!(
        "xtask: fuzzing {target} for {seconds}s (log: {})",
        log.display()
    );
    let child = cmd
        .spawn()
        .map_err(|e| format!("could not start {target}: {e}"))?;
    Ok((target, child, log))
}

/// One target's figures, read from its libFuzzer log and its artifacts folder.
struct Outcome {
    target: &'static str,
    exited_cleanly: bool,
    executions: Option<u64>,
    coverage: Option<u64>,
    features: Option<u64>,
    corpus: Option<u64>,
    findings: Vec<String>,
}

impl Outcome {
    fn clean(&self) -> bool {
        self.exited_cleanly && self.findings.is_empty()
    }
}

fn summarise(target: &'static str, work: &Path, log: &Path, exited_cleanly: bool) -> Outcome {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let mut outcome = Outcome {
        target,
        exited_cleanly,
        executions: None,
        coverage: None,
        features: None,
        corpus: None,
        findings: Vec::new(),
    };
    for line in text.lines() {
        if let Some(n) = line.strip_prefix("stat::number_of_executed_units:") {
            outcome.executions = n.trim().parse().ok();
        }
        // Progress lines: `#123  NEW cov: 456 ft: 789 corp: 10/1kb …` (fork mode: `#123: cov: …`).
        if line.starts_with('#') && line.contains("cov: ") {
            let runs = line[1..]
                .split(|c: char| !c.is_ascii_digit())
                .next()
                .and_then(|n| n.parse().ok());
            if outcome.executions.is_none() || line.contains(": cov:") {
                outcome.executions = runs.or(outcome.executions);
            }
            outcome.coverage = number_after(line, "cov: ").or(outcome.coverage);
            outcome.features = number_after(line, "ft: ").or(outcome.features);
            outcome.corpus = number_after(line, "corp: ").or(outcome.corpus);
        }
    }
    if let Ok(entries) = std::fs::read_dir(work.join("artifacts").join(target)) {
        outcome.findings = entries
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        outcome.findings.sort();
    }
    outcome
}

fn number_after(line: &str, key: &str) -> Option<u64> {
    let rest = &line[line.find(key)? + key.len()..];
    rest.split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

fn summary_table(results: &[Outcome], seconds: u64) -> String {
    let show = |n: Option<u64>| n.map_or("?".to_string(), |n| n.to_string());
    let mut s = String::from(
        "| target | seconds | executions | coverage (cov) | features (ft) | corpus | findings |\n\
         |---|---|---|---|---|---|---|\n",
    );
    for r in results {
        let findings = if r.findings.is_empty() && r.exited_cleanly {
            "0".to_string()
        } else if r.findings.is_empty() {
            "exited with an error (see its log)".to_string()
        } else {
            // libFuzzer names findings `crash-…`, `timeout-…`, `oom-…`, `slow-unit-…`.
            let mut kinds: Vec<(String, usize)> = Vec::new();
            for f in &r.findings {
                let kind = f
                    .rsplit_once('-')
                    .map_or(f.as_str(), |(k, _)| k)
                    .to_string();
                match kinds.iter_mut().find(|(k, _)| *k == kind) {
                    Some((_, n)) => *n += 1,
                    None => kinds.push((kind, 1)),
                }
            }
            kinds
                .iter()
                .map(|(k, n)| format!("{n} {k}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        s.push_str(&format!(
            "| {} | {seconds} | {} | {} | {} | {} | {findings} |\n",
            r.target,
            show(r.executions),
            show(r.coverage),
            show(r.features),
            show(r.corpus),
        ));
    }
    s
}
