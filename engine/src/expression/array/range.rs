//! `$range`: the 32-bit integers from a start up to (not including) an end, by a step.

use bson::Bson;

use super::super::memory::{self, MAX_BUILT_ARRAY_BYTES};
use super::super::operators::arg;
use super::super::{Expression, Vars};
use super::{as_int32, is_numeric, type_name_of, value_text};
use crate::error::{Error, ErrorCode, Result};

/// MongoDB's `internalQueryMaxRangeBytes` default (100 MB), applied to what the array costs in
/// Sprout's memory (see `expression::memory`).
const MAX_RANGE_BYTES: i64 = MAX_BUILT_ARRAY_BYTES as i64;
const VALUE_BYTES: i64 = memory::VALUE_BYTES as i64;
const VECTOR_BYTES: i64 = memory::VECTOR_BYTES as i64;

pub(super) fn range(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let start = arg(args, 0, vars)?;
    let end = arg(args, 1, vars)?;
    let current = bound(&start, "a starting value", 34443, 34444)?;
    let end = bound(&end, "an ending value", 34445, 34446)?;
    let step = match args.get(2) {
        None => 1,
        Some(e) => {
            let v = e.eval(vars)?;
            if !v.as_ref().is_some_and(is_numeric) {
                return Err(Error::location(
                    34447,
                    format!(
                        "$range requires a numeric step value, found value of type:{}",
                        type_name_of(&v)
                    ),
                ));
            }
            let Some(step) = v.as_ref().and_then(as_int32) else {
                return Err(Error::location(
                    34448,
                    format!(
                        "$range requires a step value that can be represented as a 32-bit \
                         integer, found value: {}",
                        value_text(&v)
                    ),
                ));
            };
            if step == 0 {
                return Err(Error::location(
                    34449,
                    "$range requires a non-zero step value",
                ));
            }
            i64::from(step)
        }
    };
    let steps = (end - current) / step;
    let length = if steps >= 0 { 1 + steps } else { 0 };
    let needed = VECTOR_BYTES + length * VALUE_BYTES;
    if needed >= MAX_RANGE_BYTES {
        return Err(Error::new(
            ErrorCode::ExceededMemoryLimit,
            format!(
                "$range would use too much memory ({needed} bytes) and cannot spill to disk. \
                 Memory limit: {MAX_RANGE_BYTES} bytes"
            ),
        ));
    }
    let mut out = Vec::with_capacity(usize::try_from(length).unwrap_or(0));
    let mut value = current;
    while if step > 0 { value < end } else { value > end } {
        out.push(Bson::Int32(i32::try_from(value).unwrap_or_default()));
        value += step;
    }
    Ok(Some(Bson::Array(out)))
}

/// The start or end of the range as an integer.
fn bound(v: &Option<Bson>, what: &str, type_code: i32, range_code: i32) -> Result<i64> {
    if !v.as_ref().is_some_and(is_numeric) {
        return Err(Error::location(
            type_code,
            format!(
                "$range requires a numeric {} value, found value of type: {}",
                what.trim_start_matches("a ")
                    .trim_start_matches("an ")
                    .trim_end_matches(" value"),
                type_name_of(v)
            ),
        ));
    }
    v.as_ref().and_then(as_int32).map(i64::from).ok_or_else(|| {
        Error::location(
            range_code,
            format!(
                "$range requires {what} that can be represented as a 32-bit integer, found \
                 value: {}",
                value_text(v)
            ),
        )
    })
}
