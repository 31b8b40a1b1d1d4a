//! Which jstests files a single in-process server cannot run, and why.
//!
//! MongoDB's resmoke suites choose files by the `@tags` comment at the top of each file and by
//! the fixtures the file starts; a file that needs a replica set, sharding, authentication,
//! transactions, fail points, parallel shells, server parameters or the profiler tests the
//! deployment rather than the query language, so the runner skips it with the reason named here
//! (the reasons are the sections of `docs/conformance.md`'s skip list).

/// Tags (from a file's `@tags: [...]` comment) that need more than one in-process server.
const SKIP_TAGS: &[(&str, &str)] = &[
    ("requires_sharding", "needs sharding"),
    ("requires_replication", "needs a replica set"),
    ("requires_auth", "needs authentication"),
    ("uses_transactions", "needs transactions"),
    ("uses_prepare_transaction", "needs transactions"),
    ("uses_snapshot_read_concern", "needs transactions"),
    ("uses_parallel_shell", "needs parallel shells"),
    ("requires_spawning_own_processes", "starts its own servers"),
    ("requires_profiling", "needs the profiler"),
    ("requires_fsync", "needs fsync and locking"),
    ("requires_db_locking", "needs fsync and locking"),
    ("requires_journaling", "needs a storage engine's journal"),
    ("requires_wiredtiger", "needs a storage engine's journal"),
    (
        "uses_testing_only_commands",
        "needs testing-only server commands",
    ),
];

/// Code that needs more than one in-process server, wherever it appears in a file.
const SKIP_CODE: &[(&str, &str)] = &[
    ("ReplSetTest", "needs a replica set"),
    ("ShardingTest", "needs sharding"),
    ("MongoRunner", "starts its own servers"),
    ("startParallelShell", "needs parallel shells"),
    ("configureFailPoint", "needs fail points"),
    ("failpoint", "needs fail points"),
    ("failPoint", "needs fail points"),
    ("setParameter", "needs server parameters"),
    ("getParameter", "needs server parameters"),
    ("createUser", "needs authentication"),
    ("startSession", "needs sessions"),
    ("benchRun", "needs benchRun (parallel load)"),
    ("setProfilingLevel", "needs the profiler"),
    ("getLog", "needs the server log"),
    ("currentOp", "needs currentOp"),
    ("new Mongo(", "opens its own connections"),
];

/// The reason `source` cannot run against one in-process server, or `None`.
pub fn reason(source: &str) -> Option<&'static str> {
    let tags = tags(source);
    for (tag, why) in SKIP_TAGS {
        if tags.iter().any(|t| t.as_str() == *tag) {
            return Some(*why);
        }
    }
    SKIP_CODE
        .iter()
        .find(|(needle, _)| source.contains(needle))
        .map(|(_, why)| *why)
}

/// The names in a file's `@tags: [...]` comment (the resmoke convention), if it has one.
fn tags(source: &str) -> Vec<String> {
    let Some(start) = source.find("@tags:") else {
        return Vec::new();
    };
    let rest = &source[start..];
    let Some(open) = rest.find('[') else {
        return Vec::new();
    };
    let Some(close) = rest[open..].find(']') else {
        return Vec::new();
    };
    rest[open + 1..open + close]
        .split(|c: char| c == ',' || c.is_whitespace() || c == '*' || c == '/')
        .map(|t| t.trim().trim_matches(|c| c == '"' || c == '\''))
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

/// The first file that `source` loads (directly or through the files it loads) and that is
/// missing from `root`: the vendored folder holds `jstests/core`, `jstests/aggregation` and
/// `jstests/libs` only, and some libs load helpers from other folders.
pub fn missing_load(root: &std::path::Path, source: &str) -> Option<String> {
    let mut pending: Vec<String> = load_paths(source);
    let mut seen = std::collections::BTreeSet::new();
    while let Some(path) = pending.pop() {
        if !seen.insert(path.clone()) {
            continue;
        }
        match std::fs::read_to_string(root.join(&path)) {
            Ok(text) => pending.extend(load_paths(&text)),
            Err(_) => return Some(path),
        }
    }
    None
}

/// The literal paths of `load("…")` calls.
fn load_paths(source: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = source;
    while let Some(i) = rest.find("load(") {
        let after = &rest[i + 5..];
        rest = after;
        // `load(` as part of a longer name (`reload(`, `.load(`) is not the shell's load.
        let before = source.len() - rest.len() - 5;
        if source[..before]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
        {
            continue;
        }
        let trimmed = after.trim_start();
        let Some(quote) = trimmed.chars().next().filter(|c| *c == '"' || *c == '\'') else {
            continue;
        };
        if let Some(end) = trimmed[1..].find(quote) {
            out.push(trimmed[1..1 + end].to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_across_comment_lines() {
        let src = "// @tags: [\n//   requires_fastcount,\n//   requires_replication,\n// ]\n";
        assert_eq!(
            tags(src),
            vec!["requires_fastcount", "requires_replication"]
        );
        assert_eq!(reason(src), Some("needs a replica set"));
    }

    #[test]
    fn load_calls() {
        let src =
            "load(\"jstests/libs/a.js\");\n  load('b.js'); x.load(\"no.js\"); reload(\"no\");";
        assert_eq!(load_paths(src), vec!["jstests/libs/a.js", "b.js"]);
    }

    #[test]
    fn plain_file_runs() {
        assert_eq!(reason("// @tags: [requires_fastcount]\ndb.c.find();"), None);
        assert_eq!(
            reason("const rst = new ReplSetTest({});"),
            Some("needs a replica set")
        );
    }
}
