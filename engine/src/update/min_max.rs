//! `$min` and `$max`: replace the value when the operand sorts below (above) it in MongoDB's
//! value order; a missing field takes the operand.

use std::cmp::Ordering;

use bson::Bson;

use super::apply::Outcome;
use crate::value::compare_values;

pub fn apply_min_max(operand: &Bson, current: Option<&Bson>, is_min: bool) -> Outcome {
    let Some(existing) = current else {
        return Outcome::Set(operand.clone());
    };
    let wanted = if is_min {
        Ordering::Less
    } else {
        Ordering::Greater
    };
    if compare_values(operand, existing) == wanted {
        Outcome::Set(operand.clone())
    } else {
        Outcome::Unchanged
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn min_and_max_follow_the_value_order() {
        let five = Bson::Int32(5);
        assert!(matches!(
            apply_min_max(&Bson::Int32(3), Some(&five), true),
            Outcome::Set(Bson::Int32(3))
        ));
        assert!(matches!(
            apply_min_max(&Bson::Int32(7), Some(&five), true),
            Outcome::Unchanged
        ));
        assert!(matches!(
            apply_min_max(&Bson::Double(5.0), Some(&five), false),
            Outcome::Unchanged
        ));
        // Strings sort above numbers.
        assert!(matches!(
            apply_min_max(&Bson::String("a".into()), Some(&five), false),
            Outcome::Set(_)
        ));
        assert!(matches!(
            apply_min_max(&five, None, true),
            Outcome::Set(Bson::Int32(5))
        ));
    }
}
