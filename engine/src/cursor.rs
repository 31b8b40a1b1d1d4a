//! Open cursors: the documents a `find` has not yet returned, handed out by `getMore`.

use std::collections::{BTreeMap, VecDeque};

use bson::Document;

use crate::catalog::Namespace;

/// MongoDB's default size of a first batch.
pub const DEFAULT_FIRST_BATCH: usize = 101;

#[derive(Debug)]
pub struct OpenCursor {
    pub ns: Namespace,
    pub remaining: VecDeque<Document>,
    /// Why the cursor was killed (its collection dropped): its next `getMore` fails with
    /// QueryPlanKilled, as MongoDB's does.
    pub killed: Option<&'static str>,
    /// Opened by a find with `tailable` and `awaitData`: the only cursors whose `getMore` may
    /// carry `maxTimeMS` (MongoDB's getMore refuses it on others, BadValue).
    pub await_data: bool,
    /// The error running the rest of the query met: an aggregate asked for an empty first
    /// batch (`batchSize: 0`) runs nothing before its first `getMore`, so an error that
    /// depends on the data is that `getMore`'s (jstests/aggregation/bugs/server5932.js).
    pub deferred_error: Option<crate::error::Error>,
    /// A scan of a capped collection in natural order, read a batch at a time (`remaining` is
    /// then empty): a tailable cursor, or a plain find over a whole capped collection.
    pub scan: Option<CappedScan>,
}

/// Where a scan of a capped collection is, and what it still does to the records after it.
/// As MongoDB's collection scan does, it fails with CappedPositionLost when the record it
/// stands on is deleted (a capped insert overwrote it).
#[derive(Debug)]
pub struct CappedScan {
    /// The filter and projection (skip and limit are counted here).
    pub spec: crate::query::FindSpec,
    /// The last record the scan examined.
    pub position: Option<u64>,
    pub skip_left: usize,
    pub limit_left: Option<usize>,
    /// A tailable cursor stays open at the end of the collection, for later inserts.
    pub tailable: bool,
}

#[derive(Debug, Default)]
pub struct CursorTable {
    open: BTreeMap<i64, OpenCursor>,
    next_id: i64,
}

impl CursorTable {
    /// Keeps the documents that did not fit in the first batch; returns the new cursor's id.
    pub fn open(&mut self, ns: Namespace, remaining: VecDeque<Document>) -> i64 {
        // Ids look like MongoDB's (large, non-zero) but are deterministic for reproducible output.
        self.next_id += 1;
        let id = 7_000_000_000_000_000_000 + self.next_id;
        self.open.insert(
            id,
            OpenCursor {
                ns,
                remaining,
                killed: None,
                await_data: false,
                deferred_error: None,
                scan: None,
            },
        );
        id
    }

    pub fn get_mut(&mut self, id: i64) -> Option<&mut OpenCursor> {
        self.open.get_mut(&id)
    }

    pub fn close(&mut self, id: i64) -> bool {
        self.open.remove(&id).is_some()
    }

    /// Kills every cursor over `ns` (the collection was dropped): each stays known, so its
    /// next `getMore` reports why, as MongoDB's does (QueryPlanKilled, "collection dropped").
    pub fn kill_namespace(&mut self, ns: &Namespace, reason: &'static str) {
        for cursor in self.open.values_mut().filter(|c| &c.ns == ns) {
            cursor.killed = Some(reason);
            cursor.remaining.clear();
        }
    }
}
