//! The BSON corpus (`mongodb-specifications/source/bson-corpus/tests/*.json`) through the `bson`
//! crate's binary and Extended JSON layers, which are Sprout's BSON layer.
//!
//! For each valid case, with cB/cEJ/rEJ/dB/dEJ the canonical BSON, canonical and relaxed
//! Extended JSON and the degenerate forms, the checks of the corpus specification:
//!
//! - `encode(decode(cB)) == cB`, `canonical(decode(cB)) == cEJ`, `relaxed(decode(cB)) == rEJ`;
//! - `canonical(parse(cEJ)) == cEJ` and, unless `lossy`, `encode(parse(cEJ)) == cB`;
//! - `encode(decode(dB)) == cB`, `canonical(decode(dB)) == cEJ`, `relaxed(decode(dB)) == rEJ`;
//! - `canonical(parse(dEJ)) == cEJ` and, unless `lossy`, `encode(parse(dEJ)) == cB`;
//! - `relaxed(parse(rEJ)) == rEJ`.
//!
//! Each `decodeErrors` entry must fail to decode, and each `parseErrors` entry must fail to
//! parse (as a Decimal128 string for type `0x13`, otherwise as an Extended JSON document).
//! Decoding, parsing and canonical output go through the engine's `value::{bson_bytes,
//! decimal_parse, extjson}`, which check what the `bson` crate alone lets through.
//! The optional `converted_bson`/`converted_extjson` forms of deprecated types are not checked:
//! the crate keeps deprecated types as they are, which the specification allows.

use bson::{Bson, Document};
use engine::value::{bson_bytes, decimal_parse, extjson};
use serde_json::Value;

use super::ejson::{canonical_doc, compact, hex_decode, hex_encode, relaxed};
use super::report::{Outcome, Report, catch_panic, quiet_panics};

/// Runs the whole corpus and returns the report (call [`Report::finish`] on it).
pub fn run() -> Result<Report, String> {
    let dir = super::data_dir()?.join("mongodb-specifications/source/bson-corpus/tests");
    let files = super::list_files(&dir, ".json")?;
    if files.is_empty() {
        return Err(format!("no BSON corpus files in {}", dir.display()));
    }
    let mut report = Report::new(
        "bson_corpus",
        "BSON corpus",
        "Data: `mongodb-specifications/source/bson-corpus/tests/*.json` (valid round trips, \
         decodeErrors, parseErrors) through the engine's BSON layer (`engine::value::{bson_bytes, \
         decimal_parse, extjson}` over the `bson` crate). Areas are BSON types (file names).",
        &[],
    );
    let _quiet = quiet_panics();
    for path in files {
        let file = super::file_name(&path);
        let area = area_of(&file);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                report.push(
                    &format!("{file}: load"),
                    &area,
                    Outcome::Fail(format!("cannot read: {e}")),
                );
                continue;
            }
        };
        let suite: Value = match serde_json::from_str(&text) {
            Ok(v) => v,
            Err(e) => {
                report.push(
                    &format!("{file}: load"),
                    &area,
                    Outcome::Fail(format!("malformed test file: {e}")),
                );
                continue;
            }
        };
        run_file(&mut report, &file, &area, &suite);
    }
    Ok(report)
}

/// `decimal128-3.json` counts towards `decimal128`.
fn area_of(file: &str) -> String {
    let stem = file.trim_end_matches(".json");
    match stem.rsplit_once('-') {
        Some((base, n)) if n.chars().all(|c| c.is_ascii_digit()) => base.to_string(),
        _ => stem.to_string(),
    }
}

fn run_file(report: &mut Report, file: &str, area: &str, suite: &Value) {
    let bson_type = suite
        .get("bson_type")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let empty = Vec::new();
    let list =
        |key: &str| -> &Vec<Value> { suite.get(key).and_then(Value::as_array).unwrap_or(&empty) };
    for case in list("valid") {
        let id = format!("{file}: valid: {}", description(case));
        let outcome = catch_panic(|| check_valid(case)).unwrap_or_else(Err);
        report.push(&id, area, to_outcome(outcome));
    }
    for case in list("decodeErrors") {
        let id = format!("{file}: decodeError: {}", description(case));
        let outcome = catch_panic(|| check_decode_error(case)).unwrap_or_else(Err);
        report.push(&id, area, to_outcome(outcome));
    }
    for case in list("parseErrors") {
        let id = format!("{file}: parseError: {}", description(case));
        let outcome = catch_panic(|| check_parse_error(case, &bson_type)).unwrap_or_else(Err);
        report.push(&id, area, to_outcome(outcome));
    }
}

fn description(case: &Value) -> String {
    case.get("description")
        .and_then(Value::as_str)
        .unwrap_or("(no description)")
        .to_string()
}

fn to_outcome(result: Result<(), String>) -> Outcome {
    match result {
        Ok(()) => Outcome::Pass,
        Err(msg) => Outcome::Fail(msg),
    }
}

fn field<'a>(case: &'a Value, key: &str) -> Option<&'a str> {
    case.get(key).and_then(Value::as_str)
}

fn decode_hex_doc(hex: &str, what: &str) -> Result<(Vec<u8>, Document), String> {
    let bytes = hex_decode(hex).ok_or_else(|| format!("malformed test data: {what} is not hex"))?;
    let doc = bson_bytes::decode_document(&bytes)
        .map_err(|e| format!("{what} failed to decode: {}", e.message))?;
    Ok((bytes, doc))
}

/// Parses JSON text and re-serialises it compactly, for comparison.
fn normal_json(text: &str, what: &str) -> Result<String, String> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| format!("malformed test data: {what} is not JSON: {e}"))?;
    Ok(compact(&value))
}

fn parse_ext_doc(text: &str, what: &str) -> Result<Document, String> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| format!("malformed test data: {what} is not JSON: {e}"))?;
    match extjson::parse_value(value) {
        Ok(Bson::Document(d)) => Ok(d),
        Ok(_) => Err(format!("{what} did not parse to a document")),
        Err(e) => Err(format!("{what} failed to parse: {}", e.message)),
    }
}

fn encode(doc: &Document, what: &str) -> Result<Vec<u8>, String> {
    doc.to_vec()
        .map_err(|e| format!("{what} failed to encode: {e}"))
}

fn check_valid(case: &Value) -> Result<(), String> {
    let cb_hex = field(case, "canonical_bson")
        .ok_or("malformed test data: no canonical_bson")?
        .to_string();
    let cej_text =
        field(case, "canonical_extjson").ok_or("malformed test data: no canonical_extjson")?;
    let lossy = case.get("lossy").and_then(Value::as_bool).unwrap_or(false);
    let cej = normal_json(cej_text, "canonical_extjson")?;
    let rej = match field(case, "relaxed_extjson") {
        Some(t) => Some(normal_json(t, "relaxed_extjson")?),
        None => None,
    };
    let mut problems: Vec<String> = Vec::new();

    let (cb, doc) = decode_hex_doc(&cb_hex, "canonical_bson")?;
    match encode(&doc, "decode(cB)") {
        Ok(bytes) => expect(
            &mut problems,
            "encode(decode(cB))",
            hex_encode(&bytes),
            &hex_encode(&cb),
        ),
        Err(e) => problems.push(e),
    }
    expect(
        &mut problems,
        "canonical(decode(cB))",
        canonical_doc(&doc),
        &cej,
    );
    if let Some(rej) = &rej {
        expect(
            &mut problems,
            "relaxed(decode(cB))",
            relaxed(&Bson::Document(doc.clone())),
            rej,
        );
    }

    match parse_ext_doc(cej_text, "canonical_extjson") {
        Ok(parsed) => {
            expect(
                &mut problems,
                "canonical(parse(cEJ))",
                canonical_doc(&parsed),
                &cej,
            );
            if !lossy {
                match encode(&parsed, "parse(cEJ)") {
                    Ok(bytes) => expect(
                        &mut problems,
                        "encode(parse(cEJ))",
                        hex_encode(&bytes),
                        &hex_encode(&cb),
                    ),
                    Err(e) => problems.push(e),
                }
            }
        }
        Err(e) => problems.push(e),
    }

    if let Some(db_hex) = field(case, "degenerate_bson") {
        match decode_hex_doc(db_hex, "degenerate_bson") {
            Ok((_, ddoc)) => {
                match encode(&ddoc, "decode(dB)") {
                    Ok(bytes) => expect(
                        &mut problems,
                        "encode(decode(dB))",
                        hex_encode(&bytes),
                        &hex_encode(&cb),
                    ),
                    Err(e) => problems.push(e),
                }
                expect(
                    &mut problems,
                    "canonical(decode(dB))",
                    canonical_doc(&ddoc),
                    &cej,
                );
                if let Some(rej) = &rej {
                    expect(
                        &mut problems,
                        "relaxed(decode(dB))",
                        relaxed(&Bson::Document(ddoc)),
                        rej,
                    );
                }
            }
            Err(e) => problems.push(e),
        }
    }

    if let Some(dej_text) = field(case, "degenerate_extjson") {
        match parse_ext_doc(dej_text, "degenerate_extjson") {
            Ok(parsed) => {
                expect(
                    &mut problems,
                    "canonical(parse(dEJ))",
                    canonical_doc(&parsed),
                    &cej,
                );
                if !lossy {
                    match encode(&parsed, "parse(dEJ)") {
                        Ok(bytes) => expect(
                            &mut problems,
                            "encode(parse(dEJ))",
                            hex_encode(&bytes),
                            &hex_encode(&cb),
                        ),
                        Err(e) => problems.push(e),
                    }
                }
            }
            Err(e) => problems.push(e),
        }
    }

    if let (Some(rej_text), Some(rej)) = (field(case, "relaxed_extjson"), &rej) {
        match parse_ext_doc(rej_text, "relaxed_extjson") {
            Ok(parsed) => expect(
                &mut problems,
                "relaxed(parse(rEJ))",
                relaxed(&Bson::Document(parsed)),
                rej,
            ),
            Err(e) => problems.push(e),
        }
    }

    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}

fn expect(problems: &mut Vec<String>, label: &str, got: String, want: &str) {
    if got != want {
        problems.push(format!("{label}: got {got}, want {want}"));
    }
}

fn check_decode_error(case: &Value) -> Result<(), String> {
    let hex = field(case, "bson").ok_or("malformed test data: no bson")?;
    let bytes = hex_decode(hex).ok_or("malformed test data: bson is not hex")?;
    match bson_bytes::decode_document(&bytes) {
        Err(_) => Ok(()),
        Ok(doc) => Err(format!(
            "decoded without error to {}",
            super::report::clip(&canonical_doc(&doc), 300)
        )),
    }
}

fn check_parse_error(case: &Value, bson_type: &str) -> Result<(), String> {
    let text = field(case, "string").ok_or("malformed test data: no string")?;
    if bson_type.eq_ignore_ascii_case("0x13") {
        return match decimal_parse::parse_decimal128(text) {
            Err(_) => Ok(()),
            Ok(d) => Err(format!("Decimal128 string parsed without error as {d}")),
        };
    }
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(_) => return Ok(()),
    };
    if !value.is_object() {
        return Ok(());
    }
    match extjson::parse_document(value) {
        Err(_) => Ok(()),
        Ok(doc) => Err(format!(
            "parsed without error as {}",
            super::report::clip(&canonical_doc(&doc), 300)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_cases_are_reported_not_panics() {
        let not_hex = serde_json::json!({"canonical_bson": "zz", "canonical_extjson": "{}"});
        assert!(check_valid(&not_hex).unwrap_err().contains("malformed"));
        let missing = serde_json::json!({"description": "no fields"});
        assert!(check_valid(&missing).is_err());
        assert!(check_decode_error(&missing).is_err());
        assert!(check_parse_error(&missing, "0x00").is_err());
        // A truncated document must fail to decode, which is what a decodeError expects.
        let truncated = serde_json::json!({"bson": "0600000000"});
        assert!(check_decode_error(&truncated).is_ok());
    }

    #[test]
    fn areas_group_numbered_files() {
        assert_eq!(area_of("decimal128-7.json"), "decimal128");
        assert_eq!(
            area_of("multi-type-deprecated.json"),
            "multi-type-deprecated"
        );
    }
}
