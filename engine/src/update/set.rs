//! `$set`: put a value at a path, creating what is missing.

use bson::Bson;

use super::apply::Outcome;
use super::identical::identical;

pub fn apply_set(value: &Bson, current: Option<&Bson>) -> Outcome {
    match current {
        Some(existing) if identical(existing, value) => Outcome::Unchanged,
        _ => Outcome::Set(value.clone()),
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
