//! `cargo xtask test`: every test the project has, in order of speed, stopping at the first
//! failure: formatting, lints, native tests (unit, integration, conformance), the wasm tests in
//! headless Chromium and Node, the release web build, and the Playwright end-to-end test.

use std::net::TcpListener;
use std::process::Command;
use std::time::Instant;

use crate::toolchain::{ensure_tools, tool, wasm_cargo};
use crate::{root, run_cmd};

pub fn run(args: &[String]) -> Result<(), String> {
    let skip_browser = args.iter().any(|a| a == "--skip-browser");
    let started = Instant::now();
    ensure_tools()?;
    report_free_disk();
    let mut timings: Vec<(&str, f64)> = Vec::new();
    let mut step =
        |name: &'static str, f: &mut dyn FnMut() -> Result<(), String>| -> Result<(), String> {
            let t = Instant::now();
            eprintln!("xtask: === {name}");
            f()?;
            timings.push((name, t.elapsed().as_secs_f64()));
            Ok(())
        };
    step("format", &mut || {
        run_cmd(native_cargo().args(["fmt", "--all", "--", "--check"]))
    })?;
    step("clippy", &mut || {
        run_cmd(native_cargo().args([
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ]))
    })?;
    step("native tests", &mut || {
        run_cmd(native_cargo().args(["test", "--workspace", "--exclude", "web"]))
    })?;
    if !skip_browser {
        step("wasm tests (Chromium + Node)", &mut || {
            let mut cmd = wasm_cargo("test")?;
            cmd.args(["-p", "web", "--tests"])
                .env(
                    "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER",
                    tool("wasm-bindgen-test-runner"),
                )
                .env("CHROMEDRIVER", "/usr/bin/chromedriver")
                .env("WASM_BINDGEN_TEST_TIMEOUT", "120")
                .env(
                    "WASM_BINDGEN_TEST_WEBDRIVER_JSON",
                    root().join("web/webdriver.json"),
                );
            run_cmd(&mut cmd)
        })?;
        step("release web build", &mut || {
            crate::web_build::run(&[]).map(|_| ())
        })?;
        step("end-to-end (Playwright + Chromium)", &mut || end_to_end())?;
    }
    eprintln!(
        "xtask: all tests passed in {:.0}s",
        started.elapsed().as_secs_f64()
    );
    for (name, secs) in timings {
        eprintln!("xtask:   {name:<40} {secs:>7.1}s");
    }
    Ok(())
}

/// The host toolchain's cargo, with variables that would redirect it removed. Incremental
/// compilation is off: the full suite is a one-shot build, and incremental caches for every
/// test target cost gigabytes of disk that a CI machine may not have.
fn native_cargo() -> Command {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.current_dir(root()).env("CARGO_INCREMENTAL", "0");
    cmd
}

/// Free space where target/ lives, printed at the start so that a failure to write or link
/// (SIGBUS from the linker when the disk fills) can be told from a code failure.
fn report_free_disk() {
    let out = Command::new("df")
        .args(["-h", "."])
        .current_dir(root())
        .output();
    if let Ok(out) = out {
        let text = String::from_utf8_lossy(&out.stdout);
        if let Some(line) = text.lines().nth(1) {
            eprintln!("xtask: disk where target/ lives: {line}");
        }
    }
}

fn end_to_end() -> Result<(), String> {
    let dist = root().join("dist");
    let listener = TcpListener::bind(("127.0.0.1", 0)).map_err(|e| e.to_string())?;
    let port = listener.local_addr().map_err(|e| e.to_string())?.port();
    std::thread::spawn(move || crate::serve::serve_forever(listener, dist));
    let out_dir = root().join("target/e2e");
    std::fs::create_dir_all(&out_dir).map_err(|e| e.to_string())?;
    let mut failures = Vec::new();
    let mut specs: Vec<_> = std::fs::read_dir(root().join("tests/e2e"))
        .map_err(|e| e.to_string())?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "mjs")
                && p.file_name()
                    .is_some_and(|n| n.to_string_lossy().ends_with(".spec.mjs"))
        })
        .collect();
    specs.sort();
    for spec in &specs {
        let r = run_cmd(
            Command::new("node")
                .arg(spec)
                .arg(format!("http://127.0.0.1:{port}/"))
                .arg(&out_dir)
                .current_dir(root().join("tests/e2e")),
        );
        if let Err(e) = r {
            failures.push(e);
        }
    }
    if specs.is_empty() {
        return Err("no end-to-end specs found in tests/e2e".into());
    }
    if failures.is_empty() {
        eprintln!("e2e: {} passed, 0 failed", specs.len());
        Ok(())
    } else {
        Err(format!(
            "e2e: {} passed, {} failed",
            specs.len() - failures.len(),
            failures.len()
        ))
    }
}
