//! The running numeric total behind `$sum` and `$avg`, with MongoDB's result types: integers
//! are summed exactly and the result is an int while it fits, then a long, then a double; any
//! double makes the result a double (summed with double-double precision, as MongoDB's
//! `DoubleDoubleSummation` does, so long runs of doubles do not drift); any decimal makes it a
//! decimal (the non-decimal part is added to the decimal total at the end).

use bson::Bson;

use crate::value::Decimal;

/// The widest numeric type seen so far (MongoDB's `getWidestNumeric`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Width {
    Int,
    Long,
    Double,
    Decimal,
}

#[derive(Debug, Clone)]
pub struct NumericSum {
    width: Width,
    /// Exact sum of the integer inputs.
    integers: i128,
    /// Double-double sum of the double inputs: `hi + lo` is the total.
    hi: f64,
    lo: f64,
    /// Naive sum of non-finite doubles (infinities and NaN poison the double-double pair).
    non_finite: Option<f64>,
    decimal: Option<Decimal>,
    /// How many numbers were added (for `$avg`).
    count: u64,
}

impl Default for NumericSum {
    fn default() -> Self {
        NumericSum {
            width: Width::Int,
            integers: 0,
            hi: 0.0,
            lo: 0.0,
            non_finite: None,
            decimal: None,
            count: 0,
        }
    }
}

impl NumericSum {
    /// Adds a value; anything that is not a number is ignored (returns false).
    pub fn add(&mut self, v: &Bson) -> bool {
        match v {
            Bson::Int32(i) => self.integers += i128::from(*i),
            Bson::Int64(i) => {
                self.integers += i128::from(*i);
                self.width = self.width.max(Width::Long);
            }
            Bson::Double(d) => {
                self.add_double(*d);
                self.width = self.width.max(Width::Double);
            }
            Bson::Decimal128(d) => {
                let d = Decimal::from_bson(d);
                self.decimal = Some(match self.decimal {
                    Some(total) => total.add(&d),
                    None => d,
                });
                self.width = Width::Decimal;
            }
            _ => return false,
        }
        self.count += 1;
        true
    }

    /// How many numbers were added.
    pub fn count(&self) -> u64 {
        self.count
    }

    fn add_double(&mut self, d: f64) {
        if !d.is_finite() {
            self.non_finite = Some(self.non_finite.unwrap_or(0.0) + d);
            return;
        }
        // Knuth's two-sum: `s + e` is exactly `hi + d`.
        let s = self.hi + d;
        let bp = s - self.hi;
        let e = (self.hi - (s - bp)) + (d - bp);
        self.hi = s;
        self.lo += e;
    }

    /// The total of the non-decimal inputs as a double.
    fn double_total(&self) -> f64 {
        if let Some(special) = self.non_finite {
            return special;
        }
        // Add the exact integer total in two exactly representable halves.
        let high = (self.integers >> 32) << 32;
        let low = self.integers - high;
        let mut sum = self.clone();
        sum.non_finite = None;
        sum.add_double(high as f64);
        sum.add_double(low as f64);
        sum.hi + sum.lo
    }

    /// The total with MongoDB's result type.
    pub fn total(&self) -> Bson {
        match self.width {
            Width::Int | Width::Long => match i64::try_from(self.integers) {
                Ok(total) if self.width == Width::Int => {
                    i32::try_from(total).map_or(Bson::Int64(total), Bson::Int32)
                }
                Ok(total) => Bson::Int64(total),
                Err(_) => Bson::Double(self.integers as f64),
            },
            Width::Double => Bson::Double(self.double_total()),
            Width::Decimal => Bson::Decimal128(self.decimal_total().to_decimal128()),
        }
    }

    fn decimal_total(&self) -> Decimal {
        let decimal = self.decimal.unwrap_or(Decimal::from_i64(0));
        let others = if self.hi == 0.0 && self.lo == 0.0 && self.non_finite.is_none() {
            match i64::try_from(self.integers) {
                Ok(i) => Decimal::from_i64(i),
                Err(_) => Decimal::from_f64(self.integers as f64),
            }
        } else {
            Decimal::from_f64(self.double_total())
        };
        decimal.add(&others)
    }

    /// The mean (`$avg`): a double, or a decimal when a decimal was added; null when no number
    /// was added.
    pub fn mean(&self) -> Bson {
        if self.count == 0 {
            return Bson::Null;
        }
        if self.width == Width::Decimal {
            let count = Decimal::from_i64(i64::try_from(self.count).unwrap_or(i64::MAX));
            return match self.decimal_total().div(&count) {
                Some(q) => Bson::Decimal128(q.to_decimal128()),
                None => Bson::Null,
            };
        }
        let total = match self.width {
            Width::Int | Width::Long if self.non_finite.is_none() => self.integers as f64,
            _ => self.double_total(),
        };
        Bson::Double(total / self.count as f64)
    }
}

/// A number as a double (decimals rounded), for the statistical accumulators and rounders.
pub use crate::value::as_f64;

#[cfg(test)]
mod tests {
    use super::*;

    fn sum(values: &[Bson]) -> NumericSum {
        let mut s = NumericSum::default();
        for v in values {
            s.add(v);
        }
        s
    }

    #[test]
    fn integers_widen_from_int_to_long_to_double() {
        assert_eq!(
            sum(&[Bson::Int32(1), Bson::Int32(2)]).total(),
            Bson::Int32(3)
        );
        assert_eq!(
            sum(&[Bson::Int32(i32::MAX), Bson::Int32(1)]).total(),
            Bson::Int64(i64::from(i32::MAX) + 1)
        );
        assert_eq!(
            sum(&[Bson::Int64(1), Bson::Int32(2)]).total(),
            Bson::Int64(3)
        );
        assert_eq!(
            sum(&[Bson::Int64(i64::MAX), Bson::Int64(1)]).total(),
            Bson::Double(9.223_372_036_854_776e18)
        );
        assert_eq!(sum(&[]).total(), Bson::Int32(0));
    }

    #[test]
    fn doubles_and_non_numbers() {
        let s = sum(&[
            Bson::Int32(1),
            Bson::Double(0.5),
            Bson::String("x".into()),
            Bson::Null,
        ]);
        assert_eq!(s.total(), Bson::Double(1.5));
        assert_eq!(s.count(), 2);
        assert_eq!(s.mean(), Bson::Double(0.75));
        // Double-double keeps the small terms a naive sum loses.
        let s = sum(&[Bson::Double(1e16), Bson::Double(1.0), Bson::Double(-1e16)]);
        assert_eq!(s.total(), Bson::Double(1.0));
        let s = sum(&[Bson::Double(f64::INFINITY), Bson::Double(1.0)]);
        assert_eq!(s.total(), Bson::Double(f64::INFINITY));
    }

    #[test]
    fn decimals() {
        let d = |s: &str| Bson::Decimal128(s.parse().unwrap());
        let s = sum(&[d("1.5"), Bson::Int32(2)]);
        assert_eq!(s.total(), d("3.5"));
        assert_eq!(s.mean(), d("1.75"));
        assert_eq!(sum(&[]).mean(), Bson::Null);
    }
}
