//! Typed command requests: a command document read once, with MongoDB's messages for missing
//! and mistyped fields, into a struct that borrows from it. A command and its explain parse the
//! same request, so an explain cannot accept (or refuse) what its command would not.
//!
//! `count` and `distinct` keep theirs beside their commands (`CountRequest`, `DistinctRequest`);
//! the find and write commands' requests live here.

pub(crate) mod delete;
pub(crate) mod find;
pub(crate) mod find_and_modify;
pub(crate) mod update;

use bson::{Bson, Document};

use crate::error::{Error, Result};
use crate::value::display::type_name;

/// An optional `let` document (`BSON field '<cmd>.let' is the wrong type…`).
pub(super) fn let_option<'c>(command: &'c Document, cmd: &str) -> Result<Option<&'c Document>> {
    match command.get("let") {
        None | Some(Bson::Null) => Ok(None),
        Some(Bson::Document(vars)) => Ok(Some(vars)),
        Some(other) => Err(Error::type_mismatch(format!(
            "BSON field '{cmd}.let' is the wrong type '{}', expected type 'object'",
            type_name(other)
        ))),
    }
}

/// An `arrayFilters` option: an array of documents (`qualified` names the field in messages).
pub(super) fn array_filters_option(d: &Document, qualified: &str) -> Result<Vec<Document>> {
    match d.get("arrayFilters") {
        None | Some(Bson::Null) => Ok(Vec::new()),
        Some(Bson::Array(items)) => items
            .iter()
            .map(|item| match item {
                Bson::Document(f) => Ok(f.clone()),
                other => Err(Error::type_mismatch(format!(
                    "BSON field '{qualified}' is the wrong type '{}', expected type 'object'",
                    type_name(other)
                ))),
            })
            .collect(),
        Some(other) => Err(Error::type_mismatch(format!(
            "BSON field '{qualified}' is the wrong type '{}', expected type 'array'",
            type_name(other)
        ))),
    }
}

/// A write statement's `hint`, `None` when it names no index (absent, null, `""`, `{}`).
pub(super) fn hint_option(d: &Document) -> Option<&Bson> {
    d.get("hint").filter(|h| !super::count::is_empty_hint(h))
}
