//! Reading and combining arrays: `$arrayElemAt $first $last $concatArrays $in $indexOfArray
//! $reverseArray $size $slice`.

use bson::Bson;

use super::super::memory::{ArrayBudget, value_memory};
use super::super::operators::arg;
use super::super::{Expression, Vars};
use super::{
    as_int32, constant_value, double_text, is_nullish, is_numeric, type_name_of, value_text,
};
use crate::error::{Error, Result};
use crate::value::values_equal;

pub(super) fn array_elem_at(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let array = arg(args, 0, vars)?;
    let index = arg(args, 1, vars)?;
    element_at("$arrayElemAt", "first argument", array, index)
}

pub(super) fn first(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    element_at(
        "$first",
        "argument",
        arg(args, 0, vars)?,
        Some(Bson::Int32(0)),
    )
}

pub(super) fn last(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    element_at(
        "$last",
        "argument",
        arg(args, 0, vars)?,
        Some(Bson::Int32(-1)),
    )
}

/// MongoDB's `arrayElemAt`: null for a nullish array or index, missing when out of bounds.
fn element_at(
    op: &str,
    which: &str,
    array: Option<Bson>,
    index: Option<Bson>,
) -> Result<Option<Bson>> {
    if is_nullish(&array) || is_nullish(&index) {
        return Ok(Some(Bson::Null));
    }
    let Some(Bson::Array(items)) = array else {
        return Err(Error::location(
            28689,
            format!(
                "{op}'s {which} must be an array, but is {}",
                type_name_of(&array)
            ),
        ));
    };
    let index = index.unwrap_or(Bson::Null);
    if !is_numeric(&index) {
        return Err(Error::location(
            28690,
            format!(
                "{op}'s second argument must be a numeric value, but is {}",
                type_name_of(&Some(index))
            ),
        ));
    }
    let Some(i) = as_int32(&index) else {
        return Err(Error::location(
            28691,
            format!(
                "{op}'s second argument must be representable as a 32-bit integer: {}",
                double_text(&index)
            ),
        ));
    };
    let len = items.len();
    let position = if i < 0 {
        let back = usize::try_from(i.unsigned_abs()).unwrap_or(usize::MAX);
        if back > len {
            return Ok(None);
        }
        len - back
    } else {
        usize::try_from(i).unwrap_or(usize::MAX)
    };
    Ok(items.into_iter().nth(position))
}

pub(super) fn concat_arrays(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let mut out = Vec::new();
    // Everything the elements own: Sprout copies them where MongoDB shares, so
    // `["$$value", "$$value"]` doubles the memory even when the elements are arrays. Counting
    // walks what the copy copies, so it adds no more than a constant to the copy's cost.
    let mut budget = ArrayBudget::new("$concatArrays");
    for a in args {
        let v = a.eval(vars)?;
        if is_nullish(&v) {
            return Ok(Some(Bson::Null));
        }
        match v {
            Some(Bson::Array(items)) => {
                for item in &items {
                    budget.add(value_memory(item))?;
                }
                out.extend(items);
            }
            other => {
                return Err(Error::location(
                    28664,
                    format!(
                        "$concatArrays only supports arrays, not {}",
                        type_name_of(&other)
                    ),
                ));
            }
        }
    }
    Ok(Some(Bson::Array(out)))
}

pub(super) fn in_array(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    // MongoDB's value comparison ranks missing with undefined (below null).
    let needle = arg(args, 0, vars)?.unwrap_or(Bson::Undefined);
    let hay = arg(args, 1, vars)?;
    let Some(Bson::Array(items)) = &hay else {
        return Err(Error::location(
            40081,
            format!(
                "$in requires an array as a second argument, found: {}",
                type_name_of(&hay)
            ),
        ));
    };
    Ok(Some(Bson::Boolean(
        items.iter().any(|v| values_equal(v, &needle)),
    )))
}

pub(super) fn index_of_array(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    // MongoDB checks a constant array while optimizing (code 50809) unless every argument is
    // constant, in which case the whole expression is folded by the ordinary evaluation.
    let all_constant = args.iter().all(|a| constant_value(a).is_some());
    let constant_array = args.first().and_then(constant_value);
    let array = arg(args, 0, vars)?;
    if is_nullish(&array) {
        return Ok(Some(Bson::Null));
    }
    let Some(Bson::Array(items)) = array else {
        let (code, message) = match constant_array {
            Some(_) if !all_constant => (
                50809,
                "First operand of $indexOfArray must be an array. First argument is of type: ",
            ),
            _ => (
                40090,
                "$indexOfArray requires an array as a first argument, found: ",
            ),
        };
        return Err(Error::location(
            code,
            format!("{message}{}", type_name_of(&array)),
        ));
    };
    let start = match args.get(2) {
        Some(e) => index_argument(e.eval(vars)?, "starting index")?,
        None => 0,
    };
    let end = match args.get(3) {
        Some(e) => index_argument(e.eval(vars)?, "ending index")?.min(items.len()),
        None => items.len(),
    };
    let target = arg(args, 1, vars)?.unwrap_or(Bson::Undefined);
    let found = items
        .get(start..end.max(start))
        .and_then(|range| range.iter().position(|v| values_equal(v, &target)))
        .map(|i| i + start);
    Ok(Some(Bson::Int32(
        found.and_then(|i| i32::try_from(i).ok()).unwrap_or(-1),
    )))
}

/// A start or end index of `$indexOfArray`: a non-negative 32-bit integer.
fn index_argument(v: Option<Bson>, name: &str) -> Result<usize> {
    let Some(i) = v.as_ref().and_then(as_int32) else {
        // MongoDB's message lacks the space after the operator name.
        return Err(Error::location(
            40096,
            format!(
                "$indexOfArrayrequires an integral {name}, found a value of type: {}, with \
                 value: {}",
                type_name_of(&v),
                value_text(&v)
            ),
        ));
    };
    usize::try_from(i).map_err(|_| {
        Error::location(
            40097,
            format!(
                "$indexOfArray requires a nonnegative {name}, found: {}",
                value_text(&v)
            ),
        )
    })
}

pub(super) fn reverse_array(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let v = arg(args, 0, vars)?;
    if is_nullish(&v) {
        return Ok(Some(Bson::Null));
    }
    match v {
        Some(Bson::Array(mut items)) => {
            items.reverse();
            Ok(Some(Bson::Array(items)))
        }
        other => Err(Error::location(
            34435,
            format!(
                "The argument to $reverseArray must be an array, but was of type: {}",
                type_name_of(&other)
            ),
        )),
    }
}

pub(super) fn size(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let v = arg(args, 0, vars)?;
    match &v {
        Some(Bson::Array(items)) => Ok(Some(match i32::try_from(items.len()) {
            Ok(n) => Bson::Int32(n),
            Err(_) => Bson::Int64(i64::try_from(items.len()).unwrap_or(i64::MAX)),
        })),
        _ => Err(Error::location(
            17124,
            format!(
                "The argument to $size must be an array, but was of type: {}",
                type_name_of(&v)
            ),
        )),
    }
}

pub(super) fn slice(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let array = arg(args, 0, vars)?;
    // Either the count (two arguments) or the start position (three).
    let second = arg(args, 1, vars)?;
    if is_nullish(&array) || is_nullish(&second) {
        return Ok(Some(Bson::Null));
    }
    let Some(Bson::Array(items)) = array else {
        return Err(Error::location(
            28724,
            format!(
                "First argument to $slice must be an array, but is of type: {}",
                type_name_of(&array)
            ),
        ));
    };
    let second = second.unwrap_or(Bson::Null);
    let position = slice_integer(
        &second,
        "Second",
        28725,
        28726,
        "must be a numeric value, but",
    )?;
    let len = items.len();
    let from_back = |n: i32| len.saturating_sub(usize::try_from(n.unsigned_abs()).unwrap_or(len));
    let (start, end) = if args.len() == 2 {
        if position >= 0 {
            (0, len.min(usize::try_from(position).unwrap_or(len)))
        } else {
            (from_back(position), len)
        }
    } else {
        let start = if position < 0 {
            from_back(position)
        } else {
            len.min(usize::try_from(position).unwrap_or(len))
        };
        let count = arg(args, 2, vars)?;
        if is_nullish(&count) {
            return Ok(Some(Bson::Null));
        }
        let count = count.unwrap_or(Bson::Null);
        let n = slice_integer(&count, "Third", 28727, 28728, "must be numeric, but")?;
        if n <= 0 {
            return Err(Error::location(
                28729,
                format!("Third argument to $slice must be positive: {n}"),
            ));
        }
        let n = usize::try_from(n).unwrap_or(0);
        (start, start.saturating_add(n).min(len))
    };
    Ok(Some(Bson::Array(
        items.into_iter().skip(start).take(end - start).collect(),
    )))
}

/// The second or third argument of `$slice` as a 32-bit integer.
fn slice_integer(
    v: &Bson,
    which: &str,
    type_code: i32,
    range_code: i32,
    wording: &str,
) -> Result<i32> {
    if !is_numeric(v) {
        return Err(Error::location(
            type_code,
            format!(
                "{which} argument to $slice {wording} is of type: {}",
                type_name_of(&Some(v.clone()))
            ),
        ));
    }
    as_int32(v).ok_or_else(|| {
        Error::location(
            range_code,
            format!(
                "{which} argument to $slice can't be represented as a 32-bit integer: {}",
                double_text(v)
            ),
        )
    })
}
