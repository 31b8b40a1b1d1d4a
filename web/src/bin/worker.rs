//! The shell worker's binary: the engine, the shell and IndexedDB, loaded by `static/worker.js`.
//! The page's UI is the `web` binary; keeping them apart lets each link only what it runs, so the
//! page's module stays small and both download and compile at the same time.

// Loading a large database makes many small allocations; without steps the memory would grow
// 64 KiB at a time, and V8 answers each grow with a garbage collection (`grow_in_steps`).
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: engine::grow_in_steps::GrowInSteps = engine::grow_in_steps::GrowInSteps;

fn main() {
    web::worker::shell_worker::run();
}
