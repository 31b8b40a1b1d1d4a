//! A pipeline whose stages after the find read no field of its documents (a `$group` of
//! constants, as `countDocuments` sends) has the find count instead of fetching: the answers
//! must be the ones the same pipeline gives when a stage in between makes it fetch.

use bson::{Bson, Document, doc};

use super::test_support::first_batch;
use crate::Engine;

fn engine() -> Engine {
    let mut e = Engine::new();
    let docs: Vec<Document> = (0..300)
        .map(|i| {
            let cat = ["a", "b", "c"][i as usize % 3];
            let mut d = doc! {"_id": i, "price": f64::from(i % 97) * 1.5, "cat": cat};
            if i % 4 == 0 {
                d.insert(
                    "tags",
                    vec![Bson::Int32(i % 5), Bson::Int32(i % 7), Bson::Int32(i % 5)],
                );
            }
            d
        })
        .collect();
    let r = e.run_command("t", &doc! {"insert": "c", "documents": docs});
    assert!(crate::reply_ok(&r), "{r:?}");
    let r = e.run_command(
        "t",
        &doc! {"createIndexes": "c", "indexes": [
            {"key": {"price": 1}, "name": "price_1"},
            {"key": {"tags": 1}, "name": "tags_1"},
            {"key": {"cat": 1, "price": -1}, "name": "cat_1_price_-1"},
        ]},
    );
    assert!(crate::reply_ok(&r), "{r:?}");
    e
}

fn aggregate(e: &mut Engine, pipeline: &[Document]) -> Vec<Document> {
    let r = e.run_command(
        "t",
        &doc! {"aggregate": "c", "pipeline": pipeline.to_vec(), "cursor": {}},
    );
    assert!(crate::reply_ok(&r), "{r:?}");
    first_batch(&r)
}

#[test]
fn counting_finds_answer_as_fetching_ones() {
    let mut e = engine();
    let filters = [
        doc! {},
        doc! {"price": {"$gte": 30, "$lt": 90}},
        doc! {"price": 12},
        doc! {"tags": {"$gte": 2, "$lte": 4}},
        doc! {"tags": 3},
        doc! {"cat": "b", "price": {"$gt": 100}},
        doc! {"cat": "c", "_id": {"$mod": [2, 0]}},
        doc! {"nothing": {"$exists": true}},
    ];
    let groups = [
        doc! {"$group": {"_id": 1, "n": {"$sum": 1}}},
        doc! {"$group": {"_id": null, "n": {"$count": {}}, "twice": {"$sum": 2}, "avg": {"$avg": 3}}},
    ];
    let windows: [&[Document]; 4] = [
        &[],
        &[doc! {"$skip": 5}],
        &[doc! {"$limit": 7}],
        &[doc! {"$skip": 3}, doc! {"$limit": 40}],
    ];
    let mut compared = 0;
    for filter in &filters {
        for group in &groups {
            for window in windows {
                let mut counted = vec![doc! {"$match": filter.clone()}];
                counted.extend(window.iter().cloned());
                // `$addFields` reads nothing but is no `$group`: the find fetches.
                let mut fetched = counted.clone();
                fetched.push(doc! {"$addFields": {"fetched": true}});
                counted.push(group.clone());
                fetched.push(group.clone());
                let want = aggregate(&mut e, &fetched);
                assert_eq!(aggregate(&mut e, &counted), want, "{counted:?}");
                compared += 1;
            }
        }
    }
    assert_eq!(compared, filters.len() * groups.len() * windows.len());
    // The harness's count: 120 of the 300 prices are in [30, 90).
    let n = aggregate(
        &mut e,
        &[
            doc! {"$match": {"price": {"$gte": 30, "$lt": 90}}},
            doc! {"$group": {"_id": 1, "n": {"$sum": 1}}},
        ],
    );
    assert_eq!(n, vec![doc! {"_id": 1, "n": 120}]);
}

#[test]
fn a_group_reading_fields_still_fetches() {
    let mut e = engine();
    let r = aggregate(
        &mut e,
        &[
            doc! {"$match": {"price": {"$lt": 3}}},
            doc! {"$group": {"_id": "$cat", "total": {"$sum": "$price"}}},
            doc! {"$sort": {"_id": 1}},
        ],
    );
    assert_eq!(
        r,
        vec![
            doc! {"_id": "a", "total": 1.5},
            doc! {"_id": "b", "total": 3.0},
            doc! {"_id": "c", "total": 1.5},
        ]
    );
}
