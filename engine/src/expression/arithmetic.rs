//! `$add $subtract $multiply $divide $mod $abs`, with MongoDB's numeric widening: int32 results
//! that overflow become int64, int64 results that overflow become double; any double makes a
//! double, any decimal a decimal. Null or missing arguments give null.
//!
//! Decimal `$add`, `$subtract`, `$multiply`, `$divide` and `$mod` are exact (34 digits, half
//! to even; doubles enter as 15-digit decimals as in MongoDB).

use bson::{Bson, DateTime};

use super::math::{Rounding, nullish, quantize};

use super::array::type_name_of;
use super::operators::{Arity, OperatorDef, arg, positional_def as def};
use super::{Expression, Vars};
use crate::error::{Error, ErrorCode, Result};
use crate::value::Decimal;

pub const OPERATORS: &[OperatorDef] = &[
    def("$add", Arity::Any, add),
    def("$subtract", Arity::Exactly(2), subtract),
    def("$multiply", Arity::Any, multiply),
    def("$divide", Arity::Exactly(2), divide),
    def("$mod", Arity::Exactly(2), modulo),
];

/// A number during arithmetic.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Num {
    Int(i32),
    Long(i64),
    Double(f64),
    Decimal(Decimal),
}

impl Num {
    pub(super) fn from_bson(v: &Bson) -> Option<Num> {
        Some(match v {
            Bson::Int32(i) => Num::Int(*i),
            Bson::Int64(i) => Num::Long(*i),
            Bson::Double(d) => Num::Double(*d),
            Bson::Decimal128(d) => Num::Decimal(Decimal::from_bson(d)),
            _ => return None,
        })
    }

    pub(super) fn as_f64(self) -> f64 {
        match self {
            Num::Int(i) => f64::from(i),
            Num::Long(i) => i as f64,
            Num::Double(d) => d,
            Num::Decimal(d) => d.to_f64(),
        }
    }

    /// The value as a decimal, as MongoDB widens it for decimal arithmetic.
    pub(super) fn as_decimal(self) -> Decimal {
        match self {
            Num::Int(i) => Decimal::from_i64(i64::from(i)),
            Num::Long(i) => Decimal::from_i64(i),
            Num::Double(d) => Decimal::from_f64_arithmetic(d),
            Num::Decimal(d) => d,
        }
    }

    pub(super) fn as_i64(self) -> Option<i64> {
        match self {
            Num::Int(i) => Some(i64::from(i)),
            Num::Long(i) => Some(i),
            _ => None,
        }
    }

    /// The value as an i64 when it is integral (a double or decimal without a fraction).
    pub(super) fn as_integral(self) -> Option<i64> {
        match self {
            Num::Int(i) => Some(i64::from(i)),
            Num::Long(i) => Some(i),
            Num::Double(d) if d.fract() == 0.0 && d.abs() < 9.3e18 => Some(d as i64),
            Num::Double(_) => None,
            Num::Decimal(d) => {
                let whole = d.to_i64_truncated()?;
                (Decimal::from_i64(whole).total_cmp(&d).is_eq()).then_some(whole)
            }
        }
    }

    fn is_zero(self) -> bool {
        self.as_f64() == 0.0
    }

    pub(super) fn into_bson(self) -> Bson {
        match self {
            Num::Int(i) => Bson::Int32(i),
            Num::Long(i) => Bson::Int64(i),
            // fmod and friends may produce a negative NaN; MongoDB writes the plain one.
            Num::Double(d) if d.is_nan() => Bson::Double(f64::NAN),
            Num::Double(d) => Bson::Double(d),
            Num::Decimal(d) => Bson::Decimal128(d.to_decimal128()),
        }
    }
}

/// The operations of one arithmetic operator on each numeric type.
struct Ops {
    int: fn(i64, i64) -> Option<i64>,
    float: fn(f64, f64) -> f64,
    decimal: fn(&Decimal, &Decimal) -> Decimal,
}

const ADD: Ops = Ops {
    int: i64::checked_add,
    float: |x, y| x + y,
    decimal: Decimal::add,
};
const SUB: Ops = Ops {
    int: i64::checked_sub,
    float: |x, y| x - y,
    decimal: Decimal::sub,
};
const MUL: Ops = Ops {
    int: i64::checked_mul,
    float: |x, y| x * y,
    decimal: Decimal::mul,
};
const MOD: Ops = Ops {
    int: |x, y| Some(x.wrapping_rem(y)),
    float: |x, y| x % y,
    decimal: decimal_remainder,
};

/// Applies an operation with MongoDB's widening: decimal if either is, else double if either
/// is, else integers (int32 overflowing to int64, int64 overflowing to double).
fn combine(a: Num, b: Num, ops: &Ops) -> Num {
    let (int_op, float_op) = (ops.int, ops.float);
    match (a, b) {
        (Num::Decimal(_), _) | (_, Num::Decimal(_)) => {
            Num::Decimal((ops.decimal)(&a.as_decimal(), &b.as_decimal()))
        }
        (Num::Double(_), _) | (_, Num::Double(_)) => Num::Double(float_op(a.as_f64(), b.as_f64())),
        _ => {
            let (x, y) = (a.as_i64().unwrap_or(0), b.as_i64().unwrap_or(0));
            match int_op(x, y) {
                Some(r) if matches!((a, b), (Num::Int(_), Num::Int(_))) => {
                    i32::try_from(r).map_or(Num::Long(r), Num::Int)
                }
                Some(r) => Num::Long(r),
                None => Num::Double(float_op(x as f64, y as f64)),
            }
        }
    }
}

/// The decimal remainder of `x / y` with the sign of `x` (C's `fmod`), exact when the two
/// coefficients can be aligned in 128 bits.
fn decimal_remainder(x: &Decimal, y: &Decimal) -> Decimal {
    match (*x, *y) {
        (Decimal::NaN, _) | (_, Decimal::NaN) | (Decimal::Infinity { .. }, _) => Decimal::NaN,
        (_, Decimal::Infinity { .. }) => *x,
        (
            Decimal::Finite {
                negative,
                coefficient: cx,
                exponent: ex,
            },
            Decimal::Finite {
                coefficient: cy,
                exponent: ey,
                ..
            },
        ) => {
            let e = ex.min(ey);
            let scale = |c: u128, from: i32| {
                10u128
                    .checked_pow(u32::try_from(from - e).ok()?)
                    .and_then(|s| c.checked_mul(s))
            };
            match (scale(cx, ex), scale(cy, ey)) {
                (Some(a), Some(b)) if b != 0 => Decimal::Finite {
                    negative,
                    coefficient: a % b,
                    exponent: e,
                },
                _ => Decimal::from_f64_arithmetic(x.to_f64() % y.to_f64()),
            }
        }
    }
}

/// Whether a double truncates to an i64 (the upper bound is exclusive: i64::MAX rounds up to
/// 2^63 as a double).
pub(super) fn fits_i64(d: f64) -> bool {
    (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&d)
}

fn date_overflow() -> Error {
    Error::new(ErrorCode::Overflow, "date overflow")
}

/// A number as whole milliseconds to add to a date: doubles round half away from zero,
/// decimals half to even; values outside the long range overflow.
fn millis_delta(n: Num) -> Result<i64> {
    match n {
        Num::Int(i) => Ok(i64::from(i)),
        Num::Long(i) => Ok(i),
        Num::Double(d) => {
            if fits_i64(d) {
                Ok(d.round() as i64)
            } else {
                Err(date_overflow())
            }
        }
        Num::Decimal(d) => quantize(d, 0, Rounding::HalfEven)
            .to_i64_truncated()
            .ok_or_else(date_overflow),
    }
}

fn add(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let mut total = Num::Int(0);
    // Once a date is seen, the sum is kept in whole milliseconds.
    let mut date: Option<Result<i64>> = None;
    for a in args {
        let v = a.eval(vars)?;
        if nullish(&v) {
            return Ok(Some(Bson::Null));
        }
        if let Some(Bson::DateTime(d)) = &v {
            if date.is_some() {
                return Err(Error::location(
                    16612,
                    "only one date allowed in an $add expression",
                ));
            }
            date = Some(millis_delta(total).and_then(|so_far| {
                so_far
                    .checked_add(d.timestamp_millis())
                    .ok_or_else(date_overflow)
            }));
            continue;
        }
        let Some(n) = v.as_ref().and_then(Num::from_bson) else {
            return Err(Error::type_mismatch(format!(
                "$add only supports numeric or date types, not {}",
                type_name_of(&v)
            )));
        };
        // An overflow is reported only after every argument is read, as MongoDB converts
        // the sum back to a date at the end: a later null still makes the result null.
        match date {
            Some(Ok(ms)) => {
                date = Some(
                    millis_delta(n)
                        .and_then(|delta| ms.checked_add(delta).ok_or_else(date_overflow)),
                );
            }
            Some(Err(_)) => {}
            None => total = combine(total, n, &ADD),
        }
    }
    Ok(Some(match date {
        Some(ms) => Bson::DateTime(DateTime::from_millis(ms?)),
        None => total.into_bson(),
    }))
}

fn subtract(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let a = arg(args, 0, vars)?;
    let b = arg(args, 1, vars)?;
    let (x, y) = (
        a.as_ref().and_then(Num::from_bson),
        b.as_ref().and_then(Num::from_bson),
    );
    if let (Some(x), Some(y)) = (x, y) {
        return Ok(Some(combine(x, y, &SUB).into_bson()));
    }
    if nullish(&a) || nullish(&b) {
        return Ok(Some(Bson::Null));
    }
    match (&a, &b) {
        (Some(Bson::DateTime(x)), Some(Bson::DateTime(y))) => Ok(Some(Bson::Int64(
            x.timestamp_millis().wrapping_sub(y.timestamp_millis()),
        ))),
        (Some(Bson::DateTime(x)), _) => {
            let Some(n) = y else {
                return Err(Error::type_mismatch(format!(
                    "can't $subtract {} from Date",
                    type_name_of(&b)
                )));
            };
            let ms = x
                .timestamp_millis()
                .checked_sub(millis_delta(n)?)
                .ok_or_else(date_overflow)?;
            Ok(Some(Bson::DateTime(DateTime::from_millis(ms))))
        }
        _ => Err(Error::type_mismatch(format!(
            "can't $subtract {} from {}",
            type_name_of(&b),
            type_name_of(&a)
        ))),
    }
}

fn multiply(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let mut total = Num::Int(1);
    for a in args {
        let v = a.eval(vars)?;
        if nullish(&v) {
            return Ok(Some(Bson::Null));
        }
        let Some(n) = v.as_ref().and_then(Num::from_bson) else {
            return Err(Error::type_mismatch(format!(
                "$multiply only supports numeric types, not {}",
                type_name_of(&v)
            )));
        };
        total = combine(total, n, &MUL);
    }
    Ok(Some(total.into_bson()))
}

/// Two evaluated arguments, and both as numbers when they are.
type TwoNumbers = (Option<(Num, Num)>, [Option<Bson>; 2]);

/// Both arguments evaluated, and as numbers when both are.
fn two_numbers(args: &[Expression], vars: &Vars<'_>) -> Result<TwoNumbers> {
    let a = arg(args, 0, vars)?;
    let b = arg(args, 1, vars)?;
    let nums = match (
        a.as_ref().and_then(Num::from_bson),
        b.as_ref().and_then(Num::from_bson),
    ) {
        (Some(x), Some(y)) => Some((x, y)),
        _ => None,
    };
    Ok((nums, [a, b]))
}

fn divide(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let (nums, [a, b]) = two_numbers(args, vars)?;
    let Some((x, y)) = nums else {
        if nullish(&a) || nullish(&b) {
            return Ok(Some(Bson::Null));
        }
        return Err(Error::type_mismatch(format!(
            "$divide only supports numeric types, not {} and {}",
            type_name_of(&a),
            type_name_of(&b)
        )));
    };
    let by_zero = || Error::bad_value("can't $divide by zero");
    Ok(Some(match (x, y) {
        (Num::Decimal(_), _) | (_, Num::Decimal(_)) => {
            if y.is_zero() {
                return Err(by_zero());
            }
            match x.as_decimal().div(&y.as_decimal()) {
                Some(q) => Bson::Decimal128(q.to_decimal128()),
                None => return Err(by_zero()),
            }
        }
        _ => {
            if y.as_f64() == 0.0 {
                return Err(by_zero());
            }
            Bson::Double(x.as_f64() / y.as_f64())
        }
    }))
}

fn modulo(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let (nums, [a, b]) = two_numbers(args, vars)?;
    let Some((x, y)) = nums else {
        if nullish(&a) || nullish(&b) {
            return Ok(Some(Bson::Null));
        }
        return Err(Error::location(
            16611,
            format!(
                "$mod only supports numeric types, not {} and {}",
                type_name_of(&a),
                type_name_of(&b)
            ),
        ));
    };
    if y.is_zero() {
        let decimal = matches!(x, Num::Decimal(_)) || matches!(y, Num::Decimal(_));
        return Err(Error::location(
            if decimal { 5733415 } else { 16610 },
            "can't $mod by zero",
        ));
    }
    // A divisor that is a double holding an int-sized whole number counts as an int, so
    // `{$mod: [5, 3.0]}` stays an int; a double dividend always gives a double.
    let y = match (x, y) {
        (Num::Int(_) | Num::Long(_), Num::Double(d))
            if d.fract() == 0.0 && d >= f64::from(i32::MIN) && d <= f64::from(i32::MAX) =>
        {
            Num::Int(d as i32)
        }
        _ => y,
    };
    Ok(Some(combine(x, y, &MOD).into_bson()))
}
