//! Rows from the fuzzers' finds (`cargo xtask fuzz`, see docs/reliability.md): each input that
//! crashed, ran out of memory or timed out, as a program for the `sprout` binary.

use super::{Row, SIZE, result};

pub fn rows() -> Vec<Row> {
    vec![
        // projection target, out of memory: a DocumentDB seed as a computed projection.
        result(
            "fuzz/projection-range-6.5M",
            "db.c.insertMany(Array.from({length: 12}, (_, i) => ({i}))); \
             try { db.c.find({}, {result: {$range: [0, 6505360]}}).toArray().length } \
             catch (e) { /memory|exceed|limit/i.test(e.message) ? 'refused' : e.message }",
            "^(12|refused)\n$",
        ),
        super::error(
            "fuzz/projection-range-6.5M-in-map",
            "db.c.insertMany(Array.from({length: 12}, (_, i) => ({i}))); \
             db.c.find({}, {r: {$map: {input: {$range: [0, 100]}, in: {$range: [0, 6505360]}}}}).toArray().length",
            SIZE,
        ),
        // shell_program target, timeouts: jstests seeds that build 16 MB strings from holes.
        result(
            "fuzz/array-16M-holes-toString",
            "db.c.insertOne({big: Array(16 * 1024 * 1024 - 1024).toString()}); db.c.countDocuments()",
            "^1\n$",
        ),
        result(
            "fuzz/array-1M-join-20-inserts",
            "var p = new Array(1024 * 1024).join('x'); \
             for (var i = 0; i < 20; i++) db.c.insertOne({_id: i, p}); \
             db.c.find().limit(-18).itcount() < 18",
            "^true\n$",
        ),
        // shell_program target, out of memory (2 December 2026): a value printed into a string,
        // turned back into an object (a String object: one key per character) and printed
        // again grows about fifteenfold a round; printing now stops at the longest string.
        super::error(
            "fuzz/tojson-of-this-grows",
            "for (let i = 0; i < 3; i++) { for (let i = 0; i < 3; i++) { \
             var a = Object.assign(tojson(this)); } }",
            "^RangeError: Invalid string length: the printed value would pass 33554432 characters",
        ),
        super::error(
            "fuzz/print-string-object-30M",
            "printjson(Object('x'.repeat(30000000)))",
            "^RangeError: ",
        ),
        super::error(
            "fuzz/insert-string-object-30M",
            "db.c.insertOne({a: Object('x'.repeat(30000000))})",
            "RangeError",
        ),
        super::error(
            "fuzz/print-typed-array-64M",
            "printjson(new Uint8Array(1 << 26))",
            "^RangeError: Invalid string length",
        ),
        // shell_program target, out of memory (2 December 2026, second campaign): a global left
        // by the input above held a String object of 31.8 million characters, and a later input's
        // `Object.entries(a)` made an array per character (4 GB).
        super::error(
            "fuzz/entries-of-a-string-object-5M",
            "var a = Object('x'.repeat(5000000)); Object.entries(a).length",
            "^RangeError: Invalid array length",
        ),
        super::error(
            "fuzz/keys-of-a-string-5M",
            "Object.keys('x'.repeat(5000000)).length",
            "^RangeError: Invalid array length",
        ),
        super::error(
            "fuzz/own-keys-of-a-typed-array-8M",
            "Reflect.ownKeys(new Uint8Array(1 << 23)).length",
            "^RangeError: Invalid array length",
        ),
        result(
            "fuzz/entries-of-a-small-string-object",
            "Object.entries(Object('ab')).length + Object.keys(new Uint8Array(3)).length",
            "^5\n$",
        ),
        // shell_program target, out of memory (2 December 2026, the re-run): JSON.stringify of
        // a string stringified again doubles it by its escapes; the text had no cap.
        super::error(
            "fuzz/json-stringify-chain-of-this",
            "var x = ''; for (let i = 0; i < 40; i++) { x = JSON.stringify(JSON.stringify(this)); }",
            "^RangeError: Invalid string length",
        ),
        result(
            "fuzz/print-string-object-small",
            "print(tojson(Object('ab')))",
            "^\\{ \"0\" : \"a\", \"1\" : \"b\" \\}\n$",
        ),
    ]
}
