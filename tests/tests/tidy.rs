//! `tidy`: the architecture invariants a program can check (issue #21), over the workspace's
//! source files. Each checker is a pure function over file paths and texts, shown failing on a
//! synthetic bad input in its own unit test; `workspace_*` tests run them on the real tree.
//!
//! The invariants (see `docs/ARCHITECTURE.md`):
//! - the engine depends on no browser or JavaScript crate (`engine/Cargo.toml`);
//! - `Filter::parse` is called only by the matcher, by `query/find.rs` (a find's filter, the
//!   input of the canonical query) and by the listed owners of other filter arguments; never
//!   by the planner, the executor or explain;
//! - no source file over 1,000 lines outside tests;
//! - every Rust source file opens with a `//!` module doc;
//! - `catalog`, `index` and `value` import nothing from `query`, `planner`, `exec`, `commands`;
//! - the shell and web crates use only the listed engine module paths (a shrinking list: a new
//!   path fails until it is added here on purpose);
//! - the engine's top-level modules form no circle (`crate::a::` in `a/` and `crate::b::` in
//!   `b/` never both): each layer is built on the ones below it only;
//! - the `lessons` crate is pure: it depends on neither the shell nor the engine (nor
//!   `lesson-runner`), so the page's wasm, which uses it, does not link them through it;
//! - nobody reads the shell's `Type "it" for more` line back: whether a cursor has more is
//!   `shell::Evaluation::more`, and only the shell writes the line.

use std::path::{Path, PathBuf};

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ sits in the workspace")
        .to_path_buf()
}

/// The `.rs` files under `dir`, as paths relative to the workspace root with `/` separators.
fn rust_files(root: &Path, dir: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![root.join(dir)];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            let name = e.file_name().to_string_lossy().to_string();
            if p.is_dir() {
                if !matches!(
                    name.as_str(),
                    "target" | "node_modules" | ".git" | "pkg" | "dist"
                ) {
                    stack.push(p);
                }
            } else if name.ends_with(".rs") {
                let rel = p
                    .strip_prefix(root)
                    .expect("under the root")
                    .to_string_lossy()
                    .replace('\\', "/");
                let text = std::fs::read_to_string(&p).unwrap_or_default();
                out.push((rel, text));
            }
        }
    }
    out.sort();
    out
}

const CRATE_DIRS: &[&str] = &[
    "engine",
    "shell",
    "web",
    "lessons",
    "lesson-runner",
    "xtask",
    "tests",
    "bench",
];

fn all_rust_files() -> Vec<(String, String)> {
    let root = workspace_root();
    CRATE_DIRS
        .iter()
        .flat_map(|d| rust_files(&root, d))
        .collect()
}

/// Whether a file is test code (a test suite, a `tests.rs`/`*_tests.rs` module, a fixture).
fn is_test_file(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    path.starts_with("tests/")
        || path.contains("/tests/")
        || name == "tests.rs"
        || name.ends_with("_tests.rs")
}

/// The file's text without its trailing `#[cfg(test)] mod name { ... }` module, and without
/// comment lines (a doc link is not an import).
fn non_test_code(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut end = lines.len();
    for (i, l) in lines.iter().enumerate() {
        if l.trim() == "#[cfg(test)]"
            && lines[i + 1..]
                .iter()
                .find(|n| !n.trim().is_empty())
                .is_some_and(|n| n.trim_start().starts_with("mod ") && n.trim_end().ends_with('{'))
        {
            end = i;
            break;
        }
    }
    lines[..end]
        .iter()
        .filter(|l| !l.trim_start().starts_with("//"))
        .copied()
        .collect::<Vec<_>>()
        .join("\n")
}

// ---- 1. No browser or JavaScript crate in the engine --------------------------------------

const BROWSER_CRATES: &[&str] = &[
    "wasm-bindgen",
    "wasm-bindgen-futures",
    "js-sys",
    "web-sys",
    "serde-wasm-bindgen",
    "console_error_panic_hook",
    "boa_engine",
    "boa_gc",
    "leptos",
    "gloo",
    "idb",
    "rexie",
];

/// The browser or JavaScript crates a Cargo manifest's `[dependencies]` name.
fn browser_dependencies(manifest: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut in_deps = false;
    for line in manifest.lines() {
        let t = line.trim();
        if t.starts_with('[') {
            in_deps =
                t == "[dependencies]" || t.starts_with("[target.") && t.ends_with("dependencies]");
            continue;
        }
        if !in_deps || t.starts_with('#') || t.is_empty() {
            continue;
        }
        let name = t
            .split(['=', '.'])
            .next()
            .unwrap_or("")
            .trim()
            .trim_matches('"');
        if BROWSER_CRATES.iter().any(|b| {
            name == *b || name.starts_with(&format!("{b}-")) || name.starts_with(&format!("{b}_"))
        }) {
            found.push(name.to_string());
        }
    }
    found
}

#[test]
fn browser_dependency_checker_catches_one() {
    let bad = "[package]\nname = \"engine\"\n[dependencies]\nbson = \"3\"\nweb-sys = { version = \"0.3\" }\nleptos_dom = \"0.8\"\n[dev-dependencies]\njs-sys = \"0.3\"\n";
    assert_eq!(browser_dependencies(bad), vec!["web-sys", "leptos_dom"]);
    assert!(browser_dependencies("[dependencies]\nbson = \"3\"\n").is_empty());
}

#[test]
fn workspace_engine_has_no_browser_dependency() {
    let manifest = std::fs::read_to_string(workspace_root().join("engine/Cargo.toml")).unwrap();
    assert_eq!(browser_dependencies(&manifest), Vec::<String>::new());
}

// ---- 2. Filter::parse only where filters are owned ----------------------------------------

/// Files outside the matcher that parse a filter, each with why. Planner, exec and explain
/// never do: they work on the canonical query's parsed clauses.
const FILTER_PARSE_ALLOWED: &[(&str, &str)] = &[
    (
        "engine/src/query/find.rs",
        "FindSpec: a find's filter, parsed once; the canonical query's input",
    ),
    (
        "engine/src/pipeline/stages/match_stage.rs",
        "$match's filter, parsed with the pipeline",
    ),
    (
        "engine/src/pipeline/stages/lookup.rs",
        "$lookup: the join filter built per outer document",
    ),
    (
        "engine/src/pipeline/stages/graph_lookup.rs",
        "restrictSearchWithMatch; the $in filter built per depth",
    ),
    (
        "engine/src/pipeline/stages/geo_near.rs",
        "$geoNear's query, and its near clause built per run",
    ),
    (
        "engine/src/update/positional.rs",
        "arrayFilters, parsed once per command",
    ),
    (
        "engine/src/update/pull.rs",
        "$pull conditions, parsed once per update",
    ),
    ("engine/src/validation/mod.rs", "a collection's validator"),
    (
        "engine/src/validation/definition.rs",
        "a validator, checked when create or collMod defines it",
    ),
    (
        "engine/src/validation/explain.rs",
        "errInfo details: which validator clause failed",
    ),
    ("engine/src/index/spec.rs", "partialFilterExpression"),
    (
        "engine/src/commands/aggregate_write.rs",
        "$merge's `on` equality built per document",
    ),
];

/// Files that call `Filter::parse*` outside the matcher and the allowed owners.
fn filter_parse_violations(files: &[(String, String)], allowed: &[(&str, &str)]) -> Vec<String> {
    files
        .iter()
        .filter(|(p, _)| p.starts_with("engine/src/") && !p.starts_with("engine/src/matcher/"))
        .filter(|(p, _)| !is_test_file(p))
        .filter(|(p, _)| !allowed.iter().any(|(a, _)| a == p))
        .filter(|(_, t)| non_test_code(t).contains("Filter::parse"))
        .map(|(p, _)| p.clone())
        .collect()
}

#[test]
fn filter_parse_checker_catches_one() {
    let files = vec![
        (
            "engine/src/planner/x.rs".to_string(),
            "//! x\nfn f() { let f = Filter::parse(&d)?; }\n".to_string(),
        ),
        (
            "engine/src/planner/y.rs".to_string(),
            "//! y\nfn g() {}\n#[cfg(test)]\nmod tests {\n    fn t() { Filter::parse(&d); }\n}\n"
                .to_string(),
        ),
        (
            "engine/src/matcher/parse.rs".to_string(),
            "//! m\nfn h() { Filter::parse_in(&d, s) }\n".to_string(),
        ),
    ];
    assert_eq!(
        filter_parse_violations(&files, &[]),
        vec!["engine/src/planner/x.rs"]
    );
    assert!(filter_parse_violations(&files, &[("engine/src/planner/x.rs", "why")]).is_empty());
}

#[test]
fn workspace_filter_parse_only_where_allowed() {
    let files = all_rust_files();
    assert_eq!(
        filter_parse_violations(&files, FILTER_PARSE_ALLOWED),
        Vec::<String>::new(),
        "parse filters in the matcher or canonicalisation; the planner reads CanonicalQuery"
    );
    // The allow-list only shrinks: every entry still parses.
    for (path, why) in FILTER_PARSE_ALLOWED {
        let text = files.iter().find(|(p, _)| p == path).map(|(_, t)| t);
        assert!(
            text.is_some_and(|t| non_test_code(t).contains("Filter::parse")),
            "{path} ({why}) no longer parses a filter: remove it from FILTER_PARSE_ALLOWED"
        );
    }
}

// ---- 3. No file over 1,000 lines outside tests ----------------------------------------------

const MAX_LINES: usize = 1000;

fn long_files(files: &[(String, String)]) -> Vec<(String, usize)> {
    files
        .iter()
        .filter(|(p, _)| !is_test_file(p))
        .map(|(p, t)| (p.clone(), t.lines().count()))
        .filter(|(_, n)| *n > MAX_LINES)
        .collect()
}

#[test]
fn long_file_checker_catches_one() {
    let long = "//! x\n".to_string() + &"fn f() {}\n".repeat(1000);
    let files = vec![
        ("engine/src/big.rs".to_string(), long.clone()),
        ("engine/src/ok_tests.rs".to_string(), long.clone()),
        ("tests/conformance/big.rs".to_string(), long),
        ("engine/src/small.rs".to_string(), "//! s\n".to_string()),
    ];
    assert_eq!(
        long_files(&files),
        vec![("engine/src/big.rs".to_string(), 1001)]
    );
}

#[test]
fn workspace_has_no_file_over_1000_lines() {
    assert_eq!(long_files(&all_rust_files()), Vec::<(String, usize)>::new());
}

// ---- 4. Every source file opens with a module doc -------------------------------------------

fn files_without_module_doc(files: &[(String, String)]) -> Vec<String> {
    files
        .iter()
        .filter(|(_, t)| {
            !t.lines()
                .find(|l| !l.trim().is_empty())
                .is_some_and(|l| l.starts_with("//!"))
        })
        .map(|(p, _)| p.clone())
        .collect()
}

#[test]
fn module_doc_checker_catches_one() {
    let files = vec![
        ("a.rs".to_string(), "\n//! documented\nuse x;\n".to_string()),
        ("b.rs".to_string(), "use x;\n//! too late\n".to_string()),
        ("c.rs".to_string(), "// a plain comment\n".to_string()),
        ("d.rs".to_string(), String::new()),
    ];
    assert_eq!(
        files_without_module_doc(&files),
        vec!["b.rs", "c.rs", "d.rs"]
    );
}

#[test]
fn workspace_files_open_with_module_docs() {
    assert_eq!(
        files_without_module_doc(&all_rust_files()),
        Vec::<String>::new()
    );
}

// ---- 5. Lower layers import nothing from upper ones ------------------------------------------

const LOWER: &[&str] = &["catalog", "index", "value"];
const UPPER: &[&str] = &["query", "planner", "exec", "commands"];

/// `(file, upper module)` for each lower-layer file that names an upper-layer module.
fn upward_imports(files: &[(String, String)]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (p, t) in files {
        let Some(rest) = p.strip_prefix("engine/src/") else {
            continue;
        };
        let top = rest.split('/').next().unwrap_or("").trim_end_matches(".rs");
        if !LOWER.contains(&top) || is_test_file(p) {
            continue;
        }
        let code = non_test_code(t);
        for up in UPPER {
            if code.contains(&format!("crate::{up}::")) || code.contains(&format!("crate::{up}}}"))
            {
                out.push((p.clone(), up.to_string()));
            }
        }
    }
    out
}

#[test]
fn upward_import_checker_catches_one() {
    let files = vec![
        (
            "engine/src/catalog/x.rs".to_string(),
            "//! x\n/// See [`crate::planner::y`].\nuse crate::planner::plan_cache::PlanCache;\n"
                .to_string(),
        ),
        (
            "engine/src/value/y.rs".to_string(),
            "//! y\n// crate::exec::z in a comment\nuse crate::error::Result;\n".to_string(),
        ),
        (
            "engine/src/planner/z.rs".to_string(),
            "//! z\nuse crate::exec::Stage;\n".to_string(),
        ),
    ];
    assert_eq!(
        upward_imports(&files),
        vec![("engine/src/catalog/x.rs".to_string(), "planner".to_string())]
    );
}

#[test]
fn workspace_lower_layers_import_nothing_from_upper_ones() {
    assert_eq!(
        upward_imports(&all_rust_files()),
        Vec::<(String, String)>::new()
    );
}

// ---- 6. The engine paths the shell and web crates use ----------------------------------------

/// Engine module paths the shell and the web crate use today beside the crate root's items
/// (`engine::Engine`, `engine::Error`...). A shrinking list: the engine's public surface is to
/// become a small documented set (issue #21), and a new path fails this test until added.
const CLIENT_ENGINE_PATHS: &[&str] = &[
    "engine::catalog::Namespace",
    "engine::catalog::Namespace::new",
    "engine::catalog::validate_db_name",
    "engine::clock::Clock",
    "engine::clock::SimulatedClock",
    // The shell worker tells the engine how to read a collation locale's tailorings, which the
    // wasm build does not link (web/src/worker/collation_data.rs).
    "engine::collation::data::set_tailoring_loader",
    "engine::error::ErrorCode::from_code",
    // The page's worker installs the engine's step-growth allocator (web/src/bin/worker.rs).
    "engine::grow_in_steps::GrowInSteps",
    "engine::matcher::MatchContext",
    "engine::matcher::WhereEvaluator",
    // One compiled stable sort for the shell's and the worker's sorts too (issue #22,
    // engine/src/sort_slice.rs); the page keeps the standard library's (it uses no engine code).
    "engine::sort_slice::sort",
    "engine::sort_slice::sort_by",
    "engine::sort_slice::sort_by_key",
    "engine::storage",
    // The shell worker's IndexedDB layer builds the engine from a stored snapshot
    // (web/src/worker/shared_engine.rs, engine_of).
    "engine::storage::Snapshot",
    // Likewise the time-zone database, which the wasm build does not link either
    // (web/src/worker/shell_worker.rs, engine/src/expression/date/tzdata.rs).
    "engine::tzdata::set_zone_loader",
    "engine::value::decimal_parse::parse_decimal128",
    "engine::value::display::type_name",
    "engine::value::extjson::parse_value",
    "engine::value::extjson::to_json_with",
];

/// Each `engine::module::...` path a file names (not `base64::engine::...`, not comments).
fn engine_paths(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
        let bytes = line.as_bytes();
        let mut from = 0;
        while let Some(at) = line[from..].find("engine::") {
            let start = from + at;
            from = start + "engine::".len();
            let before = start.checked_sub(1).map(|i| bytes[i]);
            if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b':') {
                continue;
            }
            let path: String = line[start..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            let path = path.trim_end_matches(':').to_string();
            // `engine::Engine`, `engine::Error`: crate-root items are the public surface.
            let second = path.split("::").nth(1).unwrap_or("");
            if second.starts_with(|c: char| c.is_ascii_lowercase()) {
                out.push(path);
            }
        }
    }
    out
}

/// Whether a file belongs to a client crate's code (its test suites may reach further).
fn is_client_code(path: &str) -> bool {
    ["shell/", "web/", "lessons/", "lesson-runner/"]
        .iter()
        .any(|c| path.starts_with(c))
        && !is_test_file(path)
}

/// The engine's modules, from `pub mod name;` lines of its `lib.rs`.
fn engine_modules(lib_rs: &str) -> Vec<String> {
    lib_rs
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .map(|m| m.trim_end_matches(';').trim().to_string())
        .collect()
}

fn unlisted_engine_paths(
    files: &[(String, String)],
    modules: &[String],
    allowed: &[&str],
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (p, t) in files {
        if !is_client_code(p) {
            continue;
        }
        for path in engine_paths(t) {
            let module = path.split("::").nth(1).unwrap_or("");
            if modules.iter().any(|m| m == module) && !allowed.contains(&path.as_str()) {
                out.push((p.clone(), path));
            }
        }
    }
    out
}

#[test]
fn engine_path_checker_catches_one() {
    let files = vec![
        (
            "shell/src/x.rs".to_string(),
            "//! x\nuse engine::planner::plan_cache::PlanCache;\nuse engine::Engine;\nengine::reply_ok(d);\nlet b = base64::engine::general_purpose::STANDARD;\n// engine::exec::nothing\n".to_string(),
        ),
        ("engine/src/y.rs".to_string(), "use engine::exec::x;\n".to_string()),
    ];
    let modules = engine_modules("pub mod planner;\npub mod exec;\nmod private;\n");
    assert_eq!(modules, vec!["planner", "exec"]);
    assert_eq!(
        unlisted_engine_paths(&files, &modules, &[]),
        vec![(
            "shell/src/x.rs".to_string(),
            "engine::planner::plan_cache::PlanCache".to_string()
        )]
    );
    assert!(
        unlisted_engine_paths(
            &files,
            &modules,
            &["engine::planner::plan_cache::PlanCache"]
        )
        .is_empty()
    );
}

#[test]
fn workspace_clients_use_only_listed_engine_paths() {
    let files = all_rust_files();
    let lib_rs = std::fs::read_to_string(workspace_root().join("engine/src/lib.rs")).unwrap();
    let modules = engine_modules(&lib_rs);
    assert_eq!(
        unlisted_engine_paths(&files, &modules, CLIENT_ENGINE_PATHS),
        Vec::<(String, String)>::new(),
        "use the engine through commands or a crate-root item; or list the path on purpose"
    );
    let used: Vec<String> = files
        .iter()
        .filter(|(p, _)| is_client_code(p))
        .flat_map(|(_, t)| engine_paths(t))
        .collect();
    for path in CLIENT_ENGINE_PATHS {
        assert!(
            used.iter().any(|u| u == path),
            "{path} is no longer used: remove it from CLIENT_ENGINE_PATHS"
        );
    }
}

// ---- 7. No circle between the engine's top-level modules -------------------------------------

/// `(module, module it names)` for each `crate::name` a non-test engine source file names,
/// between different top-level modules (`engine/src/<module>/…` or `engine/src/<module>.rs`).
fn module_edges(files: &[(String, String)]) -> std::collections::BTreeSet<(String, String)> {
    let top = |path: &str| -> Option<String> {
        let rest = path.strip_prefix("engine/src/")?;
        let first = rest.split('/').next()?.trim_end_matches(".rs");
        (first != "lib").then(|| first.to_string())
    };
    let modules: std::collections::BTreeSet<String> =
        files.iter().filter_map(|(p, _)| top(p)).collect();
    let mut edges = std::collections::BTreeSet::new();
    for (p, t) in files {
        let Some(from) = top(p) else { continue };
        if is_test_file(p) {
            continue;
        }
        let code = non_test_code(t);
        let mut rest = code.as_str();
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if name != from && modules.contains(&name) {
                edges.insert((from.clone(), name));
            }
        }
    }
    edges
}

/// The circles of the module graph: each strongly connected set of two or more modules, sorted.
fn module_circles(edges: &std::collections::BTreeSet<(String, String)>) -> Vec<Vec<String>> {
    let nodes: std::collections::BTreeSet<&String> =
        edges.iter().flat_map(|(a, b)| [a, b]).collect();
    let reaches = |from: &String, to: &String| -> bool {
        let mut seen = std::collections::BTreeSet::new();
        let mut stack = vec![from];
        while let Some(n) = stack.pop() {
            for (a, b) in edges {
                if a == n && seen.insert(b) {
                    if b == to {
                        return true;
                    }
                    stack.push(b);
                }
            }
        }
        false
    };
    let mut circles: Vec<Vec<String>> = Vec::new();
    for n in &nodes {
        if circles.iter().any(|c| c.contains(n)) {
            continue;
        }
        let circle: Vec<String> = nodes
            .iter()
            .filter(|m| *m == n || (reaches(n, m) && reaches(m, n)))
            .map(|m| m.to_string())
            .collect();
        if circle.len() > 1 {
            circles.push(circle);
        }
    }
    circles
}

#[test]
fn module_circle_checker_catches_one() {
    let files = vec![
        (
            "engine/src/value/order.rs".to_string(),
            "//! o\nuse crate::collation::compare_strings;\n".to_string(),
        ),
        (
            "engine/src/collation/mod.rs".to_string(),
            "//! c\nuse crate::value::display::type_name;\n".to_string(),
        ),
        (
            "engine/src/matcher/mod.rs".to_string(),
            "//! m\nuse crate::value::compare_values;\n// crate::planner in a comment\n"
                .to_string(),
        ),
        (
            "engine/src/planner/mod.rs".to_string(),
            "//! p\nuse crate::matcher::Filter;\n".to_string(),
        ),
    ];
    assert_eq!(
        module_circles(&module_edges(&files)),
        vec![vec!["collation".to_string(), "value".to_string()]]
    );
}

#[test]
fn workspace_engine_modules_form_no_circle() {
    let circles = module_circles(&module_edges(&all_rust_files()));
    assert_eq!(circles, Vec::<Vec<String>>::new());
}

// ---- 8. The lessons crate is pure (no shell, no engine) ---------------------------------------

/// The crates a Cargo manifest's `[dependencies]` section names (not dev- or build-dependencies).
fn dependencies(manifest: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut in_deps = false;
    for line in manifest.lines() {
        let t = line.trim();
        if t.starts_with('[') {
            in_deps = t == "[dependencies]";
            continue;
        }
        if !in_deps || t.starts_with('#') || t.is_empty() {
            continue;
        }
        let name = t
            .split(['=', '.'])
            .next()
            .unwrap_or("")
            .trim()
            .trim_matches('"');
        found.push(name.to_string());
    }
    found
}

/// Where a crate that must stay pure reaches the shell, the engine or the lesson runner: in its
/// manifest's dependencies or in its non-test code.
fn impure_lessons(manifest: &str, files: &[(String, String)]) -> Vec<String> {
    const FORBIDDEN: &[&str] = &["shell", "engine", "lesson-runner"];
    let mut out: Vec<String> = dependencies(manifest)
        .into_iter()
        .filter(|d| FORBIDDEN.contains(&d.as_str()))
        .map(|d| format!("Cargo.toml depends on {d}"))
        .collect();
    for (p, t) in files {
        if is_test_file(p) {
            continue;
        }
        let code = non_test_code(t);
        for name in ["shell::", "engine::", "lesson_runner::"] {
            let uses = code.match_indices(name).any(|(at, _)| {
                at == 0
                    || !code.as_bytes()[at - 1].is_ascii_alphanumeric()
                        && code.as_bytes()[at - 1] != b'_'
                        && code.as_bytes()[at - 1] != b':'
            });
            if uses {
                out.push(format!("{p} uses {name}"));
            }
        }
    }
    out
}

#[test]
fn pure_lessons_checker_catches_one() {
    let manifest = "[dependencies]\nbson.workspace = true\nshell.workspace = true\n[dev-dependencies]\nengine.workspace = true\n";
    let files = vec![
        (
            "lessons/src/a.rs".to_string(),
            "//! a\nuse shell::printer::format_value;\nlet e = base64::engine::STANDARD;\n"
                .to_string(),
        ),
        (
            "lessons/src/b.rs".to_string(),
            "//! b\nfn f() {}\n#[cfg(test)]\nmod tests {\n    use engine::Engine;\n}\n".to_string(),
        ),
    ];
    assert_eq!(
        impure_lessons(manifest, &files),
        vec![
            "Cargo.toml depends on shell".to_string(),
            "lessons/src/a.rs uses shell::".to_string(),
        ]
    );
    assert!(impure_lessons("[dependencies]\nbson = \"3\"\n", &files[1..]).is_empty());
}

#[test]
fn workspace_lessons_crate_is_pure() {
    let root = workspace_root();
    let manifest = std::fs::read_to_string(root.join("lessons/Cargo.toml")).unwrap();
    assert_eq!(
        impure_lessons(&manifest, &rust_files(&root, "lessons")),
        Vec::<String>::new(),
        "the lessons crate is what the page links: what needs a shell belongs in lesson-runner"
    );
}

// ---- 9. No one reads "Type "it" for more" back ------------------------------------------------

/// Non-test files outside the shell that name the shell's `Type "it" for more` line (reading
/// printed text back for what `Evaluation::more` says).
fn more_text_readers(files: &[(String, String)]) -> Vec<String> {
    files
        .iter()
        .filter(|(p, _)| !p.starts_with("shell/") && !is_test_file(p))
        .filter(|(_, t)| {
            let code = non_test_code(t);
            code.contains(r#"\"it\" for more"#) || code.contains(r#""it" for more"#)
        })
        .map(|(p, _)| p.clone())
        .collect()
}

#[test]
fn more_text_checker_catches_one() {
    let files = vec![
        (
            "web/src/a.rs".to_string(),
            "//! a\nlet more = r.ends_with(\"Type \\\"it\\\" for more\");\n".to_string(),
        ),
        (
            "web/src/b.rs".to_string(),
            "//! b\nlet more = r.ends_with(r#\"Type \"it\" for more\"#);\n".to_string(),
        ),
        (
            "shell/src/lib.rs".to_string(),
            "//! s\ntext.push_str(\"\\nType \\\"it\\\" for more\");\n".to_string(),
        ),
        (
            "lessons/src/c.rs".to_string(),
            "//! c\n// the shell's Type \"it\" for more line\n#[cfg(test)]\nmod tests {\n    const T: &str = \"Type \\\"it\\\" for more\";\n}\n".to_string(),
        ),
    ];
    assert_eq!(
        more_text_readers(&files),
        vec!["web/src/a.rs".to_string(), "web/src/b.rs".to_string()]
    );
}

#[test]
fn workspace_reads_more_from_the_cursor_not_the_text() {
    assert_eq!(
        more_text_readers(&all_rust_files()),
        Vec::<String>::new(),
        "whether a cursor has more is shell::Evaluation::more"
    );
}

// ---- 10. The web crate's two sides: the page and the shell worker ----------------------------

/// Which side of the web crate a source file is on (issue #21): the page's UI (`web/src/page/`,
/// and `web/src/main.rs`, the `web` binary that runs it), the shell worker (`web/src/worker/`,
/// and `web/src/bin/worker.rs`), or what both share (`web/src/protocol.rs` and `protocol/`, the
/// messages between them; `web/src/indexed_db.rs`, IndexedDB's request plumbing; `lib.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum WebSide {
    Page,
    Worker,
    Shared,
}

/// The side of `path` (a file of `web/src/`), or `None` for a file outside the three.
fn web_side(path: &str) -> Option<WebSide> {
    let rel = path.strip_prefix("web/src/")?;
    if rel.starts_with("page/") || rel == "main.rs" {
        Some(WebSide::Page)
    } else if rel.starts_with("worker/") || rel == "bin/worker.rs" {
        Some(WebSide::Worker)
    } else if matches!(rel, "lib.rs" | "protocol.rs" | "indexed_db.rs")
        || rel.starts_with("protocol/")
    {
        Some(WebSide::Shared)
    } else {
        None
    }
}

/// Whether `code` names `krate::…` as a path of its own (not `other_krate::…`, not `x.krate::`).
fn names_path(code: &str, prefix: &str) -> bool {
    let bytes = code.as_bytes();
    code.match_indices(prefix).any(|(at, _)| {
        !at.checked_sub(1)
            .map(|i| bytes[i])
            .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b':' || b == b'.')
    })
}

/// `(file, what is wrong)` for each web source file that crosses the page/worker line: a file
/// outside `page/`, `worker/` and the shared modules, the page naming the worker's modules, the
/// worker naming the page's, the shared modules naming either.
fn web_side_violations(files: &[(String, String)]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (path, text) in files {
        if !path.starts_with("web/src/") {
            continue;
        }
        let Some(side) = web_side(path) else {
            out.push((
                path.clone(),
                "outside page/, worker/ and protocol".to_string(),
            ));
            continue;
        };
        let code = non_test_code(text);
        let names = |module: &str| {
            names_path(&code, &format!("crate::{module}"))
                || names_path(&code, &format!("web::{module}"))
        };
        let forbidden: &[&str] = match side {
            WebSide::Page => &["worker"],
            WebSide::Worker => &["page"],
            WebSide::Shared if path == "web/src/lib.rs" => &[],
            WebSide::Shared => &["page", "worker"],
        };
        for module in forbidden {
            if names(module) {
                out.push((path.clone(), format!("names {module}")));
            }
        }
    }
    out
}

#[test]
fn web_side_checker_catches_one() {
    let files = vec![
        (
            "web/src/page/a.rs".to_string(),
            "//! a\nuse crate::worker::shell_worker::run;\nuse crate::protocol::Request;\n"
                .to_string(),
        ),
        (
            "web/src/worker/b.rs".to_string(),
            "//! b\nfn f() { crate::page::refresh(s) }\n".to_string(),
        ),
        (
            "web/src/protocol/c.rs".to_string(),
            "//! c\nuse crate::page::i18n::Lang;\n".to_string(),
        ),
        ("web/src/loose.rs".to_string(), "//! d\n".to_string()),
        (
            "web/src/main.rs".to_string(),
            "//! e\nfn main() { web::worker::shell_worker::run(); }\n".to_string(),
        ),
        (
            "web/src/page/ok.rs".to_string(),
            "//! ok\n// see crate::worker::shell_worker\nuse crate::protocol::Request;\nlet my_crate::worker = 1;\n#[cfg(test)]\nmod tests {\n    use crate::worker::lessons;\n}\n"
                .to_string(),
        ),
        (
            "web/src/worker/ok.rs".to_string(),
            "//! ok\nuse crate::protocol::doc_text;\nuse crate::indexed_db::request;\n".to_string(),
        ),
    ];
    let found = web_side_violations(&files);
    let names: Vec<(&str, &str)> = found
        .iter()
        .map(|(p, w)| (p.as_str(), w.as_str()))
        .collect();
    assert_eq!(
        names,
        vec![
            ("web/src/page/a.rs", "names worker"),
            ("web/src/worker/b.rs", "names page"),
            ("web/src/protocol/c.rs", "names page"),
            ("web/src/loose.rs", "outside page/, worker/ and protocol"),
            ("web/src/main.rs", "names worker"),
        ]
    );
}

#[test]
fn workspace_web_page_and_worker_meet_only_in_the_protocol() {
    assert_eq!(
        web_side_violations(&all_rust_files()),
        Vec::<(String, String)>::new(),
        "the page and the shell worker talk through crate::protocol only (docs/ARCHITECTURE.md)"
    );
}

/// The page's files that name the `shell` crate, or an `engine::` path other than
/// `engine::value::…` (Extended JSON text): the page's module (`web_bg`) runs no engine and no
/// shell; those run in the worker. (It does name `lesson_runner`, for the built-in datasets an
/// embedded console offers, and `lessons`, the pure lesson model.)
fn page_engine_or_shell_uses(files: &[(String, String)]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (path, text) in files {
        if web_side(path) != Some(WebSide::Page) || is_test_file(path) {
            continue;
        }
        let code = non_test_code(text);
        if names_path(&code, "shell::") || names_path(&code, "use shell") {
            out.push((path.clone(), "shell".to_string()));
        }
        for (at, _) in code.match_indices("engine::") {
            let before = at.checked_sub(1).map(|i| code.as_bytes()[i]);
            if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b':') {
                continue;
            }
            if !code[at..].starts_with("engine::value::") {
                let path_named: String = code[at..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
                    .collect();
                out.push((path.clone(), path_named));
            }
        }
        if names_path(&code, "use engine;") || names_path(&code, "use engine::{") {
            out.push((path.clone(), "use engine".to_string()));
        }
    }
    out
}

#[test]
fn page_engine_checker_catches_one() {
    let files = vec![
        (
            "web/src/page/a.rs".to_string(),
            "//! a\nuse shell::Shell;\nlet t = engine::value::extjson::to_json_with(v, &f);\n"
                .to_string(),
        ),
        (
            "web/src/page/b.rs".to_string(),
            "//! b\nlet e = engine::Engine::new();\nlet b = base64::engine::general_purpose::STANDARD;\n"
                .to_string(),
        ),
        (
            "web/src/worker/c.rs".to_string(),
            "//! c\nuse shell::Shell;\nuse engine::Engine;\n".to_string(),
        ),
        (
            "web/src/page/d.rs".to_string(),
            "//! d\nlet my_shell::x = 1;\n#[cfg(test)]\nmod tests {\n    use shell::Shell;\n}\n"
                .to_string(),
        ),
    ];
    assert_eq!(
        page_engine_or_shell_uses(&files),
        vec![
            ("web/src/page/a.rs".to_string(), "shell".to_string()),
            (
                "web/src/page/b.rs".to_string(),
                "engine::Engine::new".to_string()
            ),
        ]
    );
}

#[test]
fn workspace_page_runs_no_engine_and_no_shell() {
    assert_eq!(
        page_engine_or_shell_uses(&all_rust_files()),
        Vec::<(String, String)>::new(),
        "the engine and the shell run in the worker; the page asks it through crate::protocol"
    );
}
