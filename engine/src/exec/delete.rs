//! DELETE, as explain runs it: counts the documents its input would delete (all of them, or
//! the first for a single delete) without removing anything (`nWouldDelete`).

use bson::doc;

use super::{CommonStats, Stage, StageStats, State};
use crate::error::Result;

/// DELETE's specific statistics.
#[derive(Debug, Clone, Default)]
pub struct DeleteStats {
    pub n_would_delete: u64,
}

pub struct Delete<'a> {
    multi: bool,
    done: bool,
    child: Box<dyn Stage + 'a>,
    common: CommonStats,
    specific: DeleteStats,
}

impl<'a> Delete<'a> {
    pub fn new(multi: bool, child: Box<dyn Stage + 'a>) -> Self {
        Delete {
            multi,
            done: false,
            child,
            common: CommonStats::default(),
            specific: DeleteStats::default(),
        }
    }

    fn step(&mut self) -> Result<State> {
        if self.done {
            return Ok(State::IsEof);
        }
        match self.child.work()? {
            State::Advanced(_) => {
                self.specific.n_would_delete += 1;
                if !self.multi {
                    self.done = true;
                }
                Ok(State::NeedTime)
            }
            other => Ok(other),
        }
    }
}

impl Stage for Delete<'_> {
    fn work(&mut self) -> Result<State> {
        let s = self.step()?;
        self.common.count(&s);
        Ok(s)
    }

    fn stats(&self) -> StageStats {
        let mut s = StageStats::new("DELETE", &self.common);
        s.exec = doc! {"nWouldDelete": self.specific.n_would_delete as i64};
        s.children.push(self.child.stats());
        s
    }
}
