//! A collection's slot for state an upper layer derives from it and owns: the planner's plan
//! cache. The catalog does not know the state's type (so `catalog` does not depend on
//! `planner`); it only empties the slot whenever the collection's indexes change, which is
//! when derived plans go stale. The state is not part of the collection's data: a cloned
//! collection starts with an empty slot, as a restarted server starts with empty plan caches.

use std::any::Any;
use std::cell::{RefCell, RefMut};

/// Derived state of one type, created on first use.
#[derive(Default)]
pub struct DerivedSlot(RefCell<Option<Box<dyn Any>>>);

impl DerivedSlot {
    /// Empties the slot (the next [`DerivedSlot::get`] starts from `T::default()`).
    pub fn clear(&mut self) {
        *self.0.get_mut() = None;
    }

    /// The state, created empty on first use (or when the slot held another type). Planning
    /// reads the collection through `&self` and fills the cache, hence the cell; the engine is
    /// single-threaded and no caller holds the state across another call.
    pub fn get<T: Default + 'static>(&self) -> RefMut<'_, T> {
        let mut slot = self.0.borrow_mut();
        if !slot.as_ref().is_some_and(|b| b.is::<T>()) {
            *slot = Some(Box::new(T::default()));
        }
        RefMut::map(slot, |s| {
            s.as_mut()
                .and_then(|b| b.downcast_mut::<T>())
                .expect("the slot holds a T: set just above")
        })
    }
}

impl Clone for DerivedSlot {
    fn clone(&self) -> Self {
        DerivedSlot::default()
    }
}

impl std::fmt::Debug for DerivedSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let filled = self.0.try_borrow().map(|s| s.is_some()).unwrap_or(true);
        f.debug_struct("DerivedSlot")
            .field("filled", &filled)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn created_on_use_kept_and_cleared() {
        let mut slot = DerivedSlot::default();
        slot.get::<Vec<u8>>().push(1);
        assert_eq!(*slot.get::<Vec<u8>>(), vec![1]);
        assert!(slot.clone().get::<Vec<u8>>().is_empty());
        slot.clear();
        assert!(slot.get::<Vec<u8>>().is_empty());
    }
}
