//! Exact comparison of numbers across int32, int64, double and decimal128.
//!
//! Integers and doubles compare exactly (no rounding of the integer). A decimal128 compares with
//! another number as MongoDB does: integers convert exactly, doubles are first rounded to 34
//! significant digits, then the two decimals compare exactly. NaN is below every other number
//! and equal to itself, in every numeric type.

use std::cmp::Ordering;

use bson::{Bson, Decimal128};

/// A decimal128 value decoded from its BID bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decimal {
    NaN,
    Infinity {
        negative: bool,
    },
    Finite {
        negative: bool,
        coefficient: u128,
        exponent: i32,
    },
}

const MAX_COEFFICIENT: u128 = 9_999_999_999_999_999_999_999_999_999_999_999;
const EXPONENT_BIAS: i32 = 6176;

impl Decimal {
    /// Decodes BSON's little-endian IEEE 754-2008 decimal128 (binary integer decimal).
    pub fn from_bson(d: &Decimal128) -> Decimal {
        let bytes = d.bytes();
        let mut lo = [0u8; 8];
        let mut hi = [0u8; 8];
        lo.copy_from_slice(&bytes[..8]);
        hi.copy_from_slice(&bytes[8..]);
        let low = u64::from_le_bytes(lo);
        let high = u64::from_le_bytes(hi);
        let negative = high >> 63 == 1;
        let combination = (high >> 58) & 0x1F;
        if combination == 0x1F {
            return Decimal::NaN;
        }
        if combination == 0x1E {
            return Decimal::Infinity { negative };
        }
        let (exponent, coefficient) = if (high >> 61) & 0b11 == 0b11 {
            // The coefficient would need an implicit 100 prefix: always above the maximum.
            (((high >> 47) & 0x3FFF) as i32, 0u128)
        } else {
            let c = (u128::from(high & 0x1_FFFF_FFFF_FFFF) << 64) | u128::from(low);
            (((high >> 49) & 0x3FFF) as i32, c)
        };
        let coefficient = if coefficient > MAX_COEFFICIENT {
            0
        } else {
            coefficient
        };
        Decimal::Finite {
            negative,
            coefficient,
            exponent: exponent - EXPONENT_BIAS,
        }
    }

    /// An integer, exactly.
    pub fn from_i64(i: i64) -> Decimal {
        Decimal::Finite {
            negative: i < 0,
            coefficient: u128::from(i.unsigned_abs()),
            exponent: 0,
        }
    }

    /// A double rounded to 34 significant digits, as MongoDB converts it for comparison.
    pub fn from_f64(d: f64) -> Decimal {
        Decimal::from_f64_digits(d, 34)
    }

    /// A double rounded to 15 significant digits, as MongoDB converts it for arithmetic with
    /// decimals.
    pub fn from_f64_arithmetic(d: f64) -> Decimal {
        Decimal::from_f64_digits(d, 15)
    }

    fn from_f64_digits(d: f64, significant: usize) -> Decimal {
        if d.is_nan() {
            return Decimal::NaN;
        }
        if d.is_infinite() {
            return Decimal::Infinity { negative: d < 0.0 };
        }
        if d == 0.0 {
            return Decimal::Finite {
                negative: d.is_sign_negative(),
                coefficient: 0,
                exponent: 0,
            };
        }
        // Rust's formatting is exact and correctly rounded: "d.ddd…e±x".
        let places = significant.saturating_sub(1);
        let text = format!("{:.places$e}", d.abs());
        let (mantissa, exp) = text.split_once('e').unwrap_or((&text, "0"));
        let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
        let coefficient = digits.parse::<u128>().unwrap_or(0);
        let exponent = exp.parse::<i32>().unwrap_or(0) - places as i32;
        Decimal::Finite {
            negative: d < 0.0,
            coefficient,
            exponent,
        }
    }

    /// The value of a numeric BSON value, if it is one.
    pub fn from_number(v: &Bson) -> Option<Decimal> {
        Some(match v {
            Bson::Int32(i) => Decimal::from_i64(i64::from(*i)),
            Bson::Int64(i) => Decimal::from_i64(*i),
            Bson::Double(d) => Decimal::from_f64(*d),
            Bson::Decimal128(d) => Decimal::from_bson(d),
            _ => return None,
        })
    }

    pub fn is_nan(&self) -> bool {
        matches!(self, Decimal::NaN)
    }

    /// The nearest double (for arithmetic in expressions).
    pub fn to_f64(&self) -> f64 {
        match *self {
            Decimal::NaN => f64::NAN,
            Decimal::Infinity { negative } => {
                if negative {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                }
            }
            Decimal::Finite {
                negative,
                coefficient,
                exponent,
            } => {
                let text = format!(
                    "{}{coefficient}e{exponent}",
                    if negative { "-" } else { "" }
                );
                text.parse().unwrap_or(f64::NAN)
            }
        }
    }

    /// The value truncated toward zero, exactly, when it fits an i64.
    pub fn to_i64_truncated(&self) -> Option<i64> {
        let Decimal::Finite {
            negative,
            coefficient,
            exponent,
        } = *self
        else {
            return None;
        };
        let magnitude: i128 = if exponent >= 0 {
            let scale = 10i128.checked_pow(u32::try_from(exponent).ok()?)?;
            i128::try_from(coefficient).ok()?.checked_mul(scale)?
        } else {
            match 10i128.checked_pow(exponent.unsigned_abs()) {
                Some(scale) => i128::try_from(coefficient).ok()? / scale,
                // More than 38 fractional digits: the integer part of a 34-digit coefficient is 0.
                None => 0,
            }
        };
        let value = if negative { -magnitude } else { magnitude };
        i64::try_from(value).ok()
    }

    /// The total order on numbers: NaN < -Infinity < finite values < +Infinity.
    pub fn total_cmp(&self, other: &Decimal) -> Ordering {
        fn class(d: &Decimal) -> i8 {
            match d {
                Decimal::NaN => 0,
                Decimal::Infinity { negative: true } => 1,
                Decimal::Finite { .. } => 2,
                Decimal::Infinity { negative: false } => 3,
            }
        }
        match (self, other) {
            (
                Decimal::Finite {
                    negative: na,
                    coefficient: ca,
                    exponent: ea,
                },
                Decimal::Finite {
                    negative: nb,
                    coefficient: cb,
                    exponent: eb,
                },
            ) => {
                let sa = if *ca == 0 {
                    0
                } else if *na {
                    -1
                } else {
                    1
                };
                let sb = if *cb == 0 {
                    0
                } else if *nb {
                    -1
                } else {
                    1
                };
                if sa != sb {
                    return sa.cmp(&sb);
                }
                if sa == 0 {
                    return Ordering::Equal;
                }
                let mag = compare_magnitudes(*ca, *ea, *cb, *eb);
                if sa < 0 { mag.reverse() } else { mag }
            }
            _ => class(self).cmp(&class(other)),
        }
    }
}

fn digits(mut c: u128) -> i32 {
    let mut n = 0;
    while c > 0 {
        c /= 10;
        n += 1;
    }
    n
}

/// Compares `ca * 10^ea` with `cb * 10^eb` (both coefficients non-zero, at most 34 digits).
fn compare_magnitudes(ca: u128, ea: i32, cb: u128, eb: i32) -> Ordering {
    let (da, db) = (digits(ca), digits(cb));
    let (adj_a, adj_b) = (da + ea, db + eb);
    if adj_a != adj_b {
        return adj_a.cmp(&adj_b);
    }
    // Same magnitude: align both coefficients to the same number of digits.
    let width = da.max(db);
    let scale = |c: u128, d: i32| c * 10u128.pow((width - d) as u32);
    scale(ca, da).cmp(&scale(cb, db))
}

/// Compares two numbers of which at least one is a decimal128.
pub fn compare_with_decimal(a: &Bson, b: &Bson) -> Ordering {
    match (Decimal::from_number(a), Decimal::from_number(b)) {
        (Some(x), Some(y)) => x.total_cmp(&y),
        _ => Ordering::Equal,
    }
}

/// Whether a decimal128 is NaN.
pub fn decimal_is_nan(d: &Decimal128) -> bool {
    Decimal::from_bson(d).is_nan()
}

/// A number as a double (decimals rounded); `None` for any other type.
pub fn as_f64(v: &Bson) -> Option<f64> {
    match v {
        Bson::Int32(i) => Some(f64::from(*i)),
        Bson::Int64(i) => Some(*i as f64),
        Bson::Double(d) => Some(*d),
        Bson::Decimal128(d) => Some(Decimal::from_bson(d).to_f64()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn dec(s: &str) -> Bson {
        Bson::Decimal128(Decimal128::from_str(s).unwrap())
    }

    #[test]
    fn decodes_decimal128() {
        let Bson::Decimal128(d) = dec("-12.5") else {
            unreachable!()
        };
        assert_eq!(
            Decimal::from_bson(&d),
            Decimal::Finite {
                negative: true,
                coefficient: 125,
                exponent: -1
            }
        );
        let Bson::Decimal128(d) = dec("NaN") else {
            unreachable!()
        };
        assert!(decimal_is_nan(&d));
    }

    #[test]
    fn exact_cross_type_comparison() {
        assert_eq!(
            compare_with_decimal(&dec("1.0"), &Bson::Int32(1)),
            Ordering::Equal
        );
        assert_eq!(
            compare_with_decimal(&dec("0.1"), &Bson::Double(0.1)),
            Ordering::Less
        );
        assert_eq!(
            compare_with_decimal(&dec("2.5"), &Bson::Double(2.5)),
            Ordering::Equal
        );
        assert_eq!(
            compare_with_decimal(&dec("9223372036854775808"), &Bson::Int64(i64::MAX)),
            Ordering::Greater
        );
        assert_eq!(
            compare_with_decimal(&dec("-Infinity"), &Bson::Int32(-5)),
            Ordering::Less
        );
        assert_eq!(
            compare_with_decimal(&dec("NaN"), &Bson::Double(f64::NAN)),
            Ordering::Equal
        );
        assert_eq!(
            compare_with_decimal(&dec("NaN"), &dec("-Infinity")),
            Ordering::Less
        );
        assert_eq!(
            compare_with_decimal(&dec("-0"), &Bson::Int32(0)),
            Ordering::Equal
        );
        assert_eq!(
            compare_with_decimal(&dec("100E-2"), &dec("1")),
            Ordering::Equal
        );
        assert_eq!(
            compare_with_decimal(&dec("-3"), &dec("-2.99")),
            Ordering::Less
        );
    }

    #[test]
    fn exact_truncation() {
        let t = |s: &str| {
            let Bson::Decimal128(d) = dec(s) else {
                unreachable!()
            };
            Decimal::from_bson(&d).to_i64_truncated()
        };
        assert_eq!(t("9223372036854775807"), Some(i64::MAX));
        assert_eq!(t("9223372036854775808"), None);
        assert_eq!(t("-9223372036854775808"), Some(i64::MIN));
        assert_eq!(t("-9223372036854775809"), None);
        assert_eq!(t("-2.9"), Some(-2));
        assert_eq!(t("1E+3"), Some(1000));
        assert_eq!(t("1E-50"), Some(0));
        assert_eq!(t("NaN"), None);
    }

    #[test]
    fn to_f64() {
        let Bson::Decimal128(d) = dec("12.25") else {
            unreachable!()
        };
        assert_eq!(Decimal::from_bson(&d).to_f64(), 12.25);
    }
}
