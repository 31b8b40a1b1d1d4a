//! Builds the web app: the `web` binary for wasm32, wasm-bindgen's JS glue, and static files,
//! into `dist/`.

use std::path::PathBuf;
use std::time::Instant;

use crate::toolchain::{tool, wasm_cargo, wasm_target_dir};
use crate::{root, run_cmd};

/// Returns the folder that holds the built site.
pub fn run(args: &[String]) -> Result<PathBuf, String> {
    let dev = args.iter().any(|a| a == "--dev");
    let started = Instant::now();
    let mut cargo = wasm_cargo("build")?;
    cargo.args(["-p", "web"]);
    for bin in BINARIES {
        cargo.args(["--bin", bin]);
    }
    if !dev {
        cargo.arg("--release");
    }
    run_cmd(&mut cargo)?;
    let profile = if dev { "debug" } else { "release" };
    let dist = root().join("dist");
    let pkg = dist.join("pkg");
    std::fs::create_dir_all(&pkg).map_err(|e| format!("creating {}: {e}", pkg.display()))?;
    let mut sizes = Vec::new();
    for bin in BINARIES {
        let wasm = wasm_target_dir()
            .join("wasm32-unknown-unknown")
            .join(profile)
            .join(format!("{bin}.wasm"));
        let mut bindgen = std::process::Command::new(tool("wasm-bindgen"));
        bindgen
            .args(["--target", "web", "--no-typescript", "--out-dir"])
            .arg(&pkg);
        if !dev {
            bindgen.arg("--remove-name-section");
        }
        bindgen.arg(&wasm);
        run_cmd(&mut bindgen)?;
        let size = std::fs::metadata(pkg.join(format!("{bin}_bg.wasm")))
            .map(|m| m.len())
            .unwrap_or(0);
        sizes.push(format!("{bin}_bg.wasm {size} bytes"));
    }
    copy_dir(&root().join("static"), &dist)?;
    eprintln!(
        "xtask: built {} ({} profile, {}) in {:.1}s",
        dist.display(),
        profile,
        sizes.join(", "),
        started.elapsed().as_secs_f64()
    );
    Ok(dist)
}

/// The page's UI (`web`, loaded by `index.html`) and the shell worker (`worker`, loaded by
/// `worker.js`): two modules so that the page does not download and compile the engine and the
/// shell on its own thread.
const BINARIES: [&str; 2] = ["web", "worker"];

fn copy_dir(from: &std::path::Path, to: &std::path::Path) -> Result<(), String> {
    let entries =
        std::fs::read_dir(from).map_err(|e| format!("reading {}: {e}", from.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        let target = to.join(entry.file_name());
        if path.is_dir() {
            std::fs::create_dir_all(&target).map_err(|e| e.to_string())?;
            copy_dir(&path, &target)?;
        } else {
            std::fs::copy(&path, &target)
                .map_err(|e| format!("copying {}: {e}", path.display()))?;
        }
    }
    Ok(())
}
