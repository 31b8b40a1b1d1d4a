//! Planning through a wildcard index (MongoDB's `planner_wildcard_helpers`): the index serves
//! a predicate on one path at a time, as if it were the index `{$_path: 1, <path>: 1}`; one
//! candidate per path a predicate names. The `$_path` bounds are the path itself (and, for
//! `$exists: true`, every path below it: `["a.", "a/")`); the value bounds are the predicate's.
//!
//! The index stores no key for a missing field and none for a non-empty object or array as a
//! whole, so it cannot answer predicates whose bounds hold `null` (`{a: null}`,
//! `$exists: false`, `$ne`, `$nin`), a non-empty object or a non-empty array (`{a: {$gte: {}}}`,
//! `{a: {b: 1}}`); equality to `{}` and `[]` it answers (MongoDB's "Wildcard Index
//! Restrictions"). A path with a numeric component after a multikey prefix (`c.0` where `c`
//! held an array) may name an array position, which keys do not hold: the scan then covers
//! the path with and without such components, every value, and the document is checked.
//! `min()`/`max()` cannot use a wildcard index (code 51174), and a hinted wildcard index that
//! serves no predicate fails the query (BadValue).

use bson::{Bson, Document, doc};

use super::bounds::{Interval, intersect, intervals_for, normalize};
use super::predicates::{Conjunct, Pred, residual};
use super::{CanonicalQuery, IxScanPlan, Solution, WildcardScan, finish_with};
use crate::error::{Error, Result};
use crate::index::Index;
use crate::index::wildcard::PathStatus;

/// The error of `min()`/`max()` with a hinted wildcard index (MongoDB's code 51174).
pub fn min_max_refused() -> Error {
    Error::location(51174, "min/max is not supported for wildcard index")
}

/// The error of a hinted wildcard index that serves no predicate of the query: the index
/// "expands" to no per-path index, so the hint names none (BadValue, as
/// jstests/core/wildcard_index_hint.js expects).
pub fn no_plan() -> Error {
    Error::bad_value("hint provided does not correspond to an existing index")
}

/// The candidate plans through a wildcard index: one per path it can serve.
pub fn solutions(
    index: &Index,
    parts: &[Conjunct],
    q: &CanonicalQuery<'_>,
) -> Result<Vec<Solution>> {
    let Some(ws) = &index.spec.wildcard else {
        return Ok(Vec::new());
    };
    if !super::collation_allows(index) {
        return Ok(Vec::new());
    }
    if let Some((_, pf)) = &index.spec.partial
        && !super::implies(parts, &crate::query::canonical::filter_conjuncts(pf))
    {
        return Ok(Vec::new());
    }
    let mut paths: Vec<&str> = Vec::new();
    for c in parts {
        if let Some(p) = c.path.as_deref()
            && !paths.contains(&p)
        {
            paths.push(p);
        }
    }
    let mut out = Vec::new();
    for path in paths {
        let components: Vec<String> = path.split('.').map(str::to_string).collect();
        if ws.status(&components) != PathStatus::Included {
            continue;
        }
        let multikey = index.wildcard_multikey_paths();
        let path_multikey =
            (1..=components.len()).any(|n| multikey.contains(&components[..n].join(".")));
        let variants = positional_variants(&components, multikey);
        let positional = variants.len() > 1;
        let mut values: Option<Vec<Interval>> = None;
        let mut exists = false;
        let mut used: Vec<(usize, bool)> = Vec::new();
        for (ci, c) in parts.iter().enumerate() {
            if c.path.as_deref() != Some(path) || !supported(&c.pred) {
                continue;
            }
            let Some((ivs, exact)) = value_intervals(&c.pred) else {
                continue;
            };
            exists |= matches!(c.pred, Pred::Exists(true));
            values = Some(match values {
                None => ivs,
                Some(prev) if path_multikey => prev,
                Some(prev) => intersect(&prev, &ivs),
            });
            used.push((ci, exact && !path_multikey && !positional));
        }
        let Some(mut values) = values else {
            continue;
        };
        if positional {
            values = vec![Interval::all()];
        }
        let mut path_bounds: Vec<Interval> = variants
            .iter()
            .map(|v| Interval::point(Bson::String(v.clone())))
            .collect();
        if exists {
            for v in &variants {
                path_bounds.push(Interval {
                    low: Bson::String(format!("{v}.")),
                    low_inclusive: true,
                    high: Bson::String(format!("{v}/")),
                    high_inclusive: false,
                });
            }
        }
        let path_bounds = normalize(path_bounds);
        let several_paths = path_bounds.len() > 1 || !path_bounds[0].is_point();
        let exact_used: Vec<usize> = used.iter().filter(|u| u.1).map(|u| u.0).collect();
        let rest: Vec<&Conjunct> = parts
            .iter()
            .enumerate()
            .filter(|(i, _)| !exact_used.contains(i))
            .map(|(_, c)| c)
            .collect();
        let filter = residual(&rest, parts.len(), &q.spec.filter)?;
        let multikey_paths: Vec<String> = (1..=components.len())
            .map(|n| components[..n].join("."))
            .filter(|p| multikey.contains(p))
            .collect();
        let scan = Solution::IxScan(IxScanPlan {
            index_name: index.name().to_string(),
            bounds: vec![path_bounds, values],
            forward: true,
            key_range: None,
            filter: None,
            wildcard: Some(WildcardScan {
                path: path.to_string(),
                multikey: path_multikey || several_paths,
                multikey_paths,
            }),
        });
        let access = Solution::Fetch {
            filter,
            child: Box::new(scan),
        };
        out.push(finish_with(q, access, false, false)?);
    }
    Ok(out)
}

/// Whether a wildcard index can answer the predicate (see the module docs).
fn supported(pred: &Pred) -> bool {
    match pred {
        Pred::Exists(true) => true,
        Pred::Exists(false) | Pred::Other => false,
        _ => {
            let Some((ivs, _)) = value_intervals(pred) else {
                return false;
            };
            // Samples of what the index does not hold: null for a missing field, a non-empty
            // object or array as a whole (bounds reaching them, or ending at one).
            let object = Bson::Document(doc! {"": Bson::MinKey});
            let array = Bson::Array(vec![Bson::MinKey]);
            let whole = |v: &Bson| match v {
                Bson::Document(d) => !d.is_empty(),
                Bson::Array(a) => !a.is_empty(),
                _ => false,
            };
            !ivs.iter().any(|iv| {
                iv.locate(&Bson::Null).is_eq()
                    || iv.locate(&object).is_eq()
                    || iv.locate(&array).is_eq()
                    || whole(&iv.low)
                    || whole(&iv.high)
            }) && !matches!(pred, Pred::Eq(v) if whole(v))
                && !matches!(pred, Pred::In(vs) if vs.iter().any(whole))
        }
    }
}

/// The value bounds of a predicate: an index's, and for equality to `[]` (which other indexes
/// do not bound here) MongoDB's `[undefined, undefined], [[], []]`: a wildcard index stores an
/// empty array as the leaf `[]`.
fn value_intervals(pred: &Pred) -> Option<(Vec<Interval>, bool)> {
    let empty_array = |v: &Bson| matches!(v, Bson::Array(a) if a.is_empty());
    let for_empty = || {
        vec![
            Interval::point(Bson::Undefined),
            Interval::point(Bson::Array(Vec::new())),
        ]
    };
    match pred {
        Pred::Eq(v) if empty_array(v) => Some((for_empty(), false)),
        Pred::In(vs) if vs.iter().any(empty_array) => {
            let mut out = Vec::new();
            for v in vs {
                if empty_array(v) {
                    out.extend(for_empty());
                } else {
                    out.extend(intervals_for(&Pred::Eq(v.clone()))?.0);
                }
            }
            Some((normalize(out), false))
        }
        _ => intervals_for(pred),
    }
}

/// The paths keys may hold for a query path: a numeric component after a multikey prefix may
/// be an array position (absent from keys) or a field name, so both are scanned.
fn positional_variants(
    components: &[String],
    multikey: &std::collections::BTreeSet<String>,
) -> Vec<String> {
    let mut variants: Vec<Vec<String>> = vec![Vec::new()];
    for (i, c) in components.iter().enumerate() {
        let may_be_position = i > 0
            && crate::path::array_index(c).is_some()
            && multikey.contains(&components[..i].join("."));
        let mut next = Vec::new();
        for v in &variants {
            let mut kept = v.clone();
            kept.push(c.clone());
            next.push(kept);
            if may_be_position {
                next.push(v.clone());
            }
        }
        variants = next;
    }
    let mut out: Vec<String> = variants.into_iter().map(|v| v.join(".")).collect();
    crate::sort_slice::sort(&mut out);
    out.dedup();
    out
}

/// The key pattern a wildcard scan shows in explain: `{$_path: 1, <path>: 1}`.
pub fn key_pattern(scan: &WildcardScan) -> Document {
    let mut d = doc! {crate::index::wildcard::PATH_FIELD: 1};
    d.insert(scan.path.clone(), 1);
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_after_multikey_prefixes_are_both_ways() {
        let mk: std::collections::BTreeSet<String> = ["c".to_string()].into();
        let comps = |p: &str| p.split('.').map(str::to_string).collect::<Vec<_>>();
        assert_eq!(positional_variants(&comps("c.0"), &mk), vec!["c", "c.0"]);
        assert_eq!(positional_variants(&comps("d.0"), &mk), vec!["d.0"]);
        assert_eq!(
            positional_variants(&comps("c.0.g"), &mk),
            vec!["c.0.g", "c.g"]
        );
    }

    #[test]
    fn restrictions() {
        assert!(supported(&Pred::Eq(Bson::Int32(1))));
        assert!(supported(&Pred::Eq(Bson::Document(doc! {}))));
        assert!(supported(&Pred::Eq(Bson::Array(vec![]))));
        assert!(supported(&Pred::Exists(true)));
        assert!(!supported(&Pred::Exists(false)));
        assert!(!supported(&Pred::Eq(Bson::Null)));
        assert!(!supported(&Pred::Eq(Bson::Document(doc! {"b": 1}))));
        assert!(!supported(&Pred::Eq(Bson::Array(vec![Bson::Int32(1)]))));
        assert!(!supported(&Pred::Cmp(
            crate::query::canonical::CmpOp::Gte,
            Bson::Document(doc! {})
        )));
        assert!(supported(&Pred::Cmp(
            crate::query::canonical::CmpOp::Lte,
            Bson::Document(doc! {})
        )));
        assert!(!supported(&Pred::In(vec![Bson::Int32(3), Bson::Null])));
        assert!(supported(&Pred::In(vec![
            Bson::Int32(3),
            Bson::Document(doc! {})
        ])));
    }
}
