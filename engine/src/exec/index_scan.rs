//! IXSCAN: walks an index within its bounds, in either direction, returning record ids with
//! their keys; a multikey index's duplicate record ids are dropped.
//!
//! Bounds that are one range of keys (MongoDB's `IndexBoundsBuilder::isSingleInterval`: point
//! intervals, then at most one other interval, then only `[MinKey, MaxKey]`) are scanned from
//! the start key to the end key, stopping without examining the key beyond the end, as
//! MongoDB's end-positioned cursor does. Other bounds are walked as MongoDB's
//! `IndexBoundsChecker` walks them (src/mongo/db/query/index_bounds.cpp): each key is checked
//! part by part against the current interval of each part, and a key outside them makes the
//! scan seek to the next key that can be inside, so `keysExamined` counts the keys in bounds
//! plus one per seek (jstests/core/index_check6.js).

use std::collections::HashSet;
use std::collections::btree_map::Range;

use bson::{Bson, Document, doc};

use super::{CommonStats, Member, Stage, StageStats, State};
use crate::error::Result;
use crate::index::encode::{encode_value, invert};
use crate::index::{EntryKey, Index, KeyKind};
use crate::planner::IxScanPlan;
use crate::planner::bounds::Interval;

/// IXSCAN's specific statistics.
#[derive(Debug, Clone, Default)]
pub struct IndexScanStats {
    pub keys_examined: u64,
    pub seeks: u64,
    pub dups_tested: u64,
    pub dups_dropped: u64,
}

impl IndexScanStats {
    /// The counters as explain prints them.
    pub fn to_document(&self) -> Document {
        doc! {
            "keysExamined": self.keys_examined as i64,
            "seeks": self.seeks as i64,
            "dupsTested": self.dups_tested as i64,
            "dupsDropped": self.dups_dropped as i64,
        }
    }
}

pub struct IndexScan<'a> {
    index: &'a Index,
    plan: IxScanPlan,
    /// Per key part, whether the scan meets its values in ascending order.
    ascending: Vec<bool>,
    /// The first key part's intervals in scan order.
    first: Vec<Interval>,
    interval: usize,
    /// The entry the scan stands on.
    position: Option<&'a EntryKey>,
    /// The walk from `position` on, held between steps (dropped at each seek).
    cursor: Option<Range<'a, EntryKey, Vec<Bson>>>,
    /// The key's field names, as members carry them.
    names: Vec<String>,
    /// Whether members carry the key (a COUNT_SCAN needs only the record id).
    with_keys: bool,
    pending_seek: Option<usize>,
    started: bool,
    done: bool,
    simple_range: bool,
    seen: HashSet<u64>,
    /// The encoded start and end keys of a `min()`/`max()` scan.
    range_keys: Option<(Vec<u8>, Vec<u8>)>,
    /// Whether the bounds checker walks the scan (bounds that are not one range of keys).
    checked: bool,
    /// Per key part, its intervals in scan order (for the bounds checker).
    lists: Vec<Vec<Interval>>,
    /// Per key part, the interval of `lists` the scan is in.
    cur: Vec<usize>,
    /// Where the bounds checker asked the scan to go next: an encoded key prefix and whether
    /// the keys that start with it are skipped.
    pending_prefix: Option<(Vec<u8>, bool)>,
    common: CommonStats,
    specific: IndexScanStats,
}

impl<'a> IndexScan<'a> {
    pub fn new(index: &'a Index, plan: IxScanPlan) -> Self {
        let ascending: Vec<bool> = index
            .spec
            .parts
            .iter()
            .map(|p| (p.kind != KeyKind::Descending) == plan.forward)
            .collect();
        let mut first = plan.bounds.first().cloned().unwrap_or_default();
        if !ascending.first().copied().unwrap_or(true) {
            first.reverse();
        }
        let simple_range = is_single_interval(&plan.bounds);
        let checked =
            !simple_range && plan.wildcard.is_none() && plan.bounds.len() == index.spec.parts.len();
        let lists: Vec<Vec<Interval>> = plan
            .bounds
            .iter()
            .zip(&ascending)
            .map(|(ivs, up)| {
                let mut list = ivs.clone();
                if !up {
                    list.reverse();
                }
                list
            })
            .collect();
        let cur = vec![0; lists.len()];
        let range_keys = plan
            .key_range
            .as_ref()
            .map(|r| (index.encode_key(&r.start), index.encode_key(&r.end)));
        let done = range_keys.is_none() && plan.bounds.iter().any(Vec::is_empty);
        let names = key_names(index, &plan);
        IndexScan {
            index,
            plan,
            ascending,
            first,
            interval: 0,
            position: None,
            cursor: None,
            names,
            with_keys: true,
            pending_seek: None,
            started: false,
            done,
            simple_range,
            seen: HashSet::new(),
            range_keys,
            checked,
            lists,
            cur,
            pending_prefix: None,
            common: CommonStats::default(),
            specific: IndexScanStats::default(),
        }
    }

    /// The same scan handing out record ids without their keys.
    pub fn without_keys(mut self) -> Self {
        self.with_keys = false;
        self
    }

    /// The entry after the current position in scan order, walking the held cursor.
    fn advance(&mut self) -> Option<(&'a EntryKey, &'a Vec<Bson>)> {
        let index: &'a Index = self.index;
        let forward = self.plan.forward;
        let position = self.position?;
        let cursor = self
            .cursor
            .get_or_insert_with(|| index.cursor_after(position, forward));
        if forward {
            cursor.next()
        } else {
            cursor.next_back()
        }
    }

    /// Stands the scan on `entry` after a seek (the held walk no longer starts there).
    fn seek_to(
        &mut self,
        entry: Option<(&'a EntryKey, &'a Vec<Bson>)>,
    ) -> Option<(&'a EntryKey, &'a Vec<Bson>)> {
        self.cursor = None;
        entry
    }

    /// The start of interval `k` of the first key part (with the following parts' starts while
    /// the intervals are points), as an entry position in scan order.
    fn seek_entry(&self, k: usize) -> Option<(&'a EntryKey, &'a Vec<Bson>)> {
        let mut prefix = Vec::new();
        let mut inclusive = true;
        for (i, part) in self.index.spec.parts.iter().enumerate() {
            let iv = if i == 0 {
                self.first.get(k)?
            } else {
                let list = &self.plan.bounds[i];
                if self.ascending[i] {
                    list.first()?
                } else {
                    list.last()?
                }
            };
            let (v, incl) = if self.ascending[i] {
                (&iv.low, iv.low_inclusive)
            } else {
                (&iv.high, iv.high_inclusive)
            };
            let start = prefix.len();
            encode_value(v, &mut prefix);
            if part.kind == KeyKind::Descending {
                invert(&mut prefix[start..]);
            }
            inclusive = incl;
            if !iv.is_point() {
                break;
            }
        }
        self.seek_prefix(&prefix, !inclusive)
    }

    /// The first entry at or after (in scan order) an encoded key prefix; with `exclusive`, the
    /// first entry after every key that starts with it.
    fn seek_prefix(&self, prefix: &[u8], exclusive: bool) -> Option<(&'a EntryKey, &'a Vec<Bson>)> {
        // Byte order and scan order agree when scanning forward.
        let skip_prefix = exclusive == self.plan.forward;
        let target = if skip_prefix {
            successor(prefix)
        } else {
            Some(prefix.to_vec())
        };
        if self.plan.forward {
            self.index.seek(&(target?, 0), true)
        } else {
            match target {
                Some(t) => self.index.next_after(&(t, 0), false),
                None => self
                    .index
                    .range(std::ops::Bound::Unbounded, std::ops::Bound::Unbounded)
                    .next_back(),
            }
        }
    }

    /// MongoDB's IndexSeekPoint as an encoded prefix: the key's first `prefix_len` values, then
    /// the start of each later part's current interval, cut after the first part whose start
    /// is exclusive (or after part `first_exclusive` when given).
    fn seek_point(
        &self,
        key: &[Bson],
        prefix_len: usize,
        first_exclusive: Option<usize>,
    ) -> (Vec<u8>, bool) {
        let mut out = Vec::new();
        for (i, part) in self.index.spec.parts.iter().enumerate() {
            let (v, inclusive) = if i < prefix_len {
                (&key[i], true)
            } else {
                let iv = &self.lists[i][self.cur[i]];
                if self.ascending[i] {
                    (&iv.low, iv.low_inclusive)
                } else {
                    (&iv.high, iv.high_inclusive)
                }
            };
            let start = out.len();
            encode_value(v, &mut out);
            if part.kind == KeyKind::Descending {
                invert(&mut out[start..]);
            }
            if first_exclusive == Some(i) || (first_exclusive.is_none() && !inclusive) {
                return (out, true);
            }
        }
        (out, false)
    }

    /// Where `v` lies relative to an interval of part `i`, in scan order: `Less` is before it
    /// (MongoDB's BEHIND), `Greater` after it (AHEAD).
    fn locate(&self, i: usize, iv: &Interval, v: &Bson) -> std::cmp::Ordering {
        let o = iv.locate(v);
        if self.ascending[i] { o } else { o.reverse() }
    }

    /// IndexBoundsChecker::checkKey: `Ok(true)` when the key is in bounds, `Ok(false)` when the
    /// scan is done, `Err(seek)` when it must move on to a later key.
    fn check_key(&mut self, key: &[Bson]) -> std::result::Result<bool, (Vec<u8>, bool)> {
        let n = self.cur.len();
        if key.len() != n {
            // Not a key of this index's shape: leave it to the filter above the scan.
            return Ok(true);
        }
        let leftmost_problem = |this: &Self| {
            (0..n).find_map(|i| {
                let o = this.locate(i, &this.lists[i][this.cur[i]], &key[i]);
                (!o.is_eq()).then_some((i, o))
            })
        };
        let Some((mut field, mut orientation)) = leftmost_problem(self) else {
            return Ok(true);
        };
        if orientation.is_lt() {
            // Behind the current interval, which may be stale: start the later parts over.
            for c in &mut self.cur[field..] {
                *c = 0;
            }
            match leftmost_problem(self) {
                None => return Ok(true),
                Some((f, o)) => (field, orientation) = (f, o),
            }
        }
        if orientation.is_lt() {
            return Err(self.seek_point(key, field, None));
        }
        while field < n {
            let list = &self.lists[field];
            let idx = list.partition_point(|iv| self.locate(field, iv, &key[field]).is_gt());
            if idx == list.len() {
                // Past the part's last interval: the previous part must move on.
                if !self.space_left_to_advance(field, key) {
                    return Ok(false);
                }
                for c in &mut self.cur[field..] {
                    *c = 0;
                }
                return Err(self.seek_point(key, field, Some(field - 1)));
            }
            self.cur[field] = idx;
            if self
                .locate(field, &self.lists[field][idx], &key[field])
                .is_eq()
            {
                field += 1;
                continue;
            }
            // Between two intervals: go to the start of the next one.
            for c in &mut self.cur[field + 1..] {
                *c = 0;
            }
            return Err(self.seek_point(key, field, None));
        }
        Ok(true)
    }

    /// IndexBoundsChecker::spaceLeftToAdvance: whether one of the first `fields` parts can
    /// still move forward within its intervals.
    fn space_left_to_advance(&self, fields: usize, key: &[Bson]) -> bool {
        (0..fields).any(|i| {
            if self.cur[i] + 1 != self.lists[i].len() {
                return true;
            }
            let iv = &self.lists[i][self.cur[i]];
            let (end, inclusive) = if self.ascending[i] {
                (&iv.high, iv.high_inclusive)
            } else {
                (&iv.low, iv.low_inclusive)
            };
            let mut o = crate::value::compare_values_simple(&key[i], end);
            if !self.ascending[i] {
                o = o.reverse();
            }
            !inclusive || o.is_lt()
        })
    }

    /// One step of a scan the bounds checker walks.
    fn step_checked(&mut self) -> State {
        if self.done {
            return State::IsEof;
        }
        let entry = if !self.started {
            self.started = true;
            self.specific.seeks += 1;
            let (prefix, exclusive) = self.seek_point(&[], 0, None);
            let entry = self.seek_prefix(&prefix, exclusive);
            self.seek_to(entry)
        } else if let Some((prefix, exclusive)) = self.pending_prefix.take() {
            let entry = self.seek_prefix(&prefix, exclusive);
            self.seek_to(entry)
        } else {
            self.advance()
        };
        let Some((pos, key)) = entry else {
            self.done = true;
            return State::IsEof;
        };
        self.position = Some(pos);
        self.specific.keys_examined += 1;
        match self.check_key(key) {
            Ok(true) => {
                if !self.key_passes(key) {
                    return State::NeedTime;
                }
                self.emit(pos.1, key)
            }
            Ok(false) => {
                self.done = true;
                State::IsEof
            }
            Err(seek) => {
                self.specific.seeks += 1;
                self.pending_prefix = Some(seek);
                State::NeedTime
            }
        }
    }

    fn step(&mut self) -> State {
        if self.checked {
            return self.step_checked();
        }
        if self.done {
            return State::IsEof;
        }
        let entry = if !self.started {
            self.started = true;
            self.specific.seeks += 1;
            let entry = self.seek_entry(0);
            self.seek_to(entry)
        } else if let Some(k) = self.pending_seek.take() {
            let entry = self.seek_entry(k);
            self.seek_to(entry)
        } else {
            self.advance()
        };
        let Some((pos, key)) = entry else {
            self.done = true;
            return State::IsEof;
        };
        self.position = Some(pos);
        // Where is the first key part relative to the current interval?
        let v0 = key.first().unwrap_or(&Bson::Null);
        loop {
            let Some(iv) = self.first.get(self.interval) else {
                self.done = true;
                return State::IsEof;
            };
            let mut loc = iv.locate(v0);
            if !self.ascending[0] {
                loc = loc.reverse();
            }
            match loc {
                std::cmp::Ordering::Greater => {
                    self.interval += 1;
                    if self.interval >= self.first.len() {
                        if !self.simple_range {
                            self.specific.keys_examined += 1;
                        }
                        self.done = true;
                        return State::IsEof;
                    }
                }
                std::cmp::Ordering::Less => {
                    self.specific.keys_examined += 1;
                    self.specific.seeks += 1;
                    self.pending_seek = Some(self.interval);
                    return State::NeedTime;
                }
                std::cmp::Ordering::Equal => break,
            }
        }
        if self.simple_range && self.past_end(key) {
            // The end-positioned cursor stops here without examining this key.
            self.done = true;
            return State::IsEof;
        }
        self.specific.keys_examined += 1;
        let in_bounds = key
            .iter()
            .zip(&self.plan.bounds)
            .skip(1)
            .all(|(v, ivs)| ivs.iter().any(|iv| iv.locate(v).is_eq()));
        if !in_bounds || !self.key_passes(key) {
            return State::NeedTime;
        }
        self.emit(pos.1, key)
    }

    /// The next key of a `min()`/`max()` scan: every entry from the start key (inclusive) to
    /// the end key (exclusive), the cursor positioned at both ends.
    fn step_range(&mut self, start: &[u8], end: &[u8]) -> State {
        if self.done {
            return State::IsEof;
        }
        let forward = self.plan.forward;
        let entry = match self.position {
            Some(_) => self.advance(),
            None => {
                self.specific.seeks += 1;
                let entry = if forward {
                    self.index.seek(&(start.to_vec(), 0), true)
                } else {
                    let end_pos = (end.to_vec(), 0);
                    self.index
                        .range(
                            std::ops::Bound::Unbounded,
                            std::ops::Bound::Excluded(&end_pos),
                        )
                        .next_back()
                };
                self.seek_to(entry)
            }
        };
        let Some((pos, key)) = entry else {
            self.done = true;
            return State::IsEof;
        };
        let outside = if forward {
            pos.0.as_slice() >= end
        } else {
            pos.0.as_slice() < start
        };
        if outside {
            self.done = true;
            return State::IsEof;
        }
        self.position = Some(pos);
        self.specific.keys_examined += 1;
        self.emit(pos.1, key)
    }

    /// Whether the key meets the scan's key filter (a regex or `$mod` on a key part without
    /// arrays), tested on the document the key spells (`{a: {b: v}}` for part `a.b`).
    fn key_passes(&self, key: &[Bson]) -> bool {
        let Some(filter) = &self.plan.filter else {
            return true;
        };
        let member = Member {
            record_id: None,
            doc: None,
            key: Some(
                self.names
                    .iter()
                    .cloned()
                    .zip(key.iter().cloned())
                    .collect(),
            ),
            text_score: None,
            geo_near: None,
        };
        filter.filter.matches(&member.view())
    }

    /// Returns the record (once, for a multikey index) with its key.
    fn emit(&mut self, rid: u64, key: &[Bson]) -> State {
        let multikey = match &self.plan.wildcard {
            Some(w) => w.multikey,
            None => self.index.is_multikey(),
        };
        if multikey {
            self.specific.dups_tested += 1;
            if !self.seen.insert(rid) {
                self.specific.dups_dropped += 1;
                return State::NeedTime;
            }
        }
        let key = self.with_keys.then(|| {
            self.names
                .iter()
                .cloned()
                .zip(key.iter().cloned())
                .collect()
        });
        State::Advanced(Member {
            record_id: Some(rid),
            doc: None,
            key,
            text_score: None,
            geo_near: None,
        })
    }

    /// Whether a key lies beyond the end of a single-interval-per-part range, compared as a
    /// tuple in scan order (MongoDB's end key).
    fn past_end(&self, key: &[Bson]) -> bool {
        for (i, v) in key.iter().enumerate() {
            let Some(iv) = self.plan.bounds.get(i).and_then(|b| b.first()) else {
                return false;
            };
            let (end, inclusive) = if self.ascending[i] {
                (&iv.high, iv.high_inclusive)
            } else {
                (&iv.low, iv.low_inclusive)
            };
            let mut ord = crate::value::compare_values_simple(v, end);
            if !self.ascending[i] {
                ord = ord.reverse();
            }
            match ord {
                std::cmp::Ordering::Less => return false,
                std::cmp::Ordering::Greater => return true,
                std::cmp::Ordering::Equal if !inclusive => return true,
                std::cmp::Ordering::Equal => {}
            }
        }
        false
    }

    fn multikey_paths(&self) -> Document {
        let mut out = Document::new();
        if let Some(w) = &self.plan.wildcard {
            out.insert(crate::index::wildcard::PATH_FIELD, Vec::<Bson>::new());
            let paths: Vec<Bson> = w.multikey_paths.iter().cloned().map(Bson::String).collect();
            out.insert(w.path.clone(), paths);
            return out;
        }
        for (part, positions) in self
            .index
            .spec
            .parts
            .iter()
            .zip(self.index.multikey_paths())
        {
            let prefixes: Vec<Bson> = positions
                .iter()
                .map(|p| Bson::String(part.path.parts()[..=*p].join(".")))
                .collect();
            out.insert(part.dotted.clone(), prefixes);
        }
        out
    }

    fn index_bounds(&self) -> Document {
        let mut out = Document::new();
        if self.plan.key_range.is_some() {
            // A simple range has no per-field bounds: explain shows `indexBounds: {}`.
            return out;
        }
        for (i, name) in self.names.iter().cloned().enumerate() {
            let mut list: Vec<Bson> = Vec::new();
            let ivs = &self.plan.bounds[i];
            if self.ascending[i] {
                list.extend(ivs.iter().map(|iv| Bson::String(iv.render(false))));
            } else {
                list.extend(ivs.iter().rev().map(|iv| Bson::String(iv.render(true))));
            }
            out.insert(name, list);
        }
        out
    }
}

use crate::index::encode::successor;

/// The key's field names: the key pattern's (`$_path` and the path for a wildcard scan).
fn key_names(index: &Index, plan: &IxScanPlan) -> Vec<String> {
    match &plan.wildcard {
        Some(w) => vec![
            crate::index::wildcard::PATH_FIELD.to_string(),
            w.path.clone(),
        ],
        None => index.spec.parts.iter().map(|p| p.dotted.clone()).collect(),
    }
}

/// MongoDB's `IndexBoundsBuilder::isSingleInterval`: the bounds are one range of keys when
/// every part has one interval, all points up to at most one that is not, and every part after
/// that one is `[MinKey, MaxKey]`.
fn is_single_interval(bounds: &[Vec<Interval>]) -> bool {
    let mut parts = bounds.iter();
    for ivs in parts.by_ref() {
        let [iv] = ivs.as_slice() else {
            return false;
        };
        if !iv.is_point() {
            break;
        }
    }
    parts.all(|ivs| {
        matches!(ivs.as_slice(), [iv] if matches!(iv.low, Bson::MinKey)
            && matches!(iv.high, Bson::MaxKey)
            && iv.low_inclusive
            && iv.high_inclusive)
    })
}

impl Stage for IndexScan<'_> {
    fn work(&mut self) -> Result<State> {
        let s = match self.range_keys.take() {
            Some((start, end)) => {
                let s = self.step_range(&start, &end);
                self.range_keys = Some((start, end));
                s
            }
            None => self.step(),
        };
        self.common.count(&s);
        Ok(s)
    }

    fn stats(&self) -> StageStats {
        let spec = &self.index.spec;
        let mut s = StageStats::new("IXSCAN", &self.common);
        let (key_pattern, multikey) = match &self.plan.wildcard {
            Some(w) => (crate::planner::wildcard::key_pattern(w), w.multikey),
            None => (spec.key.clone(), self.index.is_multikey()),
        };
        s.plan = doc! {
            "keyPattern": key_pattern,
            "indexName": spec.name.clone(),
            "isMultiKey": multikey,
            "multiKeyPaths": self.multikey_paths(),
            "isUnique": spec.enforces_unique(),
            "isSparse": spec.sparse,
            "isPartial": spec.partial.is_some(),
            "indexVersion": 2,
            "direction": if self.plan.forward { "forward" } else { "backward" },
            "indexBounds": self.index_bounds(),
        };
        s.filter = self.plan.filter.as_ref().map(|f| f.doc.clone());
        s.exec = self.specific.to_document();
        s.keys_examined = self.specific.keys_examined;
        s
    }
}
