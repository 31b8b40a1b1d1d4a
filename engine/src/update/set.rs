//! `$set` and `$setOnInsert`: put a value at a path, creating what is missing.

use bson::Bson;

use super::apply::{LeafContext, Outcome};
use super::identical::identical;

pub fn apply_set(value: &Bson, current: Option<&Bson>) -> Outcome {
    match current {
        Some(existing) if identical(existing, value) => Outcome::Unchanged,
        _ => Outcome::Set(value.clone()),
    }
}

/// `$setOnInsert` acts only when an upsert inserts a new document.
pub fn apply_set_on_insert(value: &Bson, current: Option<&Bson>, cx: &LeafContext) -> Outcome {
    if cx.is_insert {
        apply_set(value, current)
    } else {
        Outcome::Unchanged
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_value_is_a_no_op_but_another_type_is_not() {
        assert!(matches!(
            apply_set(&Bson::Int32(1), Some(&Bson::Int32(1))),
            Outcome::Unchanged
        ));
        assert!(matches!(
            apply_set(&Bson::Double(1.0), Some(&Bson::Int32(1))),
            Outcome::Set(Bson::Double(_))
        ));
        assert!(matches!(
            apply_set(&Bson::Null, None),
            Outcome::Set(Bson::Null)
        ));
    }
}
