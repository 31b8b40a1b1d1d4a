//! `$add $subtract $multiply $divide $mod $abs`, with MongoDB's numeric widening: int32 results
//! that overflow become int64, int64 results that overflow become double; any double makes a
//! double, any decimal a decimal. Null or missing arguments give null.
//!
//! Decimal `$add`, `$subtract`, `$multiply` and `$divide` are exact (34 digits, half to even;
//! doubles enter as 15-digit decimals as in MongoDB); decimal `$mod` is computed in double
//! precision and stored back as a decimal (not exact yet).

use bson::{Bson, DateTime};

use super::array::type_name_of;
use super::operators::{Arity, OperatorDef, arg, positional};
use super::{Expression, Vars};
use crate::error::{Error, Result};
use crate::value::Decimal;

pub const OPERATORS: &[OperatorDef] = &[
    def("$add", Arity::Any, add),
    def("$subtract", Arity::Exactly(2), subtract),
    def("$multiply", Arity::Any, multiply),
    def("$divide", Arity::Exactly(2), divide),
    def("$mod", Arity::Exactly(2), modulo),
    def("$abs", Arity::Exactly(1), abs),
];

const fn def(name: &'static str, arity: Arity, eval: super::operators::Eval) -> OperatorDef {
    OperatorDef {
        name,
        arity,
        parse_args: positional,
        eval,
    }
}

/// A number during arithmetic.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Num {
    Int(i32),
    Long(i64),
    Double(f64),
    Decimal(Decimal),
}

impl Num {
    fn from_bson(v: &Bson) -> Option<Num> {
        Some(match v {
            Bson::Int32(i) => Num::Int(*i),
            Bson::Int64(i) => Num::Long(*i),
            Bson::Double(d) => Num::Double(*d),
            Bson::Decimal128(d) => Num::Decimal(Decimal::from_bson(d)),
            _ => return None,
        })
    }

    fn as_f64(self) -> f64 {
        match self {
            Num::Int(i) => f64::from(i),
            Num::Long(i) => i as f64,
            Num::Double(d) => d,
            Num::Decimal(d) => d.to_f64(),
        }
    }

    /// The value as a decimal, as MongoDB widens it for decimal arithmetic.
    fn as_decimal(self) -> Decimal {
        match self {
            Num::Int(i) => Decimal::from_i64(i64::from(i)),
            Num::Long(i) => Decimal::from_i64(i),
            Num::Double(d) => Decimal::from_f64_arithmetic(d),
            Num::Decimal(d) => d,
        }
    }

    fn as_i64(self) -> Option<i64> {
        match self {
            Num::Int(i) => Some(i64::from(i)),
            Num::Long(i) => Some(i),
            _ => None,
        }
    }

    fn is_zero(self) -> bool {
        self.as_f64() == 0.0
    }

    fn into_bson(self) -> Bson {
        match self {
            Num::Int(i) => Bson::Int32(i),
            Num::Long(i) => Bson::Int64(i),
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
    decimal: |x, y| Decimal::from_f64_arithmetic(x.to_f64() % y.to_f64()),
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

fn add(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let mut total = Num::Int(0);
    let mut date: Option<i64> = None;
    for a in args {
        let v = a.eval(vars)?;
        match &v {
            None | Some(Bson::Null | Bson::Undefined) => return Ok(Some(Bson::Null)),
            Some(Bson::DateTime(d)) => {
                if date.is_some() {
                    return Err(Error::location(
                        16612,
                        "only one date allowed in an $add expression",
                    ));
                }
                date = Some(d.timestamp_millis());
            }
            Some(other) => {
                let Some(n) = Num::from_bson(other) else {
                    return Err(Error::location(
                        16554,
                        format!(
                            "$add only supports numeric or date types, not {}",
                            type_name_of(&v)
                        ),
                    ));
                };
                total = combine(total, n, &ADD);
            }
        }
    }
    Ok(Some(match date {
        Some(ms) => {
            let delta = match total {
                Num::Int(i) => i64::from(i),
                Num::Long(i) => i,
                Num::Double(d) => d.round() as i64,
                Num::Decimal(d) => d.to_f64().round() as i64,
            };
            Bson::DateTime(DateTime::from_millis(ms.saturating_add(delta)))
        }
        None => total.into_bson(),
    }))
}

fn subtract(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let a = arg(args, 0, vars)?;
    let b = arg(args, 1, vars)?;
    let is_null = |v: &Option<Bson>| matches!(v, None | Some(Bson::Null | Bson::Undefined));
    if is_null(&a) || is_null(&b) {
        return Ok(Some(Bson::Null));
    }
    let mismatch = || {
        Error::location(
            16556,
            format!(
                "can't $subtract {} from {}",
                type_name_of(&b),
                type_name_of(&a)
            ),
        )
    };
    match (&a, &b) {
        (Some(Bson::DateTime(x)), Some(Bson::DateTime(y))) => Ok(Some(Bson::Int64(
            x.timestamp_millis().saturating_sub(y.timestamp_millis()),
        ))),
        (Some(Bson::DateTime(x)), Some(y)) => {
            let n = Num::from_bson(y).ok_or_else(mismatch)?;
            let delta = match n {
                Num::Int(i) => i64::from(i),
                Num::Long(i) => i,
                Num::Double(d) => d.round() as i64,
                Num::Decimal(d) => d.to_f64().round() as i64,
            };
            Ok(Some(Bson::DateTime(DateTime::from_millis(
                x.timestamp_millis().saturating_sub(delta),
            ))))
        }
        (Some(x), Some(y)) => {
            let (Some(x), Some(y)) = (Num::from_bson(x), Num::from_bson(y)) else {
                return Err(mismatch());
            };
            Ok(Some(combine(x, y, &SUB).into_bson()))
        }
        _ => Err(mismatch()),
    }
}

fn multiply(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let mut total = Num::Int(1);
    for a in args {
        let v = a.eval(vars)?;
        match &v {
            None | Some(Bson::Null | Bson::Undefined) => return Ok(Some(Bson::Null)),
            Some(other) => {
                let Some(n) = Num::from_bson(other) else {
                    return Err(Error::location(
                        16555,
                        format!(
                            "$multiply only supports numeric types, not {}",
                            type_name_of(&v)
                        ),
                    ));
                };
                total = combine(total, n, &MUL);
            }
        }
    }
    Ok(Some(total.into_bson()))
}

/// Both arguments as numbers, `None` when either is null or missing.
fn two_numbers(
    name: &str,
    code: i32,
    args: &[Expression],
    vars: &Vars<'_>,
) -> Result<Option<(Num, Num)>> {
    let a = arg(args, 0, vars)?;
    let b = arg(args, 1, vars)?;
    let is_null = |v: &Option<Bson>| matches!(v, None | Some(Bson::Null | Bson::Undefined));
    if is_null(&a) || is_null(&b) {
        return Ok(None);
    }
    match (
        a.as_ref().and_then(Num::from_bson),
        b.as_ref().and_then(Num::from_bson),
    ) {
        (Some(x), Some(y)) => Ok(Some((x, y))),
        _ => Err(Error::location(
            code,
            format!(
                "{name} only supports numeric types, not {} and {}",
                type_name_of(&a),
                type_name_of(&b)
            ),
        )),
    }
}

fn divide(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let Some((x, y)) = two_numbers("$divide", 16609, args, vars)? else {
        return Ok(Some(Bson::Null));
    };
    if y.is_zero() {
        return Err(Error::location(16608, "can't $divide by zero"));
    }
    Ok(Some(match (x, y) {
        (Num::Decimal(_), _) | (_, Num::Decimal(_)) => match x.as_decimal().div(&y.as_decimal()) {
            Some(q) => Bson::Decimal128(q.to_decimal128()),
            None => return Err(Error::location(16608, "can't $divide by zero")),
        },
        _ => Bson::Double(x.as_f64() / y.as_f64()),
    }))
}

fn modulo(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let Some((x, y)) = two_numbers("$mod", 16611, args, vars)? else {
        return Ok(Some(Bson::Null));
    };
    if y.is_zero() {
        return Err(Error::location(16610, "can't $mod by zero"));
    }
    Ok(Some(combine(x, y, &MOD).into_bson()))
}

fn abs(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let v = arg(args, 0, vars)?;
    Ok(Some(match &v {
        None | Some(Bson::Null | Bson::Undefined) => Bson::Null,
        Some(Bson::Int32(i)) => i
            .checked_abs()
            .map_or(Bson::Int64(-i64::from(*i)), Bson::Int32),
        Some(Bson::Int64(i)) => match i.checked_abs() {
            Some(a) => Bson::Int64(a),
            None => return Err(Error::location(28680, "can't take $abs of long long min")),
        },
        Some(Bson::Double(d)) => Bson::Double(d.abs()),
        Some(Bson::Decimal128(d)) => Bson::Decimal128(
            match Decimal::from_bson(d) {
                Decimal::Finite {
                    coefficient,
                    exponent,
                    ..
                } => Decimal::Finite {
                    negative: false,
                    coefficient,
                    exponent,
                },
                Decimal::Infinity { .. } => Decimal::Infinity { negative: false },
                Decimal::NaN => Decimal::NaN,
            }
            .to_decimal128(),
        ),
        Some(_) => {
            return Err(Error::location(
                28765,
                format!("$abs only supports numeric types, not {}", type_name_of(&v)),
            ));
        }
    }))
}
