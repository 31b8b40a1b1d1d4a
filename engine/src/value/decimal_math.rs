//! Decimal128 `exp`, `ln`, `log10`, `log` to a base, `pow` and `sqrt` as MongoDB computes them
//! (Intel's decimal library behind `Decimal128`): the value correctly rounded, half to even, to
//! 34 significant digits. Transcendental results keep all 34 digits (`$pow: [10, 2]` is
//! `100.0000000000000000000000000000000`); `log10` of 10^k (k ≥ 0) is the exact integer k, and
//! an exact square root takes the preferred exponent (`sqrt(4)` is `2`).
//!
//! Values are worked on as big integers in fixed point with 90 decimal places, far more than the
//! 34 digits kept, so the final rounding is the only one that shows.

use num_bigint::{BigInt, Sign};

use super::decimal_arith::{MIN_EXPONENT, PRECISION, digits_of, round};
use super::numeric::Decimal;

/// Fixed-point scale: values are integers times 10^-PLACES.
const PLACES: u32 = 90;

fn ten_pow(n: u32) -> BigInt {
    BigInt::from(10u8).pow(n)
}

fn scale() -> BigInt {
    ten_pow(PLACES)
}

/// `coefficient × 10^exponent` in fixed point (digits below the fixed point are dropped).
fn fixed(coefficient: u128, exponent: i32) -> BigInt {
    let c = BigInt::from(coefficient);
    let shift = exponent + PLACES as i32;
    if shift >= 0 {
        c * ten_pow(shift.unsigned_abs())
    } else {
        c / ten_pow(shift.unsigned_abs())
    }
}

/// atanh(t) for a fixed-point |t| < 1/2: t + t³/3 + t⁵/5 + …
fn atanh(t: &BigInt) -> BigInt {
    let s = scale();
    let t2 = t * t / &s;
    let mut power = t.clone();
    let mut sum = BigInt::from(0);
    let mut n = 1u32;
    while power.sign() != Sign::NoSign {
        sum += &power / n;
        power = &power * &t2 / &s;
        n += 2;
    }
    sum
}

/// atanh(1/n) in fixed point.
fn atanh_inverse(n: u32) -> BigInt {
    atanh(&(scale() / n))
}

fn ln2() -> BigInt {
    atanh_inverse(3) * 2
}

/// ln 10 = 3·ln 2 + ln 1.25, and ln 1.25 = 2·atanh(1/9).
fn ln10() -> BigInt {
    ln2() * 3 + atanh_inverse(9) * 2
}

fn to_f64(x: &BigInt) -> f64 {
    // Only used for range estimates: the leading 17 digits suffice.
    let text = x.to_string();
    let (sign, digits) = text.strip_prefix('-').map_or((1.0, &*text), |d| (-1.0, d));
    let lead: f64 = digits[..digits.len().min(17)].parse().unwrap_or(0.0);
    let extra = digits.len().saturating_sub(17) as i32;
    sign * lead * 10f64.powi(extra - PLACES as i32)
}

/// ln(coefficient × 10^exponent) in fixed point, for a positive coefficient.
fn ln_fixed(coefficient: u128, exponent: i32) -> BigInt {
    let s = scale();
    let n = digits_of(coefficient).len() as i32;
    // x = y × 10^k with y in [1, 10).
    let y = fixed(coefficient, 1 - n);
    let k = exponent + n - 1;
    // y = 2^j × z with z near 1, then ln z = 2·atanh((z − 1)/(z + 1)).
    let j = to_f64(&y).log2().round() as u32;
    let z = y >> j;
    let t = (&z - &s) * &s / (&z + &s);
    atanh(&t) * 2 + ln2() * j + ln10() * k
}

/// e^x for a fixed-point x: the digits of e^r in fixed point and the power of ten k, with
/// x = r + k·ln 10.
fn exp_fixed(x: &BigInt) -> (BigInt, i32) {
    let s = scale();
    let l10 = ln10();
    let k = (to_f64(x) / std::f64::consts::LN_10).round() as i32;
    let r = x - &l10 * k;
    let mut term = s.clone();
    let mut sum = BigInt::from(0);
    let mut i = 1u32;
    while term.sign() != Sign::NoSign {
        sum += &term;
        term = &term * &r / &s / i;
        i += 1;
    }
    (sum, k)
}

/// Rounds a positive fixed-point value times 10^shift to a decimal of 34 digits.
fn rounded(negative: bool, value: &BigInt, shift: i32) -> Decimal {
    if value.sign() == Sign::NoSign {
        return Decimal::Finite {
            negative,
            coefficient: 0,
            exponent: 0,
        };
    }
    let digits: Vec<u8> = value
        .magnitude()
        .to_string()
        .bytes()
        .map(|b| b - b'0')
        .collect();
    round(negative, digits, shift - PLACES as i32)
}

/// A fixed-point value of either sign, rounded to 34 digits.
fn rounded_signed(value: &BigInt) -> Decimal {
    rounded(value.sign() == Sign::Minus, value, 0)
}

/// 1 with all 34 digits, as the library returns it for `pow` special cases.
fn one() -> Decimal {
    Decimal::Finite {
        negative: false,
        coefficient: 10u128.pow(PRECISION as u32 - 1),
        exponent: 1 - PRECISION as i32,
    }
}

/// A result too small for any decimal128: zero at the smallest exponent.
fn underflow(negative: bool) -> Decimal {
    Decimal::Finite {
        negative,
        coefficient: 0,
        exponent: MIN_EXPONENT,
    }
}

fn zero() -> Decimal {
    Decimal::Finite {
        negative: false,
        coefficient: 0,
        exponent: 0,
    }
}

/// The power of ten `x` is, when it is 10^k with k ≥ 0.
fn power_of_ten(coefficient: u128, exponent: i32) -> Option<i32> {
    let digits = digits_of(coefficient);
    let is_power = digits.first() == Some(&1) && digits.iter().skip(1).all(|d| *d == 0);
    let k = exponent + digits.len() as i32 - 1;
    (is_power && k >= 0).then_some(k)
}

/// The decimal exponent of the leading digit (`x` lies in [10^a, 10^(a+1))).
fn adjusted_exponent(coefficient: u128, exponent: i32) -> i32 {
    exponent + digits_of(coefficient).len() as i32 - 1
}

impl Decimal {
    fn equals_int(&self, n: i64) -> bool {
        self.total_cmp(&Decimal::from_i64(n)).is_eq()
    }

    /// e^self.
    pub fn exp(&self) -> Decimal {
        match *self {
            Decimal::NaN => Decimal::NaN,
            Decimal::Infinity { negative: false } => *self,
            Decimal::Infinity { negative: true } => zero(),
            Decimal::Finite {
                negative,
                coefficient,
                exponent,
            } => {
                if coefficient != 0 && adjusted_exponent(coefficient, exponent) >= 6 {
                    // |x| ≥ 10^6: far outside the range e^x can be written in.
                    return if negative {
                        underflow(false)
                    } else {
                        Decimal::Infinity { negative: false }
                    };
                }
                let x = fixed(coefficient, exponent);
                let x = if negative { -x } else { x };
                let (digits, k) = exp_fixed(&x);
                rounded(false, &digits, k)
            }
        }
    }

    /// The natural logarithm of a positive value (NaN otherwise).
    pub fn ln(&self) -> Decimal {
        match *self {
            Decimal::Infinity { negative: false } => *self,
            Decimal::Finite {
                negative: false,
                coefficient,
                exponent,
            } if coefficient != 0 => rounded_signed(&ln_fixed(coefficient, exponent)),
            _ => Decimal::NaN,
        }
    }

    /// The base-10 logarithm of a positive value; exact for 10^k, k ≥ 0.
    pub fn log10(&self) -> Decimal {
        match *self {
            Decimal::Finite {
                negative: false,
                coefficient,
                exponent,
            } if coefficient != 0 => match power_of_ten(coefficient, exponent) {
                Some(k) => Decimal::from_i64(i64::from(k)),
                None => {
                    let ln = ln_fixed(coefficient, exponent);
                    rounded_signed(&(ln * scale() / ln10()))
                }
            },
            _ => self.ln(),
        }
    }

    /// The logarithm to `base` as MongoDB's `Decimal128::logarithm(base)`: base 2 and 10 by
    /// their own functions, any other as log10(self) / log10(base), each rounded to 34 digits
    /// (so `log(10, 5)` is `1 / 0.6989…5070`, 1.430676558073393050670106568763966).
    pub fn log(&self, base: &Decimal) -> Decimal {
        if base.equals_int(10) {
            return self.log10();
        }
        if base.equals_int(2) {
            return match *self {
                Decimal::Finite {
                    negative: false,
                    coefficient,
                    exponent,
                } if coefficient != 0 => {
                    let ln = ln_fixed(coefficient, exponent);
                    rounded_signed(&(ln * scale() / ln2()))
                }
                _ => self.ln(),
            };
        }
        self.log10().div(&base.log10()).unwrap_or(Decimal::NaN)
    }

    /// self^exponent (IEEE 754 `pow`: 1^y and x^0 are 1, a negative base needs an integral
    /// exponent).
    pub fn pow(&self, exponent: &Decimal) -> Decimal {
        if self.equals_int(1) || exponent.equals_int(0) {
            return one();
        }
        let (
            Decimal::Finite {
                negative,
                coefficient,
                exponent: e,
            },
            Decimal::Finite {
                negative: y_negative,
                coefficient: y,
                exponent: y_exponent,
            },
        ) = (*self, *exponent)
        else {
            // NaN and the infinities follow the binary rules.
            return Decimal::from_f64(self.to_f64().powf(exponent.to_f64()));
        };
        let odd = match integral_parity(y, y_exponent) {
            Some(odd) => odd,
            None if negative && coefficient != 0 => return Decimal::NaN,
            None => false,
        };
        let result_negative = negative && odd;
        if coefficient == 0 {
            return if y_negative {
                Decimal::Infinity {
                    negative: result_negative,
                }
            } else {
                Decimal::Finite {
                    negative: result_negative,
                    coefficient: 0,
                    exponent: 0,
                }
            };
        }
        let ln = ln_fixed(coefficient, e);
        // Estimate y·ln|x| first: beyond ±10^5 the result overflows or underflows.
        let estimate = exponent.to_f64() * to_f64(&ln);
        if !estimate.is_finite() || estimate.abs() > 1e5 {
            return if estimate > 0.0 {
                Decimal::Infinity {
                    negative: result_negative,
                }
            } else {
                underflow(result_negative)
            };
        }
        let mut product = ln * BigInt::from(y);
        if y_exponent >= 0 {
            product *= ten_pow(y_exponent.unsigned_abs());
        } else {
            product /= ten_pow(y_exponent.unsigned_abs());
        }
        if y_negative {
            product = -product;
        }
        let (digits, k) = exp_fixed(&product);
        rounded(result_negative, &digits, k)
    }

    /// The square root, correctly rounded; an exact root takes the preferred exponent
    /// (half the operand's, rounded down). NaN for a negative operand.
    pub fn sqrt(&self) -> Decimal {
        match *self {
            Decimal::NaN | Decimal::Infinity { negative: true } => Decimal::NaN,
            Decimal::Infinity { negative: false } => *self,
            Decimal::Finite {
                negative,
                coefficient: 0,
                exponent,
            } => Decimal::Finite {
                negative,
                coefficient: 0,
                exponent: exponent.div_euclid(2),
            },
            Decimal::Finite { negative: true, .. } => Decimal::NaN,
            Decimal::Finite {
                coefficient,
                exponent,
                ..
            } => {
                let n = digits_of(coefficient).len() as i32;
                // Enough digits for a 35-digit root, with an even exponent left.
                let mut shift = (2 * PRECISION as i32 + 2 - n).max(0);
                if (exponent - shift).rem_euclid(2) == 1 {
                    shift += 1;
                }
                let radicand = BigInt::from(coefficient) * ten_pow(shift.unsigned_abs());
                let root = radicand.sqrt();
                let mut root_exponent = (exponent - shift) / 2;
                let mut digits: Vec<u8> = root.to_string().bytes().map(|b| b - b'0').collect();
                if &root * &root == radicand {
                    let preferred = exponent.div_euclid(2);
                    while root_exponent < preferred && digits.last() == Some(&0) {
                        digits.pop();
                        root_exponent += 1;
                    }
                } else {
                    // A sticky digit: the root lies strictly between two candidates.
                    digits.push(1);
                    root_exponent -= 1;
                }
                round(false, digits, root_exponent)
            }
        }
    }
}

/// Whether `y × 10^exponent` is an integer, and if so whether it is odd.
fn integral_parity(y: u128, exponent: i32) -> Option<bool> {
    if y == 0 || exponent > 0 {
        return Some(false);
    }
    // When 10^-exponent overflows it exceeds every coefficient: only zero is integral.
    let divisor = 10u128.checked_pow(exponent.unsigned_abs())?;
    y.is_multiple_of(divisor)
        .then(|| !(y / divisor).is_multiple_of(2))
}

#[cfg(test)]
mod tests {
    use super::super::decimal_arith::tests::{d, show};

    #[test]
    fn exp_and_ln_round_to_34_digits() {
        assert_eq!(show(d("1").exp()), "2.718281828459045235360287471352662");
        assert_eq!(show(d("-1").exp()), "0.3678794411714423215955237701614609");
        assert_eq!(
            show(d("2.718281828459045235360287471352662").ln()),
            "0.9999999999999999999999999999999998"
        );
        assert_eq!(show(d("0.1").ln()), "-2.302585092994045684017991454684364");
        assert_eq!(show(d("NaN").exp()), "NaN");
        assert_eq!(show(d("1E+7").exp()), "Infinity");
        assert_eq!(show(d("1").ln()), "0");
    }

    #[test]
    fn logarithms_to_a_base() {
        assert_eq!(show(d("10").log10()), "1");
        assert_eq!(show(d("10000").log10()), "4");
        assert_eq!(
            show(d("0.0000000001").log10()),
            "-10.00000000000000000000000000000000"
        );
        assert_eq!(show(d("10").log(&d("10.0000000000000"))), "1");
        assert_eq!(
            show(d("10").log(&d("5.00000000000000"))),
            "1.430676558073393050670106568763966"
        );
    }

    #[test]
    fn powers_keep_34_digits() {
        assert_eq!(
            show(d("10").pow(&d("2"))),
            "100.0000000000000000000000000000000"
        );
        assert_eq!(
            show(d("5").pow(&d("-112"))),
            "5.192296858534827628530496329220096E-79"
        );
        assert_eq!(
            show(d("3").pow(&d("35"))),
            "50031545098999707.00000000000000000"
        );
        assert_eq!(
            show(d("1").pow(&d("NaN"))),
            "1.000000000000000000000000000000000"
        );
        assert_eq!(show(d("NaN").pow(&d("2"))), "NaN");
        assert_eq!(
            show(d("-2").pow(&d("3"))),
            "-8.000000000000000000000000000000000"
        );
        assert_eq!(show(d("-2").pow(&d("0.5"))), "NaN");
    }

    #[test]
    fn square_roots() {
        assert_eq!(show(d("4").sqrt()), "2");
        assert_eq!(show(d("4.00").sqrt()), "2.0");
        assert_eq!(show(d("2").sqrt()), "1.414213562373095048801688724209698");
        assert_eq!(show(d("NaN").sqrt()), "NaN");
        assert_eq!(show(d("0.01").sqrt()), "0.1");
    }
}
