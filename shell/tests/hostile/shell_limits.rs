//! Rows for the shell's limits: nesting and recursion without brackets, code built at run time,
//! strings, arrays and objects built by learner code, regular expressions, promise floods, the
//! sandbox, lone surrogates, the clock.

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;

use super::{DEPTH, Expect, Row, SIZE, TIME, ends, error, result};

/// Sizes at which each construct is tried: one that must work, and hostile ones.
const SMALL: usize = 20;
const HOSTILE: &[usize] = &[3_000, 10_000, 50_000];

/// A construct nested `n` times without brackets (or with brackets the text scan cannot see).
struct Nesting {
    name: &'static str,
    build: fn(usize) -> String,
    /// The result at the small size.
    small: &'static str,
}

fn nestings() -> Vec<Nesting> {
    vec![
        Nesting {
            name: "not",
            build: |n| format!("{}1", "!".repeat(n)),
            small: "^(true|false)\n$",
        },
        Nesting {
            name: "typeof",
            build: |n| format!("{}1", "typeof ".repeat(n)),
            small: "^string\n$",
        },
        Nesting {
            name: "void",
            build: |n| format!("{}1; 'done'", "void ".repeat(n)),
            small: "^done\n$",
        },
        Nesting {
            name: "unary-minus",
            build: |n| format!("{}1", "- ".repeat(n)),
            small: "^-?1\n$",
        },
        Nesting {
            name: "unary-plus-minus",
            build: |n| format!("{}1", "+-".repeat(n)),
            small: "^-?1\n$",
        },
        Nesting {
            name: "bitwise-not",
            build: |n| format!("{}1", "~".repeat(n)),
            small: r"^-?\d+\n$",
        },
        Nesting {
            name: "new",
            build: |n| {
                format!(
                    "try {{ {}Object }} catch (e) {{ 'caught' }}",
                    "new ".repeat(n)
                )
            },
            small: "caught|\\{\\}",
        },
        Nesting {
            name: "arrow",
            build: |n| format!("typeof ({}1)", "a=>".repeat(n)),
            small: "^function\n$",
        },
        Nesting {
            name: "assignment",
            build: |n| format!("{}1", "x=".repeat(n)),
            small: "^1\n$",
        },
        Nesting {
            name: "conditional",
            build: |n| format!("{}1{}", "1?".repeat(n), ":0".repeat(n)),
            small: "^1\n$",
        },
        Nesting {
            name: "exponent",
            build: |n| format!("{}1", "1**".repeat(n)),
            small: "^1\n$",
        },
        Nesting {
            name: "if",
            build: |n| format!("{}x=1; x", "if(1)".repeat(n)),
            small: "^1\n$",
        },
        Nesting {
            name: "labels",
            build: |n| (0..n).map(|i| format!("l{i}:")).collect::<String>() + "1",
            small: "^1\n$",
        },
        Nesting {
            name: "do-while",
            build: |n| format!("{}x=1;{} x", "do ".repeat(n), " while(0);".repeat(n)),
            small: "^1\n$",
        },
        Nesting {
            name: "else-if",
            build: |n| format!("{}x=1; x", "if(0)0;else ".repeat(n)),
            small: "^1\n$",
        },
        Nesting {
            name: "await-chain",
            build: |n| format!("(async()=>{{ {}1 }})(); 'ok'", "await ".repeat(n)),
            small: "^ok\n$",
        },
        Nesting {
            name: "spread",
            build: |n| format!("{}[1]{}; 'ok'", "[...".repeat(n), "]".repeat(n)),
            small: "^ok\n$",
        },
        Nesting {
            name: "template-literal",
            build: |n| format!("`${{{}1{}}}`", "(".repeat(n), ")".repeat(n)),
            small: "^1\n$",
        },
        Nesting {
            name: "after-regex-with-quote",
            build: |n| format!("/'/; {}1{}", "(".repeat(n), ")".repeat(n)),
            small: "^1\n$",
        },
        Nesting {
            name: "in-string-escape",
            build: |n| format!("'\\''; {}1{}", "[".repeat(n), "]".repeat(n)),
            small: r"^\[",
        },
        Nesting {
            name: "eval-arrays",
            build: |n| format!("eval('['.repeat({n})+']'.repeat({n})).length"),
            small: "^1\n$",
        },
        Nesting {
            name: "eval-parens",
            build: |n| format!("eval('('.repeat({n})+'1'+')'.repeat({n}))"),
            small: "^1\n$",
        },
        Nesting {
            name: "eval-not",
            build: |n| format!("eval('!'.repeat({n})+'1')"),
            small: "^(true|false)\n$",
        },
        Nesting {
            name: "Function-arrays",
            build: |n| format!("Function('return '+'['.repeat({n})+']'.repeat({n}))().length"),
            small: "^1\n$",
        },
        Nesting {
            name: "Function-objects",
            build: |n| {
                format!(
                    "Function('return '+'{{a:'.repeat({n})+'1'+'}}'.repeat({n}))().a !== undefined"
                )
            },
            small: "^true\n$",
        },
        Nesting {
            name: "json-parse",
            build: |n| format!("JSON.parse('['.repeat({n})+']'.repeat({n})).length"),
            small: "^1\n$",
        },
        Nesting {
            name: "runtime-array-printed",
            build: |n| format!("let a=[]; for (let i=0;i<{n};i++) a=[a]; a"),
            small: r"\[",
        },
        Nesting {
            name: "runtime-object-printjson",
            build: |n| format!("let o={{}}; for (let i=0;i<{n};i++) o={{a:o}}; printjson(o)"),
            small: r"a",
        },
        Nesting {
            name: "runtime-object-stringify",
            build: |n| {
                format!("let o={{}}; for (let i=0;i<{n};i++) o={{a:o}}; JSON.stringify(o).length")
            },
            small: r"^\d+\n$",
        },
        Nesting {
            name: "runtime-object-tojson",
            build: |n| format!("let o={{}}; for (let i=0;i<{n};i++) o={{a:o}}; tojson(o).length"),
            small: r"^\d+\n$",
        },
        Nesting {
            name: "proto-chain",
            build: |n| format!("let o={{x:1}}; for (let i=0;i<{n};i++) o={{__proto__:o}}; o.x"),
            small: "^1\n$",
        },
        Nesting {
            name: "bound-functions",
            build: |n| {
                format!("let f=function(){{return 1}}; for (let i=0;i<{n};i++) f=f.bind(null); f()")
            },
            small: "^1\n$",
        },
        Nesting {
            name: "proxy-chain",
            build: |n| format!("let p={{x:1}}; for (let i=0;i<{n};i++) p=new Proxy(p,{{}}); p.x"),
            small: "^1\n$",
        },
        Nesting {
            name: "typed-brackets",
            build: |n| format!("{}1{}", "[".repeat(n), "]".repeat(n)),
            small: r"^\[",
        },
        Nesting {
            name: "typed-objects",
            build: |n| format!("({}1{}).a !== undefined", "{a:".repeat(n), "}".repeat(n)),
            small: "^true\n$",
        },
    ]
}

fn depth_rows() -> Vec<Row> {
    let mut rows = Vec::new();
    for c in nestings() {
        rows.push(result(
            format!("depth/{}/{SMALL}", c.name),
            (c.build)(SMALL),
            c.small,
        ));
        for &n in HOSTILE {
            // A depth error, or (for constructs an evaluator can take iteratively) the answer.
            rows.push(Row {
                name: format!("depth/{}/{n}", c.name),
                code: Some((c.build)(n)),
                raw_args: None,
                expect: Expect::Ends,
            });
        }
    }
    // Sums and parameter lists: long but flat.
    rows.push(ends(
        "depth/sum-50k-terms",
        format!("{}1", "1+".repeat(50_000)),
    ));
    rows.push(ends(
        "depth/30k-parameters",
        format!(
            "function f({}) {{ return 1 }} f()",
            (0..30_000)
                .map(|i| format!("a{i}"))
                .collect::<Vec<_>>()
                .join(",")
        ),
    ));
    rows.push(ends(
        "depth/30k-arguments",
        format!("Math.max({})", vec!["1"; 30_000].join(",")),
    ));
    rows.push(error(
        "recursion/plain",
        "function f(){ return f() } f()",
        DEPTH,
    ));
    rows.push(error(
        "recursion/mutual",
        "function f(){ return g() } function g(){ return f() } f()",
        DEPTH,
    ));
    rows.push(error(
        "recursion/getter",
        "let o={ get x(){ return this.x } }; o.x",
        DEPTH,
    ));
    rows.push(error(
        "recursion/toString",
        "let o={ toString(){ return ''+this } }; ''+o",
        DEPTH,
    ));
    rows.push(error(
        "recursion/valueOf",
        "let o={ valueOf(){ return +this } }; +o",
        DEPTH,
    ));
    rows.push(error(
        "recursion/proxy-get",
        "let p=new Proxy({}, { get(t,k,r){ return r[k] } }); p.x",
        DEPTH,
    ));
    rows.push(error(
        "recursion/toJSON",
        "let o={ toJSON(){ return JSON.stringify(this) } }; JSON.stringify(o)",
        DEPTH,
    ));
    rows.push(error(
        "recursion/async-await",
        "async function f(){ await f() } f()",
        DEPTH,
    ));
    rows.push(error(
        "recursion/sort-comparator",
        "function f(){ return [2,1].sort(() => f()) } f()",
        DEPTH,
    ));
    rows.push(error(
        "recursion/array-map",
        "function f(){ return [1].map(f) } f()",
        DEPTH,
    ));
    rows.push(error(
        "recursion/eval",
        "function f(){ return eval('f()') } f()",
        DEPTH,
    ));
    rows.push(error(
        "recursion/constructor",
        "class A { constructor(){ new A() } } new A()",
        DEPTH,
    ));
    rows.push(error(
        "recursion/where",
        "db.c.insertOne({a:1}); db.c.find({$where: function f(){ return f() }}).toArray()",
        DEPTH,
    ));
    rows.push(error(
        "recursion/forEach",
        "db.c.insertOne({a:1}); function f(){ db.c.find().forEach(f) } f()",
        DEPTH,
    ));
    rows
}

fn memory_rows() -> Vec<Row> {
    vec![
        error(
            "memory/string-doubling",
            "var s='x'; while (true) s = s + s",
            SIZE,
        ),
        error(
            "memory/string-doubling-template",
            "var s='x'; for (;;) s = `${s}${s}`",
            SIZE,
        ),
        error(
            "memory/string-doubling-concat",
            "var s='x'; for (;;) s = s.concat(s)",
            SIZE,
        ),
        error("memory/repeat-huge", "'x'.repeat(2**30)", SIZE),
        error("memory/repeat-max", "'x'.repeat(2**31)", SIZE),
        error("memory/padStart-huge", "'x'.padStart(2**30)", SIZE),
        ends("memory/join-16M", "Array(1<<24).fill('ab').join('').length"),
        error(
            "memory/join-fill-huge",
            "Array(1<<28).fill('abcdefgh').join('')",
            SIZE,
        ),
        error(
            "memory/array-fill-huge",
            "new Array(2**32-1).fill(0).length",
            SIZE,
        ),
        error(
            "memory/array-from-huge",
            "Array.from({length: 1e9}).length",
            SIZE,
        ),
        error(
            "memory/array-push-loop",
            "let a=[]; for (;;) a.push(a.length)",
            SIZE,
        ),
        error(
            "memory/array-concat-doubling",
            "let a=[1]; for (;;) a = a.concat(a)",
            SIZE,
        ),
        error(
            "memory/object-1e7-keys",
            "let o={}; for (let i=0;i<1e7;i++) o['k'+i]=i; Object.keys(o).length",
            SIZE,
        ),
        error(
            "memory/map-9e6",
            "let m=new Map(); for (let i=0;i<9e6;i++) m.set(i, i); m.size",
            SIZE,
        ),
        error(
            "memory/set-9e6",
            "let s=new Set(); for (let i=0;i<9e6;i++) s.add('k'+i); s.size",
            SIZE,
        ),
        ends(
            "memory/sparse-insert",
            "let a=[]; a[1e8]=1; db.c.insertOne({a})",
        ),
        ends("memory/sparse-print", "let a=[]; a[1e8]=1; a"),
        ends(
            "memory/sparse-json",
            "let a=[]; a[1e8]=1; JSON.stringify(a).length",
        ),
        ends(
            "memory/sparse-length-max",
            "let a=[]; a[2**32-2]=1; db.c.insertOne({a})",
        ),
        ends(
            "memory/sparse-find",
            "let a=[]; a[1e8]=1; db.c.find({x: {$in: a}}).toArray()",
        ),
        error(
            "memory/proxy-5M-keys",
            "let keys=Array.from({length:5e6},(_, i)=>'k'+i); let p=new Proxy({}, {ownKeys:()=>keys, getOwnPropertyDescriptor:()=>({value:1,enumerable:true,configurable:true})}); db.c.insertOne(p)",
            SIZE,
        ),
        error(
            "memory/typed-array-huge",
            "new Uint8Array(2**33).length",
            SIZE,
        ),
        error(
            "memory/arraybuffer-huge",
            "new ArrayBuffer(2**40).byteLength",
            SIZE,
        ),
        error(
            "memory/bigint-huge",
            "(2n ** 100000000n).toString().length",
            SIZE,
        ),
        ends("memory/split-1e6", "'x'.repeat(1e6).split('').length"),
        error(
            "memory/insert-17MB-string",
            "db.c.insertOne({s: 'x'.repeat(17*1024*1024)})",
            SIZE,
        ),
        ends(
            "memory/insertMany-1e5",
            "db.c.insertMany(Array.from({length: 1e5}, (_, i) => ({i}))).insertedIds.length",
        ),
        error(
            "memory/stringify-huge",
            "JSON.stringify(Array(1<<26).fill('abcdefgh')).length",
            SIZE,
        ),
        error(
            "memory/sort-array-huge",
            "Array.from({length: 1e8}, (_, i) => -i).sort()",
            SIZE,
        ),
    ]
}

fn time_rows() -> Vec<Row> {
    let mut rows = vec![
        error("time/while-true", "while (true) {}", TIME),
        error("time/for-ever", "for (;;) {}", TIME),
        error("time/do-while", "do {} while (1)", TIME),
        error(
            "time/recursive-loops",
            "function f(){ for(;;){} } f()",
            TIME,
        ),
        error(
            "time/for-in-growing",
            "let o={a:1}; let i=0; for (;;) { o['k'+(i++)]=1 }",
            TIME,
        ),
        error(
            "time/promise-flood",
            "function f(){ Promise.resolve().then(f) } f()",
            TIME,
        ),
        error(
            "time/promise-flood-2",
            "function f(){ Promise.resolve().then(f); Promise.resolve().then(f) } f()",
            TIME,
        ),
        error(
            "time/microtask-loop",
            "async function f(){ for(;;) await null } f(); 'started'",
            TIME,
        ),
        error(
            "time/where-loop",
            "db.c.insertOne({a:1}); db.c.find({$where: 'while(true){}'}).toArray()",
            TIME,
        ),
        ends(
            "time/generator-infinite-spread",
            "function* g(){ for(;;) yield 1 } [...g()].length",
        ),
        ends(
            "time/array-from-infinite-iterator",
            "Array.from({[Symbol.iterator]: function*(){ for(;;) yield 1 }}).length",
        ),
    ];
    let patterns: &[(&str, &str)] = &[
        ("a-plus-plus", "/(a+)+$/"),
        ("a-or-a", "/(a|a)+$/"),
        ("a-star-star", "/(a*)*$/"),
        ("a-or-aa", "/(a|aa)+$/"),
        ("a-question", "/(a?){40}a{40}/"),
        ("word-space", r"/^(\w+\s?)*$/"),
        ("nested-groups", "/((a+)+)+$/"),
        ("backreference", r"/^(a+)+\1$/"),
    ];
    for (name, re) in patterns {
        rows.push(result(
            format!("regex/{name}/10"),
            format!("{re}.test('a'.repeat(10)+'b')"),
            "^(true|false)\n$",
        ));
        // A linear-time engine answers; a backtracking one must stop at its step limit.
        rows.push(Row {
            name: format!("regex/{name}/40"),
            code: Some(format!("{re}.test('a'.repeat(40)+'b')")),
            raw_args: None,
            expect: Expect::Ends,
        });
    }
    rows.push(ends("regex/where-backtracking", "db.c.insertOne({s: 'a'.repeat(40)+'b'}); db.c.find({$where: \"/(a+)+$/.test(this.s)\"}).toArray()"));
    rows.push(ends(
        "regex/replace-backtracking",
        "('a'.repeat(40)+'b').replace(/(a+)+$/, 'x')",
    ));
    rows.push(ends(
        "regex/split-backtracking",
        "('a'.repeat(40)+'b').split(/(a+)+$/).length",
    ));
    rows.push(ends(
        "regex/matchAll-backtracking",
        "[...('a'.repeat(40)+'b').matchAll(/(a+)+$/g)].length",
    ));
    rows.push(ends(
        "regex/search-backtracking",
        "('a'.repeat(40)+'b').search(/(a+)+$/)",
    ));
    rows.push(ends(
        "regex/RegExp-constructor",
        "new RegExp('(a+)+$').test('a'.repeat(40)+'b')",
    ));
    rows.push(result(
        "regex/engine-regex-linear",
        "db.c.insertOne({s: 'a'.repeat(40)+'b'}); db.c.countDocuments({s: /(a+)+$/})",
        "^0\n$",
    ));
    rows
}

fn sandbox_rows() -> Vec<Row> {
    vec![
        error(
            "sandbox/import-mjs",
            "import('./x.mjs')",
            r"(?i)(import|module|not (allowed|supported)|cannot)",
        ),
        error(
            "sandbox/import-json",
            "import('./data.json', {with: {type: 'json'}})",
            r"(?i)(import|module|not (allowed|supported)|cannot)",
        ),
        error(
            "sandbox/import-absolute",
            "import('/etc/passwd')",
            r"(?i)(import|module|not (allowed|supported)|cannot)",
        ),
        ends(
            "sandbox/import-awaited",
            "(async () => { try { await import('./x.mjs'); return 'loaded' } catch (e) { return 'refused' } })()",
        ),
        result(
            "sandbox/import-caught",
            "let r='none'; import('./x.mjs').then(() => r='loaded', () => r='refused'); r",
            "^(none|refused)\n$",
        ),
        error(
            "sandbox/eval-import",
            "eval(\"import('./x.mjs')\")",
            r"(?i)(import|module|not (allowed|supported)|cannot)",
        ),
        error(
            "sandbox/static-import",
            "import x from './x.mjs'",
            r"(?i)(syntax|import|module)",
        ),
        error(
            "sandbox/loadScript-passwd",
            "__sproutNative.loadScript('/etc/passwd')",
            r"(?i)(not|refused|denied|undefined|cannot|unknown)",
        ),
        error(
            "sandbox/loadScript-relative",
            "__sproutNative.loadScript('./x.mjs')",
            r"(?i)(not|refused|denied|undefined|cannot|unknown)",
        ),
        error(
            "sandbox/require-fs",
            "require('fs').readFileSync('/etc/passwd')",
            r"(?i)(not|cannot|unknown|undefined|require)",
        ),
        error("sandbox/process", "process.exit(3)", r"(?i)process"),
        error("sandbox/fetch", "fetch('http://127.0.0.1/')", r"(?i)fetch"),
        error(
            "sandbox/function-constructor-process",
            "Function('return process')().env",
            r"(?i)process",
        ),
        result(
            "sandbox/globalThis-no-process",
            "typeof globalThis.process + ' ' + typeof globalThis.require + ' ' + typeof globalThis.Deno",
            "^undefined (function|undefined) undefined\n$",
        ),
        result(
            "sandbox/no-timers",
            "typeof setTimeout + ' ' + typeof setInterval",
            "^undefined undefined\n$",
        ),
    ]
}

fn text_rows() -> Vec<Row> {
    let mut rows = vec![
        ends(
            "surrogate/lone-high-stored",
            "db.c.insertOne({_id: 1, s: '\\uD800'}); db.c.findOne({_id: 1}).s.length",
        ),
        ends(
            "surrogate/lone-low-stored",
            "db.c.insertOne({_id: 1, s: 'a\\uDC00b'}); db.c.findOne({_id: 1}).s",
        ),
        ends(
            "surrogate/lone-key",
            "db.c.insertOne({_id: 1, ['\\uD800']: 1}); Object.keys(db.c.findOne({_id: 1}))",
        ),
        ends("surrogate/in-filter", "db.c.find({s: '\\uD800'}).toArray()"),
        result(
            "surrogate/pair-kept",
            "db.c.insertOne({_id: 1, s: '\\uD83D\\uDE00'}); db.c.findOne({_id: 1}).s.length",
            "^2\n$",
        ),
        error(
            "nul/key-insert",
            "db.c.insertOne({'a\\0b': 1})",
            r"(?i)(null|nul|\\0|invalid)",
        ),
        error(
            "nul/key-nested",
            "db.c.insertOne({x: {'\\0': 1}})",
            r"(?i)(null|nul|\\0|invalid)",
        ),
        error(
            "nul/collection-name",
            "db.getCollection('a\\0b').insertOne({})",
            r"(?i)(null|nul|\\0|invalid)",
        ),
        error(
            "nul/database-name",
            "db.getSiblingDB('a\\0b').c.insertOne({})",
            r"(?i)(null|nul|\\0|invalid)",
        ),
        ends(
            "nul/value-string",
            "db.c.insertOne({_id: 1, s: 'a\\0b'}); db.c.findOne({_id: 1}).s.length",
        ),
        ends("nul/regex-pattern", "db.c.find({s: /a\\0b/}).toArray()"),
        ends(
            "nul/field-path-update",
            "db.c.insertOne({_id: 1}); db.c.updateOne({_id: 1}, {$set: {'a\\0': 1}})",
        ),
        ends(
            "clock/advance-1e300",
            "sprout.advanceClock(1e300); new Date()",
        ),
        ends(
            "clock/advance-minus-1e300",
            "sprout.advanceClock(-1e300); new Date()",
        ),
        ends("clock/advance-nan", "sprout.advanceClock(NaN); new Date()"),
        ends(
            "clock/advance-infinity",
            "sprout.advanceClock(Infinity); new Date()",
        ),
        ends(
            "clock/advance-string",
            "sprout.advanceClock('x'); new Date()",
        ),
        ends(
            "clock/advance-then-insert",
            "sprout.advanceClock(1e300); db.c.insertOne({t: new Date()}); db.c.findOne()",
        ),
        ends(
            "clock/advance-then-objectid",
            "sprout.advanceClock(8e15); ObjectId()",
        ),
        ends("clock/date-max", "new Date(8.64e15 + 1).getTime()"),
    ];
    rows.push(Row {
        name: "args/eval-not-utf8".into(),
        code: None,
        raw_args: Some(vec![
            OsString::from("--eval"),
            OsString::from_vec(vec![0xff]),
        ]),
        expect: Expect::Error(r"(?i)(utf-?8|invalid|syntax)"),
    });
    rows.push(Row {
        name: "args/eval-not-utf8-inside".into(),
        code: None,
        raw_args: Some(vec![
            OsString::from("--eval"),
            OsString::from_vec(b"'a\xffb'".to_vec()),
        ]),
        // mongosh (Node.js) decodes arguments lossily: the byte becomes U+FFFD.
        expect: Expect::Result("^a\u{FFFD}b\n$"),
    });
    rows.push(Row {
        name: "args/file-name-not-utf8".into(),
        code: None,
        raw_args: Some(vec![OsString::from_vec(b"missing-\xff.js".to_vec())]),
        expect: Expect::Error(r"(?i)(cannot|no such|not found|utf)"),
    });
    rows.push(Row {
        name: "args/dataset-not-utf8".into(),
        code: None,
        raw_args: Some(vec![
            OsString::from("--dataset"),
            OsString::from_vec(vec![0xfe, 0xff]),
        ]),
        expect: Expect::Error(r"(?i)(dataset|utf|invalid)"),
    });
    rows.push(Row {
        name: "args/option-not-utf8".into(),
        code: None,
        raw_args: Some(vec![OsString::from_vec(b"--\xff".to_vec())]),
        expect: Expect::Error(r"(?i)(unknown|option|utf|invalid)"),
    });
    rows
}

/// Every row of this module.
pub fn rows() -> Vec<Row> {
    let mut rows = depth_rows();
    rows.extend(memory_rows());
    rows.extend(time_rows());
    rows.extend(sandbox_rows());
    rows.extend(text_rows());
    rows
}
