//! The size in bytes of a document's BSON encoding, computed without encoding it.

use bson::spec::BinarySubtype;
use bson::{Bson, Document};

/// The BSON byte length of `doc`.
pub fn document_size(doc: &Document) -> usize {
    // int32 length, the elements, the trailing 0.
    4 + doc
        .iter()
        .map(|(key, value)| element_size(key.len(), value))
        .sum::<usize>()
        + 1
}

/// Type byte, key as a C string, value.
fn element_size(key_len: usize, value: &Bson) -> usize {
    1 + key_len + 1 + value_size(value)
}

fn string_size(s: &str) -> usize {
    4 + s.len() + 1
}

/// The BSON byte length of one value (without a type byte or field name).
pub fn value_size(value: &Bson) -> usize {
    match value {
        Bson::Double(_) | Bson::DateTime(_) | Bson::Int64(_) | Bson::Timestamp(_) => 8,
        Bson::String(s) | Bson::JavaScriptCode(s) | Bson::Symbol(s) => string_size(s),
        Bson::Document(d) => document_size(d),
        Bson::Array(items) => {
            let elements: usize = items
                .iter()
                .enumerate()
                .map(|(i, v)| element_size(decimal_len(i), v))
                .sum();
            4 + elements + 1
        }
        Bson::Binary(b) => {
            // The old binary subtype repeats the length inside the payload.
            let old = usize::from(b.subtype == BinarySubtype::BinaryOld) * 4;
            4 + 1 + old + b.bytes.len()
        }
        Bson::ObjectId(_) => 12,
        Bson::Boolean(_) => 1,
        Bson::Null | Bson::Undefined | Bson::MinKey | Bson::MaxKey => 0,
        Bson::RegularExpression(r) => r.pattern.len() + 1 + r.options.len() + 1,
        Bson::JavaScriptCodeWithScope(c) => 4 + string_size(&c.code) + document_size(&c.scope),
        Bson::Int32(_) => 4,
        Bson::Decimal128(_) => 16,
        Bson::DbPointer(_) => {
            // The namespace is not exposed; re-encode the one element to measure it.
            let mut d = Document::new();
            d.insert("", value.clone());
            d.to_vec()
                .map_or(0, |v| v.len().saturating_sub(4 + 1 + 1 + 1 + 1))
        }
    }
}

/// The number of decimal digits of an array index (its key).
fn decimal_len(mut i: usize) -> usize {
    let mut n = 1;
    while i >= 10 {
        i /= 10;
        n += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use bson::{Binary, doc, oid::ObjectId};

    use super::*;

    #[test]
    fn matches_the_encoded_length() {
        let docs = [
            doc! {},
            doc! {"a": 1, "b": "text", "c": [1, 2.5, null, {"d": true}], "e": ObjectId::new()},
            doc! {"big": (0..1234).map(Bson::Int32).collect::<Vec<_>>()},
            doc! {"bin": Binary { subtype: BinarySubtype::Generic, bytes: vec![1, 2, 3] }},
            doc! {"old": Binary { subtype: BinarySubtype::BinaryOld, bytes: vec![1, 2, 3] }},
            doc! {"re": bson::Regex { pattern: "a.b".try_into().unwrap(), options: "i".try_into().unwrap() }},
        ];
        for d in docs {
            assert_eq!(document_size(&d), d.to_vec().unwrap().len(), "{d}");
        }
    }
}
