//! `cargo xtask bench-node`: the engine compiled to wasm for Node.js (`bench/node-engine`)
//! beside mingo, LokiJS and NeDB in one process (`bench/compare.mjs`): checks that all answer
//! alike, then prints timings and ratios (and writes `target/bench-node/compare.json`). Installs
//! the harness's npm packages when missing. First `bench/reply_check.mjs` checks that the
//! binding's `runCommandObject` gives what js-bson decodes from `runCommandBson`'s reply.
//! `--before <sprout_node.js>` runs an earlier build of the engine (a copy of an earlier
//! `target/bench-node/`) beside this one, in the same process.

use std::process::Command;

use crate::toolchain::{tool, wasm_cargo, wasm_target_dir};
use crate::{root, run_cmd};

pub fn run(args: &[String]) -> Result<(), String> {
    let before = match args {
        [] => None,
        [flag, path] if flag == "--before" => {
            Some(std::path::absolute(path).map_err(|e| e.to_string())?)
        }
        _ => {
            return Err("usage: cargo xtask bench-node [--before <earlier sprout_node.js>]".into());
        }
    };
    let mut cargo = wasm_cargo("build")?;
    cargo.args(["-p", "sprout-node", "--release"]);
    run_cmd(&mut cargo)?;
    let wasm = wasm_target_dir()
        .join("wasm32-unknown-unknown/release")
        .join("sprout_node.wasm");
    let pkg = root().join("target/bench-node");
    std::fs::create_dir_all(&pkg).map_err(|e| format!("creating {}: {e}", pkg.display()))?;
    run_cmd(
        Command::new(tool("wasm-bindgen"))
            .args(["--target", "nodejs", "--no-typescript", "--out-dir"])
            .arg(&pkg)
            .arg(&wasm),
    )?;
    // The wasm engine reads a locale's collation tailorings when first used (see
    // `engine::collation::data`); the binding reads them from `collation/` beside it.
    let collation = pkg.join("collation");
    std::fs::create_dir_all(&collation)
        .map_err(|e| format!("creating {}: {e}", collation.display()))?;
    for entry in std::fs::read_dir(root().join("engine/data/collation"))
        .map_err(|e| format!("reading engine/data/collation: {e}"))?
    {
        let path = entry.map_err(|e| e.to_string())?.path();
        if let Some(name) = path.file_name() {
            std::fs::copy(&path, collation.join(name))
                .map_err(|e| format!("copying {}: {e}", path.display()))?;
        }
    }
    // Likewise the time-zone database (`engine::tzdata`), from `tz/` beside it.
    let tz = pkg.join("tz");
    std::fs::create_dir_all(&tz).map_err(|e| format!("creating {}: {e}", tz.display()))?;
    std::fs::copy(root().join("engine/data/tz/tzdb.bin"), tz.join("tzdb.bin"))
        .map_err(|e| format!("copying engine/data/tz/tzdb.bin: {e}"))?;
    let bench = root().join("bench");
    if ["mingo", "bson"]
        .iter()
        .any(|m| !bench.join("node_modules").join(m).is_dir())
    {
        run_cmd(
            Command::new("npm")
                .args(["ci", "--no-audit", "--no-fund", "--silent"])
                .current_dir(&bench),
        )?;
    }
    // `runCommandObject` must hand out what js-bson makes of `runCommandBson`'s reply.
    run_cmd(
        Command::new("node")
            .arg(bench.join("reply_check.mjs"))
            .arg(pkg.join("sprout_node.js"))
            .current_dir(&bench),
    )?;
    let mut node = Command::new("node");
    node.arg(bench.join("compare.mjs"))
        .arg(pkg.join("sprout_node.js"))
        .args(before)
        .current_dir(&bench);
    run_cmd(&mut node)
}
