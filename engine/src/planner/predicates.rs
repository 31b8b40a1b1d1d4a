//! The filter as the planner sees it: a list of conjuncts (the top-level AND, with nested `$and`
//! flattened and each field's operators split apart), each either an indexable predicate on one
//! path or an opaque clause. The parsed [`crate::matcher::Filter`] still decides matches; this
//! view only chooses index bounds and says which clauses an index answers exactly.

use bson::{Bson, Document, doc};

use crate::error::Result;
use crate::matcher::Filter;

/// A comparison operator with an index range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmpOp {
    Gt,
    Gte,
    Lt,
    Lte,
}

/// One predicate on a path.
#[derive(Debug, Clone, PartialEq)]
pub enum Pred {
    Eq(Bson),
    Cmp(CmpOp, Bson),
    In(Vec<Bson>),
    Exists(bool),
    Regex(String, String),
    /// Anything an index cannot answer (`$ne`, `$elemMatch`, `$or`, `$expr`...).
    Other,
}

/// One clause of the top-level AND.
#[derive(Debug, Clone)]
pub struct Conjunct {
    /// The path of a field predicate; `None` for a top-level operator clause.
    pub path: Option<String>,
    pub pred: Pred,
    /// The clause as MongoDB prints it in explain (`{price: {$gt: 65}}`, `{a: {$eq: 1}}`).
    pub doc: Document,
}

/// Splits a (valid) filter document into conjuncts.
pub fn conjuncts(filter: &Document) -> Vec<Conjunct> {
    let mut out = Vec::new();
    split(filter, &mut out);
    out
}

fn split(filter: &Document, out: &mut Vec<Conjunct>) {
    for (k, v) in filter {
        if k == "$and"
            && let Bson::Array(items) = v
        {
            for item in items {
                if let Bson::Document(d) = item {
                    split(d, out);
                }
            }
            continue;
        }
        if k == "$comment" {
            continue;
        }
        if k.starts_with('$') {
            let raw = doc! {k.clone(): v.clone()};
            // Explain prints the clause as parsed (`{$or: [{a: {$eq: 1}}, ...]}`).
            let doc = Filter::parse(&raw)
                .map(|f| f.parsed_query())
                .ok()
                .filter(|d| !d.is_empty())
                .unwrap_or(raw);
            out.push(Conjunct {
                path: None,
                pred: Pred::Other,
                doc,
            });
            continue;
        }
        match v {
            Bson::Document(ops) if ops.keys().next().is_some_and(|o| o.starts_with('$')) => {
                split_operators(k, ops, out)
            }
            Bson::RegularExpression(r) => out.push(Conjunct {
                path: Some(k.clone()),
                pred: Pred::Regex(r.pattern.to_string(), r.options.to_string()),
                doc: doc! {k.clone(): {"$regex": r.pattern.to_string()}},
            }),
            other => out.push(Conjunct {
                path: Some(k.clone()),
                pred: Pred::Eq(other.clone()),
                doc: doc! {k.clone(): {"$eq": other.clone()}},
            }),
        }
    }
}

fn split_operators(path: &str, ops: &Document, out: &mut Vec<Conjunct>) {
    let options = match ops.get("$options") {
        Some(Bson::String(o)) => o.clone(),
        _ => String::new(),
    };
    for (op, operand) in ops {
        let field = |pred: Pred, op: &str, operand: Bson| Conjunct {
            path: Some(path.to_string()),
            pred,
            doc: doc! {path: {op: operand}},
        };
        let c = match (op.as_str(), operand) {
            ("$eq", v) => field(Pred::Eq(v.clone()), "$eq", v.clone()),
            ("$gt", v) => field(Pred::Cmp(CmpOp::Gt, v.clone()), "$gt", v.clone()),
            ("$gte", v) => field(Pred::Cmp(CmpOp::Gte, v.clone()), "$gte", v.clone()),
            ("$lt", v) => field(Pred::Cmp(CmpOp::Lt, v.clone()), "$lt", v.clone()),
            ("$lte", v) => field(Pred::Cmp(CmpOp::Lte, v.clone()), "$lte", v.clone()),
            ("$in", Bson::Array(items)) => {
                let mut sorted = items.clone();
                sorted.sort_by(crate::value::compare_values_simple);
                sorted.dedup_by(|a, b| crate::value::compare_values_simple(a, b).is_eq() && a == b);
                field(Pred::In(items.clone()), "$in", Bson::Array(sorted))
            }
            ("$exists", v) => {
                let truth = match v {
                    Bson::Boolean(b) => *b,
                    Bson::Null | Bson::Undefined => false,
                    other => crate::query::as_i64(other).is_none_or(|n| n != 0),
                };
                field(Pred::Exists(truth), "$exists", Bson::Boolean(truth))
            }
            ("$regex", v) => {
                let (pattern, opts) = match v {
                    Bson::String(s) => (s.clone(), options.clone()),
                    Bson::RegularExpression(r) => (
                        r.pattern.to_string(),
                        if options.is_empty() {
                            r.options.to_string()
                        } else {
                            options.clone()
                        },
                    ),
                    _ => (String::new(), String::new()),
                };
                let mut d = doc! {"$regex": pattern.clone()};
                if !opts.is_empty() {
                    d.insert("$options", opts.clone());
                }
                Conjunct {
                    path: Some(path.to_string()),
                    pred: Pred::Regex(pattern, opts),
                    doc: doc! {path: d},
                }
            }
            ("$options", _) => continue,
            (_, v) => Conjunct {
                path: Some(path.to_string()),
                pred: Pred::Other,
                doc: doc! {path: {op.clone(): v.clone()}},
            },
        };
        out.push(c);
    }
}

/// The explain form of a list of conjuncts: one clause alone, or `{$and: [...]}`.
pub fn as_document(parts: &[&Conjunct]) -> Option<Document> {
    match parts {
        [] => None,
        [one] => Some(one.doc.clone()),
        many => Some(
            doc! {"$and": many.iter().map(|c| Bson::Document(c.doc.clone())).collect::<Vec<_>>()},
        ),
    }
}

/// A filter for the conjuncts an index did not answer, with its explain form.
#[derive(Debug, Clone)]
pub struct Residual {
    pub doc: Document,
    pub filter: Filter,
}

/// Builds the residual filter of the given conjuncts (`None` when there are none). `full` is
/// the whole parsed filter: it is used as is when the residual is the whole filter or holds a
/// top-level clause (`$expr` may refer to the command's `let` variables, known only to it).
pub fn residual(parts: &[&Conjunct], all: usize, full: &Filter) -> Result<Option<Residual>> {
    let Some(doc) = as_document(parts) else {
        return Ok(None);
    };
    let filter = if parts.len() == all || parts.iter().any(|c| c.path.is_none()) {
        full.clone()
    } else {
        Filter::parse(&doc)?
    };
    Ok(Some(Residual { doc, filter }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_fields_operators_and_nested_and() {
        let f = doc! {"a": 1, "b": {"$gt": 1, "$lt": 5}, "$and": [{"c": {"$in": [3, 1]}}], "$or": [{"d": 1}], "e": {"$regex": "^x", "$options": "i"}};
        let c = conjuncts(&f);
        let preds: Vec<&Pred> = c.iter().map(|c| &c.pred).collect();
        assert_eq!(preds[0], &Pred::Eq(Bson::Int32(1)));
        assert_eq!(preds[1], &Pred::Cmp(CmpOp::Gt, Bson::Int32(1)));
        assert_eq!(preds[2], &Pred::Cmp(CmpOp::Lt, Bson::Int32(5)));
        assert_eq!(c[3].doc, doc! {"c": {"$in": [1, 3]}});
        assert_eq!(preds[4], &Pred::Other);
        assert_eq!(preds[5], &Pred::Regex("^x".into(), "i".into()));
        let all: Vec<&Conjunct> = c.iter().collect();
        let r = residual(&all[1..], all.len(), &Filter::parse(&f).unwrap())
            .unwrap()
            .unwrap();
        assert!(
            r.filter
                .matches(&doc! {"a": 1, "b": 2, "c": 3, "d": 1, "e": "X"})
        );
        assert!(
            !r.filter
                .matches(&doc! {"a": 1, "b": 2, "c": 3, "d": 2, "e": "X"})
        );
    }
}
