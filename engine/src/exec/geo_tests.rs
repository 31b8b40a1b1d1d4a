//! Geospatial queries through the commands: `2d`/`2dsphere` index creation and key checks,
//! `$geoWithin`/`$geoIntersects` with and without an index, `$near` order and bounds, the
//! errors MongoDB 8.0 gives for a near query without an index or out of place, `$geoNear`.

use bson::{Bson, Document, doc};

use crate::Engine;

fn run(e: &mut Engine, cmd: Document) -> Document {
    let r = e.run_command("test", &cmd);
    assert!(crate::reply_ok(&r), "{cmd:?} -> {r:?}");
    r
}

fn error(e: &mut Engine, cmd: Document) -> (i32, String) {
    let r = e.run_command("test", &cmd);
    assert!(!crate::reply_ok(&r), "{cmd:?} -> {r:?}");
    (
        r.get_i32("code").unwrap_or_default(),
        r.get_str("errmsg").unwrap_or_default().to_string(),
    )
}

fn ids(r: &Document) -> Vec<i32> {
    r.get_document("cursor")
        .and_then(|c| c.get_array("firstBatch"))
        .map(|b| {
            b.iter()
                .filter_map(|d| d.as_document()?.get_i32("_id").ok())
                .collect()
        })
        .unwrap_or_default()
}

fn grid(index: Option<&str>) -> Engine {
    let mut e = Engine::new();
    let docs: Vec<Document> = (0..5)
        .flat_map(|x| (0..5).map(move |y| doc! {"_id": x * 10 + y, "loc": [x, y]}))
        .collect();
    run(&mut e, doc! {"insert": "c", "documents": docs});
    if let Some(kind) = index {
        run(
            &mut e,
            doc! {"createIndexes": "c", "indexes": [{"key": {"loc": kind}, "name": "g"}]},
        );
    }
    e
}

#[test]
fn within_gives_the_same_answer_with_and_without_an_index() {
    for index in [None, Some("2d"), Some("2dsphere")] {
        let mut e = grid(index);
        let f = doc! {"loc": {"$geoWithin": {"$box": [[1, 1], [2, 2]]}}};
        let r = run(&mut e, doc! {"find": "c", "filter": f, "sort": {"_id": 1}});
        assert_eq!(ids(&r), vec![11, 12, 21, 22], "{index:?}");
        let f = doc! {"loc": {"$within": {"$center": [[0, 0], 1]}}};
        let r = run(&mut e, doc! {"find": "c", "filter": f, "sort": {"_id": 1}});
        assert_eq!(ids(&r), vec![0, 1, 10], "{index:?}");
    }
}

#[test]
fn near_orders_by_distance_and_needs_an_index() {
    let mut e = grid(None);
    let f = doc! {"loc": {"$near": [4, 4], "$maxDistance": 1}};
    let (code, msg) = error(&mut e, doc! {"find": "c", "filter": f.clone()});
    assert_eq!(code, 291);
    assert!(
        msg.ends_with("unable to find index for $geoNear query"),
        "{msg}"
    );
    let mut e = grid(Some("2d"));
    let r = run(&mut e, doc! {"find": "c", "filter": f});
    assert_eq!(ids(&r), vec![44, 34, 43]);
    let f = doc! {"loc": {"$near": [0, 0]}};
    let r = run(&mut e, doc! {"find": "c", "filter": f, "limit": 3});
    assert_eq!(ids(&r), vec![0, 1, 10]);
    let bad = doc! {"$or": [{"loc": {"$near": [0, 0]}}, {"_id": 1}]};
    let (code, msg) = error(&mut e, doc! {"find": "c", "filter": bad});
    assert_eq!((code, msg.as_str()), (2, "geoNear must be top-level expr"));
    let r = run(
        &mut e,
        doc! {"explain": {"find": "c", "filter": {"loc": {"$near": [0, 0]}}}},
    );
    let stage = r
        .get_document("queryPlanner")
        .and_then(|q| q.get_document("winningPlan"))
        .and_then(|w| w.get_str("stage"))
        .unwrap_or_default()
        .to_string();
    assert_eq!(stage, "GEO_NEAR_2D");
    let pipeline = vec![Bson::Document(doc! {"$match": {"loc": {"$near": [0, 0]}}})];
    let (code, _) = error(
        &mut e,
        doc! {"aggregate": "c", "pipeline": pipeline, "cursor": {}},
    );
    assert_eq!(code, 2);
    let graph = doc! {"$graphLookup": {"from": "c", "startWith": 0, "connectFromField": "a",
    "connectToField": "b", "as": "o",
    "restrictSearchWithMatch": {"$and": [{"loc": {"$near": [0, 0]}}]}}};
    let (code, msg) = error(
        &mut e,
        doc! {"aggregate": "c", "pipeline": [graph], "cursor": {}},
    );
    assert_eq!(code, 2, "{msg}");
}

#[test]
fn sphere_index_refuses_bad_geometry_and_geo_near_measures_meters() {
    let mut e = Engine::new();
    run(
        &mut e,
        doc! {"createIndexes": "s", "indexes": [{"key": {"loc": "2dsphere"}, "name": "s"}]},
    );
    let bad = doc! {"_id": 9, "loc": {"type": "Polygon", "coordinates": [[[0, 0], [0, 1], [1, 1], [0, 1], [0, 0]]]}};
    let r = e.run_command("test", &doc! {"insert": "s", "documents": [bad]});
    let code = r
        .get_array("writeErrors")
        .ok()
        .and_then(|w| w.first()?.as_document()?.get_i32("code").ok());
    assert_eq!(code, Some(16755));
    let docs = vec![
        doc! {"_id": 1, "loc": {"type": "Point", "coordinates": [0, 0.01]}},
        doc! {"_id": 2, "loc": {"type": "Point", "coordinates": [0, 0]}},
        doc! {"_id": 3, "other": 1},
    ];
    run(&mut e, doc! {"insert": "s", "documents": docs});
    let stage = doc! {"$geoNear": {"near": {"type": "Point", "coordinates": [0, 0]}, "distanceField": "d", "minDistance": 1}};
    let r = run(
        &mut e,
        doc! {"aggregate": "s", "pipeline": [stage], "cursor": {}},
    );
    assert_eq!(ids(&r), vec![1]);
    let first = r
        .get_document("cursor")
        .and_then(|c| c.get_array("firstBatch"))
        .ok()
        .and_then(|b| b.first()?.as_document()?.get_f64("d").ok())
        .unwrap_or_default();
    assert!((first - 1113.19).abs() < 0.01, "{first}");
    let poly = doc! {"type": "Polygon", "coordinates": [[[-1, -1], [-1, 0.005], [1, 0.005], [1, -1], [-1, -1]]]};
    let f = doc! {"loc": {"$geoIntersects": {"$geometry": poly}}};
    let r = run(&mut e, doc! {"find": "s", "filter": f});
    assert_eq!(ids(&r), vec![2]);
}

#[test]
fn index_specs() {
    let mut e = Engine::new();
    for (key, ok) in [
        (doc! {"a": "2d", "b": 1}, true),
        (doc! {"a": 1, "b": "2d"}, false),
        (doc! {"a": "2d", "b": "2d"}, false),
        (doc! {"a": 1, "b": "2dsphere", "c": "2dsphere"}, true),
        (doc! {"a": "2dsphere", "b": "text"}, false),
        (doc! {"a": "hashed", "b": "2dsphere"}, false),
        (doc! {"a": "geoHaystack", "b": 1}, false),
    ] {
        let r = e.run_command(
            "test",
            &doc! {"createIndexes": "i", "indexes": [{"key": key.clone(), "name": "x"}]},
        );
        assert_eq!(crate::reply_ok(&r), ok, "{key:?} -> {r:?}");
        run(&mut e, doc! {"dropIndexes": "i", "index": "*"});
    }
    let r = e.run_command(
        "test",
        &doc! {"createIndexes": "i", "indexes": [{"key": {"p": "2d"}, "name": "p", "bits": 40}]},
    );
    assert_eq!(r.get_i32("code").ok(), Some(13028));
    let (code, msg) = error(
        &mut e,
        doc! {"createIndexes": "i", "indexes": [{"key": {"p": "geoHaystack", "q": 1}, "name": "h", "bucketSize": 1}]},
    );
    assert_eq!(
        (code, msg.as_str()),
        (
            67,
            "GeoHaystack indexes cannot be created in version 5.0 and above"
        )
    );
}

#[test]
fn geo_near_reads_let_constants() {
    let mut e = grid(Some("2d"));
    let stage = doc! {"$geoNear": {"near": "$$p", "distanceField": "d", "maxDistance": "$$m"}};
    let r = run(
        &mut e,
        doc! {"aggregate": "c", "pipeline": [stage], "cursor": {}, "let": {"p": [0, 0], "m": 1}},
    );
    assert_eq!(ids(&r), vec![0, 1, 10]);
}

#[test]
fn near_point_outside_a_2d_index_range_is_refused() {
    // jstests/core/geo_borders.js: a $geoNear from a point beyond the index's max is 16433
    // (GeoHashConverter::hash(x, y), geo/hash.cpp); on the border it is answered.
    let mut e = Engine::new();
    run(
        &mut e,
        doc! {"insert": "b", "documents": [{"_id": 1, "loc": [1, 1]}, {"_id": 2, "loc": [-1, 0]}]},
    );
    run(
        &mut e,
        doc! {"createIndexes": "b", "indexes": [{"key": {"loc": "2d"}, "name": "g", "min": -1, "max": 1}]},
    );
    let near = |p: Bson| {
        doc! {"aggregate": "b", "cursor": {}, "pipeline": [{"$geoNear": {"near": p, "distanceField": "d"}}]}
    };
    let (code, msg) = error(&mut e, near(bson::bson!([1.0001, 1])));
    assert_eq!(code, 16433, "{msg}");
    assert!(
        msg.contains("point not in interval of [ -1, 1 ] :: caused by :: [ 1.0001, 1.0 ]"),
        "{msg}"
    );
    let r = run(&mut e, near(bson::bson!([1, 1])));
    assert_eq!(ids(&r), vec![1, 2]);
    // Inserting a point outside the range names the document (13027).
    let r = run(
        &mut e,
        doc! {"insert": "b", "documents": [{"_id": 3, "loc": [2, 0]}]},
    );
    let err = r.get_array("writeErrors").unwrap()[0]
        .as_document()
        .unwrap();
    assert_eq!(err.get_i32("code").ok(), Some(13027));
    assert_eq!(
        err.get_str("errmsg").ok(),
        Some("point not in interval of [ -1, 1 ] :: caused by :: { _id: 3, loc: [ 2, 0 ] }")
    );
}
