//! The string order in force for the running command: binary unless a collation put its own
//! in force. `value` defines the slot and compares with it; `collation::CollationScope` fills
//! it (so `value` knows nothing of collations: the dependency runs from `collation` down).
//! A scope restores the previous order when dropped, so nested scopes unwind correctly.

use std::cell::{Cell, RefCell};
use std::cmp::Ordering;
use std::rc::Rc;

/// An order on strings (a collation's comparison).
pub trait StringOrder {
    fn compare(&self, a: &str, b: &str) -> Ordering;
}

thread_local! {
    static ACTIVE: RefCell<Option<Rc<dyn StringOrder>>> = const { RefCell::new(None) };
    /// Whether `ACTIVE` is `None`, kept beside it: [`binary_in_force`] is asked per document
    /// by a scan's raw matcher, and the `RefCell`'s borrow was a call each time in the
    /// size-optimised wasm build (session 18).
    static BINARY: Cell<bool> = const { Cell::new(true) };
}

/// Puts a string order in force until dropped. `None` is binary order.
#[must_use = "the order is in force only while the scope lives"]
pub struct StringOrderScope {
    previous: Option<Rc<dyn StringOrder>>,
}

impl StringOrderScope {
    pub fn enter(order: Option<Rc<dyn StringOrder>>) -> StringOrderScope {
        BINARY.with(|b| b.set(order.is_none()));
        let previous = ACTIVE.with(|a| a.replace(order));
        StringOrderScope { previous }
    }
}

impl Drop for StringOrderScope {
    fn drop(&mut self) {
        let previous = self.previous.take();
        BINARY.with(|b| b.set(previous.is_none()));
        ACTIVE.with(|a| *a.borrow_mut() = previous);
    }
}

/// Compares two strings in the order in force (binary when none is).
pub(crate) fn compare_in_force(a: &str, b: &str) -> Ordering {
    ACTIVE.with(|active| match active.borrow().as_deref() {
        Some(order) => order.compare(a, b),
        None => a.cmp(b),
    })
}

/// Whether strings compare byte for byte (no collation in force): then UTF-8 bytes compare as
/// the strings do, with no need to check that they are UTF-8.
pub(crate) fn binary_in_force() -> bool {
    BINARY.with(Cell::get)
}

/// Whether two strings are equal in the order in force (byte for byte when none is): what
/// `compare_in_force(a, b) == Equal` says, without ordering them.
pub(crate) fn equal_in_force(a: &str, b: &str) -> bool {
    ACTIVE.with(|active| match active.borrow().as_deref() {
        Some(order) => order.compare(a, b) == Ordering::Equal,
        None => crate::path::same_name(a.as_bytes(), b.as_bytes()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Reversed;
    impl StringOrder for Reversed {
        fn compare(&self, a: &str, b: &str) -> Ordering {
            b.cmp(a)
        }
    }

    #[test]
    fn scopes_nest_and_unwind() {
        assert_eq!(compare_in_force("a", "b"), Ordering::Less);
        assert!(equal_in_force("a", "a") && !equal_in_force("a", "A"));
        {
            let _outer = StringOrderScope::enter(Some(Rc::new(Reversed)));
            assert_eq!(compare_in_force("a", "b"), Ordering::Greater);
            {
                let _inner = StringOrderScope::enter(None);
                assert_eq!(compare_in_force("a", "b"), Ordering::Less);
            }
            assert_eq!(compare_in_force("a", "b"), Ordering::Greater);
        }
        assert_eq!(compare_in_force("a", "b"), Ordering::Less);
    }
}
