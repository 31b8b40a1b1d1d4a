//! `$inc` and `$mul` with MongoDB's numeric promotion: the result has the wider type of the two
//! operands (int < long < double); an int result that overflows becomes a long, and a long that
//! overflows fails the update (MongoDB never silently turns it into a double).

use bson::Bson;

use super::apply::{LeafContext, Outcome};
use super::decimal;
use super::identical::identical;
use crate::error::{Error, Result};
use crate::value::display::{key_value, type_name};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arith {
    Inc,
    Mul,
}

impl Arith {
    pub fn operator(self) -> &'static str {
        match self {
            Arith::Inc => "$inc",
            Arith::Mul => "$mul",
        }
    }
}

fn is_number(v: &Bson) -> bool {
    matches!(
        v,
        Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_) | Bson::Decimal128(_)
    )
}

/// Parse-time check of the operand (`{$inc: {a: "x"}}` fails before any document is read).
pub fn check_operand(kind: Arith, field: &str, operand: &Bson) -> Result<()> {
    if is_number(operand) {
        return Ok(());
    }
    let verb = match kind {
        Arith::Inc => "increment",
        Arith::Mul => "multiply",
    };
    Err(Error::type_mismatch(format!(
        "Cannot {verb} with non-numeric argument: {{{field}: {}}}",
        key_value(operand)
    )))
}

pub fn apply_arith(
    kind: Arith,
    operand: &Bson,
    current: Option<&Bson>,
    cx: &LeafContext,
) -> Result<Outcome> {
    let Some(existing) = current else {
        let created = match kind {
            Arith::Inc => operand.clone(),
            Arith::Mul => zero_like(operand),
        };
        return Ok(Outcome::Set(created));
    };
    if !is_number(existing) {
        return Err(Error::type_mismatch(format!(
            "Cannot apply {} to a value of non-numeric type. {{{}}} has the field '{}' of non-numeric type {}",
            kind.operator(),
            cx.id_text(),
            cx.field,
            type_name(existing)
        )));
    }
    let result = compute(kind, existing, operand).ok_or_else(|| {
        Error::bad_value(format!(
            "Failed to apply {} operations to current value ({}) for document {{{}}}",
            kind.operator(),
            debug_number(existing),
            cx.id_text()
        ))
    })?;
    if identical(&result, existing) {
        Ok(Outcome::Unchanged)
    } else {
        Ok(Outcome::Set(result))
    }
}

fn zero_like(v: &Bson) -> Bson {
    match v {
        Bson::Int64(_) => Bson::Int64(0),
        Bson::Double(_) => Bson::Double(0.0),
        // 0E+0: a zero significand with the exponent bias (6176) in the high word.
        Bson::Decimal128(_) => {
            let mut bytes = [0u8; 16];
            bytes[8..].copy_from_slice(&0x3040_0000_0000_0000_u64.to_le_bytes());
            Bson::Decimal128(bson::Decimal128::from_bytes(bytes))
        }
        _ => Bson::Int32(0),
    }
}

/// `None` when a long overflows.
fn compute(kind: Arith, a: &Bson, b: &Bson) -> Option<Bson> {
    let int = |v: &Bson| match v {
        Bson::Int32(i) => Some(i64::from(*i)),
        Bson::Int64(i) => Some(*i),
        _ => None,
    };
    let float = |v: &Bson| match v {
        Bson::Int32(i) => f64::from(*i),
        Bson::Int64(i) => *i as f64,
        Bson::Double(d) => *d,
        _ => f64::NAN,
    };
    if matches!(a, Bson::Decimal128(_)) || matches!(b, Bson::Decimal128(_)) {
        return match kind {
            Arith::Inc => decimal::add(a, b),
            Arith::Mul => decimal::multiply(a, b),
        };
    }
    if let (Bson::Int32(x), Bson::Int32(y)) = (a, b) {
        let (x, y) = (i64::from(*x), i64::from(*y));
        let r = match kind {
            Arith::Inc => x + y,
            Arith::Mul => x * y,
        };
        return Some(match i32::try_from(r) {
            Ok(small) => Bson::Int32(small),
            Err(_) => Bson::Int64(r),
        });
    }
    if let (Some(x), Some(y)) = (int(a), int(b)) {
        let r = match kind {
            Arith::Inc => x.checked_add(y),
            Arith::Mul => x.checked_mul(y),
        };
        return r.map(Bson::Int64);
    }
    let (x, y) = (float(a), float(b));
    Some(Bson::Double(match kind {
        Arith::Inc => x + y,
        Arith::Mul => x * y,
    }))
}

/// A number as MongoDB's `SafeNum::debugString` shows it.
fn debug_number(v: &Bson) -> String {
    match v {
        Bson::Int32(i) => format!("(NumberInt){i}"),
        Bson::Int64(i) => format!("(NumberLong){i}"),
        Bson::Double(d) => format!("(NumberDouble){d}"),
        other => format!("(NumberDecimal){other}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    fn run(kind: Arith, cur: Option<Bson>, by: Bson) -> Result<Outcome> {
        let original = doc! {"_id": 1};
        let cx = LeafContext::for_tests(&original, "a");
        apply_arith(kind, &by, cur.as_ref(), &cx)
    }

    fn set(o: Result<Outcome>) -> Bson {
        match o {
            Ok(Outcome::Set(v)) => v,
            other => panic!("expected a set, got {other:?}"),
        }
    }

    #[test]
    fn promotion_follows_the_wider_type() {
        assert_eq!(
            set(run(Arith::Inc, Some(Bson::Int32(1)), Bson::Int32(2))),
            Bson::Int32(3)
        );
        assert_eq!(
            set(run(Arith::Inc, Some(Bson::Int32(1)), Bson::Int64(2))),
            Bson::Int64(3)
        );
        assert_eq!(
            set(run(Arith::Inc, Some(Bson::Int32(1)), Bson::Double(0.5))),
            Bson::Double(1.5)
        );
        assert_eq!(
            set(run(Arith::Inc, Some(Bson::Int32(i32::MAX)), Bson::Int32(1))),
            Bson::Int64(i64::from(i32::MAX) + 1)
        );
        assert_eq!(
            set(run(
                Arith::Mul,
                Some(Bson::Int32(1 << 20)),
                Bson::Int32(1 << 20)
            )),
            Bson::Int64(1 << 40)
        );
    }

    #[test]
    fn decimals_are_added_exactly() {
        let dec = |s: &str| Bson::Decimal128(s.parse().unwrap());
        assert_eq!(
            set(run(Arith::Inc, Some(dec("0.1")), dec("0.2"))),
            dec("0.3")
        );
        assert_eq!(
            set(run(Arith::Inc, Some(Bson::Int32(1)), dec("1.5"))),
            dec("2.5")
        );
        assert_eq!(
            set(run(Arith::Mul, Some(dec("2.50")), Bson::Int64(2))),
            dec("5.00")
        );
        // Same value, other representation: a modification, as the bytes differ.
        assert_eq!(set(run(Arith::Inc, Some(dec("1")), dec("0.0"))), dec("1.0"));
    }

    #[test]
    fn long_overflow_fails_like_mongodb() {
        let e = run(Arith::Inc, Some(Bson::Int64(i64::MAX)), Bson::Int32(1)).unwrap_err();
        assert_eq!(e.code(), 2);
        assert_eq!(
            e.message,
            "Failed to apply $inc operations to current value ((NumberLong)9223372036854775807) for document {_id: 1}"
        );
        let e = run(Arith::Mul, Some(Bson::Int64(i64::MAX)), Bson::Int32(2)).unwrap_err();
        assert!(e.message.starts_with("Failed to apply $mul operations"));
    }

    #[test]
    fn missing_fields_and_no_ops() {
        assert_eq!(set(run(Arith::Inc, None, Bson::Int64(5))), Bson::Int64(5));
        assert_eq!(
            set(run(Arith::Mul, None, Bson::Double(5.0))),
            Bson::Double(0.0)
        );
        assert_eq!(set(run(Arith::Mul, None, Bson::Int32(5))), Bson::Int32(0));
        let two: bson::Decimal128 = "2".parse().unwrap();
        assert_eq!(
            set(run(Arith::Mul, None, Bson::Decimal128(two))).to_string(),
            "0"
        );
        assert!(matches!(
            run(Arith::Inc, Some(Bson::Int32(5)), Bson::Int32(0)),
            Ok(Outcome::Unchanged)
        ));
        // Adding a long zero turns an int into a long: a modification.
        assert_eq!(
            set(run(Arith::Inc, Some(Bson::Int32(5)), Bson::Int64(0))),
            Bson::Int64(5)
        );
    }

    #[test]
    fn non_numeric_values_and_operands() {
        let e = run(Arith::Inc, Some(Bson::String("x".into())), Bson::Int32(1)).unwrap_err();
        assert_eq!(e.code(), 14);
        assert_eq!(
            e.message,
            "Cannot apply $inc to a value of non-numeric type. {_id: 1} has the field 'a' of non-numeric type string"
        );
        let e = check_operand(Arith::Inc, "a", &Bson::String("x".into())).unwrap_err();
        assert_eq!(
            (e.code(), e.message.as_str()),
            (14, "Cannot increment with non-numeric argument: {a: \"x\"}")
        );
        let e = check_operand(Arith::Mul, "a", &Bson::Null).unwrap_err();
        assert_eq!(
            e.message,
            "Cannot multiply with non-numeric argument: {a: null}"
        );
    }
}
