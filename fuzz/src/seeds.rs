//! Seed corpora for the fuzz targets, taken from the conformance data (`../shared/conformance`:
//! the CRUD specification's filters, updates, projections and pipelines; the BSON corpus'
//! Extended JSON; the DocumentDB transcripts' commands; MongoDB's jstests) and from the lessons'
//! command blocks. `fuzz-seeds <dir>` writes them as one file per seed under `<dir>/<target>/`;
//! nothing generated is committed (the committed seeds are `fuzz/seeds/<target>/`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

/// Seeds per target: the bytes of each input, deduplicated.
#[derive(Default)]
pub struct Corpora {
    pub by_target: BTreeMap<&'static str, BTreeSet<Vec<u8>>>,
}

/// At most this many seeds per target (the largest sources have thousands of near-duplicates).
const MAX_PER_TARGET: usize = 4000;
/// Seeds longer than this are left out (libFuzzer's inputs are capped at 4 KiB by `xtask fuzz`).
const MAX_SEED_BYTES: usize = 4096;

impl Corpora {
    fn add(&mut self, target: &'static str, bytes: Vec<u8>) {
        if bytes.is_empty() || bytes.len() > MAX_SEED_BYTES {
            return;
        }
        let set = self.by_target.entry(target).or_default();
        if set.len() < MAX_PER_TARGET {
            set.insert(bytes);
        }
    }

    fn add_json(&mut self, target: &'static str, value: &Value) {
        self.add(target, value.to_string().into_bytes());
    }

    /// Shell code: as text for the preprocessing target, as a text-mode program (first byte 0)
    /// for the shell target.
    fn add_shell_code(&mut self, code: &str) {
        self.add("preprocess", code.as_bytes().to_vec());
        let mut program = vec![0u8];
        program.extend_from_slice(code.as_bytes());
        self.add("shell_program", program);
    }

    /// Writes every seed as `<dir>/<target>/<hash>`; returns how many files were written.
    pub fn write(&self, dir: &Path) -> std::io::Result<usize> {
        let mut written = 0;
        for (target, seeds) in &self.by_target {
            let sub = dir.join(target);
            // Generated seeds only: last run's files go, so a smaller source means fewer seeds.
            if sub.is_dir() {
                std::fs::remove_dir_all(&sub)?;
            }
            std::fs::create_dir_all(&sub)?;
            for seed in seeds {
                std::fs::write(sub.join(format!("{:016x}", fnv1a(seed))), seed)?;
                written += 1;
            }
        }
        Ok(written)
    }
}

/// A stable 64-bit name for a seed (FNV-1a).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The conformance data folder: `$SPROUT_CONFORMANCE`, else `shared/conformance` beside the
/// workspace root or one level further up (a worktree under `wt/`).
pub fn conformance_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("SPROUT_CONFORMANCE") {
        return Some(PathBuf::from(dir));
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent()?;
    ["../shared/conformance", "../../shared/conformance"]
        .iter()
        .map(|rel| root.join(rel))
        .find(|p| p.is_dir())
}

/// Every seed from the conformance data (when present) and the lessons.
pub fn collect() -> Corpora {
    let mut corpora = Corpora::default();
    if let Some(dir) = conformance_dir() {
        let specs = dir.join("mongodb-specifications/source");
        for file in files_under(&specs.join("crud"), "json") {
            if let Some(v) = read_json(&file) {
                walk_spec(&v, &mut corpora);
            }
        }
        for file in files_under(&specs.join("bson-corpus"), "json") {
            if let Some(v) = read_json(&file) {
                walk_bson_corpus(&v, &mut corpora);
            }
        }
        for file in files_under(&dir.join("documentdb-regress"), "out") {
            if let Ok(text) = std::fs::read_to_string(&file) {
                walk_transcript(&text, &mut corpora);
            }
        }
        // MongoDB's jstests as shell programs: every third file of the core and aggregation
        // suites (the shell target starts a shell per input, so its seeds are kept few).
        for sub in ["jstests/core", "jstests/aggregation"] {
            let files = files_under(&dir.join("mongodb-jstests").join(sub), "js");
            for file in files.iter().step_by(3) {
                if let Ok(text) = std::fs::read_to_string(file) {
                    corpora.add_shell_code(&text);
                }
            }
        }
    }
    if let Ok(lessons) = lessons::built_in() {
        for lesson in lessons {
            for step in &lesson.steps {
                corpora.add_shell_code(&step.command);
            }
            for exercise in &lesson.exercises {
                corpora.add_shell_code(&exercise.solution);
                for answer in exercise.right.iter().chain(&exercise.wrong) {
                    corpora.add_shell_code(answer);
                }
            }
        }
    }
    corpora
}

fn read_json(path: &Path) -> Option<Value> {
    serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
}

/// Files under `dir` (recursively) whose names end with `.ext`, sorted.
fn files_under(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == ext) {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The CRUD specification's operations: `filter`, `update` (with its `arrayFilters`),
/// `projection`, `pipeline`, wherever they appear; documents as Extended JSON seeds.
fn walk_spec(v: &Value, corpora: &mut Corpora) {
    match v {
        Value::Object(map) => {
            if let Some(filter @ Value::Object(_)) = map.get("filter") {
                corpora.add_json("filter", filter);
            }
            if let Some(update @ (Value::Object(_) | Value::Array(_))) = map.get("update") {
                let mut statement = serde_json::Map::new();
                statement.insert(
                    "q".into(),
                    map.get("filter")
                        .cloned()
                        .unwrap_or(Value::Object(Default::default())),
                );
                statement.insert("u".into(), update.clone());
                if let Some(filters) = map.get("arrayFilters") {
                    statement.insert("arrayFilters".into(), filters.clone());
                }
                corpora.add_json("update", &Value::Object(statement));
            }
            if let Some(projection @ Value::Object(_)) = map.get("projection") {
                corpora.add_json("projection", projection);
            }
            if let Some(pipeline @ Value::Array(_)) = map.get("pipeline") {
                corpora.add_json("pipeline", pipeline);
            }
            if let Some(Value::Array(docs)) = map.get("documents") {
                for d in docs {
                    corpora.add_json("extjson", d);
                }
            }
            for child in map.values() {
                walk_spec(child, corpora);
            }
        }
        Value::Array(items) => items.iter().for_each(|i| walk_spec(i, corpora)),
        _ => {}
    }
}

/// The BSON corpus: every valid, degenerate and rejected Extended JSON text.
fn walk_bson_corpus(v: &Value, corpora: &mut Corpora) {
    let texts = |list: Option<&Value>, keys: &[&str], corpora: &mut Corpora| {
        if let Some(Value::Array(cases)) = list {
            for case in cases {
                for key in keys {
                    if let Some(Value::String(s)) = case.get(*key) {
                        corpora.add("extjson", s.as_bytes().to_vec());
                    }
                }
            }
        }
    };
    texts(
        v.get("valid"),
        &["canonical_extjson", "relaxed_extjson", "degenerate_extjson"],
        corpora,
    );
    texts(v.get("parseErrors"), &["string"], corpora);
}

/// A DocumentDB transcript: each single-quoted JSON text is a command (`find`, `aggregate`,
/// `update`) or a query operand (`document @@ '{…}'`).
fn walk_transcript(text: &str, corpora: &mut Corpora) {
    for line in text.lines() {
        for quoted in single_quoted(line) {
            let Ok(value) = serde_json::from_str::<Value>(quoted) else {
                continue;
            };
            if line.contains("@@") {
                corpora.add_json("filter", &value);
            }
            // `bson_dollar_project(document, '{…}')` and the projection tests' operands.
            if line.contains("project") && value.is_object() {
                corpora.add_json("projection", &value);
            }
            if let Some(Value::Array(updates)) = value.get("updates") {
                for u in updates {
                    corpora.add_json("update", u);
                }
            }
            walk_spec(&value, corpora);
        }
    }
}

/// The texts between single quotes that look like JSON documents or arrays.
fn single_quoted(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(start) = rest.find('\'') {
        let after = &rest[start + 1..];
        let Some(end) = after.find('\'') else {
            break;
        };
        let inner = after[..end].trim();
        if inner.starts_with('{') || inner.starts_with('[') {
            out.push(inner);
        }
        rest = &after[end + 1..];
    }
    out
}
