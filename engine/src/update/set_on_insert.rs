//! `$setOnInsert`: `$set`, but only when an upsert inserts a new document.

use bson::Bson;

use super::apply::{LeafContext, Outcome};
use super::set::apply_set;

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
    use bson::doc;

    #[test]
    fn acts_only_on_insert() {
        let original = doc! {"_id": 1};
        let mut cx = LeafContext::for_tests(&original, "a");
        assert_eq!(
            apply_set_on_insert(&Bson::Int32(1), None, &cx),
            Outcome::Unchanged
        );
        cx.is_insert = true;
        assert_eq!(
            apply_set_on_insert(&Bson::Int32(1), None, &cx),
            Outcome::Set(Bson::Int32(1))
        );
    }
}
