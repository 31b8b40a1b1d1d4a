//! Rows for the engine's limits, which must be MongoDB's with MongoDB's errors: expression
//! memory (`$range`, strings built by `$concat`/`$reduce`), sub-pipeline nesting, `$densify`'s
//! document count, blocking stages, 16 MB documents, 100 levels of BSON nesting, `$unwind` and
//! multikey keys over large arrays.

use super::{DEPTH, Row, SIZE, ends, error, result};

/// `n` nested `$lookup` sub-pipelines over collection `c`.
fn nested_lookups(n: usize) -> String {
    let mut pipeline = String::from("[]");
    for _ in 0..n {
        pipeline = format!("[{{$lookup: {{from: 'c', pipeline: {pipeline}, as: 'j'}}}}]");
    }
    format!("db.c.insertOne({{a: 1}}); db.c.aggregate({pipeline}).toArray().length")
}

/// `n` nested `$facet`s.
fn nested_facets(n: usize) -> String {
    let mut pipeline = String::from("[{$limit: 1}]");
    for _ in 0..n {
        pipeline = format!("[{{$facet: {{f: {pipeline}}}}}]");
    }
    format!("db.c.insertOne({{a: 1}}); db.c.aggregate({pipeline}).toArray().length")
}

/// `n` nested `$unionWith`s.
fn nested_unions(n: usize) -> String {
    let mut pipeline = String::from("[]");
    for _ in 0..n {
        pipeline = format!("[{{$unionWith: {{coll: 'c', pipeline: {pipeline}}}}}]");
    }
    format!("db.c.insertOne({{a: 1}}); db.c.aggregate({pipeline}).toArray().length")
}

/// A document nested `n` levels, built at run time.
fn nested_document(n: usize) -> String {
    format!("let o={{x: 1}}; for (let i=1;i<{n};i++) o={{a: o}}; db.c.insertOne(o).acknowledged")
}

/// A filter nested `n` levels of `$and`.
fn nested_and(n: usize) -> String {
    format!(
        "let f={{a: 1}}; for (let i=0;i<{n};i++) f={{$and: [f]}}; db.c.find(f).toArray().length"
    )
}

/// An expression nested `n` levels of `$add`.
fn nested_add(n: usize) -> String {
    format!(
        "db.c.insertOne({{a: 1}}); let e=1; for (let i=0;i<{n};i++) e={{$add: [e, 1]}}; db.c.aggregate([{{$project: {{v: e}}}}]).toArray()[0].v"
    )
}

pub fn rows() -> Vec<Row> {
    let mut rows = vec![
        error(
            "range/in-map",
            "db.c.insertOne({a: 1}); db.c.aggregate([{$project: {r: {$map: {input: {$range: [0, 1e7]}, in: {$range: [0, 1e7]}}}}}]).toArray()",
            SIZE,
        ),
        error(
            "range/2e9",
            "db.c.insertOne({a: 1}); db.c.aggregate([{$project: {r: {$range: [0, 2e9]}}}]).toArray()",
            SIZE,
        ),
        error(
            "range/1e8",
            "db.c.insertOne({a: 1}); db.c.aggregate([{$project: {r: {$size: {$range: [0, 1e8]}}}}]).toArray()",
            SIZE,
        ),
        result(
            "range/1e5-size",
            "db.c.insertOne({a: 1}); db.c.aggregate([{$project: {_id: 0, r: {$size: {$range: [0, 1e5]}}}}]).toArray()[0].r",
            "^100000\n$",
        ),
        error(
            "range/collectionless",
            "db.aggregate([{$documents: [{r: {$range: [0, 2e9]}}]}]).toArray()",
            SIZE,
        ),
        error(
            "range/in-reduce",
            "db.c.insertOne({a: 1}); db.c.aggregate([{$project: {r: {$reduce: {input: {$range: [0, 1e4]}, initialValue: [], in: {$concatArrays: ['$$value', {$range: [0, 1e4]}]}}}}}]).toArray()",
            SIZE,
        ),
        error(
            "string/reduce-doubling",
            "db.c.insertOne({a: 1}); db.c.aggregate([{$project: {s: {$reduce: {input: {$range: [0, 40]}, initialValue: 'x', in: {$concat: ['$$value', '$$value']}}}}}]).toArray()",
            SIZE,
        ),
        error(
            "string/concat-huge",
            "db.c.insertOne({s: 'x'.repeat(1<<20)}); db.c.aggregate([{$project: {s: {$concat: Array(20).fill('$s')}}}]).toArray()",
            SIZE,
        ),
        error(
            "string/replaceAll-growth",
            "db.c.insertOne({s: 'x'.repeat(1<<16)}); db.c.aggregate([{$project: {s: {$replaceAll: {input: '$s', find: 'x', replacement: 'y'.repeat(1000)}}}}]).toArray()",
            SIZE,
        ),
        error(
            "array/concatArrays-doubling",
            "db.c.insertOne({a: [1]}); db.c.aggregate([{$project: {s: {$reduce: {input: {$range: [0, 40]}, initialValue: [1], in: {$concatArrays: ['$$value', '$$value']}}}}}]).toArray()",
            SIZE,
        ),
        error(
            "lookup/nested-45",
            nested_lookups(45),
            r"(?i)(nest|sub-?pipeline|depth|limit)",
        ),
        error(
            "lookup/nested-21",
            nested_lookups(21),
            r"(?i)(nest|sub-?pipeline|depth|limit)",
        ),
        result("lookup/nested-20", nested_lookups(20), "^1\n$"),
        result("lookup/nested-3", nested_lookups(3), "^1\n$"),
        ends(
            "lookup/nested-12-growth",
            "db.c.insertMany(Array.from({length: 8}, (_, i) => ({i}))); let p=[]; for (let i=0;i<12;i++) p=[{$lookup: {from: 'c', pipeline: p, as: 'j'}}]; db.c.aggregate(p).toArray().length",
        ),
        error(
            "facet/nested-25",
            nested_facets(25),
            r"(?i)(nest|facet|depth|limit|not allowed)",
        ),
        error(
            "unionWith/nested-45",
            nested_unions(45),
            r"(?i)(nest|sub-?pipeline|depth|limit)",
        ),
        result("unionWith/nested-5", nested_unions(5), "^6\n$"),
        error(
            "densify/billions",
            "db.c.insertMany([{t: 0}, {t: 1e10}]); db.c.aggregate([{$densify: {field: 't', range: {step: 1, bounds: 'full'}}}]).toArray().length",
            r"(?i)densify",
        ),
        error(
            "densify/dates-millis",
            "db.c.insertMany([{t: new Date(0)}, {t: new Date(1e12)}]); db.c.aggregate([{$densify: {field: 't', range: {step: 1, unit: 'millisecond', bounds: 'full'}}}]).toArray().length",
            r"(?i)densify",
        ),
        error(
            "densify/explicit-bounds",
            "db.c.insertOne({t: 0}); db.c.aggregate([{$densify: {field: 't', range: {step: 1, bounds: [0, 1e9]}}}]).toArray().length",
            r"(?i)densify",
        ),
        result(
            "densify/small",
            "db.c.insertMany([{t: 0}, {t: 10}]); db.c.aggregate([{$densify: {field: 't', range: {step: 1, bounds: 'full'}}}]).toArray().length",
            "^11\n$",
        ),
        ends(
            "densify/partitions",
            "db.c.insertMany(Array.from({length: 1000}, (_, i) => ({p: i, t: i % 2 ? 0 : 1e6}))); db.c.aggregate([{$densify: {field: 't', partitionByFields: ['p'], range: {step: 1, bounds: 'full'}}}]).toArray().length",
        ),
        ends(
            "unwind/1e5",
            "db.c.insertOne({a: Array.from({length: 1e5}, (_, i) => i)}); db.c.aggregate([{$unwind: '$a'}, {$count: 'n'}]).toArray()[0].n",
        ),
        ends(
            "unwind/1e5-with-payload",
            "db.c.insertOne({a: Array.from({length: 1e5}, (_, i) => i), p: 'x'.repeat(1000)}); db.c.aggregate([{$unwind: '$a'}, {$count: 'n'}]).toArray()[0].n",
        ),
        ends(
            "unwind/double",
            "db.c.insertOne({a: Array.from({length: 2000}, (_, i) => i), b: Array.from({length: 2000}, (_, i) => i)}); db.c.aggregate([{$unwind: '$a'}, {$unwind: '$b'}, {$count: 'n'}]).toArray()[0].n",
        ),
        ends(
            "multikey/1e5-elements",
            "db.c.createIndex({a: 1}); db.c.insertOne({a: Array.from({length: 1e5}, (_, i) => i)}); db.c.countDocuments({a: 5})",
        ),
        ends(
            "multikey/1e5-subdocs",
            "db.c.createIndex({'a.b': 1}); db.c.insertOne({a: Array.from({length: 1e5}, (_, i) => ({b: i}))}); db.c.countDocuments({'a.b': 5})",
        ),
        // MongoDB pairs fields through one array per element: 30,000 keys, not 9e8.
        result(
            "multikey/compound-array-of-docs",
            "db.c.createIndex({'a.b': 1, 'a.c': 1}); db.c.insertOne({a: Array.from({length: 3e4}, (_, i) => ({b: i, c: i}))}); db.c.countDocuments({'a.b': 5})",
            "^1\n$",
        ),
        result(
            "multikey/compound-predicates-in-two-elements",
            "db.c.createIndex({'a.x': 1, 'a.y': 1}); db.c.insertOne({a: [{x: 1, y: 2}, {x: 3, y: 4}]}); [db.c.countDocuments({'a.x': 1, 'a.y': 4}), db.c.countDocuments({a: {$elemMatch: {x: 1, y: 4}}})].join()",
            "^1,0\n$",
        ),
        // `{a: 1, 'a.b': 1}` copies the whole element into each of its 20,000 keys.
        error(
            "multikey/element-copied-into-every-key",
            "db.c.createIndex({a: 1, 'a.b': 1}); db.c.insertOne({a: [{b: Array.from({length: 2e4}, (_, i) => i)}]})",
            r"104857600 bytes",
        ),
        error(
            "multikey/parallel-arrays",
            "db.c.createIndex({a: 1, b: 1}); db.c.insertOne({a: [1, 2], b: [1, 2]})",
            r"(?i)parallel",
        ),
        ends(
            "multikey/update-1e5",
            "db.c.createIndex({a: 1}); db.c.insertOne({_id: 1, a: Array.from({length: 1e5}, (_, i) => i)}); db.c.updateOne({_id: 1}, {$push: {a: -1}}).modifiedCount",
        ),
        // jstests/core/max_doc_size.js: a document of exactly 16 MiB is stored and read back
        // ('a'.repeat of 16 million once stopped at the loop limit instead).
        result(
            "document/exactly-16MB",
            "const s = 'a'.repeat(16*1024*1024 - Object.bsonsize({_id: 1, x: ''})); \
             db.c.insertOne({_id: 1, x: s}); Object.bsonsize(db.c.findOne())",
            "^16777216\n$",
        ),
        error(
            "document/16MB-insert",
            "db.c.insertOne({s: 'x'.repeat(16*1024*1024)})",
            SIZE,
        ),
        error(
            "document/16MB-update",
            "db.c.insertOne({_id: 1}); db.c.updateOne({_id: 1}, {$set: {s: 'x'.repeat(16*1024*1024)}})",
            SIZE,
        ),
        error(
            "document/16MB-push-growth",
            "db.c.insertOne({_id: 1, a: []}); let s='x'.repeat(1<<20); for (let i=0;i<20;i++) db.c.updateOne({_id: 1}, {$push: {a: s}}); db.c.findOne().a.length",
            SIZE,
        ),
        error(
            "document/16MB-group-push",
            "db.c.insertMany(Array.from({length: 40}, () => ({s: 'x'.repeat(1<<19)}))); db.c.aggregate([{$group: {_id: null, all: {$push: '$s'}}}]).toArray()",
            SIZE,
        ),
        error(
            "document/16MB-lookup-result",
            "db.c.insertMany(Array.from({length: 40}, () => ({k: 1, s: 'x'.repeat(1<<19)}))); db.c.aggregate([{$lookup: {from: 'c', localField: 'k', foreignField: 'k', as: 'j'}}]).toArray()",
            SIZE,
        ),
        // MongoDB stores 180 levels, top included (`getMaxDepthForUserStorage`); the manual's
        // "100 levels" is older text. 101 levels are stored.
        result("nesting/insert-101", nested_document(101), "^true\n$"),
        error("nesting/insert-200", nested_document(200), DEPTH),
        error("nesting/insert-1000", nested_document(1000), DEPTH),
        result("nesting/insert-99", nested_document(99), "^true\n$"),
        error(
            "nesting/update-deep",
            "db.c.insertOne({_id: 1}); let o={x: 1}; for (let i=0;i<150;i++) o={a: o}; db.c.updateOne({_id: 1}, {$set: {d: o}})",
            DEPTH,
        ),
        error("nesting/filter-and-1000", nested_and(1000), DEPTH),
        error("nesting/filter-and-150", nested_and(150), DEPTH),
        result("nesting/filter-and-20", nested_and(20), "^0\n$"),
        ends("nesting/expression-add-1000", nested_add(1000)),
        ends("nesting/expression-add-150", nested_add(150)),
        result("nesting/expression-add-20", nested_add(20), "^21\n$"),
        ends(
            "nesting/elemMatch-deep",
            "let f={a: 1}; for (let i=0;i<500;i++) f={x: {$elemMatch: f}}; db.c.find(f).toArray().length",
        ),
        ends(
            "nesting/not-deep",
            "let f={$gt: 1}; for (let i=0;i<500;i++) f={$not: f}; db.c.find({a: f}).toArray().length",
        ),
        ends(
            "nesting/projection-deep",
            "db.c.insertOne({a: 1}); let p='a'; for (let i=0;i<500;i++) p=p+'.a'; db.c.find({}, {[p]: 1}).toArray().length",
        ),
        ends(
            "nesting/path-deep-set",
            "db.c.insertOne({_id: 1}); db.c.updateOne({_id: 1}, {$set: {[Array(300).fill('a').join('.')]: 1}})",
        ),
        error(
            "blocking/sort-over-100MB",
            "let s='x'.repeat(1<<20); for (let i=0;i<110;i++) db.c.insertOne({i, s}); db.c.aggregate([{$sort: {i: -1}}], {allowDiskUse: false}).toArray().length",
            r"(?i)(memory|allowDiskUse|exceed)",
        ),
        error(
            "blocking/group-over-100MB",
            "let s='x'.repeat(1<<20); for (let i=0;i<110;i++) db.c.insertOne({i, s}); db.c.aggregate([{$group: {_id: '$i', s: {$first: '$s'}}}], {allowDiskUse: false}).toArray().length",
            r"(?i)(memory|allowDiskUse|exceed)",
        ),
        ends(
            "blocking/sort-with-allowDiskUse",
            "let s='x'.repeat(1<<20); for (let i=0;i<110;i++) db.c.insertOne({i, s}); db.c.aggregate([{$sort: {i: -1}}, {$project: {s: 0}}], {allowDiskUse: true}).toArray().length",
        ),
        ends(
            "cartesian/lookup-self-1000",
            "db.c.insertMany(Array.from({length: 1000}, (_, i) => ({k: 1, i}))); db.c.aggregate([{$lookup: {from: 'c', localField: 'k', foreignField: 'k', as: 'j'}}, {$project: {n: {$size: '$j'}}}]).toArray().length",
        ),
        ends(
            "graphLookup/cycle",
            "db.c.insertMany([{_id: 1, to: 2}, {_id: 2, to: 1}]); db.c.aggregate([{$graphLookup: {from: 'c', startWith: '$to', connectFromField: 'to', connectToField: '_id', as: 'g'}}]).toArray().length",
        ),
        ends(
            "graphLookup/chain-10000",
            "db.c.insertMany(Array.from({length: 10000}, (_, i) => ({_id: i, to: i + 1}))); db.c.aggregate([{$match: {_id: 0}}, {$graphLookup: {from: 'c', startWith: '$to', connectFromField: 'to', connectToField: '_id', as: 'g'}}, {$project: {n: {$size: '$g'}}}]).toArray()[0].n",
        ),
        ends(
            "bucketAuto/huge-buckets",
            "db.c.insertMany([{a: 1}, {a: 2}]); db.c.aggregate([{$bucketAuto: {groupBy: '$a', buckets: 2147483647}}]).toArray().length",
        ),
        ends(
            "sample/huge-size",
            "db.c.insertOne({a: 1}); db.c.aggregate([{$sample: {size: 1e15}}]).toArray().length",
        ),
        ends(
            "limit/huge",
            "db.c.insertOne({a: 1}); db.c.find().limit(2**62).toArray().length",
        ),
        ends(
            "skip/huge",
            "db.c.insertOne({a: 1}); db.c.find().skip(2**62).toArray().length",
        ),
        ends(
            "batchSize/huge",
            "db.c.insertOne({a: 1}); db.c.find().batchSize(2**31).toArray().length",
        ),
        ends(
            "setWindowFields/documents-huge",
            "db.c.insertMany([{a: 1}, {a: 2}]); db.c.aggregate([{$setWindowFields: {sortBy: {a: 1}, output: {s: {$sum: '$a', window: {documents: [-1e15, 1e15]}}}}}]).toArray().length",
        ),
        ends(
            "text/huge-search",
            "db.c.createIndex({s: 'text'}); db.c.insertOne({s: 'a b c'}); db.c.find({$text: {$search: 'word '.repeat(1e5)}}).toArray().length",
        ),
        ends(
            "in/huge-list",
            "db.c.insertOne({a: 1}); db.c.find({a: {$in: Array.from({length: 2e5}, (_, i) => i)}}).toArray().length",
        ),
        ends(
            "or/huge-list",
            "db.c.createIndex({a: 1}); db.c.insertOne({a: 1}); db.c.find({$or: Array.from({length: 5000}, (_, i) => ({a: i}))}).toArray().length",
        ),
        ends(
            "insertMany/100k-docs-one-command",
            "db.c.insertMany(Array.from({length: 1e5}, () => ({}))).insertedIds.length",
        ),
        ends(
            "createIndex/64-indexes",
            "let r; for (let i=0;i<70;i++) r=db.c.createIndex({['f'+i]: 1}); db.c.getIndexes().length",
        ),
        error(
            "createIndex/key-too-many-fields",
            "let k={}; for (let i=0;i<40;i++) k['f'+i]=1; db.c.createIndex(k)",
            r"(?i)(32|fields|compound)",
        ),
        ends(
            "regex/engine-long-pattern",
            "db.c.insertOne({s: 'a'}); db.c.find({s: {$regex: 'a'.repeat(40000)}}).toArray().length",
        ),
        ends(
            "regex/engine-huge-repeat",
            "db.c.insertOne({s: 'a'}); db.c.find({s: {$regex: 'a{1000}{1000}'}}).toArray().length",
        ),
        ends(
            "regex/regexFindAll-empty-matches",
            "db.c.insertOne({s: 'x'.repeat(1e6)}); db.c.aggregate([{$project: {n: {$size: {$regexFindAll: {input: '$s', regex: ''}}}}}]).toArray()[0].n",
        ),
        ends(
            "split/huge",
            "db.c.insertOne({s: 'x'.repeat(1e6)}); db.c.aggregate([{$project: {n: {$size: {$split: ['$s', '']}}}}]).toArray()",
        ),
        ends(
            "date/dateAdd-overflow",
            "db.c.insertOne({d: new Date()}); db.c.aggregate([{$project: {x: {$dateAdd: {startDate: '$d', unit: 'year', amount: 1e15}}}}]).toArray()",
        ),
        ends(
            "date/dateDiff-extreme",
            "db.aggregate([{$documents: [{x: {$dateDiff: {startDate: new Date(-8.64e15), endDate: new Date(8.64e15), unit: 'millisecond'}}}]}]).toArray()",
        ),
        ends(
            "expr/pow-huge",
            "db.aggregate([{$documents: [{x: {$pow: [NumberDecimal('10'), 1e9]}}]}]).toArray()",
        ),
        ends(
            "expr/decimal-exp-huge",
            "db.aggregate([{$documents: [{x: {$exp: NumberDecimal('1e6000')}}]}]).toArray()",
        ),
        ends(
            "expr/trunc-huge-places",
            "db.aggregate([{$documents: [{x: {$trunc: [NumberDecimal('1.5'), 2e9]}}]}]).toArray()",
        ),
    ];
    rows.push(ends(
        "unwind/array-of-1e6-nulls",
        "db.c.insertOne({a: Array(1e6).fill(null)}); db.c.aggregate([{$unwind: '$a'}, {$count: 'n'}]).toArray()",
    ));
    rows
}
