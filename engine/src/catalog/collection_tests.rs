//! Tests of [`super::Collection`] (beside it: `collection.rs` stays under the workspace's
//! 1,000 lines per file).

use super::*;
use bson::doc;
use std::ops::Bound;

fn spec(d: Document) -> IndexSpec {
    IndexSpec::parse(&d).unwrap()
}

#[test]
fn indexes_follow_inserts_and_removals() {
    let mut c = Collection::new();
    c.create_index(
        "t.c",
        spec(doc! {"key": {"a": 1}, "name": "a_1", "unique": true}),
    )
    .unwrap();
    let r1 = c.insert("t.c", doc! {"_id": 1, "a": 1}).unwrap();
    let e = c.insert("t.c", doc! {"_id": 2, "a": 1}).unwrap_err();
    assert_eq!(
        e.message,
        "E11000 duplicate key error collection: t.c index: a_1 dup key: { a: 1 }"
    );
    assert_eq!(c.len(), 1);
    assert_eq!(c.index("_id_").unwrap().len(), 1);
    let e = c
        .insert("t.c", doc! {"_id": 3, "a": [1, 2], "b": 1})
        .unwrap_err();
    assert_eq!(e.code(), 11000);
    c.remove(r1);
    assert!(c.index("a_1").unwrap().is_empty());
    c.insert("t.c", doc! {"_id": 2, "a": 1}).unwrap();
    assert_eq!(c.index("a_1").unwrap().len(), 1);
}

#[test]
fn failed_index_build_changes_nothing_and_specs_round_trip() {
    let mut c = Collection::new();
    c.insert("t.c", doc! {"_id": 1, "a": 1}).unwrap();
    c.insert("t.c", doc! {"_id": 2, "a": 1}).unwrap();
    let e = c
        .create_index(
            "t.c",
            spec(doc! {"key": {"a": 1}, "name": "a_1", "unique": true}),
        )
        .unwrap_err();
    assert_eq!(e.code(), 11000);
    assert_eq!(c.indexes().len(), 1);
    c.create_index("t.c", spec(doc! {"key": {"a": -1}, "name": "a_-1"}))
        .unwrap();
    let opts = c.catalog_options();
    assert_eq!(
        opts,
        doc! {"$indexes": [{"v": 2, "key": {"a": -1}, "name": "a_-1"}]}
    );
    let back = Collection::with_options(opts);
    assert!(back.options.is_empty());
    assert_eq!(back.indexes().len(), 2);
    assert!(c.drop_index("a_-1").is_some());
    assert!(c.drop_index("_id_").is_none());
}

#[test]
fn duplicate_ids_are_rejected_across_numeric_types() {
    let mut c = Collection::new();
    c.insert("t.c", doc! {"_id": 1, "a": 1}).unwrap();
    let err = c.insert("t.c", doc! {"_id": 1.0, "a": 2}).unwrap_err();
    assert_eq!(err.code(), 11000);
    assert_eq!(
        err.message,
        "E11000 duplicate key error collection: t.c index: _id_ dup key: { _id: 1.0 }"
    );
    assert_eq!(c.len(), 1);
}

#[test]
fn the_kept_capped_size_follows_every_change() {
    let mut c = Collection::with_options(doc! {"capped": true, "size": 1000});
    for i in 0..3 {
        c.insert("t.c", doc! {"_id": i}).unwrap();
    }
    assert!(c.evict_over_cap().is_empty());
    let rid = c.find_by_id(&Bson::Int32(1)).unwrap();
    c.remove(rid);
    c.insert_with_record_id("t.c", rid, doc! {"_id": 1, "grown": "x".repeat(50)})
        .unwrap();
    c.insert("t.c", doc! {"_id": 9}).unwrap();
    let measured: u64 = c.iter().map(|(_, d)| bson_size(d) as u64).sum();
    assert_eq!(c.data_size(), measured);
}

fn with_indexes() -> Collection {
    Collection::with_options(doc! {"$indexes": [
        {"key": {"tags": 1, "n": -1}, "name": "tags_1_n_-1"},
        {"key": {"u": 1}, "name": "u_1", "unique": true, "sparse": true},
    ]})
}

fn state(c: &Collection) -> Vec<String> {
    let mut out: Vec<String> = c.iter().map(|(r, d)| format!("{r} {d}")).collect();
    for index in c.indexes() {
        out.push(format!("{} {:?}", index.name(), index.multikey_paths()));
        for ((bytes, rid), key) in index.range(Bound::Unbounded, Bound::Unbounded) {
            out.push(format!("{bytes:?} {rid} {key:?}"));
        }
    }
    out
}

#[test]
fn loading_all_at_once_builds_what_inserting_one_by_one_builds() {
    let docs = vec![
        (7, doc! {"_id": 3, "tags": ["b", "a"], "n": 1, "u": "x"}),
        (2, doc! {"_id": "s", "tags": "a", "n": 2}),
        (5, doc! {"_id": {"k": 1}, "n": 3, "u": "y"}),
        (9, doc! {"_id": 1.5, "tags": [], "u": null}),
    ];
    let mut one_by_one = with_indexes();
    for (rid, d) in &docs {
        one_by_one
            .insert_with_record_id("t.c", *rid, d.clone())
            .unwrap();
    }
    let mut at_once = with_indexes();
    at_once
        .insert_all_with_record_ids("t.c", docs[..2].to_vec())
        .unwrap();
    at_once
        .insert_all_with_record_ids("t.c", docs[2..].to_vec())
        .unwrap();
    assert_eq!(state(&at_once), state(&one_by_one));
    assert_eq!(at_once.find_by_id(&Bson::Double(1.5)), Some(9));
    assert_eq!(at_once.insert("t.c", doc! {"_id": 0}).unwrap(), 10);
}

#[test]
fn a_failed_load_changes_nothing() {
    let mut c = with_indexes();
    c.insert_all_with_record_ids("t.c", vec![(1, doc! {"_id": 1, "u": 1})])
        .unwrap();
    let before = state(&c);
    let failures = [
        (
            vec![(2, doc! {"_id": 2}), (3, doc! {"_id": 2.0})],
            "_id_ dup key: { _id: 2.0 }",
        ),
        (vec![(2, doc! {"_id": 1.0})], "_id_ dup key: { _id: 1.0 }"),
        (
            vec![(2, doc! {"_id": 2, "u": 5}), (3, doc! {"_id": 3, "u": 5})],
            "u_1 dup key: { u: 5 }",
        ),
        (vec![(2, doc! {"_id": 2, "u": 1})], "u_1 dup key: { u: 1 }"),
        (
            vec![(2, doc! {"_id": 2}), (2, doc! {"_id": 3})],
            "record id 2 of t.c is stored twice",
        ),
        (
            vec![(1, doc! {"_id": 2})],
            "record id 1 of t.c is stored twice",
        ),
        (vec![(2, doc! {"x": 2})], "document without _id"),
        (
            vec![(2, doc! {"_id": 2, "tags": [1], "n": [2]})],
            "cannot index parallel arrays",
        ),
    ];
    for (docs, expected) in failures {
        let e = c.insert_all_with_record_ids("t.c", docs).unwrap_err();
        assert!(e.message.contains(expected), "{}", e.message);
        assert_eq!(state(&c), before);
    }
}

#[test]
fn replace_touches_changed_keys_only_and_a_clash_changes_nothing() {
    let mut c = Collection::new();
    c.create_index(
        "t.c",
        spec(doc! {"key": {"a": 1}, "name": "a_1", "unique": true}),
    )
    .unwrap();
    c.create_index("t.c", spec(doc! {"key": {"b": 1}, "name": "b_1"}))
        .unwrap();
    let one = c.insert("t.c", doc! {"_id": 1, "a": 1, "b": 1}).unwrap();
    c.insert("t.c", doc! {"_id": 2, "a": 2, "b": 2}).unwrap();
    let entries = |c: &Collection, name: &str| -> Vec<(u64, Vec<Bson>)> {
        c.index(name)
            .unwrap()
            .range(std::ops::Bound::Unbounded, std::ops::Bound::Unbounded)
            .map(|((_, rid), key)| (*rid, key.clone()))
            .collect()
    };
    // `b` changes type only (1 → 1.0): the stored key follows, as covered reads return it.
    let old = c
        .replace("t.c", one, doc! {"_id": 1, "a": 1, "b": 1.0})
        .unwrap();
    assert_eq!(old, doc! {"_id": 1, "a": 1, "b": 1});
    assert_eq!(
        entries(&c, "b_1"),
        [
            (one, vec![Bson::Double(1.0)]),
            (one + 1, vec![Bson::Int32(2)])
        ]
    );
    // A unique clash: nothing changes.
    let err = c
        .replace("t.c", one, doc! {"_id": 1, "a": 2, "b": 5})
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::DuplicateKey);
    assert_eq!(c.get(one), Some(&doc! {"_id": 1, "a": 1, "b": 1.0}));
    assert_eq!(entries(&c, "b_1")[0], (one, vec![Bson::Double(1.0)]));
    assert_eq!(
        entries(&c, "a_1"),
        [(one, vec![Bson::Int32(1)]), (one + 1, vec![Bson::Int32(2)])]
    );
    // Keys that move: the old entry goes.
    c.replace("t.c", one, doc! {"_id": 1, "a": 3, "b": 1.0})
        .unwrap();
    assert_eq!(
        entries(&c, "a_1"),
        [(one + 1, vec![Bson::Int32(2)]), (one, vec![Bson::Int32(3)])]
    );
    assert_eq!(c.find_by_id(&Bson::Int32(1)), Some(one));
}

#[test]
fn natural_order_is_insertion_order() {
    let mut c = Collection::new();
    for i in [3, 1, 2] {
        c.insert("t.c", doc! {"_id": i}).unwrap();
    }
    let ids: Vec<_> = c.iter().map(|(_, d)| d.get_i32("_id").unwrap()).collect();
    assert_eq!(ids, [3, 1, 2]);
    let rid = c.find_by_id(&Bson::Int32(1)).unwrap();
    c.remove(rid);
    assert_eq!(c.len(), 2);
    assert!(c.find_by_id(&Bson::Int32(1)).is_none());
}

/// Documents kept as bytes alone (`insert_kept`) read, change and leave as documents
/// inserted as trees do: the same state, the same `_id` clashes, the same sizes, whether
/// they were decoded before (by a read) or not.
#[test]
fn documents_kept_as_bytes_behave_as_trees() {
    let docs = [
        doc! {"_id": 1, "a": "x"},
        doc! {"_id": 2.5, "b": {"c": [1, 2]}},
        doc! {"_id": "s", "n": null},
        doc! {"_id": 4_i64},
    ];
    for read_first in [false, true] {
        let mut trees = Collection::with_options(doc! {"capped": true, "size": 4096});
        let mut kept = trees.clone();
        assert!(kept.keeps_bytes_alone());
        for d in &docs {
            trees.insert("t.c", d.clone()).unwrap();
            let bytes = d.to_vec().unwrap();
            kept.insert_kept("t.c", d.get("_id").unwrap(), &bytes)
                .unwrap();
        }
        assert_eq!(kept.data_size(), trees.data_size());
        if read_first {
            assert_eq!(kept.get(2), trees.get(2));
        }
        assert_eq!(state(&kept), state(&trees));
        for c in [&mut trees, &mut kept] {
            let e = c.insert_kept(
                "t.c",
                &Bson::Double(1.0),
                &doc! {"_id": 1.0}.to_vec().unwrap(),
            );
            assert_eq!(e.unwrap_err().code(), ErrorCode::DuplicateKey.code());
        }
        let again = kept.clone();
        for c in [&mut trees, &mut kept] {
            assert_eq!(c.remove(1), Some(docs[0].clone()));
            let old = c.replace("t.c", 2, doc! {"_id": 2.5, "b": 0}).unwrap();
            assert_eq!(old, docs[1]);
            assert_eq!(c.find_by_id(&Bson::Int64(4)), Some(4));
        }
        assert_eq!(state(&kept), state(&trees));
        assert_eq!(kept.data_size(), trees.data_size());
        assert_eq!(kept.evict_over_cap(), trees.evict_over_cap(),);
        assert_eq!(
            again.iter().map(|(_, d)| d.clone()).collect::<Vec<_>>(),
            docs.to_vec()
        );
    }
}
