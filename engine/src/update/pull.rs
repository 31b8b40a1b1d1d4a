//! `$pull` (remove the elements matching a value or a condition, judged by the matcher) and
//! `$pullAll` (remove the elements equal to any listed value).

use bson::{Bson, Document};

use super::apply::Outcome;
use crate::error::{Error, Result};
use crate::matcher::{Filter, is_path_accepting};
use crate::value::display::type_name;
use crate::value::{OrderedValue, values_equal};

/// The field name under which an element is wrapped to test an operator condition on it.
const ELEMENT: &str = "e";

#[derive(Debug, Clone)]
pub enum PullCondition {
    /// A plain value: elements equal to it.
    Equals(Bson),
    /// `{$gte: 6}`-style conditions, tested against each element itself.
    Operators(Box<Filter>),
    /// `{score: 8, item: "B"}`: a query that element documents must match.
    Query(Box<Filter>),
}

pub fn parse_pull(operand: &Bson) -> Result<PullCondition> {
    match operand {
        // A regular expression matches the string elements it matches, as in a query.
        Bson::RegularExpression(_) => {
            let mut wrapped = Document::new();
            wrapped.insert(ELEMENT, operand.clone());
            Ok(PullCondition::Operators(Box::new(Filter::parse(&wrapped)?)))
        }
        Bson::Document(d) => {
            let operator_style = d.keys().next().is_some_and(|k| is_path_accepting(k));
            if operator_style {
                let mut wrapped = Document::new();
                wrapped.insert(ELEMENT, d.clone());
                Ok(PullCondition::Operators(Box::new(Filter::parse(&wrapped)?)))
            } else {
                ban_special_features(d)?;
                Ok(PullCondition::Query(Box::new(Filter::parse(d)?)))
            }
        }
        other => Ok(PullCondition::Equals(other.clone())),
    }
}

/// MongoDB parses a `$pull` query with `kBanAllSpecialFeatures` (`PullNode`'s
/// `ObjectMatcher`): `$expr`, `$text` and `$where` there, or under its `$and`/`$or`/`$nor`, are
/// refused as the match parser refuses them wherever they are not allowed. Array filters are
/// parsed the same way.
pub(super) fn ban_special_features(query: &Document) -> Result<()> {
    crate::matcher::ban_features(query, true)
}

pub fn parse_pull_all(operand: &Bson) -> Result<Vec<Bson>> {
    match operand {
        Bson::Array(items) => Ok(items.clone()),
        other => Err(Error::bad_value(format!(
            "$pullAll requires an array argument but was given a {}",
            type_name(other)
        ))),
    }
}

fn matches(cond: &PullCondition, element: &Bson) -> bool {
    match cond {
        PullCondition::Equals(v) => values_equal(element, v),
        PullCondition::Operators(filter) => {
            let mut wrapped = Document::new();
            wrapped.insert(ELEMENT, element.clone());
            filter.matches(&wrapped)
        }
        PullCondition::Query(filter) => match element {
            Bson::Document(d) => filter.matches(d),
            _ => false,
        },
    }
}

fn cull(current: Option<&Bson>, remove: impl Fn(&Bson) -> bool) -> Result<Outcome> {
    match current {
        None => Ok(Outcome::Unchanged),
        Some(Bson::Array(items)) => {
            let kept: Vec<Bson> = items.iter().filter(|e| !remove(e)).cloned().collect();
            if kept.len() == items.len() {
                Ok(Outcome::Unchanged)
            } else {
                Ok(Outcome::Set(Bson::Array(kept)))
            }
        }
        Some(_) => Err(Error::bad_value("Cannot apply $pull to a non-array value")),
    }
}

pub fn apply_pull(cond: &PullCondition, current: Option<&Bson>) -> Result<Outcome> {
    cull(current, |e| matches(cond, e))
}

pub fn apply_pull_all(values: &[Bson], current: Option<&Bson>) -> Result<Outcome> {
    // An ordered set (compared as `values_equal` compares), not a scan of `values` per element.
    let pulled: std::collections::BTreeSet<OrderedValue> =
        values.iter().cloned().map(OrderedValue).collect();
    cull(current, |e| pulled.contains(&OrderedValue(e.clone())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::bson;

    fn pulled(cur: Bson, operand: Bson) -> Bson {
        match apply_pull(&parse_pull(&operand).unwrap(), Some(&cur)).unwrap() {
            Outcome::Set(v) => v,
            o => panic!("{o:?}"),
        }
    }

    #[test]
    fn by_value_and_by_query() {
        assert_eq!(pulled(bson!([1, 2, 1.0, 3]), bson!(1)), bson!([2, 3]));
        assert_eq!(
            pulled(
                bson!([{"item": "A", "score": 8}, {"item": "B", "score": 8, "x": 1}, 5]),
                bson!({"item": "B", "score": 8})
            ),
            bson!([{"item": "A", "score": 8}, 5])
        );
        assert_eq!(pulled(bson!([[1], 1]), bson!([1])), bson!([1]));
        assert_eq!(pulled(bson!([1, 2, 3]), bson!({"$eq": 2})), bson!([1, 3]));
    }

    #[test]
    fn a_top_level_operator_is_a_query_on_the_elements() {
        // jstests/core/pull_or.js: $or is not a condition on the element itself.
        assert_eq!(
            pulled(
                bson!([{"x": 1}, {"y": "y"}, {"x": 2}, {"z": "z"}]),
                bson!({"$or": [{"y": {"$exists": true}}, {"z": {"$exists": true}}]})
            ),
            bson!([{"x": 1}, {"x": 2}])
        );
        assert_eq!(
            pulled(
                bson!([{"a": 1}, {"a": 5}]),
                bson!({"$and": [{"a": {"$gt": 2}}]})
            ),
            bson!([{"a": 1}])
        );
        let regex = Bson::RegularExpression(bson::Regex {
            pattern: "^a".try_into().unwrap(),
            options: "".try_into().unwrap(),
        });
        assert_eq!(
            pulled(bson!(["apple", "pear", 1]), regex),
            bson!(["pear", 1])
        );
    }

    #[test]
    fn expr_is_refused_in_a_pull_query() {
        for operand in [
            bson!({"$expr": "$a"}),
            bson!({"$or": [{"x": 1}, {"$expr": {"$eq": ["$x", 1]}}]}),
        ] {
            let e = parse_pull(&operand).unwrap_err();
            assert_eq!(e.code, crate::error::ErrorCode::QueryFeatureNotAllowed);
            assert_eq!(e.message, "$expr is not allowed in this context");
        }
    }

    #[test]
    fn pull_all_and_errors() {
        match apply_pull_all(&[bson!(1), bson!("x")], Some(&bson!([1, "x", 2]))).unwrap() {
            Outcome::Set(v) => assert_eq!(v, bson!([2])),
            o => panic!("{o:?}"),
        }
        assert!(matches!(
            apply_pull_all(&[bson!(9)], Some(&bson!([1]))).unwrap(),
            Outcome::Unchanged
        ));
        assert!(matches!(
            apply_pull_all(&[bson!(9)], None).unwrap(),
            Outcome::Unchanged
        ));
        let e = apply_pull_all(&[], Some(&bson!(1))).unwrap_err();
        assert_eq!(
            (e.code(), e.message.as_str()),
            (2, "Cannot apply $pull to a non-array value")
        );
        let e = parse_pull_all(&bson!(1)).unwrap_err();
        assert_eq!(
            e.message,
            "$pullAll requires an array argument but was given a int"
        );
    }

    #[test]
    fn pull_all_of_many_values_from_a_long_array_is_not_quadratic() {
        // 100,000 elements, 50,000 values to pull: a scan per element was 5 * 10^9.
        let current = Bson::Array((0..100_000).map(Bson::Int32).collect());
        let values: Vec<Bson> = (0..50_000)
            .map(|i| Bson::Double(f64::from(i * 2)))
            .collect();
        match apply_pull_all(&values, Some(&current)).unwrap() {
            Outcome::Set(Bson::Array(kept)) => {
                assert_eq!(kept.len(), 50_000);
                assert_eq!(kept[0], Bson::Int32(1));
            }
            other => panic!("{other:?}"),
        }
    }
}
