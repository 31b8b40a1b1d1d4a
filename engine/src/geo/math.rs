//! Planar and spherical geometry, hand-written and small: great-circle distance (haversine, in
//! radians; MongoDB's earth radius for meters), point in polygon on the plane (ray casting,
//! boundary included) and on the sphere (edges are great-circle arcs: the winding of the ring
//! seen from the point), great-circle arc crossing, and the relations `$geoWithin` and
//! `$geoIntersects` need between two geometries.

use super::{Geometry, Pt};

/// MongoDB's `kRadiusOfEarthInMeters` (src/mongo/db/geo/geoconstants.h): 6378.1 km.
pub const EARTH_RADIUS_METERS: f64 = 6_378_100.0;

type V3 = [f64; 3];

fn v3(p: Pt) -> V3 {
    let (lng, lat) = (p.x.to_radians(), p.y.to_radians());
    [lat.cos() * lng.cos(), lat.cos() * lng.sin(), lat.sin()]
}

fn cross(a: V3, b: V3) -> V3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn dot(a: V3, b: V3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn neg(a: V3) -> V3 {
    [-a[0], -a[1], -a[2]]
}

/// The great-circle distance between two (lng, lat) points in radians (haversine).
pub fn sphere_distance(a: Pt, b: Pt) -> f64 {
    let (la1, la2) = (a.y.to_radians(), b.y.to_radians());
    let dlat = la2 - la1;
    let dlng = (b.x - a.x).to_radians();
    let h = (dlat / 2.0).sin().powi(2) + la1.cos() * la2.cos() * (dlng / 2.0).sin().powi(2);
    2.0 * h.sqrt().min(1.0).asin()
}

/// The distance on the plane.
pub fn planar_distance(a: Pt, b: Pt) -> f64 {
    (a.x - b.x).hypot(a.y - b.y)
}

/// Whether `x` lies strictly inside the arc from `a` to `b` on the great circle with normal `n`.
fn on_arc(x: V3, a: V3, b: V3, n: V3) -> bool {
    dot(cross(a, x), n) > 0.0 && dot(cross(x, b), n) > 0.0
}

/// Whether the great-circle arcs `ab` and `cd` cross at a point inside both.
pub fn arcs_cross(a: Pt, b: Pt, c: Pt, d: Pt) -> bool {
    let (a, b, c, d) = (v3(a), v3(b), v3(c), v3(d));
    let (n1, n2) = (cross(a, b), cross(c, d));
    let t = cross(n1, n2);
    if dot(t, t) < 1e-30 {
        return false;
    }
    [t, neg(t)]
        .into_iter()
        .any(|x| on_arc(x, a, b, n1) && on_arc(x, c, d, n2))
}

/// Whether `p` lies on the arc `ab` (within about a millimetre on the earth).
fn on_segment_sphere(p: Pt, a: Pt, b: Pt) -> bool {
    let ab = sphere_distance(a, b);
    (sphere_distance(a, p) + sphere_distance(p, b) - ab).abs() < 1e-12
}

/// Whether `p` is inside a ring on the sphere (or on a vertex): the ring's bearings seen from
/// `p` wind once around it, and `p` is on the ring's side of the sphere (a ring is the smaller
/// of the two regions it bounds, as MongoDB reads GeoJSON polygons).
pub fn in_ring_sphere(p: Pt, ring: &[Pt]) -> bool {
    let pv = v3(p);
    let mut east = cross([0.0, 0.0, 1.0], pv);
    let len = dot(east, east).sqrt();
    if len < 1e-12 {
        east = [0.0, 1.0, 0.0];
    } else {
        east = [east[0] / len, east[1] / len, east[2] / len];
    }
    let north = cross(pv, east);
    let mut sum = 0.0;
    let mut prev: Option<f64> = None;
    let mut centroid = [0.0; 3];
    for (i, q) in ring.iter().enumerate() {
        let qv = v3(*q);
        if i + 1 < ring.len() {
            centroid = [
                centroid[0] + qv[0],
                centroid[1] + qv[1],
                centroid[2] + qv[2],
            ];
        }
        if sphere_distance(p, *q) < 1e-15 {
            return true;
        }
        let bearing = dot(qv, north).atan2(dot(qv, east));
        if let Some(b0) = prev {
            let mut d = bearing - b0;
            if d > std::f64::consts::PI {
                d -= std::f64::consts::TAU;
            } else if d < -std::f64::consts::PI {
                d += std::f64::consts::TAU;
            }
            sum += d;
        }
        prev = Some(bearing);
    }
    if ring.windows(2).any(|w| on_segment_sphere(p, w[0], w[1])) {
        return true;
    }
    sum.abs() > std::f64::consts::PI && dot(pv, centroid) > 0.0
}

/// Whether `p` is inside a polygon (outer ring, then holes) on the sphere.
pub fn in_polygon_sphere(p: Pt, rings: &[Vec<Pt>]) -> bool {
    match rings.split_first() {
        Some((outer, holes)) => {
            in_ring_sphere(p, outer) && !holes.iter().any(|h| strictly_in_ring_sphere(p, h))
        }
        None => false,
    }
}

fn strictly_in_ring_sphere(p: Pt, ring: &[Pt]) -> bool {
    in_ring_sphere(p, ring) && !ring.windows(2).any(|w| on_segment_sphere(p, w[0], w[1]))
}

/// Whether `p` is inside a polygon on the plane (`$polygon`), its boundary included.
pub fn in_polygon_planar(p: Pt, ring: &[Pt]) -> bool {
    let n = ring.len();
    let mut inside = false;
    for i in 0..n {
        let (a, b) = (ring[i], ring[(i + 1) % n]);
        let cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
        let within = p.x >= a.x.min(b.x) && p.x <= a.x.max(b.x);
        if cross == 0.0 && within && p.y >= a.y.min(b.y) && p.y <= a.y.max(b.y) {
            return true;
        }
        if (a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x {
            inside = !inside;
        }
    }
    inside
}

/// A geometry taken apart: its points, its edges (lines and rings), its polygons.
struct Parts<'g> {
    points: Vec<Pt>,
    edges: Vec<(Pt, Pt)>,
    polygons: Vec<&'g [Vec<Pt>]>,
}

fn parts(g: &Geometry) -> Parts<'_> {
    let mut out = Parts {
        points: Vec::new(),
        edges: Vec::new(),
        polygons: Vec::new(),
    };
    fn walk<'g>(g: &'g Geometry, out: &mut Parts<'g>) {
        match g {
            Geometry::Point(p) => out.points.push(*p),
            Geometry::Points(ps) => out.points.extend(ps),
            Geometry::Lines(ls) => {
                for l in ls {
                    out.points.extend(l);
                    out.edges.extend(l.windows(2).map(|w| (w[0], w[1])));
                }
            }
            Geometry::Polygons(ps) => {
                for rings in ps {
                    for r in rings {
                        out.points.extend(r);
                        out.edges.extend(r.windows(2).map(|w| (w[0], w[1])));
                    }
                    out.polygons.push(rings);
                }
            }
            Geometry::Collection(gs) => gs.iter().for_each(|g| walk(g, out)),
        }
    }
    walk(g, &mut out);
    out
}

/// Most point-against-edge and edge-against-edge tests one comparison of two geometries may
/// make: past it the query fails rather than run for minutes.
pub const MAX_PAIR_TESTS: usize = 20_000_000;

/// The error when two geometries are too large to compare.
pub fn too_large() -> String {
    format!("geometries too large to compare (over {MAX_PAIR_TESTS} edge tests)")
}

fn budget(a: &Parts<'_>, b: &Parts<'_>) -> Result<(), String> {
    let work = (a.points.len() + a.edges.len()).saturating_mul(b.points.len() + b.edges.len());
    if work > MAX_PAIR_TESTS {
        return Err(too_large());
    }
    Ok(())
}

/// `$geoWithin` a GeoJSON polygon or multipolygon: every point of `g` inside one of
/// `polygons`, and no edge of `g` crossing their boundaries.
pub fn within_sphere(g: &Geometry, polygons: &[Vec<Vec<Pt>>]) -> Result<bool, String> {
    let query = Geometry::Polygons(polygons.to_vec());
    let (mine, theirs) = (parts(g), parts(&query));
    budget(&mine, &theirs)?;
    let all_inside = mine
        .points
        .iter()
        .all(|p| polygons.iter().any(|rings| in_polygon_sphere(*p, rings)));
    Ok(all_inside && !edges_cross(&mine.edges, &theirs.edges))
}

fn edges_cross(a: &[(Pt, Pt)], b: &[(Pt, Pt)]) -> bool {
    a.iter()
        .any(|(p, q)| b.iter().any(|(r, s)| arcs_cross(*p, *q, *r, *s)))
}

/// `$geoIntersects`: whether two geometries share a point on the sphere.
pub fn intersects_sphere(a: &Geometry, b: &Geometry) -> Result<bool, String> {
    let (pa, pb) = (parts(a), parts(b));
    budget(&pa, &pb)?;
    let touches = |x: &Parts<'_>, y: &Parts<'_>| {
        x.points.iter().any(|p| {
            y.points.iter().any(|q| sphere_distance(*p, *q) < 1e-15)
                || y.edges.iter().any(|(r, s)| on_segment_sphere(*p, *r, *s))
                || y.polygons.iter().any(|rings| in_polygon_sphere(*p, rings))
        })
    };
    Ok(touches(&pa, &pb) || touches(&pb, &pa) || edges_cross(&pa.edges, &pb.edges))
}

/// The distance from `p` to the nearest point of `g`: exact for points and for a point inside a
/// polygon (0); for lines and polygons otherwise, the nearest vertex (an over-estimate Sprout
/// documents).
pub fn distance_to(p: Pt, g: &Geometry, spherical: bool) -> f64 {
    if let Geometry::Polygons(ps) = g
        && ps.iter().any(|rings| in_polygon_sphere(p, rings))
    {
        return 0.0;
    }
    g.points()
        .into_iter()
        .map(|q| {
            if spherical {
                sphere_distance(p, q)
            } else {
                planar_distance(p, q)
            }
        })
        .fold(f64::INFINITY, f64::min)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(x: f64, y: f64) -> Pt {
        Pt { x, y }
    }

    fn square() -> Vec<Pt> {
        vec![pt(0., 0.), pt(0., 1.), pt(1., 1.), pt(1., 0.), pt(0., 0.)]
    }

    #[test]
    fn distances() {
        let d = sphere_distance(pt(0., 0.), pt(0., 1.));
        assert!((d - 1f64.to_radians()).abs() < 1e-12);
        assert!((sphere_distance(pt(0., 0.), pt(180., 0.)) - std::f64::consts::PI).abs() < 1e-12);
        assert_eq!(planar_distance(pt(0., 0.), pt(3., 4.)), 5.0);
    }

    #[test]
    fn spherical_point_in_polygon() {
        let sq = square();
        assert!(in_ring_sphere(pt(0.5, 0.5), &sq));
        assert!(!in_ring_sphere(pt(1.5, 0.5), &sq));
        assert!(
            !in_ring_sphere(pt(-179.5, -0.5), &sq),
            "the antipode is outside"
        );
        assert!(in_ring_sphere(pt(0., 0.), &sq), "a vertex is inside");
        let ccw: Vec<Pt> = sq.iter().rev().copied().collect();
        assert!(
            in_ring_sphere(pt(0.5, 0.5), &ccw),
            "winding order does not matter"
        );
        let hole = vec![
            pt(0.25, 0.25),
            pt(0.25, 0.75),
            pt(0.75, 0.75),
            pt(0.75, 0.25),
            pt(0.25, 0.25),
        ];
        assert!(!in_polygon_sphere(
            pt(0.5, 0.5),
            &[sq.clone(), hole.clone()]
        ));
        assert!(in_polygon_sphere(pt(0.1, 0.5), &[sq, hole]));
    }

    #[test]
    fn planar_point_in_polygon_includes_boundary() {
        let sq = square();
        assert!(in_polygon_planar(pt(0.5, 0.5), &sq));
        assert!(in_polygon_planar(pt(1.0, 0.5), &sq));
        assert!(!in_polygon_planar(pt(1.5, 0.5), &sq));
        assert!(!in_polygon_planar(pt(f64::NAN, 0.5), &sq));
    }

    #[test]
    fn crossing_and_intersection() {
        assert!(arcs_cross(pt(0., 0.), pt(1., 1.), pt(0., 1.), pt(1., 0.)));
        assert!(!arcs_cross(pt(0., 0.), pt(1., 0.), pt(0., 1.), pt(1., 1.)));
        let poly = Geometry::Polygons(vec![vec![square()]]);
        let line = Geometry::Lines(vec![vec![pt(-1., 0.5), pt(2., 0.5)]]);
        assert!(intersects_sphere(&poly, &line).unwrap());
        assert!(!within_sphere(&line, &[vec![square()]]).unwrap());
        let inner = Geometry::Point(pt(0.5, 0.5));
        assert!(within_sphere(&inner, &[vec![square()]]).unwrap());
        assert!(!intersects_sphere(&Geometry::Point(pt(5., 5.)), &poly).unwrap());
        assert_eq!(distance_to(pt(0.5, 0.5), &poly, true), 0.0);
    }
}
