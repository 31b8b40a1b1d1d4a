//! The one filter parser: a filter document becomes an [`Expr`] tree, or MongoDB's error.

use bson::{Bson, Document};

use super::bits::{BitOp, BitTest};
use super::expr::{CmpOp, Expr, InList, TextQuery, ValuePred};
use crate::error::{Error, ErrorCode, Result};
use crate::expression::Scope;
use crate::geo::query::GeoPred;
use crate::path::FieldPath;
use crate::value::compare_values;
use crate::value::display::key_value;
use crate::value::regex::QueryRegex;
use crate::value::type_set::TypeSet;

/// Where in a filter the parser is: some operators apply only to the whole document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// The filter document itself, or a clause of a top-level `$and`/`$or`/`$nor`.
    TopLevel,
    /// Inside `$elemMatch`, matched against array elements.
    SubDocument,
}

/// Parses a filter document (the implicit AND of its fields) with no user variables.
pub fn parse_filter(filter: &Document, level: Level) -> Result<Expr> {
    parse_filter_in(filter, level, &Scope::default())
}

/// Parses a filter document whose `$expr`s may name the variables of `scope`.
pub fn parse_filter_in(filter: &Document, level: Level, scope: &Scope) -> Result<Expr> {
    let mut parts = Vec::with_capacity(filter.len());
    for (key, value) in filter {
        if let Some(op) = key.strip_prefix('$') {
            if let Some(e) = parse_top_level_operator(key, op, value, level, scope)? {
                parts.push(e);
            }
            continue;
        }
        parse_field(key, value, &mut parts)?;
    }
    Ok(simplify_and(parts))
}

fn simplify_and(mut parts: Vec<Expr>) -> Expr {
    if parts.len() == 1 {
        parts.pop().unwrap_or(Expr::AlwaysTrue)
    } else {
        Expr::And(parts)
    }
}

/// `$and`, `$or`, `$expr`... `None` for operators that add no node (`$comment`).
fn parse_top_level_operator(
    key: &str,
    op: &str,
    value: &Bson,
    level: Level,
    scope: &Scope,
) -> Result<Option<Expr>> {
    Ok(Some(match op {
        "and" | "or" | "nor" => {
            let Bson::Array(items) = value else {
                return Err(Error::bad_value(format!("{key} must be an array")));
            };
            if items.is_empty() {
                return Err(Error::bad_value("$and/$or/$nor must be a nonempty array"));
            }
            let mut children = Vec::with_capacity(items.len());
            for item in items {
                let Bson::Document(d) = item else {
                    return Err(Error::bad_value(
                        "$or/$and/$nor entries need to be full objects",
                    ));
                };
                children.push(parse_filter_in(d, level, scope)?);
            }
            match op {
                "and" => Expr::And(children),
                "or" => or_of_equalities_as_in(children),
                _ => Expr::Nor(children),
            }
        }
        "comment" => return Ok(None),
        "alwaysTrue" | "alwaysFalse" => {
            let n = integer(value).map_err(|m| Error::new(ErrorCode::FailedToParse, m))?;
            if n != 1 {
                return Err(Error::new(
                    ErrorCode::FailedToParse,
                    format!("{key} must be an integer value of 1"),
                ));
            }
            if op == "alwaysTrue" {
                Expr::AlwaysTrue
            } else {
                Expr::AlwaysFalse
            }
        }
        "where" => {
            if level == Level::SubDocument {
                return Err(Error::bad_value(
                    "$elemMatch cannot contain $where expression",
                ));
            }
            match value {
                Bson::String(code) | Bson::JavaScriptCode(code) => Expr::Where(code.clone()),
                Bson::JavaScriptCodeWithScope(c) => Expr::Where(c.code.clone()),
                _ => return Err(Error::bad_value("$where got bad type")),
            }
        }
        "text" => {
            if level == Level::SubDocument {
                return Err(Error::bad_value(
                    "$text can only be applied to the top-level document",
                ));
            }
            Expr::Text(parse_text(value)?)
        }
        "expr" => {
            if level == Level::SubDocument {
                return Err(Error::bad_value(
                    "$expr can only be applied to the top-level document",
                ));
            }
            Expr::Expression(Box::new(crate::expression::Expression::parse_in(
                value, scope,
            )?))
        }
        "sampleRate" => {
            if level == Level::SubDocument {
                return Err(Error::bad_value(
                    "$sampleRate can only be applied to the top-level document",
                ));
            }
            Expr::Expression(Box::new(crate::expression::Expression::parse_in(
                &sample_rate_expression(value)?,
                scope,
            )?))
        }
        "jsonSchema" => {
            let Bson::Document(schema) = value else {
                return Err(Error::type_mismatch("$jsonSchema must be an object"));
            };
            Expr::JsonSchema(Box::new(super::json_schema::Schema::parse(schema)?))
        }
        "ref" | "id" | "db" => Expr::Path {
            path: FieldPath::parse(key),
            pred: ValuePred::Cmp(CmpOp::Eq, value.clone()),
        },
        _ => {
            return Err(Error::bad_value(format!(
                "unknown top level operator: {key}. If you have a field name that starts with a \
                 '$' symbol, consider using $getField or $setField."
            )));
        }
    }))
}

/// MongoDB's desugaring of `{$sampleRate: x}`: `$expr` false for 0, true for 1, otherwise
/// `{$lt: [{$rand: {}}, x]}`.
fn sample_rate_expression(value: &Bson) -> Result<Bson> {
    let x = match crate::value::as_f64(value) {
        Some(n) => n,
        None => {
            return Err(Error::bad_value(
                "argument to $sampleRate must be a numeric type",
            ));
        }
    };
    // Written this way round so NaN is refused.
    if !((0.0..=1.0).contains(&x)) {
        return Err(Error::bad_value(
            "numeric argument to $sampleRate must be in [0, 1]",
        ));
    }
    Ok(if x == 0.0 {
        bson::bson!({"$literal": false})
    } else if x == 1.0 {
        bson::bson!({"$literal": true})
    } else {
        bson::bson!({"$lt": [{"$rand": {}}, x]})
    })
}

/// MongoDB's rewrite of an `$or` whose clauses are all equalities (or `$in`s, or regexes) on
/// one path into a single `$in`; it matches the same documents and records an elemMatchKey.
fn or_of_equalities_as_in(children: Vec<Expr>) -> Expr {
    let mut first: Option<&FieldPath> = None;
    let mergeable = children.len() > 1
        && children.iter().all(|c| match c {
            Expr::Path {
                path,
                pred: ValuePred::Cmp(CmpOp::Eq, _) | ValuePred::In(_) | ValuePred::Regex(_),
            } => {
                let same = first.is_none_or(|q| q == path);
                first = Some(path);
                same
            }
            _ => false,
        });
    if !mergeable {
        return Expr::Or(children);
    }
    let mut merged_path = None;
    let mut list = InList::default();
    for c in children {
        if let Expr::Path { path, pred } = c {
            merged_path = Some(path);
            match pred {
                ValuePred::Cmp(_, v) => {
                    list.has_null |= matches!(v, Bson::Null);
                    list.values.push(v);
                }
                ValuePred::In(other) => {
                    list.has_null |= other.has_null;
                    list.values.extend(other.values);
                    list.regexes.extend(other.regexes);
                }
                ValuePred::Regex(r) => list.regexes.push(*r),
                _ => {}
            }
        }
    }
    crate::sort_slice::sort_by(&mut list.values, compare_values);
    list.values
        .dedup_by(|a, b| compare_values(a, b) == std::cmp::Ordering::Equal);
    match merged_path {
        Some(path) => Expr::Path {
            path,
            pred: ValuePred::In(list),
        },
        None => Expr::Or(Vec::new()),
    }
}

/// Parses `key: value` for a field path, adding its nodes to `out`.
fn parse_field(key: &str, value: &Bson, out: &mut Vec<Expr>) -> Result<()> {
    let path = FieldPath::parse(key);
    let preds = match value {
        Bson::Document(ops) if is_operator_document(ops) => parse_operators(key, ops)?,
        Bson::RegularExpression(r) => vec![ValuePred::Regex(Box::new(QueryRegex::new(
            r.pattern.as_str(),
            r.options.as_str(),
        )?))],
        other => vec![equality(other)?],
    };
    for pred in preds {
        push_path_pred(&path, pred, out);
    }
    Ok(())
}

/// Turns a value predicate on a path into filter nodes: negations become document-level `Not`s
/// of the array-aware match.
fn push_path_pred(path: &FieldPath, pred: ValuePred, out: &mut Vec<Expr>) {
    match pred {
        ValuePred::Not(inner) => {
            let mut parts = Vec::new();
            for p in inner {
                push_path_pred(path, p, &mut parts);
            }
            out.push(Expr::Not(Box::new(simplify_and(parts))));
        }
        ValuePred::All(inner) => {
            for p in inner {
                push_path_pred(path, p, out);
            }
        }
        pred => out.push(Expr::Path {
            path: path.clone(),
            pred,
        }),
    }
}

/// `{$gt: 1}` is an operator document; `{a: 1}` and DBRefs (`{$ref, $id}`) are values.
pub(crate) fn is_operator_document(d: &Document) -> bool {
    let Some((first, _)) = d.iter().next() else {
        return false;
    };
    if !first.starts_with('$') {
        return false;
    }
    !(d.contains_key("$ref") && d.contains_key("$id"))
}

fn equality(v: &Bson) -> Result<ValuePred> {
    if matches!(v, Bson::Undefined) {
        return Err(Error::bad_value("cannot compare to undefined"));
    }
    Ok(ValuePred::Cmp(CmpOp::Eq, v.clone()))
}

/// Parses the operators of `{path: {$op: operand, ...}}` into value predicates.
fn parse_operators(path: &str, ops: &Document) -> Result<Vec<ValuePred>> {
    let mut preds = Vec::with_capacity(ops.len());
    let mut regex_done = false;
    for (op, operand) in ops {
        match op.as_str() {
            "$eq" => preds.push(equality(operand)?),
            "$ne" => {
                if matches!(operand, Bson::RegularExpression(_)) {
                    return Err(Error::bad_value("Can't have regex as arg to $ne."));
                }
                preds.push(ValuePred::Not(vec![equality(operand)?]));
            }
            "$lt" | "$lte" | "$gt" | "$gte" => {
                let cmp = match op.as_str() {
                    "$lt" => CmpOp::Lt,
                    "$lte" => CmpOp::Lte,
                    "$gt" => CmpOp::Gt,
                    _ => CmpOp::Gte,
                };
                if matches!(operand, Bson::RegularExpression(_)) {
                    return Err(Error::bad_value(format!(
                        "Can't have RegEx as arg to predicate over field '{path}'."
                    )));
                }
                if matches!(operand, Bson::Undefined) {
                    return Err(Error::bad_value("cannot compare to undefined"));
                }
                preds.push(ValuePred::Cmp(cmp, operand.clone()));
            }
            "$in" | "$nin" => {
                let Bson::Array(items) = operand else {
                    return Err(Error::bad_value(format!("{op} needs an array")));
                };
                let list = parse_in_list(items)?;
                if op == "$in" {
                    preds.push(ValuePred::In(list));
                } else {
                    preds.push(ValuePred::Not(vec![ValuePred::In(list)]));
                }
            }
            "$exists" => {
                if truthy(operand) {
                    preds.push(ValuePred::Exists);
                } else {
                    preds.push(ValuePred::Not(vec![ValuePred::Exists]));
                }
            }
            "$type" => {
                let set = TypeSet::parse(operand)?;
                if set.is_empty() {
                    return Err(Error::new(
                        ErrorCode::FailedToParse,
                        format!("{path} must match at least one type"),
                    ));
                }
                preds.push(ValuePred::Type(set));
            }
            "$mod" => preds.push(parse_mod(operand)?),
            "$regex" => {
                if !regex_done {
                    preds.push(parse_regex_document(ops)?);
                    regex_done = true;
                }
            }
            "$options" => {
                if !ops.contains_key("$regex") {
                    return Err(Error::bad_value("$options needs a $regex"));
                }
            }
            "$elemMatch" => preds.push(parse_elem_match(operand)?),
            "$all" => preds.push(parse_all(operand)?),
            "$size" => preds.push(parse_size(operand)?),
            "$not" => preds.push(parse_not(path, operand)?),
            "$bitsAllSet" | "$bitsAllClear" | "$bitsAnySet" | "$bitsAnyClear" => {
                let bit_op = BitOp::from_name(op).unwrap_or(BitOp::AllSet);
                preds.push(ValuePred::Bits(BitTest::parse(bit_op, op, path, operand)?));
            }
            "$where" => return Err(Error::bad_value("$where cannot be applied to a field")),
            "$near" | "$nearSphere" | "$geoNear" | "$maxDistance" | "$minDistance" => {
                if !preds
                    .iter()
                    .any(|p| matches!(p, ValuePred::Geo(g) if g.near().is_some()))
                {
                    preds.push(ValuePred::Geo(Box::new(GeoPred::parse_near(ops)?)));
                }
            }
            "$geoWithin" | "$within" | "$geoIntersects" => {
                preds.push(ValuePred::Geo(Box::new(GeoPred::parse_region(
                    op, operand,
                )?)));
            }
            other => return Err(Error::bad_value(format!("unknown operator: {other}"))),
        }
    }
    Ok(preds)
}

fn truthy(v: &Bson) -> bool {
    match v {
        Bson::Boolean(b) => *b,
        Bson::Int32(i) => *i != 0,
        Bson::Int64(i) => *i != 0,
        Bson::Double(d) => *d != 0.0,
        Bson::Null | Bson::Undefined => false,
        _ => true,
    }
}

fn parse_in_list(items: &[Bson]) -> Result<InList> {
    let mut list = InList::default();
    for item in items {
        match item {
            Bson::Document(d) if is_operator_document(d) => {
                return Err(Error::bad_value("cannot nest $ under $in"));
            }
            Bson::RegularExpression(r) => {
                list.regexes
                    .push(QueryRegex::new(r.pattern.as_str(), r.options.as_str())?);
            }
            Bson::Undefined => {
                return Err(Error::bad_value(
                    "InMatchExpression equality cannot be undefined",
                ));
            }
            Bson::Null => {
                list.has_null = true;
                list.values.push(Bson::Null);
            }
            other => list.values.push(other.clone()),
        }
    }
    crate::sort_slice::sort_by(&mut list.values, compare_values);
    list.values
        .dedup_by(|a, b| compare_values(a, b) == std::cmp::Ordering::Equal);
    Ok(list)
}

fn parse_mod(operand: &Bson) -> Result<ValuePred> {
    let Bson::Array(items) = operand else {
        return Err(Error::bad_value("malformed mod, needs to be an array"));
    };
    let mut it = items.iter();
    let Some(d) = it.next() else {
        return Err(Error::bad_value("malformed mod, not enough elements"));
    };
    let divisor = mod_operand(d, "divisor")?;
    let Some(r) = it.next() else {
        return Err(Error::bad_value("malformed mod, not enough elements"));
    };
    let remainder = mod_operand(r, "remainder")?;
    if it.next().is_some() {
        return Err(Error::bad_value("malformed mod, too many elements"));
    }
    if divisor == 0 {
        return Err(Error::bad_value("divisor cannot be 0"));
    }
    Ok(ValuePred::Mod { divisor, remainder })
}

/// A `$mod` divisor or remainder: a number, truncated toward zero, within the i64 range.
fn mod_operand(v: &Bson, what: &str) -> Result<i64> {
    if !is_number(v) {
        return Err(Error::bad_value(format!(
            "malformed mod, {what} not a number"
        )));
    }
    let nan_or_inf = match v {
        Bson::Double(d) => !d.is_finite(),
        Bson::Decimal128(d) => !crate::value::Decimal::from_bson(d).to_f64().is_finite(),
        _ => false,
    };
    if nan_or_inf {
        return Err(Error::bad_value(format!(
            "malformed mod, {what} value is invalid :: caused by :: Unable to coerce NaN/Inf to integral type"
        )));
    }
    truncated_in_range(v).ok_or_else(|| {
        Error::bad_value(format!(
            "malformed mod, {what} value is invalid :: caused by :: Out of bounds coercing to integral value"
        ))
    })
}

fn is_number(v: &Bson) -> bool {
    matches!(
        v,
        Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_) | Bson::Decimal128(_)
    )
}

/// A number truncated toward zero, when it lies within the i64 range (NaN, infinities and
/// out-of-range values have none).
pub(crate) fn truncated_in_range(v: &Bson) -> Option<i64> {
    let f = match v {
        Bson::Int32(i) => return Some(i64::from(*i)),
        Bson::Int64(i) => return Some(*i),
        Bson::Double(d) => *d,
        Bson::Decimal128(d) => return crate::value::Decimal::from_bson(d).to_i64_truncated(),
        _ => return None,
    };
    let t = f.trunc();
    // -2^63 is representable; 2^63 is not.
    (t.is_finite() && (-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&t))
        .then_some(t as i64)
}

/// A number truncated toward zero to an i64 (NaN and infinities have none).
pub(crate) fn truncated(v: &Bson) -> Option<i64> {
    match v {
        Bson::Int32(i) => Some(i64::from(*i)),
        Bson::Int64(i) => Some(*i),
        Bson::Double(d) if d.is_finite() => Some(*d as i64),
        Bson::Decimal128(d) => {
            let f: f64 = d.to_string().parse().ok()?;
            f.is_finite().then_some(f as i64)
        }
        _ => None,
    }
}

/// An exactly integral number, for operands that must be integers.
fn integer(v: &Bson) -> std::result::Result<i64, String> {
    match v {
        Bson::Int32(i) => Ok(i64::from(*i)),
        Bson::Int64(i) => Ok(*i),
        Bson::Double(d) if d.is_nan() => Err(format!(
            "Expected an integer, but found NaN in: {}",
            key_value(v)
        )),
        Bson::Double(d) if *d >= 9.223_372_036_854_776e18 || *d < -9.223_372_036_854_776e18 => Err(
            format!("Cannot represent as a 64-bit integer: {}", key_value(v)),
        ),
        Bson::Double(d) if d.fract() != 0.0 => {
            Err(format!("Expected an integer: {}", key_value(v)))
        }
        Bson::Double(d) => Ok(*d as i64),
        Bson::Decimal128(_) => truncated(v)
            .ok_or_else(|| format!("Cannot represent as a 64-bit integer: {}", key_value(v))),
        _ => Err(format!("Expected a number in: {}", key_value(v))),
    }
}

fn parse_regex_document(ops: &Document) -> Result<ValuePred> {
    let mut pattern: Option<String> = None;
    let mut options = String::new();
    for (k, v) in ops {
        match k.as_str() {
            "$regex" => match v {
                Bson::String(s) => pattern = Some(s.clone()),
                Bson::RegularExpression(r) => {
                    pattern = Some(r.pattern.as_str().to_string());
                    if !r.options.is_empty() {
                        if !options.is_empty() {
                            return Err(Error::location(
                                51074,
                                "options set in both $regex and $options",
                            ));
                        }
                        options = r.options.as_str().to_string();
                    }
                }
                _ => return Err(Error::bad_value("$regex has to be a string")),
            },
            "$options" => {
                let Bson::String(s) = v else {
                    return Err(Error::bad_value("$options has to be a string"));
                };
                if !options.is_empty() {
                    return Err(Error::location(
                        51075,
                        "options set in both $regex and $options",
                    ));
                }
                options = s.clone();
            }
            _ => {}
        }
    }
    let pattern = pattern.unwrap_or_default();
    Ok(ValuePred::Regex(Box::new(QueryRegex::new(
        &pattern, &options,
    )?)))
}

pub(crate) fn parse_elem_match(operand: &Bson) -> Result<ValuePred> {
    let Bson::Document(d) = operand else {
        return Err(Error::bad_value("$elemMatch needs an Object"));
    };
    // The value form applies when the operand's first field is an operator that is not a
    // top-level one ($and, $or, $nor, $where, $expr...).
    let value_form = d.iter().next().is_some_and(|(k, _)| {
        k.starts_with('$')
            && !matches!(
                k.as_str(),
                "$and"
                    | "$or"
                    | "$nor"
                    | "$where"
                    | "$expr"
                    | "$text"
                    | "$comment"
                    | "$jsonSchema"
                    | "$alwaysTrue"
                    | "$alwaysFalse"
                    | "$ref"
                    | "$id"
                    | "$db"
            )
    });
    if value_form {
        return Ok(ValuePred::ElemMatchValue(parse_operators("", d)?));
    }
    Ok(ValuePred::ElemMatchObject(Box::new(parse_filter(
        d,
        Level::SubDocument,
    )?)))
}

fn parse_all(operand: &Bson) -> Result<ValuePred> {
    let Bson::Array(items) = operand else {
        return Err(Error::bad_value("$all needs an array"));
    };
    let first_is_elem_match = matches!(items.first(), Some(Bson::Document(d))
        if d.iter().next().is_some_and(|(k, _)| k == "$elemMatch"));
    let mut preds = Vec::with_capacity(items.len());
    if first_is_elem_match {
        for item in items {
            let Bson::Document(d) = item else {
                return Err(Error::bad_value("$all/$elemMatch has to be consistent"));
            };
            match d.iter().next() {
                Some((k, v)) if k == "$elemMatch" => preds.push(parse_elem_match(v)?),
                _ => return Err(Error::bad_value("$all/$elemMatch has to be consistent")),
            }
        }
        return Ok(ValuePred::All(preds));
    }
    for item in items {
        match item {
            Bson::RegularExpression(r) => preds.push(ValuePred::Regex(Box::new(QueryRegex::new(
                r.pattern.as_str(),
                r.options.as_str(),
            )?))),
            Bson::Document(d) if d.iter().next().is_some_and(|(k, _)| is_path_accepting(k)) => {
                return Err(Error::bad_value("no $ expressions in $all"));
            }
            other => preds.push(equality(other)?),
        }
    }
    if preds.is_empty() {
        // `$all: []` matches nothing.
        return Ok(ValuePred::In(InList::default()));
    }
    Ok(ValuePred::All(preds))
}

/// The query operators that take a path (`{a: {$gt: 1}}`), as opposed to top-level ones
/// (`$and`, `$or`, `$expr`…) and plain fields: MongoDB's
/// `MatchExpressionParser::parsePathAcceptingKeyword`. `$all` refuses them as elements, and a
/// `$pull` operand that starts with one is a condition on each element (`update/pull.rs`).
const PATH_ACCEPTING_OPERATORS: &[&str] = &[
    "$eq",
    "$ne",
    "$gt",
    "$gte",
    "$lt",
    "$lte",
    "$in",
    "$nin",
    "$all",
    "$exists",
    "$mod",
    "$type",
    "$regex",
    "$options",
    "$elemMatch",
    "$size",
    "$not",
    "$near",
    "$nearSphere",
    "$geoWithin",
    "$within",
    "$geoIntersects",
    "$maxDistance",
    "$minDistance",
    "$bitsAllSet",
    "$bitsAllClear",
    "$bitsAnySet",
    "$bitsAnyClear",
];

/// Whether `k` is a query operator that takes a path ([`PATH_ACCEPTING_OPERATORS`]).
pub(crate) fn is_path_accepting(k: &str) -> bool {
    PATH_ACCEPTING_OPERATORS.contains(&k)
}

fn parse_size(operand: &Bson) -> Result<ValuePred> {
    let n = match operand {
        Bson::Int32(i) => i64::from(*i),
        Bson::Int64(i) => {
            if i32::try_from(*i).is_err() {
                return Err(Error::bad_value(
                    "$size must be representable as a 32-bit integer",
                ));
            }
            *i
        }
        Bson::Double(d) => {
            if d.fract() != 0.0 || !d.is_finite() {
                return Err(Error::bad_value(format!(
                    "Failed to parse $size. Expected an integer in: $size: {}",
                    key_value(operand)
                )));
            }
            *d as i64
        }
        Bson::Decimal128(_) => truncated(operand).ok_or_else(|| {
            Error::bad_value(format!(
                "Failed to parse $size. Expected an integer in: $size: {}",
                key_value(operand)
            ))
        })?,
        _ => return Err(Error::bad_value("$size needs a number")),
    };
    if n < 0 {
        return Err(Error::bad_value(format!(
            "Failed to parse $size. Expected a non-negative number in: $size: {}",
            key_value(operand)
        )));
    }
    Ok(ValuePred::Size(n))
}

fn parse_not(path: &str, operand: &Bson) -> Result<ValuePred> {
    match operand {
        Bson::RegularExpression(r) => Ok(ValuePred::Not(vec![ValuePred::Regex(Box::new(
            QueryRegex::new(r.pattern.as_str(), r.options.as_str())?,
        ))])),
        Bson::Document(d) => {
            if d.is_empty() {
                return Err(Error::bad_value("$not cannot be empty"));
            }
            if !d.keys().next().is_some_and(|k| k.starts_with('$')) {
                return Err(Error::bad_value(format!(
                    "unknown operator: {}",
                    d.keys().next().map(String::as_str).unwrap_or("")
                )));
            }
            Ok(ValuePred::Not(parse_operators(path, d)?))
        }
        _ => Err(Error::bad_value("$not needs a regex or a document")),
    }
}

fn parse_text(value: &Bson) -> Result<TextQuery> {
    let Bson::Document(d) = value else {
        return Err(Error::bad_value("$text expects an object"));
    };
    let mut q = TextQuery {
        search: String::new(),
        language: None,
        case_sensitive: false,
        diacritic_sensitive: false,
    };
    let mut has_search = false;
    for (k, v) in d {
        match (k.as_str(), v) {
            ("$search", Bson::String(s)) => {
                q.search = s.clone();
                has_search = true;
            }
            ("$search", _) => {
                return Err(Error::type_mismatch(
                    "BSON field '$search' is the wrong type, expected type 'string'",
                ));
            }
            ("$language", Bson::String(s)) => q.language = Some(s.clone()),
            ("$caseSensitive", Bson::Boolean(b)) => q.case_sensitive = *b,
            ("$diacriticSensitive", Bson::Boolean(b)) => q.diacritic_sensitive = *b,
            ("$language" | "$caseSensitive" | "$diacriticSensitive", other) => {
                return Err(Error::type_mismatch(format!(
                    "BSON field '{k}' is the wrong type '{}'",
                    crate::value::display::type_name(other)
                )));
            }
            _ => {
                return Err(Error::location(
                    40415,
                    format!("BSON field '$text.{k}' is an unknown field."),
                ));
            }
        }
    }
    if !has_search {
        return Err(Error::location(
            40414,
            "BSON field '$text.$search' is missing but a required field",
        ));
    }
    Ok(q)
}
