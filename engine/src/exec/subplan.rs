//! SUBPLAN: the root of a rooted `$or`'s plan. [`plan_rooted_or`] races each branch's index
//! candidates separately (a multi-planner trial per branch, as MongoDB's SubplanStage does)
//! and composes the winners; the [`Subplan`] stage then just passes its input's results on.

use super::multi_plan::MultiPlan;
use super::{CommonStats, ExecContext, Stage, StageStats, State, build};
use crate::catalog::Collection;
use crate::error::Result;
use crate::planner::Solution;
use crate::planner::or::{branch_candidates, compose};

/// The composed plan of a rooted `$or`: `Ok(None)` when some branch can use no index (the
/// whole query is then planned as usual).
pub fn plan_rooted_or(
    coll: &Collection,
    branches: &[crate::matcher::Filter],
    cx: ExecContext<'_>,
) -> Result<Option<Solution>> {
    let mut winners = Vec::with_capacity(branches.len());
    for branch in branches {
        let Some(mut plans) = branch_candidates(coll, branch, cx.query)? else {
            return Ok(None);
        };
        let chosen = if plans.len() == 1 {
            plans.remove(0)
        } else {
            let solutions: Vec<Solution> = plans.iter().map(|p| p.solution.clone()).collect();
            let mut stages = Vec::with_capacity(solutions.len());
            for s in &solutions {
                stages.push(build(s, cx)?);
            }
            let mut race = MultiPlan::new(solutions, stages, coll.len());
            race.pick_best()?;
            plans.swap_remove(race.winner())
        };
        winners.push(chosen);
    }
    Ok(Some(compose(cx.query, winners, None)?))
}

pub struct Subplan<'a> {
    child: Box<dyn Stage + 'a>,
    common: CommonStats,
}

impl<'a> Subplan<'a> {
    /// Wraps the chosen plan. `trial` holds the work the plan already did while it was being
    /// chosen (on this stage's behalf), so the counters cover the whole execution.
    pub fn new(child: Box<dyn Stage + 'a>, trial: CommonStats) -> Self {
        Subplan {
            child,
            common: trial,
        }
    }
}

impl Stage for Subplan<'_> {
    fn work(&mut self) -> Result<State> {
        let s = self.child.work()?;
        self.common.count(&s);
        Ok(s)
    }

    fn stats(&self) -> StageStats {
        let mut s = StageStats::new("SUBPLAN", &self.common);
        s.children.push(self.child.stats());
        s
    }
}
