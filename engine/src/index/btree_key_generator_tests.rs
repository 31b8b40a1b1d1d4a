//! Expected keys and multikey paths from MongoDB's `btree_key_generator_test.cpp` (8.0), and
//! the linear cost of fields paired through one large array.

use std::collections::BTreeSet;

use bson::{Bson, Document, doc};

use super::*;

fn spec(key: Document, sparse: bool) -> IndexSpec {
    IndexSpec::parse(&doc! {"key": key, "name": "i", "sparse": sparse}).unwrap()
}

/// The keys as a sorted set of their Extended JSON texts, and the multikey paths.
fn keys_of(key: Document, from: Document, sparse: bool) -> (BTreeSet<String>, Vec<Vec<usize>>) {
    let generated = generate(&spec(key, sparse), &from).unwrap();
    let keys = generated
        .keys
        .iter()
        .map(|k| Bson::Array(k.clone()).into_relaxed_extjson().to_string())
        .collect();
    let paths = generated
        .multikey_paths
        .iter()
        .map(|p| p.iter().copied().collect())
        .collect();
    (keys, paths)
}

fn set(keys: &[Bson]) -> BTreeSet<String> {
    keys.iter()
        .map(|k| k.clone().into_relaxed_extjson().to_string())
        .collect()
}

fn assert_keys(key: Document, from: Document, want: &[Bson], paths: &[&[usize]]) {
    let (got, got_paths) = keys_of(key.clone(), from.clone(), false);
    assert_eq!(got, set(want), "{key:?} over {from:?}");
    let want_paths: Vec<Vec<usize>> = paths.iter().map(|p| p.to_vec()).collect();
    assert_eq!(
        got_paths, want_paths,
        "multikey paths of {key:?} over {from:?}"
    );
}

fn error_code(key: Document, from: Document) -> i32 {
    generate(&spec(key, false), &from).err().unwrap().code()
}

#[test]
fn fields_through_one_array_are_paired_per_element() {
    assert_keys(
        doc! {"a.x": 1, "a.y": 1},
        doc! {"a": [{"x": 1, "y": 2}, {"x": 3, "y": 4}]},
        &[bson::bson!([1, 2]), bson::bson!([3, 4])],
        &[&[0], &[0]],
    );
    // GetKeysAlternateMissing.
    assert_keys(
        doc! {"a.b": 1, "a.c": 1},
        doc! {"a": [{"b": 1}, {"c": 2}]},
        &[bson::bson!([null, 2]), bson::bson!([1, null])],
        &[&[0], &[0]],
    );
    // GetKeysFromDoubleArray: the same field twice.
    assert_keys(
        doc! {"a": 1, "a.b": 1},
        doc! {"a": [{"b": 1}, {"b": 2}]},
        &[bson::bson!([{"b": 1}, 1]), bson::bson!([{"b": 2}, 2])],
        &[&[0], &[0]],
    );
    // A field outside the array is the same in every key.
    assert_keys(
        doc! {"a.b": 1, "d": 1},
        doc! {"a": [{"b": 1}, {"b": 2}, {"b": 3}], "d": 99},
        &[
            bson::bson!([1, 99]),
            bson::bson!([2, 99]),
            bson::bson!([3, 99]),
        ],
        &[&[0], &[]],
    );
}

#[test]
fn arrays_at_several_levels_of_one_path() {
    // GetKeysFromMultiComplex, MultipleArraysNotParallel(Compound).
    assert_keys(
        doc! {"a.b": 1},
        doc! {"a": [{"b": 1}, {"b": [1, 2, 3]}]},
        &[bson::bson!([1]), bson::bson!([2]), bson::bson!([3])],
        &[&[0, 1]],
    );
    assert_keys(
        doc! {"a.b.c": 1, "a.b.d": 1},
        doc! {"a": [1, 2, {"b": {"c": [3, 4], "d": 5}}]},
        &[
            bson::bson!([null, null]),
            bson::bson!([3, 5]),
            bson::bson!([4, 5]),
        ],
        &[&[0, 2], &[0]],
    );
}

#[test]
fn empty_arrays_and_missing_fields() {
    // GetKeysFromUnevenNestedEmptyArray, GetKeysFromMultiNestedEmptyArray.
    assert_keys(
        doc! {"a": 1, "a.b": 1},
        doc! {"a": []},
        &[bson::bson!([Bson::Undefined, null])],
        &[&[0], &[0]],
    );
    assert_keys(
        doc! {"a": 1, "a.b": 1},
        doc! {"a": [{"b": []}]},
        &[bson::bson!([{"b": []}, Bson::Undefined])],
        &[&[0], &[0, 1]],
    );
    assert_keys(
        doc! {"a.b": 1, "a.c": 1},
        doc! {"a": []},
        &[bson::bson!([null, null])],
        &[&[0], &[0]],
    );
    assert_keys(
        doc! {"a.b": 1},
        doc! {"a": [1, 2]},
        &[bson::bson!([null])],
        &[&[0]],
    );
    assert_keys(
        doc! {"x": 1, "y": 1},
        doc! {"x": "a"},
        &[bson::bson!(["a", null])],
        &[&[], &[]],
    );
}

#[test]
fn sparse_indexes_skip_keys_whose_fields_are_all_missing() {
    // SparseNonObjectMissingNestedField, GetKeysFromSparseEmptyArray(Second).
    let sparse = |key: Document, from: Document| keys_of(key, from, true).0;
    assert!(sparse(doc! {"a.b": 1}, doc! {"a": []}).is_empty());
    assert!(sparse(doc! {"a.b": 1}, doc! {"a": [1]}).is_empty());
    assert_eq!(
        sparse(doc! {"a.b": 1}, doc! {"a": [1, {"b": 1}]}),
        set(&[bson::bson!([1])])
    );
    assert!(sparse(doc! {"z": 1, "a.b": 1}, doc! {"a": [{"c": 1}]}).is_empty());
    assert_eq!(
        sparse(doc! {"a.b": 1, "a": 1}, doc! {"a": []}),
        set(&[bson::bson!([null, Bson::Undefined])])
    );
}

#[test]
fn positional_components() {
    // GetKeysFromIndexedArrayIndex.
    assert_keys(
        doc! {"a.0": 1},
        doc! {"a": [1]},
        &[bson::bson!([1])],
        &[&[]],
    );
    assert_keys(
        doc! {"a.0": 1},
        doc! {"a": [[1]]},
        &[bson::bson!([[1]])],
        &[&[]],
    );
    assert_keys(
        doc! {"a.0": 1},
        doc! {"a": [[]]},
        &[bson::bson!([Bson::Undefined])],
        &[&[]],
    );
    assert_keys(
        doc! {"a.0": 1},
        doc! {"a": {"0": 1}},
        &[bson::bson!([1])],
        &[&[]],
    );
    assert_eq!(error_code(doc! {"a.0": 1}, doc! {"a": [{"0": 1}]}), 16746);
    assert_eq!(
        error_code(doc! {"a.0": 1}, doc! {"a": [1, {"0": 2}]}),
        16746
    );
    // GetKeysFromDoubleIndexedArrayIndex: "0" of an empty array is a field name.
    assert_keys(
        doc! {"a.0.0": 1},
        doc! {"a": []},
        &[bson::bson!([null])],
        &[&[0]],
    );
    // GetKeysFromObjectWithinArray, GetKeysPositionalElementIsExpandedArray.
    assert_keys(
        doc! {"a.0.b": 1},
        doc! {"a": [{"b": [1]}]},
        &[bson::bson!([1])],
        &[&[2]],
    );
    assert_keys(
        doc! {"a.0.b": 1},
        doc! {"a": [[{"b": 1}]]},
        &[bson::bson!([1])],
        &[&[1]],
    );
    assert_keys(
        doc! {"a.0.b": 1},
        doc! {"a": [[{"b": 1}, {"b": 2}]]},
        &[bson::bson!([1]), bson::bson!([2])],
        &[&[1]],
    );
    // GetKeysTrailingPositionalElementIsSingletonArray, GetKeysManyPositionalElementsComplex.
    assert_keys(
        doc! {"a.b.c.3": 1},
        doc! {"a": {"b": {"c": [0, 1, 2, [3]]}}},
        &[bson::bson!([[3]])],
        &[&[]],
    );
    assert_keys(
        doc! {"a.0.1.2.b.0": 1},
        doc! {"a": [[1, [1, 2, [{"b": [[], 2]}]]], 1]},
        &[bson::bson!([Bson::Undefined])],
        &[&[3]],
    );
}

#[test]
fn parallel_arrays_are_refused_at_any_level() {
    let e = generate(
        &spec(doc! {"a": 1, "b": 1}, false),
        &doc! {"a": [1], "b": [2]},
    )
    .unwrap_err();
    assert_eq!(e.code(), 171);
    assert_eq!(e.message, "cannot index parallel arrays [b] [a]");
    // GetKeysFromParallelArraysComplex, ParallelArraysInNestedObjects, ParallelArraysUneven.
    assert_eq!(
        error_code(
            doc! {"a.b": 1, "a.c": 1},
            doc! {"a": [{"b": [1], "c": [2]}]}
        ),
        171
    );
    assert_eq!(
        error_code(
            doc! {"a.a": 1, "b.a": 1},
            doc! {"a": {"a": [1]}, "b": {"a": [1]}}
        ),
        171
    );
    assert_eq!(
        error_code(doc! {"b.a": 1, "a": 1}, doc! {"b": {"a": [1]}, "a": [1, 2]}),
        171
    );
    // One array element with an array under one field only is fine.
    assert_keys(
        doc! {"a.b": 1, "a.c": 1},
        doc! {"a": [{"b": [1, 2], "c": 5}, {"b": 3, "c": [6]}]},
        &[
            bson::bson!([1, 5]),
            bson::bson!([2, 5]),
            bson::bson!([3, 6]),
        ],
        &[&[0, 1], &[0, 1]],
    );
}

#[test]
fn hashed_fields_refuse_arrays() {
    let s = spec(doc! {"a.b": "hashed"}, false);
    assert_eq!(
        generate(&s, &doc! {"a": [{"b": 1}]}).err().unwrap().code(),
        16766
    );
    assert_eq!(
        generate(&s, &doc! {"a": {"b": []}}).err().unwrap().code(),
        16766
    );
    assert_eq!(generate(&s, &doc! {"a": {"b": 1}}).unwrap().keys.len(), 1);
}

#[test]
fn paired_fields_over_a_large_array_make_one_key_per_element() {
    // Combining every value of one field with every value of the other asked for 900 million
    // keys here; pairing per element makes 30,000.
    let s = spec(doc! {"a.b": 1, "a.c": 1}, false);
    let items: Vec<Bson> = (0..30_000)
        .map(|i| Bson::Document(doc! {"b": i, "c": i}))
        .collect();
    let generated = generate(&s, &doc! {"a": items}).unwrap();
    assert_eq!(generated.keys.len(), 30_000);
    assert_eq!(
        generated.keys[29_999],
        vec![Bson::Int32(29_999), Bson::Int32(29_999)]
    );
}

#[test]
fn keys_copying_a_large_element_stop_at_the_memory_limit() {
    // `{a: 1, 'a.b': 1}` pairs the whole element with each value of its array: n keys of n
    // values each.
    let s = spec(doc! {"a": 1, "a.b": 1}, false);
    let big: Vec<Bson> = (0..20_000).map(Bson::Int32).collect();
    let e = generate(&s, &doc! {"a": [{"b": big}]}).err().unwrap();
    assert_eq!(e.code(), 146);
    assert!(e.message.contains("104857600 bytes"), "{}", e.message);
    let small: Vec<Bson> = (0..100).map(Bson::Int32).collect();
    assert_eq!(
        generate(&s, &doc! {"a": [{"b": small}]})
            .unwrap()
            .keys
            .len(),
        100
    );
}
