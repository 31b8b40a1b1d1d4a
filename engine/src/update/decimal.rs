//! Exact decimal128 addition and multiplication for `$inc` and `$mul`: operands are combined
//! exactly, then rounded half-to-even to 34 significant digits, as IEEE 754-2008 decimal128
//! (and so MongoDB) does. Ints and longs convert exactly; doubles first become the nearest
//! 34-digit decimal.

use std::cmp::Ordering;
use std::str::FromStr;

use bson::{Bson, Decimal128};

use crate::value::Decimal;

const MAX_DIGITS: usize = 34;
const MIN_EXPONENT: i64 = -6176;
const MAX_EXPONENT: i64 = 6111;

/// A finite decimal: sign, coefficient digits (most significant first), exponent.
#[derive(Debug, Clone, PartialEq)]
struct Finite {
    negative: bool,
    digits: Vec<u8>,
    exponent: i64,
}

enum Value {
    NaN,
    Infinity { negative: bool },
    Finite(Finite),
}

/// A double as MongoDB's arithmetic converts it to decimal: rounded to 15 significant digits
/// (so `2.0` becomes `2.00000000000000`).
fn double_value(d: f64) -> Value {
    if d.is_nan() {
        return Value::NaN;
    }
    if d.is_infinite() {
        return Value::Infinity { negative: d < 0.0 };
    }
    // Rust's exponent formatting is correctly rounded: "d.dddddddddddddde±x", 15 digits.
    let text = format!("{:.14e}", d.abs());
    let (mantissa, exp) = text.split_once('e').unwrap_or((&text, "0"));
    Value::Finite(Finite {
        negative: d.is_sign_negative(),
        digits: mantissa
            .bytes()
            .filter(u8::is_ascii_digit)
            .map(|b| b - b'0')
            .collect(),
        exponent: exp.parse::<i64>().unwrap_or(0) - 14,
    })
}

fn value_of(v: &Bson) -> Option<Value> {
    if let Bson::Double(d) = v {
        return Some(double_value(*d));
    }
    Some(match Decimal::from_number(v)? {
        Decimal::NaN => Value::NaN,
        Decimal::Infinity { negative } => Value::Infinity { negative },
        Decimal::Finite {
            negative,
            coefficient,
            exponent,
        } => Value::Finite(Finite {
            negative,
            digits: coefficient.to_string().bytes().map(|b| b - b'0').collect(),
            exponent: i64::from(exponent),
        }),
    })
}

/// `a + b` as a decimal128; `None` when an operand is not a number.
pub fn add(a: &Bson, b: &Bson) -> Option<Bson> {
    Some(match (value_of(a)?, value_of(b)?) {
        (Value::NaN, _) | (_, Value::NaN) => special("NaN"),
        (Value::Infinity { negative: x }, Value::Infinity { negative: y }) if x != y => {
            special("NaN")
        }
        (Value::Infinity { negative }, _) | (_, Value::Infinity { negative }) => infinity(negative),
        (Value::Finite(x), Value::Finite(y)) => finish(add_finite(x, y)),
    })
}

/// `a * b` as a decimal128; `None` when an operand is not a number.
pub fn multiply(a: &Bson, b: &Bson) -> Option<Bson> {
    Some(match (value_of(a)?, value_of(b)?) {
        (Value::NaN, _) | (_, Value::NaN) => special("NaN"),
        (Value::Infinity { negative: x }, Value::Infinity { negative: y }) => infinity(x != y),
        (Value::Infinity { negative: x }, Value::Finite(f))
        | (Value::Finite(f), Value::Infinity { negative: x }) => {
            if is_zero(&f.digits) {
                special("NaN")
            } else {
                infinity(x != f.negative)
            }
        }
        (Value::Finite(x), Value::Finite(y)) => finish(Finite {
            negative: x.negative != y.negative,
            digits: multiply_digits(&x.digits, &y.digits),
            exponent: x.exponent + y.exponent,
        }),
    })
}

fn special(text: &str) -> Bson {
    // The bson crate parses these names; they cannot fail.
    Decimal128::from_str(text)
        .map(Bson::Decimal128)
        .unwrap_or(Bson::Null)
}

fn infinity(negative: bool) -> Bson {
    special(if negative { "-Infinity" } else { "Infinity" })
}

fn is_zero(digits: &[u8]) -> bool {
    digits.iter().all(|d| *d == 0)
}

fn trim(mut digits: Vec<u8>) -> Vec<u8> {
    let first = digits.iter().position(|d| *d != 0).unwrap_or(digits.len());
    digits.drain(..first);
    if digits.is_empty() {
        digits.push(0);
    }
    digits
}

fn compare_magnitudes(a: &[u8], b: &[u8]) -> Ordering {
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

fn add_digits(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(a.len().max(b.len()) + 1);
    let (mut i, mut j, mut carry) = (a.len(), b.len(), 0u8);
    while i > 0 || j > 0 || carry > 0 {
        let x = if i > 0 { a[i - 1] } else { 0 };
        let y = if j > 0 { b[j - 1] } else { 0 };
        let s = x + y + carry;
        out.push(s % 10);
        carry = s / 10;
        i = i.saturating_sub(1);
        j = j.saturating_sub(1);
    }
    out.reverse();
    trim(out)
}

/// `a - b` for `a >= b`.
fn subtract_digits(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(a.len());
    let (mut i, mut j, mut borrow) = (a.len(), b.len(), 0i8);
    while i > 0 {
        let x = a[i - 1] as i8;
        let y = if j > 0 { b[j - 1] as i8 } else { 0 };
        let mut d = x - y - borrow;
        borrow = 0;
        if d < 0 {
            d += 10;
            borrow = 1;
        }
        out.push(d as u8);
        i -= 1;
        j = j.saturating_sub(1);
    }
    out.reverse();
    trim(out)
}

fn multiply_digits(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut acc = vec![0u32; a.len() + b.len()];
    for (i, x) in a.iter().enumerate().rev() {
        for (j, y) in b.iter().enumerate().rev() {
            acc[i + j + 1] += u32::from(*x) * u32::from(*y);
        }
        // Normalise after each row so no cell overflows.
        for k in (1..acc.len()).rev() {
            let carry = acc[k] / 10;
            acc[k] %= 10;
            acc[k - 1] += carry;
        }
    }
    trim(acc.into_iter().map(|d| d as u8).collect())
}

fn add_finite(x: Finite, y: Finite) -> Finite {
    let exponent = x.exponent.min(y.exponent);
    let widen = |f: &Finite| {
        let mut d = f.digits.clone();
        let extra = usize::try_from(f.exponent - exponent).unwrap_or(0);
        d.resize(d.len() + extra, 0);
        d
    };
    let (a, b) = (widen(&x), widen(&y));
    if x.negative == y.negative {
        return Finite {
            negative: x.negative,
            digits: add_digits(&a, &b),
            exponent,
        };
    }
    match compare_magnitudes(&trim(a.clone()), &trim(b.clone())) {
        Ordering::Equal => Finite {
            negative: false,
            digits: vec![0],
            exponent,
        },
        Ordering::Greater => Finite {
            negative: x.negative,
            digits: subtract_digits(&trim(a), &trim(b)),
            exponent,
        },
        Ordering::Less => Finite {
            negative: y.negative,
            digits: subtract_digits(&trim(b), &trim(a)),
            exponent,
        },
    }
}

/// Keeps the first `keep` digits, rounding half to even; returns the digits and how many were
/// dropped (a carry past the top adds one more).
fn round_to(digits: &[u8], keep: usize) -> (Vec<u8>, usize) {
    if digits.len() <= keep {
        return (digits.to_vec(), 0);
    }
    let (kept, dropped) = digits.split_at(keep);
    let first = dropped.first().copied().unwrap_or(0);
    let rest_nonzero = dropped.iter().skip(1).any(|d| *d != 0);
    let last_odd = kept.last().is_some_and(|d| d % 2 == 1);
    let up = first > 5 || (first == 5 && (rest_nonzero || last_odd));
    let mut out = if up {
        add_digits(if kept.is_empty() { &[0] } else { kept }, &[1])
    } else if kept.is_empty() {
        vec![0]
    } else {
        kept.to_vec()
    };
    let mut removed = dropped.len();
    if keep > 0 && out.len() > keep {
        // 99…9 rounded up to 100…0: one digit too many, and it is a zero.
        out.pop();
        removed += 1;
    }
    (out, removed)
}

fn finish(f: Finite) -> Bson {
    let mut digits = trim(f.digits);
    let mut exponent = f.exponent;
    if digits.len() > MAX_DIGITS {
        let (d, removed) = round_to(&digits, MAX_DIGITS);
        digits = d;
        exponent += removed as i64;
    }
    if exponent < MIN_EXPONENT {
        // Too small for the exponent range: lose precision (down to zero).
        let shift = usize::try_from(MIN_EXPONENT - exponent).unwrap_or(usize::MAX);
        digits = if shift > digits.len() {
            // Every digit lies below the rounding position, whose digit is an implicit 0:
            // the value rounds to a (signed) zero.
            vec![0]
        } else {
            round_to(&digits, digits.len() - shift).0
        };
        exponent = MIN_EXPONENT;
    }
    if exponent > MAX_EXPONENT {
        // Pad the coefficient with zeros while it fits; beyond that the value overflows.
        let pad = usize::try_from(exponent - MAX_EXPONENT).unwrap_or(usize::MAX);
        if is_zero(&digits) {
            exponent = MAX_EXPONENT;
        } else if digits.len().saturating_add(pad) <= MAX_DIGITS {
            digits.resize(digits.len() + pad, 0);
            exponent = MAX_EXPONENT;
        } else {
            return infinity(f.negative);
        }
    }
    let text: String = digits.iter().map(|d| char::from(b'0' + d)).collect();
    let sign = if f.negative { "-" } else { "" };
    Decimal128::from_str(&format!("{sign}{text}E{exponent}"))
        .map(Bson::Decimal128)
        .unwrap_or_else(|_| infinity(f.negative))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Bson {
        Bson::Decimal128(Decimal128::from_str(s).unwrap())
    }

    fn text(v: Option<Bson>) -> String {
        match v {
            Some(Bson::Decimal128(x)) => x.to_string(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn underflow_far_below_the_range_is_a_signed_zero() {
        let product = multiply(
            &d("-7548269564658974956438658719038456E-6120"),
            &d("9875467895987245907845734785643106E-2179"),
        );
        assert_eq!(text(product), "-0E-6176");
        // Just at the boundary the first dropped digit decides: 6E-6177 rounds to 1E-6176.
        assert_eq!(text(multiply(&d("6E-6170"), &d("1E-7"))), "1E-6176");
    }

    #[test]
    fn sums_are_exact() {
        assert_eq!(text(add(&d("0.1"), &d("0.2"))), "0.3");
        assert_eq!(text(add(&d("1.5"), &Bson::Int32(1))), "2.5");
        assert_eq!(text(add(&d("1.00"), &d("-1"))), "0.00");
        assert_eq!(text(add(&d("-5"), &d("2"))), "-3");
        assert_eq!(text(add(&d("2"), &Bson::Int64(-5))), "-3");
        assert_eq!(
            text(add(&d("1E+10"), &d("1E-10"))),
            "10000000000.0000000001"
        );
    }

    #[test]
    fn results_round_half_even_to_34_digits() {
        let nines = "9".repeat(34);
        assert_eq!(
            text(add(&d(&nines), &d("1"))),
            "1.000000000000000000000000000000000E+34"
        );
        let big = "1234567890123456789012345678901234";
        assert_eq!(text(add(&d(big), &d("0.5"))), big);
        let odd = "1234567890123456789012345678901235";
        assert_eq!(
            text(add(&d(odd), &d("0.5"))),
            "1234567890123456789012345678901236"
        );
        assert_eq!(
            text(add(&d(big), &d("0.50001"))),
            "1234567890123456789012345678901235"
        );
    }

    #[test]
    fn doubles_convert_with_15_significant_digits() {
        assert_eq!(
            text(multiply(&d("10"), &Bson::Double(2.0))),
            "20.00000000000000"
        );
        assert_eq!(
            text(multiply(&Bson::Double(10.0), &d("2"))),
            "20.0000000000000"
        );
        assert_eq!(text(add(&d("0"), &Bson::Double(0.1))), "0.100000000000000");
        assert_eq!(text(add(&d("1"), &Bson::Double(-2.5))), "-1.50000000000000");
    }

    #[test]
    fn products_and_specials() {
        assert_eq!(text(multiply(&d("1.5"), &Bson::Int32(2))), "3.0");
        assert_eq!(text(multiply(&d("-0.5"), &d("0.5"))), "-0.25");
        assert_eq!(text(multiply(&d("Infinity"), &d("0"))), "NaN");
        assert_eq!(text(multiply(&d("Infinity"), &d("-2"))), "-Infinity");
        assert_eq!(text(add(&d("Infinity"), &d("-Infinity"))), "NaN");
        assert_eq!(text(add(&d("NaN"), &d("1"))), "NaN");
        assert_eq!(text(multiply(&d("9E+6144"), &d("10"))), "Infinity");
        assert!(add(&Bson::String("x".into()), &d("1")).is_none());
    }
}
