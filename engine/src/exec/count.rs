//! COUNT and RECORD_STORE_FAST_COUNT, and [`execute_count`], the `count` command's plan: the
//! query's find plans (each turned into COUNT_SCAN where the index answers alone) race as for a
//! find, and COUNT counts what the winner returns (after `skip`, up to `limit`). A count with
//! no query reads the collection's size (RECORD_STORE_FAST_COUNT).

use bson::doc;

use super::collection_scan::CollectionScan;
use super::{CommonStats, ExecContext, Execution, Stage, StageStats, State, build, multi_plan};
use crate::catalog::Collection;
use crate::error::Result;
use crate::matcher::MatchContext;
use crate::planner::count::as_count_scan;
use crate::planner::{CanonicalQuery, Solution, plan_find};

/// COUNT's and RECORD_STORE_FAST_COUNT's statistics.
#[derive(Debug, Clone, Copy, Default)]
pub struct CountStats {
    pub n_counted: u64,
    pub n_skipped: u64,
}

impl CountStats {
    fn add(&mut self, skip: u64) {
        if self.n_skipped < skip {
            self.n_skipped += 1;
        } else {
            self.n_counted += 1;
        }
    }

    fn document(&self) -> bson::Document {
        doc! {"nCounted": self.n_counted as i64, "nSkipped": self.n_skipped as i64}
    }
}

pub struct Count<'a> {
    skip: u64,
    /// 0: no limit.
    limit: u64,
    child: Box<dyn Stage + 'a>,
    done: bool,
    common: CommonStats,
    specific: CountStats,
}

impl<'a> Count<'a> {
    /// `already` holds the results the child returned while its plan was being chosen.
    pub fn new(skip: u64, limit: u64, child: Box<dyn Stage + 'a>, already: usize) -> Self {
        let mut c = Count {
            skip,
            limit,
            child,
            done: false,
            common: CommonStats::default(),
            specific: CountStats::default(),
        };
        for _ in 0..already {
            c.count_one();
        }
        c
    }

    fn count_one(&mut self) {
        if self.limit > 0 && self.specific.n_counted >= self.limit {
            self.done = true;
            return;
        }
        self.specific.add(self.skip);
        if self.limit > 0 && self.specific.n_counted >= self.limit {
            self.done = true;
        }
    }

    fn step(&mut self) -> Result<State> {
        if self.done {
            return Ok(State::IsEof);
        }
        match self.child.work()? {
            State::Advanced(_) => {
                self.count_one();
                Ok(State::NeedTime)
            }
            other => Ok(other),
        }
    }

    pub fn n(&self) -> u64 {
        self.specific.n_counted
    }
}

impl Stage for Count<'_> {
    fn work(&mut self) -> Result<State> {
        let s = self.step()?;
        self.common.count(&s);
        Ok(s)
    }

    fn stats(&self) -> StageStats {
        let mut s = StageStats::new("COUNT", &self.common);
        s.exec = self.specific.document();
        s.children.push(self.child.stats());
        s
    }
}

/// RECORD_STORE_FAST_COUNT: the collection's size, minus `skip`, at most `limit`.
pub struct FastCount {
    total: u64,
    skip: u64,
    limit: u64,
    done: bool,
    common: CommonStats,
    specific: CountStats,
}

impl FastCount {
    pub fn new(total: u64, skip: u64, limit: u64) -> Self {
        FastCount {
            total,
            skip,
            limit,
            done: false,
            common: CommonStats::default(),
            specific: CountStats::default(),
        }
    }
}

impl Stage for FastCount {
    fn work(&mut self) -> Result<State> {
        let s = if self.done {
            State::IsEof
        } else {
            self.done = true;
            self.specific.n_skipped = self.skip.min(self.total);
            let left = self.total - self.specific.n_skipped;
            self.specific.n_counted = if self.limit > 0 {
                left.min(self.limit)
            } else {
                left
            };
            State::IsEof
        };
        self.common.count(&s);
        Ok(s)
    }

    fn stats(&self) -> StageStats {
        let mut s = StageStats::new("RECORD_STORE_FAST_COUNT", &self.common);
        s.exec = self.specific.document();
        s
    }
}

/// Plans and (with `run_to_end`) runs a count: the number counted and the execution for explain.
pub fn execute_count(
    coll: Option<&Collection>,
    query: &CanonicalQuery<'_>,
    skip: u64,
    limit: u64,
    match_ctx: &MatchContext<'_>,
    run_to_end: bool,
) -> Result<(u64, Execution)> {
    let cx = ExecContext {
        coll,
        query,
        match_ctx,
    };
    if query.conjuncts().is_empty() && query.hint.is_none() {
        let total = coll.map_or(0, |c| c.len() as u64);
        let mut root = FastCount::new(total, skip, limit);
        if run_to_end {
            root.work()?;
        }
        let n = root.specific.n_counted;
        let stats = root.stats();
        return Ok((n, Execution::single(Solution::Eof, stats)));
    }
    let candidates: Vec<Solution> = plan_find(coll, query)?
        .into_iter()
        .map(|s| as_count_scan(&s).unwrap_or(s))
        .collect();
    let mut stages = Vec::with_capacity(candidates.len());
    for c in &candidates {
        let stage: Box<dyn Stage + '_> = match (c, coll) {
            // COUNT reads no document of the scan under it: 100k copies saved on a large
            // collection.
            (Solution::CollScan { forward, filter }, Some(coll)) => Box::new(
                CollectionScan::new(coll, *forward, filter.clone(), match_ctx).without_documents(),
            ),
            _ => build(c, cx)?,
        };
        stages.push(stage);
    }
    let mut race = multi_plan::MultiPlan::new(candidates, stages, coll.map_or(0, Collection::len));
    race.pick_best()?;
    let buffered = race.take_buffered().len();
    let (winner, stage, rejected, trials) = race.into_parts();
    let mut root = Count::new(skip, limit, stage, buffered);
    if run_to_end {
        while !matches!(root.work()?, State::IsEof) {}
        super::record_index_use(coll, &winner);
    }
    Ok((
        root.n(),
        Execution {
            meta: None,
            docs: Vec::new(),
            record_ids: Vec::new(),
            winner,
            winner_stats: root.stats(),
            rejected,
            trials,
        },
    ))
}
