//! `$sortArray: {input, sortBy}`. `sortBy: 1 | -1` sorts whole values in MongoDB's order;
//! `sortBy: {path: 1 | -1, ...}` compares the values at those paths, read as
//! `BSONObj::getFieldDotted` reads them (an array is entered only by a numeric index; a
//! missing value is null; a non-document element has only missing fields).
//! Parsed arguments: `[input, sortBy]` (the sort specification as a constant).

use std::cmp::Ordering;

use bson::{Bson, Document};

use super::super::operators::{Arity, OperatorDef, arg};
use super::super::{Expression, Scope, Vars};
use super::{is_nullish, type_name_of};
use crate::error::{Error, Result};
use crate::value::compare_values;

pub const OPERATORS: &[OperatorDef] = &[OperatorDef {
    name: "$sortArray",
    arity: Arity::Exactly(2),
    parse_args: parse_sort_array,
    eval: sort_array,
}];

fn parse_sort_array(_: &'static OperatorDef, arg: &Bson, scope: &Scope) -> Result<Vec<Expression>> {
    let Bson::Document(d) = arg else {
        return Err(Error::location(
            2942500,
            format!(
                "$sortArray requires an object as an argument, found: {}",
                type_name_of(&Some(arg.clone()))
            ),
        ));
    };
    let (mut input, mut sort_by) = (None, None);
    for (k, v) in d {
        match k.as_str() {
            "input" => input = Some(Expression::parse_in(v, scope)?),
            "sortBy" => {
                check_sort_by(v)?;
                sort_by = Some(v.clone());
            }
            other => {
                return Err(Error::location(
                    2942501,
                    format!("$sortArray found an unknown argument: {other}"),
                ));
            }
        }
    }
    let input = input
        .ok_or_else(|| Error::location(2942502, "$sortArray requires 'input' to be specified"))?;
    let sort_by = sort_by
        .ok_or_else(|| Error::location(2942503, "$sortArray requires 'sortBy' to be specified"))?;
    Ok(vec![input, Expression::Constant(sort_by)])
}

/// The direction of a sort value: `Some(true)` ascending, `Some(false)` descending.
fn direction(v: &Bson) -> Option<bool> {
    let n = crate::value::as_f64(v)?;
    if n == 1.0 {
        Some(true)
    } else if n == -1.0 {
        Some(false)
    } else {
        None
    }
}

fn check_sort_by(v: &Bson) -> Result<()> {
    const ONE_OR_MINUS_ONE: &str = "The $sort element value must be either 1 or -1";
    match v {
        Bson::Document(pattern) => {
            // MongoDB reports the pattern's Status whole ("BadValue: ...").
            let bad = |reason: String| Err(Error::location(2942505, format!("BadValue: {reason}")));
            if pattern.is_empty() {
                return bad("The $sort pattern is empty when it should be a set of fields.".into());
            }
            for (field, order) in pattern {
                if field.is_empty() {
                    return bad("The $sort field cannot be empty".into());
                }
                if field.split('.').any(str::is_empty) {
                    return bad(format!(
                        "The $sort field is a dotted field but has an empty part: {field}"
                    ));
                }
                if direction(order).is_none() {
                    return bad(ONE_OR_MINUS_ONE.into());
                }
            }
            Ok(())
        }
        Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_) | Bson::Decimal128(_) => {
            match direction(v) {
                Some(_) => Ok(()),
                None => Err(Error::location(2942506, ONE_OR_MINUS_ONE)),
            }
        }
        _ => Err(Error::location(
            2942507,
            "The $sort is invalid: use 1/-1 to sort the whole element, or {field:1/-1} to sort \
             embedded fields",
        )),
    }
}

fn sort_array(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let input = arg(args, 0, vars)?;
    if is_nullish(&input) {
        return Ok(Some(Bson::Null));
    }
    let Some(Bson::Array(mut items)) = input else {
        return Err(Error::location(
            2942504,
            format!(
                "The input argument to $sortArray must be an array, but was of type: {}",
                type_name_of(&input)
            ),
        ));
    };
    match args.get(1).and_then(Expression::as_constant) {
        Some(Bson::Document(pattern)) => {
            let fields: Vec<(Vec<&str>, bool)> = pattern
                .iter()
                .map(|(k, v)| (k.split('.').collect(), direction(v).unwrap_or(true)))
                .collect();
            let mut keyed: Vec<(Vec<Bson>, Bson)> = items
                .into_iter()
                .map(|item| {
                    let key = fields
                        .iter()
                        .map(|(path, _)| field_dotted(&item, path))
                        .collect();
                    (key, item)
                })
                .collect();
            crate::sort_slice::sort_by(&mut keyed, |(a, _), (b, _)| compare_keys(a, b, &fields));
            items = keyed.into_iter().map(|(_, item)| item).collect();
        }
        Some(order) => {
            let ascending = direction(order).unwrap_or(true);
            crate::sort_slice::sort_by(&mut items, |a, b| {
                let o = compare_values(a, b);
                if ascending { o } else { o.reverse() }
            });
        }
        None => {}
    }
    Ok(Some(Bson::Array(items)))
}

fn compare_keys(a: &[Bson], b: &[Bson], fields: &[(Vec<&str>, bool)]) -> Ordering {
    for ((x, y), (_, ascending)) in a.iter().zip(b).zip(fields) {
        let o = compare_values(x, y);
        if o != Ordering::Equal {
            return if *ascending { o } else { o.reverse() };
        }
    }
    Ordering::Equal
}

/// The value at a dotted path, null when missing.
fn field_dotted(item: &Bson, path: &[&str]) -> Bson {
    let Bson::Document(doc) = item else {
        return Bson::Null;
    };
    lookup(doc, path).unwrap_or(Bson::Null)
}

fn lookup(doc: &Document, path: &[&str]) -> Option<Bson> {
    let (head, rest) = path.split_first()?;
    // A field whose name contains the dots wins, as BSONObj::getField finds it first.
    let whole = path.join(".");
    if let Some(v) = doc.get(&whole) {
        return Some(v.clone());
    }
    let next = doc.get(*head)?;
    if rest.is_empty() {
        return Some(next.clone());
    }
    match next {
        Bson::Document(d) => lookup(d, rest),
        Bson::Array(items) => {
            let as_doc: Document = items
                .iter()
                .enumerate()
                .map(|(i, v)| (i.to_string(), v.clone()))
                .collect();
            lookup(&as_doc, rest)
        }
        _ => None,
    }
}
