//! `$push` with its `$each`, `$position`, `$sort` and `$slice` clauses (applied in that order).

use std::cmp::Ordering;

use bson::{Bson, Document};

use super::apply::{LeafContext, Outcome};
use super::identical::identical;
use crate::error::{Error, Result};
use crate::path::{FieldPath, lookup};
use crate::value::compare_values;
use crate::value::display::type_name;

#[derive(Debug, Clone)]
pub enum PushSort {
    /// `$sort: 1` / `-1` sorts the elements themselves.
    Whole { ascending: bool },
    /// `$sort: {field: 1, ...}` sorts embedded documents by their fields (`true`: ascending).
    /// Paths are read exactly, without walking into arrays; a missing field sorts as null.
    Fields(Vec<(FieldPath, bool)>),
}

#[derive(Debug, Clone)]
pub struct PushSpec {
    pub each: Vec<Bson>,
    pub position: Option<i64>,
    pub sort: Option<PushSort>,
    pub slice: Option<i64>,
}

fn integral(v: &Bson) -> Option<i64> {
    match v {
        Bson::Int32(i) => Some(i64::from(*i)),
        Bson::Int64(i) => Some(*i),
        Bson::Double(d) if d.fract() == 0.0 && d.abs() < 9.2e18 => Some(*d as i64),
        _ => None,
    }
}

pub fn parse(operand: &Bson) -> Result<PushSpec> {
    let clauses = match operand {
        Bson::Document(d) if d.contains_key("$each") => d,
        other => {
            return Ok(PushSpec {
                each: vec![other.clone()],
                position: None,
                sort: None,
                slice: None,
            });
        }
    };
    let mut spec = PushSpec {
        each: Vec::new(),
        position: None,
        sort: None,
        slice: None,
    };
    for (k, v) in clauses {
        match k.as_str() {
            "$each" => match v {
                Bson::Array(items) => spec.each = items.clone(),
                other => {
                    return Err(Error::bad_value(format!(
                        "The argument to $each in $push must be an array but it was of type: {}",
                        type_name(other)
                    )));
                }
            },
            "$slice" => {
                spec.slice = Some(integral(v).ok_or_else(|| {
                    Error::bad_value(format!(
                        "The value for $slice must be an integer value but was given type: {}",
                        type_name(v)
                    ))
                })?);
            }
            "$position" => {
                spec.position = Some(integral(v).ok_or_else(|| {
                    Error::bad_value(format!(
                        "The value for $position must be an integer value, not of type: {}",
                        type_name(v)
                    ))
                })?);
            }
            "$sort" => spec.sort = Some(parse_sort(v)?),
            other => {
                return Err(Error::bad_value(format!(
                    "Unrecognized clause in $push: {other}"
                )));
            }
        }
    }
    Ok(spec)
}

fn parse_sort(v: &Bson) -> Result<PushSort> {
    let invalid = || {
        Error::bad_value(
            "The $sort is invalid: use 1/-1 to sort the whole element, or {field:1/-1} to sort embedded fields",
        )
    };
    match v {
        Bson::Document(pattern) => {
            if pattern.is_empty() {
                return Err(Error::bad_value(
                    "The $sort pattern is empty when it should be a set of fields.",
                ));
            }
            let mut keys = Vec::with_capacity(pattern.len());
            for (field, dir) in pattern {
                if field.split('.').any(str::is_empty) {
                    return Err(Error::bad_value(format!(
                        "The $sort field is a dotted field but has an empty part: {field}"
                    )));
                }
                let ascending = match integral(dir) {
                    Some(1) => true,
                    Some(-1) => false,
                    _ => {
                        return Err(Error::bad_value(
                            "The $sort element value must be either 1 or -1",
                        ));
                    }
                };
                keys.push((FieldPath::parse(field), ascending));
            }
            Ok(PushSort::Fields(keys))
        }
        other => match integral(other) {
            Some(1) => Ok(PushSort::Whole { ascending: true }),
            Some(-1) => Ok(PushSort::Whole { ascending: false }),
            _ => Err(invalid()),
        },
    }
}

pub fn apply(spec: &PushSpec, current: Option<&Bson>, cx: &LeafContext) -> Result<Outcome> {
    let mut items = match current {
        None => Vec::new(),
        Some(Bson::Array(a)) => a.clone(),
        Some(other) => {
            return Err(Error::bad_value(format!(
                "The field '{}' must be an array but is of type {} in document {{{}}}",
                cx.field,
                type_name(other),
                cx.id_text()
            )));
        }
    };
    let len = items.len() as i64;
    let at = match spec.position {
        None => len,
        Some(p) if p >= 0 => p.min(len),
        Some(p) => (len + p).max(0),
    };
    let at = usize::try_from(at).unwrap_or(items.len()).min(items.len());
    items.splice(at..at, spec.each.iter().cloned());
    if let Some(sort) = &spec.sort {
        sort_elements(&mut items, sort);
    }
    if let Some(slice) = spec.slice {
        let n = usize::try_from(slice.unsigned_abs()).unwrap_or(usize::MAX);
        if slice >= 0 {
            items.truncate(n);
        } else if n < items.len() {
            items.drain(..items.len() - n);
        }
    }
    let result = Bson::Array(items);
    // MongoDB counts a `$push` with `$sort` as a modification even when the order does not
    // change (PushNode::performPush reports kNormalUpdate after sorting).
    match current {
        Some(existing) if spec.sort.is_none() && identical(existing, &result) => {
            Ok(Outcome::Unchanged)
        }
        _ => Ok(Outcome::Set(result)),
    }
}

fn sort_elements(items: &mut [Bson], sort: &PushSort) {
    match sort {
        PushSort::Whole { ascending } => crate::sort_slice::sort_by(items, |a, b| {
            let o = compare_values(a, b);
            if *ascending { o } else { o.reverse() }
        }),
        PushSort::Fields(keys) => {
            crate::sort_slice::sort_by(items, |a, b| compare_by_fields(keys, a, b))
        }
    }
}

fn compare_by_fields(keys: &[(FieldPath, bool)], a: &Bson, b: &Bson) -> Ordering {
    let empty = Document::new();
    let as_doc = |v: &'_ Bson| -> Document {
        match v {
            Bson::Document(d) => d.clone(),
            _ => empty.clone(),
        }
    };
    let (x, y) = (as_doc(a), as_doc(b));
    for (path, ascending) in keys {
        let vx = lookup(&x, path).unwrap_or(&Bson::Null);
        let vy = lookup(&y, path).unwrap_or(&Bson::Null);
        let o = compare_values(vx, vy);
        let o = if *ascending { o } else { o.reverse() };
        if o != Ordering::Equal {
            return o;
        }
    }
    Ordering::Equal
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::{bson, doc};

    fn push(cur: Option<Bson>, operand: Bson) -> Result<Outcome> {
        let original = doc! {"_id": 1};
        let cx = LeafContext::for_tests(&original, "a");
        apply(&parse(&operand)?, cur.as_ref(), &cx)
    }

    fn array(o: Result<Outcome>) -> Bson {
        match o {
            Ok(Outcome::Set(v)) => v,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn plain_and_each() {
        assert_eq!(array(push(None, bson!(1))), bson!([1]));
        assert_eq!(array(push(Some(bson!([1])), bson!([2]))), bson!([1, [2]]));
        assert_eq!(
            array(push(Some(bson!([1])), bson!({"$each": [2, 3]}))),
            bson!([1, 2, 3])
        );
        assert_eq!(array(push(None, bson!({"$each": []}))), bson!([]));
        assert!(matches!(
            push(Some(bson!([1])), bson!({"$each": []})),
            Ok(Outcome::Unchanged)
        ));
    }

    #[test]
    fn position_sort_slice() {
        let cur = Some(bson!([1, 2, 3]));
        assert_eq!(
            array(push(cur.clone(), bson!({"$each": [9], "$position": 0}))),
            bson!([9, 1, 2, 3])
        );
        assert_eq!(
            array(push(cur.clone(), bson!({"$each": [9], "$position": -1}))),
            bson!([1, 2, 9, 3])
        );
        assert_eq!(
            array(push(
                cur.clone(),
                bson!({"$each": [0], "$sort": -1, "$slice": 2})
            )),
            bson!([3, 2])
        );
        assert_eq!(
            array(push(cur.clone(), bson!({"$each": [4], "$slice": -2}))),
            bson!([3, 4])
        );
        let docs = Some(bson!([{"s": 3}, {"s": 1}]));
        assert_eq!(
            array(push(docs, bson!({"$each": [{"s": 2}], "$sort": {"s": 1}}))),
            bson!([{"s": 1}, {"s": 2}, {"s": 3}])
        );
        // Sort paths do not walk into arrays: b.c is missing in every element here.
        // The array keeps its order but, sorted, still counts as modified (as in MongoDB).
        let nested = Some(bson!([{"b": [{"c": 5}]}, {"b": [{"c": 1}]}]));
        assert_eq!(
            array(push(nested, bson!({"$each": [], "$sort": {"b.c": 1}}))),
            bson!([{"b": [{"c": 5}]}, {"b": [{"c": 1}]}])
        );
        let embedded = Some(bson!([{"b": {"c": 5}}, {"b": {"c": 1}}, 7]));
        assert_eq!(
            array(push(embedded, bson!({"$each": [], "$sort": {"b.c": 1}}))),
            bson!([7, {"b": {"c": 1}}, {"b": {"c": 5}}])
        );
    }

    #[test]
    fn errors() {
        let e = push(Some(bson!(5)), bson!(1)).unwrap_err();
        assert_eq!(
            (e.code(), e.message.as_str()),
            (
                2,
                "The field 'a' must be an array but is of type int in document {_id: 1}"
            )
        );
        let msg = |b: Bson| parse(&b).unwrap_err().message;
        assert_eq!(
            msg(bson!({"$each": 1})),
            "The argument to $each in $push must be an array but it was of type: int"
        );
        assert_eq!(
            msg(bson!({"$each": [], "$slice": "x"})),
            "The value for $slice must be an integer value but was given type: string"
        );
        assert_eq!(
            msg(bson!({"$each": [], "$position": 1.5})),
            "The value for $position must be an integer value, not of type: double"
        );
        assert_eq!(
            msg(bson!({"$each": [], "$foo": 1})),
            "Unrecognized clause in $push: $foo"
        );
        assert_eq!(
            msg(bson!({"$each": [], "$sort": {}})),
            "The $sort pattern is empty when it should be a set of fields."
        );
        assert_eq!(
            msg(bson!({"$each": [], "$sort": {"a": 2}})),
            "The $sort element value must be either 1 or -1"
        );
        assert!(msg(bson!({"$each": [], "$sort": "x"})).starts_with("The $sort is invalid"));
    }
}
