//! Caps the wasm memory of the `web` binaries (the page's UI and the shell worker).
//!
//! Why: learner code can exhaust memory (`while (true) a.push("x".repeat(1e6))`). Without a cap
//! the worker grows to wasm32's 4 GiB, which takes long and weighs on the whole browser; with it
//! the allocation fails early, the wasm traps, and the page replaces the worker (see
//! `static/worker.js` and `engine_client`). 1 GiB is far more than any lesson dataset needs.
const MAX_MEMORY_BYTES: u64 = 1 << 30;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg-bins=--max-memory={MAX_MEMORY_BYTES}");
    }
}
