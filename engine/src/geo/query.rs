//! The geospatial query operators as MongoDB 8.0 reads them: `$geoWithin` (and its old name
//! `$within`) with `$box`, `$polygon`, `$center` (planar), `$centerSphere` (radians) or
//! `$geometry` (a GeoJSON Polygon or MultiPolygon, on the sphere); `$geoIntersects` with
//! `$geometry`; `$near`, `$nearSphere` and `$geoNear` (an alias of `$near`) with a legacy
//! pair or a GeoJSON point, `$maxDistance` and `$minDistance`.
//!
//! A parsed operator tests one value ([`GeoQuery::matches`]); a near query also gives each
//! value's distance ([`NearQuery::distance`]), by which the GEO_NEAR stage orders documents.

use bson::{Bson, Document};

use super::math::{self, EARTH_RADIUS_METERS};
use super::{Geometry, Pt, Shape, legacy_point, parse_geojson, read_shape};

/// A parsed geospatial operator with the operator document as written (for explain).
#[derive(Debug, Clone, PartialEq)]
pub struct GeoPred {
    pub query: GeoQuery,
    pub doc: Document,
}

#[derive(Debug, Clone, PartialEq)]
pub enum GeoQuery {
    Within(Region),
    Intersects(Geometry),
    Near(NearQuery),
}

/// The region of a `$geoWithin`.
#[derive(Debug, Clone, PartialEq)]
pub enum Region {
    /// `$box`: lower-left and upper-right corners (boundary included).
    Box(Pt, Pt),
    /// `$polygon`: a planar polygon (boundary included).
    Polygon(Vec<Pt>),
    /// `$center`: a planar circle.
    Center(Pt, f64),
    /// `$centerSphere`: a spherical cap, its radius in radians.
    CenterSphere(Pt, f64),
    /// `$geometry`: GeoJSON polygons on the sphere.
    Polygons(Vec<Vec<Vec<Pt>>>),
}

/// A `$near`-family query.
#[derive(Debug, Clone, PartialEq)]
pub struct NearQuery {
    pub point: Pt,
    /// Given as a GeoJSON point: distances in meters on the sphere.
    pub geojson: bool,
    /// `$nearSphere` or GeoJSON: distances on the sphere (radians for a legacy pair).
    pub spherical: bool,
    pub max: Option<f64>,
    pub min: Option<f64>,
}

fn bad(msg: impl Into<String>) -> crate::error::Error {
    crate::error::Error::bad_value(msg)
}

type Result<T> = crate::error::Result<T>;

fn display(v: &Bson) -> String {
    crate::value::display::key_value(v)
}

/// A legacy pair of finite numbers.
fn pair(v: &Bson, what: &str) -> Result<Pt> {
    match legacy_point(v) {
        Some(p) if p.x.is_finite() && p.y.is_finite() => Ok(p),
        _ => Err(bad(format!(
            "{what}: point must be a pair of numbers: {}",
            display(v)
        ))),
    }
}

fn radius(v: Option<&Bson>, what: &str) -> Result<f64> {
    match v.and_then(crate::value::as_f64) {
        Some(r) if r >= 0.0 && !r.is_nan() => Ok(r),
        _ => Err(bad(format!("{what} radius must be a non-negative number"))),
    }
}

/// Parses a GeoJSON `$geometry` operand, with MongoDB's BadValue on malformed input.
fn geometry(v: &Bson) -> Result<Geometry> {
    let Bson::Document(d) = v else {
        return Err(bad(format!("$geometry must be an object: {}", display(v))));
    };
    parse_geojson(d, 0).map_err(|e| bad(format!("Invalid GeoJSON: {e}: {}", display(v))))
}

impl GeoPred {
    /// Parses `{$geoWithin: …}` or `{$geoIntersects: …}` (the operator and its operand).
    pub fn parse_region(op: &str, operand: &Bson) -> Result<GeoPred> {
        let mut doc = Document::new();
        doc.insert(op, operand.clone());
        let Bson::Document(spec) = operand else {
            return Err(bad(format!(
                "{op} argument must be an object: {}",
                display(operand)
            )));
        };
        let Some((shape, arg)) = spec.iter().next() else {
            return Err(bad(format!("{op} argument must not be empty")));
        };
        let query = if op == "$geoIntersects" {
            if shape != "$geometry" {
                return Err(bad(format!(
                    "$geoIntersects requires $geometry: {}",
                    display(operand)
                )));
            }
            GeoQuery::Intersects(geometry(arg)?)
        } else {
            GeoQuery::Within(match shape.as_str() {
                "$box" => {
                    let c: Vec<Bson> = match arg {
                        Bson::Array(c) => c.clone(),
                        Bson::Document(d) => d.values().cloned().collect(),
                        _ => return Err(bad("$box must be an array of two points")),
                    };
                    if c.len() != 2 {
                        return Err(bad("$box must be an array of two points"));
                    }
                    let (a, b) = (pair(&c[0], "$box")?, pair(&c[1], "$box")?);
                    Region::Box(
                        Pt {
                            x: a.x.min(b.x),
                            y: a.y.min(b.y),
                        },
                        Pt {
                            x: a.x.max(b.x),
                            y: a.y.max(b.y),
                        },
                    )
                }
                "$polygon" => {
                    let c: Vec<Bson> = match arg {
                        Bson::Array(c) => c.clone(),
                        Bson::Document(d) => d.values().cloned().collect(),
                        _ => return Err(bad("$polygon must be an array of points")),
                    };
                    if c.len() < 3 {
                        return Err(bad("Polygon must have at least 3 points"));
                    }
                    if c.len() > super::MAX_VERTICES {
                        return Err(bad("$polygon has too many points"));
                    }
                    Region::Polygon(
                        c.iter()
                            .map(|p| pair(p, "$polygon"))
                            .collect::<Result<_>>()?,
                    )
                }
                "$center" | "$centerSphere" => {
                    let c: Vec<Bson> = match arg {
                        Bson::Array(c) => c.clone(),
                        Bson::Document(d) => d.values().cloned().collect(),
                        _ => return Err(bad(format!("{shape} must be an array [center, radius]"))),
                    };
                    let center = pair(c.first().unwrap_or(&Bson::Null), shape)?;
                    let r = radius(c.get(1), shape)?;
                    if c.len() != 2 {
                        return Err(bad(format!("{shape} must be an array [center, radius]")));
                    }
                    if shape == "$center" {
                        Region::Center(center, r)
                    } else {
                        super::check_lng_lat(center.x, center.y).map_err(bad)?;
                        Region::CenterSphere(center, r)
                    }
                }
                "$geometry" => match geometry(arg)? {
                    Geometry::Polygons(ps) => Region::Polygons(ps),
                    _ => {
                        return Err(bad(format!(
                            "$geoWithin not supported with provided geometry: {}",
                            display(operand)
                        )));
                    }
                },
                other => return Err(bad(format!("unknown geo specifier: {other}"))),
            })
        };
        Ok(GeoPred { query, doc })
    }

    /// Parses the operator document of a near query: `{$near: <point>, $maxDistance: d}` or
    /// `{$near: {$geometry: <Point>, $maxDistance: d, $minDistance: d}}`.
    pub fn parse_near(ops: &Document) -> Result<GeoPred> {
        let mut near = None;
        let (mut max, mut min) = (None, None);
        for (k, v) in ops {
            match k.as_str() {
                "$near" | "$nearSphere" | "$geoNear" => {
                    if near.is_some() {
                        return Err(bad("Too many geoNear expressions"));
                    }
                    near = Some((k.as_str(), v));
                }
                "$maxDistance" => max = Some(distance_bound(v, k)?),
                "$minDistance" => min = Some(distance_bound(v, k)?),
                other => {
                    return Err(bad(format!("invalid operator with $near: {other}")));
                }
            }
        }
        let Some((op, operand)) = near else {
            return Err(bad("$maxDistance needs $near"));
        };
        let mut q = match operand {
            // A GeoJSON point given without `$geometry`.
            Bson::Document(d) if d.contains_key("type") => {
                let Geometry::Point(point) = geometry(operand)? else {
                    return Err(bad("$near requires a point, given a non-point geometry"));
                };
                NearQuery {
                    point,
                    geojson: true,
                    spherical: true,
                    max: None,
                    min: None,
                }
            }
            Bson::Document(d) if d.contains_key("$geometry") => {
                if let Some(extra) = ops.keys().find(|k| k.ends_with("Distance")) {
                    return Err(bad(format!(
                        "geo near accepts just one argument when querying for a GeoJSON point. Extra field found: {extra}: {}",
                        display(ops.get(extra).unwrap_or(&Bson::Null))
                    )));
                }
                let point = match geometry(d.get("$geometry").unwrap_or(&Bson::Null))? {
                    Geometry::Point(p) => p,
                    _ => return Err(bad("$near requires a point, given a non-point geometry")),
                };
                for (k, v) in d {
                    match k.as_str() {
                        "$geometry" => {}
                        "$maxDistance" => max = Some(distance_bound(v, k)?),
                        "$minDistance" => min = Some(distance_bound(v, k)?),
                        other => return Err(bad(format!("invalid argument in $near: {other}"))),
                    }
                }
                NearQuery {
                    point,
                    geojson: true,
                    spherical: true,
                    max: None,
                    min: None,
                }
            }
            other => NearQuery {
                point: pair(other, op)?,
                geojson: false,
                spherical: op == "$nearSphere",
                max: None,
                min: None,
            },
        };
        if q.spherical && !q.geojson && super::check_lng_lat(q.point.x, q.point.y).is_err() {
            return Err(crate::error::Error::location(
                17444,
                "Legacy point is out of bounds for spherical query",
            ));
        }
        // The legacy form's third number is the maximum distance (`[x, y, max]`).
        if let Bson::Array(items) = operand
            && let Some(third) = items.get(2)
        {
            max = Some(distance_bound(third, "$maxDistance")?);
        }
        q.max = max;
        q.min = min;
        Ok(GeoPred {
            query: GeoQuery::Near(q),
            doc: ops.clone(),
        })
    }

    /// The near query, when this is one.
    pub fn near(&self) -> Option<&NearQuery> {
        match &self.query {
            GeoQuery::Near(n) => Some(n),
            _ => None,
        }
    }
}

fn distance_bound(v: &Bson, name: &str) -> Result<f64> {
    match crate::value::as_f64(v) {
        Some(d) if d >= 0.0 => Ok(d),
        Some(_) => Err(bad(format!("{name} must be non-negative"))),
        None => Err(bad(format!("{name} must be a number"))),
    }
}

/// The shapes one value holds: itself, or each element of an array of locations (a 2d
/// multi-location document).
fn shapes(v: &Bson) -> Vec<Shape> {
    match read_shape(v) {
        Ok(Some(s)) => vec![s],
        Ok(None) => match v {
            Bson::Array(items) => items
                .iter()
                .filter_map(|i| read_shape(i).ok().flatten())
                .collect(),
            _ => Vec::new(),
        },
        Err(_) => Vec::new(),
    }
}

/// A shape's single point, for the planar regions (which test points only).
fn as_point(s: &Shape) -> Option<Pt> {
    match s.geometry {
        Geometry::Point(p) => Some(p),
        _ => None,
    }
}

impl GeoQuery {
    /// Whether a value (a field's value as stored) satisfies the operator. Errors: geometries
    /// too large to compare.
    pub fn matches(&self, v: &Bson) -> Result<bool> {
        for s in shapes(v) {
            if self.matches_shape(&s)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    fn matches_shape(&self, s: &Shape) -> Result<bool> {
        let too_large = |e: String| bad(e);
        Ok(match self {
            GeoQuery::Within(region) => match region {
                Region::Box(lo, hi) => as_point(s)
                    .is_some_and(|p| p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y),
                Region::Polygon(ring) => {
                    as_point(s).is_some_and(|p| math::in_polygon_planar(p, ring))
                }
                Region::Center(c, r) => as_point(s).is_some_and(|p| within_circle(*c, p, *r)),
                Region::CenterSphere(c, r) => {
                    let pts = s.geometry.points();
                    !pts.is_empty() && pts.iter().all(|p| math::sphere_distance(*c, *p) <= *r)
                }
                Region::Polygons(ps) => {
                    valid_lng_lat(s) && math::within_sphere(&s.geometry, ps).map_err(too_large)?
                }
            },
            GeoQuery::Intersects(g) => {
                valid_lng_lat(s) && math::intersects_sphere(&s.geometry, g).map_err(too_large)?
            }
            GeoQuery::Near(n) => n.distance_to(s).is_some_and(|d| n.in_range(d)),
        })
    }
}

/// A planar circle, with MongoDB's allowance for rounding (geoshapes.cpp `distanceWithin`:
/// a point on the circle's axis whose offset rounds just past the radius is inside).
fn within_circle(c: Pt, p: Pt, r: f64) -> bool {
    let d = math::planar_distance(c, p);
    d <= r || d - r <= 1e-12 * r.abs().max(1.0)
}

/// Legacy pairs are on the sphere only within longitude/latitude bounds.
fn valid_lng_lat(s: &Shape) -> bool {
    !s.legacy || as_point(s).is_some_and(|p| super::check_lng_lat(p.x, p.y).is_ok())
}

impl NearQuery {
    fn distance_to(&self, s: &Shape) -> Option<f64> {
        let d = math::distance_to(self.point, &s.geometry, self.spherical);
        if !d.is_finite() {
            return None;
        }
        Some(if self.geojson {
            d * EARTH_RADIUS_METERS
        } else {
            d
        })
    }

    /// Whether a distance lies within `$minDistance` and `$maxDistance`.
    pub fn in_range(&self, d: f64) -> bool {
        self.max.is_none_or(|m| d <= m) && self.min.is_none_or(|m| d >= m)
    }

    /// The distance of a value's nearest location (meters for a GeoJSON query, radians for a
    /// spherical legacy one, else plane units) and that location; `None` when the value holds
    /// no location.
    pub fn distance(&self, v: &Bson) -> Option<(f64, Bson)> {
        let mut best: Option<(f64, Bson)> = None;
        let single = matches!(read_shape(v), Ok(Some(_)));
        let items: Vec<&Bson> = match v {
            Bson::Array(items) if !single => items.iter().collect(),
            other => vec![other],
        };
        for item in items {
            if let Ok(Some(s)) = read_shape(item)
                && let Some(d) = self.distance_to(&s)
                && best.as_ref().is_none_or(|(b, _)| d < *b)
            {
                best = Some((d, item.clone()));
            }
        }
        best
    }
}
