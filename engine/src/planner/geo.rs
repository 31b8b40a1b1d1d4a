//! Planning geospatial queries, as MongoDB 8.0 does where it matters to a learner:
//! - a near query (`$near`, `$nearSphere`, `$geoNear`) must stand at the top level (under
//!   top-level `$and`s only), once, and needs a `2d` or `2dsphere` index on its field (else
//!   NoQueryExecutionPlans, "unable to find index for $geoNear query"); it is planned alone, as
//!   GEO_NEAR_2D or GEO_NEAR_2DSPHERE, which returns documents nearest first;
//! - `$geoWithin`/`$geoIntersects` on a geo index's leading field may use the index: an IXSCAN
//!   over all its keys (Sprout has no cell coverings: a superset of the matches) under a FETCH
//!   that tests the geometry. Without an index they run in a COLLSCAN's filter.
//!
//! Geo indexes take no part in ordinary index plans (their keys are cells, not values).

use bson::Document;

use super::predicates::{Conjunct, Residual, residual};
use super::{CanonicalQuery, Solution};
use crate::catalog::Collection;
use crate::error::{Error, ErrorCode, Result};
use crate::geo::query::NearQuery;
use crate::index::{Index, KeyKind};
use crate::matcher::expr::{Expr, ValuePred};

/// A near search through a geo index.
#[derive(Debug, Clone)]
pub struct GeoNearPlan {
    pub index_name: String,
    pub key_pattern: Document,
    /// A `2dsphere` index (GEO_NEAR_2DSPHERE) rather than a `2d` one.
    pub sphere: bool,
    /// The near query's field and the query.
    pub path: crate::path::FieldPath,
    pub near: NearQuery,
    /// The whole filter (the near clause included: it checks the distance bounds).
    pub filter: Option<Residual>,
    /// The filter explain shows: the clauses besides the near one.
    pub shown: Option<Document>,
}

fn no_index() -> Error {
    Error::new(
        ErrorCode::NoQueryExecutionPlans,
        "error processing query: planner returned error :: caused by :: unable to find index for $geoNear query",
    )
}

/// Whether an index has a geo key part.
pub fn is_geo(index: &Index) -> bool {
    crate::index::geo_keys::is_geo(&index.spec)
}

/// The near plan when the filter has a near query (errors: misplaced, repeated, no index).
pub fn plan_near(coll: Option<&Collection>, q: &CanonicalQuery<'_>) -> Result<Option<Solution>> {
    let nears = q.spec.filter.root().near_queries();
    let Some((path, pred, top)) = nears.first() else {
        return Ok(None);
    };
    if nears.len() > 1 {
        return Err(Error::bad_value("Too many geoNear expressions"));
    }
    if !top {
        return Err(Error::bad_value("geoNear must be top-level expr"));
    }
    let Some(near) = pred.near() else {
        return Ok(None);
    };
    // A collection that does not exist has nothing near anything (EOF, as for any find).
    let Some(coll) = coll else {
        return Ok(None);
    };
    let dotted = path.dotted();
    let parts = q.conjuncts();
    let usable = |index: &&Index, kind: KeyKind| {
        !index.spec.hidden
            && index
                .spec
                .parts
                .iter()
                .any(|p| p.kind == kind && p.dotted == dotted)
            && partial_allows(index, parts)
    };
    // A planar near query prefers a 2d index; a GeoJSON point needs a 2dsphere one.
    let order: &[KeyKind] = if near.geojson {
        &[KeyKind::Geo2dSphere]
    } else if near.spherical {
        &[KeyKind::Geo2dSphere, KeyKind::Geo2d]
    } else {
        &[KeyKind::Geo2d, KeyKind::Geo2dSphere]
    };
    let found = order
        .iter()
        .find_map(|kind| coll.indexes().iter().find(|i| usable(i, *kind)));
    let Some(index) = found else {
        return Err(no_index());
    };
    let sphere = index
        .spec
        .parts
        .iter()
        .any(|p| p.kind == KeyKind::Geo2dSphere);
    let mut near = near.clone();
    if sphere && !near.geojson {
        // A legacy pair searched through a 2dsphere index is measured on the sphere (radians).
        near.spherical = true;
    }
    let all: Vec<&Conjunct> = parts.iter().collect();
    let others: Vec<&Conjunct> = parts
        .iter()
        .filter(|c| {
            !matches!(c.clause.root(), Expr::Path { pred: ValuePred::Geo(g), .. } if g.near().is_some())
        })
        .collect();
    Ok(Some(Solution::GeoNear(Box::new(GeoNearPlan {
        shown: super::predicates::as_document(&others),
        index_name: index.name().to_string(),
        key_pattern: index.spec.key.clone(),
        sphere,
        path: (*path).clone(),
        near,
        filter: residual(&all, parts.len(), &q.spec.filter)?,
    }))))
}

fn partial_allows(index: &Index, parts: &[Conjunct]) -> bool {
    match &index.spec.partial {
        Some((_, pf)) => super::implies(parts, &crate::query::canonical::filter_conjuncts(pf)),
        None => true,
    }
}

/// An IXSCAN of a geo index (all keys) under a FETCH with the whole filter, when a
/// `$geoWithin`/`$geoIntersects` names the index's leading field (or the index is hinted).
pub fn within_solution(
    index: &Index,
    parts: &[Conjunct],
    q: &CanonicalQuery<'_>,
    forced: bool,
) -> Result<Option<Solution>> {
    let Some(lead) = index.spec.parts.first() else {
        return Ok(None);
    };
    let geo_on_lead = parts.iter().any(|c| {
        c.path.as_deref() == Some(lead.dotted.as_str())
            && matches!(
                c.clause.root(),
                Expr::Path {
                    pred: ValuePred::Geo(_),
                    ..
                }
            )
    });
    let lead_is_geo = matches!(lead.kind, KeyKind::Geo2d | KeyKind::Geo2dSphere);
    if !forced && (!geo_on_lead || !lead_is_geo || index.spec.hidden) {
        return Ok(None);
    }
    if !partial_allows(index, parts) || index.spec.collation.is_some() {
        return Ok(None);
    }
    let all: Vec<&Conjunct> = parts.iter().collect();
    let scan = super::whole_index::all_keys_scan(index);
    let fetch = Solution::Fetch {
        filter: residual(&all, parts.len(), &q.spec.filter)?,
        child: Box::new(scan),
    };
    super::finish(q, fetch, false).map(Some)
}
