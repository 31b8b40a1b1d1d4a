//! The collation in force for the running command (see the module docs for why it is a
//! thread-local). Commands enter a [`CollationScope`]; leaving it (drop) restores the previous one,
//! so nested scopes (a `$lookup` or a per-statement collation) unwind correctly.

use std::cell::RefCell;
use std::cmp::Ordering;
use std::rc::Rc;

use super::Collation;

thread_local! {
    static ACTIVE: RefCell<Option<Rc<Collation>>> = const { RefCell::new(None) };
}

/// Puts a collation in force until dropped. `None` is the simple (binary) collation.
#[must_use = "the collation is in force only while the scope lives"]
pub struct CollationScope {
    previous: Option<Rc<Collation>>,
}

impl CollationScope {
    pub fn enter(collation: Option<Rc<Collation>>) -> CollationScope {
        let previous = ACTIVE.with(|a| a.replace(collation));
        CollationScope { previous }
    }
}

impl Drop for CollationScope {
    fn drop(&mut self) {
        let previous = self.previous.take();
        ACTIVE.with(|a| *a.borrow_mut() = previous);
    }
}

/// Whether string comparisons are binary right now.
pub fn active_is_simple() -> bool {
    ACTIVE.with(|a| a.borrow().is_none())
}

/// The collation in force, if any.
pub fn active() -> Option<Rc<Collation>> {
    ACTIVE.with(|a| a.borrow().clone())
}

/// Compares two strings under the collation in force (binary when none is).
pub(crate) fn compare_strings(a: &str, b: &str) -> Ordering {
    ACTIVE.with(|active| match active.borrow().as_deref() {
        Some(collation) => collation.compare(a, b),
        None => a.cmp(b),
    })
}
