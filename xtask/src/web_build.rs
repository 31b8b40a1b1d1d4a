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
    // The locales' collation tailorings, read by the worker when a locale is first used
    // (engine/src/collation/data.rs, web/src/worker/collation_data.rs).
    let collation = dist.join("collation");
    let _ = std::fs::remove_dir_all(&collation);
    std::fs::create_dir_all(&collation)
        .map_err(|e| format!("creating {}: {e}", collation.display()))?;
    copy_dir(&root().join("engine/data/collation"), &collation)?;
    // The time-zone database, read by the worker when a named zone is first used
    // (engine/src/expression/date/tzdata.rs).
    let tz = dist.join("tz");
    let _ = std::fs::remove_dir_all(&tz);
    std::fs::create_dir_all(&tz).map_err(|e| format!("creating {}: {e}", tz.display()))?;
    copy_dir(&root().join("engine/data/tz"), &tz)?;
    write_lesson_bundle(&dist)?;
    stamp_service_worker(&dist)?;
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

/// Writes the built-in lessons into one file, `lessons/built-in.txt` (`lessons::BUNDLE_PATH`),
/// in `lessons::bundle`'s format: the wasm modules link no lesson text, the page reads this file
/// to list the lessons and the shell worker to open one (`web/src/page/lessons/library.rs`,
/// `web/src/worker/lessons.rs`). Each file of `lessons/content/`, in name order, after a line
/// `<<<sprout-lesson <file name>`; `lessons`' tests check that this is exactly `BUILT_IN`.
fn write_lesson_bundle(dist: &std::path::Path) -> Result<(), String> {
    let content = root().join("lessons/content");
    let mut names: Vec<String> = std::fs::read_dir(&content)
        .map_err(|e| format!("reading {}: {e}", content.display()))?
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md"))
        .collect();
    names.sort();
    let mut text = String::new();
    for name in &names {
        let path = content.join(name);
        let src = std::fs::read_to_string(&path)
            .map_err(|e| format!("reading {}: {e}", path.display()))?;
        text.push_str("<<<sprout-lesson ");
        text.push_str(name);
        text.push('\n');
        text.push_str(&src);
        if !src.ends_with('\n') {
            text.push('\n');
        }
    }
    let folder = dist.join("lessons");
    std::fs::create_dir_all(&folder).map_err(|e| format!("creating {}: {e}", folder.display()))?;
    let file = folder.join("built-in.txt");
    std::fs::write(&file, text).map_err(|e| format!("writing {}: {e}", file.display()))
}

/// Writes the build id into `dist/sw.js` (its cache name): a hash of every file the site serves,
/// so a new build gets a new cache and an unchanged one keeps its own.
fn stamp_service_worker(dist: &std::path::Path) -> Result<(), String> {
    use std::hash::{Hash, Hasher};
    let sw = dist.join("sw.js");
    let Ok(text) = std::fs::read_to_string(&sw) else {
        return Ok(());
    };
    let mut files = Vec::new();
    list_files(dist, &mut files);
    files.sort();
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for file in files.iter().filter(|f| **f != sw) {
        file.strip_prefix(dist).unwrap_or(file).hash(&mut hasher);
        std::fs::read(file).unwrap_or_default().hash(&mut hasher);
    }
    let id = format!("{:016x}", hasher.finish());
    // Every file but the example course pages, the collation data and the time-zone database
    // (fetched, and then cached, only when a locale or a zone is used), relative to the site's
    // folder. The lessons' bundle is listed: the navigator reads it at start, and offline too.
    let listed: Vec<String> = files
        .iter()
        .filter(|f| **f != sw)
        .filter_map(|f| f.strip_prefix(dist).ok())
        .map(|f| f.to_string_lossy().replace('\\', "/"))
        .filter(|f| {
            !f.starts_with("examples/") && !f.starts_with("collation/") && !f.starts_with("tz/")
        })
        .map(|f| format!("'./{f}'"))
        .collect();
    let text = text.replace("__SPROUT_BUILD__", &id).replace(
        "const BUILT_FILES = [];",
        &format!("const BUILT_FILES = [{}];", listed.join(", ")),
    );
    std::fs::write(&sw, text).map_err(|e| format!("writing {}: {e}", sw.display()))
}

fn list_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            list_files(&path, out);
        } else {
            out.push(path);
        }
    }
}

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
