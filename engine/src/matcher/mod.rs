//! The query matcher: a filter document is parsed once into a typed [`Filter`] tree (with
//! MongoDB's error codes for malformed filters) and then evaluated against many documents.
//!
//! Files by job: `parse.rs` (the one parser), `expr.rs` (one variant per operator), `eval.rs`
//! (evaluation, with the elemMatchKey), `raw.rs` (evaluation from a stored document's BSON
//! bytes, for scans), and one file per operand family:
//! `bits.rs`, `json_schema.rs` (regular expressions and `$type` sets are values: `crate::value`).
//!
//! Semantics follow MongoDB 8.0: a predicate on a path matches when any value the path reaches
//! satisfies it (see [`crate::path`]); `{a: null}` matches a missing `a`; `$ne`, `$nin` and
//! `$not` negate the whole array-aware match; comparisons never match across canonical types
//! (numbers of every type compare with each other).

mod bits;
mod eval;
pub(crate) mod expr;
pub(crate) mod json_schema;
mod parse;
pub(crate) mod raw;
pub(crate) use parse::{is_operator_document, is_path_accepting};
pub(crate) mod serialize;
mod text;

#[cfg(test)]
mod bad_input_tests;
#[cfg(test)]
mod robustness_tests;
#[cfg(test)]
mod tests;

use bson::{Bson, Document};

use crate::error::Result;
pub use crate::value::regex::QueryRegex;
pub use crate::value::type_set::{TypeSet, type_code};
pub use expr::TextQuery;

/// Evaluates `$where` JavaScript. The shell implements it with its JavaScript engine; the engine
/// itself runs no JavaScript.
pub trait WhereEvaluator {
    /// Runs `code` (a function body or a function expression) with `this` and `obj` bound to
    /// `doc`, and returns the truth of its result.
    fn evaluate(&self, code: &str, doc: &Document) -> Result<bool>;
}

/// What a command may need besides its documents: the JavaScript evaluators, when there are
/// some (`$where`'s, and mapReduce's map, reduce and finalize functions).
#[derive(Default, Clone, Copy)]
pub struct MatchContext<'a> {
    pub where_evaluator: Option<&'a dyn WhereEvaluator>,
    pub map_reduce: Option<&'a dyn crate::javascript::MapReduceEvaluator>,
    /// The metadata of the document being matched, which `$expr` reads with `{$meta: …}`
    /// (a pipeline's `$match` over documents a `$text` or near search scored).
    pub meta: Option<&'a crate::expression::DocumentMeta>,
}

impl<'a> MatchContext<'a> {
    /// The same context matching a document that carries `meta`.
    pub fn with_meta<'b>(
        &self,
        meta: Option<&'b crate::expression::DocumentMeta>,
    ) -> MatchContext<'b>
    where
        'a: 'b,
    {
        MatchContext {
            where_evaluator: self.where_evaluator,
            map_reduce: self.map_reduce,
            meta,
        }
    }
}

impl std::fmt::Debug for MatchContext<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MatchContext")
            .field("where_evaluator", &self.where_evaluator.is_some())
            .field("map_reduce", &self.map_reduce.is_some())
            .finish()
    }
}

/// Refuses the features a match parsing without them refuses: `$text` and `$where` (MongoDB's
/// parseText and parseWhere without kText and kJavascript, expression_parser.cpp: BadValue
/// "... is not allowed in this context"), and `$expr` too when `expr` is set (QueryFeatureNotAllowed),
/// at the top level or under `$and`/`$or`/`$nor`. MongoDB's default parsing
/// (`kDefaultSpecialFeatures`: `$expr` and `$jsonSchema` only) refuses the first two, as for
/// `$graphLookup`'s `restrictSearchWithMatch`; `kBanAllSpecialFeatures` (`$pull`, array filters,
/// jstests/core/update_arrayFilters.js) all three.
pub fn ban_features(query: &Document, expr: bool) -> crate::error::Result<()> {
    for (key, value) in query {
        match (key.as_str(), value) {
            ("$expr", _) if expr => {
                return Err(crate::error::Error::new(
                    crate::error::ErrorCode::QueryFeatureNotAllowed,
                    "$expr is not allowed in this context",
                ));
            }
            ("$text" | "$where", _) => {
                return Err(crate::error::Error::bad_value(format!(
                    "{key} is not allowed in this context"
                )));
            }
            ("$and" | "$or" | "$nor", bson::Bson::Array(clauses)) => {
                for clause in clauses {
                    if let bson::Bson::Document(d) = clause {
                        ban_features(d, expr)?;
                    }
                }
            }
            // Near queries are a special feature too (MatchExpressionParser's kGeoNear).
            (_, bson::Bson::Document(ops))
                if ops
                    .keys()
                    .any(|k| matches!(k.as_str(), "$near" | "$nearSphere" | "$geoNear")) =>
            {
                return Err(crate::error::Error::bad_value(
                    "$geoNear, $near, and $nearSphere are not allowed in this context",
                ));
            }
            (_, bson::Bson::Document(ops)) => {
                if let Some(bson::Bson::Document(inner)) = ops.get("$elemMatch") {
                    ban_features(inner, expr)?;
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// The outcome of a match with MongoDB's match details.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchDetails {
    pub matched: bool,
    /// MongoDB's "elemMatchKey": the position, in the first array the query path traversed, of
    /// the element that made the document match. The positional `$` operator (update and
    /// projection) replaces itself with it.
    pub elem_match_key: Option<usize>,
}

/// The deepest nesting of documents and arrays a filter or projection may have. Parsing is
/// recursive; this bound keeps a hostile filter from exhausting the stack (a panic in wasm).
pub const MAX_NESTING: usize = 200;

/// Refuses documents nested deeper than [`MAX_NESTING`] (checked without recursion).
pub fn check_nesting(doc: &Document) -> Result<()> {
    let mut stack: Vec<(&Bson, usize)> = doc.values().map(|v| (v, 1)).collect();
    while let Some((v, depth)) = stack.pop() {
        if depth > MAX_NESTING {
            return Err(crate::error::Error::bad_value(format!(
                "exceeded maximum query tree depth of {MAX_NESTING}"
            )));
        }
        match v {
            Bson::Document(d) => stack.extend(d.values().map(|x| (x, depth + 1))),
            Bson::Array(a) => stack.extend(a.iter().map(|x| (x, depth + 1))),
            _ => {}
        }
    }
    Ok(())
}

/// A parsed `$elemMatch` operand (value or document form), for the `$elemMatch` projection.
#[derive(Debug, Clone)]
pub struct ElemMatch(expr::ValuePred);

impl ElemMatch {
    /// Parses the operand of `$elemMatch` as the matcher does.
    pub fn parse(operand: &Bson) -> Result<ElemMatch> {
        Ok(ElemMatch(parse::parse_elem_match(operand)?))
    }

    /// The position of the first element of `array` that matches (`None` for a non-array).
    pub fn first_match(&self, array: &Bson) -> Option<usize> {
        self.0.elem_match_position(array)
    }
}

/// A parsed filter.
#[derive(Debug, Clone)]
pub struct Filter {
    root: expr::Expr,
}

/// A filter's clauses on top-level fields ([`Filter::column_clauses`]).
pub struct ColumnClauses<'f> {
    clauses: Vec<(&'f str, &'f expr::ValuePred)>,
}

impl ColumnClauses<'_> {
    /// The fields, one per clause, in the order the clauses are decided.
    pub fn names(&self) -> Vec<&str> {
        self.clauses.iter().map(|(n, _)| *n).collect()
    }

    /// The `i`-th clause's decision for each of a column's distinct values (type byte and
    /// value bytes; `None`: the field is missing): `None` where the document must be read.
    pub fn table(
        &self,
        i: usize,
        values: &mut dyn Iterator<Item = Option<(u8, &[u8])>>,
    ) -> Vec<Option<bool>> {
        raw::clause_table(self.clauses[i].1, values)
    }
}

impl Filter {
    /// Parses a filter document such as `{price: {$gt: 10}, "address.state": "NY"}`.
    pub fn parse(filter: &Document) -> Result<Filter> {
        Filter::parse_in(filter, &crate::expression::Scope::default())
    }

    /// Parses a filter with a command's `let` variables (`$$name` in `$expr`).
    pub fn parse_with_let(filter: &Document, let_vars: Option<&Document>) -> Result<Filter> {
        let scope = match let_vars {
            Some(l) => crate::expression::Scope::from_let(l)?,
            None => crate::expression::Scope::default(),
        };
        Filter::parse_in(filter, &scope)
    }

    /// Parses a filter in an expression scope (for callers that bind variables).
    pub fn parse_in(filter: &Document, scope: &crate::expression::Scope) -> Result<Filter> {
        check_nesting(filter)?;
        Ok(Filter {
            root: parse::parse_filter_in(filter, parse::Level::TopLevel, scope)?,
        })
    }

    /// A filter made of an already parsed tree (a clause of the canonical query's conjunction).
    pub(crate) fn from_expr(root: expr::Expr) -> Filter {
        Filter { root }
    }

    /// The conjunction of already parsed clauses (one clause is itself; none matches all).
    pub(crate) fn all_of<'f>(clauses: impl IntoIterator<Item = &'f Filter>) -> Filter {
        let mut roots: Vec<expr::Expr> = clauses.into_iter().map(|f| f.root.clone()).collect();
        match roots.len() {
            0 => Filter::all(),
            1 => Filter::from_expr(roots.remove(0)),
            _ => Filter::from_expr(expr::Expr::And(roots)),
        }
    }

    /// The parsed tree, for the canonical query (`crate::query::canonical`), which reads it to
    /// split the top-level conjunction for the planner.
    pub(crate) fn root(&self) -> &expr::Expr {
        &self.root
    }

    /// The filter that matches every document (`{}`).
    pub fn all() -> Filter {
        Filter {
            root: expr::Expr::AlwaysTrue,
        }
    }

    /// Whether the document matches. A filter that cannot be evaluated here (`$where` without
    /// an evaluator, `$text`, an `$expr` that fails) matches nothing; use [`Filter::matches_with`]
    /// to see the error.
    pub fn matches(&self, doc: &Document) -> bool {
        self.matches_with(doc, &MatchContext::default())
            .unwrap_or(false)
    }

    /// Whether the document matches, with the errors evaluation can raise (`$expr` runtime
    /// errors; `$where` with no evaluator; `$text` with no text index, code 27).
    pub fn matches_with(&self, doc: &Document, ctx: &MatchContext<'_>) -> Result<bool> {
        eval::eval(&self.root, doc, ctx, &mut None)
    }

    /// Whether [`Filter::matches_raw`] can answer for this filter (only paths of one field,
    /// combined by `$and`, `$or`, `$nor` and `$not`; no `$expr`, `$where`, `$text` or
    /// `$jsonSchema`).
    pub fn raw_capable(&self) -> bool {
        raw::raw_capable(&self.root)
    }

    /// The top-level fields a filter reads when [`Filter::raw_capable`] holds (`None`
    /// otherwise): what a find checks against the indexes before it plans a collection scan
    /// that answers from stored bytes (`commands::find`).
    pub fn raw_field_names(&self) -> Option<Vec<&str>> {
        if !self.raw_capable() {
            return None;
        }
        let mut out = Vec::new();
        raw::field_names(&self.root, &mut out);
        Some(out)
    }

    /// Whether a document matches, read from its BSON bytes: `None` when the bytes cannot say
    /// (a path reaches an array or an embedded document), and then [`Filter::matches_with`] on
    /// the document answers. For a scan over stored documents (`catalog::Collection::raw`).
    pub fn matches_raw(&self, doc: &[u8]) -> Option<bool> {
        raw::eval_raw(&self.root, doc)
    }

    /// For a filter that is a conjunction of predicates on top-level fields (or one): the
    /// fields, and for each a table deciding its clause from a column's distinct values
    /// (`catalog::scan_columns`) as [`Filter::matches_raw`] decides it from the bytes (`None`
    /// in a table: read the document). `None` for other filters.
    pub fn column_clauses(&self) -> Option<ColumnClauses<'_>> {
        raw::top_level_clauses(&self.root).map(|clauses| ColumnClauses { clauses })
    }

    /// Matches and reports the elemMatchKey (see [`MatchDetails`]).
    pub fn match_details(&self, doc: &Document, ctx: &MatchContext<'_>) -> Result<MatchDetails> {
        let mut key = None;
        let matched = eval::eval(&self.root, doc, ctx, &mut key)?;
        Ok(MatchDetails {
            matched,
            elem_match_key: if matched { key } else { None },
        })
    }

    /// For the positional `$` operator: when the document matches, the position of the array
    /// element that made it match, in the first array along the matched path (MongoDB's
    /// elemMatchKey). `None` when the document does not match or no array was traversed.
    ///
    /// `{"grades": {$gte: 90}}` against `{grades: [80, 95]}` gives `Some(1)`;
    /// `{"items.qty": 5}` against `{items: [{qty: 1}, {qty: 5}]}` gives `Some(1)`.
    pub fn first_array_position(&self, doc: &Document) -> Option<usize> {
        self.match_details(doc, &MatchContext::default())
            .ok()
            .and_then(|d| d.elem_match_key)
    }

    /// The `$text` query, if the filter has one (the text index evaluates it).
    pub fn text_query(&self) -> Option<&TextQuery> {
        self.root.text_query()
    }

    /// How many `$text` expressions the filter has.
    pub fn text_count(&self) -> usize {
        self.root.text_count()
    }

    /// Whether a `$text` expression sits under `$nor` (which MongoDB refuses).
    pub fn text_under_nor(&self) -> bool {
        self.root.text_under_nor()
    }

    /// The filter as MongoDB's explain prints it (`parsedQuery`).
    pub fn parsed_query(&self) -> Document {
        match &self.root {
            expr::Expr::AlwaysTrue => Document::new(),
            root => serialize::serialize(root),
        }
    }

    /// Whether the filter uses `$where` (and so needs a [`WhereEvaluator`]).
    pub fn has_where(&self) -> bool {
        self.root.has_where()
    }

    /// Whether the filter has a near query (`$near`, `$nearSphere`, `$geoNear`) anywhere.
    pub fn has_near(&self) -> bool {
        !self.root.near_queries().is_empty()
    }
}
