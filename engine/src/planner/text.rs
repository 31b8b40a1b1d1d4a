//! Planning a `$text` query, as MongoDB 8.0 does: the collection's text index answers it (error
//! 27 without one); equality predicates on the index's prefix fields choose the index prefix;
//! the other predicates stay as a filter; the `$search` string is parsed with the index's
//! default language unless `$language` names another. `$text` must appear once, at the top
//! level (under `$and` is fine) or in one branch of a top-level `$or` whose other branches can
//! each use an index (MongoDB's indexed OR: FETCH over OR over the text plan and the branches'
//! index scans; "TEXT under OR" error otherwise); never under `$nor`.

use bson::{Bson, Document};

use super::predicates::{Conjunct, Pred, Residual, as_document};
use super::{CanonicalQuery, Solution};
use crate::catalog::Collection;
use crate::error::{Error, ErrorCode, Result};
use crate::index::text::ParsedTextQuery;
use crate::matcher::Filter;

/// A text search: its index, the index prefix, the parsed query, and what else to check.
#[derive(Debug, Clone)]
pub struct TextPlan {
    pub index_name: String,
    /// The prefix values, in key order, and as explain prints them (`indexPrefix`).
    pub prefix: Vec<Bson>,
    pub prefix_doc: Document,
    pub query: ParsedTextQuery,
    /// Whether the score is projected or sorted on (TEXT_OR keeps scores; OR does not).
    pub wants_score: bool,
    /// The predicates besides `$text` and the prefix equalities.
    pub filter: Option<Residual>,
}

fn text_index_required() -> Error {
    Error::new(
        ErrorCode::IndexNotFound,
        "text index required for $text query",
    )
}

/// The access path for a find whose filter has `$text` (SORT, SKIP, LIMIT and PROJECTION are
/// added by the caller).
pub fn plan_text(coll: Option<&Collection>, q: &CanonicalQuery<'_>) -> Result<Solution> {
    let coll = coll.ok_or_else(text_index_required)?;
    let index = coll
        .indexes()
        .iter()
        .find(|i| i.spec.text.is_some() && !i.spec.hidden)
        .ok_or_else(text_index_required)?;
    let Some(text_spec) = index.spec.text.as_deref() else {
        return Err(text_index_required());
    };
    let filter = &q.spec.filter;
    match filter.text_count() {
        0 => return Err(text_index_required()),
        1 => {}
        _ => return Err(Error::bad_value("Too many text expressions")),
    }
    if filter.text_under_nor() {
        return Err(Error::bad_value("text expression not allowed in nor"));
    }
    let parts = q.conjuncts();
    let Some(text_at) = parts
        .iter()
        .position(|c| c.path.is_none() && c.doc.contains_key("$text"))
    else {
        return plan_text_under_or(coll, q, parts);
    };
    let Some(text_query) = filter.text_query() else {
        return Err(text_index_required());
    };
    let mut used = vec![text_at];
    let mut prefix = Vec::new();
    let mut prefix_doc = Document::new();
    for field in &text_spec.prefix {
        let found = parts.iter().enumerate().find(|(i, c)| {
            !used.contains(i)
                && c.path.as_deref() == Some(field.as_str())
                && matches!(&c.pred, Pred::Eq(v) if !is_operator_document(v))
        });
        let Some((
            i,
            Conjunct {
                pred: Pred::Eq(v), ..
            },
        )) = found
        else {
            return Err(Error::bad_value(
                "failed to use text index to satisfy $text query (if text index is compound, are equality predicates given for all prefix fields?)",
            ));
        };
        used.push(i);
        prefix.push(v.clone());
        prefix_doc.insert(field.clone(), v.clone());
    }
    let rest: Vec<&Conjunct> = parts
        .iter()
        .enumerate()
        .filter(|(i, _)| !used.contains(i))
        .map(|(_, c)| c)
        .collect();
    let residual = as_document(&rest).map(|doc| Residual {
        filter: Filter::all_of(rest.iter().map(|c| &c.clause)),
        doc,
    });
    let wants_score = q.spec.wants_metadata
        || q.spec.sort.as_ref().is_some_and(|s| s.needs_text_score())
        || q.spec
            .projection
            .as_ref()
            .is_some_and(|p| p.needs_text_score());
    Ok(Solution::Text(Box::new(TextPlan {
        index_name: index.name().to_string(),
        prefix,
        prefix_doc,
        query: ParsedTextQuery::parse(text_query, text_spec.default_language)?,
        wants_score,
        filter: residual,
    })))
}

fn text_under_or_unindexed() -> Error {
    Error::bad_value(
        "Failed to produce a solution for TEXT under OR - other non-TEXT clauses under OR have to be indexed as well.",
    )
}

/// `$text` in one branch of a top-level `$or`: MongoDB plans it as an indexed OR (the
/// subplanner's per-branch planning, QueryPlannerAccess::buildIndexedOr), so every other branch
/// must use an index. The text branch is planned as a text query of its own (its prefix
/// equalities and filter with it), each other branch on its first usable index; the union is
/// fetched, with the `$or`'s sibling conjuncts as the FETCH filter (they hold no `$text`).
fn plan_text_under_or(
    coll: &Collection,
    q: &CanonicalQuery<'_>,
    parts: &[Conjunct],
) -> Result<Solution> {
    let Some(super::or::ContainedOr { branches, rest }) =
        super::or::split_contained_or(parts, |b| b.iter().any(|f| f.text_query().is_some()))
    else {
        return Err(text_under_or_unindexed());
    };
    let mut chosen = Vec::with_capacity(branches.len());
    for branch in &branches {
        if branch.text_query().is_some() {
            // The branch's own text plan keeps the find's sort and projection, so that it
            // keeps scores when they are asked for.
            let spec = crate::query::FindSpec {
                sort: q.spec.sort.clone(),
                projection: q.spec.projection.clone(),
                wants_metadata: q.spec.wants_metadata,
                ..crate::query::FindSpec::of_filter(branch.clone())
            };
            let branch_query = CanonicalQuery::new(&spec);
            if branch_query
                .conjuncts()
                .iter()
                .all(|c| !c.doc.contains_key("$text"))
            {
                // `$text` deeper still (an `$or` in the branch): not planned by MongoDB either.
                return Err(text_under_or_unindexed());
            }
            chosen.push(super::or::BranchPlan {
                solution: plan_text(Some(coll), &branch_query)?,
                sort_dir: None,
            });
            continue;
        }
        match super::or::branch_candidates(coll, branch, q)? {
            Some(mut plans) => chosen.push(plans.remove(0)),
            None => return Err(text_under_or_unindexed()),
        }
    }
    let fetch_filter = as_document(&rest).map(|doc| Residual {
        filter: Filter::all_of(rest.iter().map(|c| &c.clause)),
        doc,
    });
    Ok(super::or::union(q, chosen, fetch_filter).0)
}

fn is_operator_document(v: &Bson) -> bool {
    matches!(v, Bson::Document(d) if d.keys().next().is_some_and(|k| k.starts_with('$')))
}
