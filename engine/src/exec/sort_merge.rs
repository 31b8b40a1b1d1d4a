//! SORT_MERGE: merges inputs that each return results in the sort order into one sorted
//! stream, each record once (MongoDB's MergeSortStage). It first asks every input for one
//! result (NEED_TIME meanwhile), then returns the smallest buffered result and asks that
//! result's input for its next one. Equal sort keys come out in input order.

use std::collections::VecDeque;

use bson::{Document, doc};

use super::or::DedupStats;
use super::{CommonStats, Member, Stage, StageStats, State};
use crate::error::Result;
use crate::query::FindSpec;

pub struct SortMerge<'a> {
    spec: &'a FindSpec,
    pattern: Document,
    children: Vec<Box<dyn Stage + 'a>>,
    /// Inputs with no buffered result that are not at EOF, in the order they are asked.
    waiting: VecDeque<usize>,
    /// One buffered result per input at most: (input, sort document, member).
    merging: Vec<(usize, Document, Member)>,
    common: CommonStats,
    dedup: DedupStats,
}

impl<'a> SortMerge<'a> {
    pub fn new(spec: &'a FindSpec, pattern: Document, children: Vec<Box<dyn Stage + 'a>>) -> Self {
        SortMerge {
            spec,
            pattern,
            waiting: (0..children.len()).collect(),
            children,
            merging: Vec::new(),
            common: CommonStats::default(),
            dedup: DedupStats::default(),
        }
    }

    fn step(&mut self) -> Result<State> {
        if let Some(&i) = self.waiting.front() {
            return Ok(match self.children[i].work()? {
                State::Advanced(m) => {
                    if self.dedup.admit(m.record_id) {
                        let key = m.document();
                        self.merging.push((i, key, m));
                        self.waiting.pop_front();
                    }
                    State::NeedTime
                }
                State::IsEof => {
                    self.waiting.pop_front();
                    State::NeedTime
                }
                State::NeedTime => State::NeedTime,
            });
        }
        let Some(best) = self.smallest() else {
            return Ok(State::IsEof);
        };
        let (i, _, m) = self.merging.remove(best);
        self.waiting.push_back(i);
        Ok(State::Advanced(m))
    }

    fn smallest(&self) -> Option<usize> {
        let sort = self.spec.sort.as_ref();
        (0..self.merging.len()).min_by(|&a, &b| {
            let (ia, da, _) = &self.merging[a];
            let (ib, db, _) = &self.merging[b];
            sort.map_or(std::cmp::Ordering::Equal, |s| s.compare(da, db))
                .then(ia.cmp(ib))
        })
    }
}

impl Stage for SortMerge<'_> {
    fn work(&mut self) -> Result<State> {
        let s = self.step()?;
        self.common.count(&s);
        Ok(s)
    }

    fn stats(&self) -> StageStats {
        let mut s = StageStats::new("SORT_MERGE", &self.common);
        s.plan = doc! {"sortPattern": self.pattern.clone()};
        s.exec = self.dedup.document();
        s.children = self.children.iter().map(|c| c.stats()).collect();
        s
    }
}
