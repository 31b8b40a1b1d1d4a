//! Geospatial values: legacy coordinate pairs (`[x, y]`, `{lng: x, lat: y}`) and GeoJSON
//! geometries (Point, LineString, Polygon, their Multi* forms, GeometryCollection) as MongoDB
//! 8.0 reads them from documents and queries, with the checks its 2dsphere index makes before
//! it indexes a geometry (closed rings, no duplicate vertices, no crossing edges, coordinates in
//! range). [`math`] holds the planar and spherical computations, [`query`] the query operators
//! (`$geoWithin`, `$geoIntersects`, `$near`…) the matcher, the planner and `$geoNear` share.
//!
//! Sprout covers no cell decomposition (S2 cells, geohash ranges): a geo index scan reads the
//! whole index and the geometry test filters (a superset, then exact), see `docs/conformance.md`.

pub mod math;
pub mod query;

use bson::{Bson, Document};

/// Most vertices Sprout reads in one geometry: beyond it a geometry is refused with an error
/// rather than tested (each test is linear, crossing checks quadratic in it).
pub const MAX_VERTICES: usize = 100_000;

/// Rings up to this many vertices are checked for crossing edges (quadratic); longer rings are
/// checked for closure and duplicate vertices only.
const MAX_CROSSING_CHECK: usize = 2_000;

/// A point: x is the longitude (or the plane's x), y the latitude (or y).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pt {
    pub x: f64,
    pub y: f64,
}

/// A geometry read from a document or a query.
#[derive(Debug, Clone, PartialEq)]
pub enum Geometry {
    Point(Pt),
    /// Several points (MultiPoint).
    Points(Vec<Pt>),
    /// Line strings (LineString is one, MultiLineString several).
    Lines(Vec<Vec<Pt>>),
    /// Polygons, each an outer ring then its holes (Polygon is one, MultiPolygon several).
    Polygons(Vec<Vec<Vec<Pt>>>),
    Collection(Vec<Geometry>),
}

/// A geometry and whether it came as a legacy coordinate pair (planar queries read only those
/// and GeoJSON points).
#[derive(Debug, Clone, PartialEq)]
pub struct Shape {
    pub geometry: Geometry,
    pub legacy: bool,
}

impl Geometry {
    /// Every vertex, in order.
    pub fn points(&self) -> Vec<Pt> {
        let mut out = Vec::new();
        self.each_point(&mut |p| out.push(p));
        out
    }

    fn each_point(&self, f: &mut impl FnMut(Pt)) {
        match self {
            Geometry::Point(p) => f(*p),
            Geometry::Points(ps) => ps.iter().for_each(|p| f(*p)),
            Geometry::Lines(ls) => ls.iter().flatten().for_each(|p| f(*p)),
            Geometry::Polygons(ps) => ps.iter().flatten().flatten().for_each(|p| f(*p)),
            Geometry::Collection(gs) => gs.iter().for_each(|g| g.each_point(f)),
        }
    }
}

/// A number as a double: any numeric BSON type.
fn num(v: &Bson) -> Option<f64> {
    crate::value::as_f64(v)
}

/// A legacy coordinate pair: an array or a document whose first two values are numbers
/// (further values are ignored, as MongoDB ignores them).
pub fn legacy_point(v: &Bson) -> Option<Pt> {
    let mut it: Box<dyn Iterator<Item = &Bson>> = match v {
        Bson::Array(a) => Box::new(a.iter()),
        Bson::Document(d) if !d.contains_key("type") => Box::new(d.values()),
        _ => return None,
    };
    let x = num(it.next()?)?;
    let y = num(it.next()?)?;
    Some(Pt { x, y })
}

/// Why a geometry is not valid GeoJSON for MongoDB (the text after its 16755 prefix).
pub type Invalid = String;

/// Reads a value as a geometry: a GeoJSON object (checked as the 2dsphere index checks it) or
/// a legacy pair. `Ok(None)`: the value is neither (not a geometry at all).
pub fn read_shape(v: &Bson) -> Result<Option<Shape>, Invalid> {
    if let Bson::Document(d) = v
        && d.contains_key("type")
    {
        return parse_geojson(d, 0).map(|geometry| {
            Some(Shape {
                geometry,
                legacy: false,
            })
        });
    }
    Ok(legacy_point(v).map(|p| Shape {
        geometry: Geometry::Point(p),
        legacy: true,
    }))
}

/// Parses a GeoJSON object (`depth`: GeometryCollection nesting, refused below one level).
pub fn parse_geojson(d: &Document, depth: usize) -> Result<Geometry, Invalid> {
    let Some(Bson::String(kind)) = d.get("type") else {
        return Err("unknown GeoJSON type".into());
    };
    if let Some(crs) = d.get("crs") {
        check_crs(crs)?;
    }
    if kind == "GeometryCollection" {
        if depth > 0 {
            return Err("GeometryCollections cannot be nested".into());
        }
        let Some(Bson::Array(items)) = d.get("geometries") else {
            return Err("GeometryCollection geometries must be an array".into());
        };
        let mut out = Vec::with_capacity(items.len().min(1024));
        for item in items {
            let Bson::Document(g) = item else {
                return Err("Element in GeometryCollection is not an object".into());
            };
            out.push(parse_geojson(g, depth + 1)?);
        }
        return Ok(Geometry::Collection(out));
    }
    let Some(Bson::Array(coords)) = d.get("coordinates") else {
        return Err(format!("{kind} coordinates must be an array"));
    };
    let mut budget = MAX_VERTICES;
    let g = match kind.as_str() {
        "Point" => Geometry::Point(position(coords, &mut budget)?),
        "MultiPoint" => Geometry::Points(positions(coords, &mut budget)?),
        "LineString" => Geometry::Lines(vec![line(coords, &mut budget)?]),
        "MultiLineString" => Geometry::Lines(
            arrays(coords)?
                .map(|l| line(l, &mut budget))
                .collect::<Result<_, _>>()?,
        ),
        "Polygon" => Geometry::Polygons(vec![polygon(coords, &mut budget)?]),
        "MultiPolygon" => Geometry::Polygons(
            arrays(coords)?
                .map(|p| polygon(p, &mut budget))
                .collect::<Result<_, _>>()?,
        ),
        other => return Err(format!("unknown GeoJSON type: {other}")),
    };
    Ok(g)
}

/// Only the default (EPSG:4326) reference system is supported; MongoDB's
/// `urn:x-mongodb:crs:strictwinding:EPSG:4326` ("big polygons") is not.
fn check_crs(crs: &Bson) -> Result<(), Invalid> {
    let name = match crs {
        Bson::Document(c) => c
            .get_document("properties")
            .ok()
            .and_then(|p| p.get_str("name").ok()),
        _ => None,
    };
    match name {
        Some("EPSG:4326" | "urn:ogc:def:crs:OGC:1.3:CRS84" | "urn:ogc:def:crs:EPSG::4326") => {
            Ok(())
        }
        Some(n) => Err(format!(
            "unknown CRS name: {n} (big polygons are not supported by Sprout)"
        )),
        None => Err("GeoJSON CRS must have field \"properties.name\"".into()),
    }
}

fn arrays(coords: &[Bson]) -> Result<impl Iterator<Item = &Vec<Bson>>, Invalid> {
    if coords.iter().any(|c| !matches!(c, Bson::Array(_))) {
        return Err("GeoJSON coordinates must be arrays".into());
    }
    Ok(coords.iter().filter_map(|c| match c {
        Bson::Array(a) => Some(a),
        _ => None,
    }))
}

/// One GeoJSON position `[lng, lat]`, in range.
fn position(coords: &[Bson], budget: &mut usize) -> Result<Pt, Invalid> {
    if *budget == 0 {
        return Err(format!("more than {MAX_VERTICES} vertices"));
    }
    *budget -= 1;
    let (Some(x), Some(y)) = (coords.first().and_then(num), coords.get(1).and_then(num)) else {
        return Err("GeoJSON coordinates must be an array of numbers".into());
    };
    if coords.len() > 3 {
        return Err("GeoJSON coordinates must be an array of no more than 3 numbers".into());
    }
    check_lng_lat(x, y)?;
    Ok(Pt { x, y })
}

/// Longitude in [-180, 180], latitude in [-90, 90] (NaN is neither).
pub fn check_lng_lat(x: f64, y: f64) -> Result<(), Invalid> {
    if !(-180.0..=180.0).contains(&x) || !(-90.0..=90.0).contains(&y) {
        return Err(format!(
            "longitude/latitude is out of bounds, lng: {x} lat: {y}"
        ));
    }
    Ok(())
}

fn positions(coords: &[Bson], budget: &mut usize) -> Result<Vec<Pt>, Invalid> {
    arrays(coords)?.map(|c| position(c, budget)).collect()
}

fn line(coords: &[Bson], budget: &mut usize) -> Result<Vec<Pt>, Invalid> {
    let pts = positions(coords, budget)?;
    if pts.len() < 2 {
        return Err(format!(
            "GeoJSON LineString must have at least 2 vertices: {pts:?}"
        ));
    }
    Ok(pts)
}

fn polygon(coords: &[Bson], budget: &mut usize) -> Result<Vec<Vec<Pt>>, Invalid> {
    if coords.is_empty() {
        return Err("Polygon has no loops.".into());
    }
    let mut rings: Vec<Vec<Pt>> = arrays(coords)?
        .map(|r| positions(r, budget))
        .collect::<Result<_, _>>()?;
    for ring in &mut rings {
        // Repeated consecutive points are one vertex (MongoDB's GeoParser erases them).
        ring.dedup();
        check_ring(ring)?;
    }
    if let Some((outer, holes)) = rings.split_first() {
        check_holes(outer, holes)?;
    }
    Ok(rings)
}

/// Holes lie inside the outer ring and apart from it and from each other: no shared vertex, no
/// crossing edge (checked up to [`MAX_CROSSING_CHECK`] vertices a pair), no vertex outside.
fn check_holes(outer: &[Pt], holes: &[Vec<Pt>]) -> Result<(), Invalid> {
    let not_hole = || {
        "Secondary loops not contained by first exterior loop - secondary loops must be holes"
            .to_string()
    };
    let edges = |r: &[Pt]| -> Vec<(Pt, Pt)> { r.windows(2).map(|w| (w[0], w[1])).collect() };
    let small = |a: &[Pt], b: &[Pt]| a.len() <= MAX_CROSSING_CHECK && b.len() <= MAX_CROSSING_CHECK;
    let crossing = |a: &[Pt], b: &[Pt]| {
        small(a, b)
            && edges(a).iter().any(|(p, q)| {
                edges(b)
                    .iter()
                    .any(|(r, t)| math::arcs_cross(*p, *q, *r, *t))
            })
    };
    for (i, hole) in holes.iter().enumerate() {
        if hole.iter().any(|p| outer.contains(p))
            || hole.iter().any(|p| !math::in_ring_sphere(*p, outer))
            || crossing(hole, outer)
        {
            return Err(not_hole());
        }
        for (j, other) in holes.iter().enumerate().skip(i + 1) {
            if hole.iter().any(|p| other.contains(p))
                || hole.iter().any(|p| math::in_ring_sphere(*p, other))
                || other.iter().any(|p| math::in_ring_sphere(*p, hole))
                || crossing(hole, other)
            {
                return Err(format!(
                    "Polygon is not valid: loops {} and {} overlap",
                    i + 1,
                    j + 1
                ));
            }
        }
    }
    Ok(())
}

/// A ring as the 2dsphere index accepts it: closed, four vertices or more, no vertex twice, no
/// two edges crossing (checked up to [`MAX_CROSSING_CHECK`] vertices).
pub fn check_ring(ring: &[Pt]) -> Result<(), Invalid> {
    if ring.len() < 4 {
        return Err("Loop must have at least 3 different vertices".into());
    }
    if ring.first() != ring.last() {
        return Err("Loop is not closed, first vertex does not equal last vertex".into());
    }
    let open = &ring[..ring.len() - 1];
    let mut sorted: Vec<(f64, f64, usize)> = open
        .iter()
        .enumerate()
        .map(|(i, p)| (p.x, p.y, i))
        .collect();
    crate::sort_slice::sort_by(&mut sorted, |a, b| {
        a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1))
    });
    if let Some(w) = sorted
        .windows(2)
        .find(|w| w[0].0 == w[1].0 && w[0].1 == w[1].1)
    {
        let (a, b) = (w[0].2.min(w[1].2), w[0].2.max(w[1].2));
        return Err(format!(
            "Loop is not valid: Duplicate vertices: {a} and {b}"
        ));
    }
    if open.len() < 3 {
        return Err("Loop must have at least 3 different vertices".into());
    }
    if open.len() <= MAX_CROSSING_CHECK {
        let n = open.len();
        for i in 0..n {
            for j in i + 2..n {
                if i == 0 && j == n - 1 {
                    continue;
                }
                let (a, b) = (open[i], open[(i + 1) % n]);
                let (c, d) = (open[j], open[(j + 1) % n]);
                if math::arcs_cross(a, b, c, d) {
                    return Err(format!("Loop is not valid: Edge {i} crosses edge {j}"));
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
