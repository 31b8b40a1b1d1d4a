//! How much native stack the shell's parsing may still use.
//!
//! Boa's parser is recursive descent: every level of nesting in the source (a bracket, a unary
//! operator, an arrow function, an `if`, a right-associative `**` or `=`) is a few more native
//! frames. Counting brackets in the text misses most of these, so the guard measures the stack
//! itself: [`StackScope::enter`] records how far down the stack may go for one evaluation, and
//! [`ParseGuard`] makes the reader the parser pulls characters from refuse to hand out another
//! character once the stack is below that floor. The parser then fails with an I/O error that
//! [`take_tripped`] recognises, and unwinds normally: nothing overflows.
//!
//! The stack grows down on every target Sprout runs on (x86-64, aarch64, wasm32's shadow
//! stack), so "deeper" means "a lower address".

use std::cell::Cell;

/// Natively, an input starts with at least this much stack, or runs on a fresh segment.
#[cfg(not(target_arch = "wasm32"))]
const MIN_NATIVE_STACK: usize = 32 << 20;
/// The size of that fresh segment (address space; pages are committed as they are touched).
#[cfg(not(target_arch = "wasm32"))]
const NATIVE_SEGMENT: usize = 64 << 20;

/// Stack kept free below the parser's floor: room for Boa's own parse of the same code (a few
/// frames deeper than the check's), its compiler and the evaluation.
#[cfg(not(target_arch = "wasm32"))]
const RESERVE: usize = 4 << 20;
#[cfg(target_arch = "wasm32")]
const RESERVE: usize = 256 << 10;

thread_local! {
    /// The lowest stack address parsing may reach; 0 when no evaluation is guarded.
    static FLOOR: Cell<usize> = const { Cell::new(0) };
    /// Set when a guarded reader refused a character because the stack ran low.
    static TRIPPED: Cell<bool> = const { Cell::new(false) };
}

/// The current stack position (the address of a local variable).
#[inline(never)]
pub(crate) fn position() -> usize {
    let marker = 0u8;
    std::hint::black_box(&marker) as *const u8 as usize
}

/// Bytes of stack left below the current position.
fn remaining() -> usize {
    #[cfg(not(target_arch = "wasm32"))]
    {
        stacker::remaining_stack().unwrap_or(2 << 20)
    }
    // wasm32: the shadow stack sits first in linear memory and grows down toward address 0
    // (rustc's wasm targets link with `-z stack-size=1048576 --stack-first`).
    #[cfg(target_arch = "wasm32")]
    {
        position()
    }
}

/// Runs `f` (one input) with a stack of known size: natively, on a fresh 64 MiB segment when
/// the thread has less than 32 MiB left (a test thread has 2 MiB, the main thread 8 MiB), so
/// the same code is accepted everywhere; in wasm on the worker's own stack.
pub(crate) fn with_stack<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(not(target_arch = "wasm32"))]
    {
        stacker::maybe_grow(MIN_NATIVE_STACK, NATIVE_SEGMENT, f)
    }
    #[cfg(target_arch = "wasm32")]
    {
        f()
    }
}

/// True when the stack is below the floor of the evaluation in progress.
pub(crate) fn exhausted() -> bool {
    let floor = FLOOR.with(Cell::get);
    floor != 0 && position() < floor
}

/// The stack budget of one evaluation; restores the previous one when dropped. A nested scope
/// (a `$where` predicate or `load()` inside a command) keeps the outer floor.
pub(crate) struct StackScope {
    previous: usize,
}

impl StackScope {
    /// Parsing may use at most `budget` bytes below here, and never the last [`RESERVE`] bytes
    /// of the stack.
    pub(crate) fn enter(budget: usize) -> StackScope {
        let previous = FLOOR.with(Cell::get);
        if previous == 0 {
            let here = position();
            let usable = remaining().saturating_sub(RESERVE).min(budget);
            FLOOR.with(|f| f.set(here.saturating_sub(usable).max(1)));
        }
        StackScope { previous }
    }
}

impl Drop for StackScope {
    fn drop(&mut self) {
        FLOOR.with(|f| f.set(self.previous));
    }
}

/// Whether a guarded reader refused input since the last call (and clears the flag).
pub(crate) fn take_tripped() -> bool {
    TRIPPED.with(|t| t.replace(false))
}

/// While alive, the parser's reader (Boa's `sprout_limits::source`, which every parse in the
/// shell uses so that one copy of the parser is linked) refuses to hand out another byte once
/// the stack is below the floor. Boa's reader pulls one byte per call, so every token the parser
/// asks for passes the check. Set only for the nesting check's own parse: the parse that runs
/// the code, `eval` and `JSON.parse` read unguarded, as before.
pub(crate) struct ParseGuard(());

impl ParseGuard {
    pub(crate) fn set() -> ParseGuard {
        boa_engine::sprout_limits::set_parse_guard(Some(refuse));
        ParseGuard(())
    }
}

impl Drop for ParseGuard {
    fn drop(&mut self) {
        boa_engine::sprout_limits::set_parse_guard(None);
    }
}

/// The guard's check: the stack is below the floor (remembered for [`take_tripped`]).
fn refuse() -> bool {
    if exhausted() {
        TRIPPED.with(|t| t.set(true));
        return true;
    }
    false
}
