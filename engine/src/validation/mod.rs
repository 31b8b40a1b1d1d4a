//! Document validation: a collection's `validator` (query operators and `$jsonSchema`), applied
//! to the documents inserts and updates write, as `validationLevel` and `validationAction` say.
//!
//! - level `strict` (default): every insert and update is checked; `moderate`: updates of
//!   documents that did not already pass are not checked (inserts still are); `off`: nothing.
//! - action `error` (default): the write fails with code 121 "Document failed validation" and
//!   an `errInfo` `{failingDocumentId, details}` ([`explain`] builds `details`); `warn`: MongoDB
//!   only logs, and Sprout has no server log, so the write proceeds.
//! - a command's `bypassDocumentValidation: true` skips the check (`Engine` keeps the flag for
//!   the command's duration).
//! - the validator compares strings by the collection's default collation, whatever collation
//!   the write itself runs under, as MongoDB parses it with the collection's collator
//!   (jstests/core/doc_validation.js); `$jsonSchema` stays binary.

pub mod definition;
mod explain;

pub use definition::check_validator;

use bson::{Bson, Document, doc};

use std::rc::Rc;

use crate::catalog::Collection;
use crate::collation::{Collation, CollationScope};
use crate::error::{Error, ErrorCode, Result};
use crate::matcher::Filter;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Level {
    Strict,
    Moderate,
}

/// A collection's validator, ready to check documents.
pub struct Validation {
    validator: Document,
    filter: Filter,
    level: Level,
    /// The collection's default collation (`None`: binary).
    collation: Option<Rc<Collation>>,
}

impl Validation {
    /// The validation a collection enforces, or `None` (no validator, level `off`, action
    /// `warn`).
    pub fn of(coll: Option<&Collection>) -> Result<Option<Validation>> {
        let Some(options) = coll.map(|c| &c.options) else {
            return Ok(None);
        };
        let validator = match options.get("validator") {
            Some(Bson::Document(v)) if !v.is_empty() => v,
            _ => return Ok(None),
        };
        let level = match options.get_str("validationLevel").unwrap_or("strict") {
            "off" => return Ok(None),
            "moderate" => Level::Moderate,
            _ => Level::Strict,
        };
        if options.get_str("validationAction").ok() == Some("warn") {
            return Ok(None);
        }
        let collation = crate::write::collation::default_collation(coll)?;
        // Parsed under the collation too: a sorted `$in` list is built in its order.
        let filter = {
            let _scope = CollationScope::enter(collation.clone());
            Filter::parse(validator)?
        };
        Ok(Some(Validation {
            validator: validator.clone(),
            filter,
            level,
            collation,
        }))
    }

    /// Checks a document about to be inserted.
    pub fn check_insert(&self, new: &Document) -> Result<()> {
        self.check(new)
    }

    /// Checks the new version of an updated document (`old` is the stored one).
    pub fn check_update(&self, old: &Document, new: &Document) -> Result<()> {
        if self.level == Level::Moderate && !self.passes(old) {
            return Ok(());
        }
        self.check(new)
    }

    fn passes(&self, doc: &Document) -> bool {
        // The write may run under another collation than the collection's.
        let _scope = CollationScope::enter(self.collation.clone());
        self.filter.matches(doc)
    }

    fn check(&self, doc: &Document) -> Result<()> {
        if self.passes(doc) {
            return Ok(());
        }
        let id = doc.get("_id").cloned().unwrap_or(Bson::Null);
        let details = {
            let _scope = CollationScope::enter(self.collation.clone());
            explain::explain(&self.validator, doc)
        };
        Err(Error::new(
            ErrorCode::DocumentValidationFailure,
            "Document failed validation",
        )
        .with_details(doc! {"errInfo": {"failingDocumentId": id, "details": details}}))
    }
}

#[cfg(test)]
mod tests;
