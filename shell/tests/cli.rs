//! The `sprout` binary: --eval, script files, --json, exit codes, piped REPL input, load(path).

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn sprout(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sprout"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sprout runs");
    if let Some(mut input) = child.stdin.take() {
        input.write_all(stdin.as_bytes()).expect("stdin");
    }
    child.wait_with_output().expect("sprout finishes")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn eval_prints_the_last_result() {
    let o = sprout(
        &["--eval", "db.c.insertOne({_id: 1, a: 1}); db.c.find()"],
        "",
    );
    assert_eq!(stdout(&o), "[ { _id: 1, a: 1 } ]\n");
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn eval_errors_exit_1() {
    let o = sprout(&["--eval", "nothing"], "");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "ReferenceError: nothing is not defined\n"
    );
}

#[test]
fn json_modes() {
    let o = sprout(
        &["--json=canonical", "--eval", "({n: 1, l: NumberLong(2)})"],
        "",
    );
    assert_eq!(
        stdout(&o),
        "{\n  \"n\": {\n    \"$numberInt\": \"1\"\n  },\n  \"l\": {\n    \"$numberLong\": \"2\"\n  }\n}\n"
    );
    let o = sprout(
        &["--json=relaxed", "--eval", "({n: 1, l: NumberLong(2)})"],
        "",
    );
    assert_eq!(stdout(&o), "{\n  \"n\": 1,\n  \"l\": 2\n}\n");
    assert_eq!(
        sprout(&["--json=yaml", "--eval", "1"], "").status.code(),
        Some(2)
    );
}

#[test]
fn legacy_flag_prints_like_the_books() {
    let o = sprout(&["--legacy", "--eval", "db.c.insert({a: 1})"], "");
    assert_eq!(stdout(&o), "WriteResult({ \"nInserted\" : 1 })\n");
}

#[test]
fn mongosh_style_warns_once_for_a_deprecated_method() {
    let o = sprout(
        &[
            "--eval",
            "db.c.insert({_id: 1}); db.c.insert({_id: 2}); db.c.countDocuments()",
        ],
        "",
    );
    assert_eq!(
        stdout(&o),
        "DeprecationWarning: Collection.insert() is deprecated. Use insertOne, insertMany, or bulkWrite.\n2\n"
    );
    let legacy = sprout(&["--legacy", "--eval", "db.c.count()"], "");
    assert_eq!(stdout(&legacy), "0\n");
}

#[test]
fn scripts_run_in_order_and_load_reads_files() {
    let dir = std::env::temp_dir().join(format!("sprout-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let lib = dir.join("lib.js");
    std::fs::write(&lib, "var fromLib = 'loaded';").expect("write");
    let main = dir.join("main.js");
    std::fs::write(
        &main,
        format!("load('{}');\nprint(fromLib);\ndb.c.insertOne({{_id: 1}});\nprint(db.c.countDocuments());\n", lib.display()),
    )
    .expect("write");
    let o = sprout(&[main.to_str().unwrap_or_default()], "");
    assert_eq!(stdout(&o), "loaded\n1\n");
    assert_eq!(o.status.code(), Some(0));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn piped_repl_continues_lines_and_fails_with_1() {
    let o = sprout(
        &["--quiet"],
        "function f(a) {\n  return a * 2\n}\nf(21)\nnothing\nuse shop\ndb.getName()\n",
    );
    assert_eq!(
        stdout(&o),
        "42\nReferenceError: nothing is not defined\nswitched to db shop\nshop\n"
    );
    assert_eq!(o.status.code(), Some(1));
    let o = sprout(&["--quiet"], "1 + 1\nexit\n2 + 2\n");
    assert_eq!(stdout(&o), "2\n");
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn dataset_flag_preloads_a_lesson_dataset() {
    let o = sprout(
        &[
            "--dataset",
            "b5-optimizing",
            "--eval",
            "db.getName() + ' ' + db.products.countDocuments() + ' ' + db.customers.countDocuments()",
        ],
        "",
    );
    assert_eq!(stdout(&o), "ecommerce 10 5\n", "{o:?}");
    let o = sprout(&["--dataset", "nope", "--eval", "1"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("b5-optimizing"));
}
