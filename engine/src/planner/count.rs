//! Plans for `count` and `distinct`, from the find plans of their query (MongoDB's
//! `turnIxscanIntoCount` and `turnIxscanIntoDistinctScan`):
//! - an index scan that answers the query alone (no FETCH filter) over one contiguous key range
//!   becomes `COUNT_SCAN`, which counts keys without fetching;
//! - a `distinct` whose key is the leading field of a non-multikey index, with a filter the index
//!   answers alone, becomes `DISTINCT_SCAN` (one seek per distinct value) under
//!   `PROJECTION_COVERED`.

use bson::{Document, doc};

use super::bounds::Interval;
use super::{CanonicalQuery, IxScanPlan, Solution, index_access};
use crate::catalog::Collection;
use crate::error::Result;
use crate::index::KeyKind;

/// The COUNT_SCAN form of a find plan, when it has one.
pub fn as_count_scan(solution: &Solution) -> Option<Solution> {
    let scan = match solution {
        Solution::IxScan(p) => p,
        Solution::Fetch {
            filter: None,
            child,
        } => match child.as_ref() {
            Solution::IxScan(p) => p,
            _ => return None,
        },
        _ => return None,
    };
    // A scan that tests its keys (IXSCAN filter) is not a plain count of its range.
    (scan.filter.is_none() && is_single_range(&scan.bounds))
        .then(|| Solution::CountScan(scan.clone()))
}

/// Whether the bounds are one contiguous key range: points, then at most one range, then
/// whole-domain parts.
pub fn is_single_range(bounds: &[Vec<Interval>]) -> bool {
    let mut ranged = false;
    for part in bounds {
        let [iv] = part.as_slice() else {
            return false;
        };
        if ranged {
            if *iv != Interval::all() {
                return false;
            }
        } else if !iv.is_point() {
            ranged = true;
        }
    }
    true
}

/// The DISTINCT_SCAN plan for `distinct(key)` with this query, when an index allows one.
pub fn distinct_scan(
    coll: &Collection,
    key: &str,
    q: &CanonicalQuery<'_>,
) -> Result<Option<Solution>> {
    let parts = q.conjuncts();
    for index in coll.indexes() {
        let Some(first) = index.spec.parts.first() else {
            continue;
        };
        if index.spec.hidden
            || first.dotted != key
            || first.kind == KeyKind::Hashed
            || index.part_is_multikey(0)
            || index.spec.sparse
        {
            continue;
        }
        let Some(access) = index_access(index, parts, q)? else {
            continue;
        };
        let scan = match access.solution {
            Solution::IxScan(p) => p,
            Solution::Fetch {
                filter: None,
                child,
            } => match *child {
                Solution::IxScan(p) => p,
                _ => continue,
            },
            _ => continue,
        };
        // The scan only walks the leading field: the other fields must be unbounded, and no
        // key may be left out by a key filter.
        if scan.filter.is_some()
            || scan
                .bounds
                .iter()
                .skip(1)
                .any(|b| b.as_slice() != [Interval::all()])
        {
            continue;
        }
        return Ok(Some(Solution::Projection {
            kind: super::ProjectionKind::Covered,
            transform_by: doc! {"_id": 0, key: 1},
            child: Box::new(Solution::DistinctScan(scan)),
        }));
    }
    Ok(None)
}

/// `{startKey, startKeyInclusive, endKey, endKeyInclusive}` of a single-range scan, as
/// COUNT_SCAN's explain shows its bounds (in index order, field names from the key pattern).
pub fn range_document(key_pattern: &Document, kinds: &[KeyKind], plan: &IxScanPlan) -> Document {
    let mut start = Document::new();
    let mut end = Document::new();
    let (mut start_incl, mut end_incl) = (true, true);
    for ((name, _), (kind, ivs)) in key_pattern.iter().zip(kinds.iter().zip(&plan.bounds)) {
        let Some(iv) = ivs.first() else { continue };
        let ((s, si), (e, ei)) = if *kind == KeyKind::Descending {
            ((&iv.high, iv.high_inclusive), (&iv.low, iv.low_inclusive))
        } else {
            ((&iv.low, iv.low_inclusive), (&iv.high, iv.high_inclusive))
        };
        start.insert(name.clone(), s.clone());
        end.insert(name.clone(), e.clone());
        start_incl = si;
        end_incl = ei;
    }
    doc! {
        "startKey": start,
        "startKeyInclusive": start_incl,
        "endKey": end,
        "endKeyInclusive": end_incl,
    }
}
