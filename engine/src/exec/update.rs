//! UPDATE, as explain runs it: applies the update to each document its input returns (all of
//! them, or the first for a single update) without storing anything, counting matches
//! (`nMatched`), real changes (`nWouldModify`) and an upsert when nothing matched
//! (`nWouldUpsert`).

use bson::doc;

use super::{CommonStats, Stage, StageStats, State};
use crate::error::Result;
use crate::expression::EvalContext;
use crate::matcher::Filter;
use crate::update::{ArrayFilters, UpdateEnv, UpdateSpec};

/// UPDATE's specific statistics.
#[derive(Debug, Clone, Default)]
pub struct UpdateStats {
    pub n_matched: u64,
    pub n_would_modify: u64,
    pub n_would_upsert: u64,
}

/// What the explained update applies.
pub struct UpdatePlan<'a> {
    pub spec: &'a UpdateSpec,
    pub filter: &'a Filter,
    pub array_filters: &'a ArrayFilters,
    pub now_millis: i64,
    /// The command's `$$NOW` for pipeline-style updates.
    pub eval: &'a EvalContext,
    pub multi: bool,
    pub upsert: bool,
}

pub struct Update<'a> {
    plan: UpdatePlan<'a>,
    done: bool,
    child: Box<dyn Stage + 'a>,
    common: CommonStats,
    specific: UpdateStats,
}

impl<'a> Update<'a> {
    pub fn new(plan: UpdatePlan<'a>, child: Box<dyn Stage + 'a>) -> Self {
        Update {
            plan,
            done: false,
            child,
            common: CommonStats::default(),
            specific: UpdateStats::default(),
        }
    }

    fn step(&mut self) -> Result<State> {
        if self.done {
            return Ok(State::IsEof);
        }
        match self.child.work()? {
            State::Advanced(m) => {
                let doc = m.view();
                self.specific.n_matched += 1;
                let matched_position = if self.plan.spec.is_positional() {
                    self.plan.filter.first_array_position(&doc)
                } else {
                    None
                };
                let env = UpdateEnv {
                    array_filters: self.plan.array_filters,
                    now_millis: self.plan.now_millis,
                    matched_position,
                    eval: self.plan.eval,
                };
                if self.plan.spec.apply(&doc, &env)?.is_some() {
                    self.specific.n_would_modify += 1;
                }
                if !self.plan.multi {
                    self.done = true;
                }
                Ok(State::NeedTime)
            }
            State::IsEof => {
                if self.specific.n_matched == 0 && self.plan.upsert {
                    self.specific.n_would_upsert = 1;
                }
                self.done = true;
                Ok(State::IsEof)
            }
            State::NeedTime => Ok(State::NeedTime),
        }
    }
}

impl Stage for Update<'_> {
    fn work(&mut self) -> Result<State> {
        let s = self.step()?;
        self.common.count(&s);
        Ok(s)
    }

    fn stats(&self) -> StageStats {
        let mut s = StageStats::new("UPDATE", &self.common);
        s.exec = doc! {
            "nMatched": self.specific.n_matched as i64,
            "nWouldModify": self.specific.n_would_modify as i64,
            "nWouldUpsert": self.specific.n_would_upsert as i64,
        };
        s.children.push(self.child.stats());
        s
    }
}
