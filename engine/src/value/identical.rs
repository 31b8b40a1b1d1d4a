//! Whether two values are the same BSON: same types, same bits. MongoDB's comparison
//! (`compare_values`) calls `1` and `1.0`, or `0.0` and `-0.0`, equal; a stored index key
//! must still be replaced when its type or sign changes, since covered queries return it.

use bson::Bson;

/// The same type and value, doubles by their bits, documents field by field in order.
pub fn identical(a: &Bson, b: &Bson) -> bool {
    match (a, b) {
        (Bson::Double(x), Bson::Double(y)) => x.to_bits() == y.to_bits(),
        (Bson::Array(x), Bson::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| identical(p, q))
        }
        (Bson::Document(x), Bson::Document(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|((kx, vx), (ky, vy))| kx == ky && identical(vx, vy))
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use bson::{Bson, doc};

    use super::identical;

    #[test]
    fn numbers_of_other_types_or_signs_differ() {
        assert!(identical(&Bson::Int32(1), &Bson::Int32(1)));
        assert!(!identical(&Bson::Int32(1), &Bson::Double(1.0)));
        assert!(!identical(&Bson::Double(0.0), &Bson::Double(-0.0)));
        assert!(identical(&Bson::Double(f64::NAN), &Bson::Double(f64::NAN)));
        assert!(!identical(
            &Bson::Document(doc! {"a": 1, "b": 2}),
            &Bson::Document(doc! {"b": 2, "a": 1})
        ));
        assert!(identical(
            &Bson::Array(vec![Bson::Document(doc! {"x": 1.5})]),
            &Bson::Array(vec![Bson::Document(doc! {"x": 1.5})])
        ));
    }
}
