//! Index correctness: every `find` a conformance replay runs is run again with indexes on the
//! paths it filters and sorts on, once hinted onto each of those indexes and once left to the
//! planner with all of them present, and must return the same documents.
//!
//! No published suite checks this for us: the transcripts and spec tests run their queries
//! once, mostly without indexes, so a wrong index bound, a multikey rule or a covered-plan bug
//! would go unnoticed. Results are compared as multisets; for a sorted find the indexed result
//! must also be in sort order (ties may come back in another order, as MongoDB allows).

use bson::{Bson, Document, doc};
use engine::Engine;
use engine::sort::SortSpec;

use super::ejson::canonical;
use super::report::Outcome;

/// Runs a find to the end of its cursor.
pub type RunFind<'a> = dyn FnMut(&mut Engine, &Document) -> Result<Vec<Bson>, String> + 'a;

/// At most this many filtered paths get an index of their own.
const MAX_PATHS: usize = 6;

/// Re-runs `cmd` (a `find` that returned `original`) with indexes; `None` when the find does not
/// lend itself to the check (nothing to index, or a `$text`/geo query that needs its own kind of
/// index).
pub fn check(
    engine: &mut Engine,
    db: &str,
    cmd: &Document,
    original: &[Bson],
    run: &mut RunFind<'_>,
) -> Option<Outcome> {
    let coll = cmd.get_str("find").ok()?.to_string();
    let filter = cmd.get_document("filter").cloned().unwrap_or_default();
    if mentions_special(&Bson::Document(filter.clone())) {
        return None;
    }
    let sort = cmd.get_document("sort").ok().cloned();
    let mut paths = Vec::new();
    collect_paths(&filter, &mut paths);
    paths.truncate(MAX_PATHS);
    let sort_keys: Vec<(String, Bson)> = sort
        .iter()
        .flat_map(|s| s.iter())
        .filter(|(k, v)| !k.starts_with('$') && !matches!(v, Bson::Document(_)))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let specs = index_specs(&paths, &sort_keys);
    if specs.is_empty() {
        return None;
    }
    let mut built = Vec::new();
    for (i, key) in specs.into_iter().enumerate() {
        let name = format!("sprout_shadow_{i}");
        let reply = engine.run_command(
            db,
            &doc! {"createIndexes": coll.as_str(), "indexes": [{"key": key.clone(), "name": name.as_str()}]},
        );
        // A key MongoDB cannot index either (parallel arrays, …) leaves that index out. An
        // index already there with the same key (`{_id: 1}`: MongoDB answers "all indexes
        // already exist" and keeps `_id_`) is hinted by its key and not dropped afterwards.
        if engine::reply_ok(&reply) {
            let created =
                reply.get_i32("numIndexesAfter").ok() > reply.get_i32("numIndexesBefore").ok();
            built.push((name, key, created));
        }
    }
    let sort_spec = sort.as_ref().and_then(|s| SortSpec::parse(s).ok());
    let mut problems = Vec::new();
    let mut variants: Vec<(String, Option<Bson>)> = built
        .iter()
        .map(|(_, key, _)| (format!("hint {key}"), Some(Bson::Document(key.clone()))))
        .collect();
    variants.push(("planner's choice".into(), None));
    for (label, hint) in variants {
        let mut shadow = cmd.clone();
        if let Some(h) = hint {
            shadow.insert("hint", h);
        }
        match run(engine, &shadow) {
            Ok(docs) => {
                if let Some(p) = difference(original, &docs, sort_spec.as_ref()) {
                    problems.push(format!("{label}: {p}"));
                }
            }
            Err(e) => problems.push(format!("{label}: error {e}")),
        }
    }
    let names: Vec<Bson> = built
        .iter()
        .filter(|(_, _, created)| *created)
        .map(|(n, _, _)| Bson::String(n.clone()))
        .collect();
    if !names.is_empty() {
        engine.run_command(db, &doc! {"dropIndexes": coll.as_str(), "index": names});
    }
    Some(if problems.is_empty() {
        Outcome::Pass
    } else {
        Outcome::Fail(super::report::clip(&problems.join("; "), 400))
    })
}

/// The key patterns to try: each filtered path alone, the filtered paths together, the sort
/// pattern, and the first filtered path followed by the sort pattern.
fn index_specs(paths: &[String], sort: &[(String, Bson)]) -> Vec<Document> {
    let mut out: Vec<Document> = Vec::new();
    let mut push = |d: Document| {
        if !d.is_empty() && !out.contains(&d) {
            out.push(d);
        }
    };
    for p in paths {
        push(doc! {p.as_str(): 1});
    }
    if paths.len() > 1 {
        push(
            paths
                .iter()
                .take(3)
                .map(|p| (p.clone(), Bson::Int32(1)))
                .collect(),
        );
    }
    if !sort.is_empty() {
        push(sort.iter().cloned().collect());
        if let Some(first) = paths.first()
            && !sort.iter().any(|(k, _)| k == first)
        {
            let mut d = doc! {first.as_str(): 1};
            d.extend(sort.iter().cloned());
            push(d);
        }
    }
    out
}

/// The field paths a filter constrains (operators' arguments are not paths, except under the
/// logical operators and `$elemMatch`'s object form, whose paths are relative and skipped).
fn collect_paths(filter: &Document, out: &mut Vec<String>) {
    for (k, v) in filter {
        match k.as_str() {
            "$and" | "$or" | "$nor" => {
                if let Bson::Array(items) = v {
                    for item in items {
                        if let Bson::Document(d) = item {
                            collect_paths(d, out);
                        }
                    }
                }
            }
            k if k.starts_with('$') => {}
            path => {
                // Index key paths cannot be empty, start with `$` or have empty parts.
                let usable = !path.is_empty()
                    && path
                        .split('.')
                        .all(|p| !p.is_empty() && !p.starts_with('$'));
                if usable && !out.iter().any(|p| p == path) {
                    out.push(path.to_string());
                }
            }
        }
    }
}

/// Whether the filter uses an operator that needs a special index or none at all.
fn mentions_special(v: &Bson) -> bool {
    match v {
        Bson::Document(d) => d.iter().any(|(k, v)| {
            matches!(
                k.as_str(),
                "$text" | "$near" | "$nearSphere" | "$geoWithin" | "$geoIntersects" | "$within"
            ) || mentions_special(v)
        }),
        Bson::Array(items) => items.iter().any(mentions_special),
        _ => false,
    }
}

/// How `got` differs from `want`: a different multiset of documents, or (for a sorted find) an
/// order that is not the sort order.
fn difference(want: &[Bson], got: &[Bson], sort: Option<&SortSpec>) -> Option<String> {
    let key = |b: &Bson| canonical(b);
    let mut w: Vec<String> = want.iter().map(key).collect();
    let mut g: Vec<String> = got.iter().map(key).collect();
    w.sort();
    g.sort();
    if w != g {
        let missing: Vec<&String> = w.iter().filter(|x| !g.contains(x)).take(2).collect();
        let extra: Vec<&String> = g.iter().filter(|x| !w.contains(x)).take(2).collect();
        return Some(format!(
            "got {} documents, want {}; missing {missing:?}; unexpected {extra:?}",
            got.len(),
            want.len()
        ));
    }
    if let Some(spec) = sort {
        let docs: Vec<&Document> = got.iter().filter_map(Bson::as_document).collect();
        if docs
            .windows(2)
            .any(|p| spec.compare(p[0], p[1]) == std::cmp::Ordering::Greater)
        {
            return Some("documents not in sort order".into());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_specs() {
        let mut paths = Vec::new();
        collect_paths(
            &doc! {"a.b": 1, "$or": [{"c": {"$gt": 1}}, {"d": 2}], "$expr": {"$eq": ["$e", 1]}},
            &mut paths,
        );
        assert_eq!(paths, ["a.b", "c", "d"]);
        let specs = index_specs(&paths[..1], &[("x".into(), Bson::Int32(-1))]);
        assert_eq!(
            specs,
            [doc! {"a.b": 1}, doc! {"x": -1}, doc! {"a.b": 1, "x": -1}]
        );
    }

    #[test]
    fn difference_allows_ties_in_any_order() {
        let spec = SortSpec::parse(&doc! {"a": 1}).unwrap();
        let a = Bson::Document(doc! {"_id": 1, "a": 1});
        let b = Bson::Document(doc! {"_id": 2, "a": 1});
        let c = Bson::Document(doc! {"_id": 3, "a": 2});
        let want = [a.clone(), b.clone(), c.clone()];
        assert_eq!(
            difference(&want, &[b.clone(), a.clone(), c.clone()], Some(&spec)),
            None
        );
        assert!(difference(&want, &[c.clone(), a.clone(), b.clone()], Some(&spec)).is_some());
        assert!(difference(&want, &[a, b], None).is_some());
    }
}
