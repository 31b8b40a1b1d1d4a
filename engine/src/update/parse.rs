//! Turns an update document into an [`UpdateSpec`]: either a replacement document or a tree of
//! operators, rejecting what MongoDB rejects before any document is read.

use std::collections::BTreeSet;

use bson::{Bson, Document};

use super::node::{ArraySelector, Component, LeafOp, ObjectNode, classify};
use super::pipeline::PipelineUpdate;
use super::positional::ArrayFilters;
use super::{add_to_set, bit, current_date, inc_mul, pop, pull, push, rename};
use crate::error::{Error, ErrorCode, Result};
use crate::expression::Scope;
use crate::path::FieldPath;
use crate::value::display::{key_value, type_name};

/// A parsed update.
#[derive(Debug, Clone)]
pub enum UpdateSpec {
    /// `{a: 1, b: 2}`: the document's new contents (its `_id` is kept).
    Replacement(Document),
    /// `{$set: {...}, $inc: {...}}`.
    Operators(OperatorUpdate),
    /// `[{$set: {...}}, {$unset: ...}]`: an aggregation pipeline whose result replaces the document.
    Pipeline(PipelineUpdate),
}

/// An operator update: the tree to apply, and the paths it names in the order written.
#[derive(Debug, Clone)]
pub struct OperatorUpdate {
    pub(super) root: ObjectNode,
    pub(super) paths: Vec<String>,
    pub(super) positional: bool,
}

const MODIFIERS: [&str; 15] = [
    "$set",
    "$unset",
    "$inc",
    "$mul",
    "$min",
    "$max",
    "$rename",
    "$currentDate",
    "$push",
    "$addToSet",
    "$pop",
    "$pull",
    "$pullAll",
    "$bit",
    "$setOnInsert",
];

impl UpdateSpec {
    /// Parses the `u` of an update statement (or findAndModify's `update`) of a command
    /// without `let` variables.
    pub fn parse(update: &Bson, array_filters: &ArrayFilters) -> Result<UpdateSpec> {
        UpdateSpec::parse_in(update, array_filters, &Scope::default())
    }

    /// [`UpdateSpec::parse`] with the command's `let` constants (`$$name` in a pipeline).
    pub fn parse_in(
        update: &Bson,
        array_filters: &ArrayFilters,
        scope: &Scope,
    ) -> Result<UpdateSpec> {
        match update {
            Bson::Document(d) => {
                let operator_style = d.keys().next().is_some_and(|k| k.starts_with('$'));
                if operator_style {
                    parse_operators(d, array_filters).map(UpdateSpec::Operators)
                } else {
                    // arrayFilters are ignored by a replacement, as in MongoDB.
                    parse_replacement(d).map(UpdateSpec::Replacement)
                }
            }
            Bson::Array(_) if !array_filters.is_empty() => Err(Error::new(
                ErrorCode::FailedToParse,
                "arrayFilters may not be specified for pipeline-style updates",
            )),
            Bson::Array(stages) => PipelineUpdate::parse(stages, scope).map(UpdateSpec::Pipeline),
            _ => Err(Error::new(
                ErrorCode::FailedToParse,
                "Update argument must be either an object or an array",
            )),
        }
    }

    pub fn is_replacement(&self) -> bool {
        matches!(self, UpdateSpec::Replacement(_))
    }
}

fn parse_replacement(d: &Document) -> Result<Document> {
    if let Some(k) = d.keys().find(|k| k.starts_with('$')) {
        return Err(Error::new(
            ErrorCode::DollarPrefixedFieldName,
            format!(
                "The dollar ($) prefixed field '{k}' in '{k}' is not allowed in the context of an update's replacement document. Consider using an aggregation pipeline with $replaceWith."
            ),
        ));
    }
    Ok(d.clone())
}

fn parse_operators(d: &Document, array_filters: &ArrayFilters) -> Result<OperatorUpdate> {
    let mut update = OperatorUpdate {
        root: ObjectNode::default(),
        paths: Vec::new(),
        positional: false,
    };
    let mut used = BTreeSet::new();
    for (modifier, fields) in d {
        if !MODIFIERS.contains(&modifier.as_str()) {
            return Err(Error::new(
                ErrorCode::FailedToParse,
                format!(
                    "Unknown modifier: {modifier}. Expected a valid update modifier or pipeline-style update specified as an array"
                ),
            ));
        }
        let Bson::Document(fields) = fields else {
            return Err(Error::new(
                ErrorCode::FailedToParse,
                format!(
                    "Modifiers operate on fields but we found type {} instead. For example: {{$mod: {{<field>: ...}}}} not {{{modifier}: {}}}",
                    type_name(fields),
                    key_value(fields)
                ),
            ));
        };
        for (path, operand) in fields {
            let checked = check_path(path, array_filters, &mut used)?;
            update.positional |= checked.positional;
            if modifier == "$rename" {
                let to = rename::check_pair(path, operand)?;
                let to_checked = check_path(&to, array_filters, &mut used)?;
                update.root.insert(&checked.path, LeafOp::RenameFrom)?;
                update.root.insert(
                    &to_checked.path,
                    LeafOp::RenameTo {
                        from: checked.path.clone(),
                    },
                )?;
                update.paths.push(path.clone());
                update.paths.push(to);
                continue;
            }
            let op = parse_leaf(modifier, path, operand)?;
            update.root.insert(&checked.path, op)?;
            update.paths.push(path.clone());
        }
    }
    if let Some(unused) = array_filters.identifiers().find(|id| !used.contains(*id)) {
        return Err(Error::new(
            ErrorCode::FailedToParse,
            format!(
                "The array filter for identifier '{unused}' was not used in the update {}",
                key_value(&Bson::Document(d.clone()))
            ),
        ));
    }
    Ok(update)
}

fn parse_leaf(modifier: &str, path: &str, operand: &Bson) -> Result<LeafOp> {
    let field = path.rsplit('.').next().unwrap_or(path);
    Ok(match modifier {
        "$set" => LeafOp::Set(operand.clone()),
        "$setOnInsert" => LeafOp::SetOnInsert(operand.clone()),
        "$unset" => LeafOp::Unset,
        "$inc" => {
            inc_mul::check_operand(inc_mul::Arith::Inc, path, operand)?;
            LeafOp::Inc(operand.clone())
        }
        "$mul" => {
            inc_mul::check_operand(inc_mul::Arith::Mul, path, operand)?;
            LeafOp::Mul(operand.clone())
        }
        "$min" => LeafOp::Min(operand.clone()),
        "$max" => LeafOp::Max(operand.clone()),
        "$currentDate" => LeafOp::CurrentDate(current_date::parse(operand)?),
        "$push" => LeafOp::Push(push::parse(operand)?),
        "$addToSet" => LeafOp::AddToSet(add_to_set::parse(operand)?),
        "$pop" => LeafOp::Pop {
            first: pop::parse(field, operand)?,
        },
        "$pull" => LeafOp::Pull(pull::parse_pull(operand)?),
        "$pullAll" => LeafOp::PullAll(pull::parse_pull_all(operand)?),
        "$bit" => LeafOp::Bit(bit::parse(operand)?),
        other => {
            return Err(Error::new(
                ErrorCode::FailedToParse,
                format!("Unknown modifier: {other}"),
            ));
        }
    })
}

/// MongoDB's nesting limit for stored documents.
const MAX_DEPTH: usize = 180;

struct CheckedPath {
    path: FieldPath,
    positional: bool,
}

/// MongoDB's checks of an updated path: no empty components, at most one `$`, no positional
/// component first, every `$[<id>]` backed by an array filter.
fn check_path(
    path: &str,
    array_filters: &ArrayFilters,
    used: &mut BTreeSet<String>,
) -> Result<CheckedPath> {
    if path.is_empty() {
        return Err(Error::new(
            ErrorCode::EmptyFieldName,
            "An empty update path is not valid.",
        ));
    }
    let parsed = FieldPath::parse(path);
    let parts = parsed.parts();
    if parts.len() > MAX_DEPTH {
        // Also keeps the recursive apply shallow (a wasm stack is small).
        return Err(Error::new(
            ErrorCode::Overflow,
            format!("Document exceeds maximum nesting depth of {MAX_DEPTH}"),
        ));
    }
    if parts.iter().any(String::is_empty) {
        return Err(Error::new(
            ErrorCode::EmptyFieldName,
            format!("The update path '{path}' contains an empty field name, which is not allowed."),
        ));
    }
    let mut positional = 0;
    for (i, part) in parts.iter().enumerate() {
        match classify(part) {
            Component::Positional => {
                positional += 1;
                if i == 0 {
                    return Err(Error::bad_value(format!(
                        "Cannot have positional (i.e. '$') element in the first position in path '{path}'"
                    )));
                }
            }
            Component::Array(selector) => {
                if i == 0 {
                    return Err(Error::bad_value(format!(
                        "Cannot have array filter identifier (i.e. '$[<id>]') element in the first position in path '{path}'"
                    )));
                }
                if let ArraySelector::Identifier(id) = selector {
                    if !array_filters.contains(&id) {
                        return Err(Error::bad_value(format!(
                            "No array filter found for identifier '{id}' in path '{path}'"
                        )));
                    }
                    used.insert(id);
                }
            }
            Component::Field(_) => {}
        }
    }
    if positional > 1 {
        return Err(Error::bad_value(format!(
            "Too many positional (i.e. '$') elements found in path '{path}'"
        )));
    }
    Ok(CheckedPath {
        path: parsed,
        positional: positional > 0,
    })
}
