//! DISTINCT_SCAN: returns the first index entry of each distinct value of the index's leading
//! field within its bounds, seeking past the rest of that value's entries (one seek per value).

use bson::{Bson, doc};

use super::{CommonStats, Member, Stage, StageStats, State};
use crate::error::Result;
use crate::index::encode::successor;
use crate::index::{EntryKey, Index, KeyKind};
use crate::planner::IxScanPlan;
use crate::planner::bounds::Interval;

pub struct DistinctScan<'a> {
    index: &'a Index,
    plan: IxScanPlan,
    /// The leading field's intervals in index order.
    intervals: Vec<Interval>,
    ascending: bool,
    interval: usize,
    /// Where the next seek starts (encoded key bytes); `None` before the first.
    next: Option<Vec<u8>>,
    done: bool,
    keys_examined: u64,
    common: CommonStats,
}

impl<'a> DistinctScan<'a> {
    pub fn new(index: &'a Index, plan: IxScanPlan) -> Self {
        let ascending = index.spec.parts.first().map(|p| p.kind) != Some(KeyKind::Descending);
        let mut intervals = plan.bounds.first().cloned().unwrap_or_default();
        if !ascending {
            intervals.reverse();
        }
        DistinctScan {
            index,
            plan,
            intervals,
            ascending,
            interval: 0,
            next: None,
            done: false,
            keys_examined: 0,
            common: CommonStats::default(),
        }
    }

    /// The seek position of the start of interval `k`.
    fn interval_start(&self, k: usize) -> Option<Vec<u8>> {
        let iv = self.intervals.get(k)?;
        let (v, inclusive) = if self.ascending {
            (&iv.low, iv.low_inclusive)
        } else {
            (&iv.high, iv.high_inclusive)
        };
        let bytes = self.index.encode_key(std::slice::from_ref(v));
        if inclusive {
            Some(bytes)
        } else {
            successor(&bytes)
        }
    }

    fn step(&mut self) -> State {
        if self.done {
            return State::IsEof;
        }
        let target = match self.next.take() {
            Some(t) => Some(t),
            None => self.interval_start(self.interval),
        };
        let entry: Option<(&EntryKey, &Vec<Bson>)> =
            target.and_then(|t| self.index.seek(&(t, 0), true));
        let Some((pos, key)) = entry else {
            self.done = true;
            return State::IsEof;
        };
        self.keys_examined += 1;
        let v0 = key.first().cloned().unwrap_or(Bson::Null);
        let Some(iv) = self.intervals.get(self.interval) else {
            self.done = true;
            return State::IsEof;
        };
        let mut loc = iv.locate(&v0);
        if !self.ascending {
            loc = loc.reverse();
        }
        match loc {
            std::cmp::Ordering::Equal => {}
            std::cmp::Ordering::Less => {
                self.next = self.interval_start(self.interval);
                return State::NeedTime;
            }
            std::cmp::Ordering::Greater => {
                self.interval += 1;
                if self.interval >= self.intervals.len() {
                    self.done = true;
                    return State::IsEof;
                }
                self.next = self.interval_start(self.interval);
                return State::NeedTime;
            }
        }
        // Past every entry that shares this leading value.
        match successor(&self.index.encode_key(std::slice::from_ref(&v0))) {
            Some(t) => self.next = Some(t),
            None => self.done = true,
        }
        let names = self.index.spec.parts.iter().map(|p| p.dotted.clone());
        State::Advanced(Member {
            record_id: Some(pos.1),
            doc: None,
            key: Some(names.zip(key.iter().cloned()).collect()),
            text_score: None,
            geo_near: None,
        })
    }
}

impl Stage for DistinctScan<'_> {
    fn work(&mut self) -> Result<State> {
        let s = self.step();
        self.common.count(&s);
        Ok(s)
    }

    fn stats(&self) -> StageStats {
        let mut scan = super::index_scan::IndexScan::new(self.index, self.plan.clone()).stats();
        scan.stage = "DISTINCT_SCAN";
        scan.common = self.common.clone();
        scan.exec = doc! {"keysExamined": self.keys_examined as i64};
        scan.keys_examined = self.keys_examined;
        scan
    }
}
