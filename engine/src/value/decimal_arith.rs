//! Exact decimal128 addition, subtraction and multiplication with IEEE 754-2008 rounding
//! (34 significant digits, round half to even), and encoding back to BSON's BID bytes.
//!
//! Coefficients are worked on as decimal digit vectors: decimal arithmetic is rare in queries,
//! so simplicity wins over speed here.

use std::cmp::Ordering;

use bson::Decimal128;

use super::numeric::Decimal;

pub(super) const PRECISION: usize = 34;
const MAX_EXPONENT: i32 = 6111;
pub(super) const MIN_EXPONENT: i32 = -6176;
const BIAS: i32 = 6176;

/// Decimal digits, most significant first, without leading zeros (zero is empty).
type Digits = Vec<u8>;

pub(super) fn digits_of(mut c: u128) -> Digits {
    let mut out = Vec::new();
    while c > 0 {
        out.push((c % 10) as u8);
        c /= 10;
    }
    out.reverse();
    out
}

fn trim(mut d: Digits) -> Digits {
    let lead = d.iter().take_while(|x| **x == 0).count();
    d.drain(..lead);
    d
}

fn cmp_digits(a: &[u8], b: &[u8]) -> Ordering {
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

fn add_digits(a: &[u8], b: &[u8]) -> Digits {
    let mut out = Vec::with_capacity(a.len().max(b.len()) + 1);
    let (mut i, mut j, mut carry) = (a.len(), b.len(), 0u8);
    while i > 0 || j > 0 || carry > 0 {
        let x = if i > 0 {
            i -= 1;
            a.get(i).copied().unwrap_or(0)
        } else {
            0
        };
        let y = if j > 0 {
            j -= 1;
            b.get(j).copied().unwrap_or(0)
        } else {
            0
        };
        let s = x + y + carry;
        out.push(s % 10);
        carry = s / 10;
    }
    out.reverse();
    trim(out)
}

/// `a - b` for `a >= b`.
fn sub_digits(a: &[u8], b: &[u8]) -> Digits {
    let mut out = Vec::with_capacity(a.len());
    let (mut i, mut j, mut borrow) = (a.len(), b.len(), 0i8);
    while i > 0 {
        i -= 1;
        let x = a.get(i).copied().unwrap_or(0) as i8;
        let y = if j > 0 {
            j -= 1;
            b.get(j).copied().unwrap_or(0) as i8
        } else {
            0
        };
        let mut d = x - y - borrow;
        borrow = 0;
        if d < 0 {
            d += 10;
            borrow = 1;
        }
        out.push(d as u8);
    }
    out.reverse();
    trim(out)
}

fn mul_digits(a: &[u8], b: &[u8]) -> Digits {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    let mut acc = vec![0u32; a.len() + b.len()];
    for (i, x) in a.iter().rev().enumerate() {
        for (j, y) in b.iter().rev().enumerate() {
            if let Some(slot) = acc.get_mut(i + j) {
                *slot += u32::from(*x) * u32::from(*y);
            }
        }
    }
    let mut carry = 0u32;
    let mut out = Vec::with_capacity(acc.len() + 2);
    for v in acc {
        let s = v + carry;
        out.push((s % 10) as u8);
        carry = s / 10;
    }
    while carry > 0 {
        out.push((carry % 10) as u8);
        carry /= 10;
    }
    out.reverse();
    trim(out)
}

/// `a / b` (b nonzero): the quotient digits and whether a remainder was left.
fn div_digits(a: &[u8], b: &[u8]) -> (Digits, bool) {
    let mut quotient = Vec::with_capacity(a.len());
    let mut rem: Digits = Vec::new();
    for d in a {
        rem.push(*d);
        rem = trim(rem);
        let mut q = 0u8;
        while cmp_digits(&rem, b) != Ordering::Less {
            rem = sub_digits(&rem, b);
            q += 1;
        }
        quotient.push(q);
    }
    (trim(quotient), !rem.is_empty())
}

/// Rounds `digits × 10^exponent` to 34 digits (half to even) and into the exponent range.
pub(super) fn round(negative: bool, mut digits: Digits, mut exponent: i32) -> Decimal {
    let mut drop = digits.len().saturating_sub(PRECISION);
    // Below the smallest exponent: drop more digits.
    if exponent + (drop as i32) < MIN_EXPONENT {
        drop = usize::try_from(MIN_EXPONENT - exponent).unwrap_or(usize::MAX);
    }
    if drop > 0 {
        let keep = digits.len().saturating_sub(drop);
        let tail: Digits = digits.split_off(keep);
        exponent += drop as i32;
        let first = if drop > tail.len() {
            0
        } else {
            tail.first().copied().unwrap_or(0)
        };
        let rest_nonzero = if drop > tail.len() {
            tail.iter().any(|d| *d != 0)
        } else {
            tail.iter().skip(1).any(|d| *d != 0)
        };
        let last_odd = digits.last().is_some_and(|d| d % 2 == 1);
        let round_up = first > 5 || (first == 5 && (rest_nonzero || last_odd));
        if round_up {
            digits = add_digits(&digits, &[1]);
            if digits.len() > PRECISION {
                digits.pop();
                exponent += 1;
            }
        }
    }
    let mut digits = trim(digits);
    // Above the largest exponent: pad with zeros while there is room, else infinity.
    while exponent > MAX_EXPONENT && !digits.is_empty() && digits.len() < PRECISION {
        digits.push(0);
        exponent -= 1;
    }
    if exponent > MAX_EXPONENT {
        if digits.is_empty() {
            exponent = MAX_EXPONENT;
        } else {
            return Decimal::Infinity { negative };
        }
    }
    let coefficient = digits
        .iter()
        .fold(0u128, |acc, d| acc * 10 + u128::from(*d));
    Decimal::Finite {
        negative,
        coefficient,
        exponent: exponent.max(MIN_EXPONENT),
    }
}

fn special(a: &Decimal, b: &Decimal, op: char) -> Option<Decimal> {
    use Decimal::*;
    match (a, b) {
        (NaN, _) | (_, NaN) => Some(NaN),
        (Infinity { negative: x }, Infinity { negative: y }) => match op {
            '+' if x == y => Some(*a),
            '+' => Some(NaN),
            _ => Some(Infinity { negative: x != y }),
        },
        (
            Infinity { negative },
            Finite {
                negative: n,
                coefficient,
                ..
            },
        )
        | (
            Finite {
                negative: n,
                coefficient,
                ..
            },
            Infinity { negative },
        ) => match op {
            '+' => Some(Infinity {
                negative: *negative,
            }),
            _ if *coefficient == 0 => Some(NaN),
            _ => Some(Infinity {
                negative: negative != n,
            }),
        },
        _ => None,
    }
}

impl Decimal {
    /// The BSON decimal128 for this value.
    pub fn to_decimal128(&self) -> Decimal128 {
        let (negative, high, low) = match *self {
            Decimal::NaN => (false, 0x7C00_0000_0000_0000u64, 0u64),
            Decimal::Infinity { negative } => (negative, 0x7800_0000_0000_0000u64, 0),
            Decimal::Finite {
                negative,
                coefficient,
                exponent,
            } => {
                let biased = u64::try_from((exponent + BIAS).clamp(0, 0x3FFF)).unwrap_or(0);
                let high = (biased << 49) | ((coefficient >> 64) as u64 & 0x1_FFFF_FFFF_FFFF);
                (negative, high, coefficient as u64)
            }
        };
        let high = if negative { high | (1 << 63) } else { high };
        let mut bytes = [0u8; 16];
        bytes[..8].copy_from_slice(&low.to_le_bytes());
        bytes[8..].copy_from_slice(&high.to_le_bytes());
        Decimal128::from_bytes(bytes)
    }

    /// `self + other`, rounded to 34 digits.
    pub fn add(&self, other: &Decimal) -> Decimal {
        if let Some(s) = special(self, other, '+') {
            return s;
        }
        let (
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
        ) = (*self, *other)
        else {
            return Decimal::NaN;
        };
        // Align to the smaller exponent; an operand far below the other's last digit only
        // matters as a sticky digit for rounding.
        let (mut da, mut db) = (digits_of(ca), digits_of(cb));
        let (mut ea, mut eb) = (ea, eb);
        let gap_limit = (PRECISION + 4) as i32;
        if ea - eb > gap_limit + db.len() as i32 && !db.is_empty() {
            db = vec![1];
            eb = ea - gap_limit;
            da.extend(std::iter::repeat_n(0, gap_limit as usize));
            ea = eb;
        } else if eb - ea > gap_limit + da.len() as i32 && !da.is_empty() {
            da = vec![1];
            ea = eb - gap_limit;
            db.extend(std::iter::repeat_n(0, gap_limit as usize));
            eb = ea;
        }
        let e = ea.min(eb);
        da.extend(std::iter::repeat_n(0, usize::try_from(ea - e).unwrap_or(0)));
        db.extend(std::iter::repeat_n(0, usize::try_from(eb - e).unwrap_or(0)));
        let (da, db) = (trim(da), trim(db));
        if na == nb {
            return round(na, add_digits(&da, &db), e);
        }
        match cmp_digits(&da, &db) {
            Ordering::Equal => Decimal::Finite {
                negative: false,
                coefficient: 0,
                exponent: e.clamp(MIN_EXPONENT, MAX_EXPONENT),
            },
            Ordering::Greater => round(na, sub_digits(&da, &db), e),
            Ordering::Less => round(nb, sub_digits(&db, &da), e),
        }
    }

    /// `self - other`.
    pub fn sub(&self, other: &Decimal) -> Decimal {
        let negated = match *other {
            Decimal::Finite {
                negative,
                coefficient,
                exponent,
            } => Decimal::Finite {
                negative: !negative,
                coefficient,
                exponent,
            },
            Decimal::Infinity { negative } => Decimal::Infinity {
                negative: !negative,
            },
            Decimal::NaN => Decimal::NaN,
        };
        self.add(&negated)
    }

    /// `self / other`, rounded to 34 digits; `None` when dividing by zero. An exact quotient
    /// keeps the preferred exponent (`1.00 / 2` is `0.50`).
    pub fn div(&self, other: &Decimal) -> Option<Decimal> {
        use Decimal::*;
        match (*self, *other) {
            (NaN, _) | (_, NaN) => return Some(NaN),
            (Infinity { .. }, Infinity { .. }) => return Some(NaN),
            (Infinity { negative: x }, Finite { negative: y, .. }) => {
                return Some(Infinity { negative: x != y });
            }
            (Finite { negative: x, .. }, Infinity { negative: y }) => {
                return Some(Finite {
                    negative: x != y,
                    coefficient: 0,
                    exponent: 0,
                });
            }
            _ => {}
        }
        let (
            Finite {
                negative: na,
                coefficient: ca,
                exponent: ea,
            },
            Finite {
                negative: nb,
                coefficient: cb,
                exponent: eb,
            },
        ) = (*self, *other)
        else {
            return Some(NaN);
        };
        if cb == 0 {
            return None;
        }
        let preferred = ea - eb;
        if ca == 0 {
            return Some(round(na != nb, Vec::new(), preferred));
        }
        let (da, db) = (digits_of(ca), digits_of(cb));
        // Enough digits for 34 significant quotient digits and two guard digits.
        let k = (PRECISION + 2 + db.len()).saturating_sub(da.len());
        let mut num = da;
        num.extend(std::iter::repeat_n(0, k));
        let (mut q, inexact) = div_digits(&num, &db);
        let mut exponent = preferred - k as i32;
        if inexact {
            // A sticky digit below the guard digits makes the rounding exact.
            q.push(1);
            exponent -= 1;
        } else {
            while exponent < preferred && q.last() == Some(&0) {
                q.pop();
                exponent += 1;
            }
        }
        Some(round(na != nb, q, exponent))
    }

    /// `self × other`, rounded to 34 digits.
    pub fn mul(&self, other: &Decimal) -> Decimal {
        if let Some(s) = special(self, other, '*') {
            return s;
        }
        let (
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
        ) = (*self, *other)
        else {
            return Decimal::NaN;
        };
        round(
            na != nb,
            mul_digits(&digits_of(ca), &digits_of(cb)),
            ea + eb,
        )
    }
}

#[cfg(test)]
pub(super) mod tests {
    use std::str::FromStr;

    use super::*;

    /// A decimal from its text (shared by the value module's decimal tests).
    pub(in crate::value) fn d(s: &str) -> Decimal {
        Decimal::from_bson(&Decimal128::from_str(s).unwrap())
    }

    pub(in crate::value) fn show(x: Decimal) -> String {
        x.to_decimal128().to_string()
    }

    #[test]
    fn round_trips_through_bid_bytes() {
        for s in [
            "0",
            "1.5",
            "-12.345",
            "1E+10",
            "NaN",
            "Infinity",
            "-Infinity",
        ] {
            let x = d(s);
            assert_eq!(Decimal::from_bson(&x.to_decimal128()), x, "{s}");
        }
    }

    #[test]
    fn exact_arithmetic() {
        assert_eq!(show(d("0.1").add(&d("0.2"))), "0.3");
        assert_eq!(show(d("1.00").add(&d("2"))), "3.00");
        assert_eq!(show(d("5").sub(&d("7.5"))), "-2.5");
        assert_eq!(show(d("1.5").mul(&d("-2"))), "-3.0");
        assert_eq!(show(d("1.1").sub(&d("1.1"))), "0.0");
        // 34 digits, half to even.
        assert_eq!(
            show(d("9999999999999999999999999999999999").add(&d("1"))),
            "1.000000000000000000000000000000000E+34"
        );
        assert_eq!(
            show(d("1000000000000000000000000000000000").add(&d("0.5"))),
            "1000000000000000000000000000000000"
        );
        assert_eq!(
            show(d("1000000000000000000000000000000001").add(&d("0.5"))),
            "1000000000000000000000000000000002"
        );
        // A far smaller operand only rounds.
        assert_eq!(
            show(d("1E+100").add(&d("1E-100"))),
            "1.000000000000000000000000000000000E+100"
        );
        assert_eq!(show(d("Infinity").add(&d("-Infinity"))), "NaN");
        let div = |a: &str, b: &str| d(a).div(&d(b)).map(show);
        assert_eq!(
            div("1", "3").as_deref(),
            Some("0.3333333333333333333333333333333333")
        );
        assert_eq!(
            div("2", "3").as_deref(),
            Some("0.6666666666666666666666666666666667")
        );
        assert_eq!(div("1.00", "2").as_deref(), Some("0.50"));
        assert_eq!(div("10", "4").as_deref(), Some("2.5"));
        assert_eq!(div("6", "2").as_deref(), Some("3"));
        assert_eq!(div("-1", "8").as_deref(), Some("-0.125"));
        assert_eq!(div("1", "0"), None);
        assert_eq!(show(d("Infinity").mul(&d("-2"))), "-Infinity");
    }
}
