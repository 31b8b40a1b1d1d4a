//! The typed filter tree: one variant per MongoDB match operator.

use bson::Bson;

use super::bits::BitTest;
use crate::path::FieldPath;
use crate::value::regex::QueryRegex;
use crate::value::type_set::TypeSet;

/// A node of a parsed filter.
#[derive(Debug, Clone)]
pub enum Expr {
    /// `$and` (and the implicit conjunction of a filter document's fields).
    And(Vec<Expr>),
    Or(Vec<Expr>),
    Nor(Vec<Expr>),
    /// `$not`, `$ne`, `$nin`, `$exists: false`: negation of the array-aware match.
    Not(Box<Expr>),
    /// A predicate on the values a path reaches: true when any of them satisfies it.
    Path {
        path: FieldPath,
        pred: ValuePred,
    },
    /// `$expr`.
    Expression(Box<crate::expression::Expression>),
    /// `$where`, evaluated through a [`super::WhereEvaluator`].
    Where(String),
    /// `$text`: parsed and kept for the text index to evaluate.
    Text(TextQuery),
    /// `$jsonSchema`.
    JsonSchema(Box<super::json_schema::Schema>),
    /// `{}` inside `$and`, `$alwaysTrue`.
    AlwaysTrue,
    /// `$alwaysFalse`.
    AlwaysFalse,
}

/// A predicate on one value (an element of a document or of an array).
#[derive(Debug, Clone)]
pub enum ValuePred {
    Cmp(CmpOp, Bson),
    In(InList),
    Regex(Box<QueryRegex>),
    /// `$exists: true` (`$exists: false` is a `Not` of it).
    Exists,
    Type(TypeSet),
    Mod {
        divisor: i64,
        remainder: i64,
    },
    Bits(BitTest),
    Size(i64),
    /// `$elemMatch` with a document filter: an element that is an object matches `filter`.
    ElemMatchObject(Box<Expr>),
    /// `$elemMatch` with operators: an element satisfies all of them.
    ElemMatchValue(Vec<ValuePred>),
    /// Negation on one value, inside `$elemMatch` value form.
    Not(Vec<ValuePred>),
    /// Several predicates on one value (`{$gt: 1, $lt: 5}` under `$not`).
    All(Vec<ValuePred>),
    /// `$geoWithin`, `$geoIntersects`, `$near`… (see [`crate::geo::query`]): the value at the
    /// path is read whole (a legacy pair is an array).
    Geo(Box<crate::geo::query::GeoPred>),
}

/// `$eq $lt $lte $gt $gte`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    Lt,
    Lte,
    Gt,
    Gte,
}

/// The operand of `$in`: values compared for equality and regular expressions.
#[derive(Debug, Clone, Default)]
pub struct InList {
    pub values: Vec<Bson>,
    pub regexes: Vec<QueryRegex>,
    pub has_null: bool,
}

/// A `$text` query's arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct TextQuery {
    pub search: String,
    pub language: Option<String>,
    pub case_sensitive: bool,
    pub diacritic_sensitive: bool,
}

impl ValuePred {
    /// Whether the predicate reads an array at the end of the path whole (not element by
    /// element).
    pub fn reads_whole_arrays(&self) -> bool {
        matches!(
            self,
            ValuePred::Size(_)
                | ValuePred::ElemMatchObject(_)
                | ValuePred::ElemMatchValue(_)
                | ValuePred::Geo(_)
        )
    }
}

impl Expr {
    /// Whether the tree holds a `$text` node.
    pub fn text_query(&self) -> Option<&TextQuery> {
        match self {
            Expr::Text(t) => Some(t),
            Expr::And(c) | Expr::Or(c) | Expr::Nor(c) => c.iter().find_map(Expr::text_query),
            Expr::Not(e) => e.text_query(),
            _ => None,
        }
    }

    /// The near queries (`$near`, `$nearSphere`, `$geoNear`) of the tree, with their paths and
    /// whether each sits at the top level (the root, or under top-level `$and`s only).
    pub fn near_queries(&self) -> Vec<(&FieldPath, &crate::geo::query::GeoPred, bool)> {
        fn walk<'e>(
            e: &'e Expr,
            top: bool,
            out: &mut Vec<(&'e FieldPath, &'e crate::geo::query::GeoPred, bool)>,
        ) {
            match e {
                Expr::Path {
                    path,
                    pred: ValuePred::Geo(g),
                } if g.near().is_some() => out.push((path, g, top)),
                Expr::And(c) => c.iter().for_each(|c| walk(c, top, out)),
                // A one-clause `$or` is its clause (the optimizer unwraps it).
                Expr::Or(c) if c.len() == 1 => walk(&c[0], top, out),
                Expr::Or(c) | Expr::Nor(c) => c.iter().for_each(|c| walk(c, false, out)),
                Expr::Not(inner) => walk(inner, false, out),
                _ => {}
            }
        }
        let mut out = Vec::new();
        walk(self, true, &mut out);
        out
    }

    /// Whether the tree holds a `$where` node.
    pub fn has_where(&self) -> bool {
        match self {
            Expr::Where(_) => true,
            Expr::And(c) | Expr::Or(c) | Expr::Nor(c) => c.iter().any(Expr::has_where),
            Expr::Not(e) => e.has_where(),
            _ => false,
        }
    }
}
