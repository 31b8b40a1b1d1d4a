//! `$geoNear`: the collection's documents nearest a point first, each with its distance
//! (`distanceField`, times `distanceMultiplier`) and optionally the location it was measured
//! to (`includeLocs`). It must be the first stage; it runs as a find whose filter is the
//! stage's `query` and a near clause on the geo index's field (`key`, or the collection's only
//! 2d, else only 2dsphere index), so the planner's GEO_NEAR stage orders the documents.
//! Distances: meters for a GeoJSON `near`, radians for a legacy pair with `spherical: true`,
//! plane units otherwise.

use bson::{Bson, Document, doc};

use crate::catalog::Namespace;
use crate::error::{Error, ErrorCode, Result};
use crate::geo::query::{GeoPred, NearQuery};
use crate::index::KeyKind;
use crate::matcher::Filter;
use crate::path::insert_dotted;
use crate::pipeline::{ParseContext, RunContext, Stage};

#[derive(Debug)]
pub struct GeoNear {
    spec: Document,
    near: Bson,
    spherical: bool,
    max: Option<f64>,
    min: Option<f64>,
    distance_field: String,
    include_locs: Option<String>,
    multiplier: f64,
    key: Option<String>,
    query: Document,
    /// The `query` parsed with the command's `let` variables (checked once at parse time).
    parsed_query: Filter,
}

fn number(v: &Bson, name: &str) -> Result<f64> {
    match crate::value::as_f64(v) {
        Some(n) if n >= 0.0 => Ok(n),
        Some(_) => Err(Error::bad_value(format!("{name} must be nonnegative"))),
        None => Err(Error::type_mismatch(format!("{name} must be a number"))),
    }
}

fn string(v: &Bson, name: &str) -> Result<String> {
    match v {
        Bson::String(s) if !s.is_empty() && !s.starts_with('$') => Ok(s.clone()),
        _ => Err(Error::type_mismatch(format!(
            "$geoNear requires that '{name}' option is a String"
        ))),
    }
}

pub fn parse(arg: &Bson, cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    let Bson::Document(spec) = arg else {
        return Err(Error::location(10065, "$geoNear must be an object"));
    };
    let mut stage = GeoNear {
        spec: spec.clone(),
        near: Bson::Null,
        spherical: false,
        max: None,
        min: None,
        distance_field: String::new(),
        include_locs: None,
        multiplier: 1.0,
        key: None,
        query: Document::new(),
        parsed_query: Filter::parse(&Document::new())?,
    };
    for (k, v) in spec {
        // `near`, `minDistance` and `maxDistance` may name the command's `let` constants
        // (`"$$point"`): MongoDB 8.0 requires them constant, so they are resolved here.
        let resolved;
        let v = match (k.as_str(), v) {
            ("near" | "minDistance" | "maxDistance", Bson::String(s)) if s.starts_with("$$") => {
                let e = crate::expression::Expression::parse_in(v, cx.scope)?;
                resolved = match e.as_constant() {
                    Some(c) => c.clone(),
                    None => e.evaluate(&Document::new())?.ok_or_else(|| {
                        Error::location(5860401, format!("$geoNear '{k}' must be a constant"))
                    })?,
                };
                &resolved
            }
            _ => v,
        };
        match k.as_str() {
            "near" => stage.near = v.clone(),
            "spherical" => stage.spherical = crate::expression::truthy(&Some(v.clone())),
            "maxDistance" => stage.max = Some(number(v, "maxDistance")?),
            "minDistance" => stage.min = Some(number(v, "minDistance")?),
            "distanceField" => stage.distance_field = string(v, k)?,
            "includeLocs" => stage.include_locs = Some(string(v, k)?),
            "distanceMultiplier" => stage.multiplier = number(v, "distanceMultiplier")?,
            "key" => stage.key = Some(string(v, k)?),
            "query" => {
                let Bson::Document(q) = v else {
                    return Err(Error::type_mismatch("query must be an object"));
                };
                let parsed = Filter::parse_in(q, cx.scope)?;
                if parsed.has_near() {
                    return Err(Error::bad_value(
                        "$geoNear, $near, and $nearSphere are not allowed in this context",
                    ));
                }
                stage.query = q.clone();
                stage.parsed_query = parsed;
            }
            "num" | "limit" | "uniqueDocs" | "start" => {}
            other => {
                return Err(Error::location(
                    50,
                    format!("Unknown argument to $geoNear: {other}"),
                ));
            }
        }
    }
    if matches!(stage.near, Bson::Null) {
        return Err(Error::location(
            5860400,
            "$geoNear requires a 'near' argument",
        ));
    }
    if stage.distance_field.is_empty() {
        return Err(Error::location(
            16606,
            "$geoNear requires a 'distanceField' option as a String",
        ));
    }
    // The near point is checked now, not when the stage runs.
    stage.near_clause(false)?;
    Ok(Box::new(stage))
}

impl GeoNear {
    fn geojson(&self) -> bool {
        matches!(&self.near, Bson::Document(d) if d.contains_key("type"))
    }

    /// The near clause on the key field: `{$nearSphere|$near: …, $maxDistance, $minDistance}`.
    fn near_clause(&self, sphere_index: bool) -> Result<(Document, NearQuery)> {
        let op = if self.spherical || self.geojson() {
            "$nearSphere"
        } else {
            "$near"
        };
        let mut clause = Document::new();
        if self.geojson() {
            let mut inner = doc! {"$geometry": self.near.clone()};
            if let Some(m) = self.max {
                inner.insert("$maxDistance", m);
            }
            if let Some(m) = self.min {
                inner.insert("$minDistance", m);
            }
            clause.insert(op, inner);
        } else {
            clause.insert(op, self.near.clone());
            if let Some(m) = self.max {
                clause.insert("$maxDistance", m);
            }
            if let Some(m) = self.min {
                clause.insert("$minDistance", m);
            }
        }
        let pred = GeoPred::parse_near(&clause)?;
        let mut near = pred
            .near()
            .cloned()
            .ok_or_else(|| Error::bad_value("bad near"))?;
        if sphere_index && !near.geojson {
            near.spherical = true;
        }
        Ok((clause, near))
    }
}

impl Stage for GeoNear {
    fn name(&self) -> &'static str {
        "$geoNear"
    }

    fn is_source(&self) -> bool {
        true
    }

    fn runs_without_collection(&self) -> bool {
        false
    }

    fn apply(&self, _input: Vec<Document>, cx: &RunContext<'_>) -> Result<Vec<Document>> {
        Ok(self.run(cx, false)?.0)
    }

    /// Sets each document's `geoNearDistance` and `geoNearPoint` metadata as MongoDB's
    /// GEO_NEAR stage does (the distance before `distanceMultiplier`, which only the
    /// `distanceField` gets: DocumentSourceGeoNearCursor::transformDoc).
    fn apply_with_meta(
        &self,
        _input: Vec<Document>,
        _meta: Option<Vec<crate::expression::DocumentMeta>>,
        cx: &RunContext<'_>,
    ) -> Result<crate::pipeline::Batch> {
        let (docs, meta) = self.run(cx, true)?;
        Ok((docs, Some(meta)))
    }

    fn serialize(&self) -> Document {
        let mut spec = self.spec.clone();
        if !self.query.is_empty() {
            spec.insert("query", self.query.clone());
        }
        doc! {"$geoNear": spec}
    }
}

impl GeoNear {
    /// The documents nearest first, with their metadata when `with_meta`.
    fn run(
        &self,
        cx: &RunContext<'_>,
        with_meta: bool,
    ) -> Result<(Vec<Document>, Vec<crate::expression::DocumentMeta>)> {
        let Some(coll_name) = cx.collection else {
            return Err(Error::new(
                ErrorCode::InvalidNamespace,
                "{aggregate: 1} is not valid for '$geoNear'; a collection is required.",
            ));
        };
        let ns = Namespace::new(cx.db, coll_name);
        let Some(coll) = cx.catalog.collection(&ns) else {
            return Ok((Vec::new(), Vec::new()));
        };
        let geo_fields = |kind: KeyKind| -> Vec<String> {
            let mut out: Vec<String> = coll
                .indexes()
                .iter()
                .flat_map(|i| i.spec.parts.iter())
                .filter(|p| p.kind == kind)
                .map(|p| p.dotted.clone())
                .collect();
            out.dedup();
            out
        };
        let (key, sphere) = match &self.key {
            Some(k) => {
                let sphere = geo_fields(KeyKind::Geo2dSphere).contains(k);
                if !sphere && !geo_fields(KeyKind::Geo2d).contains(k) {
                    return Err(Error::bad_value(format!(
                        "Provided key `{k}` must have a 2d or 2dsphere index on {ns}"
                    )));
                }
                (k.clone(), sphere)
            }
            None => match (
                geo_fields(KeyKind::Geo2d).as_slice(),
                geo_fields(KeyKind::Geo2dSphere).as_slice(),
            ) {
                ([one], _) => (one.clone(), false),
                ([], [one]) => (one.clone(), true),
                ([], []) => {
                    return Err(Error::new(
                        ErrorCode::IndexNotFound,
                        "$geoNear requires a 2d or 2dsphere index, but none were found",
                    ));
                }
                ([], _) => {
                    return Err(Error::new(
                        ErrorCode::IndexNotFound,
                        format!(
                            "There is more than one 2dsphere index on {ns}; unsure which to use for $geoNear"
                        ),
                    ));
                }
                _ => {
                    return Err(Error::new(
                        ErrorCode::IndexNotFound,
                        format!(
                            "There is more than one 2d index on {ns}; unsure which to use for $geoNear"
                        ),
                    ));
                }
            },
        };
        let (clause, near) = self.near_clause(sphere)?;
        let near_filter = Filter::parse(&doc! {key.clone(): clause})?;
        let filter = Filter::all_of([&near_filter, &self.parsed_query]);
        let spec = crate::query::FindSpec::of_filter(filter);
        let Some(find) = cx.find_records else {
            return Err(Error::new(
                ErrorCode::InternalError,
                "$geoNear needs the planner",
            ));
        };
        let path = crate::path::FieldPath::parse(&key);
        let mut out = Vec::new();
        let mut metas = Vec::new();
        for rid in find(Some(coll), &spec, cx.match_ctx)?.ids {
            let Some(stored) = coll.get(rid) else {
                continue;
            };
            let mut best: Option<(f64, Bson)> = None;
            for v in crate::path::values_for_match(stored, &path) {
                if let Some((d, loc)) = near.distance(v)
                    && best.as_ref().is_none_or(|(b, _)| d < *b)
                {
                    best = Some((d, loc));
                }
            }
            let Some((d, loc)) = best else { continue };
            let mut doc = stored.clone();
            insert_dotted(
                &mut doc,
                &self.distance_field,
                Bson::Double(d * self.multiplier),
            );
            if with_meta {
                metas.push(crate::expression::DocumentMeta {
                    geo_near_distance: Some(d),
                    geo_near_point: Some(loc.clone()),
                    ..Default::default()
                });
            }
            if let Some(field) = &self.include_locs {
                insert_dotted(&mut doc, field, loc);
            }
            out.push(doc);
        }
        Ok((out, metas))
    }
}
