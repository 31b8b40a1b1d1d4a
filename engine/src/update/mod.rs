//! The update language: `$set`, `$inc`, `$push` and the other operators, replacement documents,
//! positional paths (`$`, `$[]`, `$[<id>]` with `arrayFilters`) and upsert seeding.
//!
//! ```text
//! u document ──► parse.rs ──► UpdateSpec::Operators(tree of node.rs)  ──► apply.rs ──► one file per operator
//!                        ├──► UpdateSpec::Replacement(document)        ──► replacement.rs
//!                        └──► UpdateSpec::Pipeline(stages)             ──► pipeline.rs (then replacement.rs)
//! query ──► upsert.rs (equality fields) ──► the same apply, with $setOnInsert active
//! ```
//!
//! An update is parsed once per statement and applied to each matched document. Applying never
//! touches the collection: it returns the new document (or `None` when nothing changed, which is
//! what `nModified` counts), and the write commands store it.

mod add_to_set;
mod apply;
mod bit;
mod current_date;
mod decimal;
mod identical;
mod inc_mul;
mod min_max;
mod node;
mod parse;
mod pipeline;
mod pop;
mod positional;
mod pull;
mod push;
mod rename;
mod replacement;
mod set;
mod set_on_insert;
mod unset;
mod upsert;

#[cfg(test)]
mod tests;

use bson::{Bson, Document};

pub use identical::{identical, identical_documents};
pub use parse::{OperatorUpdate, UpdateSpec};
pub use pipeline::PipelineUpdate;
pub use positional::ArrayFilters;
pub use upsert::{SeedScope, check_upsert_query, seed_from_query};

use crate::error::{Error, ErrorCode, Result};
use crate::expression::EvalContext;

/// What applying an update may depend on besides the document.
#[derive(Debug, Clone, Copy)]
pub struct UpdateEnv<'a> {
    pub array_filters: &'a ArrayFilters,
    /// The engine clock, for `$currentDate`.
    pub now_millis: i64,
    /// The array position the query matched (its elemMatchKey), for `$`.
    pub matched_position: Option<usize>,
    /// The command's evaluation context (`$$NOW`, `$rand`) for pipeline-style updates.
    pub eval: &'a EvalContext,
}

impl UpdateSpec {
    /// Whether the update uses the positional `$` (and so needs the query's matched position).
    pub fn is_positional(&self) -> bool {
        matches!(self, UpdateSpec::Operators(op) if op.positional)
    }

    /// Applies the update to an existing document. `Ok(None)` means nothing changed.
    pub fn apply(&self, doc: &Document, env: &UpdateEnv) -> Result<Option<Document>> {
        match self {
            UpdateSpec::Replacement(r) => replacement::replace(doc, r),
            UpdateSpec::Operators(op) => op.apply(doc, env, false),
            UpdateSpec::Pipeline(p) => p.apply(doc, env.eval),
        }
    }

    /// The document an upsert inserts when nothing matched `query` (without a generated `_id`: the
    /// insert path adds one).
    pub fn upsert_document(&self, query: &Document, env: &UpdateEnv) -> Result<Document> {
        let doc = match self {
            UpdateSpec::Replacement(r) => {
                let seed = seed_from_query(query, SeedScope::IdOnly)?;
                replacement::replacement_for_insert(&seed, r)?
            }
            UpdateSpec::Operators(op) => {
                let seed = seed_from_query(query, SeedScope::AllFields)?;
                op.apply(&seed, env, true)?.unwrap_or(seed)
            }
            UpdateSpec::Pipeline(p) => {
                let seed = seed_from_query(query, SeedScope::AllFields)?;
                p.upsert_document(&seed, env.eval)?
            }
        };
        if let Some(Bson::Document(id)) = doc.get("_id") {
            check_id_names(id)?;
        }
        Ok(doc)
    }
}

impl OperatorUpdate {
    fn apply(&self, doc: &Document, env: &UpdateEnv, is_insert: bool) -> Result<Option<Document>> {
        if self.positional && env.matched_position.is_none() {
            return Err(Error::bad_value(
                "The positional operator did not find the match needed from the query.",
            ));
        }
        let cx = apply::ApplyContext {
            original: doc,
            now_millis: env.now_millis,
            is_insert,
            matched_position: env.matched_position,
            array_filters: env.array_filters,
            modified_regardless: std::cell::Cell::new(false),
            probing: std::cell::Cell::new(false),
        };
        let mut out = doc.clone();
        if !apply::apply_root(&self.root, &mut out, &cx)? {
            return Ok(None);
        }
        if let Some(old_id) = doc.get("_id") {
            // Compared as values: `_id: 1` may become `1.0`, as in MongoDB.
            let kept = out
                .get("_id")
                .is_some_and(|new_id| crate::value::compare_values_simple(old_id, new_id).is_eq());
            if !kept {
                let path = self
                    .paths
                    .iter()
                    .find(|p| *p == "_id" || p.starts_with("_id."))
                    .map(String::as_str)
                    .unwrap_or("_id");
                return Err(Error::new(
                    ErrorCode::ImmutableField,
                    format!(
                        "Performing an update on the path '{path}' would modify the immutable field '_id'"
                    ),
                ));
            }
        }
        if identical_documents(&out, doc) && !cx.modified_regardless.get() {
            return Ok(None);
        }
        Ok(Some(out))
    }
}

/// An `_id` document may not hold `$`-prefixed field names, at any depth.
fn check_id_names(id: &Document) -> Result<()> {
    for (k, v) in id {
        if k.starts_with('$') {
            return Err(Error::new(
                ErrorCode::DollarPrefixedFieldName,
                format!(
                    "_id fields may not contain '$'-prefixed fields: {k} is not valid for storage."
                ),
            ));
        }
        if let Bson::Document(inner) = v {
            check_id_names(inner)?;
        }
    }
    Ok(())
}
