//! SORT: a blocking sort. It reads its whole input and fails past MongoDB's 100 MB memory
//! limit: with `allowDiskUse: false` as MongoDB does; otherwise where MongoDB would spill to
//! disk, saying that Sprout cannot. Each document's sort values are taken once, when it arrives
//! (not per comparison). With a limit it is a top-k sort, as MongoDB's: a heap of the best `limit`
//! results so far, where a newcomer replaces the worst only if it sorts before it, so memory
//! holds `limit` documents. Equal sort keys keep input order (a stable sort).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use bson::{Bson, Document, doc};

use super::{CommonStats, Member, Stage, StageStats, State};
use crate::catalog::Collection;
use crate::error::{Error, Result};
use crate::query::FindSpec;
use crate::sort::SortSpec;
use crate::value::bson_size::document_size;

/// internalQueryMaxBlockingSortMemoryUsageBytes.
pub const MEMORY_LIMIT_BYTES: u64 = 104_857_600;

/// SORT's specific statistics.
#[derive(Debug, Clone, Default)]
pub struct SortStats {
    pub total_data_size_sorted: u64,
}

/// A result's place in the sort: its sort values (taken once, when it arrives), its text
/// score and its arrival number, so the order is total and equal keys keep input order.
struct RankKey<'a> {
    sort: Option<&'a SortSpec>,
    values: Vec<Bson>,
    score: Option<f64>,
    arrival: u64,
}

impl Ord for RankKey<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.sort
            .map_or(Ordering::Equal, |s| {
                s.compare_extracted(&self.values, self.score, &other.values, other.score)
            })
            .then(self.arrival.cmp(&other.arrival))
    }
}

impl PartialOrd for RankKey<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for RankKey<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for RankKey<'_> {}

/// A buffered result: its place, its size, and the document beside its member.
struct Ranked<'a> {
    key: RankKey<'a>,
    size: u64,
    doc: Document,
    member: Member,
}

impl Ord for Ranked<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.key.cmp(&other.key)
    }
}

impl PartialOrd for Ranked<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Ranked<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl Eq for Ranked<'_> {}

/// What the sort holds while it reads: everything, or (with a limit) the best `limit` so far
/// in a max-heap whose top is the worst of them.
enum Held<'a> {
    All(Vec<Ranked<'a>>),
    TopK {
        limit: usize,
        heap: BinaryHeap<Ranked<'a>>,
    },
}

pub struct Sort<'a> {
    spec: &'a FindSpec,
    pattern: Document,
    limit: Option<usize>,
    child: Box<dyn Stage + 'a>,
    /// The collection, when the child hands out record ids without documents (a COLLSCAN
    /// under a top-k sort): each document is then read in place and copied only if it enters
    /// the best `limit`.
    source: Option<&'a Collection>,
    buffer: Held<'a>,
    /// Results read so far (each one's arrival number).
    arrivals: u64,
    /// Bytes held now (bounded by the limit when there is one).
    held: u64,
    sorted: bool,
    out: std::vec::IntoIter<Ranked<'a>>,
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
        let buffer = match limit {
            Some(limit) => Held::TopK {
                limit,
                heap: BinaryHeap::new(),
            },
            None => Held::All(Vec::new()),
        };
        Sort {
            spec,
            pattern,
            limit,
            child,
            source: None,
            buffer,
            arrivals: 0,
            held: 0,
            sorted: false,
            out: Vec::new().into_iter(),
            common: CommonStats::default(),
            specific: SortStats::default(),
        }
    }

    /// The same sort reading its child's documents from `coll` by record id (the child hands
    /// out record ids only).
    pub fn reading_from(mut self, coll: &'a Collection) -> Self {
        self.source = Some(coll);
        self
    }

    /// A result's place in the sort (it is the next to arrive).
    fn rank(&mut self, doc: &Document, member: &Member) -> RankKey<'a> {
        let values = self
            .spec
            .sort
            .as_ref()
            .map_or_else(Vec::new, |s| s.key_values(doc));
        self.rank_by(values, member)
    }

    /// A result's place given its sort values (it is the next to arrive).
    fn rank_by(&mut self, values: Vec<Bson>, member: &Member) -> RankKey<'a> {
        let spec: &'a FindSpec = self.spec;
        let arrival = self.arrivals;
        self.arrivals += 1;
        RankKey {
            sort: spec.sort.as_ref(),
            values,
            score: member.text_score,
            arrival,
        }
    }

    /// A stored document's place and size read from its BSON bytes, when the sort's values can
    /// be (see [`SortSpec::key_values_raw`]): the document tree is then looked up only if it
    /// enters the best `limit`. `Some(None)`: read, and not held.
    fn rank_stored_bytes(
        &mut self,
        coll: &'a Collection,
        member: &mut Member,
    ) -> Option<Option<Ranked<'a>>> {
        let rid = member.record_id?;
        let bytes = coll.bytes(rid)?;
        let values = self.spec.sort.as_ref()?.key_values_raw(bytes)?;
        let key = self.rank_by(values, member);
        // A document's BSON size is its encoding's length.
        let size = bytes.len() as u64;
        self.specific.total_data_size_sorted += size;
        if !self.admits(&key) {
            return Some(None);
        }
        // The stored bytes and documents are kept in step: a record with bytes has a document.
        Some(coll.get(rid).map(|doc| Ranked {
            key,
            size,
            doc: doc.clone(),
            member: std::mem::take(member),
        }))
    }

    /// Whether a result at `key` would be held (with a limit: whether it is among the best
    /// `limit` so far).
    fn admits(&self, key: &RankKey<'a>) -> bool {
        match &self.buffer {
            Held::All(_) => true,
            Held::TopK { limit, heap } => {
                heap.len() < *limit || heap.peek().is_some_and(|worst| *key < worst.key)
            }
        }
    }

    fn step(&mut self) -> Result<State> {
        if self.sorted {
            return Ok(match self.out.next() {
                Some(r) => {
                    let mut m = r.member;
                    m.doc = Some(r.doc);
                    State::Advanced(m)
                }
                None => State::IsEof,
            });
        }
        match self.child.work()? {
            State::Advanced(mut m) => {
                let source = match (self.source, &m.doc, &m.key) {
                    (Some(coll), None, None) => Some(coll),
                    _ => None,
                };
                // Read from the stored bytes where the sort's values can be.
                let from_bytes = source.and_then(|coll| self.rank_stored_bytes(coll, &mut m));
                let stored = match (source, m.record_id, &from_bytes) {
                    (Some(coll), Some(rid), None) => coll.get(rid),
                    _ => None,
                };
                let ranked = match (from_bytes, stored) {
                    (Some(ranked), _) => ranked,
                    // Read in place: copied only if it enters the best `limit`.
                    (None, Some(doc)) => {
                        let key = self.rank(doc, &m);
                        let size = document_size(doc) as u64;
                        self.specific.total_data_size_sorted += size;
                        self.admits(&key).then(|| Ranked {
                            key,
                            size,
                            doc: doc.clone(),
                            member: m,
                        })
                    }
                    // The document moves into the buffer beside its member (put back on the
                    // way out), so the sort holds one copy.
                    (None, None) => {
                        let doc = match m.doc.take() {
                            Some(d) => d,
                            None => m.document(),
                        };
                        let key = self.rank(&doc, &m);
                        let size = document_size(&doc) as u64;
                        self.specific.total_data_size_sorted += size;
                        Some(Ranked {
                            key,
                            size,
                            doc,
                            member: m,
                        })
                    }
                };
                if let Some(ranked) = ranked {
                    self.hold(ranked);
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
                let sorted = match std::mem::replace(&mut self.buffer, Held::All(Vec::new())) {
                    Held::All(mut all) => {
                        // The arrival number makes the order total, so an unstable sort gives
                        // the stable result.
                        crate::sort_slice::sort(&mut all);
                        all
                    }
                    Held::TopK { heap, .. } => heap.into_sorted_vec(),
                };
                self.held = 0;
                self.out = sorted.into_iter();
                self.sorted = true;
                Ok(State::NeedTime)
            }
        }
    }

    /// Buffers one result: all of them without a limit; with one, only while it is among the
    /// best `limit` so far (it then replaces the worst held).
    fn hold(&mut self, ranked: Ranked<'a>) {
        match &mut self.buffer {
            Held::All(all) => {
                self.held += ranked.size;
                all.push(ranked);
            }
            Held::TopK { limit, heap } => {
                if heap.len() < *limit {
                    self.held += ranked.size;
                    heap.push(ranked);
                } else if let Some(mut worst) = heap.peek_mut()
                    && ranked.key < worst.key
                {
                    self.held = self.held - worst.size + ranked.size;
                    *worst = ranked;
                }
            }
        }
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

#[cfg(test)]
mod tests {
    use bson::{Bson, Document, doc};

    use crate::Engine;
    use crate::catalog::Namespace;
    use crate::query::{FindSpec, run_find};

    fn ids(reply: &Document) -> Vec<Bson> {
        reply
            .get_document("cursor")
            .and_then(|c| c.get_array("firstBatch"))
            .unwrap_or_else(|_| panic!("{reply}"))
            .iter()
            .map(|d| d.as_document().unwrap().get("_id").unwrap().clone())
            .collect()
    }

    /// Values of mixed types, arrays (sorting by their least or greatest element), empty
    /// arrays, nulls, missing fields and many ties.
    fn mixed(i: i32) -> Document {
        let mut d = doc! {"_id": i};
        match i % 9 {
            0 => None,
            1 => d.insert("k", Bson::Null),
            2 => d.insert("k", vec![Bson::Int32(i % 7), Bson::Int32(20 - i % 5)]),
            3 => d.insert("k", Vec::<Bson>::new()),
            4 => d.insert("k", format!("s{}", i % 4)),
            5 => d.insert("k", f64::from(i % 6) + 0.5),
            _ => d.insert("k", i % 5),
        };
        d
    }

    #[test]
    fn top_k_returns_the_first_results_of_the_full_stable_sort() {
        let mut e = Engine::new();
        let docs: Vec<Document> = (0..500).map(mixed).collect();
        e.run_command("t", &doc! {"insert": "c", "documents": docs});
        let ns = Namespace::new("t", "c");
        for sort in [doc! {"k": 1}, doc! {"k": -1}, doc! {"k": -1, "_id": -1}] {
            // The reference: query::find's sort of every document, stable.
            let spec = FindSpec::parse(None, Some(&sort), None, None, None).unwrap();
            let all: Vec<Bson> = run_find(e.catalog().collection(&ns), &spec)
                .unwrap()
                .iter()
                .map(|d| d.get("_id").unwrap().clone())
                .collect();
            assert_eq!(all.len(), 500);
            for limit in [1_i64, 7, 64, 499, 500, 1000] {
                let r = e.run_command(
                    "t",
                    &doc! {"find": "c", "sort": sort.clone(), "limit": limit, "batchSize": 1000},
                );
                let want = &all[..all.len().min(limit as usize)];
                assert_eq!(ids(&r), want, "sort {sort} limit {limit}");
            }
            let r = e.run_command(
                "t",
                &doc! {"find": "c", "sort": sort.clone(), "batchSize": 1000},
            );
            assert_eq!(ids(&r), all, "sort {sort}");
        }
    }

    #[test]
    fn a_top_k_sort_holds_only_its_limit_against_the_memory_limit() {
        // 110 documents of 1 MiB: sorting all of them passes 100 MiB (see the find command's
        // test); the first two of them hold 2 MiB, and equal keys keep natural order.
        let mut e = Engine::new();
        let big = "x".repeat(1024 * 1024);
        for i in 0..110 {
            e.run_command(
                "t",
                &doc! {"insert": "c", "documents": [{"_id": i, "p": &big}]},
            );
        }
        let r = e.run_command(
            "t",
            &doc! {"find": "c", "sort": {"p": 1}, "limit": 2, "projection": {"p": 0},
            "allowDiskUse": false},
        );
        assert_eq!(ids(&r), vec![Bson::Int32(0), Bson::Int32(1)]);
    }
}
