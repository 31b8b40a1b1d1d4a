//! Finding (and if needed installing) a toolchain that can build for wasm32.
//!
//! Two cases: an ordinary rustup toolchain with the `wasm32-unknown-unknown` target, or — on
//! machines where that target cannot be downloaded — Debian's `rustc-web` toolchain, which ships
//! the standard library's source so that `-Zbuild-std` can build it for wasm32.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{root, run_cmd};

pub enum WasmToolchain {
    Rustup,
    DebianWeb,
}

pub fn ensure_tools() -> Result<(), String> {
    run_cmd(Command::new("bash").arg(root().join("scripts/ensure-tools.sh")))
}

pub fn detect() -> Result<WasmToolchain, String> {
    let sysroot = Command::new("rustc")
        .args(["--print", "sysroot"])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    if let Some(sysroot) = sysroot
        && Path::new(&sysroot)
            .join("lib/rustlib/wasm32-unknown-unknown/lib")
            .is_dir()
    {
        return Ok(WasmToolchain::Rustup);
    }
    if Path::new("/usr/bin/rustc").exists()
        && Path::new("/usr/lib/rustlib/src/rust/library").is_dir()
    {
        return Ok(WasmToolchain::DebianWeb);
    }
    Err("no wasm32 toolchain: run `cargo xtask ensure-tools` (or `rustup target add wasm32-unknown-unknown`)".into())
}

/// A `cargo` command that builds for wasm32 with whichever toolchain is available.
/// `subcommand` is `build` or `test`.
pub fn wasm_cargo(subcommand: &str) -> Result<Command, String> {
    let tc = detect()?;
    let mut cmd = match tc {
        WasmToolchain::Rustup => Command::new("cargo"),
        WasmToolchain::DebianWeb => Command::new("/usr/bin/cargo"),
    };
    // A cargo started by rustup passes these on; they would override the toolchain choice.
    for var in [
        "RUSTUP_TOOLCHAIN",
        "CARGO",
        "CARGO_TARGET_DIR",
        "RUSTC_WRAPPER",
        "RUSTC",
        "RUSTDOC",
    ] {
        cmd.env_remove(var);
    }
    // One-shot builds: incremental caches only cost disk (see test.rs, native_cargo).
    cmd.current_dir(root()).env("CARGO_INCREMENTAL", "0");
    cmd.arg(subcommand);
    if let WasmToolchain::DebianWeb = tc {
        cmd.env("RUSTC", "/usr/bin/rustc")
            .env("RUSTDOC", "/usr/bin/rustdoc")
            // rustc accepts the -Z flags that build-std passes only with this set.
            .env("RUSTC_BOOTSTRAP", "1")
            .arg("-Zbuild-std=std,panic_abort");
    }
    cmd.args(["--target", "wasm32-unknown-unknown", "--target-dir"])
        .arg(wasm_target_dir());
    Ok(cmd)
}

pub fn wasm_target_dir() -> PathBuf {
    root().join("target/wasm")
}

pub fn tool(name: &str) -> PathBuf {
    let local = root().join("target/tools/bin").join(name);
    if local.exists() {
        local
    } else {
        PathBuf::from(name)
    }
}
