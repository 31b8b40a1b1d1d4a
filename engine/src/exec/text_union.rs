//! OR over a text query's term scans when no score is needed: each record id once, in the
//! order the scans produce them (MongoDB uses its OR stage here, which does not block).

use std::collections::HashSet;

use bson::doc;

use super::{CommonStats, Stage, StageStats, State};
use crate::error::Result;

pub struct TextUnion<'a> {
    children: Vec<Box<dyn Stage + 'a>>,
    current: usize,
    seen: HashSet<u64>,
    common: CommonStats,
    dups_tested: u64,
    dups_dropped: u64,
}

impl<'a> TextUnion<'a> {
    pub fn new(children: Vec<Box<dyn Stage + 'a>>) -> Self {
        TextUnion {
            children,
            current: 0,
            seen: HashSet::new(),
            common: CommonStats::default(),
            dups_tested: 0,
            dups_dropped: 0,
        }
    }

    fn step(&mut self) -> Result<State> {
        let Some(child) = self.children.get_mut(self.current) else {
            return Ok(State::IsEof);
        };
        match child.work()? {
            State::Advanced(m) => {
                if let Some(rid) = m.record_id {
                    self.dups_tested += 1;
                    if !self.seen.insert(rid) {
                        self.dups_dropped += 1;
                        return Ok(State::NeedTime);
                    }
                }
                Ok(State::Advanced(m))
            }
            State::NeedTime => Ok(State::NeedTime),
            State::IsEof => {
                self.current += 1;
                Ok(if self.current < self.children.len() {
                    State::NeedTime
                } else {
                    State::IsEof
                })
            }
        }
    }
}

impl Stage for TextUnion<'_> {
    fn work(&mut self) -> Result<State> {
        let s = self.step()?;
        self.common.count(&s);
        Ok(s)
    }

    fn stats(&self) -> StageStats {
        let mut s = StageStats::new("OR", &self.common);
        s.exec = doc! {
            "dupsTested": self.dups_tested as i64,
            "dupsDropped": self.dups_dropped as i64,
        };
        s.children = self.children.iter().map(|c| c.stats()).collect();
        s
    }
}
