//! The shell worker's binary: the engine, the shell and IndexedDB, loaded by `static/worker.js`.
//! The page's UI is the `web` binary; keeping them apart lets each link only what it runs, so the
//! page's module stays small and both download and compile at the same time.
fn main() {
    web::worker::shell_worker::run();
}
