//! Golden files for explain output: one case per plan shape, covering every plan stage kind the
//! engine builds, each at the three verbosities (`queryPlanner`, `executionStats`,
//! `allPlansExecution`), compared with `tests/golden/explain/<case>.<verbosity>.json` (the
//! reply as relaxed Extended JSON, pretty-printed). The engine runs on a simulated clock, so
//! the replies are deterministic.
//!
//! To re-bless after an intended change: `BLESS_EXPLAIN=1 cargo test -p sprout-tests --test
//! explain_golden`, then review the diff of `tests/golden/explain/` before committing.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use bson::{Bson, Document, doc};
use engine::Engine;
use engine::clock::SimulatedClock;

const VERBOSITIES: &[&str] = &["queryPlanner", "executionStats", "allPlansExecution"];

/// Every stage kind the planner and executor produce; the goldens must show each one.
const STAGE_KINDS: &[&str] = &[
    "COLLSCAN",
    "IXSCAN",
    "FETCH",
    "IDHACK",
    "SORT",
    "SKIP",
    "LIMIT",
    "PROJECTION_SIMPLE",
    "PROJECTION_DEFAULT",
    "PROJECTION_COVERED",
    "EOF",
    "OR",
    "SORT_MERGE",
    "SUBPLAN",
    "COUNT",
    "COUNT_SCAN",
    "RECORD_STORE_FAST_COUNT",
    "DISTINCT_SCAN",
    "TEXT_MATCH",
    "TEXT_OR",
    "DELETE",
    "UPDATE",
];

struct Case {
    name: &'static str,
    indexes: Vec<Document>,
    command: Document,
}

fn cases() -> Vec<Case> {
    let ix = |key: Document, name: &str| doc! {"key": key, "name": name};
    vec![
        Case {
            name: "collscan",
            indexes: vec![],
            command: doc! {"find": "c", "filter": {"a": {"$gt": 2}}},
        },
        Case {
            name: "ixscan_fetch_rejected",
            indexes: vec![ix(doc! {"a": 1}, "a_1"), ix(doc! {"b": 1}, "b_1")],
            command: doc! {"find": "c", "filter": {"a": {"$gte": 3}, "b": {"$lt": 8}}},
        },
        Case {
            name: "idhack",
            indexes: vec![],
            command: doc! {"find": "c", "filter": {"_id": 4}},
        },
        Case {
            name: "sort_skip_simple_projection",
            indexes: vec![],
            command: doc! {"find": "c", "filter": {}, "sort": {"b": -1}, "skip": 1, "limit": 3, "projection": {"a": 1}},
        },
        Case {
            name: "limit_default_projection",
            indexes: vec![],
            command: doc! {"find": "c", "limit": 2, "projection": {"sub.x": 1, "twice": {"$multiply": ["$a", 2]}}},
        },
        Case {
            name: "covered",
            indexes: vec![ix(doc! {"a": 1}, "a_1")],
            command: doc! {"find": "c", "filter": {"a": 5}, "projection": {"a": 1, "_id": 0}},
        },
        Case {
            name: "eof",
            indexes: vec![],
            command: doc! {"find": "missing", "filter": {"a": 1}},
        },
        Case {
            name: "rooted_or",
            indexes: vec![ix(doc! {"a": 1}, "a_1"), ix(doc! {"b": 1}, "b_1")],
            command: doc! {"find": "c", "filter": {"$or": [{"a": 1}, {"b": 9}]}},
        },
        Case {
            name: "sort_merge",
            indexes: vec![
                ix(doc! {"a": 1, "b": 1}, "a_1_b_1"),
                ix(doc! {"c": 1, "b": 1}, "c_1_b_1"),
            ],
            command: doc! {"find": "c", "filter": {"$or": [{"a": 1}, {"c": "y"}]}, "sort": {"b": 1}},
        },
        Case {
            name: "count_scan",
            indexes: vec![ix(doc! {"a": 1}, "a_1")],
            command: doc! {"count": "c", "query": {"a": {"$gt": 3}}},
        },
        Case {
            name: "fast_count",
            indexes: vec![],
            command: doc! {"count": "c"},
        },
        Case {
            name: "distinct_scan",
            indexes: vec![ix(doc! {"a": 1}, "a_1")],
            command: doc! {"distinct": "c", "key": "a"},
        },
        Case {
            name: "text",
            indexes: vec![ix(doc! {"t": "text"}, "t_text")],
            command: doc! {"find": "c", "filter": {"$text": {"$search": "apple pear"}}},
        },
        Case {
            name: "text_scored",
            indexes: vec![ix(doc! {"t": "text"}, "t_text")],
            command: doc! {"find": "c", "filter": {"$text": {"$search": "apple pear"}}, "projection": {"score": {"$meta": "textScore"}}, "sort": {"score": {"$meta": "textScore"}}},
        },
        Case {
            name: "delete",
            indexes: vec![ix(doc! {"a": 1}, "a_1")],
            command: doc! {"delete": "c", "deletes": [{"q": {"a": {"$lte": 2}}, "limit": 0}]},
        },
        Case {
            name: "update",
            indexes: vec![],
            command: doc! {"update": "c", "updates": [{"q": {"b": {"$gt": 5}}, "u": {"$inc": {"a": 1}}, "multi": true}]},
        },
    ]
}

fn engine_with_data(indexes: &[Document]) -> Engine {
    let mut e = Engine::with_clock(Box::new(SimulatedClock::new(1_700_000_000_000)), 7);
    let words = ["apple", "pear", "plum", "apple pie", "fig"];
    let docs: Vec<Document> = (1..=10)
        .map(|i| {
            doc! {
                "_id": i,
                "a": i % 7,
                "b": 10 - i,
                "c": if i % 2 == 0 { "x" } else { "y" },
                "sub": {"x": i, "y": -i},
                "t": words[(i as usize) % words.len()],
            }
        })
        .collect();
    let r = e.run_command("test", &doc! {"insert": "c", "documents": docs});
    assert!(engine::reply_ok(&r), "{r:?}");
    if !indexes.is_empty() {
        let r = e.run_command(
            "test",
            &doc! {"createIndexes": "c", "indexes": indexes.to_vec()},
        );
        assert!(engine::reply_ok(&r), "{r:?}");
    }
    e
}

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("golden/explain")
}

fn explain_text(case: &Case, verbosity: &str) -> String {
    let mut e = engine_with_data(&case.indexes);
    let reply = e.run_command(
        "test",
        &doc! {"explain": case.command.clone(), "verbosity": verbosity},
    );
    assert!(engine::reply_ok(&reply), "{}: {reply:?}", case.name);
    let json = Bson::Document(reply).into_relaxed_extjson();
    serde_json::to_string_pretty(&json).expect("JSON") + "\n"
}

/// The `stage` values anywhere in an explain reply.
fn stages(v: &serde_json::Value, out: &mut BTreeSet<String>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                if k == "stage"
                    && let Some(s) = x.as_str()
                {
                    out.insert(s.to_string());
                }
                stages(x, out);
            }
        }
        serde_json::Value::Array(items) => items.iter().for_each(|x| stages(x, out)),
        _ => {}
    }
}

#[test]
fn explain_output_matches_the_golden_files() {
    let bless = std::env::var_os("BLESS_EXPLAIN").is_some();
    let dir = golden_dir();
    if bless {
        std::fs::create_dir_all(&dir).unwrap();
    }
    let mut mismatches = Vec::new();
    let mut seen = BTreeSet::new();
    for case in cases() {
        for verbosity in VERBOSITIES {
            let got = explain_text(&case, verbosity);
            stages(&serde_json::from_str(&got).unwrap(), &mut seen);
            let path = dir.join(format!("{}.{verbosity}.json", case.name));
            if bless {
                std::fs::write(&path, &got).unwrap();
                continue;
            }
            match std::fs::read_to_string(&path) {
                Ok(want) if want == got => {}
                Ok(want) => {
                    let line = want
                        .lines()
                        .zip(got.lines())
                        .position(|(a, b)| a != b)
                        .map_or(want.lines().count().min(got.lines().count()) + 1, |i| i + 1);
                    mismatches.push(format!("{} differs from line {line}", path.display()));
                }
                Err(_) => mismatches.push(format!("{} is missing", path.display())),
            }
        }
    }
    assert!(
        mismatches.is_empty(),
        "explain output changed:\n{}\nre-bless with BLESS_EXPLAIN=1 if intended",
        mismatches.join("\n")
    );
    let missing: Vec<&&str> = STAGE_KINDS.iter().filter(|s| !seen.contains(**s)).collect();
    assert!(missing.is_empty(), "no golden case shows {missing:?}");
}
