//! Extended JSON, the engine's parser (`engine::value::extjson`) and the dataset loader that the
//! CLI's `--dataset` and the lessons use (`shell::dataset::parse_dataset`). Oracle: a value's
//! canonical form parses back to the same canonical form, and its BSON bytes decode to it.

use engine::value::extjson::{parse_value, to_canonical};

pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = shell::dataset::parse_dataset("fuzz", text);
    let Ok(json) = serde_json::from_str::<serde_json::Value>(text) else {
        return;
    };
    let Ok(value) = parse_value(json) else {
        return;
    };
    let canonical = to_canonical(&value);
    let again = parse_value(canonical.clone())
        .unwrap_or_else(|e| panic!("canonical form {canonical} does not parse back: {e}"));
    assert_eq!(
        to_canonical(&again),
        canonical,
        "canonical form changes when parsed back"
    );
    if let bson::Bson::Document(doc) = &value {
        // A document that encodes must decode to the same value.
        if let Ok(bytes) = doc.to_vec() {
            let decoded = bson::Document::from_reader(bytes.as_slice())
                .unwrap_or_else(|e| panic!("encoded document does not decode: {e}"));
            assert_eq!(to_canonical(&bson::Bson::Document(decoded)), canonical);
        }
    }
}
