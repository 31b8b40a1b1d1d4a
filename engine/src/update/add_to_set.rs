//! `$addToSet` (with `$each`): append the values an array does not already hold.

use std::collections::BTreeSet;

use bson::Bson;

use super::apply::{LeafContext, Outcome};
use crate::error::{Error, Result};
use crate::value::OrderedValue;
use crate::value::display::{key_value, type_name};

pub fn parse(operand: &Bson) -> Result<Vec<Bson>> {
    let Bson::Document(d) = operand else {
        return Ok(vec![operand.clone()]);
    };
    match d.iter().next() {
        Some((k, each)) if k == "$each" => {
            if d.len() > 1 {
                return Err(Error::bad_value(format!(
                    "Found unexpected fields after $each in $addToSet: {}",
                    key_value(&Bson::Document(d.clone()))
                )));
            }
            match each {
                Bson::Array(items) => Ok(items.clone()),
                other => Err(Error::type_mismatch(format!(
                    "The argument to $each in $addToSet must be an array but it was of type {}",
                    type_name(other)
                ))),
            }
        }
        _ => Ok(vec![operand.clone()]),
    }
}

pub fn apply(values: &[Bson], current: Option<&Bson>, cx: &LeafContext) -> Result<Outcome> {
    let mut items = match current {
        None => Vec::new(),
        Some(Bson::Array(a)) => a.clone(),
        Some(other) => {
            return Err(Error::bad_value(format!(
                "Cannot apply $addToSet to non-array field. Field named '{}' has non-array type {}",
                cx.field,
                type_name(other)
            )));
        }
    };
    let before = items.len();
    // An ordered set of what the array holds (compared as `values_equal` compares, collation
    // included), so `$each` over a long array is n log n rather than a scan per value.
    let mut held: BTreeSet<OrderedValue> = items.iter().cloned().map(OrderedValue).collect();
    for v in values {
        if held.insert(OrderedValue(v.clone())) {
            items.push(v.clone());
        }
    }
    if current.is_some() && items.len() == before {
        Ok(Outcome::Unchanged)
    } else {
        Ok(Outcome::Set(Bson::Array(items)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::{bson, doc};

    fn add(cur: Option<Bson>, operand: Bson) -> Result<Outcome> {
        let original = doc! {"_id": 1};
        let cx = LeafContext::for_tests(&original, "a");
        apply(&parse(&operand)?, cur.as_ref(), &cx)
    }

    #[test]
    fn adds_only_missing_values() {
        match add(Some(bson!([1, 2])), bson!({"$each": [2, 3, 3]})).unwrap() {
            Outcome::Set(v) => assert_eq!(v, bson!([1, 2, 3])),
            o => panic!("{o:?}"),
        }
        assert!(matches!(
            add(Some(bson!([1, 2])), bson!(2.0)).unwrap(),
            Outcome::Unchanged
        ));
        match add(None, bson!({"$each": []})).unwrap() {
            Outcome::Set(v) => assert_eq!(v, bson!([])),
            o => panic!("{o:?}"),
        }
        // A document operand without $each is one value.
        match add(Some(bson!([])), bson!({"x": 1})).unwrap() {
            Outcome::Set(v) => assert_eq!(v, bson!([{"x": 1}])),
            o => panic!("{o:?}"),
        }
    }

    #[test]
    fn errors() {
        let e = add(Some(bson!(1)), bson!(2)).unwrap_err();
        assert_eq!(
            (e.code(), e.message.as_str()),
            (
                2,
                "Cannot apply $addToSet to non-array field. Field named 'a' has non-array type int"
            )
        );
        let e = add(None, bson!({"$each": 1})).unwrap_err();
        assert_eq!(e.code(), 14);
        assert_eq!(
            add(None, bson!({"$each": [], "x": 1})).unwrap_err().code(),
            2
        );
    }

    #[test]
    fn each_over_a_long_array_is_not_quadratic() {
        // 100,000 held values and 100,000 more (half new): a scan per value was 10^10
        // comparisons.
        let held: Vec<Bson> = (0..100_000).map(Bson::Int32).collect();
        let each: Vec<Bson> = (50_000..150_000).map(Bson::Int32).collect();
        match add(Some(Bson::Array(held)), bson!({"$each": each})).unwrap() {
            Outcome::Set(Bson::Array(items)) => {
                assert_eq!(items.len(), 150_000);
                assert_eq!(items[149_999], Bson::Int32(149_999));
            }
            other => panic!("{other:?}"),
        }
    }
}
