//! Applies an operator tree to a document: walks existing fields, creates missing documents on
//! the way to a leaf that writes, pads arrays with nulls when a position lies past the end, and
//! fails where MongoDB fails (a field cannot be created inside a scalar or an array).

use std::borrow::Cow;

use bson::{Bson, Document};

use super::identical::identical;
use super::node::{ArraySelector, ChildKey, Component, LeafOp, Node, ObjectNode, classify};
use super::positional::ArrayFilters;
use super::{
    add_to_set, bit, current_date, inc_mul, min_max, pop, pull, push, rename, set, set_on_insert,
    unset,
};
use crate::error::{Error, ErrorCode, Result};
use crate::path::{FieldPath, array_index, lookup};
use crate::value::display::key_value;

/// MongoDB refuses to pad an array with more nulls than this.
const MAX_PADDING: usize = 1_500_000;

/// What one operator (or one subtree) does to the value it reached.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Unchanged,
    /// The value becomes this (created when it was missing).
    Set(Bson),
    /// The field goes away (an array element becomes null).
    Remove,
}

/// What an operator may read besides the value it updates.
#[derive(Debug, Clone)]
pub struct LeafContext<'a> {
    /// The whole document as it was before the update.
    pub original: &'a Document,
    pub now_millis: i64,
    /// Whether the update is building an upserted document (`$setOnInsert` acts only then).
    pub is_insert: bool,
    /// The last component of the path (a field name or an array position).
    pub field: &'a str,
    /// The full path reached, with positional components resolved.
    pub path: &'a str,
}

impl LeafContext<'_> {
    /// The document's `_id` as MongoDB's messages show it (`_id: 1`).
    pub fn id_text(&self) -> String {
        match self.original.get("_id") {
            Some(id) => format!("_id: {}", key_value(id)),
            None => "no id".to_string(),
        }
    }
}

#[cfg(test)]
impl<'a> LeafContext<'a> {
    pub fn for_tests(original: &'a Document, field: &'a str) -> Self {
        LeafContext {
            original,
            now_millis: 0,
            is_insert: false,
            field,
            path: field,
        }
    }
}

/// Everything the tree walk needs.
#[derive(Debug, Clone)]
pub struct ApplyContext<'a> {
    pub original: &'a Document,
    pub now_millis: i64,
    pub is_insert: bool,
    /// The array position the query matched, for `$`.
    pub matched_position: Option<usize>,
    pub array_filters: &'a ArrayFilters,
    /// Set when an operator counts as a modification even if the document ends up identical
    /// (`$push` with `$sort`, as MongoDB's PushNode reports it).
    pub modified_regardless: std::cell::Cell<bool>,
    /// Set while an update is tried against nothing only to learn which field it would create
    /// under a scalar or an array (for the PathNotViable message): the walk fails there first,
    /// so the created names' storage check does not run (MongoDB's UpdateNode walk stops at
    /// the non-viable path before the document is validated for storage;
    /// jstests/core/update_arrayFilters.js).
    pub probing: std::cell::Cell<bool>,
}

/// Runs `f` with `cx` probing (see [`ApplyContext::probing`]).
fn probe<T>(cx: &ApplyContext, f: impl FnOnce() -> T) -> T {
    let was = cx.probing.replace(true);
    let out = f();
    cx.probing.set(was);
    out
}

/// Applies the root of an operator tree to a copy of `doc`; `true` when anything changed.
pub fn apply_root(root: &ObjectNode, doc: &mut Document, cx: &ApplyContext) -> Result<bool> {
    apply_into_document(root, doc, "", cx)
}

fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{path}.{name}")
    }
}

fn positional_index(cx: &ApplyContext) -> Result<usize> {
    cx.matched_position.ok_or_else(|| {
        Error::bad_value("The positional operator did not find the match needed from the query.")
    })
}

fn has_array_children(obj: &ObjectNode) -> bool {
    obj.children
        .keys()
        .any(|k| matches!(classify(&k.0), Component::Array(_)))
}

fn apply_node(
    node: &Node,
    current: Option<&Bson>,
    field: &str,
    path: &str,
    cx: &ApplyContext,
) -> Result<Outcome> {
    match node {
        Node::Leaf(op) => apply_leaf(op, current, field, path, cx),
        Node::Object(obj) => apply_object(obj, current, field, path, cx),
    }
}

fn apply_object(
    obj: &ObjectNode,
    current: Option<&Bson>,
    field: &str,
    path: &str,
    cx: &ApplyContext,
) -> Result<Outcome> {
    match current {
        Some(Bson::Array(items)) => {
            let mut out = items.clone();
            if apply_into_array(obj, &mut out, items, field, path, cx)? {
                Ok(Outcome::Set(Bson::Array(out)))
            } else {
                Ok(Outcome::Unchanged)
            }
        }
        Some(other) if has_array_children(obj) => Err(Error::bad_value(format!(
            "Cannot apply array updates to non-array element {field}: {}",
            key_value(other)
        ))),
        Some(Bson::Document(d)) => {
            let mut out = d.clone();
            if apply_into_document(obj, &mut out, path, cx)? {
                Ok(Outcome::Set(Bson::Document(out)))
            } else {
                Ok(Outcome::Unchanged)
            }
        }
        Some(scalar) => {
            let mut fresh = Document::new();
            probe(cx, || apply_into_document(obj, &mut fresh, path, cx))?;
            match fresh.keys().next() {
                Some(name) => Err(cannot_create(name, field, scalar)),
                None => match pop_below(obj, path) {
                    Some((part, full)) => Err(not_viable(&part, &full, field, scalar)),
                    None => Ok(Outcome::Unchanged),
                },
            }
        }
        None if has_array_children(obj) => Err(Error::bad_value(format!(
            "The path '{path}' must exist in the document in order to apply array updates."
        ))),
        None => {
            let mut fresh = Document::new();
            apply_into_document(obj, &mut fresh, path, cx)?;
            if fresh.is_empty() {
                Ok(Outcome::Unchanged)
            } else {
                Ok(Outcome::Set(Bson::Document(fresh)))
            }
        }
    }
}

fn cannot_create(name: &str, field: &str, parent: &Bson) -> Error {
    Error::new(
        ErrorCode::PathNotViable,
        format!(
            "Cannot create field '{name}' in element {{{field}: {}}}",
            key_value(parent)
        ),
    )
}

/// The first `$pop` under `obj` (which sits at `path`): the path component right below `path`
/// and the `$pop`'s whole path. `$pop` is the one operator that neither creates its path nor
/// tolerates a path that cannot exist (MongoDB's PopNode keeps ModifierNode's defaults,
/// allowCreation and allowNonViablePath both false, where $unset and $pull allow the latter):
/// a scalar or an array in the way is an error, not a no-op
/// (jstests/core/update_modifier_pop.js).
fn pop_below(obj: &ObjectNode, path: &str) -> Option<(String, String)> {
    obj.children.iter().find_map(|(key, child)| {
        let full = join(path, &key.0);
        match child {
            Node::Leaf(LeafOp::Pop { .. }) => Some((key.0.clone(), full)),
            Node::Leaf(_) => None,
            Node::Object(o) => pop_below(o, &full).map(|(_, f)| (key.0.clone(), f)),
        }
    })
}

/// MongoDB's UpdateLeafNode::checkViability message: `part` of `full` cannot go through
/// the element `field: blocker`.
fn not_viable(part: &str, full: &str, field: &str, blocker: &Bson) -> Error {
    Error::new(
        ErrorCode::PathNotViable,
        format!(
            "Cannot use the part ({part}) of ({full}) to traverse the element ({{{field}: {}}})",
            key_value(blocker)
        ),
    )
}

/// Replaces a `$` child by the position the query matched, merged with a child already named
/// by that position (`a.$.b` with `a.0.c`), as MongoDB merges them; two operators on the same
/// resulting path conflict.
fn resolve_positional<'n>(
    obj: &'n ObjectNode,
    path: &str,
    cx: &ApplyContext,
) -> Result<Cow<'n, ObjectNode>> {
    let Some(positional) = obj.children.get(&ChildKey("$".to_string())) else {
        return Ok(Cow::Borrowed(obj));
    };
    let index = positional_index(cx)?.to_string();
    let mut resolved = obj.clone();
    resolved.children.remove(&ChildKey("$".to_string()));
    let key = ChildKey(index.clone());
    let merged = match resolved.children.remove(&key) {
        Some(existing) => merge(existing, positional.clone(), &join(path, &index))?,
        None => positional.clone(),
    };
    resolved.children.insert(key, merged);
    Ok(Cow::Owned(resolved))
}

fn merge(a: Node, b: Node, path: &str) -> Result<Node> {
    match (a, b) {
        (Node::Object(mut x), Node::Object(y)) => {
            for (key, child) in y.children {
                let merged = match x.children.remove(&key) {
                    Some(existing) => merge(existing, child, &join(path, &key.0))?,
                    None => child,
                };
                x.children.insert(key, merged);
            }
            Ok(Node::Object(x))
        }
        _ => Err(Error::new(
            ErrorCode::ConflictingUpdateOperators,
            format!("Update created a conflict at '{path}'"),
        )),
    }
}

fn apply_into_document(
    obj: &ObjectNode,
    doc: &mut Document,
    path: &str,
    cx: &ApplyContext,
) -> Result<bool> {
    let obj = resolve_positional(obj, path, cx)?;
    let mut changed = false;
    for (key, child) in &obj.children {
        let name = match classify(&key.0) {
            Component::Field(f) => f.to_string(),
            Component::Positional => positional_index(cx)?.to_string(),
            // Callers reject array children on documents before getting here.
            Component::Array(_) => continue,
        };
        let child_path = join(path, &name);
        let outcome = apply_node(child, doc.get(&name), &name, &child_path, cx)?;
        changed |= match outcome {
            Outcome::Unchanged => false,
            Outcome::Set(v) => {
                doc.insert(name, v);
                true
            }
            Outcome::Remove => doc.remove(&name).is_some(),
        };
    }
    Ok(changed)
}

fn apply_into_array(
    obj: &ObjectNode,
    items: &mut Vec<Bson>,
    before: &[Bson],
    field: &str,
    path: &str,
    cx: &ApplyContext,
) -> Result<bool> {
    let obj = resolve_positional(obj, path, cx)?;
    let mut changed = false;
    for (key, child) in &obj.children {
        match classify(&key.0) {
            Component::Positional => {
                changed |= apply_at(items, positional_index(cx)?, child, path, cx)?;
            }
            Component::Field(name) => match array_index(name) {
                Some(i) => changed |= apply_at(items, i, child, path, cx)?,
                None => {
                    let outcome =
                        probe(cx, || apply_node(child, None, name, &join(path, name), cx))?;
                    if outcome != Outcome::Unchanged {
                        return Err(cannot_create(name, field, &Bson::Array(before.to_vec())));
                    }
                    let below = match child {
                        Node::Leaf(LeafOp::Pop { .. }) => {
                            Some((name.to_string(), join(path, name)))
                        }
                        Node::Leaf(_) => None,
                        Node::Object(o) => pop_below(o, &join(path, name))
                            .map(|(_, full)| (name.to_string(), full)),
                    };
                    if let Some((part, full)) = below {
                        return Err(not_viable(
                            &part,
                            &full,
                            field,
                            &Bson::Array(before.to_vec()),
                        ));
                    }
                }
            },
            // Applied below, element by element.
            Component::Array(_) => {}
        }
    }
    // MongoDB's UpdateArrayNode::apply: each element gets the children (`$[]`, `$[<id>]`) that
    // select it, merged into one node when there are several (createUpdateNodeByMerging), so
    // two of them reaching the same field of one element conflict at run time ("Update
    // created a conflict at 'a.0.b.$[k].c'", jstests/core/update_arrayFilters.js).
    let selectors: Vec<(ArraySelector, &Node)> = obj
        .children
        .iter()
        .filter_map(|(key, child)| match classify(&key.0) {
            Component::Array(selector) => Some((selector, child)),
            _ => None,
        })
        .collect();
    if selectors.is_empty() {
        return Ok(changed);
    }
    for (i, element) in before.iter().enumerate() {
        let mut chosen = selectors.iter().filter(|(selector, _)| match selector {
            ArraySelector::All => true,
            ArraySelector::Identifier(id) => cx.array_filters.selects(id, element),
        });
        let Some((_, first)) = chosen.next() else {
            continue;
        };
        let element_path = join(path, &i.to_string());
        let mut merged: Option<Node> = None;
        for (_, other) in chosen {
            let base = merged.take().unwrap_or_else(|| (*first).clone());
            merged = Some(merge(base, (*other).clone(), &element_path)?);
        }
        changed |= apply_at(items, i, merged.as_ref().unwrap_or(first), path, cx)?;
    }
    Ok(changed)
}

fn apply_at(
    items: &mut Vec<Bson>,
    index: usize,
    child: &Node,
    path: &str,
    cx: &ApplyContext,
) -> Result<bool> {
    let name = index.to_string();
    let child_path = join(path, &name);
    match apply_node(child, items.get(index), &name, &child_path, cx)? {
        Outcome::Unchanged => Ok(false),
        Outcome::Set(v) => {
            if let Some(slot) = items.get_mut(index) {
                *slot = v;
            } else {
                if index - items.len() > MAX_PADDING {
                    return Err(Error::bad_value(format!(
                        "can't backfill array to larger than {MAX_PADDING} elements"
                    )));
                }
                items.resize(index, Bson::Null);
                items.push(v);
            }
            Ok(true)
        }
        Outcome::Remove => match items.get_mut(index) {
            Some(slot) if !identical(slot, &Bson::Null) => {
                *slot = Bson::Null;
                Ok(true)
            }
            _ => Ok(false),
        },
    }
}

/// An update may modify existing `$`-prefixed fields but not create them (an upsert's insert
/// may, as an insert may). Called when a leaf creates its field: any `$`-prefixed component of
/// the path that the document did not have is refused.
fn check_created_names(path: &str, cx: &ApplyContext) -> Result<()> {
    let full = FieldPath::parse(path);
    let parts = full.parts();
    for i in 0..parts.len() {
        let Some(name) = parts.get(i) else { break };
        if !name.starts_with('$') {
            continue;
        }
        let prefix = FieldPath::from_parts(parts.get(..=i).unwrap_or_default().to_vec());
        if lookup(cx.original, &prefix).is_none() {
            return Err(Error::new(
                ErrorCode::DollarPrefixedFieldName,
                format!(
                    "The dollar ($) prefixed field '{name}' in '{path}' is not valid for storage."
                ),
            ));
        }
    }
    Ok(())
}

fn apply_leaf(
    op: &LeafOp,
    current: Option<&Bson>,
    field: &str,
    path: &str,
    cx: &ApplyContext,
) -> Result<Outcome> {
    let lcx = LeafContext {
        original: cx.original,
        now_millis: cx.now_millis,
        is_insert: cx.is_insert,
        field,
        path,
    };
    let outcome = match op {
        LeafOp::Set(v) => Ok(set::apply_set(v, current)),
        LeafOp::SetOnInsert(v) => Ok(set_on_insert::apply_set_on_insert(v, current, &lcx)),
        LeafOp::Unset => Ok(unset::apply_unset(current)),
        LeafOp::Inc(v) => inc_mul::apply_arith(inc_mul::Arith::Inc, v, current, &lcx),
        LeafOp::Mul(v) => inc_mul::apply_arith(inc_mul::Arith::Mul, v, current, &lcx),
        LeafOp::Min(v) => Ok(min_max::apply_min_max(v, current, true)),
        LeafOp::Max(v) => Ok(min_max::apply_min_max(v, current, false)),
        LeafOp::CurrentDate(kind) => Ok(current_date::apply(*kind, current, &lcx)),
        LeafOp::Push(spec) => push::apply(spec, current, &lcx),
        LeafOp::AddToSet(values) => add_to_set::apply(values, current, &lcx),
        LeafOp::Pop { first } => pop::apply(*first, current, &lcx),
        LeafOp::Pull(cond) => pull::apply_pull(cond, current),
        LeafOp::PullAll(values) => pull::apply_pull_all(values, current),
        LeafOp::Bit(ops) => bit::apply(ops, current, &lcx),
        LeafOp::RenameFrom => Ok(rename::apply_from(current)),
        LeafOp::RenameTo { from } => rename::apply_to(from, &FieldPath::parse(path), current, &lcx),
    };
    let outcome = outcome?;
    let creates = matches!(outcome, Outcome::Set(_));
    if creates && matches!(op, LeafOp::Push(spec) if spec.sort.is_some()) {
        cx.modified_regardless.set(true);
    }
    if current.is_none() && creates && !cx.is_insert && !cx.probing.get() {
        check_created_names(path, cx)?;
    }
    Ok(outcome)
}
