//! IXSCAN over a text index for one term: every key `(prefix, term, score, ...)`, read backward
//! from the highest score to the lowest as MongoDB's text plans do, returning record ids with
//! the key's score. explain shows no bounds for these scans (`indexBounds: {}`).

use std::collections::HashSet;

use bson::{Bson, Document, doc};

use super::index_scan::IndexScanStats;
use super::{CommonStats, Member, Stage, StageStats, State};
use crate::error::Result;
use crate::index::Index;
use crate::index::encode::successor;

pub struct TextScan<'a> {
    index: &'a Index,
    /// The encoded `(prefix, term)` every key of the scan starts with.
    start: Vec<u8>,
    /// Where the score sits in a key.
    score_at: usize,
    pending: Option<std::vec::IntoIter<(u64, f64)>>,
    seen: HashSet<u64>,
    common: CommonStats,
    specific: IndexScanStats,
}

impl<'a> TextScan<'a> {
    pub fn new(index: &'a Index, prefix: &[Bson], term: &str) -> Self {
        let mut key = prefix.to_vec();
        key.push(Bson::String(term.to_string()));
        TextScan {
            index,
            start: index.encode_key(&key),
            score_at: prefix.len() + 1,
            pending: None,
            seen: HashSet::new(),
            common: CommonStats::default(),
            specific: IndexScanStats::default(),
        }
    }

    fn entries(&self) -> Vec<(u64, f64)> {
        let low = (self.start.clone(), 0);
        let high = successor(&self.start).map(|s| (s, 0));
        let high_bound = match &high {
            Some(h) => std::ops::Bound::Excluded(h),
            None => std::ops::Bound::Unbounded,
        };
        self.index
            .range(std::ops::Bound::Included(&low), high_bound)
            .rev()
            .map(|((_, rid), key)| {
                let score = match key.get(self.score_at) {
                    Some(Bson::Double(d)) => *d,
                    _ => 0.0,
                };
                (*rid, score)
            })
            .collect()
    }

    fn step(&mut self) -> State {
        if self.pending.is_none() {
            self.specific.seeks += 1;
            self.pending = Some(self.entries().into_iter());
        }
        let Some((record_id, score)) = self.pending.as_mut().and_then(Iterator::next) else {
            return State::IsEof;
        };
        self.specific.keys_examined += 1;
        if self.index.is_multikey() {
            self.specific.dups_tested += 1;
            if !self.seen.insert(record_id) {
                self.specific.dups_dropped += 1;
                return State::NeedTime;
            }
        }
        State::Advanced(Member {
            record_id: Some(record_id),
            text_score: Some(score),
            ..Member::default()
        })
    }
}

impl Stage for TextScan<'_> {
    fn work(&mut self) -> Result<State> {
        let s = self.step();
        self.common.count(&s);
        Ok(s)
    }

    fn stats(&self) -> StageStats {
        let spec = &self.index.spec;
        let mut s = StageStats::new("IXSCAN", &self.common);
        s.plan = doc! {
            "keyPattern": spec.key.clone(),
            "indexName": spec.name.clone(),
            "isMultiKey": self.index.is_multikey(),
            "isUnique": false,
            "isSparse": spec.sparse,
            "isPartial": spec.partial.is_some(),
            "indexVersion": 2,
            "direction": "backward",
            "indexBounds": Document::new(),
        };
        s.exec = self.specific.to_document();
        s.keys_examined = self.specific.keys_examined;
        s
    }
}
