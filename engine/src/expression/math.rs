//! One-number math: `$abs $ceil $floor $round $trunc $exp $ln $log $log10 $pow $sqrt $rand`.
//! Integers stay integers where MongoDB keeps them (`$ceil`, `$floor`, `$abs`, `$pow`, `$round`
//! and `$trunc` with a non-negative precision); decimals stay decimals.
//!
//! Rounding of decimals is exact (quantize with the operator's rounding mode). The decimal
//! results of `$exp $ln $log $log10 $pow $sqrt` are correctly rounded to 34 digits
//! (`value::decimal_math`), as MongoDB's decimal library gives them.

use bson::Bson;

use super::arithmetic::Num;
use super::operators::{Arity, OperatorDef, arg, positional_def as def};
use super::{Expression, Scope, Vars};
use crate::error::{Error, Result};
use crate::value::Decimal;
use crate::value::display::type_name;

pub const OPERATORS: &[OperatorDef] = &[
    unary("$abs", abs),
    unary("$ceil", ceil),
    unary("$floor", floor),
    unary("$exp", exp),
    unary("$ln", ln),
    unary("$log10", log10),
    unary("$sqrt", sqrt),
    def("$round", Arity::Range(1, 2), round),
    def("$trunc", Arity::Range(1, 2), trunc),
    def("$log", Arity::Exactly(2), log),
    def("$pow", Arity::Exactly(2), pow),
    OperatorDef {
        name: "$rand",
        arity: Arity::Exactly(0),
        parse_args: parse_rand,
        eval: rand,
    },
];

const fn unary(name: &'static str, eval: super::operators::Eval) -> OperatorDef {
    def(name, Arity::Exactly(1), eval)
}

/// Whether an evaluated argument is null, undefined or missing (MongoDB's "nullish").
pub(super) fn nullish(v: &Option<Bson>) -> bool {
    matches!(v, None | Some(Bson::Null | Bson::Undefined))
}

/// The one numeric argument of `name`; `None` when it is nullish (the result is then null).
/// Error 28765 otherwise, as MongoDB's single-numeric-argument operators report.
pub(super) fn single_number(
    name: &str,
    args: &[Expression],
    vars: &Vars<'_>,
) -> Result<Option<Num>> {
    let v = arg(args, 0, vars)?;
    if nullish(&v) {
        return Ok(None);
    }
    match v.as_ref().and_then(Num::from_bson) {
        Some(n) => Ok(Some(n)),
        None => Err(Error::location(
            28765,
            format!(
                "{name} only supports numeric types, not {}",
                v.as_ref().map_or("missing", type_name)
            ),
        )),
    }
}

/// Applies `f` to the single numeric argument; a nullish argument gives null.
fn with_number(
    name: &str,
    args: &[Expression],
    vars: &Vars<'_>,
    f: impl FnOnce(Num) -> Result<Bson>,
) -> Result<Option<Bson>> {
    match single_number(name, args, vars)? {
        None => Ok(Some(Bson::Null)),
        Some(n) => f(n).map(Some),
    }
}

fn abs(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    with_number("$abs", args, vars, |n| {
        Ok(match n {
            Num::Int(i) => i
                .checked_abs()
                .map_or(Bson::Int64(-i64::from(i)), Bson::Int32),
            Num::Long(i) => match i.checked_abs() {
                Some(a) => Bson::Int64(a),
                None => return Err(Error::location(28680, "can't take $abs of long long min")),
            },
            Num::Double(d) => Bson::Double(d.abs()),
            Num::Decimal(d) => decimal_bson(with_sign(d, false)),
        })
    })
}

fn ceil(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    with_number("$ceil", args, vars, |n| {
        Ok(match n {
            Num::Double(d) => Bson::Double(d.ceil()),
            Num::Decimal(d) => decimal_bson(quantize(d, 0, Rounding::Up)),
            other => other.into_bson(),
        })
    })
}

fn floor(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    with_number("$floor", args, vars, |n| {
        Ok(match n {
            Num::Double(d) => Bson::Double(d.floor()),
            Num::Decimal(d) => decimal_bson(quantize(d, 0, Rounding::Down)),
            other => other.into_bson(),
        })
    })
}

fn exp(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    with_number("$exp", args, vars, |n| {
        Ok(match n {
            Num::Decimal(d) => decimal_bson(d.exp()),
            _ => Bson::Double(n.as_f64().exp()),
        })
    })
}

fn ln(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    with_number("$ln", args, vars, |n| {
        let x = n.as_f64();
        if !(x > 0.0 || x.is_nan()) {
            return Err(Error::location(
                28766,
                format!(
                    "$ln's argument must be a positive number, but is {}",
                    show(x)
                ),
            ));
        }
        Ok(positive_decimal_result(n, x.ln(), Decimal::ln))
    })
}

fn log10(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    with_number("$log10", args, vars, |n| {
        let x = n.as_f64();
        if !(x > 0.0 || x.is_nan()) {
            return Err(Error::location(
                28761,
                format!(
                    "$log10's argument must be a positive number, but is {}",
                    show(x)
                ),
            ));
        }
        Ok(positive_decimal_result(n, x.log10(), Decimal::log10))
    })
}

/// MongoDB computes logarithms of positive decimals as decimals; any other argument (a NaN
/// decimal included) goes through double arithmetic and gives a double.
fn positive_decimal_result(n: Num, result: f64, decimal: fn(&Decimal) -> Decimal) -> Bson {
    match n {
        Num::Decimal(d) if is_positive(d) => decimal_bson(decimal(&d)),
        _ => Bson::Double(result),
    }
}

fn is_positive(d: Decimal) -> bool {
    match d {
        Decimal::Finite {
            negative,
            coefficient,
            ..
        } => !negative && coefficient != 0,
        Decimal::Infinity { negative } => !negative,
        Decimal::NaN => false,
    }
}

fn sqrt(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    with_number("$sqrt", args, vars, |n| {
        let x = n.as_f64();
        if x < 0.0 {
            return Err(Error::location(
                28714,
                "$sqrt's argument must be greater than or equal to 0",
            ));
        }
        Ok(match n {
            Num::Decimal(d) => decimal_bson(d.sqrt()),
            _ => Bson::Double(x.sqrt()),
        })
    })
}

fn log(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let (value, base) = (arg(args, 0, vars)?, arg(args, 1, vars)?);
    if nullish(&value) || nullish(&base) {
        return Ok(Some(Bson::Null));
    }
    let x = numeric_or(&value, 28756, "$log's argument must be numeric, not")?;
    let b = numeric_or(&base, 28757, "$log's base must be numeric, not")?;
    let (xf, bf) = (x.as_f64(), b.as_f64());
    if !(xf > 0.0 || xf.is_nan()) {
        return Err(Error::location(
            28758,
            format!(
                "$log's argument must be a positive number, but is {}",
                show(xf)
            ),
        ));
    }
    if !((bf > 0.0 && bf != 1.0) || bf.is_nan()) {
        return Err(Error::location(
            28759,
            format!(
                "$log's base must be a positive number not equal to 1, but is {}",
                show(bf)
            ),
        ));
    }
    let decimal = matches!(x, Num::Decimal(_)) || matches!(b, Num::Decimal(_));
    let in_domain = xf > 0.0 && bf > 0.0 && bf != 1.0;
    Ok(Some(if decimal && in_domain {
        decimal_bson(x.as_decimal().log(&b.as_decimal()))
    } else {
        Bson::Double(xf.ln() / bf.ln())
    }))
}

fn numeric_or(v: &Option<Bson>, code: i32, message: &str) -> Result<Num> {
    v.as_ref().and_then(Num::from_bson).ok_or_else(|| {
        Error::location(
            code,
            format!("{message} {}", v.as_ref().map_or("missing", type_name)),
        )
    })
}

fn pow(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let (base, exponent) = (arg(args, 0, vars)?, arg(args, 1, vars)?);
    if nullish(&base) || nullish(&exponent) {
        return Ok(Some(Bson::Null));
    }
    let b = numeric_or(&base, 28762, "$pow's base must be numeric, not")?;
    let e = numeric_or(&exponent, 28763, "$pow's exponent must be numeric, not")?;
    let (bf, ef) = (b.as_f64(), e.as_f64());
    if bf == 0.0 && ef < 0.0 {
        return Err(Error::location(
            28764,
            "$pow cannot take a base of 0 and a negative exponent",
        ));
    }
    Ok(Some(match (b, e) {
        // MongoDB's decimal power carries all 34 digits (`100.000…0`).
        (Num::Decimal(_), _) | (_, Num::Decimal(_)) => {
            decimal_bson(b.as_decimal().pow(&e.as_decimal()))
        }
        (Num::Double(_), _) | (_, Num::Double(_)) => Bson::Double(bf.powf(ef)),
        _ => {
            let (bl, el) = (b.as_i64().unwrap_or(0), e.as_i64().unwrap_or(0));
            let longs = matches!(b, Num::Long(_)) || matches!(e, Num::Long(_));
            let exact = match bl {
                0 => Some(i64::from(el == 0)),
                1 => Some(1),
                -1 => Some(if el % 2 == 0 { 1 } else { -1 }),
                _ => u32::try_from(el).ok().and_then(|el| bl.checked_pow(el)),
            };
            match exact {
                Some(r) if longs => Bson::Int64(r),
                Some(r) => i32::try_from(r).map_or(Bson::Int64(r), Bson::Int32),
                None => Bson::Double((bl as f64).powf(el as f64)),
            }
        }
    }))
}

fn round(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    round_or_trunc("$round", Rounding::HalfEven, args, vars)
}

fn trunc(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    round_or_trunc("$trunc", Rounding::TowardZero, args, vars)
}

fn round_or_trunc(
    name: &str,
    mode: Rounding,
    args: &[Expression],
    vars: &Vars<'_>,
) -> Result<Option<Bson>> {
    let v = arg(args, 0, vars)?;
    if nullish(&v) {
        return Ok(Some(Bson::Null));
    }
    let Some(n) = v.as_ref().and_then(Num::from_bson) else {
        return Err(Error::location(
            51081,
            format!(
                "{name} only supports numeric types, not {}",
                v.as_ref().map_or("missing", type_name)
            ),
        ));
    };
    let mut precision = 0i64;
    if args.len() > 1 {
        let p = arg(args, 1, vars)?;
        if nullish(&p) {
            return Ok(Some(Bson::Null));
        }
        let pn = p.as_ref().and_then(Num::from_bson);
        let Some(value) = pn.and_then(Num::as_integral) else {
            return Err(Error::location(
                51082,
                format!("precision argument to  {name} must be a integral value"),
            ));
        };
        precision = value;
        if !(-20..=100).contains(&precision) {
            return Err(Error::location(
                51083,
                format!(
                    "cannot apply {name} with precision value {precision} value must be in \
                     [-20, 100]"
                ),
            ));
        }
    }
    // The quantum is 10^-precision.
    let exponent = i32::try_from(-precision).unwrap_or(0);
    Ok(Some(match n {
        Num::Decimal(d) => match d {
            Decimal::Infinity { .. } => n.into_bson(),
            _ => decimal_bson(quantize(d, exponent, mode)),
        },
        Num::Double(x) if !x.is_finite() => Bson::Double(x),
        Num::Double(x) => Bson::Double(quantize(Decimal::from_f64(x), exponent, mode).to_f64()),
        Num::Int(_) | Num::Long(_) if precision >= 0 => n.into_bson(),
        Num::Int(_) | Num::Long(_) => {
            let whole = n.as_i64().unwrap_or(0);
            let q = quantize(Decimal::from_i64(whole), exponent, mode);
            let Some(out) = q.to_i64_truncated().filter(|_| q != Decimal::NaN) else {
                return Err(Error::location(
                    51080,
                    format!(
                        "invalid conversion from Decimal128 result in {name} resulting from \
                         arguments: [{whole}, {precision}]"
                    ),
                ));
            };
            match (n, i32::try_from(out)) {
                (Num::Int(_), Ok(i)) => Bson::Int32(i),
                _ => Bson::Int64(out),
            }
        }
    }))
}

/// `$rand: {}`: a double in `[0, 1)` from the command's seeded generator.
fn parse_rand(_def: &'static OperatorDef, arg: &Bson, _scope: &Scope) -> Result<Vec<Expression>> {
    match arg {
        Bson::Document(d) if d.is_empty() => Ok(Vec::new()),
        Bson::Array(items) if items.is_empty() => Ok(Vec::new()),
        _ => Err(Error::location(
            3040501,
            "$rand not allowed to have any arguments",
        )),
    }
}

fn rand(_args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    Ok(Some(Bson::Double(vars.context.next_random())))
}

/// A double result, or a decimal one when the argument was a decimal.
pub(super) fn float_result(n: Num, result: f64) -> Bson {
    match n {
        Num::Decimal(_) => decimal_bson(decimal_from_double(result)),
        _ => Bson::Double(result),
    }
}

/// The decimal with the fewest digits that reads back as `x` (`2.0` becomes `2`, not
/// `2.000…0`): the decimal result of a function computed in double precision.
pub(super) fn decimal_from_double(x: f64) -> Decimal {
    if !x.is_finite() || x == 0.0 {
        return Decimal::from_f64(x);
    }
    let text = format!("{:e}", x.abs());
    let (mantissa, exp) = text.split_once('e').unwrap_or((&text, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let fraction_digits = mantissa.split_once('.').map_or(0, |(_, f)| f.len());
    match (digits.parse::<u128>(), exp.parse::<i32>()) {
        (Ok(coefficient), Ok(exp)) => Decimal::Finite {
            negative: x < 0.0,
            coefficient,
            exponent: exp - i32::try_from(fraction_digits).unwrap_or(0),
        },
        _ => Decimal::from_f64(x),
    }
}

pub(super) fn decimal_bson(d: Decimal) -> Bson {
    Bson::Decimal128(d.to_decimal128())
}

fn with_sign(d: Decimal, negative: bool) -> Decimal {
    match d {
        Decimal::Finite {
            coefficient,
            exponent,
            ..
        } => Decimal::Finite {
            negative,
            coefficient,
            exponent,
        },
        Decimal::Infinity { .. } => Decimal::Infinity { negative },
        Decimal::NaN => Decimal::NaN,
    }
}

/// A double as MongoDB's error messages print it: C++ stream formatting, six significant
/// digits (`0`, `-1`, `0.5`, `2.14748e+09`, `inf`, `nan`).
pub(super) fn show(x: f64) -> String {
    if x.is_nan() {
        return "nan".to_string();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.to_string();
    }
    if x == 0.0 {
        return if x.is_sign_negative() { "-0" } else { "0" }.to_string();
    }
    // Six significant digits, then the shorter of fixed and scientific notation as %g does.
    let sci = format!("{x:.5e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let trim = |s: &str| -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s.to_string()
        }
    };
    if (-4..6).contains(&exp) {
        let decimals = usize::try_from(5 - exp).unwrap_or(0);
        trim(&format!("{x:.decimals$}"))
    } else {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", trim(mantissa), exp.unsigned_abs())
    }
}

/// How [`quantize`] rounds away discarded digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Rounding {
    HalfEven,
    TowardZero,
    /// Toward positive infinity.
    Up,
    /// Toward negative infinity.
    Down,
}

/// IEEE 754 quantize: the value with exponent `exponent`, rounded by `mode`; NaN when the
/// result needs more than 34 digits.
pub(super) fn quantize(d: Decimal, exponent: i32, mode: Rounding) -> Decimal {
    const MAX_COEFFICIENT: u128 = 10u128.pow(34) - 1;
    let Decimal::Finite {
        negative,
        coefficient,
        exponent: e,
    } = d
    else {
        return d;
    };
    if e >= exponent {
        if coefficient == 0 {
            return Decimal::Finite {
                negative,
                coefficient,
                exponent,
            };
        }
        // Append zeros up to the target exponent, but never past 34 digits (the result then
        // keeps the finest exponent it can hold, as MongoDB's quantize does).
        let mut c = coefficient;
        let mut new_exponent = e;
        while new_exponent > exponent {
            match c.checked_mul(10).filter(|x| *x <= MAX_COEFFICIENT) {
                Some(x) => {
                    c = x;
                    new_exponent -= 1;
                }
                None => break,
            }
        }
        return Decimal::Finite {
            negative,
            coefficient: c,
            exponent: new_exponent,
        };
    }
    let shift = u32::try_from(exponent - e).unwrap_or(u32::MAX);
    let (quotient, remainder, divisor) = match 10u128.checked_pow(shift) {
        Some(div) => (coefficient / div, coefficient % div, Some(div)),
        // Every digit is discarded, and the discarded part is below one half of the quantum.
        None => (0, coefficient, None),
    };
    let round_up = remainder != 0
        && match mode {
            Rounding::TowardZero => false,
            Rounding::Up => !negative,
            Rounding::Down => negative,
            Rounding::HalfEven => match divisor {
                None => false,
                Some(div) => {
                    let twice = remainder * 2;
                    twice > div || (twice == div && quotient % 2 == 1)
                }
            },
        };
    let coefficient = quotient + u128::from(round_up);
    if coefficient > MAX_COEFFICIENT {
        return Decimal::NaN;
    }
    Decimal::Finite {
        negative,
        coefficient,
        exponent,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(s: &str) -> Decimal {
        Decimal::from_bson(&s.parse().unwrap())
    }

    #[test]
    fn quantize_rounds_by_mode() {
        let q = |s: &str, e: i32, m: Rounding| quantize(dec(s), e, m).to_decimal128().to_string();
        assert_eq!(q("2.5", 0, Rounding::HalfEven), "2");
        assert_eq!(q("3.5", 0, Rounding::HalfEven), "4");
        assert_eq!(q("-1.2", 0, Rounding::Up), "-1");
        assert_eq!(q("-1.2", 0, Rounding::Down), "-2");
        assert_eq!(q("1.2345", -2, Rounding::TowardZero), "1.23");
        assert_eq!(q("1234", 2, Rounding::HalfEven), "1.2E+3");
        assert_eq!(q("5", -1, Rounding::HalfEven), "5.0");
    }

    #[test]
    fn doubles_print_like_cpp_streams() {
        assert_eq!(show(-1.0), "-1");
        assert_eq!(show(0.5), "0.5");
        assert_eq!(show(2147483648.0), "2.14748e+09");
        assert_eq!(show(1e-5), "1e-05");
        assert_eq!(show(123456.0), "123456");
        assert_eq!(show(f64::NEG_INFINITY), "-inf");
    }
}
