//! A find through the plan cache (`planner::plan_cache` describes the rules): an active entry's
//! plan runs without a race for a trial of `works × 10`, and is re-planned when it needs more;
//! otherwise the candidates race and the decision is recorded.

use bson::{Document, doc};

use super::multi_plan::{self, MultiPlan, TRIAL_RESULTS};
use super::{ExecContext, Member, Stage, State, build, run_into};
use crate::catalog::Collection;
use crate::error::Result;
use crate::matcher::MatchContext;
use crate::planner::plan_cache::{CacheKey, Decision, EVICTION_RATIO, signature};
use crate::planner::{CanonicalQuery, Solution, plan_find};

/// Plans (through the collection's plan cache) and runs a find: its documents in result order.
/// `now_millis` stamps a new cache entry's `timeOfCreation`.
pub fn find_cached(
    coll: Option<&Collection>,
    query: &CanonicalQuery<'_>,
    match_ctx: &MatchContext<'_>,
    now_millis: i64,
) -> Result<Vec<Document>> {
    let Some(c) = coll.filter(|_| cacheable(query)) else {
        return super::find(coll, query, match_ctx);
    };
    let candidates = plan_find(coll, query)?;
    if candidates.len() < 2 {
        // One possible plan: MongoDB neither races nor caches it. It runs as planned here
        // (planning again, as `execute` would, is a fixed cost a point lookup notices).
        return super::run_only(coll, query, match_ctx, candidates.first());
    }
    let cx = ExecContext {
        coll,
        query,
        match_ctx,
    };
    let key = CacheKey::of(query, &candidates);
    let active = crate::planner::plan_cache::cache_of(c)
        .get(&key)
        .filter(|e| e.is_active)
        .map(|e| (e.plan.clone(), e.works));
    if let Some((plan, works)) = active {
        if let Some(sol) = candidates.iter().find(|s| signature(s) == plan) {
            let mut stage = build(sol, cx)?;
            if let Some(mut members) = cached_trial(stage.as_mut(), works * EVICTION_RATIO) {
                run_into(stage.as_mut(), &mut members)?;
                return Ok(members
                    .into_iter()
                    .map(|m| m.into_find_result(query.spec))
                    .collect());
            }
        }
        // The cached plan needed more than its budget (or no longer applies): re-plan.
        crate::planner::plan_cache::cache_of(c).evict(&key);
    }
    let sols = candidates.clone();
    let mut stages = Vec::with_capacity(candidates.len());
    for s in &candidates {
        stages.push(build(s, cx)?);
    }
    let mut race = MultiPlan::new(candidates, stages, c.len());
    race.pick_best()?;
    let w = race.winner();
    let mut members = race.take_buffered();
    let (_, mut stage, _, trials) = race.into_parts();
    // A winner that produced nothing and did not finish in the trial is not worth caching.
    if !members.is_empty() || trials[w].common.is_eof {
        let decision = decide(query, key, &sols, &trials, w, now_millis);
        crate::planner::plan_cache::cache_of(c).record(decision);
    }
    run_into(stage.as_mut(), &mut members)?;
    Ok(members
        .into_iter()
        .map(|m| m.into_find_result(query.spec))
        .collect())
}

/// Whether MongoDB's plan cache would take this query: not a `$text` search, not hinted, and
/// not a rooted `$or` (which MongoDB caches branch by branch).
fn cacheable(query: &CanonicalQuery<'_>) -> bool {
    query.hint.is_none()
        && query.spec.filter.text_query().is_none()
        && crate::planner::or::rooted_or_branches(query).is_none()
}

/// Works the cached plan for up to `budget` works. `Some(results so far)` when it finished or
/// filled a first batch in time; `None` when it must be re-planned.
fn cached_trial(stage: &mut dyn Stage, budget: u64) -> Option<Vec<Member>> {
    let mut members = Vec::new();
    for _ in 0..budget.max(1) {
        match stage.work() {
            Ok(State::Advanced(m)) => {
                members.push(m);
                if members.len() >= TRIAL_RESULTS {
                    return Some(members);
                }
            }
            Ok(State::NeedTime) => {}
            Ok(State::IsEof) => return Some(members),
            Err(_) => return None,
        }
    }
    None
}

/// The cache entry of a race: candidates ranked by score, best first (as `$planCacheStats`
/// lists `creationExecStats` and `candidatePlanScores`).
fn decide(
    query: &CanonicalQuery<'_>,
    key: CacheKey,
    sols: &[Solution],
    trials: &[super::StageStats],
    winner: usize,
    now_millis: i64,
) -> Decision {
    let mut ranked: Vec<(f64, usize)> = trials
        .iter()
        .zip(sols)
        .enumerate()
        .map(|(i, (t, s))| (multi_plan::score(t, s), i))
        .collect();
    // Stable: on a tie the earlier candidate (the winner) stays first.
    crate::sort_slice::sort_by(&mut ranked, |a, b| b.0.total_cmp(&a.0));
    let empty = Document::new();
    Decision {
        key,
        winner_works: trials[winner].common.works,
        plan: signature(&sols[winner]),
        created_from_query: doc! {
            "query": query.filter_as_written.unwrap_or(&empty).clone(),
            "sort": query.sort_pattern().unwrap_or(&empty).clone(),
            "projection": query.projection.unwrap_or(&empty).clone(),
        },
        cached_plan: super::stats_document::stage_document(&trials[winner], false),
        creation_exec_stats: ranked
            .iter()
            .map(|&(_, i)| {
                super::stats_document::narrow_counters(super::stats_document::plan_execution_info(
                    &trials[i],
                ))
            })
            .collect(),
        candidate_plan_scores: ranked.iter().map(|&(s, _)| s).collect(),
        now_millis,
    }
}

/// The `planCacheClear` command's shape for a query given as `{query, sort, projection}`.
pub fn shape_for_clear(
    filter: &Document,
    sort: Option<&Document>,
    projection: Option<&Document>,
) -> Result<String> {
    let spec = crate::query::FindSpec::parse(Some(filter), sort, projection, None, None)?;
    let q = CanonicalQuery::new(&spec).with_projection(projection);
    Ok(crate::planner::plan_cache::shape_of(&q))
}
