//! Data in and out in MongoDB's own formats, so data moves between Sprout and a real MongoDB:
//! `mongoexport`/`mongoimport` JSON ([`mongoexport`], [`mongoimport`], written as the Go tools
//! write Extended JSON: [`extjson_text`]) and `mongodump --archive` files ([`archive`], with each
//! collection's [`metadata`]). Pure functions over bytes and documents; the engine commands that
//! use them are in `commands/transfer.rs`, file handling is the CLI's and the page's.

pub mod archive;
pub mod extjson_text;
pub mod metadata;
pub mod mongoexport;
pub mod mongoimport;

pub use extjson_text::ExtJsonMode;
pub use mongoexport::JsonLayout;
