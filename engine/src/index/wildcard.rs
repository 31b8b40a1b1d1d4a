//! Wildcard indexes (`{"$**": 1}`, `{"a.$**": 1}`, `wildcardProjection`), as MongoDB 8.0 has
//! them in their single-field form. The spec: the key pattern's one field is `$**` or
//! `path.$**` with a positive number; `wildcardProjection` (only with `$**`) is an inclusion or
//! exclusion projection of paths; `_id` is left out unless the projection includes it; no
//! `unique`, `sparse`, TTL, or compounding (MongoDB 7.0's compound wildcard indexes are not
//! built here: refused with code 67).
//!
//! Keys (MongoDB's `WildcardKeyGenerator`): the document is projected, then walked; every leaf
//! gives the key `[path, value]` (stored under the two key parts `$_path` and the wildcard
//! field), where the path has no array positions. An array's elements are walked at the
//! array's own path (the path is multikey); an array inside an array is a leaf; an empty
//! array or object is a leaf (`[]`, `{}`); fields whose names hold a `.` are skipped. The
//! multikey paths are reported per document, for the planner and explain's `multiKeyPaths`.

use std::collections::BTreeSet;

use bson::{Bson, Document};

use super::spec::{KeyKind, KeyPart};
use crate::error::{Error, ErrorCode, Result};
use crate::path::FieldPath;
use crate::value::display::key_value;

/// The name of a wildcard index's first key part: the path of the key's value.
pub const PATH_FIELD: &str = "$_path";

/// A wildcard index's projection: which paths it indexes.
#[derive(Debug, Clone, PartialEq)]
pub struct WildcardSpec {
    /// Paths (as components) included, or excluded.
    paths: Vec<Vec<String>>,
    inclusion: bool,
}

/// Where a path stands under the projection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathStatus {
    /// The path and everything under it are indexed.
    Included,
    /// Only some paths under it are indexed.
    Prefix,
    Excluded,
}

/// Whether the key pattern names a wildcard field (`$**` or `path.$**`).
pub fn is_wildcard_key(key: &Document) -> bool {
    key.keys().any(|k| k == "$**" || k.ends_with(".$**"))
}

fn cannot_create(message: impl Into<String>) -> Error {
    Error::new(ErrorCode::CannotCreateIndex, message)
}

/// Validates a wildcard index's key pattern and options (MongoDB's
/// `index_key_validate::validateKeyPattern` and `validateIndexSpec`; the codes
/// jstests/core/wildcard_index_validindex.js expects), and gives its key parts.
pub fn parse(key: &Document, spec: &Document) -> Result<(WildcardSpec, Vec<KeyPart>)> {
    let shown = || key_value(&Bson::Document(key.clone()));
    if key.len() > 1 {
        // MongoDB 7.0 added compound wildcard indexes; Sprout builds the single-field form.
        return Err(cannot_create(format!(
            "wildcard indexes do not allow compounding (compound wildcard indexes are not supported by Sprout): {}",
            shown()
        )));
    }
    let Some((field, value)) = key.iter().next() else {
        return Err(cannot_create("Index keys cannot be empty."));
    };
    match value {
        Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_) | Bson::Decimal128(_) => {
            let positive = match value {
                Bson::Decimal128(d) => {
                    let s = d.to_string();
                    !s.starts_with('-') && s.trim_start_matches('-') != "0"
                }
                Bson::Double(d) => *d > 0.0,
                other => crate::value::as_i64_signed(other) > 0,
            };
            if !positive {
                return Err(cannot_create(format!(
                    "A numeric value in a $** index key pattern must be positive. Key pattern: {}",
                    shown()
                )));
            }
        }
        Bson::String(s) => {
            return Err(cannot_create(format!(
                "Index key pattern {} is not valid: a $** field takes a positive number, not the plugin '{s}'",
                shown()
            )));
        }
        other => {
            return Err(cannot_create(format!(
                "Values in v:2 index key pattern cannot be of type {}. Only numbers > 0, numbers < 0, and strings are allowed.",
                crate::value::display::type_name(other)
            )));
        }
    }
    let root: Option<Vec<String>> = if field == "$**" {
        None
    } else {
        let prefix = field.strip_suffix(".$**").unwrap_or(field);
        let parts: Vec<String> = prefix.split('.').map(str::to_string).collect();
        if parts.iter().any(|p| p.is_empty()) {
            return Err(cannot_create("Index keys cannot contain an empty field."));
        }
        if parts.iter().any(|p| p.starts_with('$')) {
            return Err(cannot_create(
                "Index key contains an illegal field name: field name starts with '$'.",
            ));
        }
        Some(parts)
    };
    for option in ["unique", "sparse", "expireAfterSeconds"] {
        let set = match spec.get(option) {
            None => false,
            Some(_) if option == "expireAfterSeconds" => true,
            Some(Bson::Boolean(b)) => *b,
            Some(v) => !crate::value::values_equal(v, &Bson::Int32(0)),
        };
        if set {
            return Err(cannot_create(format!(
                "Index type 'wildcard' does not support the '{option}' option"
            )));
        }
    }
    if let Some(v) = spec.get("v")
        && crate::value::as_i64(v) == Some(1)
    {
        return Err(cannot_create(
            "Index version 1 does not support the 'wildcard' index type",
        ));
    }
    let ws = match (spec.get("wildcardProjection"), &root) {
        (None, None) => WildcardSpec {
            paths: vec![vec!["_id".to_string()]],
            inclusion: false,
        },
        (None, Some(root)) => WildcardSpec {
            paths: vec![root.clone()],
            inclusion: true,
        },
        (Some(Bson::Document(p)), None) => parse_projection(p)?,
        (Some(Bson::Document(_)), Some(_)) => {
            return Err(Error::new(
                ErrorCode::FailedToParse,
                "The field 'wildcardProjection' is only allowed in an index whose key pattern is {\"$**\": 1}",
            ));
        }
        (Some(other), _) => {
            return Err(Error::type_mismatch(format!(
                "The field 'wildcardProjection' must be an object, but got {}",
                crate::value::display::type_name(other)
            )));
        }
    };
    let parts = vec![
        KeyPart {
            path: FieldPath::parse(PATH_FIELD),
            dotted: PATH_FIELD.to_string(),
            kind: KeyKind::Ascending,
        },
        KeyPart {
            path: FieldPath::parse(field),
            dotted: field.clone(),
            kind: KeyKind::Ascending,
        },
    ];
    Ok((ws, parts))
}

/// Reads `wildcardProjection`: all inclusions or all exclusions (`_id` may differ).
fn parse_projection(p: &Document) -> Result<WildcardSpec> {
    if p.is_empty() {
        return Err(Error::new(
            ErrorCode::FailedToParse,
            "The 'wildcardProjection' field can't be an empty object",
        ));
    }
    let mut included = Vec::new();
    let mut excluded = Vec::new();
    let mut id: Option<bool> = None;
    for (k, v) in p {
        let truthy = match v {
            Bson::Boolean(b) => *b,
            Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_) | Bson::Decimal128(_) => {
                !crate::value::values_equal(v, &Bson::Int32(0))
            }
            other => {
                return Err(Error::new(
                    ErrorCode::FailedToParse,
                    format!(
                        "The 'wildcardProjection' field takes inclusions and exclusions only: {k}: {}",
                        key_value(other)
                    ),
                ));
            }
        };
        let path: Vec<String> = k.split('.').map(str::to_string).collect();
        if path.iter().any(|c| c.is_empty() || c.starts_with('$')) {
            return Err(Error::new(
                ErrorCode::FailedToParse,
                format!("The 'wildcardProjection' field has an invalid path: {k}"),
            ));
        }
        if k == "_id" {
            id = Some(truthy);
        } else if truthy {
            if !excluded.is_empty() {
                return Err(Error::location(
                    40178,
                    format!("Cannot do inclusion on field {k} in exclusion projection"),
                ));
            }
            included.push(path);
        } else {
            if !included.is_empty() {
                return Err(Error::location(
                    40178,
                    format!("Cannot do exclusion on field {k} in inclusion projection"),
                ));
            }
            excluded.push(path);
        }
    }
    let id_path = vec!["_id".to_string()];
    Ok(
        if !included.is_empty() || (excluded.is_empty() && id == Some(true)) {
            if id == Some(true) {
                included.push(id_path);
            }
            WildcardSpec {
                paths: included,
                inclusion: true,
            }
        } else {
            if id != Some(true) {
                excluded.push(id_path);
            }
            WildcardSpec {
                paths: excluded,
                inclusion: false,
            }
        },
    )
}

impl WildcardSpec {
    /// Where a path (components, no array positions) stands under the projection.
    pub fn status(&self, path: &[String]) -> PathStatus {
        let covered = self.paths.iter().any(|p| path.starts_with(p));
        if self.inclusion {
            if covered {
                PathStatus::Included
            } else if self.paths.iter().any(|p| p.starts_with(path)) {
                PathStatus::Prefix
            } else {
                PathStatus::Excluded
            }
        } else if covered {
            PathStatus::Excluded
        } else if self.paths.iter().any(|p| p.starts_with(path)) {
            PathStatus::Prefix
        } else {
            PathStatus::Included
        }
    }

    /// The keys of one document: `[path, value]` pairs, without duplicates, and the paths
    /// where arrays were met.
    pub fn keys(&self, doc: &Document) -> (Vec<Vec<Bson>>, BTreeSet<String>) {
        let mut walk = Walk {
            spec: self,
            path: Vec::new(),
            keys: Vec::new(),
            seen: BTreeSet::new(),
            multikey: BTreeSet::new(),
        };
        walk.object(doc.iter(), PathStatus::Prefix);
        (walk.keys, walk.multikey)
    }
}

struct Walk<'s> {
    spec: &'s WildcardSpec,
    path: Vec<String>,
    keys: Vec<Vec<Bson>>,
    seen: BTreeSet<Vec<u8>>,
    multikey: BTreeSet<String>,
}

impl Walk<'_> {
    fn add(&mut self, value: &Bson) {
        let key = vec![Bson::String(self.path.join(".")), value.clone()];
        let mut bytes = Vec::new();
        for v in &key {
            super::encode::encode_value(v, &mut bytes);
        }
        if self.seen.insert(bytes) {
            self.keys.push(key);
        }
    }

    /// An object's fields, under `status` (the object's own path's status).
    fn object<'d>(
        &mut self,
        fields: impl Iterator<Item = (&'d String, &'d Bson)>,
        status: PathStatus,
    ) {
        for (name, value) in fields {
            if name.contains('.') {
                continue;
            }
            self.path.push(name.clone());
            let st = if status == PathStatus::Included {
                PathStatus::Included
            } else {
                self.spec.status(&self.path)
            };
            if st != PathStatus::Excluded {
                self.value(value, st, false);
            }
            self.path.pop();
        }
    }

    /// One value at the current path: a leaf, or an object or array walked further. Under a
    /// `Prefix` status only what the projection keeps below is indexed: an inclusion keeps an
    /// object (even emptied) and drops scalars; an exclusion keeps scalars.
    fn value(&mut self, value: &Bson, status: PathStatus, in_array: bool) {
        let scalar_kept = status == PathStatus::Included || !self.spec.inclusion;
        match value {
            Bson::Array(items) if in_array => {
                if status == PathStatus::Included {
                    self.add(value);
                } else {
                    // A projection keeps, inside a nested array, what it keeps of each element;
                    // MongoDB indexes the projected nested array as one leaf.
                    let kept = self.projected_array(items);
                    self.add(&Bson::Array(kept));
                }
            }
            Bson::Array(items) => {
                if items.is_empty() {
                    // Kept by any projection that reaches this path.
                    self.add(value);
                    return;
                }
                self.multikey.insert(self.path.join("."));
                for item in items {
                    self.value(item, status, true);
                }
            }
            Bson::Document(d) => {
                if d.is_empty() || (status == PathStatus::Prefix && self.projects_empty(d)) {
                    self.add(&Bson::Document(Document::new()));
                    return;
                }
                self.object(d.iter(), status);
            }
            _ if scalar_kept => self.add(value),
            _ => {}
        }
    }

    /// Whether the projection leaves nothing of `d` (at the current path, a `Prefix`).
    fn projects_empty(&mut self, d: &Document) -> bool {
        !d.iter().any(|(name, _)| {
            self.path.push(name.clone());
            let st = self.spec.status(&self.path);
            self.path.pop();
            !name.contains('.') && st != PathStatus::Excluded
        })
    }

    /// A nested array as the projection leaves it (at the current path, a `Prefix`).
    fn projected_array(&mut self, items: &[Bson]) -> Vec<Bson> {
        items
            .iter()
            .filter_map(|item| match item {
                Bson::Document(d) => Some(Bson::Document(self.projected_doc(d))),
                Bson::Array(a) => Some(Bson::Array(self.projected_array(a))),
                other if !self.spec.inclusion => Some(other.clone()),
                _ => None,
            })
            .collect()
    }

    fn projected_doc(&mut self, d: &Document) -> Document {
        let mut out = Document::new();
        for (name, value) in d {
            self.path.push(name.clone());
            let st = self.spec.status(&self.path);
            let kept = match (st, value) {
                (PathStatus::Excluded, _) => None,
                (PathStatus::Included, v) => Some(v.clone()),
                (PathStatus::Prefix, Bson::Document(inner)) => {
                    Some(Bson::Document(self.projected_doc(inner)))
                }
                (PathStatus::Prefix, Bson::Array(a)) => Some(Bson::Array(self.projected_array(a))),
                (PathStatus::Prefix, v) if !self.spec.inclusion => Some(v.clone()),
                (PathStatus::Prefix, _) => None,
            };
            self.path.pop();
            if let Some(v) = kept {
                out.insert(name.clone(), v);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    fn spec(key: Document, options: Document) -> Result<WildcardSpec> {
        let mut full = options;
        full.insert("key", key.clone());
        parse(&key, &full).map(|(s, _)| s)
    }

    fn keys_of(s: &WildcardSpec, d: Document) -> Vec<(String, Bson)> {
        let (keys, _) = s.keys(&d);
        keys.into_iter()
            .map(|k| (k[0].as_str().unwrap().to_string(), k[1].clone()))
            .collect()
    }

    #[test]
    fn leaves_arrays_and_empty_containers() {
        let s = spec(doc! {"$**": 1}, doc! {}).unwrap();
        let d = doc! {"_id": 1, "a": 1, "c": [], "d": {"e": [5, 6]}, "f": [{"g": []}], "b": [[]], "x": {}, "y.z": 1};
        let (keys, multikey) = s.keys(&d);
        let got: Vec<(String, Bson)> = keys
            .into_iter()
            .map(|k| (k[0].as_str().unwrap().to_string(), k[1].clone()))
            .collect();
        assert_eq!(
            got,
            vec![
                ("a".to_string(), Bson::Int32(1)),
                ("c".to_string(), Bson::Array(vec![])),
                ("d.e".to_string(), Bson::Int32(5)),
                ("d.e".to_string(), Bson::Int32(6)),
                ("f.g".to_string(), Bson::Array(vec![])),
                ("b".to_string(), Bson::Array(vec![])),
                ("x".to_string(), Bson::Document(doc! {})),
            ]
        );
        let multikey: Vec<&str> = multikey.iter().map(String::as_str).collect();
        assert_eq!(multikey, vec!["b", "d.e", "f"]);
    }

    #[test]
    fn duplicate_elements_give_one_key() {
        let s = spec(doc! {"$**": 1}, doc! {}).unwrap();
        assert_eq!(keys_of(&s, doc! {"a": [1, 1, {"b": 2}, {"b": 2}]}).len(), 2);
    }

    #[test]
    fn subtree_and_projection() {
        let s = spec(doc! {"c.$**": 1}, doc! {}).unwrap();
        assert_eq!(
            keys_of(&s, doc! {"a": 1, "c": {"d": 2, "e": 1}}),
            vec![
                ("c.d".to_string(), Bson::Int32(2)),
                ("c.e".to_string(), Bson::Int32(1))
            ]
        );
        assert_eq!(
            keys_of(&s, doc! {"c": 5}),
            vec![("c".to_string(), Bson::Int32(5))]
        );
        let s = spec(
            doc! {"$**": 1},
            doc! {"wildcardProjection": {"a.b": 1, "_id": 1}},
        )
        .unwrap();
        assert_eq!(
            keys_of(&s, doc! {"_id": 7, "a": {"b": 1, "c": 2}, "z": 1}),
            vec![
                ("_id".to_string(), Bson::Int32(7)),
                ("a.b".to_string(), Bson::Int32(1))
            ]
        );
        assert_eq!(
            keys_of(&s, doc! {"a": {"c": 2}}),
            vec![("a".to_string(), Bson::Document(doc! {}))]
        );
        let s = spec(doc! {"$**": 1}, doc! {"wildcardProjection": {"a": 0}}).unwrap();
        assert_eq!(
            keys_of(&s, doc! {"_id": 7, "a": {"b": 1}, "z": 1}),
            vec![("z".to_string(), Bson::Int32(1))]
        );
        assert_eq!(s.status(&["a".into(), "b".into()]), PathStatus::Excluded);
        assert_eq!(s.status(&["b".into()]), PathStatus::Included);
    }

    #[test]
    fn spec_errors_have_mongodb_codes() {
        let code = |key: Document, options: Document| spec(key, options).unwrap_err().code();
        assert_eq!(code(doc! {"$**": -1}, doc! {}), 67);
        assert_eq!(code(doc! {"$**": 0}, doc! {}), 67);
        assert_eq!(code(doc! {"$**": 1, "a": 1}, doc! {}), 67);
        assert_eq!(code(doc! {"$**": "hashed"}, doc! {}), 67);
        assert_eq!(code(doc! {"$**": 1}, doc! {"unique": true}), 67);
        assert_eq!(code(doc! {"$**": 1}, doc! {"sparse": true}), 67);
        assert_eq!(code(doc! {"$**": 1}, doc! {"expireAfterSeconds": 10}), 67);
        assert_eq!(code(doc! {"$**": 1}, doc! {"v": 1}), 67);
        let p = |p: Bson| doc! {"wildcardProjection": p};
        assert_eq!(
            code(doc! {"$**": 1}, p(bson::bson!({"a": 1, "b": 0}))),
            40178
        );
        assert_eq!(code(doc! {"$**": 1}, p(bson::bson!({"a": "x"}))), 9);
        assert_eq!(code(doc! {"$**": 1}, p(bson::bson!({}))), 9);
        assert_eq!(code(doc! {"a.$**": 1}, p(bson::bson!({"a": 1}))), 9);
        assert_eq!(code(doc! {"a.$**": 1}, p(Bson::String("s".into()))), 14);
    }
}
