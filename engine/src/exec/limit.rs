//! LIMIT: passes on the first n results, then reports EOF.

use bson::doc;

use super::{CommonStats, Stage, StageStats, State};
use crate::error::Result;

pub struct Limit<'a> {
    limit: usize,
    returned: usize,
    child: Box<dyn Stage + 'a>,
    common: CommonStats,
}

impl<'a> Limit<'a> {
    pub fn new(limit: usize, child: Box<dyn Stage + 'a>) -> Self {
        Limit {
            limit,
            returned: 0,
            child,
            common: CommonStats::default(),
        }
    }

    fn step(&mut self) -> Result<State> {
        if self.returned >= self.limit {
            return Ok(State::IsEof);
        }
        let s = self.child.work()?;
        if matches!(s, State::Advanced(_)) {
            self.returned += 1;
        }
        Ok(s)
    }
}

impl Stage for Limit<'_> {
    fn work(&mut self) -> Result<State> {
        let s = self.step()?;
        self.common.count(&s);
        Ok(s)
    }

    fn stats(&self) -> StageStats {
        let mut s = StageStats::new("LIMIT", &self.common);
        s.plan = doc! {"limitAmount": self.limit as i64};
        s.children.push(self.child.stats());
        s
    }
}
