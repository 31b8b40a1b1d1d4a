//! Executes a find over a collection (a collection scan; the planner issue adds index access).

use bson::Document;

use crate::catalog::Collection;
use crate::error::{Error, ErrorCode, Result};
use crate::expression::Scope;
use crate::matcher::{Filter, MatchContext};
use crate::projection::{Projection, ProjectionInput};

use crate::sort::SortSpec;

/// A parsed find: everything needed to produce its result set. The one place a find's filter,
/// sort and projection are parsed and checked against each other.
#[derive(Debug, Clone)]
pub struct FindSpec {
    pub filter: Filter,
    pub sort: Option<SortSpec>,
    pub skip: usize,
    /// `None` or 0 means no limit.
    pub limit: Option<usize>,
    pub projection: Option<Projection>,
    /// `min()`/`max()`: index key bounds (inclusive/exclusive) on the hinted index.
    pub min: Option<Document>,
    pub max: Option<Document>,
    /// The find command's `allowDiskUse` (MongoDB 8.0's default is true). Sprout cannot spill
    /// a blocking sort to disk either way; it decides the sort's error message.
    pub allow_disk_use: bool,
    /// `showRecordId`: each result carries its record id as `$recordId` (a long).
    pub show_record_id: bool,
    /// `returnKey`: each result is the index key it was found through (`{}` without one),
    /// field by key-pattern field; the projection is not applied.
    pub return_key: bool,
    /// Whether each result's metadata is kept for the caller (a pipeline that reads
    /// `{$meta: "textScore"}` or a near search's distance after the find): the text plan then
    /// scores, and the execution hands the metadata on (`Execution::meta`).
    pub wants_metadata: bool,
}

impl FindSpec {
    /// A find with only a filter (no sort, skip, limit, projection or key bounds).
    pub fn of_filter(filter: Filter) -> FindSpec {
        FindSpec {
            filter,
            sort: None,
            skip: 0,
            limit: None,
            projection: None,
            min: None,
            max: None,
            allow_disk_use: true,
            show_record_id: false,
            return_key: false,
            wants_metadata: false,
        }
    }

    pub fn parse(
        filter: Option<&Document>,
        sort: Option<&Document>,
        projection: Option<&Document>,
        skip: Option<i64>,
        limit: Option<i64>,
    ) -> Result<Self> {
        FindSpec::parse_with_let(filter, sort, projection, skip, limit, None)
    }

    /// Parses a find with the command's `let` variables (`$$name` in `$expr` and computed
    /// projection fields).
    pub fn parse_with_let(
        filter: Option<&Document>,
        sort: Option<&Document>,
        projection: Option<&Document>,
        skip: Option<i64>,
        limit: Option<i64>,
        let_vars: Option<&Document>,
    ) -> Result<Self> {
        let scope = match let_vars {
            Some(l) => Scope::from_let(l)?,
            None => Scope::default(),
        };
        FindSpec::parse_in(filter, sort, projection, skip, limit, &scope)
    }

    /// [`FindSpec::parse_with_let`] in a command's evaluation context: the `let` values and
    /// `$$NOW`/`$$CLUSTER_TIME` are the command's.
    pub fn parse_with_let_in(
        filter: Option<&Document>,
        sort: Option<&Document>,
        projection: Option<&Document>,
        skip: Option<i64>,
        limit: Option<i64>,
        let_vars: Option<&Document>,
        context: &crate::expression::EvalContext,
    ) -> Result<Self> {
        let scope = match let_vars {
            Some(l) => Scope::from_let_in(l, context)?,
            None => Scope::default(),
        };
        let scope = scope.with_clock(context)?;
        FindSpec::parse_in(filter, sort, projection, skip, limit, &scope)
    }

    /// Parses a find in an expression scope the caller has built (a command's `let` values
    /// already evaluated): the update and aggregate commands, whose other arguments share it.
    pub fn parse_in(
        filter: Option<&Document>,
        sort: Option<&Document>,
        projection: Option<&Document>,
        skip: Option<i64>,
        limit: Option<i64>,
        scope: &Scope,
    ) -> Result<Self> {
        let scope = scope.clone();
        let filter_doc = filter;
        let filter = match filter {
            Some(f) => Filter::parse_in(f, &scope)?,
            None => Filter::all(),
        };
        let sort = match sort {
            Some(s) if !s.is_empty() => Some(SortSpec::parse(s)?),
            _ => None,
        };
        let projection = match projection {
            Some(p) => Projection::parse_in(p, &scope)?,
            None => None,
        };
        // MongoDB 8.0's projection parser re-parses the query of a positional projection with
        // every special feature banned (parseInclusion: MatchExpressionParser::parse(queryObj, …,
        // kBanAllSpecialFeatures), projection_parser.cpp), so `$where` or `$expr` beside `a.$`
        // fails ("$where is not allowed in this context"; jstests/core/where1.js, SERVER-12117).
        if let (Some(f), Some(p)) = (filter_doc, &projection)
            && p.needs_elem_match_key()
        {
            crate::matcher::ban_features(f, true)?;
        }
        let has_text = filter.text_query().is_some();
        let wants_score = sort.as_ref().is_some_and(SortSpec::needs_text_score)
            || projection
                .as_ref()
                .is_some_and(Projection::needs_text_score);
        if wants_score && !has_text {
            return Err(Error::location(
                40218,
                "query requires text score metadata, but it is not available",
            ));
        }
        // A near search's distance and point exist only under `$near`/`$nearSphere`
        // (DepsTracker::kDefaultUnavailableMetadata: 40218 as for the text score).
        if let Some(p) = &projection
            && p.needs_geo_near()
            && !filter.has_near()
        {
            let field = if p.needs_geo_near_distance() {
                crate::expression::MetaField::GeoNearDistance
            } else {
                crate::expression::MetaField::GeoNearPoint
            };
            return Err(field.unavailable_error());
        }
        // MongoDB 8.0's canonical_query.cpp: the sort key metadata exists only under a sort.
        if sort.is_none() && projection.as_ref().is_some_and(Projection::needs_sort_key) {
            return Err(Error::bad_value(
                "cannot use sortKey $meta projection without a sort",
            ));
        }
        Ok(FindSpec {
            filter,
            sort,
            skip: skip.unwrap_or(0).max(0) as usize,
            limit: limit.filter(|l| *l != 0).map(|l| l.unsigned_abs() as usize),
            projection,
            min: None,
            max: None,
            allow_disk_use: true,
            show_record_id: false,
            return_key: false,
            wants_metadata: false,
        })
    }

    /// Applies the projection (if any) to a document the filter matched.
    pub fn project(&self, doc: &Document, ctx: &MatchContext<'_>) -> Result<Document> {
        self.project_scored(doc, ctx, None, None)
    }

    /// Applies the projection with the text score a `$text` plan computed for the document.
    pub fn project_scored(
        &self,
        doc: &Document,
        ctx: &MatchContext<'_>,
        text_score: Option<f64>,
        geo_near: Option<&(f64, bson::Bson)>,
    ) -> Result<Document> {
        let Some(p) = &self.projection else {
            return Ok(doc.clone());
        };
        let elem_match_key = if p.needs_elem_match_key() {
            self.filter.match_details(doc, ctx)?.elem_match_key
        } else {
            None
        };
        let sort_key = match &self.sort {
            Some(sort) if p.needs_sort_key() => Some(sort.meta_sort_key(doc, text_score)),
            _ => None,
        };
        p.apply(
            doc,
            &ProjectionInput {
                elem_match_key,
                text_score,
                geo_near,
                sort_key,
                ..ProjectionInput::default()
            },
        )
    }
}

/// Runs the find and returns its documents in result order (with no `$where` evaluator).
pub fn run_find(coll: Option<&Collection>, spec: &FindSpec) -> Result<Vec<Document>> {
    run_find_with(coll, spec, &MatchContext::default())
}

/// Runs the find with a match context (the shell's `$where` evaluator).
pub fn run_find_with(
    coll: Option<&Collection>,
    spec: &FindSpec,
    ctx: &MatchContext<'_>,
) -> Result<Vec<Document>> {
    let Some(coll) = coll else {
        return Ok(Vec::new());
    };
    if spec.filter.text_query().is_some() {
        // No collection has a text index yet.
        return Err(Error::new(
            ErrorCode::IndexNotFound,
            "text index required for $text query",
        ));
    }
    let mut matched: Vec<&Document> = Vec::new();
    for (_, d) in coll.iter() {
        if spec.filter.matches_with(d, ctx)? {
            matched.push(d);
        }
    }
    if let Some(sort) = &spec.sort {
        sort.sort(&mut matched);
    }
    let take = spec.limit.unwrap_or(usize::MAX);
    matched
        .into_iter()
        .skip(spec.skip)
        .take(take)
        .map(|d| spec.project(d, ctx))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Engine;
    use bson::doc;

    fn find(e: &mut Engine, cmd: Document) -> Document {
        e.run_command("t", &cmd)
    }

    fn batch(reply: &Document) -> Vec<Document> {
        reply
            .get_document("cursor")
            .and_then(|c| c.get_array("firstBatch"))
            .map(|a| a.iter().filter_map(|b| b.as_document().cloned()).collect())
            .unwrap_or_default()
    }

    #[test]
    fn projection_sort_and_positional_through_the_command() {
        let mut e = Engine::new();
        e.run_command(
            "t",
            &doc! {"insert": "c", "documents": [
                {"_id": 1, "name": "a", "grades": [70, 95], "q": 3},
                {"_id": 2, "name": "b", "grades": [91, 60], "q": 1},
                {"_id": 3, "name": "c", "grades": [10], "q": 2},
            ]},
        );
        let r = find(
            &mut e,
            doc! {"find": "c", "filter": {"grades": {"$gt": 90}}, "projection": {"grades.$": 1, "_id": 0}, "sort": {"q": 1}},
        );
        assert_eq!(
            batch(&r),
            vec![doc! {"grades": [91]}, doc! {"grades": [95]}]
        );
        let r = find(
            &mut e,
            doc! {"find": "c", "projection": {"name": 1, "twice": {"$multiply": ["$q", 2]}}, "sort": {"grades": -1}},
        );
        assert_eq!(
            batch(&r),
            vec![
                doc! {"_id": 1, "name": "a", "twice": 6},
                doc! {"_id": 2, "name": "b", "twice": 2},
                doc! {"_id": 3, "name": "c", "twice": 4},
            ]
        );
    }

    #[test]
    fn positional_projection_refuses_where_and_expr_in_the_query() {
        let proj = doc! {"a.$": 1};
        let err = |filter: Document| {
            FindSpec::parse_in(
                Some(&filter),
                None,
                Some(&proj),
                None,
                None,
                &Scope::default(),
            )
            .err()
            .map(|e| (e.code(), e.message))
        };
        assert_eq!(
            err(doc! {"$where": "return this.a;"}),
            Some((2, "$where is not allowed in this context".to_string()))
        );
        assert_eq!(
            err(doc! {"a": 1, "$expr": {"$eq": ["$a", 1]}}).map(|e| e.0),
            Some(224)
        );
        assert!(err(doc! {"a": 1}).is_none());
        assert!(err(doc! {"$or": [{"a": 1}, {"b": 2}]}).is_none());
        // Without a positional projection `$where` is a query like any other.
        assert!(
            FindSpec::parse_in(
                Some(&doc! {"$where": "return this.a;"}),
                None,
                Some(&doc! {"a": 1}),
                None,
                None,
                &Scope::default()
            )
            .is_ok()
        );
    }

    #[test]
    fn let_variables_reach_expr_and_projection() {
        let spec = FindSpec::parse_with_let(
            Some(&doc! {"$expr": {"$eq": ["$_id", "$$id"]}}),
            None,
            Some(&doc! {"tag": "$$label"}),
            None,
            None,
            Some(&doc! {"id": 1, "label": "one"}),
        )
        .unwrap();
        assert!(spec.filter.matches(&doc! {"_id": 1}));
        assert!(!spec.filter.matches(&doc! {"_id": 2}));
        let out = spec
            .project(&doc! {"_id": 1}, &MatchContext::default())
            .unwrap();
        assert_eq!(out, doc! {"_id": 1, "tag": "one"});
    }

    #[test]
    fn runtime_errors_surface_as_command_errors() {
        let mut e = Engine::new();
        e.run_command(
            "t",
            &doc! {"insert": "c", "documents": [{"_id": 1, "a": "x"}]},
        );
        let r = find(
            &mut e,
            doc! {"find": "c", "filter": {"$text": {"$search": "x"}}},
        );
        assert_eq!(r.get_i32("code").unwrap(), 27);
        let r = find(&mut e, doc! {"find": "c", "filter": {"$where": "true"}});
        assert_eq!(r.get_i32("code").unwrap(), 2);
        let r = find(
            &mut e,
            doc! {"find": "c", "filter": {"$expr": {"$add": ["$a", 1]}}},
        );
        assert_eq!(r.get_i32("code").unwrap(), 14);
        let r = find(
            &mut e,
            doc! {"find": "c", "sort": {"s": {"$meta": "textScore"}}},
        );
        assert_eq!(r.get_i32("code").unwrap(), 40218);
    }
}

/// The records a find selects, in result order, and their metadata when it `wants_metadata`:
/// what a pipeline stage reads a collection through (`RunContext::find_records`).
#[derive(Debug, Clone, Default)]
pub struct FoundRecords {
    pub ids: Vec<u64>,
    pub meta: Option<Vec<crate::expression::DocumentMeta>>,
}
