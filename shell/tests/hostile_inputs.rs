//! Hostile inputs from issue #18 (stack overflows, hangs, memory floods, sandbox escapes and
//! data-changing conversions), each with the outcome the shell must give: a result or a
//! specific error, by itself, and a working shell afterwards (`1 + 1` still answers 2).
//!
//! Each input runs in a fresh session on a thread with a 2 MiB stack (Rust's default for
//! spawned threads, smaller than the CLI's main thread): the nesting guards must hold there.
//! A few run through the `sprout` binary as well (`cli_*` tests).

mod common;

use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use shell::{Evaluation, Style};

/// What an input must end in.
#[derive(Clone, Debug)]
enum Expect {
    /// An error named `name` whose message contains the text.
    Error(&'static str, &'static str),
    /// No error, and the result shown is exactly this.
    Shows(&'static str),
}
use Expect::{Error, Shows};

struct Case {
    class: &'static str,
    /// Inputs run in order in one session; the last one's outcome is checked.
    inputs: Vec<String>,
    expect: Expect,
}

fn case(class: &'static str, input: String, expect: Expect) -> Case {
    Case {
        class,
        inputs: vec![input],
        expect,
    }
}

fn steps(class: &'static str, inputs: &[&str], expect: Expect) -> Case {
    Case {
        class,
        inputs: inputs.iter().map(|s| s.to_string()).collect(),
        expect,
    }
}

const NESTED: Expect = Error("RangeError", "Maximum call stack size exceeded");

fn nested_labels(n: usize) -> String {
    (0..n).map(|i| format!("l{i}:")).collect::<String>() + "1"
}

fn params(n: usize) -> String {
    (0..n)
        .map(|i| format!("p{i}"))
        .collect::<Vec<_>>()
        .join(",")
}

fn deep(open: &str, n: usize, inner: &str, close: &str) -> String {
    format!("{}{inner}{}", open.repeat(n), close.repeat(n))
}

fn cases() -> Vec<Case> {
    vec![
        // ---- nesting without brackets: recursion inside Boa's parser ---------------------
        case("unary !", "!".repeat(3000) + "1", NESTED),
        case("typeof chain", "typeof ".repeat(3000) + "1", NESTED),
        case("void chain", "void ".repeat(3000) + "1", NESTED),
        case("new chain", "new ".repeat(3000) + "Object", NESTED),
        case("unary minus", "- ".repeat(3000) + "1", NESTED),
        case(
            "await-free delete chain",
            "delete ".repeat(3000) + "x",
            NESTED,
        ),
        case("arrows", "a=>".repeat(3000) + "1", NESTED),
        case("assignment chain", "x=".repeat(3000) + "1", NESTED),
        case(
            "conditional chain",
            "1?".repeat(3000) + "1" + &":1".repeat(3000),
            NESTED,
        ),
        case("right-assoc **", "2**".repeat(3000) + "2", NESTED),
        case("if chain", "if(1)".repeat(3000) + "1", NESTED),
        case("labels", nested_labels(3000), NESTED),
        case(
            "do chain",
            "do ".repeat(3000) + "1;" + &"while(0);".repeat(3000),
            NESTED,
        ),
        case("else-if chain", "if(0){}else ".repeat(3000) + "{}", NESTED),
        case(
            "else-if chain over lines",
            "if (0) {\n} else ".repeat(3000) + "{}",
            NESTED,
        ),
        // ---- long chains Boa parses with loops but walks recursively ----------------------
        case(
            "50k-term sum",
            "1".to_string() + &"+1".repeat(50_000),
            NESTED,
        ),
        case(
            "50k-term sum over lines",
            "1".to_string() + &"\n+1".repeat(50_000),
            NESTED,
        ),
        case(
            "sum then a syntax error",
            "1".to_string() + &"+1".repeat(50_000) + "+;",
            NESTED,
        ),
        case(
            "member chain",
            "a".to_string() + &".b".repeat(50_000),
            NESTED,
        ),
        case("call chain", "f".to_string() + &"()".repeat(50_000), NESTED),
        case(
            "comma chain",
            format!("({})", vec!["1"; 50_000].join(",")),
            NESTED,
        ),
        case("|| chain", "0".to_string() + &"||0".repeat(50_000), NESTED),
        case(
            "30k-parameter function",
            format!("function f({}) {{ return 1 }}; f()", params(30_000)),
            Shows("1"),
        ),
        // ---- brackets the old text scan could not see -------------------------------------
        case(
            "brackets in a template substitution",
            format!("`${{{}}}`", deep("(", 5000, "1", ")")),
            NESTED,
        ),
        case(
            "brackets after a regex with a quote",
            format!("/\"/; {}", deep("(", 5000, "1", ")")),
            NESTED,
        ),
        case("deep arrays", deep("[", 10_000, "", "]"), NESTED),
        case("deep objects", deep("{a:", 10_000, "1", "}"), NESTED),
        case("deep blocks", deep("{", 10_000, "", "}"), NESTED),
        case(
            "deep functions",
            deep("(function(){return ", 3000, "1", "})()"),
            NESTED,
        ),
        // ---- code built at run time ---------------------------------------------------------
        case(
            "eval of deep brackets",
            "eval('['.repeat(10000) + ']'.repeat(10000))".into(),
            NESTED,
        ),
        case(
            "eval of a long chain",
            "eval('1' + '+1'.repeat(50000))".into(),
            NESTED,
        ),
        case(
            "Function of deep brackets",
            "Function('return ' + '['.repeat(10000) + ']'.repeat(10000))".into(),
            NESTED,
        ),
        case(
            "new Function with deep parameters",
            "new Function('a = ' + '['.repeat(10000) + ']'.repeat(10000), 'return a')".into(),
            NESTED,
        ),
        case(
            "nested eval is catchable",
            "try { eval('!'.repeat(3000) + '1') } catch (e) { e instanceof RangeError }".into(),
            Shows("true"),
        ),
        case(
            "eval recursion",
            "function f(n) { return eval('f(n + 1)') }; f(0)".into(),
            Error("RangeError", ""),
        ),
        // ---- ordinary code is untouched ----------------------------------------------------
        case(
            "100 nested arrays",
            deep("[", 100, "1", "]") + ".length",
            Shows("1"),
        ),
        case(
            "300-term concatenation",
            "('a'".to_string() + &" + 'a'".repeat(299) + ").length",
            Shows("300"),
        ),
        case(
            "5000-line script",
            "var n = 0\n".to_string() + &"n = n + 1\n".repeat(5000) + "n",
            Shows("5000"),
        ),
        case(
            "100-deep document",
            format!("({}) !== null", deep("{a:", 100, "1", "}")),
            Shows("true"),
        ),
        // ---- promise floods ---------------------------------------------------------------
        case(
            "endless promise chain",
            "function f() { Promise.resolve().then(f) }; f()".into(),
            Error("RangeError", "promise jobs"),
        ),
        case(
            "async recursion",
            "async function f() { await f() }; f()".into(),
            Error("RangeError", ""),
        ),
        case(
            "promise fan-out",
            "for (var i = 0; i < 200000; i++) Promise.resolve(i).then(function () {})".into(),
            Error("RangeError", "promise jobs"),
        ),
        // ---- regular expressions ----------------------------------------------------------
        case(
            "catastrophic regex test",
            "/(a+)+$/.test('a'.repeat(40) + 'b')".into(),
            Error("RangeError", "backtracking"),
        ),
        case(
            "catastrophic regex replace",
            "('a'.repeat(40) + 'b').replace(/(a|aa)+$/, 'x')".into(),
            Error("RangeError", "backtracking"),
        ),
        case(
            "catastrophic regex match",
            "('a'.repeat(40) + '!').match(/^(\\w+\\s?)*$/)".into(),
            Error("RangeError", "backtracking"),
        ),
        case(
            "ordinary regex",
            "/(a+)+$/.test('a'.repeat(40))".into(),
            Shows("true"),
        ),
        steps(
            "catastrophic regex in $where",
            &[
                "db.w.insertOne({s: 'a'.repeat(40) + 'b'})",
                "db.w.find({$where: function () { return /(a+)+$/.test(this.s) }}).toArray()",
            ],
            Error("MongoServerError[JSInterpreterFailure]", "backtracking"),
        ),
        // ---- sandbox -----------------------------------------------------------------------
        steps(
            "import of a module file",
            &[
                "var r = 'pending'; import('./x.mjs').then(function () { r = 'loaded' }, function (e) { r = 'refused' })",
                "r",
            ],
            Shows("refused"),
        ),
        steps(
            "import of a json file",
            &[
                "var r = 'pending'; import('./Cargo.toml', {with: {type: 'json'}}).then(function () { r = 'loaded' }, function (e) { r = 'refused' })",
                "r",
            ],
            Shows("refused"),
        ),
        case(
            "loadScript hands back no text",
            "typeof __sproutNative.loadScript('Cargo.toml')".into(),
            Shows("boolean"),
        ),
        case(
            "load of a file is refused without permission",
            "load('Cargo.toml')".into(),
            Error("Error", "doesn't exist"),
        ),
        // ---- conversions and clock ----------------------------------------------------------
        steps(
            "lone surrogate stored as U+FFFD",
            &[
                "db.s.insertOne({_id: 1, s: 'a\\uD800b'})",
                "db.s.findOne().s === 'a\\uFFFDb'",
            ],
            Shows("true"),
        ),
        case(
            "NUL in a key",
            "db.n.insertOne({'a\\u0000b': 1})".into(),
            Error("TypeError", "must not contain null bytes"),
        ),
        case(
            "sparse array",
            "var a = []; a[1e8] = 1; db.sp.insertOne({a: a})".into(),
            Error("RangeError", "maxMessageSizeBytes"),
        ),
        case(
            "sparse array nested",
            "var a = []; a[4e9] = 1; db.sp.insertOne({x: {y: a}})".into(),
            Error("RangeError", "maxMessageSizeBytes"),
        ),
        case(
            "clock past the last date",
            "sprout.advanceClock(1e300)".into(),
            Error("RangeError", "advance it by at most"),
        ),
        steps(
            "dates still work after a refused clock move",
            &[
                "try { sprout.advanceClock(1e300) } catch (e) {}",
                "isNaN(new Date().getTime())",
            ],
            Shows("false"),
        ),
        case(
            "huge ArrayBuffer",
            "new ArrayBuffer(1e9)".into(),
            Error("RangeError", ""),
        ),
        case(
            "huge array fill",
            "Array(1 << 24).fill('x').join('')".into(),
            Error("RangeError", "Invalid array length"),
        ),
        case(
            "Map flood",
            "var m = new Map(); for (var i = 0; i < 9e6; i++) m.set(i, i)".into(),
            Error("RangeError", "Map maximum size exceeded"),
        ),
        case(
            "Set flood",
            "var s = new Set(); for (var i = 0; i < 9e6; i++) s.add(i)".into(),
            Error("RangeError", "Set maximum size exceeded"),
        ),
    ]
}

/// Runs one case in a fresh session on a 2 MiB thread; returns the last outcome and `1 + 1`.
fn run(case: &Case) -> Option<(Evaluation, Evaluation)> {
    let inputs = case.inputs.clone();
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let mut sh = common::shell(Style::Mongosh);
            let mut last = Evaluation::default();
            for input in &inputs {
                last = sh.eval(input);
            }
            let after = sh.eval("1 + 1");
            let _ = tx.send((last, after));
        })
        .ok()?;
    rx.recv_timeout(Duration::from_secs(120)).ok()
}

#[test]
fn hostile_inputs_end_in_their_expected_outcome() {
    let mut failures = Vec::new();
    let all = cases();
    for case in &all {
        let Some((ev, after)) = run(case) else {
            failures.push(format!("{}: did not end (or the thread died)", case.class));
            continue;
        };
        let ok = match (&case.expect, &ev.error) {
            (Error(name, text), Some(e)) => e.name == *name && e.message.contains(text),
            (Shows(shown), None) => ev.result.as_deref() == Some(*shown),
            _ => false,
        };
        if !ok {
            failures.push(format!(
                "{}: expected {:?}, got result {:?} error {:?}",
                case.class, case.expect, ev.result, ev.error
            ));
        }
        if after.result.as_deref() != Some("2") {
            failures.push(format!(
                "{}: the next command failed: {after:?}",
                case.class
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} hostile inputs failed:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
}

/// Runs the `sprout` binary with a time limit; returns (exit code, stdout, stderr).
fn sprout(args: &[&str]) -> (Option<i32>, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sprout"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sprout starts");
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        if let Ok(Some(_)) = child.try_wait() {
            break;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("sprout output");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn cli_refuses_deep_code_and_goes_on() {
    let bangs = "!".repeat(3000) + "1";
    let sum = "1".to_string() + &"+1".repeat(50_000);
    let (code, _, err) = sprout(&["--eval", &bangs]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("RangeError: Maximum call stack size exceeded"),
        "{err}"
    );
    let (code, out, err) = sprout(&["--eval", &sum, "--eval", "1 + 1"]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(err.contains("Maximum call stack size exceeded"), "{err}");
}

#[test]
fn cli_load_of_a_deeply_nested_file_is_refused() {
    let dir = std::env::temp_dir().join(format!("sprout-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("deep.js");
    std::fs::write(&file, deep("[", 10_000, "", "]")).expect("write");
    let script = format!("load({:?})", file.to_string_lossy());
    let (code, _, err) = sprout(&["--eval", &script]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("Maximum call stack size exceeded"), "{err}");
}

#[test]
fn cli_catastrophic_regex_ends() {
    let (code, _, err) = sprout(&["--eval", "/(a+)+$/.test('a'.repeat(40) + 'b')"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("backtracking"), "{err}");
}

#[test]
fn cli_regex_longer_than_the_input_answers_at_once() {
    // No match of `(a?){40}a{40}` (at least 40 characters) fits in 11: every start position is
    // skipped, as V8 does, instead of backtracking to the step limit.
    let (code, out, err) = sprout(&[
        "--eval",
        "[/(a?){40}a{40}/.test('a'.repeat(10)+'b'), /(a?){3}a{3}/.test('xaaa'), /(?<=a)b{2}/.test('abb'), /ab|c/.test('c')].join()",
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out, "false,true,true,true\n");
}

#[cfg(unix)]
#[test]
fn cli_eval_code_that_is_not_utf8_is_decoded_as_mongosh_does() {
    use std::os::unix::ffi::OsStrExt;
    // Node.js decodes arguments as UTF-8 with U+FFFD for each invalid byte; mongosh runs that.
    let out = Command::new(env!("CARGO_BIN_EXE_sprout"))
        .arg("--eval")
        .arg(std::ffi::OsStr::from_bytes(b"'a\xffb'"))
        .output()
        .expect("sprout runs");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "a\u{FFFD}b\n");
    // Any other argument that is not UTF-8 (a file name) is a usage error.
    let out = Command::new(env!("CARGO_BIN_EXE_sprout"))
        .arg(std::ffi::OsStr::from_bytes(b"x\xff.js"))
        .output()
        .expect("sprout runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not valid UTF-8"));
}
