//! Decimal128 addition and multiplication for `$inc` and `$mul`, through the value module's
//! exact decimal arithmetic (34 digits, half to even, as IEEE 754-2008 decimal128 and so
//! MongoDB). Ints and longs convert exactly; doubles become 15-digit decimals first, as in
//! MongoDB's `Value::coerceToDecimal`.

use bson::Bson;

use crate::value::Decimal;

/// A numeric operand as a decimal; `None` for a non-number.
fn operand(v: &Bson) -> Option<Decimal> {
    match v {
        Bson::Double(d) => Some(Decimal::from_f64_arithmetic(*d)),
        _ => Decimal::from_number(v),
    }
}

/// `a + b` as a decimal128; `None` when an operand is not a number.
pub fn add(a: &Bson, b: &Bson) -> Option<Bson> {
    let sum = operand(a)?.add(&operand(b)?);
    Some(Bson::Decimal128(sum.to_decimal128()))
}

/// `a * b` as a decimal128; `None` when an operand is not a number.
pub fn multiply(a: &Bson, b: &Bson) -> Option<Bson> {
    let product = operand(a)?.mul(&operand(b)?);
    Some(Bson::Decimal128(product.to_decimal128()))
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use bson::Decimal128;

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
