//! SKIP: drops the first n results.

use bson::doc;

use super::{CommonStats, Stage, StageStats, State};
use crate::error::Result;

pub struct Skip<'a> {
    skip: usize,
    skipped: usize,
    child: Box<dyn Stage + 'a>,
    common: CommonStats,
}

impl<'a> Skip<'a> {
    pub fn new(skip: usize, child: Box<dyn Stage + 'a>) -> Self {
        Skip {
            skip,
            skipped: 0,
            child,
            common: CommonStats::default(),
        }
    }

    fn step(&mut self) -> Result<State> {
        match self.child.work()? {
            State::Advanced(_) if self.skipped < self.skip => {
                self.skipped += 1;
                Ok(State::NeedTime)
            }
            other => Ok(other),
        }
    }
}

impl Stage for Skip<'_> {
    fn work(&mut self) -> Result<State> {
        let s = self.step()?;
        self.common.count(&s);
        Ok(s)
    }

    fn stats(&self) -> StageStats {
        let mut s = StageStats::new("SKIP", &self.common);
        s.plan = doc! {"skipAmount": self.skip as i64};
        s.children.push(self.child.stats());
        s
    }
}
