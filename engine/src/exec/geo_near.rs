//! GEO_NEAR_2D / GEO_NEAR_2DSPHERE: a near search. On its first call it reads every entry of
//! the geo index (Sprout keeps no cell ranges to widen annulus by annulus, as MongoDB does),
//! fetches each document once, keeps those the filter accepts (the near clause checks
//! `$minDistance`/`$maxDistance`), and orders them by distance to the query point, nearest
//! first (ties by record id); then it returns one per call.

use std::collections::BTreeSet;
use std::ops::{Bound, ControlFlow};

use bson::{Document, doc};

use super::{CommonStats, Member, Stage, StageStats, State};
use crate::catalog::Collection;
use crate::error::Result;
use crate::index::Index;
use crate::matcher::MatchContext;
use crate::planner::geo::GeoNearPlan;

pub struct GeoNear<'a> {
    coll: &'a Collection,
    index: &'a Index,
    plan: GeoNearPlan,
    ctx: &'a MatchContext<'a>,
    /// Whether each member carries its distance and nearest location (`$meta`).
    with_meta: bool,
    /// The results, nearest last (popped from the end), once searched.
    ready: Option<Vec<(f64, u64)>>,
    common: CommonStats,
    keys_examined: u64,
    docs_examined: u64,
}

impl<'a> GeoNear<'a> {
    pub fn new(
        coll: &'a Collection,
        index: &'a Index,
        plan: GeoNearPlan,
        ctx: &'a MatchContext<'a>,
        with_meta: bool,
    ) -> Self {
        GeoNear {
            coll,
            index,
            plan,
            ctx,
            with_meta,
            ready: None,
            common: CommonStats::default(),
            keys_examined: 0,
            docs_examined: 0,
        }
    }

    fn search(&mut self) -> Result<Vec<(f64, u64)>> {
        if !self.plan.sphere {
            check_in_range(&self.index.spec.document, self.plan.near.point)?;
        }
        let mut seen = BTreeSet::new();
        let mut found = Vec::new();
        for ((_, rid), _) in self.index.range(Bound::Unbounded, Bound::Unbounded) {
            self.keys_examined += 1;
            if !seen.insert(*rid) {
                continue;
            }
            let Some(doc) = self.coll.get(*rid) else {
                continue;
            };
            self.docs_examined += 1;
            if let Some(f) = &self.plan.filter
                && !f.filter.matches_with(doc, self.ctx)?
            {
                continue;
            }
            if let Some(d) = nearest(&self.plan, doc) {
                found.push((d, *rid));
            }
        }
        crate::sort_slice::sort_by(&mut found, |a, b| b.0.total_cmp(&a.0).then(b.1.cmp(&a.1)));
        Ok(found)
    }
}

/// A `2d` near search starts from the query point's cell, so a point outside the index's
/// `[min, max]` is refused as MongoDB's GeoHashConverter::hash(x, y) refuses it (16433,
/// geo/hash.cpp; jstests/core/geo_borders.js).
fn check_in_range(spec: &Document, p: crate::geo::Pt) -> Result<()> {
    let flat = crate::index::geo_keys::Flat::of(spec)?;
    let inside = |c: f64| c >= flat.min && c <= flat.max;
    if inside(p.x) && inside(p.y) {
        return Ok(());
    }
    Err(crate::error::Error::location(
        16433,
        format!(
            "point not in interval of [ {}, {} ] :: caused by :: {}",
            flat.min,
            flat.max,
            crate::value::display::key_value(&bson::Bson::Array(vec![
                bson::Bson::Double(p.x),
                bson::Bson::Double(p.y)
            ]))
        ),
    ))
}

/// The distance of a document's nearest location on the plan's path.
pub fn nearest(plan: &GeoNearPlan, doc: &Document) -> Option<f64> {
    nearest_location(plan, doc).map(|(d, _)| d)
}

/// The distance of a document's nearest location on the plan's path, and that location as
/// stored (MongoDB's geoNearDistance and geoNearPoint metadata).
pub fn nearest_location(plan: &GeoNearPlan, doc: &Document) -> Option<(f64, bson::Bson)> {
    let mut best: Option<(f64, bson::Bson)> = None;
    let _ = crate::path::for_each_item(
        doc,
        &plan.path,
        crate::path::LeafArrays::NoExpand,
        &mut |item| {
            if let Some((d, loc)) = item.value.and_then(|v| plan.near.distance(v))
                && best.as_ref().is_none_or(|(b, _)| d < *b)
            {
                best = Some((d, loc));
            }
            ControlFlow::Continue(())
        },
    );
    best
}

impl Stage for GeoNear<'_> {
    fn work(&mut self) -> Result<State> {
        if self.ready.is_none() {
            let found = self.search()?;
            self.ready = Some(found);
        }
        let next = self.ready.as_mut().and_then(Vec::pop);
        let s = match next.and_then(|(_, rid)| self.coll.get(rid).map(|d| (rid, d))) {
            Some((rid, d)) => State::Advanced(Member {
                record_id: Some(rid),
                doc: Some(d.clone()),
                geo_near: self
                    .with_meta
                    .then(|| nearest_location(&self.plan, d).map(Box::new))
                    .flatten(),
                ..Member::default()
            }),
            None if next.is_some() => State::NeedTime,
            None => State::IsEof,
        };
        self.common.count(&s);
        Ok(s)
    }

    fn stats(&self) -> StageStats {
        let name = if self.plan.sphere {
            "GEO_NEAR_2DSPHERE"
        } else {
            "GEO_NEAR_2D"
        };
        let mut s = StageStats::new(name, &self.common);
        s.filter = self.plan.shown.clone();
        s.plan = doc! {
            "keyPattern": self.plan.key_pattern.clone(),
            "indexName": self.plan.index_name.clone(),
            "indexVersion": 2,
        };
        s.keys_examined = self.keys_examined;
        s.docs_examined = self.docs_examined;
        s
    }
}
