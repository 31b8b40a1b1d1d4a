//! Golden tests: `shell/tests/golden/printer/*.txt` hold cases, each an input in Extended JSON
//! next to the exact text a shell prints for it:
//!
//! ```text
//! ### a name
//! @ <mongosh|legacy|legacy-pretty|json-relaxed|json-canonical> <value|batch|named:Name>
//! <input as canonical or relaxed Extended JSON, any number of lines>
//! ---
//! <expected output, any number of lines>
//! ```
//!
//! The mongosh and Extended JSON expectations were produced by Node 20's `util.inspect` and
//! js-bson 6 with mongosh's options and BSON inspectors (see `oracle.js` beside the files);
//! `random.txt` holds random documents of every type from `random_cases.py`.

use bson::{Bson, Document};

use super::{
    JsonMode, PrintOptions, Style, format_cursor_batch, format_extjson, format_named, format_value,
};

const FILES: [(&str, &str); 4] = [
    (
        "mongosh.txt",
        include_str!("../../tests/golden/printer/mongosh.txt"),
    ),
    (
        "legacy.txt",
        include_str!("../../tests/golden/printer/legacy.txt"),
    ),
    (
        "extjson.txt",
        include_str!("../../tests/golden/printer/extjson.txt"),
    ),
    (
        "random.txt",
        include_str!("../../tests/golden/printer/random.txt"),
    ),
];

struct Case {
    name: String,
    style: String,
    kind: String,
    input: String,
    expected: String,
}

fn parse(file: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    for block in file.split("\n### ").skip(1) {
        let mut lines = block.lines();
        let name = lines.next().unwrap_or_default().to_string();
        let header = lines.next().unwrap_or_default();
        let mut parts = header.trim_start_matches("@ ").split_whitespace();
        let style = parts.next().unwrap_or_default().to_string();
        let kind = parts.next().unwrap_or_default().to_string();
        let rest: Vec<&str> = lines.collect();
        let split = rest
            .iter()
            .position(|l| *l == "---")
            .unwrap_or_else(|| panic!("case {name}: no ---"));
        let input = rest[..split].join("\n");
        let expected = rest[split + 1..]
            .join("\n")
            .trim_end_matches('\n')
            .to_string();
        cases.push(Case {
            name,
            style,
            kind,
            input,
            expected,
        });
    }
    cases
}

fn render(case: &Case) -> String {
    let json: serde_json::Value = serde_json::from_str(&case.input)
        .unwrap_or_else(|e| panic!("case {}: bad input: {e}", case.name));
    let value = Bson::try_from(json)
        .unwrap_or_else(|e| panic!("case {}: bad Extended JSON: {e}", case.name));
    let opts = match case.style.as_str() {
        "mongosh" => PrintOptions {
            style: Style::Mongosh,
            pretty: false,
        },
        "legacy" => PrintOptions {
            style: Style::Legacy,
            pretty: false,
        },
        "legacy-pretty" => PrintOptions {
            style: Style::Legacy,
            pretty: true,
        },
        "json-relaxed" => return format_extjson(&value, JsonMode::Relaxed),
        "json-canonical" => return format_extjson(&value, JsonMode::Canonical),
        other => panic!("case {}: unknown style {other}", case.name),
    };
    match case.kind.split_once(':') {
        Some(("named", name)) => match &value {
            Bson::Document(d) => format_named(name, d, &opts),
            _ => panic!("case {}: named needs a document", case.name),
        },
        _ if case.kind == "batch" => {
            let docs: Vec<Document> = match &value {
                Bson::Array(items) => items
                    .iter()
                    .filter_map(|d| d.as_document().cloned())
                    .collect(),
                _ => panic!("case {}: batch needs an array", case.name),
            };
            format_cursor_batch(&docs, &opts)
        }
        _ => format_value(&value, &opts),
    }
}

#[test]
fn golden_files() {
    let mut failures = Vec::new();
    let mut count = 0;
    for (file, text) in FILES {
        for case in parse(text) {
            count += 1;
            let got = render(&case);
            if got != case.expected {
                failures.push(format!(
                    "{file} / {}:\n--- expected\n{}\n--- got\n{got}\n",
                    case.name, case.expected
                ));
            }
        }
    }
    assert!(count >= 60, "only {count} golden cases");
    assert!(
        failures.is_empty(),
        "{} of {count} golden cases differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
