//! OR: returns its inputs' results one input after the other, each record once (an indexed
//! `$or`). Every result an input returns is tested against the records already returned
//! (`dupsTested`); repeats are dropped (`dupsDropped`).

use std::collections::HashSet;

use bson::doc;

use super::{CommonStats, Stage, StageStats, State};
use crate::error::Result;

/// OR's (and SORT_MERGE's) de-duplication statistics.
#[derive(Debug, Clone, Default)]
pub struct DedupStats {
    pub dups_tested: u64,
    pub dups_dropped: u64,
    seen: HashSet<u64>,
}

impl DedupStats {
    /// Whether a result with this record id is new (and remembers it).
    pub fn admit(&mut self, record_id: Option<u64>) -> bool {
        let Some(rid) = record_id else {
            return true;
        };
        self.dups_tested += 1;
        if self.seen.insert(rid) {
            true
        } else {
            self.dups_dropped += 1;
            false
        }
    }

    pub fn document(&self) -> bson::Document {
        doc! {
            "dupsTested": self.dups_tested as i64,
            "dupsDropped": self.dups_dropped as i64,
        }
    }
}

pub struct Or<'a> {
    children: Vec<Box<dyn Stage + 'a>>,
    current: usize,
    common: CommonStats,
    dedup: DedupStats,
}

impl<'a> Or<'a> {
    pub fn new(children: Vec<Box<dyn Stage + 'a>>) -> Self {
        Or {
            children,
            current: 0,
            common: CommonStats::default(),
            dedup: DedupStats::default(),
        }
    }

    fn step(&mut self) -> Result<State> {
        let Some(child) = self.children.get_mut(self.current) else {
            return Ok(State::IsEof);
        };
        match child.work()? {
            State::Advanced(m) => {
                if self.dedup.admit(m.record_id) {
                    Ok(State::Advanced(m))
                } else {
                    Ok(State::NeedTime)
                }
            }
            State::NeedTime => Ok(State::NeedTime),
            State::IsEof => {
                self.current += 1;
                if self.current == self.children.len() {
                    Ok(State::IsEof)
                } else {
                    Ok(State::NeedTime)
                }
            }
        }
    }
}

impl Stage for Or<'_> {
    fn work(&mut self) -> Result<State> {
        let s = self.step()?;
        self.common.count(&s);
        Ok(s)
    }

    fn stats(&self) -> StageStats {
        let mut s = StageStats::new("OR", &self.common);
        s.exec = self.dedup.document();
        s.children = self.children.iter().map(|c| c.stats()).collect();
        s
    }
}
