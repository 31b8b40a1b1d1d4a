//! The collation in force for the running command (see the module docs for why it is a
//! thread-local). Commands enter a [`CollationScope`]; leaving it (drop) restores the previous one,
//! so nested scopes (a `$lookup` or a per-statement collation) unwind correctly.

use std::cell::RefCell;
use std::cmp::Ordering;
use std::rc::Rc;

use super::Collation;
use crate::value::string_order::{StringOrder, StringOrderScope};

thread_local! {
    static ACTIVE: RefCell<Option<Rc<Collation>>> = const { RefCell::new(None) };
}

/// Puts a collation in force until dropped. `None` is the simple (binary) collation.
#[must_use = "the collation is in force only while the scope lives"]
pub struct CollationScope {
    previous: Option<Rc<Collation>>,
    /// The same collation as `value`'s string order (restored after `previous`, on drop).
    _order: StringOrderScope,
}

impl CollationScope {
    pub fn enter(collation: Option<Rc<Collation>>) -> CollationScope {
        let order = collation.clone().map(|c| c as Rc<dyn StringOrder>);
        let previous = ACTIVE.with(|a| a.replace(collation));
        CollationScope {
            previous,
            _order: StringOrderScope::enter(order),
        }
    }
}

impl StringOrder for Collation {
    fn compare(&self, a: &str, b: &str) -> Ordering {
        Collation::compare(self, a, b)
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
