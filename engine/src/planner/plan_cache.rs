//! The plan cache of one collection, as MongoDB's classic engine keeps it.
//!
//! A find whose planning produced more than one candidate is multi-planned; the winner is then
//! cached under the query's *shape* (the filter's operators and paths without their values, the
//! sort and the projection) and the set of indexes that could serve it:
//! - a new entry is **inactive** and remembers the winner's trial `works`;
//! - the next query of that shape is multi-planned again: if its winner needed no more works the
//!   entry becomes **active**, otherwise the entry's `works` doubles
//!   (`internalQueryCacheWorksGrowthCoefficient` = 2);
//! - an active entry's plan is used without a race, for a trial of `works × 10`
//!   (`internalQueryCacheEvictionRatio`) works: if it reaches the end or a full first batch in
//!   that budget it runs on, otherwise the entry is evicted and the query re-planned.
//!
//! Index builds and drops clear the cache (`Collection` does it); `planCacheClear` clears all or
//! one shape. MongoDB 8.0 no longer flushes the cache after a number of writes: the re-planning
//! trial is what notices that the data changed. `explain` neither reads nor writes the cache.
//!
//! What is cached is the winning plan's *signature* (its stages, indexes and directions, not its
//! bounds): a later query of the same shape plans the same candidates in the same order, and the
//! candidate with that signature is the cached plan with this query's bounds.
//!
//! `queryHash`/`planCacheShapeHash` and `planCacheKey` are MurmurHash3 (x86, 32-bit, the hash
//! MongoDB uses for its shape strings) of Sprout's shape encoding, so equal shapes share a hash as
//! in MongoDB; the hex values themselves differ from a real server's, whose encoding is internal.

use std::collections::HashMap;

use bson::{Bson, Document, doc};

use super::{CanonicalQuery, Solution};

/// `internalQueryCacheEvictionRatio`.
pub const EVICTION_RATIO: u64 = 10;
/// `internalQueryCacheWorksGrowthCoefficient`.
pub const WORKS_GROWTH: u64 = 2;
/// `internalQueryCacheMaxEntriesPerCollection`.
pub const MAX_ENTRIES: usize = 5000;

/// The cache key of a query: its shape and its hashes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheKey {
    /// The shape's encoding (filter, sort and projection without values).
    pub shape: String,
    /// `shape` plus the indexes the planner found eligible.
    pub key: String,
    pub query_hash: u32,
    pub plan_cache_key: u32,
}

impl CacheKey {
    /// The key of a query whose candidate plans are `candidates`.
    pub fn of(query: &CanonicalQuery<'_>, candidates: &[Solution]) -> CacheKey {
        let shape = shape_of(query);
        let mut indexes: Vec<&str> = Vec::new();
        for c in candidates {
            c.index_names(&mut indexes);
        }
        crate::sort_slice::sort(&mut indexes);
        indexes.dedup();
        let key = format!("{shape}|{}", indexes.join(","));
        CacheKey {
            query_hash: murmur3_32(shape.as_bytes()),
            plan_cache_key: murmur3_32(key.as_bytes()),
            shape,
            key,
        }
    }

    /// The hashes as MongoDB prints them: eight upper-case hex digits.
    pub fn query_hash_hex(&self) -> String {
        format!("{:08X}", self.query_hash)
    }

    pub fn plan_cache_key_hex(&self) -> String {
        format!("{:08X}", self.plan_cache_key)
    }
}

/// One cached plan.
#[derive(Debug, Clone)]
pub struct Entry {
    pub key: CacheKey,
    pub is_active: bool,
    pub works: u64,
    pub time_of_creation: i64,
    /// The winning plan's signature ([`signature`]).
    pub plan: String,
    /// What `$planCacheStats` shows: the query it was created from, the winner as explain's
    /// queryPlanner shows it, every candidate's trial statistics and score.
    pub created_from_query: Document,
    pub cached_plan: Document,
    pub creation_exec_stats: Vec<Document>,
    pub candidate_plan_scores: Vec<f64>,
}

impl Entry {
    /// The entry as `$planCacheStats` returns it (classic engine, version "1").
    pub fn document(&self) -> Document {
        let scores: Vec<Bson> = self
            .candidate_plan_scores
            .iter()
            .map(|s| Bson::Double(*s))
            .collect();
        let mut d = doc! {
            "version": "1",
            "queryHash": self.key.query_hash_hex(),
            "planCacheShapeHash": self.key.query_hash_hex(),
            "planCacheKey": self.key.plan_cache_key_hex(),
            "isActive": self.is_active,
            "works": self.works as i64,
            "timeOfCreation": bson::DateTime::from_millis(self.time_of_creation),
            "createdFromQuery": self.created_from_query.clone(),
            "cachedPlan": self.cached_plan.clone(),
            "creationExecStats": self.creation_exec_stats.iter().cloned().map(Bson::Document).collect::<Vec<_>>(),
            "candidatePlanScores": scores,
            "indexFilterSet": false,
        };
        let size = d.to_vec().map_or(0, |v| v.len()) as i64;
        d.insert("estimatedSizeBytes", size);
        d.insert("host", "sprout:27017");
        d
    }
}

/// What the multi-planner decided, for [`PlanCache::record`].
#[derive(Debug)]
pub struct Decision {
    pub key: CacheKey,
    pub winner_works: u64,
    pub plan: String,
    pub created_from_query: Document,
    pub cached_plan: Document,
    pub creation_exec_stats: Vec<Document>,
    pub candidate_plan_scores: Vec<f64>,
    pub now_millis: i64,
}

/// The plan cache of a collection, kept in the collection's derived-state slot (emptied when
/// its indexes change).
pub fn cache_of(coll: &crate::catalog::Collection) -> std::cell::RefMut<'_, PlanCache> {
    coll.derived().get::<PlanCache>()
}

/// The cache of one collection, in insertion order for listing.
#[derive(Debug, Clone, Default)]
pub struct PlanCache {
    entries: HashMap<String, Entry>,
    order: Vec<String>,
}

impl PlanCache {
    pub fn get(&self, key: &CacheKey) -> Option<&Entry> {
        self.entries.get(&key.key)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries, oldest first.
    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.order.iter().filter_map(|k| self.entries.get(k))
    }

    pub fn clear(&mut self) {
        self.entries.clear();
        self.order.clear();
    }

    /// Removes the entries of one shape (`planCacheClear` with a query); returns how many.
    pub fn clear_shape(&mut self, shape: &str) -> usize {
        let before = self.entries.len();
        self.entries.retain(|_, e| e.key.shape != shape);
        let entries = &self.entries;
        self.order.retain(|k| entries.contains_key(k));
        before - self.entries.len()
    }

    pub fn evict(&mut self, key: &CacheKey) {
        self.entries.remove(&key.key);
        self.order.retain(|k| k != &key.key);
    }

    /// Records a multi-planning decision: creates an inactive entry, or activates an inactive
    /// one whose works the new winner did not exceed, or else doubles its works.
    pub fn record(&mut self, d: Decision) {
        if let Some(e) = self.entries.get_mut(&d.key.key) {
            if e.is_active {
                return;
            }
            if d.winner_works <= e.works {
                *e = Entry {
                    is_active: true,
                    ..new_entry(d)
                };
            } else {
                e.works = e.works.saturating_mul(WORKS_GROWTH);
            }
            return;
        }
        if self.entries.len() >= MAX_ENTRIES
            && let Some(oldest) = self.order.first().cloned()
        {
            self.entries.remove(&oldest);
            self.order.remove(0);
        }
        let k = d.key.key.clone();
        self.entries.insert(k.clone(), new_entry(d));
        self.order.push(k);
    }
}

fn new_entry(d: Decision) -> Entry {
    Entry {
        key: d.key,
        is_active: false,
        works: d.winner_works,
        time_of_creation: d.now_millis,
        plan: d.plan,
        created_from_query: d.created_from_query,
        cached_plan: d.cached_plan,
        creation_exec_stats: d.creation_exec_stats,
        candidate_plan_scores: d.candidate_plan_scores,
    }
}

/// The signature of a plan: its stages with their indexes and directions, without bounds.
pub fn signature(s: &Solution) -> String {
    let mut out = String::new();
    write_signature(s, &mut out);
    out
}

fn write_signature(s: &Solution, out: &mut String) {
    use std::fmt::Write;
    match s {
        Solution::CollScan { forward, .. } => {
            let _ = write!(out, "COLLSCAN{}", dir(*forward));
        }
        Solution::IxScan(p) | Solution::CountScan(p) | Solution::DistinctScan(p) => {
            let _ = write!(out, "{}[{}{}]", stage_of(s), p.index_name, dir(p.forward));
            // A wildcard index plans one scan per path: the path tells them apart.
            if let Some(w) = &p.wildcard {
                let _ = write!(out, "<{}>", w.path);
            }
        }
        Solution::Projection { kind, .. } => out.push_str(kind.stage_name()),
        other => out.push_str(stage_of(other)),
    }
    let children = s.children();
    if !children.is_empty() {
        out.push('(');
        for (i, c) in children.into_iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            write_signature(c, out);
        }
        out.push(')');
    }
}

fn dir(forward: bool) -> &'static str {
    if forward { "+" } else { "-" }
}

fn stage_of(s: &Solution) -> &'static str {
    match s {
        Solution::Eof => "EOF",
        Solution::CollScan { .. } => "COLLSCAN",
        Solution::IdHack { .. } => "IDHACK",
        Solution::IxScan(_) => "IXSCAN",
        Solution::Fetch { .. } => "FETCH",
        Solution::Sort { .. } => "SORT",
        Solution::Skip { .. } => "SKIP",
        Solution::Limit { .. } => "LIMIT",
        Solution::Projection { kind, .. } => kind.stage_name(),
        Solution::Or { .. } => "OR",
        Solution::SortMerge { .. } => "SORT_MERGE",
        Solution::Subplan { .. } => "SUBPLAN",
        Solution::CountScan(_) => "COUNT_SCAN",
        Solution::DistinctScan(_) => "DISTINCT_SCAN",
        Solution::Text(_) => "TEXT",
        Solution::GeoNear(g) if g.sphere => "GEO_NEAR_2DSPHERE",
        Solution::GeoNear(_) => "GEO_NEAR_2D",
    }
}

impl Solution {
    /// The names of the indexes the plan scans, appended to `out`.
    pub fn index_names<'s>(&'s self, out: &mut Vec<&'s str>) {
        if let Solution::IxScan(p) | Solution::CountScan(p) | Solution::DistinctScan(p) = self {
            out.push(&p.index_name);
        }
        for c in self.children() {
            c.index_names(out);
        }
    }
}

/// The query's shape: the parsed filter with every value replaced by its kind (the kinds that
/// change which plans are possible: null, regex, array, document, other), then the sort and the
/// projection.
pub fn shape_of(query: &CanonicalQuery<'_>) -> String {
    let mut out = String::from("q:");
    write_shape_doc(&query.spec.filter.parsed_query(), &mut out);
    out.push_str(";s:");
    if let Some(sort) = query.sort_pattern() {
        write_exact(sort, &mut out);
    }
    out.push_str(";p:");
    if let Some(p) = query.projection {
        write_exact(p, &mut out);
    }
    out
}

fn write_shape_doc(d: &Document, out: &mut String) {
    out.push('{');
    for (k, v) in d {
        out.push_str(k);
        out.push(':');
        match v {
            // Their argument is a filter even though its keys are field names.
            Bson::Document(inner) if k == "$elemMatch" || k == "$not" => {
                write_shape_doc(inner, out)
            }
            _ => write_shape_value(v, out),
        }
        out.push(',');
    }
    out.push('}');
}

fn write_shape_value(v: &Bson, out: &mut String) {
    match v {
        Bson::Document(d) if d.keys().next().is_some_and(|k| k.starts_with('$')) => {
            write_shape_doc(d, out)
        }
        // The members of `$and`/`$or`/`$nor` are filters; the elements of `$in` are values.
        Bson::Array(items) if items.iter().all(|i| matches!(i, Bson::Document(_))) => {
            out.push('[');
            for i in items {
                write_shape_value(i, out);
            }
            out.push(']');
        }
        Bson::Array(items) => {
            out.push_str("a[");
            let mut kinds: Vec<char> = items.iter().map(value_kind).collect();
            crate::sort_slice::sort(&mut kinds);
            kinds.dedup();
            out.extend(kinds);
            out.push(']');
        }
        other => out.push(value_kind(other)),
    }
}

fn value_kind(v: &Bson) -> char {
    match v {
        Bson::Null | Bson::Undefined => 'n',
        Bson::RegularExpression(_) => 'r',
        Bson::Array(_) => 'a',
        Bson::Document(_) => 'o',
        _ => '?',
    }
}

fn write_exact(d: &Document, out: &mut String) {
    out.push('{');
    for (k, v) in d {
        out.push_str(k);
        out.push(':');
        match v {
            Bson::Document(inner) => write_exact(inner, out),
            other => out.push_str(&crate::value::display::key_value(other)),
        }
        out.push(',');
    }
    out.push('}');
}

/// MurmurHash3 x86 32-bit with seed 0 (the hash MongoDB's `SimpleStringDataComparator` applies
/// to query shape strings).
pub fn murmur3_32(bytes: &[u8]) -> u32 {
    murmur3::murmur3_32(&mut std::io::Cursor::new(bytes), 0).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn murmur3_known_vectors() {
        // Published MurmurHash3_x86_32 test vectors (seed 0).
        assert_eq!(murmur3_32(b""), 0);
        assert_eq!(murmur3_32(b"hello"), 0x248b_fa47);
        assert_eq!(
            murmur3_32(b"The quick brown fox jumps over the lazy dog"),
            0x2e4f_f723
        );
    }

    fn decision(key: &CacheKey, works: u64) -> Decision {
        Decision {
            key: key.clone(),
            winner_works: works,
            plan: "FETCH(IXSCAN[a_1+])".into(),
            created_from_query: doc! {"query": {"a": 1}, "sort": {}, "projection": {}},
            cached_plan: doc! {"stage": "FETCH"},
            creation_exec_stats: vec![],
            candidate_plan_scores: vec![1.5, 1.2],
            now_millis: 0,
        }
    }

    fn key(shape: &str) -> CacheKey {
        CacheKey {
            shape: shape.into(),
            key: format!("{shape}|a_1,b_1"),
            query_hash: murmur3_32(shape.as_bytes()),
            plan_cache_key: 1,
        }
    }

    #[test]
    fn inactive_then_active_or_growing() {
        let mut cache = PlanCache::default();
        let k = key("q:{a:?,}");
        cache.record(decision(&k, 10));
        let e = cache.get(&k).unwrap();
        assert!(!e.is_active);
        assert_eq!(e.works, 10);
        // A winner that needed more works doubles the bar but stays inactive.
        cache.record(decision(&k, 11));
        let e = cache.get(&k).unwrap();
        assert!(!e.is_active);
        assert_eq!(e.works, 20);
        // One within the bar activates the entry with its own works.
        cache.record(decision(&k, 15));
        let e = cache.get(&k).unwrap();
        assert!(e.is_active);
        assert_eq!(e.works, 15);
        assert_eq!(cache.len(), 1);
    }

    #[test]
    fn clear_one_shape_and_document_shape() {
        let mut cache = PlanCache::default();
        cache.record(decision(&key("q:{a:?,}"), 3));
        cache.record(decision(&key("q:{b:?,}"), 3));
        assert_eq!(cache.clear_shape("q:{a:?,}"), 1);
        assert_eq!(cache.len(), 1);
        let d = cache.entries().next().unwrap().document();
        let keys: Vec<&str> = d.keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "version",
                "queryHash",
                "planCacheShapeHash",
                "planCacheKey",
                "isActive",
                "works",
                "timeOfCreation",
                "createdFromQuery",
                "cachedPlan",
                "creationExecStats",
                "candidatePlanScores",
                "indexFilterSet",
                "estimatedSizeBytes",
                "host"
            ]
        );
        assert_eq!(d.get_str("queryHash").unwrap().len(), 8);
    }
}
