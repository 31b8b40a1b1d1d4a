//! The collation data the engine reads when a locale is first used (`engine::collation::data`:
//! the wasm build does not link the locales' tailorings). The worker reads a locale's file from
//! the site's `collation/` folder (`cargo xtask web-build` copies `engine/data/collation/` there),
//! relative to `worker.js`, so the page, a copy of the site under a sub-path and the embeddable
//! widget (an iframe of `embed.html` on Sprout's origin) all read it from where the wasm came from.
//!
//! The request is synchronous: a worker may make one, and the engine builds a collator in the
//! middle of a command (a `find` with a collation, a collection's default collation when its
//! data is reloaded), so the command simply waits for the file instead of being run twice. The
//! page stays responsive meanwhile (it is the worker that waits) and can stop the command as
//! any other. A failed read is the command's error (the engine names the locale and the file);
//! the next command with that locale tries again.

/// Where the files are, relative to `worker.js`.
pub const FOLDER: &str = "collation/";

/// Lets the engine read collation data through [`read`].
pub fn install() {
    engine::collation::data::set_tailoring_loader(Box::new(read));
}

/// Reads `collation/<name>`: its bytes, or what went wrong.
pub fn read(name: &str) -> Result<Vec<u8>, String> {
    crate::worker::site_file::read(&format!("{FOLDER}{name}"))
}
