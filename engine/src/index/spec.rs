//! Index specifications: the key pattern (ascending, descending, `hashed`; compound; dotted
//! paths) and the options MongoDB 8.0 keeps with it (unique, sparse, partialFilterExpression,
//! expireAfterSeconds, hidden), validated with the server's errors. A spec is stored as the
//! document `listIndexes` shows: `{v: 2, key, name, ...options}`.

use bson::{Bson, Document, doc};

use super::text::TextSpec;
use super::text::spec::{fix_spec, is_text_key};
use super::wildcard::WildcardSpec;
use crate::error::{Error, ErrorCode, Result};
use crate::matcher::Filter;
use crate::path::FieldPath;
use crate::value::display::key_value;

/// The name of the index every collection has.
pub const ID_INDEX_NAME: &str = "_id_";

/// How one key part orders its values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyKind {
    Ascending,
    Descending,
    Hashed,
    /// The `_fts` part of a text index: the term.
    Text,
    /// A `2d` part: legacy coordinate pairs on a plane (see [`super::geo_keys`]).
    Geo2d,
    /// A `2dsphere` part: GeoJSON and legacy pairs on the sphere.
    Geo2dSphere,
}

/// One field of a key pattern.
#[derive(Debug, Clone)]
pub struct KeyPart {
    pub path: FieldPath,
    pub dotted: String,
    pub kind: KeyKind,
}

/// A validated index specification.
#[derive(Debug, Clone)]
pub struct IndexSpec {
    pub name: String,
    pub key: Document,
    pub parts: Vec<KeyPart>,
    pub unique: bool,
    pub sparse: bool,
    pub hidden: bool,
    pub expire_after_seconds: Option<i64>,
    pub partial: Option<(Document, Filter)>,
    /// A text index's weights, languages, prefix and suffix.
    pub text: Option<Box<TextSpec>>,
    /// A wildcard index's projection (see [`super::wildcard`]): its key parts are then
    /// `$_path` and the wildcard field.
    pub wildcard: Option<Box<WildcardSpec>>,
    /// The index's collation as `listIndexes` shows it (all options resolved); `None` is the
    /// simple collation. Keys are always encoded binary, so the planner does not use an index
    /// with a collation (see `planner::index_access`) unless it is hinted, and then scans it
    /// whole (`planner::whole_index`); uniqueness compares under it (`collated_unique.rs`).
    pub collation: Option<Document>,
    /// The document `listIndexes` shows.
    pub document: Document,
}

/// The index version a spec asks for (2 when absent): MongoDB 8.0 builds versions 1 and 2
/// only (index_key_validate::validateIndexSpec and isIndexVersionAllowedForCreation;
/// jstests/core/create_indexes.js: "v0 index creation should fail").
fn index_version(spec: &Document) -> Result<i32> {
    let Some(v) = spec.get("v") else {
        return Ok(2);
    };
    let n = match crate::value::as_f64(v) {
        Some(n) => n,
        None => {
            return Err(Error::type_mismatch(format!(
                "The field 'v' must be a number, but got {}",
                crate::value::display::type_name(v)
            )));
        }
    };
    if n.fract() != 0.0 || n < f64::from(i32::MIN) || n > f64::from(i32::MAX) {
        return Err(Error::bad_value(format!(
            "Index version must be representable as a 32-bit integer, but got {}",
            key_value(v)
        )));
    }
    let n = n as i32;
    if n != 1 && n != 2 {
        return Err(Error::new(
            ErrorCode::CannotCreateIndex,
            format!(
                "Invalid index specification {}; cannot create an index with v={n}",
                key_value(&Bson::Document(spec.clone()))
            ),
        ));
    }
    Ok(n)
}

/// The only fields an `_id` index specification may hold (MongoDB's
/// `allowedIdIndexFieldNames`).
const ID_INDEX_OPTIONS: &[&str] = &["key", "name", "v", "ns", "collation"];

const KNOWN_OPTIONS: &[&str] = &[
    "key",
    "name",
    "v",
    "unique",
    "sparse",
    "hidden",
    "expireAfterSeconds",
    "partialFilterExpression",
    "background",
    // Accepted and dropped from the stored spec (IndexCatalogImpl::_fixIndexSpec: "dropDups
    // is silently ignored and removed from the spec as of SERVER-14710").
    "dropDups",
    "collation",
    "storageEngine",
    "ns",
    "weights",
    "default_language",
    "language_override",
    "textIndexVersion",
    "wildcardProjection",
    "2dsphereIndexVersion",
    "bits",
    "min",
    "max",
    "bucketSize",
    "coarsestIndexedLevel",
    "finestIndexedLevel",
];

/// Options only text indexes take.
const TEXT_OPTIONS: &[&str] = &[
    "weights",
    "default_language",
    "language_override",
    "textIndexVersion",
];

impl IndexSpec {
    /// The `_id` index of every collection.
    pub fn id_index() -> IndexSpec {
        IndexSpec::parse(&doc! {"key": {"_id": 1}, "name": ID_INDEX_NAME})
            .unwrap_or_else(|_| unreachable_id_spec())
    }

    /// Whether this is the `_id` index (unique by nature).
    pub fn is_id(&self) -> bool {
        self.name == ID_INDEX_NAME
    }

    /// Whether the index rejects duplicate keys.
    pub fn enforces_unique(&self) -> bool {
        self.unique || self.is_id()
    }

    /// Parses one element of `createIndexes.indexes`.
    pub fn parse(spec: &Document) -> Result<IndexSpec> {
        for (k, _) in spec {
            if !KNOWN_OPTIONS.contains(&k.as_str()) {
                return Err(Error::new(
                    ErrorCode::InvalidIndexSpecificationOption,
                    format!(
                        "The field '{k}' is not valid for an index specification. Specification: {}",
                        key_value(&Bson::Document(spec.clone()))
                    ),
                ));
            }
        }
        // A text index is normalised first ({content: "text"} → {_fts: "text", _ftsx: 1}
        // with weights); its name still comes from the key as given.
        let user_key = match spec.get("key") {
            Some(Bson::Document(k)) => Some(k.clone()),
            _ => None,
        };
        let fixed;
        let is_text = user_key.as_ref().is_some_and(is_text_key);
        let spec = if is_text {
            fixed = fix_spec(spec)?;
            &fixed
        } else {
            if let Some(k) = TEXT_OPTIONS.iter().find(|k| spec.contains_key(**k)) {
                return Err(Error::new(
                    ErrorCode::InvalidIndexSpecificationOption,
                    format!(
                        "The field '{k}' is not valid for an index specification. Specification: {}",
                        key_value(&Bson::Document(spec.clone()))
                    ),
                ));
            }
            spec
        };
        let key = match spec.get("key") {
            Some(Bson::Document(k)) => k.clone(),
            Some(other) => {
                return Err(Error::type_mismatch(format!(
                    "The field 'key' must be an object, but got {}",
                    crate::value::display::type_name(other)
                )));
            }
            None => {
                return Err(Error::new(
                    ErrorCode::FailedToParse,
                    format!(
                        "Error in specification {} :: caused by :: The 'key' field is a required property of an index specification",
                        key_value(&Bson::Document(spec.clone()))
                    ),
                ));
            }
        };
        let (wildcard, parts) = if super::wildcard::is_wildcard_key(&key) {
            let (w, parts) = super::wildcard::parse(&key, spec)?;
            (Some(Box::new(w)), parts)
        } else {
            if spec.contains_key("wildcardProjection") {
                return Err(Error::bad_value(
                    "The field 'wildcardProjection' is only allowed in an 'wildcard' index",
                ));
            }
            (None, parse_key_pattern(&key)?)
        };
        let name = match spec.get("name") {
            Some(Bson::String(n)) => {
                // MongoDB's IndexCatalogImpl::_isSpecOk (SERVER-16672,
                // jstests/core/index_create_with_nul_in_name.js).
                if n.contains('\0') {
                    return Err(Error::new(
                        ErrorCode::CannotCreateIndex,
                        "index name cannot contain NUL bytes",
                    ));
                }
                if n.is_empty() {
                    return Err(Error::new(
                        ErrorCode::CannotCreateIndex,
                        "The index name cannot be empty",
                    ));
                }
                // `*` names every index in dropIndexes, so no index may take it
                // (index_key_validate::validateIndexSpec, jstests/core/create_indexes.js).
                if n == "*" {
                    return Err(Error::bad_value("The index name '*' is not valid."));
                }
                n.clone()
            }
            Some(other) => {
                return Err(Error::type_mismatch(format!(
                    "The field 'name' must be a string, but got {}",
                    crate::value::display::type_name(other)
                )));
            }
            None => generate_name(user_key.as_ref().unwrap_or(&key)),
        };
        let flag = |field: &str| -> Result<bool> {
            match spec.get(field) {
                None => Ok(false),
                Some(Bson::Boolean(b)) => Ok(*b),
                Some(v @ (Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_))) => {
                    Ok(crate::value::as_i64(v).is_none_or(|n| n != 0))
                }
                Some(other) => Err(Error::type_mismatch(format!(
                    "The field '{field}' must be a bool, but got {}",
                    crate::value::display::type_name(other)
                ))),
            }
        };
        let unique = flag("unique")?;
        let sparse = flag("sparse")?;
        let hidden = flag("hidden")?;
        let hashed = parts.iter().filter(|p| p.kind == KeyKind::Hashed).count();
        if hashed > 1 {
            return Err(Error::location(
                31303,
                format!(
                    "A maximum of one index field is allowed to be hashed but found {hashed} for 'key' {}",
                    key_value(&Bson::Document(key.clone()))
                ),
            ));
        }
        if hashed == 1 && unique {
            return Err(Error::location(
                16764,
                "Currently hashed indexes cannot guarantee uniqueness. Use a regular index.",
            ));
        }
        // MongoDB's createIndexes validates a spec whose key is `{_id: 1}` or `{_id: -1}`
        // (IndexDescriptor::isIdIndexPattern) as the `_id` index's
        // (index_key_validate::validateIdIndexSpec): only key, name, v, ns and collation, and
        // the key exactly `{_id: 1}` (jstests/core/index_id_options.js).
        let id_pattern = key.len() == 1
            && key
                .get("_id")
                .and_then(crate::value::as_i64)
                .is_some_and(|n| n == 1 || n == -1);
        if id_pattern {
            if let Some(k) = spec
                .keys()
                .find(|k| !ID_INDEX_OPTIONS.contains(&k.as_str()))
            {
                return Err(Error::new(
                    ErrorCode::InvalidIndexSpecificationOption,
                    format!(
                        "The field '{k}' is not valid for an _id index specification. Specification: {}",
                        key_value(&Bson::Document(spec.clone()))
                    ),
                ));
            }
            if key.get("_id").and_then(crate::value::as_i64) != Some(1) {
                return Err(Error::bad_value(format!(
                    "The key pattern for an _id index must be {{_id: 1}}, but got {}",
                    key_value(&Bson::Document(key.clone()))
                )));
            }
        }
        if name == ID_INDEX_NAME && !id_pattern {
            return Err(Error::bad_value(format!(
                "The index name '_id_' is reserved for the _id index, which must have key pattern {{_id: 1}}, found key: {}",
                key_value(&Bson::Document(key.clone()))
            )));
        }
        if hidden && name == ID_INDEX_NAME {
            return Err(Error::bad_value("can't hide _id index"));
        }
        let expire_after_seconds = super::ttl_option::parse(spec, parts.len())?;
        let partial = match spec.get("partialFilterExpression") {
            None => None,
            Some(Bson::Document(f)) => {
                if sparse {
                    return Err(Error::new(
                        ErrorCode::CannotCreateIndex,
                        "cannot mix \"partialFilterExpression\" and \"sparse\" options",
                    ));
                }
                check_partial_filter(f)?;
                Some((f.clone(), Filter::parse(f)?))
            }
            Some(other) => {
                return Err(Error::type_mismatch(format!(
                    "The field 'partialFilterExpression' must be an object, but got {}",
                    crate::value::display::type_name(other)
                )));
            }
        };
        let text = if is_text {
            Some(Box::new(TextSpec::from_fixed(spec)?))
        } else {
            None
        };
        let collation = match spec.get("collation") {
            None => None,
            Some(Bson::Document(c)) => {
                crate::collation::Collation::from_document(c)?.map(|c| c.to_document())
            }
            Some(other) => {
                return Err(Error::type_mismatch(format!(
                    "The field 'collation' must be an object, but got {}",
                    crate::value::display::type_name(other)
                )));
            }
        };
        let version = index_version(spec)?;
        let mut document = doc! {"v": version, "key": key.clone(), "name": name.clone()};
        if parts.iter().any(|p| p.kind == KeyKind::Geo2dSphere) {
            // MongoDB 8.0 builds version 3 unless asked for 1 or 2 (S2AccessMethod).
            let v = spec
                .get("2dsphereIndexVersion")
                .map(crate::value::as_i64_signed);
            if v.is_some_and(|v| !(1..=3).contains(&v)) {
                return Err(Error::new(
                    ErrorCode::CannotCreateIndex,
                    format!(
                        "unsupported geo index version {{ 2dsphereIndexVersion : {} }}, only support versions: [1,2,3]",
                        v.unwrap_or(0)
                    ),
                ));
            }
            if v.is_none() {
                document.insert("2dsphereIndexVersion", 3);
            }
        }
        if parts.iter().any(|p| p.kind == KeyKind::Geo2d) {
            super::geo_keys::Flat::of(spec)?;
        }
        for (k, v) in spec {
            match k.as_str() {
                "key" | "name" | "v" | "ns" | "background" | "dropDups" => {}
                // A simple collation is not shown; another one is shown resolved.
                "collation" => {
                    if let Some(c) = &collation {
                        document.insert(k.clone(), c.clone());
                    }
                }
                _ => {
                    document.insert(k.clone(), v.clone());
                }
            }
        }
        Ok(IndexSpec {
            name,
            key,
            parts,
            unique,
            sparse,
            hidden,
            expire_after_seconds,
            partial,
            text,
            wildcard,
            collation,
            document,
        })
    }

    /// Whether a document belongs in the index (partial indexes keep only matching documents).
    pub fn covers_document(&self, doc: &Document) -> bool {
        self.partial.as_ref().is_none_or(|(_, filter)| {
            // The filter was parsed (its `$in` lists sorted) binary; the command maintaining
            // the index may run under another collation.
            let _binary = crate::collation::CollationScope::enter(None);
            filter.matches(doc)
        })
    }

    /// How this (requested) index relates to an `existing` one (MongoDB's
    /// `IndexDescriptor::compareIndexOptions`). Since MongoDB 4.9 the key pattern, `unique`,
    /// `sparse`, the collation and the `partialFilterExpression` make an index's signature; the
    /// other options only decide whether two indexes with one signature are identical.
    pub fn compare(&self, existing: &IndexSpec) -> IndexComparison {
        if !same_key_pattern(&self.key, &existing.key)
            || self.unique_by_nature() != existing.unique_by_nature()
            || self.sparse != existing.sparse
            || self.collation != existing.collation
            || self.partial.as_ref().map(|p| &p.0) != existing.partial.as_ref().map(|p| &p.0)
            || self.wildcard != existing.wildcard
        {
            return IndexComparison::Different;
        }
        if self.expire_after_seconds == existing.expire_after_seconds
            && self.hidden == existing.hidden
            && self.text == existing.text
        {
            IndexComparison::Identical
        } else {
            IndexComparison::Equivalent
        }
    }

    /// An index on `{_id: 1}` is unique whether or not the spec says so, as in MongoDB.
    fn unique_by_nature(&self) -> bool {
        self.unique || self.has_id_pattern()
    }

    /// Whether the key pattern is `{_id: 1}`, the `_id` index's.
    fn has_id_pattern(&self) -> bool {
        self.key.len() == 1
            && self
                .key
                .get("_id")
                .and_then(crate::value::as_i64)
                .is_some_and(|n| n == 1)
    }

    /// A requested index on `{_id: 1}` is named `_id_` whatever name it was given, as MongoDB
    /// corrects it (`IndexCatalogImpl::_fixIndexSpec`; jstests/core/index_id_options.js: "The
    /// name of an _id index gets corrected to '_id_'"), so `createIndex({_id: 1})` finds the
    /// existing `_id` index instead of conflicting with it.
    pub fn with_id_index_name(mut self) -> IndexSpec {
        if self.has_id_pattern() && self.name != ID_INDEX_NAME {
            self.name = ID_INDEX_NAME.to_string();
            self.document
                .insert("name", Bson::String(ID_INDEX_NAME.to_string()));
        }
        self
    }
}

/// Whether two key patterns are the same: the same fields in the same order with equal values.
/// Field order matters (`{a: 1, b: 1}` and `{b: 1, a: 1}` are different indexes), which
/// `Document`'s own equality ignores; numbers compare by value, as MongoDB's
/// SimpleBSONObjComparator does, so `{a: 1.0}` (the legacy shell's double) names `{a: 1}`.
pub fn same_key_pattern(a: &Document, b: &Document) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b.iter())
            .all(|((ka, va), (kb, vb))| ka == kb && crate::value::values_equal(va, vb))
}

/// How a requested index relates to an existing one ([`IndexSpec::compare`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexComparison {
    /// The key pattern or an option that tells indexes apart differs: both may exist
    /// side by side, under different names.
    Different,
    /// Same signature, but another option (`expireAfterSeconds`, `hidden`, text weights)
    /// differs: the two cannot coexist.
    Equivalent,
    /// The same index.
    Identical,
}

/// The default name MongoDB's clients give an index: `a_1_b_-1`, `loc_hashed`.
pub fn generate_name(key: &Document) -> String {
    let parts: Vec<String> = key
        .iter()
        .map(|(k, v)| {
            let value = match v {
                Bson::String(s) => s.clone(),
                Bson::Int32(i) => i.to_string(),
                Bson::Int64(i) => i.to_string(),
                Bson::Double(d) if d.fract() == 0.0 => format!("{}", *d as i64),
                Bson::Double(d) => d.to_string(),
                other => key_value(other),
            };
            format!("{k}_{value}")
        })
        .collect();
    parts.join("_")
}

fn parse_key_pattern(key: &Document) -> Result<Vec<KeyPart>> {
    if key.is_empty() {
        return Err(Error::new(
            ErrorCode::CannotCreateIndex,
            "Index keys cannot be empty.",
        ));
    }
    let mut parts = Vec::with_capacity(key.len());
    for (field, v) in key {
        let kind = match v {
            Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_) | Bson::Decimal128(_) => {
                let positive = match v {
                    Bson::Decimal128(d) => !d.to_string().starts_with('-'),
                    other => crate::value::as_i64_signed(other) >= 0,
                };
                let zero = match v {
                    Bson::Int32(i) => *i == 0,
                    Bson::Int64(i) => *i == 0,
                    Bson::Double(d) => *d == 0.0,
                    Bson::Decimal128(d) => d.to_string().trim_start_matches('-') == "0",
                    _ => false,
                };
                if zero {
                    return Err(Error::new(
                        ErrorCode::CannotCreateIndex,
                        format!(
                            "Values in the index key pattern can't be all zeros: {}",
                            key_value(&Bson::Document(key.clone()))
                        ),
                    ));
                }
                if positive {
                    KeyKind::Ascending
                } else {
                    KeyKind::Descending
                }
            }
            Bson::String(s) if s == "hashed" => KeyKind::Hashed,
            Bson::String(s) if s == "text" && field == "_fts" => KeyKind::Text,
            Bson::String(s) if s == "2d" => KeyKind::Geo2d,
            Bson::String(s) if s == "2dsphere" => KeyKind::Geo2dSphere,
            // MongoDB 5.0 removed geoHaystack indexes (index_key_validate.cpp, validateKeyPattern:
            // CannotCreateIndex "GeoHaystack indexes cannot be created in version 5.0 and above").
            Bson::String(s) if s == "geoHaystack" => {
                return Err(Error::new(
                    ErrorCode::CannotCreateIndex,
                    "GeoHaystack indexes cannot be created in version 5.0 and above",
                ));
            }
            Bson::String(s) if s == "text" => {
                return Err(Error::new(
                    ErrorCode::NotImplemented,
                    format!("'{s}' indexes are not supported by Sprout yet"),
                ));
            }
            Bson::String(s) => {
                return Err(Error::new(
                    ErrorCode::CannotCreateIndex,
                    format!("Unknown index plugin '{s}'"),
                ));
            }
            other => {
                return Err(Error::new(
                    ErrorCode::CannotCreateIndex,
                    format!(
                        "Values in v:2 index key pattern cannot be of type {}. Only numbers > 0, numbers < 0, and strings are allowed.",
                        crate::value::display::type_name(other)
                    ),
                ));
            }
        };
        if field.is_empty() {
            return Err(Error::new(
                ErrorCode::CannotCreateIndex,
                "Index keys cannot be an empty field.",
            ));
        }
        let path = FieldPath::parse(field);
        for (i, part) in path.parts().iter().enumerate() {
            if part.is_empty() {
                return Err(Error::new(
                    ErrorCode::CannotCreateIndex,
                    "Index keys cannot contain an empty field.",
                ));
            }
            let dbref = i > 0 && matches!(part.as_str(), "$id" | "$ref" | "$db");
            if part.starts_with('$') && !dbref {
                return Err(Error::new(
                    ErrorCode::CannotCreateIndex,
                    "Index key contains an illegal field name: field name starts with '$'.",
                ));
            }
        }
        parts.push(KeyPart {
            dotted: field.clone(),
            path,
            kind,
        });
    }
    check_plugins(&parts)?;
    // MongoDB's `Ordering::make` (src/mongo/bson/ordering.h) holds one direction bit per field
    // in 32 bits: `uassert(13103, "too many compound keys", n < kMaxCompoundIndexKeys)`.
    if parts.len() > MAX_COMPOUND_INDEX_KEYS {
        return Err(Error::location(13103, "too many compound keys"));
    }
    Ok(parts)
}

/// One index plugin per index (IndexNames::findPluginName refuses two kinds), a `2d` field
/// only first and only once (MongoDB's `TwoDAccessMethod` reads the first field as the geo one).
fn check_plugins(parts: &[KeyPart]) -> Result<()> {
    let mut kinds: Vec<KeyKind> = parts
        .iter()
        .map(|p| p.kind)
        .filter(|k| !matches!(k, KeyKind::Ascending | KeyKind::Descending))
        .collect();
    kinds.dedup();
    if kinds.len() > 1 {
        return Err(Error::new(
            ErrorCode::CannotCreateIndex,
            "Can't use more than one index plugin for a single index.",
        ));
    }
    let flat: Vec<usize> = (0..parts.len())
        .filter(|i| parts[*i].kind == KeyKind::Geo2d)
        .collect();
    if flat.len() > 1 {
        return Err(Error::location(16800, "can't have 2 geo fields"));
    }
    if flat.first().is_some_and(|i| *i != 0) {
        return Err(Error::location(16801, "2d has to be first in index"));
    }
    Ok(())
}

/// Most fields in one index key pattern (MongoDB's `kMaxCompoundIndexKeys`).
pub const MAX_COMPOUND_INDEX_KEYS: usize = 32;

/// Partial filters accept equality, `$exists: true`, comparisons, `$type`, `$and`, `$or`, `$in`.
fn check_partial_filter(filter: &Document) -> Result<()> {
    for (k, v) in filter {
        match k.as_str() {
            "$and" | "$or" => {
                if let Bson::Array(items) = v {
                    for item in items {
                        if let Bson::Document(d) = item {
                            check_partial_filter(d)?;
                        }
                    }
                }
            }
            op if op.starts_with('$') => return Err(unsupported_partial(op)),
            // `{x: /abc/}` is a regex match, not an equality (MongoDB refuses it in every
            // version: jstests/core/index_partial_create_drop.js).
            _ if matches!(v, Bson::RegularExpression(_)) => {
                return Err(unsupported_partial("$regex"));
            }
            _ => {
                if let Bson::Document(ops) = v
                    && ops.keys().next().is_some_and(|o| o.starts_with('$'))
                {
                    for (op, operand) in ops {
                        let ok = match op.as_str() {
                            "$eq" | "$gt" | "$gte" | "$lt" | "$lte" | "$type" | "$in" => true,
                            "$exists" => {
                                matches!(operand, Bson::Boolean(true))
                                    || crate::value::as_i64(operand).is_some_and(|n| n != 0)
                            }
                            _ => false,
                        };
                        if !ok {
                            return Err(unsupported_partial(op));
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

fn unsupported_partial(op: &str) -> Error {
    Error::new(
        ErrorCode::CannotCreateIndex,
        format!("Error in specification: unsupported expression in partial index: {op}"),
    )
}

/// The `_id` spec cannot fail to parse; this keeps the constructor total without a panic.
fn unreachable_id_spec() -> IndexSpec {
    let key = doc! {"_id": 1};
    IndexSpec {
        name: ID_INDEX_NAME.into(),
        parts: vec![KeyPart {
            path: FieldPath::parse("_id"),
            dotted: "_id".into(),
            kind: KeyKind::Ascending,
        }],
        document: doc! {"v": 2, "key": key.clone(), "name": ID_INDEX_NAME},
        key,
        unique: false,
        sparse: false,
        hidden: false,
        expire_after_seconds: None,
        partial: None,
        text: None,
        wildcard: None,
        collation: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_documents() {
        assert_eq!(generate_name(&doc! {"a": 1, "b": -1}), "a_1_b_-1");
        assert_eq!(generate_name(&doc! {"loc": "hashed"}), "loc_hashed");
        let s = IndexSpec::parse(&doc! {"key": {"a.b": 1}, "name": "ab", "unique": true}).unwrap();
        assert_eq!(
            s.document,
            doc! {"v": 2, "key": {"a.b": 1}, "name": "ab", "unique": true}
        );
        assert!(s.enforces_unique());
        assert!(IndexSpec::id_index().enforces_unique());
    }

    #[test]
    fn bad_specs_fail_like_mongodb() {
        let code = |spec: Document| IndexSpec::parse(&spec).unwrap_err().code();
        assert_eq!(code(doc! {"key": {}, "name": "x"}), 67);
        assert_eq!(code(doc! {"key": {"a": "foo"}, "name": "x"}), 67);
        assert_eq!(code(doc! {"key": {"a": 0}, "name": "x"}), 67);
        assert_eq!(code(doc! {"key": {"a": {}}, "name": "x"}), 67);
        assert_eq!(code(doc! {"key": {"$a": 1}, "name": "x"}), 67);
        assert_eq!(code(doc! {"key": {"a": 1}, "name": "x", "bogus": 1}), 197);
        assert_eq!(
            code(doc! {"key": {"a": "hashed"}, "name": "x", "unique": true}),
            16764
        );
        assert_eq!(
            code(doc! {"key": {"a": 1, "b": 1}, "name": "x", "expireAfterSeconds": 5}),
            67
        );
        assert_eq!(
            code(doc! {"key": {"a": 1}, "name": "x", "partialFilterExpression": {"a": {"$ne": 1}}}),
            67
        );
        assert_eq!(code(doc! {"name": "x"}), 9);
        assert_eq!(code(doc! {"key": {"a": 1}, "name": "foo\0bar"}), 67);
        let regex = Bson::RegularExpression(bson::Regex {
            pattern: "abc".to_string().try_into().unwrap(),
            options: String::new().try_into().unwrap(),
        });
        assert_eq!(
            code(doc! {"key": {"x": 1}, "name": "x", "partialFilterExpression": {"x": regex}}),
            67
        );
    }

    #[test]
    fn key_patterns_compare_numbers_by_value_and_fields_by_order() {
        assert!(same_key_pattern(
            &doc! {"a": 1, "b": -1},
            &doc! {"a": 1.0, "b": -1_i64}
        ));
        assert!(!same_key_pattern(
            &doc! {"a": 1, "b": 1},
            &doc! {"b": 1, "a": 1}
        ));
        assert!(!same_key_pattern(&doc! {"a": 1}, &doc! {"a": "1"}));
        assert!(!same_key_pattern(&doc! {"a": 1}, &doc! {"a": -1}));
    }

    #[test]
    fn at_most_32_fields_make_a_key_pattern() {
        let key =
            |n: usize| -> Document { (0..n).map(|i| (format!("f{i}"), Bson::Int32(1))).collect() };
        assert!(IndexSpec::parse(&doc! {"key": key(32), "name": "x"}).is_ok());
        let e = IndexSpec::parse(&doc! {"key": key(33), "name": "x"}).unwrap_err();
        assert_eq!(
            (e.code(), e.to_string().contains("too many compound keys")),
            (13103, true)
        );
    }
}
