//! Evaluation of a parsed filter against a document.

use std::cmp::Ordering;
use std::ops::ControlFlow;

use bson::{Bson, Document};

use super::MatchContext;
use super::expr::{CmpOp, Expr, InList, ValuePred};
use crate::error::{Error, ErrorCode, Result};
use crate::path::{LeafArrays, for_each_item};
use crate::value::{canonical_type_rank, compare_values};

/// Evaluates `expr`; on a match, `key` holds the elemMatchKey (the array position that made the
/// match), when one was recorded.
pub fn eval(
    expr: &Expr,
    doc: &Document,
    ctx: &MatchContext<'_>,
    key: &mut Option<usize>,
) -> Result<bool> {
    match expr {
        Expr::And(children) => {
            for c in children {
                if !eval(c, doc, ctx, key)? {
                    return Ok(false);
                }
            }
            Ok(true)
        }
        Expr::Or(children) => {
            // As in MongoDB, `$or` records no elemMatchKey (an `$or` of equalities on one path
            // is an `$in` by then, which does).
            for c in children {
                if eval(c, doc, ctx, &mut None)? {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        Expr::Nor(children) => {
            for c in children {
                if eval(c, doc, ctx, &mut None)? {
                    return Ok(false);
                }
            }
            Ok(true)
        }
        Expr::Not(inner) => Ok(!eval(inner, doc, ctx, &mut None)?),
        Expr::Path {
            path,
            pred: ValuePred::Geo(geo),
        } => {
            // Geometry tests can fail (geometries too large to compare): the error is the
            // query's, not a non-match.
            let mut out = Ok(false);
            let _ = for_each_item(doc, path, LeafArrays::NoExpand, &mut |item| {
                match item.value.map(|v| geo.query.matches(v)) {
                    Some(Ok(true)) => out = Ok(true),
                    Some(Err(e)) => out = Err(e),
                    _ => return ControlFlow::Continue(()),
                }
                ControlFlow::Break(())
            });
            out
        }
        Expr::Path { path, pred } => {
            let leaf = if pred.reads_whole_arrays() {
                LeafArrays::NoExpand
            } else {
                LeafArrays::Expand
            };
            let mut found: Option<Option<usize>> = None;
            let _ = for_each_item(doc, path, leaf, &mut |item| {
                if pred.matches(item.value) {
                    let pos = item
                        .array_pos
                        .or_else(|| item.value.and_then(|v| pred.elem_match_position(v)));
                    found = Some(pos);
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            match found {
                Some(pos) => {
                    if pos.is_some() {
                        *key = pos;
                    }
                    Ok(true)
                }
                None => Ok(false),
            }
        }
        Expr::Expression(e) => {
            let vars = crate::expression::Vars::new(doc).with_meta(ctx.meta);
            Ok(crate::expression::truthy(&e.eval(&vars)?))
        }
        Expr::Where(code) => match ctx.where_evaluator {
            Some(w) => w.evaluate(code, doc),
            None => Err(Error::bad_value("no globalScriptEngine in $where parsing")),
        },
        Expr::Text(_) => Err(Error::new(
            ErrorCode::IndexNotFound,
            "text index required for $text query",
        )),
        Expr::JsonSchema(schema) => Ok(schema.matches(doc)),
        Expr::AlwaysTrue => Ok(true),
        Expr::AlwaysFalse => Ok(false),
    }
}

/// Evaluation where errors cannot happen (no `$where`, `$expr` or `$text` below `$elemMatch`).
fn eval_quiet(expr: &Expr, doc: &Document) -> bool {
    eval(expr, doc, &MatchContext::default(), &mut None).unwrap_or(false)
}

impl ValuePred {
    /// Whether one value (`None`: a missing field) satisfies the predicate.
    pub fn matches(&self, v: Option<&Bson>) -> bool {
        let Some(v) = v else {
            return self.matches_missing();
        };
        match self {
            ValuePred::Cmp(op, rhs) => compare(*op, v, rhs),
            ValuePred::In(list) => in_list(list, v),
            ValuePred::Regex(r) => r.matches(v),
            ValuePred::Exists => true,
            ValuePred::Type(set) => set.contains(v),
            ValuePred::Mod { divisor, remainder } => match super::parse::truncated_in_range(v) {
                Some(n) => n.checked_rem(*divisor).unwrap_or(0) == *remainder,
                None => false,
            },
            ValuePred::Bits(test) => test.matches(v),
            ValuePred::Size(n) => matches!(v, Bson::Array(a) if a.len() as i64 == *n),
            ValuePred::ElemMatchObject(_) | ValuePred::ElemMatchValue(_) => {
                self.elem_match_position(v).is_some()
            }
            ValuePred::Not(inner) => !inner.iter().all(|p| p.matches(Some(v))),
            ValuePred::All(inner) => inner.iter().all(|p| p.matches(Some(v))),
            ValuePred::Geo(g) => g.query.matches(v).unwrap_or(false),
        }
    }

    /// For `$elemMatch`: the position of the first array element that matches.
    pub fn elem_match_position(&self, v: &Bson) -> Option<usize> {
        let Bson::Array(items) = v else {
            return None;
        };
        match self {
            ValuePred::ElemMatchObject(filter) => items.iter().position(|el| match el {
                Bson::Document(d) => eval_quiet(filter, d),
                Bson::Array(a) => eval_quiet(filter, &array_as_document(a)),
                _ => false,
            }),
            ValuePred::ElemMatchValue(preds) => items
                .iter()
                .position(|el| preds.iter().all(|p| p.matches(Some(el)))),
            _ => None,
        }
    }

    fn matches_missing(&self) -> bool {
        match self {
            ValuePred::Cmp(CmpOp::Eq | CmpOp::Lte | CmpOp::Gte, Bson::Null) => true,
            ValuePred::In(list) => list.has_null,
            ValuePred::Not(inner) => !inner.iter().all(|p| p.matches(None)),
            ValuePred::All(inner) => inner.iter().all(|p| p.matches(None)),
            _ => false,
        }
    }
}

/// An array seen as a document with fields "0", "1"... (for `$elemMatch` on nested arrays).
fn array_as_document(items: &[Bson]) -> Document {
    items
        .iter()
        .enumerate()
        .map(|(i, v)| (i.to_string(), v.clone()))
        .collect()
}

/// A comparison operator applied to one value, bracketed by type as MongoDB does: values of
/// different canonical types never match, except against MinKey/MaxKey operands.
pub fn compare(op: CmpOp, v: &Bson, rhs: &Bson) -> bool {
    if canonical_type_rank(v) != canonical_type_rank(rhs) {
        return match rhs {
            Bson::MaxKey => matches!(op, CmpOp::Lt | CmpOp::Lte),
            Bson::MinKey => matches!(op, CmpOp::Gt | CmpOp::Gte),
            _ => false,
        };
    }
    if let (CmpOp::Eq, Bson::String(x), Bson::String(y)) = (op, v, rhs) {
        // Equality of two strings needs no order (a scan's `{field: "text"}` per document).
        return crate::value::string_order::equal_in_force(x, y);
    }
    if is_nan(v) || is_nan(rhs) {
        // NaN equals only NaN and is neither greater nor less than any number.
        let both = is_nan(v) && is_nan(rhs);
        return both && matches!(op, CmpOp::Eq | CmpOp::Lte | CmpOp::Gte);
    }
    let ord = compare_values(v, rhs);
    match op {
        CmpOp::Eq => ord == Ordering::Equal,
        CmpOp::Lt => ord == Ordering::Less,
        CmpOp::Lte => ord != Ordering::Greater,
        CmpOp::Gt => ord == Ordering::Greater,
        CmpOp::Gte => ord != Ordering::Less,
    }
}

fn is_nan(v: &Bson) -> bool {
    match v {
        Bson::Double(d) => d.is_nan(),
        Bson::Decimal128(d) => crate::value::decimal_is_nan(d),
        _ => false,
    }
}

/// `$in`: the values are kept sorted by [`compare_values`], whose equality is the matcher's
/// (same canonical type, equal value, NaN equal to NaN), so a binary search finds a match.
fn in_list(list: &InList, v: &Bson) -> bool {
    list.values
        .binary_search_by(|x| compare_values(x, v))
        .is_ok()
        || list.regexes.iter().any(|r| r.matches(v))
}
