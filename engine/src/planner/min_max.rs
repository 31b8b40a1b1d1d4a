//! `min()`/`max()`: a find bounded by whole index keys of the hinted index, as MongoDB 8.0's
//! planner does it (`query_planner.cpp`). `min` is inclusive, `max` exclusive; both name every
//! field of the key pattern, in order. A missing bound is the start or end of the index. The
//! one solution is an IXSCAN over that "simple range" (explain shows `indexBounds: {}`) with the
//! whole filter applied to the fetched documents.

use bson::{Bson, Document};

use super::predicates::Conjunct;
use super::predicates::residual;
use super::{CanonicalQuery, IxScanPlan, KeyRange, Solution, covers_projection, finish_with};
use crate::error::{Error, ErrorCode, Result};
use crate::index::{Index, KeyKind};

/// MongoDB's find-request check, made before planning.
pub fn check_field_names(min: Option<&Document>, max: Option<&Document>) -> Result<()> {
    if let (Some(min), Some(max)) = (min, max)
        && !min.keys().eq(max.keys())
    {
        return Err(Error::location(
            51176,
            "min and max must have the same field names",
        ));
    }
    Ok(())
}

/// The error for `min()`/`max()` without an index hint.
pub fn hint_required() -> Error {
    Error::location(
        51173,
        "When using min()/max() a hint of which index to use must be provided",
    )
}

/// The error for `min()`/`max()` with a `$natural` hint.
pub fn natural_hint() -> Error {
    Error::new(
        ErrorCode::NoQueryExecutionPlans,
        "min and max are incompatible with $natural",
    )
}

/// The solution for a `min()`/`max()` find on the hinted `index`.
pub fn plan(index: &Index, parts: &[Conjunct], q: &CanonicalQuery<'_>) -> Result<Solution> {
    let (min, max) = (q.spec.min.as_ref(), q.spec.max.as_ref());
    check_field_names(min, max)?;
    let incompatible = || Error::location(51174, "The index chosen is not compatible with min/max");
    let fields_match = |bound: &Document| {
        bound.keys().eq(index.spec.key.keys())
            && index.spec.parts.len() == bound.len()
            && index.spec.parts.iter().all(|p| p.kind != KeyKind::Text)
    };
    if min.is_some_and(|m| !fields_match(m)) || max.is_some_and(|m| !fields_match(m)) {
        return Err(incompatible());
    }
    // An absent bound is the index's own end: MinKey on ascending parts, MaxKey on descending.
    let edge = |low: bool| -> Vec<Bson> {
        index
            .spec
            .parts
            .iter()
            .map(|p| {
                if (p.kind != KeyKind::Descending) == low {
                    Bson::MinKey
                } else {
                    Bson::MaxKey
                }
            })
            .collect()
    };
    let values = |d: &Document| d.values().cloned().collect::<Vec<Bson>>();
    let start = min.map(values).unwrap_or_else(|| edge(true));
    let end = max.map(values).unwrap_or_else(|| edge(false));
    if index.encode_key(&start) >= index.encode_key(&end) {
        return Err(Error::location(
            51175,
            "The value provided for min() does not come before the value provided for max() in the hinted index",
        ));
    }
    let direction = scan_direction(index, q);
    let forward = direction.unwrap_or(true);
    let all: Vec<&Conjunct> = parts.iter().collect();
    let filter = residual(&all, parts.len(), &q.spec.filter)?;
    let scan = Solution::IxScan(IxScanPlan {
        index_name: index.name().to_string(),
        bounds: vec![Vec::new(); index.spec.parts.len()],
        forward,
        key_range: Some(KeyRange { start, end }),
        filter: None,
        wildcard: None,
    });
    let covered = filter.is_none() && covers_projection(index, q);
    let access = if covered {
        scan
    } else {
        Solution::Fetch {
            filter,
            child: Box::new(scan),
        }
    };
    finish_with(q, access, direction.is_some(), covered)
}

/// The direction in which the index returns the requested sort: a sort on a prefix of the key
/// pattern (forward) or of its reverse (backward). `None` when there is no sort or the index
/// cannot provide it (a blocking SORT is added).
fn scan_direction(index: &Index, q: &CanonicalQuery<'_>) -> Option<bool> {
    let sort = q.sort_pattern()?;
    if sort.is_empty() || sort.len() > index.spec.key.len() {
        return None;
    }
    let mut direction = None;
    for ((field, want), (key_field, have)) in sort.iter().zip(index.spec.key.iter()) {
        if field != key_field {
            return None;
        }
        let (want, have) = (sign(want)?, sign(have)?);
        let same = want == have;
        match direction {
            None => direction = Some(same),
            Some(d) if d != same => return None,
            Some(_) => {}
        }
    }
    direction
}

fn sign(v: &Bson) -> Option<bool> {
    match v {
        Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_) | Bson::Decimal128(_) => {
            Some(crate::value::as_i64_signed(v) >= 0)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use bson::{Document, doc};

    use crate::Engine;

    fn ids(r: &Document) -> Vec<i32> {
        r.get_document("cursor")
            .unwrap()
            .get_array("firstBatch")
            .unwrap()
            .iter()
            .map(|d| d.as_document().unwrap().get_i32("_id").unwrap())
            .collect()
    }

    fn engine_with(key: Document) -> Engine {
        let mut e = Engine::new();
        let docs: Vec<_> = [(1, 1), (1, 2), (2, 1), (2, 2)]
            .iter()
            .enumerate()
            .map(|(i, (a, b))| doc! {"_id": i as i32, "a": a, "b": b})
            .collect();
        e.run_command("t", &doc! {"insert": "c", "documents": docs});
        e.run_command(
            "t",
            &doc! {"createIndexes": "c", "indexes": [{"key": key, "name": "ab"}]},
        );
        e
    }

    fn find(e: &mut Engine, extra: Document) -> Document {
        let mut cmd = doc! {"find": "c", "hint": "ab"};
        cmd.extend(extra);
        e.run_command("t", &cmd)
    }

    #[test]
    fn compound_key_ranges_follow_the_key_pattern() {
        let mut e = engine_with(doc! {"a": 1, "b": 1});
        let r = find(
            &mut e,
            doc! {"min": {"a": 1, "b": 2}, "max": {"a": 2, "b": 1}},
        );
        assert_eq!(ids(&r), vec![1]);
        let r = find(
            &mut e,
            doc! {"min": {"a": 1, "b": 2}, "max": {"a": 2, "b": 1.5}},
        );
        assert_eq!(ids(&r), vec![1, 2]);
        let r = find(&mut e, doc! {"min": {"a": 1, "b": 2}});
        assert_eq!(ids(&r), vec![1, 2, 3]);
        let r = find(&mut e, doc! {"max": {"a": 2, "b": 1.5}});
        assert_eq!(ids(&r), vec![0, 1, 2]);
        // The filter still applies to what the range returns.
        let r = find(&mut e, doc! {"min": {"a": 1, "b": 2}, "filter": {"b": 2}});
        assert_eq!(ids(&r), vec![1, 3]);
        // A descending sort on the key pattern scans backward.
        let r = find(
            &mut e,
            doc! {"min": {"a": 1, "b": 2}, "sort": {"a": -1, "b": -1}},
        );
        assert_eq!(ids(&r), vec![3, 2, 1]);
    }

    #[test]
    fn descending_parts_reverse_the_range() {
        let mut e = engine_with(doc! {"a": 1, "b": -1});
        assert_eq!(ids(&find(&mut e, doc! {"min": {"a": 1, "b": 2}})).len(), 4);
        assert_eq!(
            ids(&find(&mut e, doc! {"max": {"a": 2, "b": 0.5}})).len(),
            4
        );
        assert_eq!(ids(&find(&mut e, doc! {"min": {"a": 2, "b": 1}})), vec![2]);
        assert_eq!(
            ids(&find(&mut e, doc! {"max": {"a": 1, "b": 1.5}})),
            vec![1]
        );
    }

    #[test]
    fn errors_match_mongodb() {
        let mut e = engine_with(doc! {"a": 1, "b": 1});
        let code = |r: &Document| r.get_i32("code").unwrap();
        let r = e.run_command("t", &doc! {"find": "c", "min": {"a": 1, "b": 1}});
        assert_eq!(code(&r), 51173);
        let r = find(&mut e, doc! {"min": {"a": 1}});
        assert_eq!(code(&r), 51174);
        let r = find(&mut e, doc! {"min": {"b": 1, "a": 1}});
        assert_eq!(code(&r), 51174);
        let r = find(&mut e, doc! {"min": {"a": 1, "b": 1}, "max": {"a": 1}});
        assert_eq!(code(&r), 51176);
        let r = find(
            &mut e,
            doc! {"min": {"a": 2, "b": 2}, "max": {"a": 2, "b": 2}},
        );
        assert_eq!(code(&r), 51175);
        let r = find(
            &mut e,
            doc! {"min": {"a": 2, "b": 2}, "max": {"a": 1, "b": 1}},
        );
        assert_eq!(code(&r), 51175);
        let r = e.run_command(
            "t",
            &doc! {"find": "c", "min": {"a": 1, "b": 1}, "hint": {"$natural": 1}},
        );
        assert_eq!(code(&r), 291);
    }

    #[test]
    fn explain_shows_a_simple_range() {
        let mut e = engine_with(doc! {"a": 1, "b": 1});
        let r = e.run_command(
            "t",
            &doc! {"explain": {"find": "c", "min": {"a": 1, "b": 2}, "hint": "ab"}, "verbosity": "executionStats"},
        );
        let plan = r
            .get_document("queryPlanner")
            .unwrap()
            .get_document("winningPlan")
            .unwrap();
        let scan = plan.get_document("inputStage").unwrap();
        assert_eq!(scan.get_str("stage").unwrap(), "IXSCAN");
        assert!(scan.get_document("indexBounds").unwrap().is_empty());
        let stats = r.get_document("executionStats").unwrap();
        assert_eq!(stats.get_i32("nReturned").unwrap(), 3);
        assert_eq!(stats.get_i32("totalKeysExamined").unwrap(), 3);
    }
}
