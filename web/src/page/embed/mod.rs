//! The embedded page, `embed.html`: Sprout inside another site's page, in an iframe on Sprout's
//! own origin (so the wasm, the worker and IndexedDB stay here and the host needs no special
//! headers). It shows a console or one lesson with no app chrome, or nothing at all (the
//! `bridge` view `<sprout-snippet>` runs its code in), and answers the host page's messages
//! (`bridge.rs`). `static/embed.js` is the host page's side; `docs/embedding.md` the guide.

pub mod bridge;
pub mod dataset_input;
pub mod page;
pub mod params;

#[cfg(test)]
mod example_lesson_test;

/// Whether this page is `embed.html` (the same `web` module serves `index.html` and it).
pub fn is_embed_page() -> bool {
    web_sys::window()
        .and_then(|w| w.location().pathname().ok())
        .is_some_and(|path| path.ends_with("/embed.html") || path == "embed.html")
}
