//! `db.c.getPlanCache()`: the shell's view of the plan cache (`list` is `$planCacheStats`).

use engine::Engine;
use shell::{Shell, ShellConfig};

fn shell() -> Shell {
    let mut s = Shell::new(Engine::new(), ShellConfig::default());
    for input in [
        "for (var i = 0; i < 200; i++) db.c.insertOne({_id: i, a: i % 10, b: i})",
        "db.c.createIndex({a: 1})",
        "db.c.createIndex({b: 1})",
    ] {
        let ev = s.eval(input);
        assert!(ev.error.is_none(), "{input}: {ev:?}");
    }
    s
}

fn text(s: &mut Shell, input: &str) -> String {
    let ev = s.eval(input);
    assert!(ev.error.is_none(), "{input}: {ev:?}");
    ev.text()
}

#[test]
fn plan_cache_object_prints_and_clears() {
    let mut s = shell();
    assert_eq!(
        text(&mut s, "db.c.getPlanCache()"),
        "PlanCache for collection c."
    );
    assert_eq!(
        text(&mut s, "db.c.find({a: 3, b: {$gte: 150}}).itcount()"),
        "5"
    );
    assert_eq!(text(&mut s, "db.c.getPlanCache().list().length"), "1");
    assert_eq!(
        text(
            &mut s,
            "db.c.getPlanCache().list([{$project: {_id: 0, isActive: 1, q: '$createdFromQuery.query'}}])"
        ),
        "[\n  { isActive: false, q: { a: 3, b: { '$gte': 150 } } }\n]"
    );
    assert_eq!(text(&mut s, "db.c.getPlanCache().clear()"), "{ ok: 1 }");
    assert_eq!(text(&mut s, "db.c.getPlanCache().list()"), "[]");
    assert_eq!(
        text(&mut s, "db.c.getPlanCache().clearPlansByQuery({a: 1})"),
        "{ ok: 1 }"
    );
}

#[test]
fn explain_shows_the_query_shape_hashes() {
    let mut s = shell();
    let same = text(
        &mut s,
        "db.c.find({a: 1, b: {$gt: 5}}).explain().queryPlanner.queryHash == \
         db.c.find({a: 7, b: {$gt: 99}}).explain().queryPlanner.queryHash",
    );
    assert_eq!(same, "true");
    let differ = text(
        &mut s,
        "db.c.find({a: 1}).explain().queryPlanner.planCacheKey == \
         db.c.find({b: 1}).explain().queryPlanner.planCacheKey",
    );
    assert_eq!(differ, "false");
    let hash = text(
        &mut s,
        "db.c.find({a: 1}).explain().queryPlanner.planCacheShapeHash",
    );
    assert_eq!(hash.trim_matches('\'').len(), 8, "{hash}");
}
