//! `$or` planning, as MongoDB's subplanner and indexed-OR enumeration do it.
//!
//! A *rooted* `$or` (the whole filter is one `$or`, no hint, no `$natural` sort) is planned
//! branch by branch: each branch gets the index access paths its own conjuncts allow
//! ([`branch_candidates`]), `exec::subplan` races them per branch, and [`compose`] joins the
//! winners under an `OR` stage (each record once; `dupsTested`/`dupsDropped`), or under
//! `SORT_MERGE` when every branch returns the requested sort order. The whole plan sits under
//! `SUBPLAN`. When one branch cannot use any index, the whole query is planned as usual
//! (usually a COLLSCAN) — still under `SUBPLAN`, as MongoDB's `choosePlanWholeQuery` does.
//!
//! A *contained* `$or` (`{c: 1, $or: [...]}`) adds one candidate to the ordinary ones: a FETCH
//! with the other conjuncts as its filter over an OR of the branches, each branch on its first
//! usable index (MongoDB's enumerator's first choice); the multi-planner decides.

use super::predicates::{Conjunct, residual};
use super::{CanonicalQuery, Solution, finish_with, index_access};
use crate::catalog::Collection;
use crate::error::Result;
use crate::matcher::Filter;
use crate::query::FindSpec;
use crate::query::canonical::{branch_conjuncts, or_branches};

/// One branch's index access path and the scan direction that provides the sort, if any.
#[derive(Debug, Clone)]
pub struct BranchPlan {
    pub solution: Solution,
    pub sort_dir: Option<bool>,
}

/// The branches of a rooted `$or` the subplanner applies to.
pub fn rooted_or_branches(q: &CanonicalQuery<'_>) -> Option<Vec<Filter>> {
    if q.hint.is_some() || q.spec.sort.as_ref().and_then(|s| s.natural()).is_some() {
        return None;
    }
    match q.conjuncts() {
        [only] => or_branches(only),
        _ => None,
    }
}

/// Every index access path one branch can use (a predicate bounds the index's leading key
/// part); `None` when the branch can use no index, which makes the whole `$or` unindexable.
pub fn branch_candidates(
    coll: &Collection,
    branch: &Filter,
    q: &CanonicalQuery<'_>,
) -> Result<Option<Vec<BranchPlan>>> {
    let spec = FindSpec {
        sort: q.spec.sort.clone(),
        ..FindSpec::of_filter(branch.clone())
    };
    let branch_query = CanonicalQuery::new(&spec);
    let parts = branch_conjuncts(branch);
    let mut out = Vec::new();
    for index in coll.indexes() {
        if index.spec.hidden {
            continue;
        }
        if let Some(access) = index_access(index, &parts, &branch_query)?
            && access.leading_usable
        {
            // A FETCH without a filter is added once, above the union.
            let solution = match access.solution {
                Solution::Fetch {
                    filter: None,
                    child,
                } => *child,
                other => other,
            };
            out.push(BranchPlan {
                solution,
                sort_dir: access.sort_dir,
            });
        }
    }
    // A plan that returns the sort order needs no blocking SORT: on a tie in the branch's
    // trial it wins, as MongoDB's no-SORT bonus makes it.
    crate::sort_slice::sort_by_key(&mut out, |b| b.sort_dir.is_none());
    Ok((!out.is_empty()).then_some(out))
}

/// The union of the branches' chosen plans: `SORT_MERGE` when each provides the sort, else
/// `OR`; under a FETCH (with `fetch_filter`) unless every branch already fetched; then the
/// find's SORT/SKIP/LIMIT/PROJECTION.
pub fn compose(
    q: &CanonicalQuery<'_>,
    branches: Vec<BranchPlan>,
    fetch_filter: Option<super::predicates::Residual>,
) -> Result<Solution> {
    let (access, sorted) = union(q, branches, fetch_filter);
    finish_with(q, access, sorted, false)
}

/// [`compose`]'s access path alone, and whether it returns the find's sort order.
pub fn union(
    q: &CanonicalQuery<'_>,
    branches: Vec<BranchPlan>,
    fetch_filter: Option<super::predicates::Residual>,
) -> (Solution, bool) {
    let sorted = q.spec.sort.is_some() && branches.iter().all(|b| b.sort_dir.is_some());
    let all_fetched = branches
        .iter()
        .all(|b| matches!(b.solution, Solution::Fetch { .. }));
    let children: Vec<Solution> = branches.into_iter().map(|b| b.solution).collect();
    let union = if sorted {
        Solution::SortMerge {
            pattern: q.sort_pattern().cloned().unwrap_or_default(),
            children,
        }
    } else {
        Solution::Or { children }
    };
    let access = if all_fetched && fetch_filter.is_none() {
        union
    } else {
        Solution::Fetch {
            filter: fetch_filter,
            child: Box::new(union),
        }
    };
    (access, sorted)
}

/// A `$or` conjunct's branches and the conjuncts beside it.
pub struct ContainedOr<'a> {
    pub branches: Vec<Filter>,
    pub rest: Vec<&'a Conjunct>,
}

/// The first `$or` among `parts` whose branches `wanted` accepts, split from the other
/// conjuncts (which become the FETCH's filter over the union of the branches' plans).
pub fn split_contained_or(
    parts: &[Conjunct],
    wanted: impl Fn(&[Filter]) -> bool,
) -> Option<ContainedOr<'_>> {
    let (at, branches) = parts
        .iter()
        .enumerate()
        .find_map(|(i, c)| or_branches(c).filter(|b| wanted(b)).map(|b| (i, b)))?;
    let rest = parts
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != at)
        .map(|(_, c)| c)
        .collect();
    Some(ContainedOr { branches, rest })
}

/// The indexed-OR candidate for a filter with a `$or` beside other conjuncts.
pub fn contained_or_candidate(
    coll: &Collection,
    parts: &[Conjunct],
    q: &CanonicalQuery<'_>,
) -> Result<Option<Solution>> {
    if parts.len() < 2 {
        return Ok(None);
    }
    let Some(ContainedOr { branches, rest }) = split_contained_or(parts, |_| true) else {
        return Ok(None);
    };
    let mut chosen = Vec::with_capacity(branches.len());
    for branch in &branches {
        match branch_candidates(coll, branch, q)? {
            Some(mut plans) => chosen.push(plans.remove(0)),
            None => return Ok(None),
        }
    }
    let filter = residual(&rest, parts.len(), &q.spec.filter)?;
    Ok(Some(compose(q, chosen, filter)?))
}
