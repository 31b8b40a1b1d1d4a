//! `$unset`: remove a field (an array element becomes null instead, keeping positions).

use bson::Bson;

use super::apply::Outcome;

pub fn apply_unset(current: Option<&Bson>) -> Outcome {
    match current {
        Some(_) => Outcome::Remove,
        None => Outcome::Unchanged,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_field_is_a_no_op() {
        assert!(matches!(apply_unset(None), Outcome::Unchanged));
        assert!(matches!(apply_unset(Some(&Bson::Null)), Outcome::Remove));
    }
}
