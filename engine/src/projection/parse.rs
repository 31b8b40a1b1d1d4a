//! Parsing a projection document into a [`Projection`] tree.

use bson::{Bson, Document};

use super::{Action, MetaKind, Mode, Node, Projection};
use crate::error::{Error, ErrorCode, Result};
use crate::expression::{Expression, Scope};
use crate::matcher::ElemMatch;

/// The kind of a leaf, for the inclusion/exclusion rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Include,
    Exclude,
    /// `$slice` and `$meta`: allowed in both kinds.
    Neutral,
}

struct Parser<'s> {
    scope: &'s Scope,
    mode: Option<Mode>,
    positional_seen: bool,
    elem_match_seen: bool,
    text_score: bool,
    sort_key: bool,
    geo_near: bool,
    root: Node,
    id_seen: bool,
}

pub fn parse(spec: &Document, scope: &Scope) -> Result<Option<Projection>> {
    if spec.is_empty() {
        return Ok(None);
    }
    let mut p = Parser {
        scope,
        mode: None,
        positional_seen: false,
        elem_match_seen: false,
        text_score: false,
        sort_key: false,
        geo_near: false,
        root: Node::default(),
        id_seen: false,
    };
    p.fields(spec, "")?;
    let mode = p.mode.unwrap_or(
        // Only `_id` and neutral fields: `{_id: 0}` and `{a: {$slice: 1}}` are exclusions,
        // `{_id: 1}` an inclusion.
        if p.elem_match_seen
            || p.root
                .fields
                .iter()
                .any(|(k, a)| k == "_id" && matches!(a, Action::Include | Action::Computed(_)))
        {
            Mode::Inclusion
        } else {
            Mode::Exclusion
        },
    );
    if mode == Mode::Inclusion && !p.id_seen {
        p.root
            .fields
            .insert(0, ("_id".to_string(), Action::Include));
    }
    Ok(Some(Projection {
        mode,
        root: p.root,
        positional: p.positional_seen,
        text_score: p.text_score,
        sort_key: p.sort_key,
        geo_near: p.geo_near,
    }))
}

impl Parser<'_> {
    fn fields(&mut self, spec: &Document, prefix: &str) -> Result<()> {
        for (key, value) in spec {
            let path = if prefix.is_empty() {
                key.clone()
            } else {
                format!("{prefix}.{key}")
            };
            self.field(&path, value)?;
        }
        Ok(())
    }

    fn field(&mut self, path: &str, value: &Bson) -> Result<()> {
        if path.is_empty() || path.split('.').any(str::is_empty) {
            return Err(Error::location(
                15998,
                "FieldPath field names may not be empty strings.",
            ));
        }
        if let Some(base) = path.strip_suffix(".$") {
            return self.positional(path, base, value);
        }
        if path.split('.').any(|p| p.starts_with('$')) {
            if path.contains(".$.") || path.starts_with("$.") {
                return Err(Error::location(
                    31394,
                    "As of 4.4, it's illegal to specify positional operator in the middle of a \
                     path.Positional projection may only be used at the end, for example: a.b.$. \
                     If the query previously used a form like a.b.$.d, remove the parts \
                     following the '$' and the results will be equivalent.",
                ));
            }
            return Err(Error::location(
                16410,
                "FieldPath field names may not start with '$'. Consider using $getField or \
                 $setField.",
            ));
        }
        match value {
            Bson::Boolean(_)
            | Bson::Int32(_)
            | Bson::Int64(_)
            | Bson::Double(_)
            | Bson::Decimal128(_) => {
                let include = crate::expression::value_truthy(value);
                if include {
                    self.set_kind(path, Kind::Include)?;
                    self.insert(path, Action::Include)
                } else {
                    self.set_kind(path, Kind::Exclude)?;
                    self.insert(path, Action::Exclude)
                }
            }
            Bson::Document(d) => match d.iter().next() {
                None => Err(Error::location(
                    51270,
                    format!(
                        "An empty sub-projection is not a valid value. Found empty object at \
                         path: {path}"
                    ),
                )),
                Some((op, arg)) if op.starts_with('$') => self.operator(path, d, op, arg),
                Some(_) => self.fields(d, path),
            },
            other => {
                // Literals and `"$path"` strings are computed fields.
                self.set_kind(path, Kind::Include)?;
                self.insert(
                    path,
                    Action::Computed(Box::new(Expression::parse_in(other, self.scope)?)),
                )
            }
        }
    }

    fn operator(&mut self, path: &str, d: &Document, op: &str, arg: &Bson) -> Result<()> {
        match op {
            "$slice" if d.len() == 1 => match parse_find_slice(arg) {
                Ok(action) => {
                    self.set_kind(path, Kind::Neutral)?;
                    self.insert(path, action)
                }
                // Not find's form: MongoDB 8.0 reads it as the aggregation `$slice`, a computed
                // field of an inclusion (`{a: {$slice: [1, null]}}` gives `a: null`).
                Err(find_form) => {
                    let expr = Expression::parse_in(&Bson::Document(d.clone()), self.scope)
                        .map_err(|mut e| {
                            e.message = format!(
                                "Invalid $slice syntax. The given syntax {} did not match the \
                                 find() syntax because :: {} :: The given syntax did not match \
                                 the expression $slice syntax. :: caused by :: {}",
                                crate::value::display::key_value(&Bson::Document(d.clone())),
                                format_args!("{}: {}", find_form.code_name(), find_form.message),
                                e.message
                            );
                            e
                        })?;
                    self.computed(path, expr)
                }
            },
            "$elemMatch" if d.len() == 1 => {
                if path.contains('.') {
                    return Err(Error::location(
                        31275,
                        "Cannot use $elemMatch projection on a nested field.",
                    ));
                }
                let Bson::Document(f) = arg else {
                    return Err(Error::location(
                        31274,
                        "elemMatch: Invalid argument, object required.",
                    ));
                };
                check_no_special_features(f)?;
                let matcher = ElemMatch::parse(&Bson::Document(f.clone()))?;
                if self.positional_seen {
                    return Err(positional_with_elem_match());
                }
                self.elem_match_seen = true;
                // `$elemMatch` fits an exclusion too (`{a: {$elemMatch: ...}, b: 0}`); alone it
                // makes an inclusion.
                self.set_kind(path, Kind::Neutral)?;
                self.insert(path, Action::ElemMatch(Box::new(matcher)))
            }
            "$meta" if d.len() == 1 => {
                let kind = match arg {
                    Bson::String(s) => match s.as_str() {
                        "textScore" => MetaKind::TextScore,
                        "indexKey" => MetaKind::IndexKey,
                        "recordId" => MetaKind::RecordId,
                        "sortKey" => MetaKind::SortKey,
                        "geoNearDistance" => MetaKind::GeoNearDistance,
                        "geoNearPoint" => MetaKind::GeoNearPoint,
                        other => {
                            return Err(Error::location(
                                17308,
                                format!("Unsupported argument to $meta: {other}"),
                            ));
                        }
                    },
                    _ => {
                        return Err(Error::location(16866, "$meta requires a string argument"));
                    }
                };
                if kind == MetaKind::TextScore {
                    self.text_score = true;
                }
                if kind == MetaKind::SortKey {
                    self.sort_key = true;
                }
                if matches!(kind, MetaKind::GeoNearDistance | MetaKind::GeoNearPoint) {
                    self.geo_near = true;
                }
                self.set_kind(path, Kind::Neutral)?;
                self.insert(path, Action::Meta(kind))
            }
            _ => {
                let expr = Expression::parse_in(&Bson::Document(d.clone()), self.scope)?;
                self.computed(path, expr)
            }
        }
    }

    /// A computed field: it makes the projection an inclusion.
    fn computed(&mut self, path: &str, expr: Expression) -> Result<()> {
        if self.mode == Some(Mode::Exclusion) {
            return Err(Error::location(
                31252,
                "Cannot use expression other than $meta in exclusion projection",
            ));
        }
        self.set_kind(path, Kind::Include)?;
        self.insert(path, Action::Computed(Box::new(expr)))
    }

    fn positional(&mut self, path: &str, base: &str, value: &Bson) -> Result<()> {
        if base.split('.').any(|p| p.starts_with('$')) {
            return Err(Error::location(
                31394,
                "As of 4.4, it's illegal to specify positional operator in the middle of a path.",
            ));
        }
        // MongoDB 8.0's parseElement (projection_parser.cpp) looks at the value first: an
        // object is 31271, a false number 31395, any other literal 31308.
        match value {
            Bson::Document(_) => {
                return Err(Error::location(
                    31271,
                    "positional projection cannot be used with an expression or sub object",
                ));
            }
            Bson::Boolean(_)
            | Bson::Int32(_)
            | Bson::Int64(_)
            | Bson::Double(_)
            | Bson::Decimal128(_) => {
                if !crate::expression::value_truthy(value) {
                    return Err(Error::location(
                        31395,
                        "positional projection cannot be used with exclusion",
                    ));
                }
            }
            _ => {
                return Err(Error::location(
                    31308,
                    "positional projection cannot be used with a literal",
                ));
            }
        }
        if self.elem_match_seen {
            return Err(positional_with_elem_match());
        }
        if self.positional_seen {
            return Err(Error::location(
                31276,
                "Cannot specify more than one positional projection per query.",
            ));
        }
        self.positional_seen = true;
        self.set_kind(path, Kind::Include)?;
        self.insert(base, Action::Positional)?;
        self.mark_positional(base);
        Ok(())
    }

    /// Flags the levels a positional path goes through.
    fn mark_positional(&mut self, base: &str) {
        let mut node = &mut self.root;
        for part in base.split('.') {
            let Some((_, Action::Sub(child))) = node.fields.iter_mut().find(|(k, _)| k == part)
            else {
                return;
            };
            child.positional = true;
            node = child;
        }
    }

    /// Applies the inclusion/exclusion rules to a new leaf.
    fn set_kind(&mut self, path: &str, kind: Kind) -> Result<()> {
        if path == "_id" {
            self.id_seen = true;
            return Ok(());
        }
        let mode = match kind {
            Kind::Neutral => return Ok(()),
            Kind::Include => Mode::Inclusion,
            Kind::Exclude => Mode::Exclusion,
        };
        match self.mode {
            None => {
                self.mode = Some(mode);
                Ok(())
            }
            Some(m) if m == mode => Ok(()),
            Some(Mode::Inclusion) => Err(Error::location(
                31254,
                format!("Cannot do exclusion on field {path} in inclusion projection"),
            )),
            Some(Mode::Exclusion) => Err(Error::location(
                31253,
                format!("Cannot do inclusion on field {path} in exclusion projection"),
            )),
        }
    }

    /// Inserts a leaf at a dotted path, reporting path collisions.
    fn insert(&mut self, path: &str, action: Action) -> Result<()> {
        if path == "_id" {
            self.id_seen = true;
        }
        let parts: Vec<&str> = path.split('.').collect();
        let mut node = &mut self.root;
        for (i, part) in parts.iter().enumerate() {
            let last = i + 1 == parts.len();
            let pos = node.fields.iter().position(|(k, _)| k == part);
            if last {
                if pos.is_some() {
                    return Err(Error::location(31250, format!("Path collision at {path}")));
                }
                node.fields.push(((*part).to_string(), action));
                return Ok(());
            }
            let idx = match pos {
                Some(idx) => idx,
                None => {
                    node.fields
                        .push(((*part).to_string(), Action::Sub(Node::default())));
                    node.fields.len() - 1
                }
            };
            let Some((_, entry)) = node.fields.get_mut(idx) else {
                return Err(Error::location(31250, format!("Path collision at {path}")));
            };
            match entry {
                Action::Sub(child) => node = child,
                _ => {
                    let remaining = parts.get(i + 1..).unwrap_or_default().join(".");
                    return Err(Error::location(
                        31250,
                        format!("Path collision at {path} remaining portion {remaining}"),
                    ));
                }
            }
        }
        Ok(())
    }
}

fn positional_with_elem_match() -> Error {
    Error::location(
        31255,
        "Positional operator cannot be used together with $elemMatch.",
    )
}

/// A number as find's `$slice` reads it: truncated to a 32-bit int, saturating, NaN as 0.
/// MongoDB 8.0 reads any number here (`BSONElement::numberInt`, projection_parser.cpp
/// `attemptToParseFindSlice`); C++'s cast of NaN or ±Infinity is undefined, so the saturating
/// reading DocumentDB documents for these inputs is the one kept.
fn slice_number(v: &Bson) -> Option<i64> {
    match v {
        Bson::Int32(i) => Some(i64::from(*i)),
        Bson::Int64(i) => Some(i64::from(i32::try_from(*i).unwrap_or(if *i < 0 {
            i32::MIN
        } else {
            i32::MAX
        }))),
        Bson::Double(d) => Some(i64::from(*d as i32)),
        Bson::Decimal128(_) => crate::fold::sum::as_f64(v).map(|d| i64::from(d as i32)),
        _ => None,
    }
}

/// Find's own `$slice` forms: `n`, or `[skip, limit]` with a positive limit. `Err` holds why the
/// argument is not of these forms (MongoDB's codes 31257-31259, 31272, 31273); the caller then
/// reads `{$slice: …}` as the aggregation expression.
fn parse_find_slice(arg: &Bson) -> std::result::Result<Action, Error> {
    match arg {
        Bson::Array(items) => {
            let [skip, limit] = items.as_slice() else {
                return Err(Error::location(
                    31272,
                    "$slice array argument should be of form [skip, limit]",
                ));
            };
            let Some(skip) = slice_number(skip) else {
                return Err(Error::location(
                    31257,
                    format!(
                        "$slice expects the skip argument to be a number, got {}",
                        crate::value::display::type_name(skip)
                    ),
                ));
            };
            let Some(limit) = slice_number(limit) else {
                return Err(Error::location(
                    31258,
                    format!(
                        "$slice expects the limit argument to be a number, got {}",
                        crate::value::display::type_name(limit)
                    ),
                ));
            };
            if limit <= 0 {
                return Err(Error::location(
                    31259,
                    format!("$slice limit must be positive, got {limit}"),
                ));
            }
            Ok(Action::Slice {
                skip: Some(skip),
                limit,
            })
        }
        other => match slice_number(other) {
            Some(limit) => Ok(Action::Slice { skip: None, limit }),
            None => Err(Error::location(
                31273,
                "$slice only supports numbers and [skip, limit] arrays",
            )),
        },
    }
}

/// A projection's `$elemMatch` is parsed with all of MongoDB's special query features banned
/// (`kBanAllSpecialFeatures`): `$where`, `$expr`, `$text` and `$jsonSchema` are refused anywhere
/// inside it.
fn check_no_special_features(filter: &Document) -> Result<()> {
    for (key, value) in filter {
        if matches!(key.as_str(), "$where" | "$expr" | "$text" | "$jsonSchema") {
            return Err(Error::new(
                ErrorCode::QueryFeatureNotAllowed,
                format!("{key} is not allowed in this context"),
            ));
        }
        check_no_special_features_in(value)?;
    }
    Ok(())
}

fn check_no_special_features_in(value: &Bson) -> Result<()> {
    match value {
        Bson::Document(d) => check_no_special_features(d),
        Bson::Array(items) => items.iter().try_for_each(check_no_special_features_in),
        _ => Ok(()),
    }
}
