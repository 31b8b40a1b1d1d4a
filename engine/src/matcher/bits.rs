//! `$bitsAllSet`, `$bitsAllClear`, `$bitsAnySet`, `$bitsAnyClear`.

use bson::Bson;

use crate::error::{Error, Result};

/// Which bit test an operator performs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BitOp {
    AllSet,
    AllClear,
    AnySet,
    AnyClear,
}

impl BitOp {
    pub fn from_name(name: &str) -> Option<BitOp> {
        Some(match name {
            "$bitsAllSet" => BitOp::AllSet,
            "$bitsAllClear" => BitOp::AllClear,
            "$bitsAnySet" => BitOp::AnySet,
            "$bitsAnyClear" => BitOp::AnyClear,
            _ => return None,
        })
    }
}

/// A parsed bit test: the operator and the bit positions it looks at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BitTest {
    op: BitOp,
    positions: Vec<u64>,
}

impl BitTest {
    /// Parses the operand: a non-negative integer mask, a BinData mask, or an array of positions.
    pub fn parse(op: BitOp, name: &str, path: &str, operand: &Bson) -> Result<BitTest> {
        let positions = match operand {
            Bson::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    let position = match item {
                        Bson::Decimal128(_) => super::parse::truncated_in_range(item),
                        other => integral(other),
                    };
                    let Some(p) = position else {
                        return Err(Error::bad_value(format!(
                            "bit positions must be an integer but got: {i}: {}",
                            crate::value::display::key_value(item)
                        )));
                    };
                    if i32::try_from(p).is_err() {
                        return Err(Error::bad_value(format!(
                            "bit positions cannot be represented as a 32-bit signed integer: {i}: {}",
                            crate::value::display::key_value(item)
                        )));
                    }
                    if p < 0 {
                        return Err(Error::bad_value(format!(
                            "bit positions must be >= 0 but got: {i}: {p}"
                        )));
                    }
                    out.push(p as u64);
                }
                out
            }
            Bson::Binary(b) => (0..b.bytes.len() * 8)
                .filter(|bit| {
                    b.bytes
                        .get(bit / 8)
                        .is_some_and(|byte| byte >> (bit % 8) & 1 == 1)
                })
                .map(|bit| bit as u64)
                .collect(),
            Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_) | Bson::Decimal128(_) => {
                let Some(mask) = integral(operand) else {
                    return Err(Error::bad_value(format!(
                        "{name} cannot represent as a 64-bit integer: {path}: {}",
                        crate::value::display::key_value(operand)
                    )));
                };
                if mask < 0 {
                    return Err(Error::bad_value(format!(
                        "{name} must be a non-negative number: {path}: {mask}"
                    )));
                }
                (0..64).filter(|b| mask >> b & 1 == 1).collect()
            }
            other => {
                return Err(Error::bad_value(format!(
                    "{path} takes an Array, a number, or a BinData but received: {name}: {}",
                    crate::value::display::key_value(other)
                )));
            }
        };
        Ok(BitTest { op, positions })
    }

    /// The operator name and its bit positions, for serialization.
    pub fn parts(&self) -> (&'static str, &[u64]) {
        let name = match self.op {
            BitOp::AllSet => "$bitsAllSet",
            BitOp::AllClear => "$bitsAllClear",
            BitOp::AnySet => "$bitsAnySet",
            BitOp::AnyClear => "$bitsAnyClear",
        };
        (name, &self.positions)
    }

    /// Whether a value passes the test. Only integral numbers and BinData can.
    pub fn matches(&self, v: &Bson) -> bool {
        let bit: Box<dyn Fn(u64) -> bool + '_> = match v {
            Bson::Binary(b) => Box::new(move |p: u64| {
                usize::try_from(p / 8)
                    .ok()
                    .and_then(|i| b.bytes.get(i))
                    .is_some_and(|byte| byte >> (p % 8) & 1 == 1)
            }),
            Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_) => {
                let Some(n) = integral(v) else {
                    return false;
                };
                Box::new(move |p: u64| if p >= 64 { n < 0 } else { n >> p & 1 == 1 })
            }
            Bson::Decimal128(_) => {
                // Decimals convert as MongoDB's numberLong does: truncated toward zero, with
                // NaN, infinities and out-of-range values becoming the 64-bit minimum.
                let n = super::parse::truncated_in_range(v).unwrap_or(i64::MIN);
                Box::new(move |p: u64| if p >= 64 { n < 0 } else { n >> p & 1 == 1 })
            }
            _ => return false,
        };
        match self.op {
            BitOp::AllSet => self.positions.iter().all(|p| bit(*p)),
            BitOp::AllClear => self.positions.iter().all(|p| !bit(*p)),
            BitOp::AnySet => self.positions.iter().any(|p| bit(*p)),
            BitOp::AnyClear => self.positions.iter().any(|p| !bit(*p)),
        }
    }
}

/// An integral number that fits in an i64 (doubles must have no fraction).
fn integral(v: &Bson) -> Option<i64> {
    match v {
        Bson::Int32(i) => Some(i64::from(*i)),
        Bson::Int64(i) => Some(*i),
        Bson::Double(d)
            if d.fract() == 0.0
                && *d >= -9.223_372_036_854_776e18
                && *d < 9.223_372_036_854_776e18 =>
        {
            Some(*d as i64)
        }
        Bson::Decimal128(d) => {
            let f: f64 = d.to_string().parse().ok()?;
            (f.fract() == 0.0 && f.abs() < 9.0e18).then_some(f as i64)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::bson;

    fn test(op: BitOp, operand: Bson, v: Bson) -> bool {
        BitTest::parse(op, "$x", "a", &operand).unwrap().matches(&v)
    }

    #[test]
    fn masks_positions_and_bindata() {
        assert!(test(BitOp::AllSet, bson!(5), bson!(7)));
        assert!(!test(BitOp::AllSet, bson!(5), bson!(4)));
        assert!(test(BitOp::AnySet, bson!([0, 3]), bson!(8)));
        assert!(test(BitOp::AllClear, bson!([1]), bson!(5.0)));
        assert!(!test(BitOp::AllClear, bson!([1]), bson!(5.5)));
        assert!(test(BitOp::AnyClear, bson!(3), bson!(1_i64)));
        // Negative numbers are sign-extended past bit 63.
        assert!(test(BitOp::AllSet, bson!([100]), bson!(-1)));
        let bin = Bson::Binary(bson::Binary {
            subtype: bson::spec::BinarySubtype::Generic,
            bytes: vec![0b0000_0101],
        });
        assert!(test(BitOp::AllSet, bin.clone(), bson!(5)));
        assert!(test(BitOp::AllSet, bson!(1), bin));
        assert!(!test(BitOp::AnySet, bson!(1), bson!("x")));
        let dec = |s: &str| Bson::Decimal128(s.parse().unwrap());
        assert!(test(BitOp::AllSet, bson!([0, 1]), dec("3.0000")));
        assert!(test(BitOp::AnySet, bson!(1), dec("1.1234")));
        assert!(test(BitOp::AllClear, bson!(1), dec("NaN")));
    }

    #[test]
    fn bad_operands() {
        let e = BitTest::parse(BitOp::AllSet, "$bitsAllSet", "a", &bson!("x")).unwrap_err();
        assert_eq!(
            e.message,
            "a takes an Array, a number, or a BinData but received: $bitsAllSet: \"x\""
        );
        let e = BitTest::parse(BitOp::AllSet, "$bitsAllSet", "a", &bson!([1.5])).unwrap_err();
        assert_eq!(
            e.message,
            "bit positions must be an integer but got: 0: 1.5"
        );
        let e = BitTest::parse(BitOp::AllSet, "$bitsAllSet", "a", &bson!([-1])).unwrap_err();
        assert_eq!(e.message, "bit positions must be >= 0 but got: 0: -1");
        assert!(BitTest::parse(BitOp::AllSet, "$bitsAllSet", "a", &bson!(-1)).is_err());
    }
}
