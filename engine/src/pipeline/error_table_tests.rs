//! Bad pipelines and MongoDB 8.0's answers (code and message), one table. Where older servers
//! answered differently (`$limit`/`$skip` 15957/15956, `$add` 16554), the 8.0 answer is used. Parse-time errors
//! come back as they are; errors raised while documents flow are prefixed with
//! "PlanExecutor error during aggregation :: caused by :: ", as the server does.

use bson::{Bson, doc};

use crate::Engine;

/// `(pipeline, code, message)`; the pipeline runs on `t.c` (two documents, a unique index on
/// `u`), or with `aggregate: 1` when it starts with `$documents`.
fn cases() -> Vec<(Bson, i32, &'static str)> {
    let p =
        |stages: Vec<bson::Document>| Bson::Array(stages.into_iter().map(Bson::Document).collect());
    vec![
        (
            p(vec![doc! {"$foo": 1}]),
            40324,
            "Unrecognized pipeline stage name: '$foo'",
        ),
        (
            Bson::Array(vec![Bson::Int32(1)]),
            14,
            "Each element of the 'pipeline' array must be an object",
        ),
        (
            Bson::Int32(1),
            14,
            "'pipeline' option must be specified as an array",
        ),
        (
            p(vec![doc! {}]),
            40323,
            "A pipeline stage specification object must contain exactly one field.",
        ),
        (
            p(vec![doc! {"$match": {}, "$limit": 1}]),
            40323,
            "A pipeline stage specification object must contain exactly one field.",
        ),
        (
            p(vec![doc! {"$out": "x"}, doc! {"$match": {}}]),
            40601,
            "$out can only be the final stage in the pipeline",
        ),
        (
            p(vec![doc! {"$merge": "x"}, doc! {"$limit": 1}]),
            40601,
            "$merge can only be the final stage in the pipeline",
        ),
        (
            p(vec![doc! {"$out": 1}]),
            16990,
            "$out only supports a string or object argument, but found int",
        ),
        (
            p(vec![doc! {"$out": "system.x"}]),
            17385,
            "Can't $out to special collection: system.x",
        ),
        (
            p(vec![doc! {"$out": {"db": "admin", "coll": "x"}}]),
            31321,
            "Can't $out to internal database: admin",
        ),
        (
            p(vec![doc! {"$out": {"coll": "x", "db": "t", "z": 1}}]),
            40415,
            "BSON field '$out.z' is an unknown field.",
        ),
        (
            p(vec![doc! {"$merge": 1}]),
            14,
            "$merge requires a string or object argument, but found int",
        ),
        (
            p(vec![doc! {"$merge": {"into": 1}}]),
            51178,
            "$merge 'into' field  must be either a string or an object, but found int",
        ),
        (
            p(vec![doc! {"$merge": {"on": "a"}}]),
            40414,
            "BSON field '$merge.into' is missing but a required field",
        ),
        (
            p(vec![doc! {"$merge": {"into": "x", "on": "a"}}]),
            51183,
            "Cannot find index to verify that join fields will be unique",
        ),
        (
            p(vec![doc! {"$merge": {"into": "x", "on": []}}]),
            51187,
            "If explicitly specifying $merge 'on', must include at least one field",
        ),
        (
            p(vec![
                doc! {"$merge": {"into": "x", "whenMatched": "fail", "whenNotMatched": "discard"}},
            ]),
            51181,
            "Combination of $merge modes 'whenMatched: fail' and 'whenNotMatched: discard' is not supported",
        ),
        (
            p(vec![
                doc! {"$merge": {"into": "x", "whenNotMatched": "nope"}},
            ]),
            2,
            "Enumeration value 'nope' for field '$merge.whenNotMatched' is not a valid value.",
        ),
        (
            p(vec![doc! {"$merge": {"into": "x", "let": {"a": 1}}}]),
            51199,
            "Cannot use 'let' variables with 'whenMatched: merge' mode",
        ),
        (
            p(vec![
                doc! {"$lookup": {"from": "x", "as": "y", "pipeline": [{"$out": "z"}]}},
            ]),
            51047,
            "$out is not allowed within a $lookup's sub-pipeline",
        ),
        (
            p(vec![
                doc! {"$unionWith": {"coll": "x", "pipeline": [{"$merge": "z"}]}},
            ]),
            31441,
            "$merge is not allowed within a $unionWith's sub-pipeline",
        ),
        (
            p(vec![doc! {"$facet": {"a": [{"$out": "z"}]}}]),
            40600,
            "$out is not allowed to be used within a $facet stage",
        ),
        (
            p(vec![doc! {"$group": 1}]),
            15947,
            "a group's fields must be specified in an object",
        ),
        (
            p(vec![doc! {"$group": {}}]),
            15955,
            "a group specification must include an _id",
        ),
        (
            p(vec![doc! {"$group": {"_id": null, "a": 1}}]),
            40234,
            "The field 'a' must be an accumulator object",
        ),
        (
            p(vec![
                doc! {"$group": {"_id": null, "a": {"$sum": 1, "$avg": 1}}},
            ]),
            40238,
            "The field 'a' must specify one accumulator",
        ),
        (
            p(vec![doc! {"$group": {"_id": null, "a.b": {"$sum": 1}}}]),
            40235,
            "The field name 'a.b' cannot contain '.'",
        ),
        (
            p(vec![doc! {"$group": {"_id": null, "a": {"$foo": 1}}}]),
            15952,
            "unknown group operator '$foo'",
        ),
        (
            p(vec![doc! {"$limit": 0}]),
            15958,
            "the limit must be positive",
        ),
        (
            p(vec![doc! {"$limit": "a"}]),
            5107201,
            "invalid argument to $limit stage: Expected a number in: $limit: \"a\"",
        ),
        (
            p(vec![doc! {"$skip": "a"}]),
            5107200,
            "invalid argument to $skip stage: Expected a number in: $skip: \"a\"",
        ),
        (
            p(vec![doc! {"$skip": -1}]),
            5107200,
            "invalid argument to $skip stage: Expected a non-negative number in: $skip: -1",
        ),
        (
            p(vec![doc! {"$unwind": 1}]),
            15981,
            "expected either a string or an object as specification for $unwind stage, got int",
        ),
        (
            p(vec![doc! {"$unwind": "a"}]),
            28818,
            "path option to $unwind stage should be prefixed with a '$': a",
        ),
        (
            p(vec![doc! {"$unwind": {}}]),
            28812,
            "no path specified to $unwind stage",
        ),
        (
            p(vec![doc! {"$unwind": {"path": 1}}]),
            28808,
            "expected a string as the path for $unwind stage, got int",
        ),
        (
            p(vec![doc! {"$unwind": {"path": "$a", "x": 1}}]),
            28811,
            "unrecognized option to $unwind stage: x",
        ),
        (
            p(vec![
                doc! {"$unwind": {"path": "$a", "preserveNullAndEmptyArrays": 1}},
            ]),
            28809,
            "expected a boolean for the preserveNullAndEmptyArrays option to $unwind stage, got int",
        ),
        (
            p(vec![doc! {"$sort": 1}]),
            15973,
            "the $sort key specification must be an object",
        ),
        (
            p(vec![doc! {"$sort": {}}]),
            15976,
            "$sort stage must have at least one sort key",
        ),
        (
            p(vec![doc! {"$sort": {"a": 2}}]),
            15975,
            "$sort key ordering must be 1 (for ascending) or -1 (for descending)",
        ),
        (
            p(vec![doc! {"$sort": {"a": "x"}}]),
            15974,
            "Illegal key in $sort specification: a: \"x\"",
        ),
        (
            p(vec![doc! {"$project": {}}]),
            51272,
            "Invalid $project :: caused by :: projection specification must have at least one field",
        ),
        (
            p(vec![doc! {"$project": 1}]),
            15969,
            "$project specification must be an object",
        ),
        (
            p(vec![doc! {"$project": {"a": 1, "b": 0}}]),
            31254,
            "Invalid $project :: caused by :: Cannot do exclusion on field b in inclusion projection",
        ),
        (
            p(vec![doc! {"$lookup": 1}]),
            9,
            "the $lookup specification must be an Object",
        ),
        (
            p(vec![
                doc! {"$lookup": {"from": "x", "localField": "a", "foreignField": "b"}},
            ]),
            9,
            "must specify 'as' field for a $lookup",
        ),
        (
            p(vec![doc! {"$lookup": {"from": "x", "as": "y"}}]),
            9,
            "$lookup requires either 'pipeline' or both 'localField' and 'foreignField' to be specified",
        ),
        (
            p(vec![doc! {"$match": 1}]),
            15959,
            "the match filter must be an expression in an object",
        ),
        (
            p(vec![doc! {"$match": {"$and": [{"$where": "return true"}]}}]),
            2,
            "$where is not allowed inside of a $match aggregation expression",
        ),
        (
            p(vec![doc! {"$addFields": {"a": {"$add": [1], "$abs": 1}}}]),
            15983,
            "an expression specification must contain exactly one field, the name of the expression. Found 2 fields in { $add: [ 1 ], $abs: 1 }",
        ),
        (
            p(vec![doc! {"$count": 1}]),
            40156,
            "the count field must be a non-empty string",
        ),
        (
            p(vec![doc! {"$count": ""}]),
            40157,
            "the count field must be a non-empty string",
        ),
        (
            p(vec![doc! {"$count": "$a"}]),
            40158,
            "the count field cannot be a $-prefixed path",
        ),
        (
            p(vec![doc! {"$count": "a.b"}]),
            40160,
            "the count field cannot contain '.'",
        ),
        (
            p(vec![doc! {"$sample": {}}]),
            28749,
            "$sample stage must specify a size",
        ),
        (
            p(vec![doc! {"$sample": {"size": -1}}]),
            28747,
            "size argument to $sample must not be negative",
        ),
        (
            p(vec![doc! {"$facet": {}}]),
            15947,
            "the $facet specification must be a non-empty object",
        ),
        (
            p(vec![doc! {"$unset": []}]),
            31119,
            "$unset specification must be a string or an array with at least one field",
        ),
        (
            p(vec![doc! {"$graphLookup": 1}]),
            9,
            "the $graphLookup stage specification must be an object, but found int",
        ),
        (
            p(vec![doc! {"$graphLookup": {"from": "c", "as": "x"}}]),
            40105,
            "$graphLookup requires 'from', 'as', 'startWith', 'connectFromField', and 'connectToField' to be specified.",
        ),
        (
            p(vec![doc! {"$indexStats": 1}]),
            28803,
            "The $indexStats stage specification must be an empty object",
        ),
        (
            p(vec![doc! {"$match": {}}, doc! {"$indexStats": {}}]),
            40602,
            "$indexStats is only valid as the first stage in a pipeline",
        ),
        (
            p(vec![doc! {"$project": {"x": {"$add": ["$s", 1]}}}]),
            14,
            "PlanExecutor error during aggregation :: caused by :: $add only supports numeric or date types, not string",
        ),
        (
            p(vec![doc! {"$redact": "$s"}]),
            17053,
            "PlanExecutor error during aggregation :: caused by :: $redact's expression should not return anything aside from the variables $$KEEP, $$DESCEND, and $$PRUNE, but returned \"x\"",
        ),
        (
            p(vec![
                doc! {"$documents": [{"_id": 1}]},
                doc! {"$merge": {"into": "c", "whenMatched": "fail"}},
            ]),
            11000,
            "PlanExecutor error during aggregation :: caused by :: E11000 duplicate key error collection: t.c index: _id_ dup key: { _id: 1 }",
        ),
        (
            p(vec![
                doc! {"$documents": [{"_id": 7}]},
                doc! {"$merge": {"into": "c", "whenMatched": "replace", "whenNotMatched": "fail"}},
            ]),
            13113,
            "PlanExecutor error during aggregation :: caused by :: $merge could not find a matching document in the target collection for at least one document in the source collection",
        ),
    ]
}

#[test]
fn bad_pipelines_answer_as_mongodb_does() {
    let mut mismatches = Vec::new();
    let cases = cases();
    assert!(cases.len() >= 40);
    for (pipeline, code, message) in cases {
        let mut e = Engine::new();
        e.run_command(
            "t",
            &doc! {"insert": "c", "documents": [{"_id": 1, "s": "x", "u": 1}, {"_id": 2, "s": "x", "u": 2}]},
        );
        e.run_command(
            "t",
            &doc! {"createIndexes": "c", "indexes": [{"key": {"u": 1}, "name": "u_1", "unique": true}]},
        );
        let collectionless = matches!(&pipeline, Bson::Array(s)
            if s.first().and_then(Bson::as_document).is_some_and(|d| d.contains_key("$documents")));
        let target = if collectionless {
            Bson::Int32(1)
        } else {
            Bson::String("c".into())
        };
        let reply = e.run_command(
            "t",
            &doc! {"aggregate": target, "pipeline": pipeline.clone(), "cursor": {}},
        );
        let got = (
            reply.get_i32("code").unwrap_or(0),
            reply.get_str("errmsg").unwrap_or(""),
        );
        if got != (code, message) {
            mismatches.push(format!(
                "{pipeline}\n   want {code} {message}\n   got  {} {}",
                got.0, got.1
            ));
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}
