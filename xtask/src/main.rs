//! `cargo xtask`: the project's build, serve and test orchestration (standard library only).
//!
//! - `cargo xtask serve [--port N] [--dev]`: build the web app and serve it on 127.0.0.1.
//! - `cargo xtask test`: every test the project has (native, lint, wasm in Chromium, end-to-end).
//! - `cargo xtask web-build [--dev]`: build the web app into `dist/`.
//! - `cargo xtask bench-node`: the wasm engine beside mingo, LokiJS and NeDB in Node.js.
//! - `cargo xtask fuzz [--seconds N] [--target T] [--jobs J] [--keep-going]`: the fuzz targets
//!   of `fuzz/` under libFuzzer, N seconds each (default 600).
//! - `cargo xtask jstests [--survey] [--only S] [--dir D]`: every MongoDB jstests file (or
//!   only issue #19's survey list) through the legacy shell, pass rates per area
//!   (`xtask/src/jstests.rs`).
//!
//! Both README commands first run `scripts/ensure-tools.sh`, which installs what is missing.

mod bench_node;
mod fuzz;
mod jstests;
mod serve;
mod test;
mod toolchain;
mod web_build;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("serve") => serve::run(&args[1..]),
        Some("test") => test::run(&args[1..]),
        Some("web-build") => web_build::run(&args[1..]).map(|_| ()),
        Some("ensure-tools") => toolchain::ensure_tools(),
        Some("bench-node") => bench_node::run(&args[1..]),
        Some("fuzz") => fuzz::run(&args[1..]),
        Some("jstests") => jstests::run(&args[1..]),
        _ => {
            eprintln!(
                "usage: cargo xtask <serve [--port N] [--dev] | test [--skip-browser] | web-build [--dev] | bench-node [--before <sprout_node.js>] | fuzz [--seconds N] [--target T] [--jobs J] [--keep-going] | jstests [--survey] [--only S] [--dir D] | ensure-tools>"
            );
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The workspace root (xtask lives one level below it).
///
/// `cargo run` (and so `cargo xtask`) sets `CARGO_MANIFEST_DIR` for the
/// process, so the root follows the checkout the command was run in. The
/// path compiled in is only a fallback: a binary reused from a `target/`
/// copied from another checkout would otherwise work in that other checkout.
pub fn root() -> PathBuf {
    let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    manifest_dir
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// Runs a command, echoing it, and fails on a non-zero exit.
pub fn run_cmd(cmd: &mut Command) -> Result<(), String> {
    eprintln!("xtask: $ {}", describe(cmd));
    let status = cmd
        .status()
        .map_err(|e| format!("could not start {}: {e}", describe(cmd)))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{}` failed with {status}", describe(cmd)))
    }
}

fn describe(cmd: &Command) -> String {
    let mut s = cmd.get_program().to_string_lossy().into_owned();
    for a in cmd.get_args() {
        s.push(' ');
        s.push_str(&a.to_string_lossy());
    }
    s
}

/// Reads `--name value` from args.
pub fn flag_value<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(String::as_str)
}
