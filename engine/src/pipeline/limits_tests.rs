//! MongoDB's limits on pipelines, through the `aggregate` command: sub-pipeline depth,
//! `$lookup`'s joined size, `$densify`'s generated documents, the caps on strings and arrays
//! built by expressions; and sizes that were quadratic (`$unwind`). Each limit is hit, and
//! approached from just under where that takes little memory.

use bson::{Bson, Document, doc};

use super::MAX_SUB_PIPELINE_DEPTH;
use super::stages::MAX_JOINED_BYTES;
use crate::Engine;

fn engine() -> Engine {
    let mut e = Engine::new();
    let r = e.run_command(
        "t",
        &doc! {"insert": "c", "documents": [{"_id": 1}, {"_id": 2}]},
    );
    assert!(crate::reply_ok(&r), "{r:?}");
    e
}

fn aggregate(e: &mut Engine, coll: Bson, pipeline: Vec<Document>) -> Document {
    e.run_command(
        "t",
        &doc! {"aggregate": coll, "pipeline": pipeline, "cursor": {}},
    )
}

fn failure(r: &Document) -> (i32, String) {
    assert!(!crate::reply_ok(r), "expected an error: {r:?}");
    (
        r.get_i32("code").unwrap_or_default(),
        r.get_str("errmsg").unwrap_or_default().to_string(),
    )
}

fn first_batch(r: &Document) -> Vec<Document> {
    assert!(crate::reply_ok(r), "{r:?}");
    super::test_support::first_batch(r)
}

/// `levels` `$lookup`s (or `$unionWith`s), each inside the previous one's pipeline.
fn nested(stage: &str, levels: usize) -> Vec<Document> {
    let mut pipeline: Vec<Document> = Vec::new();
    for _ in 0..levels {
        let inner: Vec<Bson> = pipeline.into_iter().map(Bson::Document).collect();
        pipeline = vec![match stage {
            // One document at each level keeps 20 levels cheap.
            "$lookup" => {
                let mut limited = vec![Bson::Document(doc! {"$limit": 1})];
                limited.extend(inner);
                doc! {"$lookup": {"from": "c", "pipeline": limited, "as": "same"}}
            }
            _ => doc! {"$unionWith": {"coll": "c", "pipeline": inner}},
        }];
    }
    pipeline
}

#[test]
fn twenty_nested_lookups_run_and_a_twenty_first_fails_early() {
    let mut e = engine();
    let mut pipeline = vec![doc! {"$limit": 1}];
    pipeline.extend(nested("$lookup", MAX_SUB_PIPELINE_DEPTH));
    assert_eq!(
        first_batch(&aggregate(&mut e, "c".into(), pipeline)).len(),
        1
    );
    let (code, message) = failure(&aggregate(
        &mut e,
        "c".into(),
        nested("$lookup", MAX_SUB_PIPELINE_DEPTH + 1),
    ));
    assert_eq!(code, 232);
    assert_eq!(
        message,
        "Maximum number of nested sub-pipelines exceeded. Limit is 20"
    );
    let r = aggregate(&mut e, "c".into(), nested("$lookup", 45));
    assert_eq!(
        r.get_str("codeName").unwrap_or_default(),
        "MaxSubPipelineDepthExceeded"
    );
}

#[test]
fn union_with_and_graph_lookup_count_toward_the_depth() {
    let mut e = engine();
    assert!(crate::reply_ok(&aggregate(
        &mut e,
        "c".into(),
        nested("$unionWith", MAX_SUB_PIPELINE_DEPTH)
    )));
    assert_eq!(
        failure(&aggregate(
            &mut e,
            "c".into(),
            nested("$unionWith", MAX_SUB_PIPELINE_DEPTH + 1)
        ))
        .0,
        232
    );
    // A $graphLookup at the deepest level has no room for its own sub-pipeline context.
    let mut pipeline = nested("$lookup", MAX_SUB_PIPELINE_DEPTH);
    let graph = doc! {"$graphLookup": {"from": "c", "startWith": "$_id", "connectFromField": "_id", "connectToField": "_id", "as": "g"}};
    let mut innermost = &mut pipeline[0];
    loop {
        let spec = innermost.get_document_mut("$lookup").unwrap();
        let Bson::Array(items) = spec.get_mut("pipeline").unwrap() else {
            unreachable!()
        };
        let deeper = matches!(items.last(), Some(Bson::Document(d)) if d.contains_key("$lookup"));
        if !deeper {
            items.push(Bson::Document(graph));
            break;
        }
        let Some(Bson::Document(next)) = items.last_mut() else {
            unreachable!()
        };
        innermost = next;
    }
    assert_eq!(failure(&aggregate(&mut e, "c".into(), pipeline)).0, 232);
}

/// A collection `f` of `n` documents of a little over 1 MiB each.
fn megabyte_docs(e: &mut Engine, n: i32) {
    let s = "x".repeat(1024 * 1024);
    let docs: Vec<Document> = (0..n).map(|i| doc! {"_id": i, "s": &s}).collect();
    let r = e.run_command("t", &doc! {"insert": "f", "documents": docs});
    assert!(crate::reply_ok(&r), "{r:?}");
}

#[test]
fn a_lookup_array_over_100_mib_fails_with_4568() {
    let mut e = engine();
    megabyte_docs(&mut e, 101);
    let lookup = |n: i32| {
        vec![
            doc! {"$limit": 1},
            doc! {"$lookup": {"from": "f", "pipeline": [{"$match": {"_id": {"$lt": n}}}], "as": "all"}},
            doc! {"$project": {"n": {"$size": "$all"}}},
        ]
    };
    // 99 documents: under the limit.
    let out = first_batch(&aggregate(&mut e, "c".into(), lookup(99)));
    assert_eq!(out[0].get_i32("n").ok(), Some(99));
    let (code, message) = failure(&aggregate(&mut e, "c".into(), lookup(101)));
    assert_eq!(code, 4568);
    assert!(
        message.ends_with(&format!(
            "Total size of documents in f matching pipeline's $lookup stage exceeds {MAX_JOINED_BYTES} bytes"
        )),
        "{message}"
    );
}

#[test]
fn nested_lookups_stop_as_the_outer_array_grows() {
    let mut e = engine();
    megabyte_docs(&mut e, 12);
    // Each inner array holds 12 MiB; the outer array would hold 12 of them (144 MiB). The
    // inner $lookup is the last stage of the outer's pipeline, so it stops after about 9.
    let pipeline = vec![
        doc! {"$limit": 1},
        doc! {"$lookup": {"from": "f", "as": "outer", "pipeline": [
            {"$lookup": {"from": "f", "pipeline": [], "as": "inner"}},
        ]}},
    ];
    let (code, message) = failure(&aggregate(&mut e, "c".into(), pipeline));
    assert_eq!(code, 4568);
    assert!(
        message.contains("Total size of documents in f matching"),
        "{message}"
    );
}

fn densify(lower: i32, upper: i32) -> Vec<Document> {
    vec![
        doc! {"$documents": [{"x": -1}]},
        doc! {"$densify": {"field": "x", "range": {"step": 1, "bounds": [lower, upper]}}},
        doc! {"$count": "n"},
    ]
}

#[test]
fn densify_generates_at_most_500000_documents() {
    let mut e = Engine::new();
    // [0, 500000): exactly the limit, plus the input document.
    let out = first_batch(&aggregate(&mut e, 1.into(), densify(0, 500_000)));
    assert_eq!(out[0].get_i32("n").ok(), Some(500_001));
    let (code, message) = failure(&aggregate(&mut e, 1.into(), densify(0, 500_001)));
    assert_eq!(code, 5897900);
    assert!(
        message.contains(
            "Generated 500001 documents in $densify, which is over the limit of 500000. \
             Increase the 'internalQueryMaxAllowedDensifyDocs' parameter to allow more \
             generated documents"
        ),
        "{message}"
    );
    // Billions of documents fail just as fast.
    let billions = vec![
        doc! {"$documents": [{"x": 0}, {"x": 4_000_000_000_i64}]},
        doc! {"$densify": {"field": "x", "range": {"step": 1, "bounds": "full"}}},
    ];
    assert_eq!(failure(&aggregate(&mut e, 1.into(), billions)).0, 5897900);
}

#[test]
fn densify_ends_when_the_step_no_longer_moves_the_value() {
    let mut e = Engine::new();
    // 1e17 + 1 == 1e17 in a double: the grid cannot advance, and the stage must still end.
    let pipeline = vec![
        doc! {"$documents": [{"x": 1e17}, {"x": 1e17 + 1000.0}]},
        doc! {"$densify": {"field": "x", "range": {"step": 1, "bounds": "full"}}},
    ];
    assert!(crate::reply_ok(&aggregate(&mut e, 1.into(), pipeline)));
}

fn project_one(e: &mut Engine, expr: Document) -> Document {
    aggregate(
        e,
        1.into(),
        vec![
            doc! {"$documents": [{}]},
            doc! {"$project": {"_id": 0, "v": expr}},
        ],
    )
}

#[test]
fn doubling_a_string_stops_at_64_mib() {
    let mut e = Engine::new();
    let doubling = |times: i32| {
        doc! {"$strLenBytes": {"$reduce": {"input": {"$range": [0, times]}, "initialValue": "a", "in": {"$concat": ["$$value", "$$value"]}}}}
    };
    // 2^26 bytes is exactly 64 MiB: allowed.
    let out = first_batch(&project_one(&mut e, doubling(26)));
    assert_eq!(out[0].get_i32("v").ok(), Some(1 << 26));
    let (code, message) = failure(&project_one(&mut e, doubling(40)));
    assert_eq!(code, 13548);
    assert!(
        message.contains("BufBuilder attempted to grow() to 134217728 bytes, past the 64MB limit."),
        "{message}"
    );
    let replace = doc! {"$replaceAll": {"input": {"$reduce": {"input": {"$range": [0, 20]}, "initialValue": "a", "in": {"$concat": ["$$value", "$$value"]}}}, "find": "a", "replacement": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}};
    assert_eq!(failure(&project_one(&mut e, replace)).0, 13548);
}

#[test]
fn arrays_built_by_expressions_stop_at_100_mib() {
    let mut e = Engine::new();
    let limit = crate::expression::memory::MAX_BUILT_ARRAY_BYTES;
    let per = crate::expression::memory::VALUE_BYTES;
    let vector = crate::expression::memory::VECTOR_BYTES;
    // The longest $range: MongoDB counts one element more than it makes, and `vector +
    // (n + 1) * per` must stay under the limit.
    let longest = ((limit - vector - 1) / per - 1) as i32;
    let size = |n: i32| doc! {"$size": {"$range": [0, n]}};
    assert_eq!(
        first_batch(&project_one(&mut e, size(longest)))[0]
            .get_i32("v")
            .ok(),
        Some(longest)
    );
    let (code, message) = failure(&project_one(&mut e, size(longest + 1)));
    assert_eq!(code, 146);
    assert!(
        message.contains("$range would use too much memory ("),
        "{message}"
    );
    // $range inside $map: each inner array is under the cap, all of them together are not.
    let map =
        doc! {"$size": {"$map": {"input": {"$range": [0, 1000]}, "in": {"$range": [0, 100_000]}}}};
    let (code, message) = failure(&project_one(&mut e, map));
    assert_eq!(code, 146);
    assert!(
        message.contains("$map would use too much memory ("),
        "{message}"
    );
    // An array literal holding $$value twice doubles the value's size on each step.
    let twice = doc! {"$size": {"$reduce": {"input": {"$range": [0, 60]}, "initialValue": [1], "in": ["$$value", "$$value"]}}};
    let (code, message) = failure(&project_one(&mut e, twice));
    assert_eq!(code, 146);
    assert!(
        message.contains("an array literal would use too much memory ("),
        "{message}"
    );
    // An empty match at each of 4 million characters: a document per character.
    let find_all = doc! {"$size": {"$regexFindAll": {"input": {"$reduce": {"input": {"$range": [0, 22]}, "initialValue": "a", "in": {"$concat": ["$$value", "$$value"]}}}, "regex": ""}}};
    let (code, message) = failure(&project_one(&mut e, find_all));
    assert_eq!(code, 146);
    assert!(
        message.contains("$regexFindAll would use too much memory ("),
        "{message}"
    );
    let split = doc! {"$size": {"$split": [{"$reduce": {"input": {"$range": [0, 22]}, "initialValue": "a", "in": {"$concat": ["$$value", "$$value"]}}}, "a"]}};
    let (code, message) = failure(&project_one(&mut e, split));
    assert_eq!(code, 146);
    assert!(
        message.contains("$split would use too much memory ("),
        "{message}"
    );
    // $concatArrays doubling an array of arrays: few elements, each large.
    let nested = doc! {"$size": {"$reduce": {"input": {"$range": [0, 40]}, "initialValue": [{"$range": [0, 100_000]}], "in": {"$concatArrays": ["$$value", "$$value"]}}}};
    assert_eq!(failure(&project_one(&mut e, nested)).0, 146);
    // $concatArrays doubling an array in $reduce.
    let doubling = doc! {"$size": {"$reduce": {"input": {"$range": [0, 40]}, "initialValue": [1], "in": {"$concatArrays": ["$$value", "$$value"]}}}};
    let (code, message) = failure(&project_one(&mut e, doubling));
    assert_eq!(code, 146);
    assert!(
        message.contains("$concatArrays would use too much memory ("),
        "{message}"
    );
}

#[test]
fn unwind_of_a_large_array_is_linear() {
    // 100,000 elements: the quadratic version copied the whole array for each one (10^10
    // element copies); the linear one copies the rest of the document.
    let mut e = Engine::new();
    let big: Vec<i32> = (0..100_000).collect();
    let r = e.run_command(
        "t",
        &doc! {"insert": "u", "documents": [{"_id": 1, "a": big, "b": "x"}]},
    );
    assert!(crate::reply_ok(&r), "{r:?}");
    let r = aggregate(
        &mut e,
        "u".into(),
        vec![
            doc! {"$unwind": {"path": "$a", "includeArrayIndex": "i"}},
            doc! {"$match": {"a": {"$in": [0, 99_999]}}},
        ],
    );
    let out = first_batch(&r);
    assert_eq!(
        out,
        vec![
            doc! {"_id": 1, "a": 0, "b": "x", "i": 0_i64},
            doc! {"_id": 1, "a": 99_999, "b": "x", "i": 99_999_i64},
        ]
    );
}

#[test]
fn a_stage_that_multiplies_its_input_stops_at_256_mib() {
    use super::memory::MAX_STAGE_OUTPUT_BYTES;
    let mut e = Engine::new();
    // 1,000 copies of a 300 KiB document would be 300 MiB; 800 are 240 MiB.
    let s = "x".repeat(300 * 1024);
    let items: Vec<i32> = (0..1000).collect();
    let r = e.run_command(
        "t",
        &doc! {"insert": "w", "documents": [{"_id": 1, "s": &s, "a": items}]},
    );
    assert!(crate::reply_ok(&r), "{r:?}");
    let unwind = |n: i32| {
        vec![
            doc! {"$project": {"s": 1, "a": {"$slice": ["$a", n]}}},
            doc! {"$unwind": "$a"},
            doc! {"$count": "n"},
        ]
    };
    let out = first_batch(&aggregate(&mut e, "w".into(), unwind(800)));
    assert_eq!(out[0].get_i32("n").ok(), Some(800));
    let (code, message) = failure(&aggregate(&mut e, "w".into(), unwind(1000)));
    assert_eq!(code, 146);
    assert!(
        message.contains(&format!(
            "$unwind produced more than {MAX_STAGE_OUTPUT_BYTES} bytes of documents."
        )),
        "{message}"
    );
    // $push over a growing window copies the window for every document: 3,000 documents of
    // 1 KiB would make 4.5 GiB of arrays.
    let docs: Vec<Document> = (0..3000)
        .map(|i| doc! {"_id": i, "s": "y".repeat(1024)})
        .collect();
    let r = e.run_command("t", &doc! {"insert": "p", "documents": docs});
    assert!(crate::reply_ok(&r), "{r:?}");
    let window = vec![
        doc! {"$setWindowFields": {"sortBy": {"_id": 1}, "output": {"all": {
        "$push": "$s", "window": {"documents": ["unbounded", "current"]}}}}},
    ];
    let (code, message) = failure(&aggregate(&mut e, "p".into(), window));
    assert_eq!(code, 146);
    assert!(
        message.contains("$setWindowFields produced more than"),
        "{message}"
    );
}

#[test]
fn values_built_by_expressions_nest_at_most_200_levels() {
    let mut e = Engine::new();
    let wrap = |times: i32| {
        doc! {"$reduce": {"input": {"$range": [0, times]}, "initialValue": [], "in": ["$$value"]}}
    };
    // 200 arrays: the largest value MongoDB can turn into BSON.
    let out = first_batch(&project_one(&mut e, doc! {"$size": wrap(199)}));
    assert_eq!(out[0].get_i32("v").ok(), Some(1));
    // 100,000 levels used to overflow the stack; now the 201st level is refused.
    let (code, message) = failure(&project_one(&mut e, doc! {"$size": wrap(100_000)}));
    assert_eq!(code, 15);
    assert!(
        message.ends_with(
            "cannot convert document to BSON because it exceeds the limit of 200 levels of nesting"
        ),
        "{message}"
    );
    let objects = doc! {"$reduce": {"input": {"$range": [0, 100_000]}, "initialValue": {}, "in": {"a": "$$value"}}};
    assert_eq!(failure(&project_one(&mut e, objects)).0, 15);
    let set_field = doc! {"$reduce": {"input": {"$range": [0, 100_000]}, "initialValue": {}, "in": {
    "$setField": {"field": "a", "input": {}, "value": "$$value"}}}};
    assert_eq!(failure(&project_one(&mut e, set_field)).0, 15);
}

#[test]
fn a_graph_lookup_holding_over_100_mib_fails_with_40099() {
    let mut e = engine();
    // A chain f0 -> f1 -> ... of 1 MiB documents.
    let s = "x".repeat(1024 * 1024);
    let docs: Vec<Document> = (0..105)
        .map(|i| doc! {"_id": i, "next": i + 1, "s": &s})
        .collect();
    let r = e.run_command("t", &doc! {"insert": "f", "documents": docs});
    assert!(crate::reply_ok(&r), "{r:?}");
    let graph = |depth: i32| {
        vec![
            doc! {"$limit": 1},
            doc! {"$graphLookup": {"from": "f", "startWith": 0, "connectFromField": "next",
            "connectToField": "_id", "as": "chain", "maxDepth": depth}},
            doc! {"$project": {"n": {"$size": "$chain"}}},
        ]
    };
    // 95 documents: under the limit.
    let out = first_batch(&aggregate(&mut e, "c".into(), graph(94)));
    assert_eq!(out[0].get_i32("n").ok(), Some(95));
    let (code, message) = failure(&aggregate(&mut e, "c".into(), graph(200)));
    assert_eq!(code, 40099);
    assert!(
        message.ends_with("$graphLookup reached maximum memory consumption"),
        "{message}"
    );
}

#[test]
fn facet_output_stops_at_100_mib() {
    let mut e = Engine::new();
    // 60 documents of 1 MiB; two facets of all of them gather 120 MiB, one gathers 60 MiB.
    let s = "x".repeat(1024 * 1024);
    for i in 0..60 {
        let r = e.run_command(
            "t",
            &doc! {"insert": "f", "documents": [{"_id": i, "s": &s}]},
        );
        assert!(crate::reply_ok(&r), "{r:?}");
    }
    let one = vec![
        doc! {"$facet": {"all": [{"$match": {}}]}},
        doc! {"$project": {"n": {"$size": "$all"}}},
    ];
    assert_eq!(
        first_batch(&aggregate(&mut e, "f".into(), one))[0]
            .get_i32("n")
            .ok(),
        Some(60)
    );
    let two = vec![doc! {"$facet": {"a": [{"$match": {}}], "b": [{"$match": {}}]}}];
    let (code, message) = failure(&aggregate(&mut e, "f".into(), two));
    assert_eq!(code, 4031700);
    assert!(
        message.contains("document constructed by $facet is ")
            && message.ends_with("bytes, which exceeds the limit of 104857600 bytes"),
        "{message}"
    );
}

#[test]
fn two_unwinds_of_2000_elements_stop_within_the_stage_output_limit() {
    let mut e = Engine::new();
    let items: Vec<i32> = (0..2000).collect();
    let r = e.run_command(
        "t",
        &doc! {"insert": "u", "documents": [{"_id": 1, "a": &items, "b": &items}]},
    );
    assert!(crate::reply_ok(&r), "{r:?}");
    // 4 million documents: 150 MB of BSON, about 1.4 GB in memory.
    let pipeline = vec![
        doc! {"$unwind": "$a"},
        doc! {"$unwind": "$b"},
        doc! {"$count": "n"},
    ];
    let (code, message) = failure(&aggregate(&mut e, "u".into(), pipeline));
    assert_eq!(code, 146);
    assert!(message.contains("$unwind produced more than"), "{message}");
}

#[test]
fn twelve_nested_growing_lookups_stop_within_the_limits() {
    let mut e = Engine::new();
    let docs: Vec<Document> = (0..8).map(|i| doc! {"i": i}).collect();
    let r = e.run_command("t", &doc! {"insert": "g", "documents": docs});
    assert!(crate::reply_ok(&r), "{r:?}");
    // Each level joins all 8 documents with their own joins: 8^12 documents in the end.
    let mut pipeline: Vec<Document> = Vec::new();
    for _ in 0..12 {
        pipeline = vec![doc! {"$lookup": {"from": "g", "pipeline": pipeline, "as": "j"}}];
    }
    let (code, message) = failure(&aggregate(&mut e, "g".into(), pipeline));
    assert!(
        (code == 146 && message.contains("$lookup produced more than"))
            || (code == 4568 && message.contains("Total size of documents in g")),
        "{code}: {message}"
    );
}
