//! String operators: `$concat $substr $substrBytes $substrCP $strLenBytes $strLenCP $toLower
//! $toUpper $strcasecmp $split $indexOfBytes $indexOfCP` (`basic.rs`), `$trim $ltrim $rtrim`
//! (`trim.rs`), `$replaceOne $replaceAll` (`replace.rs`) and `$regexMatch $regexFind
//! $regexFindAll` (`regex.rs`).
//!
//! MongoDB's case mapping and comparison are ASCII only (`$toUpper: "é"` is `"é"`).

mod basic;
mod builder;
mod regex;
mod replace;
mod trim;

use bson::Bson;

use super::date::civil::Civil;
use super::named_args::named_operator;
use super::operators::{Arity, Eval, OperatorDef, positional};
use crate::error::{Error, Result};
use crate::value::display::{key_value, type_name};

pub const OPERATORS: &[OperatorDef] = &[
    def("$concat", Arity::Any, basic::concat),
    def("$substr", Arity::Exactly(3), basic::substr_bytes),
    def("$substrBytes", Arity::Exactly(3), basic::substr_bytes),
    def("$substrCP", Arity::Exactly(3), basic::substr_cp),
    def("$strLenBytes", Arity::Exactly(1), basic::str_len_bytes),
    def("$strLenCP", Arity::Exactly(1), basic::str_len_cp),
    def("$toLower", Arity::Exactly(1), basic::to_lower),
    def("$toUpper", Arity::Exactly(1), basic::to_upper),
    def("$strcasecmp", Arity::Exactly(2), basic::strcasecmp),
    def("$split", Arity::Exactly(2), basic::split),
    OperatorDef {
        name: "$indexOfBytes",
        arity: Arity::Any,
        parse_args: basic::parse_index_of,
        eval: basic::index_of_bytes,
    },
    OperatorDef {
        name: "$indexOfCP",
        arity: Arity::Any,
        parse_args: basic::parse_index_of,
        eval: basic::index_of_cp,
    },
    named_operator!("$trim", trim::SPEC, trim::trim_both),
    named_operator!("$ltrim", trim::SPEC, trim::trim_start),
    named_operator!("$rtrim", trim::SPEC, trim::trim_end),
    named_operator!("$replaceOne", replace::SPEC, replace::replace_one),
    named_operator!("$replaceAll", replace::SPEC, replace::replace_all),
    named_operator!("$regexMatch", regex::SPEC, regex::regex_match),
    named_operator!("$regexFind", regex::SPEC, regex::regex_find),
    named_operator!("$regexFindAll", regex::SPEC, regex::regex_find_all),
];

const fn def(name: &'static str, arity: Arity, eval: Eval) -> OperatorDef {
    OperatorDef {
        name,
        arity,
        parse_args: positional,
        eval,
    }
}

/// MongoDB's `Value::coerceToString`: null and missing are `""`, numbers and dates are
/// written out, other types are an error.
pub fn coerce_to_string(v: &Option<Bson>) -> Result<String> {
    Ok(match v {
        None | Some(Bson::Null | Bson::Undefined) => String::new(),
        Some(Bson::String(s) | Bson::Symbol(s) | Bson::JavaScriptCode(s)) => s.clone(),
        Some(Bson::Int32(i)) => i.to_string(),
        Some(Bson::Int64(i)) => i.to_string(),
        Some(Bson::Double(d)) => format_double(*d),
        Some(Bson::Decimal128(d)) => d.to_string(),
        Some(Bson::DateTime(d)) => iso_date_string(d.timestamp_millis()),
        Some(Bson::Timestamp(t)) => timestamp_pretty(t.time, t.increment),
        Some(other) => {
            return Err(Error::location(
                16007,
                format!(
                    "can't convert from BSON type {} to String",
                    type_name(other)
                ),
            ));
        }
    })
}

/// MongoDB's `Timestamp::toStringPretty`: the seconds as C's `ctime` writes them in UTC, less
/// the weekday and the year (`time_t_to_String_short`, src/mongo/util/time_support.cpp), then
/// `:` and the increment: `Timestamp(1, 2)` is `Jan  1 00:00:01:2`.
pub fn timestamp_pretty(seconds: u32, increment: u32) -> String {
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let c = Civil::from_millis(i64::from(seconds) * 1000);
    let month = usize::try_from(c.month)
        .ok()
        .and_then(|m| MONTHS.get(m.wrapping_sub(1)))
        .copied()
        .unwrap_or("???");
    format!(
        "{month}{:>3} {:02}:{:02}:{:02}:{increment}",
        c.day, c.hour, c.minute, c.second
    )
}

/// A date as `2017-01-01T00:00:00.000Z` (the year as many digits as it needs).
pub fn iso_date_string(millis: i64) -> String {
    let c = Civil::from_millis(millis);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        c.year, c.month, c.day, c.hour, c.minute, c.second, c.millisecond
    )
}

/// A double as the server's string streams write it (C's `%g`: six significant digits).
pub fn format_double(d: f64) -> String {
    if d.is_nan() {
        return "nan".into();
    }
    if d.is_infinite() {
        return if d > 0.0 { "inf" } else { "-inf" }.into();
    }
    if d == 0.0 {
        return if d.is_sign_negative() { "-0" } else { "0" }.into();
    }
    // The decimal exponent after rounding to six significant digits.
    let sci = format!("{d:.5e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if !(-4..6).contains(&exp) {
        let mantissa = strip_fraction_zeros(mantissa);
        let sign = if exp < 0 { '-' } else { '+' };
        return format!("{mantissa}e{sign}{:02}", exp.abs());
    }
    let decimals = usize::try_from(5 - exp).unwrap_or(0);
    strip_fraction_zeros(&format!("{d:.decimals$}")).to_string()
}

fn strip_fraction_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

/// A value as the server's `Value::toString` writes it inside messages.
pub fn value_string(v: &Option<Bson>) -> String {
    match v {
        None => "MISSING".into(),
        Some(Bson::Double(d)) => format_double(*d),
        Some(other) => key_value(other),
    }
}

/// Whether a number is an integer representable as an int32 (`Value::integral`), and that int.
pub fn integral_i32(v: &Option<Bson>) -> Option<i32> {
    match v {
        Some(Bson::Int32(i)) => Some(*i),
        Some(Bson::Int64(i)) => i32::try_from(*i).ok(),
        Some(Bson::Double(d))
            if d.fract() == 0.0 && (-2_147_483_648.0..2_147_483_648.0).contains(d) =>
        {
            Some(*d as i32)
        }
        Some(Bson::Decimal128(d)) => {
            let x = crate::value::Decimal::from_bson(d).to_f64();
            (x.fract() == 0.0 && (-2_147_483_648.0..2_147_483_648.0).contains(&x))
                .then_some(x as i32)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests;
