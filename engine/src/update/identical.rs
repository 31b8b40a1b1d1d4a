//! "Binary" equality, the test MongoDB uses to decide whether an update changed a value: same type,
//! same value, documents with the same fields in the same order. `1` and `1.0` are different here
//! (setting one over the other is a modification), unlike in the query language.

use bson::{Bson, Document};

pub fn identical(a: &Bson, b: &Bson) -> bool {
    match (a, b) {
        (Bson::Document(x), Bson::Document(y)) => identical_documents(x, y),
        (Bson::Array(x), Bson::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| identical(p, q))
        }
        (Bson::Double(x), Bson::Double(y)) => x.to_bits() == y.to_bits() || x == y,
        _ => a == b,
    }
}

pub fn identical_documents(a: &Document, b: &Document) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|((ka, va), (kb, vb))| ka == kb && identical(va, vb))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    #[test]
    fn type_and_field_order_matter() {
        assert!(identical(&Bson::Int32(1), &Bson::Int32(1)));
        assert!(!identical(&Bson::Int32(1), &Bson::Double(1.0)));
        assert!(identical(&Bson::Double(f64::NAN), &Bson::Double(f64::NAN)));
        assert!(!identical_documents(
            &doc! {"a": 1, "b": 2},
            &doc! {"b": 2, "a": 1}
        ));
        assert!(identical_documents(
            &doc! {"a": [1, {"x": 1}]},
            &doc! {"a": [1, {"x": 1}]}
        ));
    }
}
