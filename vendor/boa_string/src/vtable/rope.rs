//! Sprout patch: `VTable` implementation for [`RopeString`], a concatenation kept as its two
//! halves until something reads its characters.
//!
//! Upstream copies both strings into a new one at every `+`, so a loop that grows a string
//! (`s += word`, 450,000 times in MongoDB's `jstests/core/text_index_limits.js`) copied the
//! whole string each time: quadratic, minutes for a few megabytes. A rope makes each step
//! constant; the first read (`as_str`) copies the leaves once into a flat string, which the
//! rope keeps (dropping its halves), so later reads are free. Its length is known without
//! reading. Dropping a long chain of ropes is done with a loop, not recursion, so a million
//! nested halves cannot overflow the stack.
use crate::iter::CodePointsIter;
use crate::vtable::JsStringVTable;
use crate::{JsStr, JsString, JsStringKind};
use std::cell::{Cell, UnsafeCell};
use std::mem::ManuallyDrop;
use std::process::abort;
use std::ptr::NonNull;

/// Below this many code units a concatenation is copied at once: a rope's node and its later
/// flattening cost more than copying a short string.
pub(crate) const ROPE_MIN_LEN: usize = 256;

/// What a rope holds: both halves until it is read, then its characters in one flat string.
enum RopeState {
    Halves(JsString, JsString),
    Flat(JsString),
}

/// The concatenation of two strings, flattened on first read.
#[repr(C)]
pub(crate) struct RopeString {
    /// Embedded `VTable` - must be the first field for vtable dispatch.
    vtable: JsStringVTable,
    refcount: Cell<usize>,
    /// Written only by `flatten`, while no reference into it is held (a rope never contains
    /// itself, and `as_str` hands out references only into the `Flat` string's heap data,
    /// which does not move when the state changes).
    state: UnsafeCell<RopeState>,
}

impl RopeString {
    /// A rope of `left` then `right`, whose lengths add up to `len`.
    pub(crate) fn new(left: JsString, right: JsString, len: usize) -> Self {
        RopeString {
            vtable: JsStringVTable {
                clone: rope_clone,
                drop: rope_drop,
                as_str: rope_as_str,
                code_points: rope_code_points,
                refcount: rope_refcount,
                len,
                kind: JsStringKind::Rope,
            },
            refcount: Cell::new(1),
            state: UnsafeCell::new(RopeState::Halves(left, right)),
        }
    }

    /// The flat string, made from the leaves the first time it is asked for.
    fn flat(&self) -> JsStr<'static> {
        // SAFETY: see `state`: nothing borrows the state across this call.
        if let RopeState::Flat(flat) = unsafe { &*self.state.get() } {
            // SAFETY: the flat string lives as long as this rope (it is never replaced).
            return unsafe { flat.as_str().as_static() };
        }
        let flat = {
            // SAFETY: as above; the leaves borrow this rope's halves (and their halves),
            // which live until the state is replaced below, after `leaves` is dropped.
            let RopeState::Halves(left, right) = (unsafe { &*self.state.get() }) else {
                unreachable!("checked above")
            };
            let mut leaves: Vec<JsStr<'_>> = Vec::new();
            let mut pending: Vec<&JsString> = vec![right, left];
            while let Some(part) = pending.pop() {
                if part.kind() == JsStringKind::Rope {
                    // SAFETY: the kind says this is a `RopeString`.
                    let rope: &RopeString = unsafe { part.as_inner() };
                    // SAFETY: another rope's state, not borrowed mutably by anyone.
                    match unsafe { &*rope.state.get() } {
                        RopeState::Flat(flat) => leaves.push(flat.as_str()),
                        RopeState::Halves(l, r) => {
                            pending.push(r);
                            pending.push(l);
                        }
                    }
                } else {
                    leaves.push(part.as_str());
                }
            }
            JsString::concat_array(&leaves)
        };
        // SAFETY: no reference into the state is alive (the leaves are gone).
        let old = std::mem::replace(unsafe { &mut *self.state.get() }, RopeState::Flat(flat));
        if let RopeState::Halves(left, right) = old {
            release(vec![left, right]);
        }
        self.flat()
    }
}

/// Drops `strings`, taking apart ropes held nowhere else with a loop instead of recursion.
fn release(mut pending: Vec<JsString>) {
    while let Some(string) = pending.pop() {
        if string.kind() == JsStringKind::Rope && string.refcount() == Some(1) {
            let string = ManuallyDrop::new(string);
            // SAFETY: the kind says this is a boxed `RopeString`, and this was its last
            // handle (the handle is not dropped: `ManuallyDrop`).
            let node = unsafe { Box::from_raw(string.ptr.cast::<RopeString>().as_ptr()) };
            match node.state.into_inner() {
                RopeState::Halves(left, right) => {
                    pending.push(left);
                    pending.push(right);
                }
                RopeState::Flat(flat) => drop(flat),
            }
        } else {
            drop(string);
        }
    }
}

#[inline]
fn rope_clone(vtable: NonNull<JsStringVTable>) -> JsString {
    // SAFETY: This is part of the correct vtable which is validated on construction.
    let this: &RopeString = unsafe { vtable.cast().as_ref() };
    let Some(strong) = this.refcount.get().checked_add(1) else {
        abort();
    };
    this.refcount.set(strong);
    // SAFETY: validated the string outside this function.
    unsafe { JsString::from_ptr(vtable) }
}

fn rope_drop(vtable: NonNull<JsStringVTable>) {
    // SAFETY: This is part of the correct vtable which is validated on construction.
    let this: &RopeString = unsafe { vtable.cast().as_ref() };
    let Some(new) = this.refcount.get().checked_sub(1) else {
        abort();
    };
    this.refcount.set(new);
    if new != 0 {
        return;
    }
    // SAFETY: This is the last reference; the vtable points to a boxed `RopeString`.
    let node = unsafe { Box::from_raw(vtable.cast::<RopeString>().as_ptr()) };
    match node.state.into_inner() {
        RopeState::Halves(left, right) => release(vec![left, right]),
        RopeState::Flat(flat) => drop(flat),
    }
}

fn rope_as_str(vtable: NonNull<JsStringVTable>) -> JsStr<'static> {
    // SAFETY: This is part of the correct vtable which is validated on construction.
    let this: &RopeString = unsafe { vtable.cast().as_ref() };
    this.flat()
}

fn rope_code_points(vtable: NonNull<JsStringVTable>) -> CodePointsIter<'static> {
    CodePointsIter::new(rope_as_str(vtable))
}

/// `VTable` function for refcount, need to return an `Option<usize>`.
#[allow(clippy::unnecessary_wraps)]
fn rope_refcount(vtable: NonNull<JsStringVTable>) -> Option<usize> {
    // SAFETY: This is part of the correct vtable which is validated on construction.
    let this: &RopeString = unsafe { vtable.cast().as_ref() };
    Some(this.refcount.get())
}
