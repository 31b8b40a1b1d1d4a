//! EOF: the plan of a query that can return nothing (its collection does not exist).

use bson::doc;

use super::{CommonStats, Stage, StageStats, State};
use crate::error::Result;

#[derive(Default)]
pub struct Eof {
    common: CommonStats,
}

impl Eof {
    pub fn new() -> Self {
        Eof::default()
    }
}

impl Stage for Eof {
    fn work(&mut self) -> Result<State> {
        let s = State::IsEof;
        self.common.count(&s);
        Ok(s)
    }

    fn stats(&self) -> StageStats {
        let mut s = StageStats::new("EOF", &self.common);
        s.plan = doc! {"type": "nonExistentNamespace"};
        s
    }
}
