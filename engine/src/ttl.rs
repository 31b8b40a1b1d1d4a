//! The TTL monitor: MongoDB's background task that, every 60 seconds, deletes the documents a
//! TTL index (`expireAfterSeconds`) says have expired.
//!
//! Sprout has no background threads: the engine asks the monitor before each command whether a
//! pass is due on its (injected, possibly simulated) clock, and runs it at the last 60-second
//! tick, so a document that expires between two ticks stays until the next one, as on a server.
//! The rules are the server's: the indexed field's date (for an array, its earliest date) plus
//! `expireAfterSeconds` must be at or before the pass time; values that are not dates never
//! expire; a partial index only expires the documents it covers.

use bson::{Bson, Document};

use crate::catalog::Collection;
use crate::index::IndexSpec;
use crate::path::{LeafArrays, items};

/// How often the monitor wakes (MongoDB's `ttlMonitorSleepSecs` default).
pub const TTL_MONITOR_PERIOD_MILLIS: i64 = 60_000;

/// When the last pass ran, on the engine's clock.
#[derive(Debug, Clone)]
pub struct TtlMonitor {
    last_pass_millis: i64,
}

impl TtlMonitor {
    /// A monitor whose first pass is one period after `now_millis`.
    pub fn new(now_millis: i64) -> Self {
        TtlMonitor {
            last_pass_millis: now_millis,
        }
    }

    /// The time of the pass that is due at `now_millis` (the latest 60-second tick that has
    /// passed), or `None` when the next tick has not come yet.
    pub fn due_pass(&mut self, now_millis: i64) -> Option<i64> {
        let elapsed = now_millis.checked_sub(self.last_pass_millis)?;
        if elapsed < TTL_MONITOR_PERIOD_MILLIS {
            return None;
        }
        let ticks = elapsed / TTL_MONITOR_PERIOD_MILLIS;
        self.last_pass_millis += ticks * TTL_MONITOR_PERIOD_MILLIS;
        Some(self.last_pass_millis)
    }
}

/// The record ids of a collection's documents that a pass at `pass_millis` deletes.
pub fn expired_records(coll: &Collection, pass_millis: i64) -> Vec<u64> {
    let ttl_indexes: Vec<(&IndexSpec, i64)> = coll
        .indexes()
        .iter()
        .filter_map(|i| Some((&i.spec, i.spec.expire_after_seconds?)))
        .collect();
    if ttl_indexes.is_empty() {
        return Vec::new();
    }
    coll.iter()
        .filter(|(_, doc)| {
            ttl_indexes
                .iter()
                .any(|(spec, seconds)| is_expired(spec, *seconds, doc, pass_millis))
        })
        .map(|(rid, _)| rid)
        .collect()
}

fn is_expired(spec: &IndexSpec, seconds: i64, doc: &Document, pass_millis: i64) -> bool {
    let Some(part) = spec.parts.first() else {
        return false;
    };
    if !spec.covers_document(doc) {
        return false;
    }
    let earliest = items(doc, &part.path, LeafArrays::Expand)
        .into_iter()
        .filter_map(|item| match item.value {
            Some(Bson::DateTime(d)) => Some(d.timestamp_millis()),
            _ => None,
        })
        .min();
    let Some(date) = earliest else {
        return false;
    };
    // i128: a date near the end of the BSON range plus a large expireAfterSeconds must not wrap.
    i128::from(date) + i128::from(seconds) * 1000 <= i128::from(pass_millis)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::{DateTime, doc};

    fn coll_with(spec: Document, docs: Vec<Document>) -> Collection {
        let mut c = Collection::new();
        c.create_index("t.c", IndexSpec::parse(&spec).unwrap())
            .unwrap();
        for d in docs {
            c.insert("t.c", d).unwrap();
        }
        c
    }

    fn ids(c: &Collection, rids: &[u64]) -> Vec<i32> {
        rids.iter()
            .map(|r| c.get(*r).unwrap().get_i32("_id").unwrap())
            .collect()
    }

    #[test]
    fn passes_come_every_sixty_seconds_at_the_tick() {
        let mut m = TtlMonitor::new(1_000);
        assert_eq!(m.due_pass(60_999), None);
        assert_eq!(m.due_pass(61_000), Some(61_000));
        assert_eq!(m.due_pass(100_000), None);
        assert_eq!(m.due_pass(1_000_000), Some(961_000));
        assert_eq!(m.due_pass(0), None, "a clock going back runs nothing");
    }

    #[test]
    fn relative_absolute_arrays_and_non_dates() {
        let t = |ms: i64| Bson::DateTime(DateTime::from_millis(ms));
        let c = coll_with(
            doc! {"key": {"at": 1}, "name": "at_1", "expireAfterSeconds": 10},
            vec![
                doc! {"_id": 1, "at": t(0)},
                doc! {"_id": 2, "at": t(5_000)},
                doc! {"_id": 3, "at": [t(90_000), t(1_000)]},
                doc! {"_id": 4, "at": "yesterday"},
                doc! {"_id": 5},
                doc! {"_id": 6, "at": {"when": t(0)}},
            ],
        );
        assert_eq!(ids(&c, &expired_records(&c, 11_000)), [1, 3]);
        assert_eq!(ids(&c, &expired_records(&c, 15_000)), [1, 2, 3]);
        let at_zero = coll_with(
            doc! {"key": {"at": 1}, "name": "at_1", "expireAfterSeconds": 0},
            vec![
                doc! {"_id": 1, "at": t(50_000)},
                doc! {"_id": 2, "at": t(70_000)},
            ],
        );
        assert_eq!(ids(&at_zero, &expired_records(&at_zero, 60_000)), [1]);
    }

    #[test]
    fn partial_ttl_indexes_expire_only_what_they_cover() {
        let t = Bson::DateTime(DateTime::from_millis(0));
        let c = coll_with(
            doc! {"key": {"at": 1}, "name": "at_1", "expireAfterSeconds": 0,
            "partialFilterExpression": {"kind": "temp"}},
            vec![
                doc! {"_id": 1, "at": t.clone(), "kind": "temp"},
                doc! {"_id": 2, "at": t, "kind": "keep"},
            ],
        );
        assert_eq!(ids(&c, &expired_records(&c, 1)), [1]);
    }

    #[test]
    fn the_engine_runs_passes_on_its_clock_and_records_the_deletes() {
        use crate::Engine;
        use crate::clock::SimulatedClock;
        let start = 1_700_000_000_000;
        let mut e = Engine::with_clock(Box::new(SimulatedClock::new(start)), 1);
        let at = |ms: i64| Bson::DateTime(DateTime::from_millis(ms));
        e.run_command(
            "t",
            &doc! {"createIndexes": "s", "indexes": [{"key": {"at": 1}, "name": "at_1", "expireAfterSeconds": 3600}]},
        );
        e.run_command(
            "t",
            &doc! {"insert": "s", "documents": [{"_id": 1, "at": at(start)}, {"_id": 2, "at": at(start + 1_800_000)}]},
        );
        e.take_changes();
        let count = |e: &mut Engine| {
            let r = e.run_command("t", &doc! {"count": "s"});
            r.get_i32("n").unwrap()
        };
        e.advance_clock(3_599_000);
        assert_eq!(count(&mut e), 2);
        // 3600 s after the first date, the next 60-second tick deletes it.
        e.advance_clock(60_000);
        assert_eq!(count(&mut e), 1);
        let changes = e.take_changes().changes;
        assert!(matches!(
            changes.as_slice(),
            [crate::storage::Change::DeleteDocument { record_id: 1, .. }]
        ));
        e.advance_clock(1_800_000);
        assert_eq!(count(&mut e), 0);
    }
}
