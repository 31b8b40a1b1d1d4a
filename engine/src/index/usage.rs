//! Index usage statistics for `$indexStats`: how many operations used an index, counted since
//! a time. Queries read collections through shared references, so the counters are atomics
//! (interior mutability); the engine stamps the start time when the index first exists at the
//! end of a command (it is the one holding the clock).

use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};

/// The `accesses` of one index.
#[derive(Debug, Default)]
pub struct IndexUsage {
    ops: AtomicU64,
    /// Milliseconds since the epoch; `i64::MIN` until stamped.
    since: AtomicI64,
}

impl IndexUsage {
    pub fn new() -> IndexUsage {
        IndexUsage {
            ops: AtomicU64::new(0),
            since: AtomicI64::new(i64::MIN),
        }
    }

    /// One more operation used the index.
    pub fn record(&self) {
        self.ops.fetch_add(1, Ordering::Relaxed);
    }

    pub fn ops(&self) -> u64 {
        self.ops.load(Ordering::Relaxed)
    }

    /// When counting began (`None` before the engine stamped it).
    pub fn since(&self) -> Option<i64> {
        let s = self.since.load(Ordering::Relaxed);
        (s != i64::MIN).then_some(s)
    }

    /// Sets the start time if it is not set yet.
    pub fn stamp(&self, now_millis: i64) {
        let _ =
            self.since
                .compare_exchange(i64::MIN, now_millis, Ordering::Relaxed, Ordering::Relaxed);
    }
}

/// A copy (a cloned collection, as `$out` builds) starts counting afresh, as a new index does.
impl Clone for IndexUsage {
    fn clone(&self) -> Self {
        IndexUsage::new()
    }
}

#[cfg(test)]
mod tests {
    use super::IndexUsage;

    #[test]
    fn counts_and_stamps_once() {
        let u = IndexUsage::new();
        assert_eq!((u.ops(), u.since()), (0, None));
        u.record();
        u.record();
        u.stamp(5);
        u.stamp(9);
        assert_eq!((u.ops(), u.since()), (2, Some(5)));
        assert_eq!(u.clone().ops(), 0);
    }
}
