//! Decimal128 from text, with the syntax the BSON specification (and js-bson, which mongosh's
//! `NumberDecimal("…")` uses) accepts.
//!
//! The `bson` crate's `Decimal128::from_str` computes the right value for every valid string but
//! is lenient about syntax: it reads `""`, `"."`, `"-+1"` or `"E01"` as numbers. This module checks
//! the grammar first and leaves the arithmetic (rounding, clamping, range) to the crate:
//!
//! ```text
//! decimal  = sign? ( "inf" | "infinity" | "nan" )          (case-insensitive)
//!          | sign? significand exponent?
//! significand = digit+ ( "." digit* )? | "." digit+
//! exponent    = ( "e" | "E" ) sign? digit+
//! ```

use std::str::FromStr;

use bson::Decimal128;

use crate::error::Error;

/// Parses `text` as a Decimal128, rejecting what the specification rejects.
pub fn parse_decimal128(text: &str) -> Result<Decimal128, Error> {
    if let Some(reason) = syntax_error(text) {
        return Err(invalid(text, reason));
    }
    Decimal128::from_str(text).map_err(|e| invalid(text, &e.to_string()))
}

/// js-bson's wording: `"<text>" is not a valid Decimal128 string - <reason>`.
fn invalid(text: &str, reason: &str) -> Error {
    Error::bad_value(format!(
        "\"{text}\" is not a valid Decimal128 string - {reason}"
    ))
}

/// Why `text` is not a decimal by the grammar above, or `None` when it is one.
fn syntax_error(text: &str) -> Option<&'static str> {
    let unsigned = text.strip_prefix(['+', '-']).unwrap_or(text);
    if is_special(unsigned) {
        return None;
    }
    let (significand, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => (&unsigned[..at], Some(&unsigned[at + 1..])),
        None => (unsigned, None),
    };
    let (whole, fraction) = match significand.split_once('.') {
        Some((w, f)) => (w, f),
        None => (significand, ""),
    };
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if !all_digits(whole) || !all_digits(fraction) {
        return Some("not a valid number");
    }
    if whole.is_empty() && fraction.is_empty() {
        return Some("no digits");
    }
    if let Some(exponent) = exponent {
        let digits = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
        if digits.is_empty() || !all_digits(digits) {
            return Some("invalid exponent");
        }
    }
    None
}

fn is_special(unsigned: &str) -> bool {
    ["inf", "infinity", "nan"]
        .iter()
        .any(|name| unsigned.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_the_specification_forms() {
        for text in [
            "0",
            "-0",
            "+1",
            "1.",
            ".5",
            "1.5E+3",
            "1e-6176",
            "-Infinity",
            "inf",
            "nAn",
            "-NaN",
            "00.00",
            "1E0",
        ] {
            assert!(parse_decimal128(text).is_ok(), "{text} should parse");
        }
        assert_eq!(parse_decimal128("1.50").unwrap().to_string(), "1.50");
    }

    #[test]
    fn rejects_what_the_bson_crate_lets_through() {
        for text in [
            "", ".", "-+1", "++1", "E01", "e100", ".e+1", "+.E+1", "E+1", "-+32.4", "1e", "1E+",
            "1..2", " 1", "1 ", "Infi", "sNaN", "0x10",
        ] {
            let err = parse_decimal128(text).unwrap_err();
            assert_eq!(err.code(), 2, "{text}");
            assert!(
                err.message.contains("is not a valid Decimal128 string"),
                "{text}"
            );
        }
    }

    #[test]
    fn out_of_range_values_are_errors_not_panics() {
        assert!(parse_decimal128("7e10000").is_err());
        assert!(parse_decimal128("1E-6177").is_err());
    }
}
