//! The multi-planner: candidate plans run round-robin, one `work()` each in turn, until one
//! reaches EOF or returns a full first batch (101 documents) or the work budget runs out
//! (10,000 works or 29% of the collection). Each is then scored as MongoDB does:
//! `1 + advanced/works`, plus 1 for reaching EOF, plus small tie-breakers for a plan with no
//! FETCH, no blocking SORT and no index intersection; tied plans get `tie_break`'s bonuses. The
//! best plan wins (the first on a remaining tie);
//! its buffered results are returned first and it runs on from where the trial stopped.

use super::{Member, Stage, StageStats, State};
use crate::error::Result;
use crate::planner::Solution;

/// Results a plan may buffer before the trial ends (a default first batch).
pub const TRIAL_RESULTS: usize = 101;
/// internalQueryPlanEvaluationWorks.
pub const TRIAL_WORKS: u64 = 10_000;

pub struct MultiPlan<'a> {
    candidates: Vec<Solution>,
    stages: Vec<Box<dyn Stage + 'a>>,
    buffers: Vec<Vec<Member>>,
    failed: Vec<bool>,
    budget: u64,
    winner: usize,
    trials: Vec<StageStats>,
}

impl<'a> MultiPlan<'a> {
    pub fn new(
        candidates: Vec<Solution>,
        stages: Vec<Box<dyn Stage + 'a>>,
        collection_len: usize,
    ) -> Self {
        let n = stages.len();
        MultiPlan {
            candidates,
            stages,
            buffers: vec![Vec::new(); n],
            failed: vec![false; n],
            budget: TRIAL_WORKS.max((collection_len as f64 * 0.29) as u64),
            winner: 0,
            trials: Vec::new(),
        }
    }

    /// Runs the trial and chooses the winner. With a single candidate there is no trial.
    pub fn pick_best(&mut self) -> Result<()> {
        if self.stages.len() <= 1 {
            return Ok(());
        }
        let mut first_error = None;
        let mut works = 0;
        while works < self.budget {
            works += 1;
            let mut alive = false;
            // As MongoDB's workAllPlans: a plan reaching EOF or a full batch ends the trial
            // after the round, so every plan gets the same number of works.
            let mut done = false;
            for i in 0..self.stages.len() {
                if self.failed[i] {
                    continue;
                }
                alive = true;
                match self.stages[i].work() {
                    Ok(State::Advanced(m)) => {
                        self.buffers[i].push(m);
                        done |= self.buffers[i].len() >= TRIAL_RESULTS;
                    }
                    Ok(State::NeedTime) => {}
                    Ok(State::IsEof) => done = true,
                    Err(e) => {
                        self.failed[i] = true;
                        first_error.get_or_insert(e);
                    }
                }
            }
            if !alive || done {
                break;
            }
        }
        self.trials = self.stages.iter().map(|s| s.stats()).collect();
        let mut scores: Vec<Option<f64>> = self
            .trials
            .iter()
            .enumerate()
            .map(|(i, stats)| (!self.failed[i]).then(|| score(stats, &self.candidates[i])))
            .collect();
        super::tie_break::add_bonuses(&mut scores, &self.candidates, &self.trials);
        let mut best: Option<(usize, f64)> = None;
        for (i, score) in scores.iter().enumerate() {
            let Some(score) = *score else { continue };
            if best.is_none_or(|(_, b)| score > b) {
                best = Some((i, score));
            }
        }
        match best {
            Some((i, _)) => {
                self.winner = i;
                Ok(())
            }
            None => Err(first_error.unwrap_or_else(|| {
                crate::error::Error::new(
                    crate::error::ErrorCode::NoQueryExecutionPlans,
                    "error processing query: no query solutions",
                )
            })),
        }
    }

    /// The index of the winning candidate (after [`Self::pick_best`]).
    pub fn winner(&self) -> usize {
        self.winner
    }

    /// The winner's results from the trial.
    pub fn take_buffered(&mut self) -> Vec<Member> {
        std::mem::take(&mut self.buffers[self.winner])
    }

    /// The winning solution and stage, the rejected ones with their trial statistics, and every
    /// candidate's trial statistics.
    #[allow(clippy::type_complexity)]
    pub fn into_parts(
        mut self,
    ) -> (
        Solution,
        Box<dyn Stage + 'a>,
        Vec<(Solution, StageStats)>,
        Vec<StageStats>,
    ) {
        let w = self.winner;
        let trials = std::mem::take(&mut self.trials);
        let mut rejected = Vec::new();
        let mut winner = None;
        for (i, (sol, stage)) in self.candidates.into_iter().zip(self.stages).enumerate() {
            if i == w {
                winner = Some((sol, stage));
            } else {
                rejected.push((sol, stage.stats()));
            }
        }
        let (sol, stage) =
            winner.unwrap_or_else(|| (Solution::Eof, Box::new(super::eof::Eof::new())));
        (sol, stage, rejected, trials)
    }
}

/// MongoDB's plan score.
pub fn score(stats: &StageStats, solution: &Solution) -> f64 {
    let works = stats.common.works.max(1) as f64;
    let productivity = stats.common.advanced as f64 / works;
    let epsilon = (1.0 / (10.0 * works)).min(1e-4);
    let mut bonus = epsilon; // no index intersection
    if !solution.has_fetch() {
        bonus += epsilon;
    }
    if !solution.has_sort() {
        bonus += epsilon;
    }
    let eof = if stats.common.is_eof { 1.0 } else { 0.0 };
    1.0 + productivity + bonus + eof
}
