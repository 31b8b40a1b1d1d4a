//! The global allocator for a wasm module that runs the engine (the Node binding in
//! `bench/node-engine`, the playground's shell worker): Rust's own (`std::alloc::System`,
//! dlmalloc), with the module's memory grown in large steps instead of 64 KiB at a time.
//!
//! dlmalloc asks for as little memory as the allocation at hand needs (its granularity is
//! 64 KiB), and V8 answers every `memory.grow` with a full garbage collection of the JavaScript
//! heap ("GC in old space requested"). Inserting 200k small documents grew the memory about
//! 1,600 times: 1,644 mark-compacts, 49% of the insert profile (`docs/performance.md`, issue
//! #22). So whenever an allocation has grown the memory, this allocates as much again as the
//! memory then holds (at most [`MAX_STEP`]) and frees it at once: dlmalloc keeps the block as
//! free space at the top of its heap (on wasm it never gives memory back), so the next
//! allocations find room without growing, and the number of grows is logarithmic. The
//! reserved pages cost address space only until they are used.

use std::alloc::{GlobalAlloc, Layout, System};
use std::arch::wasm32::memory_size;

/// The largest step taken at once (the memory still grows further in steps of this size).
const MAX_STEP: usize = 64 << 20;
const PAGE: usize = 64 << 10;

pub struct GrowInSteps;

impl GrowInSteps {
    /// After an allocation that grew the memory from `pages_before`, reserves the next step.
    fn after(&self, pages_before: usize) {
        let pages = memory_size(0);
        if pages == pages_before {
            return;
        }
        let step = (pages * PAGE).min(MAX_STEP);
        if let Ok(layout) = Layout::from_size_align(step, 16) {
            // SAFETY: `layout` has a non-zero size; the block is freed with the same layout.
            unsafe {
                let block = System.alloc(layout);
                if !block.is_null() {
                    System.dealloc(block, layout);
                }
            }
        }
    }
}

// SAFETY: every call is forwarded to `System` with the caller's arguments; the extra
// allocation in `after` is a separate, immediately freed block.
unsafe impl GlobalAlloc for GrowInSteps {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let before = memory_size(0);
        // SAFETY: the caller's contract is passed on unchanged.
        let p = unsafe { System.alloc(layout) };
        self.after(before);
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let before = memory_size(0);
        // SAFETY: as above.
        let p = unsafe { System.alloc_zeroed(layout) };
        self.after(before);
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let before = memory_size(0);
        // SAFETY: as above.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        self.after(before);
        p
    }
}
