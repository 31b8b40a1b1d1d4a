//! Reading geometries: GeoJSON checks as the 2dsphere index makes them, legacy pairs, and the
//! query operators over stored values.

use bson::{Bson, bson, doc};

use super::query::GeoPred;
use super::*;

fn shape(v: Bson) -> Result<Option<Shape>, Invalid> {
    read_shape(&v)
}

#[test]
fn geojson_checks() {
    assert!(
        shape(bson!({"type": "Point", "coordinates": [1, 2]}))
            .unwrap()
            .is_some()
    );
    assert!(shape(bson!({"type": "Point", "coordinates": [200, 2]})).is_err());
    assert!(shape(bson!({"type": "Point", "coordinates": [f64::NAN, 2]})).is_err());
    assert!(shape(bson!({"type": "Point", "coordinates": "x"})).is_err());
    assert!(shape(bson!({"type": "Blob", "coordinates": []})).is_err());
    let dup = bson!({"type": "Polygon", "coordinates": [[[0, 0], [0, 1], [1, 1], [0, 1], [0, 0]]]});
    assert!(
        shape(dup)
            .unwrap_err()
            .contains("Duplicate vertices: 1 and 3")
    );
    let open = bson!({"type": "Polygon", "coordinates": [[[0, 0], [0, 1], [1, 1], [1, 0]]]});
    assert!(shape(open).is_err());
    let bowtie =
        bson!({"type": "Polygon", "coordinates": [[[0, 0], [1, 1], [1, 0], [0, 1], [0, 0]]]});
    assert!(shape(bowtie).unwrap_err().contains("crosses"));
    let ok = bson!({"type": "Polygon", "coordinates": [[[0, 0], [0, 1], [1, 1], [1, 0], [0, 0]]]});
    assert!(shape(ok).unwrap().is_some());
    let nested = bson!({"type": "GeometryCollection", "geometries": [
        {"type": "GeometryCollection", "geometries": []}]});
    assert!(shape(nested).is_err());
}

#[test]
fn legacy_pairs() {
    assert_eq!(legacy_point(&bson!([1, 2.5])), Some(Pt { x: 1.0, y: 2.5 }));
    assert_eq!(
        legacy_point(&bson!({"lng": 1, "lat": 2})),
        Some(Pt { x: 1.0, y: 2.0 })
    );
    assert_eq!(legacy_point(&bson!([1])), None);
    assert_eq!(legacy_point(&bson!("a")), None);
}

#[test]
fn query_operators() {
    let within = GeoPred::parse_region("$geoWithin", &bson!({"$center": [[5, 5], 3]})).unwrap();
    assert!(within.query.matches(&bson!([5, 7])).unwrap());
    assert!(!within.query.matches(&bson!([9, 9])).unwrap());
    let boxed = GeoPred::parse_region("$geoWithin", &bson!({"$box": [[0, 0], [2, 2]]})).unwrap();
    assert!(
        boxed
            .query
            .matches(&bson!({"type": "Point", "coordinates": [1, 1]}))
            .unwrap()
    );
    assert!(
        boxed.query.matches(&bson!([[9, 9], [1, 1]])).unwrap(),
        "any location of several"
    );
    let geo = GeoPred::parse_region(
        "$geoIntersects",
        &bson!({"$geometry": {"type": "MultiPolygon", "coordinates": [[[[20, 70], [30, 70], [30, 50], [20, 50], [20, 70]]]]}}),
    )
    .unwrap();
    assert!(geo.query.matches(&bson!([25.0, 60.0])).unwrap());
    assert!(!geo.query.matches(&bson!([-25.0, -60.0])).unwrap());
    assert!(GeoPred::parse_region("$geoWithin", &bson!({"$nope": 1})).is_err());
    assert!(GeoPred::parse_region("$geoWithin", &bson!({"$center": [[f64::NAN, 0], 1]})).is_err());
    let near = GeoPred::parse_near(&doc! {"$near": [0, 0], "$maxDistance": 5}).unwrap();
    let n = near.near().unwrap();
    assert_eq!(n.distance(&bson!([3, 4])).unwrap().0, 5.0);
    assert!(near.query.matches(&bson!([3, 4])).unwrap());
    assert!(!near.query.matches(&bson!([6, 4])).unwrap());
    assert!(GeoPred::parse_near(&doc! {"$near": [0, 0], "$maxDistance": -1}).is_err());
    let sphere = GeoPred::parse_near(
        &doc! {"$near": {"$geometry": {"type": "Point", "coordinates": [0, 0]}, "$minDistance": 1}},
    )
    .unwrap();
    let d = sphere
        .near()
        .unwrap()
        .distance(&bson!({"type": "Point", "coordinates": [0, 0.01]}));
    assert!((d.unwrap().0 - 1113.2).abs() < 1.0);
}

#[test]
fn near_forms_and_refusals() {
    let bare = GeoPred::parse_near(&doc! {"$nearSphere": {"type": "Point", "coordinates": [1, 2]}});
    assert!(bare.unwrap().near().unwrap().geojson);
    let third = GeoPred::parse_near(&doc! {"$near": [0, 0, 3]}).unwrap();
    assert_eq!(third.near().unwrap().max, Some(3.0));
    assert!(GeoPred::parse_near(&doc! {"$near": [0, 0, -1]}).is_err());
    let oob = GeoPred::parse_near(&doc! {"$nearSphere": [179, -91]}).unwrap_err();
    assert_eq!(oob.code.code(), 17444);
    let extra = GeoPred::parse_near(&doc! {
        "$near": {"$geometry": {"type": "Point", "coordinates": [0, 0]}},
        "$minDistance": 0.1
    })
    .unwrap_err();
    assert!(
        extra
            .message
            .starts_with("geo near accepts just one argument")
    );
    let circle = GeoPred::parse_region("$within", &bson!({"$center": [[5, 52], 0.0001]})).unwrap();
    assert!(
        circle
            .query
            .matches(&bson!({"x": 5, "y": 52.0001}))
            .unwrap()
    );
    assert!(
        !circle
            .query
            .matches(&bson!({"x": 5.0001, "y": 52.0001}))
            .unwrap()
    );
}

#[test]
fn rings_and_holes() {
    let repeated = bson!({"type": "Polygon", "coordinates": [[[0, 0], [0, 0], [0, 1], [1, 1], [1, 0], [0, 0]]]});
    assert!(
        shape(repeated).unwrap().is_some(),
        "consecutive repeats are one vertex"
    );
    let outer = bson!([[0, 0], [0, 3], [3, 3], [3, 0], [0, 0]]);
    let hole = bson!([[1, 1], [1, 2], [2, 2], [2, 1], [1, 1]]);
    let ok = bson!({"type": "Polygon", "coordinates": [outer.clone(), hole]});
    assert!(shape(ok).unwrap().is_some());
    let same = bson!({"type": "Polygon", "coordinates": [outer.clone(), outer.clone()]});
    assert!(shape(same).is_err());
    let out = bson!([[2, 2], [2, 4], [4, 4], [4, 2], [2, 2]]);
    let protruding = bson!({"type": "Polygon", "coordinates": [outer, out]});
    assert!(shape(protruding).unwrap_err().contains("must be holes"));
}
