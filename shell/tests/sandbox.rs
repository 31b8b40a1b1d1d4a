//! Escape attempts against the shell's sandbox. Each runs in a fresh session on its own thread
//! with a deadline: it must end in an error or a harmless result, never panic or hang, and the
//! session must still work afterwards (an insert and a count).

mod common;

use std::sync::mpsc;
use std::time::Duration;

use shell::Style;

/// What an attempt must end in.
#[derive(Clone, Copy, Debug)]
enum Expect {
    /// An error whose `name: message` text contains this.
    Error(&'static str),
    /// A result (no error) whose text is exactly this.
    Shows(&'static str),
}
use Expect::{Error, Shows};

const ATTEMPTS: &[(&str, &[&str], Expect)] = &[
    (
        "window",
        &["window.location"],
        Error("ReferenceError: window is not defined"),
    ),
    (
        "document",
        &["document.cookie"],
        Error("ReferenceError: document is not defined"),
    ),
    (
        "fetch",
        &["fetch('https://example.com')"],
        Error("ReferenceError: fetch is not defined"),
    ),
    (
        "XMLHttpRequest",
        &["new XMLHttpRequest()"],
        Error("ReferenceError: XMLHttpRequest is not defined"),
    ),
    (
        "WebSocket",
        &["new WebSocket('ws://x')"],
        Error("ReferenceError: WebSocket is not defined"),
    ),
    (
        "dynamic import",
        &[
            "var p = import('fs'); var r = 'pending'; p.then(function () { r = 'loaded' }, function (e) { r = 'refused' })",
            "r",
        ],
        Shows("refused"),
    ),
    (
        "require child_process",
        &["require('child_process')"],
        Error("Cannot find module 'child_process'"),
    ),
    (
        "require node:fs then read",
        &["require('node:fs').readFileSync('/etc/passwd')"],
        Error("Sprout has no file system"),
    ),
    (
        "process",
        &["process.exit(1)"],
        Error("ReferenceError: process is not defined"),
    ),
    (
        "globalThis hunting",
        &[
            "Object.getOwnPropertyNames(globalThis).filter(function (k) { return /^(process|fetch|window|document|Deno|Bun|XMLHttpRequest|setTimeout|WebAssembly|SharedArrayBuffer)$/.test(k) }).length",
        ],
        Shows("0"),
    ),
    (
        "Function constructor reaching host",
        &["Function('return typeof process + typeof window + typeof fetch')()"],
        Shows("undefinedundefinedundefined"),
    ),
    (
        "constructor chain to global",
        &["({}).constructor.constructor('return this')() === globalThis"],
        Shows("true"),
    ),
    (
        "eval of host names",
        &["eval('typeof require(\"fs\").readFileSync')"],
        Shows("function"),
    ),
    (
        "setTimeout",
        &["setTimeout(function () {}, 0)"],
        Error("ReferenceError: setTimeout is not defined"),
    ),
    (
        "setInterval",
        &["setInterval(function () {}, 1)"],
        Error("ReferenceError: setInterval is not defined"),
    ),
    (
        "WebAssembly",
        &["WebAssembly.compile(new Uint8Array(8))"],
        Error("ReferenceError: WebAssembly is not defined"),
    ),
    (
        "SharedArrayBuffer",
        &["new SharedArrayBuffer(8)"],
        Error("ReferenceError: SharedArrayBuffer is not defined"),
    ),
    (
        "Atomics.wait",
        &["Atomics.wait(new Int32Array(4), 0, 0)"],
        Error("ReferenceError: Atomics is not defined"),
    ),
    (
        "replace a bridge function",
        &[
            "__sproutNative.runCommand = function () { return {ok: 1} }",
            "__sproutNative.runCommand === undefined",
        ],
        Shows("false"),
    ),
    (
        "overwrite the bridge",
        &["__sproutNative = null; __sproutShell = null; __sproutBson = null"],
        Shows("null"),
    ),
    (
        "delete the bridge",
        &["delete globalThis.__sproutNative"],
        Shows("false"),
    ),
    (
        "redefine the display hook",
        &["__sproutShell.display = function () { throw 1 }", "1 + 1"],
        Shows("2"),
    ),
    (
        "prototype pollution of BSON markers",
        &[
            "Object.prototype._bsontype = 'MinKey'",
            "db.c.insertOne({_id: 1, a: 1}); delete Object.prototype._bsontype; db.c.findOne({_id: 1}).a",
        ],
        Shows("1"),
    ),
    (
        "prototype pollution of replies",
        &[
            "Object.prototype.ok = 0; Object.prototype.writeErrors = [{code: 1, errmsg: 'x'}]",
            "db.c.insertOne({_id: 1}).insertedId",
        ],
        Shows("1"),
    ),
    (
        "deep recursion",
        &["function f() { return f() } f()"],
        Error("RangeError"),
    ),
    (
        "mutual recursion",
        &["function a() { return b() } function b() { return a() } a()"],
        Error("RangeError"),
    ),
    ("infinite loop", &["while (true) {}"], Error("RangeError")),
    (
        "infinite for loop in a function",
        &["(function () { for (;;) {} })()"],
        Error("RangeError"),
    ),
    (
        "huge string by repeat",
        &["'x'.repeat(1e9)"],
        Error("RangeError: Invalid string length"),
    ),
    (
        "huge string by padStart",
        &["''.padStart(2e9, 'x')"],
        Error("RangeError: Invalid string length"),
    ),
    (
        "huge string by doubling with +",
        &["var s = 'x'; for (var i = 0; i < 40; i++) s = s + s; s.length"],
        Error("RangeError: Invalid string length"),
    ),
    (
        // Concatenations are ropes (vendor/boa_string/src/vtable/rope.rs): 500,000 steps and a
        // chain as deep, read once and dropped without recursion.
        "a string grown 500,000 times by +=",
        &[
            "var s = ''; for (var i = 0; i < 500000; i++) s += String.fromCharCode(97 + i % 26); [s.length, s.slice(0, 3), s.slice(-2), s.indexOf('zab'), s.charCodeAt(499999)].join(' ')",
        ],
        Shows("500000 abc st 25 116"),
    ),
    (
        "a rope of ropes, read in parts and compared",
        &[
            "var a = 'a'.repeat(300), b = a + 'é' + a; var c = b + b; [c.length, c === b.concat(b), c.lastIndexOf('é'), ('' + c).substr(-302, 2), c.split('é').length].join(' ')",
        ],
        Shows("1202 true 901 aé 3"),
    ),
    (
        // Sent as commands of at most maxWriteBatchSize (100,000) documents, as drivers do.
        "insertMany of more documents than one write command may carry",
        &[
            "var d = []; for (var i = 0; i < 100001; i++) d.push({_id: i}); var r = db.big.insertMany(d); d[100000] = {_id: 3}; var e = null; try { db.big2.insertMany(d) } catch (x) { e = x } [Object.keys(r.insertedIds).length, db.big.countDocuments({}), e.writeErrors[0].index, db.big2.countDocuments({})].join(' ')",
        ],
        Shows("100001 100001 100000 100000"),
    ),
    (
        "a bulk of more operations than one write command may carry",
        &[
            "var b = db.bulkbig.initializeUnorderedBulkOp(); for (var i = 0; i < 100001; i++) b.insert({_id: i}); b.execute().nInserted",
        ],
        Shows("100001"),
    ),
    (
        "huge array by fill",
        &["new Array(1e9).fill(0)"],
        Error("RangeError: Invalid array length"),
    ),
    (
        "huge array by Array.from",
        &["Array.from({length: 1e9})"],
        Error("RangeError: Invalid array length"),
    ),
    (
        "huge sparse array join",
        &["var a = []; a[4e9] = 1; a.join(',')"],
        Error("RangeError"),
    ),
    (
        "deep Array.prototype.flat",
        &["var a = []; for (var i = 0; i < 100000; i++) a = [a]; a.flat(Infinity).length"],
        Error("RangeError: Maximum call stack size exceeded"),
    ),
    (
        "chain of proxies",
        &["var p = {}; for (var i = 0; i < 100000; i++) p = new Proxy(p, {}); p.x"],
        Error("RangeError: Maximum call stack size exceeded"),
    ),
    (
        "chain of prototypes",
        &["var o = {}; for (var i = 0; i < 100000; i++) o = Object.create(o); o.x"],
        Error("RangeError: Maximum call stack size exceeded"),
    ),
    (
        "chain of bound functions",
        &[
            "var f = function () { return 1 }; for (var i = 0; i < 100000; i++) f = f.bind(null); f()",
        ],
        Error("RangeError: Maximum call stack size exceeded"),
    ),
    (
        "deeply nested literal",
        &[DEEP],
        Error("RangeError: Maximum call stack size exceeded: the code is nested more than"),
    ),
    (
        "deep JSON.parse",
        &["JSON.parse('['.repeat(100000) + ']'.repeat(100000))"],
        Error("SyntaxError: recursion limit exceeded"),
    ),
    (
        "deep object built in a loop",
        &["var o = {}; for (var i = 0; i < 100000; i++) o = {a: o}; db.c.insertOne(o)"],
        Error("nested more than"),
    ),
    (
        "deep JSON.stringify",
        &["var o = {}; for (var i = 0; i < 100000; i++) o = {a: o}; JSON.stringify(o).length"],
        Error("RangeError: Maximum call stack size exceeded"),
    ),
    (
        "getter looping during conversion",
        &["db.c.insertOne({get a() { while (true) {} }})"],
        Error("RangeError"),
    ),
    (
        "getter throwing during conversion",
        &["db.c.insertOne({get a() { throw new Error('gotcha') }})"],
        Error("Error: gotcha"),
    ),
    (
        "cyclic object passed to insert",
        &["var o = {a: 1}; o.self = o; db.c.insertOne(o)"],
        Error("refers to itself"),
    ),
    (
        "cyclic array printed",
        &["var a = [1]; a.push(a); a"],
        Error("refers to itself"),
    ),
    (
        "Proxy that throws on keys",
        &["db.c.insertOne(new Proxy({}, {ownKeys: function () { throw new Error('no keys') }}))"],
        Error("no keys"),
    ),
    (
        "toString bomb in tojson",
        &["tojson({toString: function () { while (true) {} }})"],
        Shows("{ }"),
    ),
    (
        "print flood",
        &["var s = 'x'.repeat(1e6); for (var i = 0; i < 20; i++) print(s); 'done'"],
        Shows("done"),
    ),
    (
        "BigInt too large",
        &["db.c.insertOne({n: 10n ** 100n})"],
        Error("out of range"),
    ),
    (
        "invalid Date stored",
        &["db.c.insertOne({d: new Date(NaN)})"],
        Error("Invalid Date"),
    ),
    (
        "Symbol stored",
        &["db.c.insertOne({s: Symbol('x')})"],
        Error("Symbol"),
    ),
    (
        "thrown non-Error value",
        &["throw {name: 42}"],
        Error("Uncaught"),
    ),
    (
        "Object.keys replaced",
        &[
            "Object.keys = function () { return ['evil'] }",
            "db.c.insertOne({_id: 1, a: 1}); db.c.findOne({_id: 1}).a",
        ],
        Shows("1"),
    ),
];

const DEEP: &str = include_str!("data/deep_literal.js");

fn run(inputs: &'static [&'static str]) -> (Vec<shell::Evaluation>, shell::Evaluation) {
    let mut sh = common::shell(Style::Mongosh);
    let evs = common::run_all(&mut sh, inputs);
    let after = sh.eval("db.after.insertOne({_id: 1}); db.after.countDocuments()");
    (evs, after)
}

#[test]
fn escapes_end_in_errors_or_harmless_results() {
    assert!(ATTEMPTS.len() >= 20);
    eprintln!("{} attempts", ATTEMPTS.len());
    let mut failures = Vec::new();
    for (name, inputs, expect) in ATTEMPTS {
        eprintln!("attempt: {name}");
        let (tx, rx) = mpsc::channel();
        let handle = std::thread::Builder::new()
            .stack_size(8 * 1024 * 1024)
            .spawn(move || {
                let _ = tx.send(run(inputs));
            })
            .expect("spawn");
        let Ok((evs, after)) = rx.recv_timeout(Duration::from_secs(60)) else {
            failures.push(format!("{name}: panicked or did not finish within 60 s"));
            continue;
        };
        let _ = handle.join();
        let last = evs.last().cloned().unwrap_or_default();
        let ok = match expect {
            Error(text) => last
                .error
                .as_ref()
                .is_some_and(|e| e.to_string().contains(text)),
            Shows(text) => last.error.is_none() && last.result.as_deref().unwrap_or("") == *text,
        };
        if !ok {
            failures.push(format!(
                "{name}: expected {expect:?}, got {:?}",
                last.text()
            ));
        }
        if after.text() != "1" {
            failures.push(format!(
                "{name}: the session broke afterwards: {:?}",
                after.text()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
