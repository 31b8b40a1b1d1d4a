//! Sprout patch: a per-thread limit on the backtracking steps of one search.
//!
//! regress (0.12.0) backtracks without bound, so a catastrophic pattern such as `(a+)+$` against
//! `"aaaa…b"` runs for ages. The embedder sets a limit with [`set_backtrack_limit`]; a search
//! that backtracks more often than that reports no match, and [`take_backtrack_limit_hit`]
//! tells the embedder that the answer was cut short rather than a real "no match".

use core::cell::Cell;

std::thread_local! {
    static LIMIT: Cell<u64> = const { Cell::new(u64::MAX) };
    static STEPS: Cell<u64> = const { Cell::new(0) };
    static HIT: Cell<bool> = const { Cell::new(false) };
}

/// Sets the most backtracking steps one search may take on this thread (`None`: no limit).
pub fn set_backtrack_limit(limit: Option<u64>) {
    LIMIT.with(|l| l.set(limit.unwrap_or(u64::MAX)));
}

/// Whether a search stopped at the limit since the last call (and clears the flag).
pub fn take_backtrack_limit_hit() -> bool {
    HIT.with(|h| h.replace(false))
}

/// Starts counting for a new search.
pub(crate) fn start_search() {
    STEPS.with(|s| s.set(0));
}

/// Counts one backtracking step; false once the search has used up its steps.
pub(crate) fn step() -> bool {
    let steps = STEPS.with(|s| {
        let n = s.get().saturating_add(1);
        s.set(n);
        n
    });
    if steps > LIMIT.with(Cell::get) {
        HIT.with(|h| h.set(true));
        return false;
    }
    true
}

/// Whether the current search has used up its steps.
pub(crate) fn exhausted() -> bool {
    STEPS.with(Cell::get) > LIMIT.with(Cell::get)
}

/// Runs `search` with `limit` in place of this thread's limit, and returns its result and
/// whether it stopped at the limit. The thread's limit and unreported hit are restored after,
/// so an embedder with two users of the engine on one thread (Sprout's `$regex` and the
/// shell's JavaScript) keeps each one's limit and report apart.
pub fn with_backtrack_limit<R>(limit: u64, search: impl FnOnce() -> R) -> (R, bool) {
    let saved_limit = LIMIT.with(|l| l.replace(limit));
    let saved_hit = HIT.with(|h| h.replace(false));
    let out = search();
    let hit = HIT.with(|h| h.replace(saved_hit));
    LIMIT.with(|l| l.set(saved_limit));
    (out, hit)
}
