//! `$convert` and its shorthands `$toInt $toLong $toDouble $toDecimal $toString $toBool $toDate
//! $toObjectId`, with MongoDB 8.0's conversion table and messages. A conversion that fails
//! raises `ConversionFailure`, which `onError` replaces; a null or missing input gives `onNull`
//! (null by default). Strings convert to and from binData with a `format` (see
//! [`super::bin_data`]).

use bson::oid::ObjectId;
use bson::{Bson, DateTime, Decimal128};

use super::arithmetic::{Num, fits_i64};
use super::bin_data::{self, Format};
use super::date::civil::{days_from_civil, days_in_month};
use super::math::{nullish, show};
use super::operators::{Arity, OperatorDef, arg, positional};
use super::{Expression, Scope, Vars};
use crate::error::{Error, ErrorCode, Result};
use crate::value::Decimal;
use crate::value::display::type_name;

pub const OPERATORS: &[OperatorDef] = &[
    OperatorDef {
        name: "$convert",
        arity: Arity::Exactly(6),
        parse_args: parse_convert,
        eval: convert,
    },
    shorthand("$toInt", to_int),
    shorthand("$toLong", to_long),
    shorthand("$toDouble", to_double),
    shorthand("$toDecimal", to_decimal),
    shorthand("$toString", to_string),
    shorthand("$toBool", to_bool),
    shorthand("$toDate", to_date),
    shorthand("$toObjectId", to_object_id),
    shorthand("$toUUID", to_uuid),
];

const fn shorthand(name: &'static str, eval: super::operators::Eval) -> OperatorDef {
    OperatorDef {
        name,
        arity: Arity::Exactly(1),
        parse_args: positional,
        eval,
    }
}

/// BSON type numbers of the conversion targets.
mod ty {
    pub const DOUBLE: i32 = 1;
    pub const STRING: i32 = 2;
    pub const OBJECT_ID: i32 = 7;
    pub const BOOL: i32 = 8;
    pub const DATE: i32 = 9;
    pub const BIN_DATA: i32 = 5;
    pub const INT: i32 = 16;
    pub const LONG: i32 = 18;
    pub const DECIMAL: i32 = 19;
}

/// `to: "missing"` names no BSON type: every conversion to it fails (so `onError` applies).
const MISSING: i32 = 0;

/// MongoDB's type aliases and numbers (the names `$type` prints).
use crate::value::type_set::ALIASES as TYPES;

fn type_alias(code: i32) -> &'static str {
    if code == MISSING {
        return "missing";
    }
    TYPES
        .iter()
        .find(|(_, c)| *c == code)
        .map_or("unknown", |(n, _)| n)
}

fn to_int(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    convert_to(args, vars, ty::INT)
}
fn to_long(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    convert_to(args, vars, ty::LONG)
}
fn to_double(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    convert_to(args, vars, ty::DOUBLE)
}
fn to_decimal(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    convert_to(args, vars, ty::DECIMAL)
}
fn to_string(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    convert_to(args, vars, ty::STRING)
}
fn to_bool(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    convert_to(args, vars, ty::BOOL)
}
fn to_date(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    convert_to(args, vars, ty::DATE)
}
fn to_object_id(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    convert_to(args, vars, ty::OBJECT_ID)
}

fn to_uuid(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    match arg(args, 0, vars)? {
        None | Some(Bson::Null | Bson::Undefined) => Ok(Some(Bson::Null)),
        Some(Bson::String(s)) => bin_data::uuid_from_string(&s).map(Some),
        Some(other) => Err(unsupported(&other, ty::BIN_DATA)),
    }
}

/// A shorthand: null for a nullish input, else the conversion (errors are not caught).
/// `$toString` writes binData in the `auto` format.
fn convert_to(args: &[Expression], vars: &Vars<'_>, code: i32) -> Result<Option<Bson>> {
    let v = arg(args, 0, vars)?;
    let target = Target {
        code,
        subtype: None,
    };
    let format = (code == ty::STRING).then_some(Format::Auto);
    match v {
        None | Some(Bson::Null | Bson::Undefined) => Ok(Some(Bson::Null)),
        Some(v) => perform(&v, &target, format).map(Some),
    }
}

/// A conversion's target: the type, and for binData the subtype as given.
#[derive(Debug, Clone)]
struct Target {
    code: i32,
    subtype: Option<Bson>,
}

/// Bits of the presence mask (argument 4) for the optional arguments.
const HAS_ON_ERROR: i32 = 1;
const HAS_ON_NULL: i32 = 2;

/// `{$convert: {input, to, onError, onNull, format}}`. Arguments:
/// `[input, to, onError, onNull, mask, format]` (an absent format is null).
fn parse_convert(_def: &'static OperatorDef, arg: &Bson, scope: &Scope) -> Result<Vec<Expression>> {
    let Bson::Document(spec) = arg else {
        return Err(Error::new(
            ErrorCode::FailedToParse,
            format!(
                "$convert expects an object of named arguments but found: {}",
                type_name(arg)
            ),
        ));
    };
    let mut slots: [Option<Expression>; 5] = [None, None, None, None, None];
    for (k, v) in spec {
        let slot = match k.as_str() {
            "input" => 0,
            "to" => 1,
            "onError" => 2,
            "onNull" => 3,
            "format" => 4,
            other => {
                return Err(Error::new(
                    ErrorCode::FailedToParse,
                    format!("$convert found an unknown argument: {other}"),
                ));
            }
        };
        if let Some(s) = slots.get_mut(slot) {
            *s = Some(Expression::parse_in(v, scope)?);
        }
    }
    let [input, to, on_error, on_null, format] = slots;
    let input = input.ok_or_else(|| {
        Error::new(
            ErrorCode::FailedToParse,
            "Missing 'input' parameter to $convert",
        )
    })?;
    let to = to.ok_or_else(|| {
        Error::new(
            ErrorCode::FailedToParse,
            "Missing 'to' parameter to $convert",
        )
    })?;
    let mask =
        i32::from(on_error.is_some()) * HAS_ON_ERROR + i32::from(on_null.is_some()) * HAS_ON_NULL;
    let absent = || Expression::Constant(Bson::Null);
    Ok(vec![
        input,
        to,
        on_error.unwrap_or_else(absent),
        on_null.unwrap_or_else(absent),
        Expression::Constant(Bson::Int32(mask)),
        format.unwrap_or_else(absent),
    ])
}

fn convert(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let mask = match args.get(4).and_then(Expression::as_constant) {
        Some(Bson::Int32(m)) => *m,
        _ => 0,
    };
    let to = arg(args, 1, vars)?;
    let input = arg(args, 0, vars)?;
    let target = target_type(&to)?;
    if nullish(&input) {
        return if mask & HAS_ON_NULL != 0 {
            arg(args, 3, vars)
        } else {
            Ok(Some(Bson::Null))
        };
    }
    let (Some(target), Some(input)) = (target, input) else {
        return Ok(Some(Bson::Null));
    };
    let format = bin_data::parse_format(&arg(args, 5, vars)?)?;
    match perform(&input, &target, format) {
        Err(e) if e.code == ErrorCode::ConversionFailure && mask & HAS_ON_ERROR != 0 => {
            arg(args, 2, vars)
        }
        other => other.map(Some),
    }
}

/// The target of `to`: a type name, a type number, or `{type, subtype}`; `None` when nullish.
fn target_type(to: &Option<Bson>) -> Result<Option<Target>> {
    let parse_error = |m: String| Error::new(ErrorCode::FailedToParse, m);
    let code = match to {
        None | Some(Bson::Null | Bson::Undefined) => return Ok(None),
        Some(Bson::String(name)) if name == "missing" => MISSING,
        Some(Bson::String(name)) => TYPES
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, c)| *c)
            .ok_or_else(|| Error::bad_value(format!("Unknown type name: {name}")))?,
        Some(Bson::Document(d)) if d.contains_key("type") => {
            return Ok(target_type(&d.get("type").cloned())?.map(|t| Target {
                subtype: d.get("subtype").cloned(),
                ..t
            }));
        }
        Some(v) => {
            let Some(n) = Num::from_bson(v) else {
                return Err(parse_error(format!(
                    "$convert's 'to' argument must be a string or number, but is {}",
                    type_name(v)
                )));
            };
            let Some(code) = n.as_integral() else {
                return Err(parse_error(
                    "In $convert, numeric 'to' argument is not an integer".into(),
                ));
            };
            match i32::try_from(code)
                .ok()
                .filter(|c| TYPES.iter().any(|(_, t)| t == c))
            {
                Some(c) => c,
                None => {
                    return Err(parse_error(format!(
                        "In $convert, numeric value for 'to' does not correspond to a BSON type: \
                         {code}"
                    )));
                }
            }
        }
    };
    Ok(Some(Target {
        code,
        subtype: None,
    }))
}

fn failure(message: impl Into<String>) -> Error {
    Error::new(ErrorCode::ConversionFailure, message)
}

fn unsupported(input: &Bson, target: i32) -> Error {
    failure(format!(
        "Unsupported conversion from {} to {} in $convert with no onError value",
        type_name(input),
        type_alias(target)
    ))
}

/// One conversion of a present, non-null value.
fn perform(input: &Bson, target: &Target, format: Option<Format>) -> Result<Bson> {
    let target_code = target.code;
    match (input, target_code) {
        (Bson::String(s), ty::BIN_DATA) => {
            let subtype = bin_data::parse_subtype(target.subtype.as_ref())?;
            return bin_data::from_string(s, format, subtype);
        }
        (Bson::Binary(b), ty::BIN_DATA) => {
            let subtype = bin_data::parse_subtype(target.subtype.as_ref())?;
            return bin_data::to_bin_data(b, subtype);
        }
        (Bson::Binary(b), ty::STRING) => return bin_data::to_string(b, format),
        _ => {}
    }
    let target = target_code;
    if target == ty::BOOL {
        return to_boolean(input).ok_or_else(|| unsupported(input, target));
    }
    let converted = match input {
        Bson::Double(d) => from_double(*d, target)?,
        Bson::Int32(i) => from_integer(i64::from(*i), true, target)?,
        Bson::Int64(i) => from_integer(*i, false, target)?,
        Bson::Decimal128(d) => from_decimal(Decimal::from_bson(d), target)?,
        Bson::String(s) => from_string(s, target)?,
        _ => None,
    };
    if let Some(v) = converted {
        return Ok(v);
    }
    match (input, target) {
        (Bson::Boolean(b), t) => Ok(match t {
            ty::DOUBLE => Bson::Double(if *b { 1.0 } else { 0.0 }),
            ty::STRING => Bson::String(b.to_string()),
            ty::INT => Bson::Int32(i32::from(*b)),
            ty::LONG => Bson::Int64(i64::from(*b)),
            ty::DECIMAL => decimal(Decimal::from_i64(i64::from(*b))),
            _ => return Err(unsupported(input, target)),
        }),
        (Bson::DateTime(d), t) => {
            let ms = d.timestamp_millis();
            Ok(match t {
                ty::DOUBLE => Bson::Double(ms as f64),
                ty::STRING => Bson::String(format_date(ms)),
                ty::DATE => input.clone(),
                ty::LONG => Bson::Int64(ms),
                ty::DECIMAL => decimal(Decimal::from_i64(ms)),
                _ => return Err(unsupported(input, target)),
            })
        }
        (Bson::ObjectId(oid), t) => Ok(match t {
            ty::STRING => Bson::String(oid.to_hex()),
            ty::OBJECT_ID => input.clone(),
            ty::DATE => Bson::DateTime(DateTime::from_millis(
                i64::from(u32::from_be_bytes(head4(oid))) * 1000,
            )),
            _ => return Err(unsupported(input, target)),
        }),
        (Bson::Timestamp(ts), ty::DATE) => Ok(Bson::DateTime(DateTime::from_millis(
            i64::from(ts.time) * 1000,
        ))),
        _ => Err(unsupported(input, target)),
    }
}

fn head4(oid: &ObjectId) -> [u8; 4] {
    let b = oid.bytes();
    [b[0], b[1], b[2], b[3]]
}

/// Every type converts to bool except undefined and null (which never get here): numbers by
/// their truth, everything else true.
fn to_boolean(v: &Bson) -> Option<Bson> {
    Some(Bson::Boolean(match v {
        Bson::Boolean(b) => *b,
        Bson::Int32(i) => *i != 0,
        Bson::Int64(i) => *i != 0,
        Bson::Double(d) => *d != 0.0,
        Bson::Decimal128(d) => !matches!(
            Decimal::from_bson(d),
            Decimal::Finite { coefficient: 0, .. }
        ),
        Bson::Undefined | Bson::Null => return None,
        _ => true,
    }))
}

fn decimal(d: Decimal) -> Bson {
    Bson::Decimal128(d.to_decimal128())
}

fn overflow(shown: &str) -> Error {
    failure(format!(
        "Conversion would overflow target type in $convert with no onError value: {shown}"
    ))
}

fn check_finite(d: f64) -> Result<()> {
    if d.is_nan() {
        return Err(failure(
            "Attempt to convert NaN value to integer type in $convert with no onError value",
        ));
    }
    if d.is_infinite() {
        return Err(failure(
            "Attempt to convert infinity value to integer type in $convert with no onError value",
        ));
    }
    Ok(())
}

fn double_to_long(d: f64) -> Result<i64> {
    check_finite(d)?;
    // 2^63 is the first double above i64::MAX.
    if fits_i64(d) {
        Ok(d as i64)
    } else {
        Err(overflow(&show(d)))
    }
}

fn from_double(d: f64, target: i32) -> Result<Option<Bson>> {
    Ok(Some(match target {
        ty::DOUBLE => Bson::Double(d),
        ty::STRING => Bson::String(format_double(d)),
        ty::DATE => Bson::DateTime(DateTime::from_millis(double_to_long(d)?)),
        ty::INT => {
            check_finite(d)?;
            if d >= f64::from(i32::MIN) && d <= f64::from(i32::MAX) {
                Bson::Int32(d as i32)
            } else {
                return Err(overflow(&show(d)));
            }
        }
        ty::LONG => Bson::Int64(double_to_long(d)?),
        ty::DECIMAL => decimal(Decimal::from_f64_arithmetic(d)),
        _ => return Ok(None),
    }))
}

fn from_integer(i: i64, is_int: bool, target: i32) -> Result<Option<Bson>> {
    Ok(Some(match target {
        ty::DOUBLE => Bson::Double(i as f64),
        ty::STRING => Bson::String(i.to_string()),
        ty::DATE if !is_int => Bson::DateTime(DateTime::from_millis(i)),
        ty::INT => match i32::try_from(i) {
            Ok(v) => Bson::Int32(v),
            Err(_) => return Err(overflow("")),
        },
        ty::LONG => Bson::Int64(i),
        ty::DECIMAL => decimal(Decimal::from_i64(i)),
        _ => return Ok(None),
    }))
}

fn from_decimal(d: Decimal, target: i32) -> Result<Option<Bson>> {
    let shown = || d.to_decimal128().to_string();
    let to_long = || -> Result<i64> {
        match d {
            Decimal::NaN => check_finite(f64::NAN).map(|_| 0),
            Decimal::Infinity { .. } => check_finite(f64::INFINITY).map(|_| 0),
            Decimal::Finite { .. } => d.to_i64_truncated().ok_or_else(|| overflow(&shown())),
        }
    };
    Ok(Some(match target {
        ty::DOUBLE => {
            let x = d.to_f64();
            let finite_input = matches!(d, Decimal::Finite { .. });
            let zero_input = matches!(d, Decimal::Finite { coefficient: 0, .. });
            if finite_input && (x.is_infinite() || (x == 0.0 && !zero_input)) {
                return Err(overflow(&shown()));
            }
            Bson::Double(x)
        }
        ty::STRING => Bson::String(shown()),
        ty::DATE => Bson::DateTime(DateTime::from_millis(to_long()?)),
        ty::INT => {
            let l = to_long()?;
            Bson::Int32(i32::try_from(l).map_err(|_| overflow(&shown()))?)
        }
        ty::LONG => Bson::Int64(to_long()?),
        ty::DECIMAL => decimal(d),
        _ => return Ok(None),
    }))
}

fn from_string(s: &str, target: i32) -> Result<Option<Bson>> {
    let parse_failure = |reason: &str| {
        failure(format!(
            "Failed to parse number '{s}' in $convert with no onError value: {reason}"
        ))
    };
    let check_hex = || {
        if s.starts_with("0x") {
            Err(failure(format!(
                "Illegal hexadecimal input in $convert with no onError value: {s}"
            )))
        } else {
            Ok(())
        }
    };
    let integer = |s: &str| -> Result<i64> {
        check_hex()?;
        if s.is_empty() {
            return Err(parse_failure("No digits"));
        }
        let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
        if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
            return Err(parse_failure("Did not consume whole string."));
        }
        s.parse::<i64>().map_err(|_| parse_failure("Out of range"))
    };
    Ok(Some(match target {
        ty::STRING => Bson::String(s.to_string()),
        ty::INT => {
            let v = integer(s)?;
            Bson::Int32(i32::try_from(v).map_err(|_| parse_failure("Out of range"))?)
        }
        ty::LONG => Bson::Int64(integer(s)?),
        ty::DOUBLE => {
            check_hex()?;
            let d =
                parse_double(s).ok_or_else(|| parse_failure("Did not consume whole string."))?;
            // strtod reports a finite number too large for a double as out of range.
            let named_infinity = s
                .trim_start_matches(['-', '+'])
                .to_ascii_lowercase()
                .starts_with("inf");
            if d.is_infinite() && !named_infinity {
                return Err(parse_failure("Out of range"));
            }
            Bson::Double(d)
        }
        ty::DECIMAL => {
            check_hex()?;
            let d = parse_decimal(s)
                .ok_or_else(|| parse_failure("Failed to parse string to decimal"))?;
            Bson::Decimal128(d)
        }
        ty::OBJECT_ID => match ObjectId::parse_str(s) {
            Ok(oid) => Bson::ObjectId(oid),
            Err(_) => {
                let reason = if s.len() != 24 {
                    format!(
                        "Invalid string length for parsing to OID, expected 24 but found {}",
                        s.len()
                    )
                } else {
                    format!("Invalid character found in hex string: {s}")
                };
                return Err(failure(format!(
                    "Failed to parse objectId '{s}' in $convert with no onError value: {reason}"
                )));
            }
        },
        ty::DATE => Bson::DateTime(DateTime::from_millis(
            parse_date(s)
                .or_else(|| super::date::free_form_millis(s))
                .ok_or_else(|| {
                    failure(format!(
                        "Error parsing date string '{s}'; The timestamp or date format is not valid"
                    ))
                })?,
        )),
        _ => return Ok(None),
    }))
}

/// A double from text as `strtod` reads it (no surrounding spaces; `inf`, `nan` allowed).
fn parse_double(s: &str) -> Option<f64> {
    if s.is_empty() || s.starts_with(char::is_whitespace) || s.ends_with(char::is_whitespace) {
        return None;
    }
    s.parse::<f64>().ok()
}

/// A decimal128 from text (`1.5`, `-1E+3`, `Infinity`, `NaN`).
fn parse_decimal(s: &str) -> Option<Decimal128> {
    let lower = s.to_ascii_lowercase();
    let body = lower.trim_start_matches(['-', '+']);
    let special = matches!(body, "inf" | "infinity" | "nan");
    let numeric = !body.is_empty()
        && body
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | '-' | '+'))
        && body.starts_with(|c: char| c.is_ascii_digit() || c == '.');
    if !special && !numeric {
        return None;
    }
    s.parse::<Decimal128>().ok()
}

/// A double as MongoDB's `$toString` writes it: the shortest text that reads back the same,
/// in exponent notation below 1e-4 and from 1e16 on (`1e+20`, `1.5e-07`).
pub(super) fn format_double(d: f64) -> String {
    if d.is_nan() {
        return "NaN".into();
    }
    if d.is_infinite() {
        return if d > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    if d == 0.0 {
        return if d.is_sign_negative() { "-0" } else { "0" }.into();
    }
    let sci = format!("{d:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if (-5..16).contains(&exp) {
        format!("{d}")
    } else {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exp.unsigned_abs())
    }
}

/// `%Y-%m-%dT%H:%M:%S.%LZ` in UTC.
fn format_date(ms: i64) -> String {
    super::string::iso_date_string(ms)
}

/// The ISO 8601 forms MongoDB's date parser accepts most often: `YYYY-MM-DD`, optionally
/// followed by `T` or a space, `HH:MM[:SS[.fff]]`, and `Z` or an offset `±HH[:]MM`.
fn parse_date(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    let num = |from: usize, len: usize| -> Option<i64> {
        let part = s.get(from..from + len)?;
        part.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| part.parse().ok())?
    };
    let (y, m, d) = (num(0, 4)?, num(5, 2)?, num(8, 2)?);
    if b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') || !(1..=12).contains(&m) {
        return None;
    }
    if d < 1 || d > days_in_month(y, m) {
        return None;
    }
    let mut ms = days_from_civil(y, m, d) * 86_400_000;
    let mut i = 10;
    if i == b.len() {
        return Some(ms);
    }
    if !matches!(b.get(i), Some(b'T' | b' ')) {
        return None;
    }
    i += 1;
    let (hh, mm) = (num(i, 2)?, num(i + 3, 2)?);
    // timelib's `hour24 [:.] minute [:.] second`, as `$dateFromString` reads it.
    if !matches!(b.get(i + 2), Some(b':' | b'.')) || hh > 23 || mm > 59 {
        return None;
    }
    ms += hh * 3_600_000 + mm * 60_000;
    i += 5;
    if matches!(b.get(i), Some(b':' | b'.')) && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
        let ss = num(i + 1, 2)?;
        if ss > 59 {
            return None;
        }
        ms += ss * 1000;
        i += 3;
        if b.get(i) == Some(&b'.') {
            let start = i + 1;
            let mut end = start;
            while b.get(end).is_some_and(u8::is_ascii_digit) {
                end += 1;
            }
            let frac = s.get(start..end)?;
            if frac.is_empty() {
                return None;
            }
            let padded: String = frac.chars().chain("000".chars()).take(3).collect();
            ms += padded.parse::<i64>().ok()?;
            i = end;
        }
    }
    match b.get(i) {
        None => Some(ms),
        Some(b'Z') if i + 1 == b.len() => Some(ms),
        Some(sign @ (b'+' | b'-')) => {
            let rest = s.get(i + 1..)?;
            let digits: String = rest.chars().filter(|c| *c != ':').collect();
            if digits.len() != 4 || !digits.chars().all(|c| c.is_ascii_digit()) {
                return None;
            }
            let oh: i64 = digits.get(..2)?.parse().ok()?;
            let om: i64 = digits.get(2..)?.parse().ok()?;
            let offset = oh * 3_600_000 + om * 60_000;
            Some(if *sign == b'+' {
                ms - offset
            } else {
                ms + offset
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_format_like_mongodb() {
        assert_eq!(format_double(1.0), "1");
        assert_eq!(format_double(2.5), "2.5");
        assert_eq!(format_double(1e20), "1e+20");
        assert_eq!(format_double(1.5e-7), "1.5e-07");
        assert_eq!(format_double(-0.0), "-0");
    }

    #[test]
    fn dates_round_trip_through_text() {
        assert_eq!(format_date(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(format_date(-1), "1969-12-31T23:59:59.999Z");
        assert_eq!(parse_date("2018-03-03"), Some(1_520_035_200_000));
        assert_eq!(
            parse_date("2018-03-03T01:00:00.5+01:00"),
            Some(1_520_035_200_500)
        );
        assert_eq!(parse_date("2018-02-30"), None);
        assert_eq!(parse_date("hello"), None);
    }

    fn t(code: i32) -> Target {
        Target {
            code,
            subtype: None,
        }
    }

    #[test]
    fn conversion_table() {
        assert_eq!(
            perform(&Bson::Double(1.9), &t(ty::INT), None).unwrap(),
            Bson::Int32(1)
        );
        assert_eq!(
            perform(&Bson::String("12".into()), &t(ty::LONG), None).unwrap(),
            Bson::Int64(12)
        );
        assert_eq!(
            perform(&Bson::Int32(5), &t(ty::DATE), None)
                .unwrap_err()
                .code,
            ErrorCode::ConversionFailure
        );
        assert_eq!(
            perform(&Bson::Int64(i64::MAX), &t(ty::INT), None)
                .unwrap_err()
                .code,
            ErrorCode::ConversionFailure
        );
        assert_eq!(
            perform(&Bson::Array(vec![]), &t(ty::BOOL), None).unwrap(),
            Bson::Boolean(true)
        );
    }
}
