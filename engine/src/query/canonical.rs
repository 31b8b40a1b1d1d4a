//! The canonical query: what the planner, the plan cache and the executor work on, built once
//! from a parsed find ([`FindSpec`]) and the find's sort pattern, projection and hint, as
//! MongoDB's `CanonicalQuery` is built once from a `FindCommandRequest`.
//!
//! The filter is not read back from BSON: its top-level conjunction (nested `$and` flattened,
//! `{a: {$gt: 1, $lt: 5}}` split per operator, as MongoDB's parsed `$and` holds it) is read
//! from the matcher's typed tree into [`Conjunct`]s, each with its own parsed [`Filter`] (so a
//! residual filter is assembled from parsed clauses, never re-parsed), the [`Pred`] an index
//! can answer, and its explain form (the clause as `parsedQuery` prints it).
//!
//! Architecture invariant: outside the matcher, this module is the only reader of the parsed
//! filter tree, and nothing after it calls `Filter::parse` on a find's filter.

use bson::{Bson, Document, doc};

use crate::matcher::Filter;
use crate::matcher::expr::{CmpOp as MatchCmp, Expr, ValuePred};
use crate::matcher::serialize::{regex_bson, serialize};

use super::FindSpec;

/// A comparison operator with an index range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmpOp {
    Gt,
    Gte,
    Lt,
    Lte,
}

/// One predicate on a path, as an index sees it.
#[derive(Debug, Clone, PartialEq)]
pub enum Pred {
    Eq(Bson),
    Cmp(CmpOp, Bson),
    In(Vec<Bson>),
    Exists(bool),
    Regex(String, String),
    /// `{$mod: [divisor, remainder]}`: every number is a candidate, and the index key alone
    /// can be tested (MongoDB's INEXACT_COVERED tightness).
    Mod(i64, i64),
    /// Anything an index cannot answer (`$ne`, `$elemMatch`, `$or`, `$expr`...).
    Other,
}

/// One clause of the filter's top-level AND.
#[derive(Debug, Clone)]
pub struct Conjunct {
    /// The path of a field predicate; `None` for a top-level operator clause.
    pub path: Option<String>,
    pub pred: Pred,
    /// The clause as MongoDB prints it in explain (`{price: {$gt: 65}}`, `{a: {$eq: 1}}`).
    pub doc: Document,
    /// The clause, parsed: what a residual filter made of this clause evaluates.
    pub clause: Filter,
}

/// A find as the planner reads it.
#[derive(Debug, Clone)]
pub struct CanonicalQuery<'a> {
    /// The parsed filter, sort, skip, limit, projection and `min`/`max`.
    pub spec: &'a FindSpec,
    /// The projection as written (explain's `transformBy`; part of the plan-cache shape).
    /// `None` when there is none or it is `{}`.
    pub projection: Option<&'a Document>,
    pub hint: Option<&'a Bson>,
    /// The filter as the client wrote it, only for `$planCacheStats`' `createdFromQuery`
    /// (MongoDB shows the command's filter there); planning never reads it.
    pub filter_as_written: Option<&'a Document>,
    conjuncts: Vec<Conjunct>,
}

impl<'a> CanonicalQuery<'a> {
    /// The canonical form of a parsed find with no sort pattern, projection or hint.
    pub fn new(spec: &'a FindSpec) -> Self {
        CanonicalQuery {
            spec,
            projection: None,
            hint: None,
            filter_as_written: None,
            conjuncts: filter_conjuncts(&spec.filter),
        }
    }

    /// The sort pattern as written (explain's SORT `sortPattern`; part of the plan-cache
    /// shape), from the parsed sort. `None` when there is no sort or it is `{}`.
    pub fn sort_pattern(&self) -> Option<&'a Document> {
        self.spec.sort.as_ref().map(crate::sort::SortSpec::pattern)
    }

    /// With the projection document the spec's projection was parsed from.
    pub fn with_projection(mut self, projection: Option<&'a Document>) -> Self {
        self.projection = projection.filter(|p| !p.is_empty());
        self
    }

    /// With a hint (`None`: no hint; each command decides which values mean none).
    pub fn with_hint(mut self, hint: Option<&'a Bson>) -> Self {
        self.hint = hint;
        self
    }

    /// With the filter as written, for the plan cache's `createdFromQuery`.
    pub fn with_filter_as_written(mut self, filter: Option<&'a Document>) -> Self {
        self.filter_as_written = filter;
        self
    }

    /// The filter's top-level conjunction. MongoDB plans the canonical query, so an `$or` of
    /// equalities on one path is planned as the `$in` it was rewritten into.
    pub fn conjuncts(&self) -> &[Conjunct] {
        &self.conjuncts
    }
}

/// The conjuncts of a whole filter (`{}` has none).
pub fn filter_conjuncts(filter: &Filter) -> Vec<Conjunct> {
    let mut out = Vec::new();
    if !matches!(filter.root(), Expr::AlwaysTrue) {
        split(filter.root(), &mut out);
    }
    out
}

/// The branches of a `{$or: [...]}` clause (each a filter of its own), or `None`.
pub fn or_branches(c: &Conjunct) -> Option<Vec<Filter>> {
    if c.path.is_some() {
        return None;
    }
    match c.clause.root() {
        Expr::Or(children) if !children.is_empty() => Some(
            children
                .iter()
                .map(|e| Filter::from_expr(e.clone()))
                .collect(),
        ),
        _ => None,
    }
}

/// The conjuncts of one branch of a rooted or contained `$or`.
pub fn branch_conjuncts(branch: &Filter) -> Vec<Conjunct> {
    let mut out = Vec::new();
    split(branch.root(), &mut out);
    out
}

fn split(expr: &Expr, out: &mut Vec<Conjunct>) {
    match expr {
        Expr::And(children) => {
            for c in children {
                split(c, out);
            }
        }
        // MongoDB's optimizer replaces an `$or` of one clause by that clause
        // (ListOfMatchExpression::getOptimizer), so `{$or: [{a: /o/}]}` is planned as `{a: /o/}`.
        Expr::Or(children) if children.len() == 1 => split(&children[0], out),
        Expr::Path { path, pred } => {
            let path = path.dotted();
            let (pred, doc) =
                path_pred(&path, pred).unwrap_or_else(|| (Pred::Other, serialize(expr)));
            out.push(Conjunct {
                path: Some(path),
                pred,
                doc,
                clause: Filter::from_expr(expr.clone()),
            });
        }
        Expr::Not(inner) if matches!(inner.as_ref(), Expr::Path { .. }) => {
            let Expr::Path { path, .. } = inner.as_ref() else {
                return;
            };
            out.push(Conjunct {
                path: Some(path.dotted()),
                pred: Pred::Other,
                doc: serialize(expr),
                clause: Filter::from_expr(expr.clone()),
            });
        }
        // `$or`, `$nor`, `$expr`, `$where`, `$text`, `$jsonSchema`, `$alwaysTrue/False`.
        other => out.push(Conjunct {
            path: None,
            pred: Pred::Other,
            doc: serialize(other),
            clause: Filter::from_expr(other.clone()),
        }),
    }
}

/// The indexable predicates an `$elemMatch` clause puts on `dotted` (an index key's path), as
/// MongoDB's planner reads them through the `$elemMatch`'s children
/// (`QueryPlannerIXSelect::getFields` / `rateIndices` descend into ELEM_MATCH_OBJECT with the
/// path as prefix, and into ELEM_MATCH_VALUE on the path itself): `{arr: {$elemMatch: {x: 5}}}`
/// bounds `arr.x` by `[5, 5]`, `{arr: {$elemMatch: {$gt: 1}}}` bounds `arr`. The bounds are
/// never exact: the `$elemMatch` stays in the filter. Empty for any other clause.
pub fn elem_match_preds(c: &Conjunct, dotted: &str) -> Vec<Pred> {
    let mut out = Vec::new();
    elem_match_preds_of(c.clause.root(), dotted, &mut out);
    out
}

fn elem_match_preds_of(expr: &Expr, dotted: &str, out: &mut Vec<Pred>) {
    let Expr::Path { path, pred } = expr else {
        return;
    };
    let path = path.dotted();
    match pred {
        ValuePred::ElemMatchObject(inner) => {
            let Some(sub) = dotted
                .strip_prefix(path.as_str())
                .and_then(|r| r.strip_prefix('.'))
            else {
                return;
            };
            let mut children = Vec::new();
            split(inner, &mut children);
            for child in &children {
                if child.path.as_deref() == Some(sub) && child.pred != Pred::Other {
                    out.push(child.pred.clone());
                } else {
                    elem_match_preds_of(child.clause.root(), sub, out);
                }
            }
        }
        ValuePred::ElemMatchValue(preds) if path == dotted => {
            out.extend(
                preds
                    .iter()
                    .filter_map(|p| path_pred(&path, p))
                    .map(|(p, _)| p),
            );
        }
        _ => {}
    }
}

/// The indexable predicate of a path clause and its explain form; `None` for the others.
fn path_pred(path: &str, pred: &ValuePred) -> Option<(Pred, Document)> {
    Some(match pred {
        ValuePred::Cmp(op, v) => {
            let (p, name) = match op {
                MatchCmp::Eq => (Pred::Eq(v.clone()), "$eq"),
                MatchCmp::Gt => (Pred::Cmp(CmpOp::Gt, v.clone()), "$gt"),
                MatchCmp::Gte => (Pred::Cmp(CmpOp::Gte, v.clone()), "$gte"),
                MatchCmp::Lt => (Pred::Cmp(CmpOp::Lt, v.clone()), "$lt"),
                MatchCmp::Lte => (Pred::Cmp(CmpOp::Lte, v.clone()), "$lte"),
            };
            (p, doc! {path: {name: v.clone()}})
        }
        ValuePred::In(list) => {
            let mut items = list.values.clone();
            items.extend(list.regexes.iter().map(regex_bson));
            let mut sorted = items.clone();
            crate::sort_slice::sort_by(&mut sorted, crate::value::compare_values_simple);
            sorted.dedup_by(|a, b| crate::value::compare_values_simple(a, b).is_eq() && a == b);
            (Pred::In(items), doc! {path: {"$in": sorted}})
        }
        ValuePred::Exists => (Pred::Exists(true), doc! {path: {"$exists": true}}),
        ValuePred::Mod { divisor, remainder } => (
            Pred::Mod(*divisor, *remainder),
            doc! {path: {"$mod": [*divisor, *remainder]}},
        ),
        ValuePred::Regex(r) => {
            let mut d = doc! {"$regex": r.pattern.clone()};
            if !r.options.is_empty() {
                d.insert("$options", r.options.clone());
            }
            (
                Pred::Regex(r.pattern.clone(), r.options.clone()),
                doc! {path: d},
            )
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conjuncts_of(f: Document) -> Vec<Conjunct> {
        filter_conjuncts(&Filter::parse(&f).unwrap())
    }

    #[test]
    fn splits_fields_operators_and_nested_and() {
        let c = conjuncts_of(
            doc! {"a": 1, "b": {"$gt": 1, "$lt": 5}, "$and": [{"c": {"$in": [3, 1]}}], "$or": [{"d": 1}, {"f": 2}], "e": {"$regex": "^x", "$options": "i"}},
        );
        let preds: Vec<&Pred> = c.iter().map(|c| &c.pred).collect();
        assert_eq!(preds.len(), 6);
        assert!(preds.contains(&&Pred::Eq(Bson::Int32(1))));
        assert!(preds.contains(&&Pred::Cmp(CmpOp::Gt, Bson::Int32(1))));
        assert!(preds.contains(&&Pred::Cmp(CmpOp::Lt, Bson::Int32(5))));
        assert!(preds.contains(&&Pred::Regex("^x".into(), "i".into())));
        assert!(c.iter().any(|c| c.doc == doc! {"c": {"$in": [1, 3]}}));
        let or = c.iter().find(|c| c.path.is_none()).unwrap();
        assert_eq!(or.pred, Pred::Other);
        assert_eq!(or_branches(or).map(|b| b.len()), Some(2));
    }

    #[test]
    fn explain_forms_are_the_parsed_ones() {
        let c = conjuncts_of(doc! {"a": {"$ne": 1}, "b": {"$exists": true}});
        assert_eq!(c[0].doc, doc! {"a": {"$not": {"$eq": 1}}});
        assert_eq!(c[0].path.as_deref(), Some("a"));
        assert_eq!(c[1].pred, Pred::Exists(true));
        assert!(conjuncts_of(doc! {}).is_empty());
    }

    #[test]
    fn each_clause_evaluates_alone() {
        let c = conjuncts_of(doc! {"a": 1, "b": {"$gt": 2}});
        let b_only = Filter::all_of(c.iter().skip(1).map(|c| &c.clause));
        assert!(b_only.matches(&doc! {"a": 7, "b": 3}));
        assert!(!b_only.matches(&doc! {"a": 1, "b": 2}));
        assert!(Filter::all_of([]).matches(&doc! {"x": 1}));
    }
}
