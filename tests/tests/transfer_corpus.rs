//! mongoexport/mongoimport JSON over the BSON corpus' values
//! (`mongodb-specifications/source/bson-corpus/tests/*.json`): every valid case's document,
//! written by `engine::transfer` as canonical Extended JSON (one line, and in an array) and read
//! back by the importer, is the corpus' canonical BSON byte for byte; written as relaxed
//! Extended JSON and read back, it is the same document with 32-bit int64s as int32s (all that
//! relaxed JSON loses), as is the corpus' own relaxed form when it has one; and the importer
//! reads the corpus' canonical Extended JSON as its canonical BSON.
//!
//! Cases marked `lossy` (a Decimal128 NaN payload and the like, which Extended JSON cannot
//! carry) are left out of the byte comparison, as the corpus specification says.

use bson::{Bson, Document};
use engine::transfer::mongoexport::export_json;
use engine::transfer::mongoimport::parse_json_import;
use engine::transfer::{ExtJsonMode, JsonLayout};
use engine::value::bson_bytes::decode_document;
use serde_json::Value;
use sprout_tests::conformance::{data_dir, ejson::hex_decode, list_files};

/// What relaxed Extended JSON keeps of a value: an int64 that fits in 32 bits is written as a
/// plain number and read back as an int32 (the Go driver's reading, mongoimport's); every other
/// value survives.
fn relaxed_image(value: &Bson) -> Bson {
    match value {
        Bson::Int64(n) => i32::try_from(*n).map_or(Bson::Int64(*n), Bson::Int32),
        Bson::Document(d) => Bson::Document(
            d.iter()
                .map(|(k, v)| (k.clone(), relaxed_image(v)))
                .collect::<Document>(),
        ),
        Bson::Array(items) => Bson::Array(items.iter().map(relaxed_image).collect()),
        Bson::JavaScriptCodeWithScope(cws) => {
            let mut cws = cws.clone();
            if let Bson::Document(scope) = relaxed_image(&Bson::Document(cws.scope.clone())) {
                cws.scope = scope;
            }
            Bson::JavaScriptCodeWithScope(cws)
        }
        other => other.clone(),
    }
}

/// JSON text without the whitespace between tokens, and with `\uXXXX` escapes of non-ASCII
/// characters (except U+2028 and U+2029) written as the characters: the Go driver writes
/// UTF-8 as it is, where the corpus escapes it.
fn go_style_json(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let hex = |at: usize| -> Option<u32> {
        let digits: String = chars.get(at..at + 4)?.iter().collect();
        u32::from_str_radix(&digits, 16).ok()
    };
    let mut out = String::new();
    let mut in_string = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if !in_string {
            if c == '"' {
                in_string = true;
            }
            if !c.is_whitespace() {
                out.push(c);
            }
            i += 1;
            continue;
        }
        if c == '"' {
            in_string = false;
            out.push(c);
            i += 1;
        } else if c == '\\' && chars.get(i + 1) == Some(&'u') {
            let unit = hex(i + 2);
            let pair = unit
                .filter(|u| (0xD800..0xDC00).contains(u))
                .and_then(|high| {
                    (chars.get(i + 6) == Some(&'\\') && chars.get(i + 7) == Some(&'u'))
                        .then(|| hex(i + 8))
                        .flatten()
                        .filter(|low| (0xDC00..0xE000).contains(low))
                        .map(|low| 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
                });
            let (code, len) = match (pair, unit) {
                (Some(code), _) => (Some(code), 12),
                (None, Some(u)) => (Some(u), 6),
                _ => (None, 2),
            };
            match code.and_then(char::from_u32) {
                Some(ch) if (ch as u32) >= 0x80 && ch != '\u{2028}' && ch != '\u{2029}' => {
                    out.push(ch);
                    i += len;
                }
                _ => {
                    out.extend(&chars[i..(i + len).min(chars.len())]);
                    i += len;
                }
            }
        } else if c == '\\' {
            out.extend(&chars[i..(i + 2).min(chars.len())]);
            i += 2;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn import_one(text: &str, layout: JsonLayout) -> Result<Vec<u8>, String> {
    let docs = parse_json_import(text, layout).map_err(|e| e.message)?;
    if docs.len() != 1 {
        return Err(format!("{} documents read back", docs.len()));
    }
    docs[0].document.to_vec().map_err(|e| e.to_string())
}

#[test]
fn json_round_trips_over_the_bson_corpus() {
    let dir = data_dir()
        .unwrap()
        .join("mongodb-specifications/source/bson-corpus/tests");
    let files = list_files(&dir, ".json").unwrap();
    assert!(!files.is_empty());
    let mut checked = 0;
    let mut failures = Vec::new();
    for path in files {
        let suite: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        let Some(valid) = suite.get("valid").and_then(Value::as_array) else {
            continue;
        };
        for case in valid {
            let description = case["description"].as_str().unwrap_or("?");
            let id = format!("{file}: {description}");
            let canonical_bson = hex_decode(case["canonical_bson"].as_str().unwrap()).unwrap();
            let Ok(doc) = decode_document(&canonical_bson) else {
                continue; // the BSON layer's own conformance suite covers undecodable cases
            };
            if case.get("lossy").and_then(Value::as_bool).unwrap_or(false) {
                continue;
            }
            checked += 1;
            let canonical_line = export_json([&doc], ExtJsonMode::Canonical, JsonLayout::Lines);
            if let Some(cej) = case["canonical_extjson"].as_str()
                && !cej.contains("$numberDouble")
            {
                // The Go driver's text is the corpus' canonical form without whitespace and
                // with UTF-8 unescaped, except for doubles (Go writes `1E+06`, the corpus
                // `1.0E+6`), which the round trips check instead.
                let want: String = go_style_json(cej);
                if canonical_line.trim_end() != want {
                    failures.push(format!(
                        "{id}: canonical text\n  ours:   {}\n  corpus: {want}",
                        canonical_line.trim_end()
                    ));
                }
            }
            let mut check = |what: &str, got: Result<Vec<u8>, String>, want: &[u8]| match got {
                Ok(bytes) if bytes == want => {}
                Ok(bytes) => failures.push(format!(
                    "{id}: {what}: read back {} bytes that differ from {} expected",
                    bytes.len(),
                    want.len()
                )),
                Err(e) => failures.push(format!("{id}: {what}: {e}")),
            };

            let canonical_array = export_json([&doc], ExtJsonMode::Canonical, JsonLayout::Array);
            check(
                "canonical line",
                import_one(&canonical_line, JsonLayout::Lines),
                &canonical_bson,
            );
            check(
                "canonical array",
                import_one(&canonical_array, JsonLayout::Array),
                &canonical_bson,
            );
            if let Some(cej) = case["canonical_extjson"].as_str() {
                check(
                    "corpus canonical_extjson",
                    import_one(cej, JsonLayout::Lines),
                    &canonical_bson,
                );
            }
            let relaxed_line = export_json([&doc], ExtJsonMode::Relaxed, JsonLayout::Lines);
            let want = relaxed_image(&Bson::Document(doc.clone()));
            let want = want.as_document().map(|d| d.to_vec().unwrap()).unwrap();
            check(
                "relaxed line",
                import_one(&relaxed_line, JsonLayout::Lines),
                &want,
            );
            if let Some(rej) = case.get("relaxed_extjson").and_then(Value::as_str) {
                check(
                    "corpus relaxed_extjson",
                    import_one(rej, JsonLayout::Lines),
                    &want,
                );
            }
        }
    }
    assert!(checked > 200, "only {checked} corpus cases checked");
    assert!(
        failures.is_empty(),
        "{} of {checked} corpus cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
