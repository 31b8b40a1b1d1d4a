//! SORT: a blocking sort. It reads its whole input, keeps at most `limit` results when it has
//! one (top-k), and fails past MongoDB's 100 MB memory limit: with `allowDiskUse: false` as
//! MongoDB does; otherwise where MongoDB would spill to disk, saying that Sprout cannot.

use std::cmp::Ordering;

use bson::{Document, doc};

use super::{CommonStats, Member, Stage, StageStats, State};
use crate::error::{Error, Result};
use crate::query::FindSpec;
use crate::value::bson_size::document_size;

/// internalQueryMaxBlockingSortMemoryUsageBytes.
pub const MEMORY_LIMIT_BYTES: u64 = 104_857_600;

/// SORT's specific statistics.
#[derive(Debug, Clone, Default)]
pub struct SortStats {
    pub total_data_size_sorted: u64,
}

pub struct Sort<'a> {
    spec: &'a FindSpec,
    pattern: Document,
    limit: Option<usize>,
    child: Box<dyn Stage + 'a>,
    buffer: Vec<(Document, Member)>,
    /// Bytes held now (bounded by the limit when there is one).
    held: u64,
    sorted: bool,
    out: std::vec::IntoIter<(Document, Member)>,
    common: CommonStats,
    specific: SortStats,
}

impl<'a> Sort<'a> {
    pub fn new(
        spec: &'a FindSpec,
        pattern: Document,
        limit: Option<usize>,
        child: Box<dyn Stage + 'a>,
    ) -> Self {
        Sort {
            spec,
            pattern,
            limit,
            child,
            buffer: Vec::new(),
            held: 0,
            sorted: false,
            out: Vec::new().into_iter(),
            common: CommonStats::default(),
            specific: SortStats::default(),
        }
    }

    fn compare(&self, a: &(Document, Member), b: &(Document, Member)) -> Ordering {
        self.spec.sort.as_ref().map_or(Ordering::Equal, |s| {
            s.compare_scored(&a.0, a.1.text_score, &b.0, b.1.text_score)
        })
    }

    fn step(&mut self) -> Result<State> {
        if self.sorted {
            return Ok(match self.out.next() {
                Some((d, mut m)) => {
                    m.doc = Some(d);
                    State::Advanced(m)
                }
                None => State::IsEof,
            });
        }
        match self.child.work()? {
            State::Advanced(mut m) => {
                // The document moves into the buffer beside its member (put back on the way
                // out), so the sort holds one copy.
                let d = match m.doc.take() {
                    Some(d) => d,
                    None => m.document(),
                };
                let size = document_size(&d) as u64;
                self.specific.total_data_size_sorted += size;
                self.held += size;
                self.buffer.push((d, m));
                if let Some(limit) = self.limit
                    && self.buffer.len() > limit.saturating_mul(2).max(64)
                {
                    self.trim(limit);
                }
                if self.held > MEMORY_LIMIT_BYTES {
                    // MongoDB's text with `allowDiskUse: false`; otherwise MongoDB would spill
                    // to disk, which Sprout cannot, and the message says so.
                    let e = crate::pipeline::memory::exceeded(
                        crate::pipeline::memory::Held::Sort,
                        "the sort",
                        self.held as usize,
                        self.spec.allow_disk_use,
                    );
                    return Err(Error::new(
                        e.code,
                        format!(
                            "Executor error during find command :: caused by :: {}",
                            e.message
                        ),
                    ));
                }
                Ok(State::NeedTime)
            }
            State::NeedTime => Ok(State::NeedTime),
            State::IsEof => {
                let mut all = std::mem::take(&mut self.buffer);
                all.sort_by(|a, b| self.compare(a, b));
                if let Some(l) = self.limit {
                    all.truncate(l);
                }
                self.out = all.into_iter();
                self.sorted = true;
                Ok(State::NeedTime)
            }
        }
    }

    /// Keeps the best `limit` buffered results (a stable top-k).
    fn trim(&mut self, limit: usize) {
        let mut all = std::mem::take(&mut self.buffer);
        all.sort_by(|a, b| self.compare(a, b));
        all.truncate(limit);
        self.held = all.iter().map(|(d, _)| document_size(d) as u64).sum();
        self.buffer = all;
    }
}

impl Stage for Sort<'_> {
    fn work(&mut self) -> Result<State> {
        let s = self.step()?;
        self.common.count(&s);
        Ok(s)
    }

    fn stats(&self) -> StageStats {
        let mut s = StageStats::new("SORT", &self.common);
        s.plan = doc! {"sortPattern": self.pattern.clone(), "memLimit": MEMORY_LIMIT_BYTES as i64};
        if let Some(l) = self.limit {
            s.plan.insert("limitAmount", l as i64);
        }
        s.plan.insert("type", "simple");
        s.exec = doc! {
            "totalDataSizeSorted": self.specific.total_data_size_sorted as i64,
            "usedDisk": false,
            "spills": 0_i64,
            "spilledDataStorageSize": 0_i64,
        };
        s.children.push(self.child.stats());
        s
    }
}
