//! Rows for the parsers: malformed and edge-case filters, updates, projections, pipelines and
//! expressions (MongoDB's errors), the shell's BSON constructors and Extended JSON, and the
//! shell-only syntax (`use`, `show`, `it`). Each must end in MongoDB's error or a result.

use super::{Row, ends, error, result};

/// A command run over a small collection `c`.
fn on_c(code: &str) -> String {
    format!(
        "db.c.insertMany([{{_id: 1, a: [1, 2], b: 'x'}}, {{_id: 2, a: 5, d: new Date(0)}}]); {code}"
    )
}

fn filters() -> Vec<Row> {
    let cases: &[(&str, &str, &str)] = &[
        (
            "unknown-top-level",
            "{$foo: 1}",
            "unknown top level operator",
        ),
        ("unknown-operator", "{a: {$foo: 1}}", "unknown operator"),
        ("dollar-field", "{'$a': 1}", "unknown top level operator"),
        (
            "bad-regex",
            "{b: {$regex: '('}}",
            "(?i)regular expression is invalid",
        ),
        (
            "bad-regex-options",
            "{b: {$regex: 'a', $options: 'z'}}",
            "(?i)invalid flag",
        ),
        ("mod-zero", "{a: {$mod: [0, 0]}}", "divisor cannot be 0"),
        ("mod-one-arg", "{a: {$mod: [1]}}", "(?i)not enough elements"),
        ("size-negative", "{a: {$size: -1}}", "(?i)size"),
        ("size-string", "{a: {$size: 'x'}}", "(?i)size"),
        (
            "type-bad-code",
            "{a: {$type: 1000}}",
            "(?i)invalid numerical type code",
        ),
        (
            "type-bad-name",
            "{a: {$type: 'foo'}}",
            "(?i)unknown type name alias",
        ),
        ("in-not-array", "{a: {$in: 1}}", "needs an array"),
        ("nin-not-array", "{a: {$nin: 1}}", "needs an array"),
        ("all-not-array", "{a: {$all: 1}}", "needs an array"),
        (
            "in-regex-options",
            "{a: {$in: [{$regex: 'a'}]}}",
            "(?i)cannot nest|\\$regex",
        ),
        ("and-empty", "{$and: []}", "must be a nonempty array"),
        ("or-not-array", "{$or: 1}", "must be an array"),
        (
            "nor-of-scalars",
            "{$nor: [1]}",
            "(?i)must be an object|entries need to be full objects",
        ),
        (
            "elemMatch-scalar",
            "{a: {$elemMatch: 1}}",
            "(?i)elemMatch needs an Object",
        ),
        (
            "not-scalar",
            "{a: {$not: 1}}",
            "(?i)\\$not needs a regex or a document",
        ),
        ("not-empty", "{a: {$not: {}}}", "(?i)\\$not cannot be empty"),
        (
            "expr-unknown",
            "{$expr: {$foo: 1}}",
            "(?i)unrecognized expression",
        ),
        (
            "expr-divide-zero",
            "{$expr: {$divide: [1, 0]}}",
            "(?i)divide by zero",
        ),
        (
            "near-without-index",
            "{a: {$near: [0, 0]}}",
            // MongoDB 8.0: NoQueryExecutionPlans, "unable to find index for $geoNear query".
            "unable to find index for \\$geoNear query",
        ),
        (
            "text-without-index",
            "{$text: {$search: 'x'}}",
            "(?i)text index required",
        ),
        (
            "bits-negative",
            "{a: {$bitsAllSet: -1}}",
            "(?i)bit positions? must be|non-negative|negative",
        ),
        (
            "bits-float",
            "{a: {$bitsAnySet: 1.5}}",
            "(?i)integer|bitmask",
        ),
        (
            "where-syntax-error",
            "{$where: 'syntax error ('}",
            "(?i)syntax",
        ),
        ("where-number", "{$where: 5}", "(?i)\\$where"),
        (
            "jsonSchema-bad-type",
            "{$jsonSchema: {type: 'foo'}}",
            "(?i)unknown type",
        ),
        (
            "jsonSchema-not-object",
            "{$jsonSchema: 1}",
            "(?i)jsonSchema must be an object",
        ),
        (
            "eq-and-unknown",
            "{a: {$eq: 1, $foo: 2}}",
            "unknown operator",
        ),
        ("geoWithin-bad", "{a: {$geoWithin: 1}}", "(?i)geo|within"),
        (
            "geo-nan-center",
            "{a: {$geoWithin: {$center: [[NaN, 0], 1]}}}",
            "point must be a pair of numbers",
        ),
        (
            "geo-huge-polygon",
            "{a: {$geoWithin: {$polygon: Array.from({length: 200000}, (_, i) => [i, i % 7])}}}",
            "too many points",
        ),
        (
            "geo-nested-collection",
            "{a: {$geoIntersects: {$geometry: {type: 'GeometryCollection', geometries: [{type: 'GeometryCollection', geometries: []}]}}}}",
            "cannot be nested",
        ),
        (
            "geo-huge-geojson",
            "{a: {$geoIntersects: {$geometry: {type: 'MultiPoint', coordinates: Array.from({length: 100001}, () => [0, 0])}}}}",
            "more than 100000 vertices",
        ),
        (
            "options-without-regex",
            "{b: {$options: 'i'}}",
            "(?i)\\$options needs a \\$regex",
        ),
        (
            "elemMatch-where",
            "{a: {$elemMatch: {$where: 'true'}}}",
            "(?i)\\$where|elemMatch",
        ),
        (
            "text-in-elemMatch",
            "{a: {$elemMatch: {$text: {$search: 'x'}}}}",
            "(?i)text|elemMatch",
        ),
        ("comment-only", "{$comment: 'x'}", ""),
        // An object is a true argument (MongoDB reads `$exists` with `trueValue()`).
        ("exists-object", "{a: {$exists: {}}}", ""),
    ];
    let mut rows = Vec::new();
    for (name, filter, pattern) in cases {
        let code = on_c(&format!("db.c.find({filter}).toArray().length"));
        if pattern.is_empty() {
            rows.push(result(format!("filter/{name}"), code, "^2\n$"));
        } else {
            rows.push(error(format!("filter/{name}"), code, pattern));
        }
    }
    for (name, filter) in [
        ("empty-key", "{'': 1}"),
        ("trailing-dot", "{'a.': 1}"),
        ("double-dot", "{'a..b': 1}"),
        ("numeric-path", "{'a.0.0.0': 1}"),
        ("huge-array-index", "{'a.99999999999999999999': 1}"),
        ("minkey-maxkey", "{a: {$gt: MinKey(), $lt: MaxKey()}}"),
        ("nan-range", "{a: {$gte: NaN, $lte: NaN}}"),
        ("decimal-nan", "{a: NumberDecimal('NaN')}"),
        ("regex-lookbehind", "{b: /(?<=a)b/}"),
        ("regex-backreference", "{b: /(a)\\1/}"),
        ("all-empty", "{a: {$all: []}}"),
        ("all-elemMatch", "{a: {$all: [{$elemMatch: {$gt: 1}}]}}"),
        ("in-nested-arrays", "{a: {$in: [[1, 2], [[1]]]}}"),
        (
            "type-array-of-codes",
            "{a: {$type: [1, 2, 'string', 'array']}}",
        ),
        (
            "expr-let-shadow",
            "{$expr: {$let: {vars: {CURRENT: 1}, in: '$$CURRENT'}}}",
        ),
    ] {
        rows.push(ends(
            format!("filter/{name}"),
            on_c(&format!("db.c.find({filter}).toArray().length")),
        ));
    }
    rows
}

fn updates() -> Vec<Row> {
    let cases: &[(&str, &str, &str)] = &[
        ("conflict", "{$set: {a: 1, 'a.b': 2}}", "(?i)conflict"),
        ("unknown-modifier", "{$foo: {a: 1}}", "(?i)unknown modifier"),
        ("inc-string", "{$inc: {a: 'x'}}", "(?i)non-numeric"),
        ("empty-path", "{$set: {'': 1}}", "(?i)empty"),
        (
            "double-dot-path",
            "{$set: {'a..b': 1}}",
            "(?i)empty field name",
        ),
        ("rename-same", "{$rename: {a: 'a'}}", "(?i)must differ"),
        (
            "rename-into-itself",
            "{$rename: {a: 'a.b'}}",
            "(?i)must not be on the same path",
        ),
        (
            "push-each-scalar",
            "{$push: {a: {$each: 1}}}",
            "(?i)\\$each",
        ),
        (
            "push-slice-string",
            "{$push: {a: {$each: [], $slice: 'x'}}}",
            "(?i)slice",
        ),
        ("pop-two", "{$pop: {a: 2}}", "(?i)\\$pop"),
        ("bit-float", "{$bit: {a: {xor: 1.5}}}", "(?i)bit"),
        (
            "currentDate-bad-type",
            "{$currentDate: {a: {$type: 'foo'}}}",
            "(?i)currentDate|date|timestamp",
        ),
        (
            "positional-without-query",
            "{$set: {'a.$': 1}}",
            "(?i)positional operator did not find the match",
        ),
        (
            "array-filter-missing",
            "{$set: {'a.$[x]': 1}}",
            "(?i)no array filter found for identifier",
        ),
        (
            "id-change",
            "{$set: {_id: 99}}",
            "(?i)immutable field '_id'",
        ),
        (
            "id-unset",
            "{$unset: {_id: 1}}",
            "(?i)immutable field '_id'",
        ),
        (
            "all-positional-on-scalar",
            "{$set: {'b.$[]': 1}}",
            "(?i)cannot apply array updates to non-array",
        ),
        (
            "addToSet-each-scalar",
            "{$addToSet: {a: {$each: 'x'}}}",
            "(?i)\\$each",
        ),
        (
            "setOnInsert-conflict",
            "{$setOnInsert: {a: 1}, $set: {a: 2}}",
            "(?i)conflict",
        ),
        (
            "pipeline-unknown-stage",
            "[{$foo: 1}]",
            "(?i)unrecognized pipeline stage",
        ),
        (
            "pipeline-group",
            "[{$group: {_id: 1}}]",
            "(?i)not allowed|update",
        ),
        (
            "mixed-replacement",
            "{$set: {a: 1}, b: 2}",
            "Unknown modifier: b",
        ),
        (
            "inc-overflow-check",
            "{$inc: {a: NumberLong('9223372036854775807')}}",
            "(?i)overflow|cannot|increment|result",
        ),
    ];
    let mut rows = Vec::new();
    for (name, update, pattern) in cases {
        let code = on_c(&format!("db.c.updateMany({{}}, {update})"));
        rows.push(error(format!("update/{name}"), code, pattern));
    }
    rows.push(error(
        "update/array-filter-unused",
        on_c("db.c.updateMany({}, {$set: {b: 1}}, {arrayFilters: [{x: 1}]})"),
        "(?i)was not used",
    ));
    rows.push(error(
        "update/array-filter-duplicate",
        on_c("db.c.updateMany({}, {$set: {'a.$[x]': 1}}, {arrayFilters: [{x: 1}, {x: 2}]})"),
        "(?i)multiple array filters with the same top-level field name",
    ));
    for (name, update) in [
        ("set-empty", "{$set: {}}"),
        ("pipeline-empty", "[]"),
        ("dollar-field-set", "{$set: {'$a': 1}}"),
        (
            "mul-long-overflow",
            "{$mul: {a: NumberLong('9223372036854775807')}}",
        ),
        (
            "push-sort-slice",
            "{$push: {a: {$each: [3, 1], $sort: -1, $slice: -1}}}",
        ),
        (
            "push-position-huge",
            "{$push: {a: {$each: [0], $position: 2147483647}}}",
        ),
        (
            "push-position-negative",
            "{$push: {a: {$each: [0], $position: -2147483648}}}",
        ),
        ("set-index-huge", "{$set: {'a.100000': 1}}"),
        ("set-index-too-huge", "{$set: {'a.10000000': 1}}"),
        ("pull-condition", "{$pull: {a: {$gte: 2}}}"),
        ("pull-unknown-op", "{$pull: {a: {$foo: 1}}}"),
        ("rename-to-dollar", "{$rename: {b: '$x'}}"),
        ("min-mixed-types", "{$min: {a: 'x', b: MinKey()}}"),
        ("pipeline-replaceWith-scalar", "[{$replaceWith: 1}]"),
        ("pipeline-unset-id", "[{$unset: '_id'}]"),
    ] {
        rows.push(ends(
            format!("update/{name}"),
            on_c(&format!("db.c.updateMany({{}}, {update})")),
        ));
    }
    rows
}

fn projections() -> Vec<Row> {
    let cases: &[(&str, &str, &str)] = &[
        (
            "mixed",
            "{a: 1, b: 0}",
            "(?i)exclusion on field b in inclusion projection",
        ),
        ("slice-string", "{a: {$slice: 'x'}}", "(?i)slice"),
        ("positional-no-match", "{'a.$': 1}", "(?i)positional"),
        ("two-positionals", "{'a.$': 1, 'b.$': 1}", "(?i)positional"),
        ("elemMatch-scalar", "{a: {$elemMatch: 1}}", "(?i)elemMatch"),
        (
            "unknown-operator",
            "{a: {$foo: 1}}",
            "(?i)unrecognized|unknown",
        ),
        ("empty-key", "{'': 1}", "(?i)empty|field"),
        ("dollar-key", "{'$a': 1}", "(?i)\\$|dollar|field"),
        ("meta-unknown", "{a: {$meta: 'foo'}}", "(?i)meta"),
        ("path-collision", "{a: 1, 'a.b': 1}", "(?i)path collision"),
        (
            "slice-zero-limit",
            "{a: {$slice: [1, 0]}}",
            "(?i)slice|limit|positive",
        ),
        (
            "positional-and-slice",
            "{'a.$': 1, a: {$slice: 1}}",
            "(?i)collision|positional",
        ),
    ];
    let mut rows = Vec::new();
    for (name, projection, pattern) in cases {
        let code = on_c(&format!("db.c.find({{}}, {projection}).toArray()"));
        rows.push(error(format!("projection/{name}"), code, pattern));
    }
    for (name, projection) in [
        ("slice-huge", "{a: {$slice: [2147483647, 2147483647]}}"),
        ("slice-negative-huge", "{a: {$slice: -2147483648}}"),
        ("computed-deep-path", "{'x.y.z': {$literal: 1}}"),
        ("literal-dollar", "{a: {$literal: '$b'}}"),
        ("exclude-id-only", "{_id: 0}"),
        ("dotted-numeric", "{'a.0': 1}"),
        ("elemMatch-on-scalar-field", "{b: {$elemMatch: {$gt: 1}}}"),
    ] {
        rows.push(ends(
            format!("projection/{name}"),
            on_c(&format!("db.c.find({{}}, {projection}).toArray()")),
        ));
    }
    rows
}

fn pipelines() -> Vec<Row> {
    let cases: &[(&str, &str, &str)] = &[
        (
            "unknown-stage",
            "[{$foo: 1}]",
            "(?i)unrecognized pipeline stage name",
        ),
        ("group-no-id", "[{$group: {}}]", "(?i)must include an _id"),
        ("limit-zero", "[{$limit: 0}]", "(?i)limit must be positive"),
        ("limit-negative", "[{$limit: -1}]", "(?i)limit"),
        ("skip-negative", "[{$skip: -1}]", "(?i)skip|negative"),
        ("sort-empty", "[{$sort: {}}]", "(?i)at least one sort key"),
        (
            "sort-two",
            "[{$sort: {a: 2}}]",
            "(?i)sort key ordering must be",
        ),
        (
            "project-empty",
            "[{$project: {}}]",
            "(?i)at least one field",
        ),
        (
            "unwind-no-dollar",
            "[{$unwind: 'a'}]",
            "(?i)prefixed with a '\\$'",
        ),
        (
            "out-not-last",
            "[{$out: 'o'}, {$match: {}}]",
            "(?i)final stage",
        ),
        ("lookup-no-as", "[{$lookup: {from: 'c'}}]", "(?i)as"),
        (
            "bucket-boundaries-descending",
            "[{$bucket: {groupBy: '$a', boundaries: [2, 1]}}]",
            "(?i)ascending",
        ),
        ("sample-negative", "[{$sample: {size: -1}}]", "(?i)size"),
        ("facet-empty", "[{$facet: {}}]", "(?i)facet"),
        (
            "facet-out",
            "[{$facet: {a: [{$out: 'x'}]}}]",
            "(?i)out|facet",
        ),
        ("count-empty", "[{$count: ''}]", "(?i)count"),
        ("count-dollar", "[{$count: '$a'}]", "(?i)count|\\$"),
        (
            "replaceRoot-scalar",
            "[{$replaceRoot: {newRoot: 1}}]",
            "(?i)newRoot|document",
        ),
        (
            "addFields-empty-key",
            "[{$addFields: {'': 1}}]",
            "(?i)empty|field",
        ),
        (
            "addFields-dollar-in-path",
            "[{$addFields: {'a.$b': 1}}]",
            "(?i)\\$|field",
        ),
        (
            "graphLookup-negative-depth",
            "[{$graphLookup: {from: 'c', startWith: '$a', connectFromField: 'a', connectToField: 'b', as: 'g', maxDepth: -1}}]",
            "(?i)maxDepth|negative",
        ),
        (
            "window-unknown",
            "[{$setWindowFields: {output: {x: {$foo: 1}}}}]",
            "(?i)unrecognized|window|foo",
        ),
        (
            "documents-in-collection",
            "[{$documents: [{x: 1}]}]",
            "(?i)documents|collection",
        ),
        ("unionWith-number", "[{$unionWith: 1}]", "(?i)unionWith"),
        (
            "densify-step-zero",
            "[{$densify: {field: 'a', range: {step: 0, bounds: 'full'}}}]",
            "(?i)step",
        ),
        (
            "redact-bad-variable",
            "[{$redact: '$$FOO'}]",
            "(?i)undefined variable|FOO",
        ),
        (
            "let-bad-name",
            "[{$project: {x: {$let: {vars: {'1x': 1}, in: 1}}}}]",
            "(?i)variable|name",
        ),
        (
            "undefined-variable",
            "[{$project: {x: '$$foo'}}]",
            "(?i)undefined variable",
        ),
        (
            "dateFromString-garbage",
            "[{$project: {x: {$dateFromString: {dateString: 'garbage'}}}}]",
            "(?i)parse|date",
        ),
        (
            "toInt-string",
            "[{$project: {x: {$toInt: 'x'}}}]",
            "(?i)conversion|parse|failed",
        ),
        (
            "substrCP-negative",
            "[{$project: {x: {$substrCP: ['abc', -1, 2]}}}]",
            "(?i)substrCP|negative",
        ),
        (
            "log-zero",
            "[{$project: {x: {$ln: 0}}}]",
            "(?i)positive|\\$ln",
        ),
        (
            "sqrt-negative",
            "[{$project: {x: {$sqrt: -1}}}]",
            "(?i)\\$sqrt|negative|non-negative",
        ),
        (
            "divide-zero",
            "[{$project: {x: {$divide: [1, 0]}}}]",
            "(?i)divide by zero",
        ),
        (
            "mod-zero",
            "[{$project: {x: {$mod: [1, 0]}}}]",
            "(?i)mod by zero",
        ),
        (
            "regexMatch-bad",
            "[{$project: {x: {$regexMatch: {input: 'a', regex: '('}}}}]",
            "(?i)regex|invalid",
        ),
        (
            "range-step-zero",
            "[{$project: {x: {$range: [0, 10, 0]}}}]",
            "(?i)non-zero step",
        ),
        (
            "arrayElemAt-huge",
            "[{$project: {x: {$arrayElemAt: [[1], 2**40]}}}]",
            "(?i)arrayElemAt|32-bit|int",
        ),
        (
            "merge-on-missing-index",
            "[{$merge: {into: 'o', on: 'b'}}]",
            "(?i)unique index|merge|on",
        ),
        (
            "out-system",
            "[{$out: 'system.x'}]",
            "(?i)system|invalid|out",
        ),
        (
            "group-accumulator-unknown",
            "[{$group: {_id: null, x: {$foo: 1}}}]",
            "(?i)unknown group operator|foo",
        ),
        (
            "match-text-not-first",
            "[{$skip: 1}, {$match: {$text: {$search: 'x'}}}]",
            "(?i)text",
        ),
    ];
    let mut rows = Vec::new();
    for (name, pipeline, pattern) in cases {
        let code = on_c(&format!("db.c.aggregate({pipeline}).toArray()"));
        rows.push(error(format!("pipeline/{name}"), code, pattern));
    }
    for (name, pipeline) in [
        ("merge-into-self", "[{$merge: {into: 'c'}}]"),
        ("where-in-match", "[{$match: {$where: 'true'}}]"),
        (
            "lookup-self-pipeline-let",
            "[{$lookup: {from: 'c', let: {x: '$a'}, pipeline: [{$match: {$expr: {$eq: ['$a', '$$x']}}}], as: 'j'}}]",
        ),
        (
            "group-huge-keys",
            "[{$group: {_id: {$range: [0, 1000]}, n: {$sum: 1}}}]",
        ),
        (
            "bucketAuto-zero",
            "[{$bucketAuto: {groupBy: '$a', buckets: 0}}]",
        ),
        ("sortByCount-object", "[{$sortByCount: {$literal: {}}}]"),
        ("project-deep-paths", "[{$project: {'a.b.c.d.e.f.g.h': 1}}]"),
        (
            "dateToString-bad-format",
            "[{$project: {x: {$dateToString: {date: '$d', format: '%Q%%%'}}}}]",
        ),
        (
            "dateTrunc-huge-binSize",
            "[{$project: {x: {$dateTrunc: {date: '$d', unit: 'day', binSize: 1e18}}}}]",
        ),
        (
            "convert-onError",
            "[{$project: {x: {$convert: {input: 'x', to: 'int', onError: 0}}}}]",
        ),
        (
            "setWindowFields-range-unit",
            "[{$setWindowFields: {sortBy: {d: 1}, output: {n: {$count: {}, window: {range: [-1e15, 1e15], unit: 'day'}}}}}]",
        ),
        (
            "zip-longest",
            "[{$project: {x: {$zip: {inputs: [[1], [1, 2, 3]], useLongestLength: true}}}}]",
        ),
        (
            "reduce-empty",
            "[{$project: {x: {$reduce: {input: [], initialValue: 0, in: 1}}}}]",
        ),
        (
            "firstN-huge-n",
            "[{$project: {x: {$firstN: {input: [1, 2], n: 2**53}}}}]",
        ),
        ("changeStream", "[{$changeStream: {}}]"),
    ] {
        rows.push(ends(
            format!("pipeline/{name}"),
            on_c(&format!("db.c.aggregate({pipeline}).toArray()")),
        ));
    }
    rows
}

fn constructors() -> Vec<Row> {
    let mut rows = vec![
        error(
            "bson/objectid-bad",
            "ObjectId('zz')",
            "(?i)objectid|hex|24|invalid",
        ),
        error(
            "bson/isodate-garbage",
            "ISODate('garbage')",
            "(?i)date|invalid",
        ),
        error(
            "bson/numberlong-too-big",
            "NumberLong('9223372036854775808')",
            "(?i)long|range|invalid",
        ),
        error("bson/uuid-bad", "UUID('x')", "(?i)uuid|hex|invalid"),
        error("bson/hexdata-bad", "HexData(0, 'zz')", "(?i)hex|invalid"),
        error(
            "bson/numberdecimal-garbage",
            "NumberDecimal('abc')",
            "(?i)decimal|invalid",
        ),
    ];
    for (name, code) in [
        ("bindata-subtype-300", "BinData(300, '')"),
        ("numberdecimal-huge-exponent", "NumberDecimal('1e9999999')"),
        (
            "numberdecimal-many-digits",
            "NumberDecimal('1'.repeat(10000))",
        ),
        ("timestamp-negative", "Timestamp(-1, 0)"),
        ("timestamp-huge", "Timestamp(2**40, 2**40)"),
        (
            "date-nan-insert",
            "db.c.insertOne({_id: 1, d: new Date(NaN)}); db.c.findOne()",
        ),
        ("numberint-string", "NumberInt('x')"),
        ("numberint-huge", "NumberInt(2**40)"),
        ("objectid-date-extreme", "ObjectId.createFromTime(2**40)"),
        ("bindata-bad-base64", "BinData(0, '!!!')"),
        ("dbref", "DBRef('c', 1, 'db').toString()"),
        ("ejson-parse-bad-date", "EJSON.parse('{\"$date\": \"x\"}')"),
        (
            "ejson-parse-deep",
            "EJSON.parse('['.repeat(5000) + ']'.repeat(5000))",
        ),
        (
            "ejson-parse-numberLong-bad",
            "EJSON.parse('{\"a\": {\"$numberLong\": \"x\"}}')",
        ),
        (
            "ejson-stringify-cycle",
            "let o={}; o.o=o; EJSON.stringify(o)",
        ),
        ("insert-cycle", "let o={}; o.o=o; db.c.insertOne(o)"),
        (
            "insert-array-cycle",
            "let a=[]; a.push(a); db.c.insertOne({a})",
        ),
        (
            "insert-function",
            "db.c.insertOne({f: function(){ return 1 }}); db.c.findOne()",
        ),
        ("insert-symbol", "db.c.insertOne({s: Symbol('x')})"),
        ("insert-bigint", "db.c.insertOne({b: 2n ** 70n})"),
        (
            "insert-map",
            "db.c.insertOne({m: new Map([[1, 2]])}); db.c.findOne()",
        ),
        (
            "insert-getter-throws",
            "db.c.insertOne({get a(){ throw new Error('boom') }})",
        ),
        (
            "insert-proxy-throws",
            "db.c.insertOne(new Proxy({}, {ownKeys(){ throw new Error('boom') }}))",
        ),
        (
            "insert-bsontype-forged",
            "db.c.insertOne({a: {_bsontype: 'ObjectId', id: 5}})",
        ),
        (
            "insert-bsontype-unknown",
            "db.c.insertOne({a: {_bsontype: 'Nope'}})",
        ),
        (
            "find-with-proxy-filter",
            "db.c.find(new Proxy({}, {get(){ return 1 }})).toArray()",
        ),
        (
            "json-dataset-like",
            "db.c.insertOne(JSON.parse('{\"$oid\": \"x\"}'))",
        ),
    ] {
        rows.push(ends(format!("bson/{name}"), code));
    }
    rows
}

fn shell_syntax() -> Vec<Row> {
    let mut rows = vec![
        error(
            "syntax/use-too-long",
            format!("use {}", "a".repeat(100)),
            "(?i)database name|invalid|too long",
        ),
        error(
            "syntax/use-slash",
            "use a/b",
            "(?i)database name|invalid|syntax",
        ),
        error("syntax/use-bare", "use", "(?i)use|not defined|syntax"),
        error("syntax/show-unknown", "show foo", "(?i)show|foo"),
        error(
            "syntax/unclosed-brace",
            "db.c.find({",
            "(?i)syntax|unexpected end",
        ),
        error(
            "syntax/lone-backtick",
            "`",
            "(?i)syntax|unexpected|unterminated",
        ),
        error(
            "syntax/regex-unterminated",
            "/abc",
            "(?i)syntax|unterminated|unexpected",
        ),
        result("syntax/it-without-cursor", "it", "(?i)(no cursor|^$)"),
    ];
    for (name, code) in [
        ("use-nul", "use a\u{0}b".to_string()),
        ("show-many-semicolons", "show collections ;;;;".to_string()),
        ("million-semicolons", ";".repeat(1_000_000)),
        ("million-spaces-then-1", format!("{}1", " ".repeat(1_000_000))),
        ("long-identifier", format!("var {} = 1", "a".repeat(100_000))),
        ("long-string-literal", format!("'{}'.length", "a".repeat(100_000))),
        ("many-statements", "1;".repeat(100_000)),
        ("unicode-identifiers", "var \u{0435}\u{0430} = 1; \u{0435}\u{0430}".to_string()),
        ("bom-prefix", "\u{feff}1+1".to_string()),
        ("line-separator", "1\u{2028}+1".to_string()),
        ("exit-with-args", "exit(1)".to_string()),
        ("html-comment", "<!-- x\n1".to_string()),
        ("hashbang", "#!/usr/bin/env sprout\n1".to_string()),
        ("with-statement", "with ({a: 1}) a".to_string()),
        ("getter-on-db", "Object.defineProperty(db, 'c', {get(){ throw new Error('x') }}); db.c".to_string()),
        ("overwrite-db", "db = 5; db".to_string()),
        ("overwrite-print", "print = null; 1".to_string()),
        ("overwrite-object-prototype", "Object.prototype.toJSON = () => 1; db.c.insertOne({a: 1}); db.c.findOne()".to_string()),
        ("overwrite-array-prototype", "Array.prototype[Symbol.iterator] = null; db.c.insertMany([{a: 1}])".to_string()),
        ("freeze-everything", "Object.freeze(Object.prototype); Object.freeze(Array.prototype); db.c.insertOne({a: 1}); db.c.find().toArray()".to_string()),
    ] {
        rows.push(ends(format!("syntax/{name}"), code));
    }
    rows
}

/// Every row of this module.
pub fn rows() -> Vec<Row> {
    let mut rows = filters();
    rows.extend(updates());
    rows.extend(projections());
    rows.extend(pipelines());
    rows.extend(constructors());
    rows.extend(shell_syntax());
    rows
}
