//! The parsed form of an update-operator document: a tree of field names with one operator
//! ("leaf") at the end of every updated path, as MongoDB's `UpdateObjectNode` builds it. Building
//! the tree is where two operators on overlapping paths are rejected (code 40).

use bson::Bson;

use super::bit::BitOp;
use super::current_date::DateKind;
use super::pull::PullCondition;
use super::push::PushSpec;
use crate::error::{Error, ErrorCode, Result};
use crate::path::FieldPath;

/// One operator applied at one path.
#[derive(Debug, Clone)]
pub enum LeafOp {
    Set(Bson),
    SetOnInsert(Bson),
    Unset,
    Inc(Bson),
    Mul(Bson),
    Min(Bson),
    Max(Bson),
    CurrentDate(DateKind),
    Push(PushSpec),
    AddToSet(Vec<Bson>),
    /// `true` removes the first element (`$pop: -1`), `false` the last.
    Pop {
        first: bool,
    },
    Pull(PullCondition),
    PullAll(Vec<Bson>),
    Bit(Vec<BitOp>),
    /// The source of a `$rename`: removed when present.
    RenameFrom,
    /// The target of a `$rename`: receives the source's value (read from the original document).
    RenameTo {
        from: FieldPath,
    },
}

/// Which array elements a `$[]` / `$[<identifier>]` path component selects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArraySelector {
    All,
    Identifier(String),
}

#[derive(Debug, Clone)]
pub enum Node {
    Leaf(LeafOp),
    Object(ObjectNode),
}

/// The children of one path prefix, keyed by path component (`"b"`, `"0"`, `"$"`, `"$[]"`,
/// `"$[x]"`) and applied in key order, as MongoDB (5.0+) applies them: that is why the new fields
/// one update creates appear sorted by name, and why positional children (`$` sorts first) go
/// first.
#[derive(Debug, Clone, Default)]
pub struct ObjectNode {
    pub children: Children,
}

/// An update's children by key, kept sorted in a vector: a node has a handful of children, and
/// a `BTreeMap` of them compiled its own B-tree code (insert, remove and its rebalancing, clone,
/// drop) into the shipped wasm; this and the array filters' vector saved 3,652 bytes gzip
/// (`docs/performance.md`, "Shipped wasm size, continued (… session 20 …)").
#[derive(Debug, Clone, Default)]
pub struct Children(Vec<(ChildKey, Node)>);

impl Children {
    fn position(&self, key: &ChildKey) -> std::result::Result<usize, usize> {
        self.0.binary_search_by(|(k, _)| k.cmp(key))
    }

    pub fn get(&self, key: &ChildKey) -> Option<&Node> {
        self.position(key).ok().map(|i| &self.0[i].1)
    }

    pub fn contains_key(&self, key: &ChildKey) -> bool {
        self.position(key).is_ok()
    }

    /// Puts `node` under `key`, in key order, replacing (and returning) what was there.
    pub fn insert(&mut self, key: ChildKey, node: Node) -> Option<Node> {
        match self.position(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.0[i].1, node)),
            Err(i) => {
                self.0.insert(i, (key, node));
                None
            }
        }
    }

    pub fn remove(&mut self, key: &ChildKey) -> Option<Node> {
        self.position(key).ok().map(|i| self.0.remove(i).1)
    }

    /// The child under `key`, made by `make` when there is none.
    pub fn get_or_insert_with(&mut self, key: ChildKey, make: impl FnOnce() -> Node) -> &mut Node {
        let i = match self.position(&key) {
            Ok(i) => i,
            Err(i) => {
                self.0.insert(i, (key, make()));
                i
            }
        };
        &mut self.0[i].1
    }

    pub fn keys(&self) -> impl Iterator<Item = &ChildKey> {
        self.0.iter().map(|(k, _)| k)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&ChildKey, &Node)> {
        self.0.iter().map(pair)
    }
}

impl IntoIterator for Children {
    type Item = (ChildKey, Node);
    type IntoIter = std::vec::IntoIter<(ChildKey, Node)>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a Children {
    type Item = (&'a ChildKey, &'a Node);
    type IntoIter = std::iter::Map<
        std::slice::Iter<'a, (ChildKey, Node)>,
        fn(&'a (ChildKey, Node)) -> (&'a ChildKey, &'a Node),
    >;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(pair)
    }
}

fn pair((key, node): &(ChildKey, Node)) -> (&ChildKey, &Node) {
    (key, node)
}

/// A path component ordered as MongoDB orders the fields an update processes: names that are
/// both numbers compare numerically (`a.2` before `a.10`), all others lexicographically.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChildKey(pub String);

impl ChildKey {
    fn number(&self) -> Option<u128> {
        if self.0.is_empty() || !self.0.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        self.0.parse().ok()
    }
}

impl Ord for ChildKey {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        match (self.number(), other.number()) {
            (Some(a), Some(b)) => a.cmp(&b).then_with(|| self.0.cmp(&other.0)),
            _ => self.0.cmp(&other.0),
        }
    }
}

impl PartialOrd for ChildKey {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// A path component as the update language reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Component<'a> {
    Field(&'a str),
    Positional,
    Array(ArraySelector),
}

pub fn classify(part: &str) -> Component<'_> {
    if part == "$" {
        Component::Positional
    } else if part == "$[]" {
        Component::Array(ArraySelector::All)
    } else if let Some(id) = part.strip_prefix("$[").and_then(|p| p.strip_suffix(']')) {
        Component::Array(ArraySelector::Identifier(id.to_string()))
    } else {
        Component::Field(part)
    }
}

impl ObjectNode {
    /// Adds `op` at `path`, failing with ConflictingUpdateOperators when another operator already
    /// updates the path, one of its prefixes, or something below it.
    pub fn insert(&mut self, path: &FieldPath, op: LeafOp) -> Result<()> {
        let parts = path.parts();
        let full = path.dotted();
        let conflict = |upto: usize| {
            let at = parts.get(..=upto).map(|p| p.join(".")).unwrap_or_default();
            Error::new(
                ErrorCode::ConflictingUpdateOperators,
                format!("Updating the path '{full}' would create a conflict at '{at}'"),
            )
        };
        let Some((last, prefix)) = parts.split_last() else {
            return Err(Error::new(
                ErrorCode::EmptyFieldName,
                "An empty update path is not valid.",
            ));
        };
        // A node is either an array of `$[]`/`$[<id>]` children or a document of named ones
        // (MongoDB's UpdateArrayNode vs UpdateObjectNode): mixing them conflicts at the node.
        // The positional `$` is a child of an UpdateObjectNode (its `_positionalChild`), so it
        // does not mix with `$[]`/`$[<id>]` either (update_object_node.cpp, parseAndMerge;
        // jstests/core/update_arrayFilters.js: `{"a.$[i]": 0, "a.$": 0}` conflicts at 'a').
        let mixes = |node: &ObjectNode, part: &str| {
            let is_array = matches!(classify(part), Component::Array(_));
            node.children
                .keys()
                .any(|k| matches!(classify(&k.0), Component::Array(_)) != is_array)
        };
        let at_node = |depth: usize| {
            Error::new(
                ErrorCode::ConflictingUpdateOperators,
                format!(
                    "Updating the path '{full}' would create a conflict at '{}'",
                    parts.get(..depth).map(|p| p.join(".")).unwrap_or_default()
                ),
            )
        };
        let mut node = self;
        for (i, part) in prefix.iter().enumerate() {
            if mixes(node, part) {
                return Err(at_node(i));
            }
            let child = node
                .children
                .get_or_insert_with(ChildKey(part.clone()), || {
                    Node::Object(ObjectNode::default())
                });
            match child {
                Node::Object(next) => node = next,
                Node::Leaf(_) => return Err(conflict(i)),
            }
        }
        let key = ChildKey(last.clone());
        if node.children.contains_key(&key) {
            return Err(conflict(prefix.len()));
        }
        if mixes(node, last) {
            return Err(at_node(prefix.len()));
        }
        node.children.insert(key, Node::Leaf(op));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> FieldPath {
        FieldPath::parse(s)
    }

    #[test]
    fn overlapping_paths_conflict_where_mongodb_says() {
        let mut root = ObjectNode::default();
        root.insert(&p("a"), LeafOp::Unset).unwrap();
        let e = root.insert(&p("a.b"), LeafOp::Unset).unwrap_err();
        assert_eq!(e.code(), 40);
        assert_eq!(
            e.message,
            "Updating the path 'a.b' would create a conflict at 'a'"
        );

        let mut root = ObjectNode::default();
        root.insert(&p("a.b.c"), LeafOp::Unset).unwrap();
        let e = root.insert(&p("a.b"), LeafOp::Unset).unwrap_err();
        assert_eq!(
            e.message,
            "Updating the path 'a.b' would create a conflict at 'a.b'"
        );
        root.insert(&p("a.d"), LeafOp::Unset).unwrap();
        assert!(root.insert(&p("a.b.c"), LeafOp::Unset).is_err());
    }

    #[test]
    fn array_and_named_children_do_not_mix() {
        let cases = [
            (
                ["a.$[].$[]", "a.0"],
                "Updating the path 'a.0' would create a conflict at 'a'",
            ),
            (
                ["a.0", "a.$[].$[]"],
                "Updating the path 'a.$[].$[]' would create a conflict at 'a'",
            ),
            (
                ["a.0.1", "a.$[]"],
                "Updating the path 'a.$[]' would create a conflict at 'a'",
            ),
            (
                ["a.b.$[]", "a.b.0"],
                "Updating the path 'a.b.0' would create a conflict at 'a.b'",
            ),
            (
                ["a.$[].x", "a.0"],
                "Updating the path 'a.0' would create a conflict at 'a'",
            ),
        ];
        for ([first, second], message) in cases {
            let mut root = ObjectNode::default();
            root.insert(&p(first), LeafOp::Unset).unwrap();
            let e = root.insert(&p(second), LeafOp::Unset).unwrap_err();
            assert_eq!((e.code(), e.message.as_str()), (40, message));
        }
        // Different array selectors are fine; a positional beside them is not.
        let mut root = ObjectNode::default();
        root.insert(&p("a.$[].x"), LeafOp::Unset).unwrap();
        root.insert(&p("a.$[i].y"), LeafOp::Unset).unwrap();
        let e = root.insert(&p("a.$.z"), LeafOp::Unset).unwrap_err();
        assert_eq!(
            e.message,
            "Updating the path 'a.$.z' would create a conflict at 'a'"
        );
        let mut root = ObjectNode::default();
        root.insert(&p("a.$"), LeafOp::Unset).unwrap();
        assert!(root.insert(&p("a.$[i]"), LeafOp::Unset).is_err());
    }

    #[test]
    fn numeric_names_sort_numerically() {
        let mut keys: Vec<ChildKey> = ["10", "b", "2", "a", "$", "01"]
            .iter()
            .map(|s| ChildKey(s.to_string()))
            .collect();
        crate::sort_slice::sort(&mut keys);
        let names: Vec<&str> = keys.iter().map(|k| k.0.as_str()).collect();
        assert_eq!(names, ["$", "01", "2", "10", "a", "b"]);
    }

    #[test]
    fn components_are_classified() {
        assert_eq!(classify("$"), Component::Positional);
        assert_eq!(classify("$[]"), Component::Array(ArraySelector::All));
        assert_eq!(
            classify("$[elem]"),
            Component::Array(ArraySelector::Identifier("elem".into()))
        );
        assert_eq!(classify("a"), Component::Field("a"));
    }
}
