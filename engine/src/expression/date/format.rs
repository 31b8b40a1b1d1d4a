//! `$dateToString`: `{date, format, timezone, onNull}` with MongoDB's `%` specifiers.

use bson::Bson;

use super::super::array::type_name_of;
use super::super::named_args::{NamedSpec, is_present, named, named_value, nullish, parse_named};
use super::super::operators::{Arity, OperatorDef};
use super::super::string::value_string;
use super::super::{Expression, Vars};
use super::coerce_to_date;
use super::timezone::TimeZone;
use crate::error::{Error, Result};

const SPEC: NamedSpec = NamedSpec {
    fields: &["date", "format", "timezone", "onNull"],
    required: &[("date", 18628, "Missing 'date' parameter to $dateToString")],
    not_object: (
        18629,
        "$dateToString only supports an object as its argument",
    ),
    unknown: (18534, "Unrecognized argument to $dateToString: {}"),
};

pub const DATE_TO_STRING: OperatorDef = OperatorDef {
    name: "$dateToString",
    arity: Arity::Any,
    parse_args: |def, arg, scope| {
        let args = parse_named(def.name, &SPEC, arg, scope)?;
        // A constant format is checked when the expression is parsed, as MongoDB does.
        if let Some(Expression::Constant(Bson::String(f))) =
            args.get(2).filter(|_| is_present(&args, 1))
        {
            validate_format(f, TO_STRING_SPECIFIERS)?;
        }
        Ok(args)
    },
    eval: date_to_string,
};

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// The specifiers `$dateToString` writes.
pub const TO_STRING_SPECIFIERS: &str = "%bBdGHjLmMSuUVwYzZ";

/// MongoDB's `validateToStringFormat`/`validateFromStringFormat`: every `%` is followed by one of
/// `specifiers`.
pub fn validate_format(format: &str, specifiers: &str) -> Result<()> {
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            continue;
        }
        match chars.next() {
            None => {
                return Err(Error::location(
                    18535,
                    "Unmatched '%' at end of format string",
                ));
            }
            Some(spec) if specifiers.contains(spec) => {}
            Some(other) => {
                return Err(Error::location(
                    18536,
                    format!("Invalid format character '%{other}' in format string"),
                ));
            }
        }
    }
    Ok(())
}

/// A number zero-padded to `width`, in the range MongoDB can print (0-9999).
fn padded(out: &mut String, n: i64, width: usize) -> Result<()> {
    if !(0..=9999).contains(&n) {
        return Err(Error::location(
            18537,
            format!(
                "Could not convert date to string: date component was outside the supported \
                 range of 0-9999: {}",
                n as i32
            ),
        ));
    }
    out.push_str(&format!("{n:0width$}"));
    Ok(())
}

/// Writes `millis` in `tz` following a validated format.
pub fn format_date(format: &str, millis: i64, tz: &TimeZone) -> Result<String> {
    let c = tz.to_local(millis);
    let mut out = String::with_capacity(format.len() + 8);
    let mut chars = format.chars();
    while let Some(ch) = chars.next() {
        if ch != '%' {
            out.push(ch);
            continue;
        }
        let Some(spec) = chars.next() else { break };
        match spec {
            '%' => out.push('%'),
            'Y' => padded(&mut out, c.year, 4)?,
            'm' => padded(&mut out, c.month, 2)?,
            'd' => padded(&mut out, c.day, 2)?,
            'H' => padded(&mut out, c.hour, 2)?,
            'M' => padded(&mut out, c.minute, 2)?,
            'S' => padded(&mut out, c.second, 2)?,
            'L' => padded(&mut out, c.millisecond, 3)?,
            'j' => padded(&mut out, c.day_of_year(), 3)?,
            'w' => padded(&mut out, c.day_of_week(), 1)?,
            'U' => padded(&mut out, c.week(), 2)?,
            'G' => padded(&mut out, c.iso_week().0, 4)?,
            'V' => padded(&mut out, c.iso_week().1, 2)?,
            'u' => padded(&mut out, c.iso_day_of_week(), 1)?,
            'b' | 'B' => {
                let name = MONTHS[(c.month - 1).clamp(0, 11) as usize];
                out.push_str(if spec == 'b' { &name[..3] } else { name });
            }
            'z' => {
                let minutes = tz.offset_millis(millis) / 60_000;
                out.push(if minutes < 0 { '-' } else { '+' });
                out.push_str(&format!(
                    "{:02}{:02}",
                    minutes.abs() / 60,
                    minutes.abs() % 60
                ));
            }
            'Z' => out.push_str(&(tz.offset_millis(millis) / 60_000).to_string()),
            other => {
                out.push('%');
                out.push(other);
            }
        }
    }
    Ok(out)
}

/// `$dateToString`, in MongoDB's order: the format is checked first, then the time zone, then
/// a null date gives `onNull`.
fn date_to_string(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let date = named_value(args, 0, vars)?;
    let format = named(args, 1, vars)?;
    match &format {
        Some(Some(Bson::String(f))) => validate_format(f, TO_STRING_SPECIFIERS)?,
        Some(v) if !nullish(v) => {
            return Err(Error::location(
                18533,
                format!(
                    "$dateToString requires that 'format' be a string, found: {} with value {}",
                    type_name_of(v),
                    value_string(v)
                ),
            ));
        }
        _ => {}
    }
    let tz = if is_present(args, 2) {
        TimeZone::from_value(&named_value(args, 2, vars)?)?
    } else {
        Some(TimeZone::Utc)
    };
    if nullish(&date) {
        return match named(args, 3, vars)? {
            Some(on_null) => Ok(on_null),
            None => Ok(Some(Bson::Null)),
        };
    }
    let Some(tz) = tz else {
        return Ok(Some(Bson::Null));
    };
    let format = match format {
        Some(Some(Bson::String(f))) => f,
        Some(_) => return Ok(Some(Bson::Null)),
        None => match tz {
            TimeZone::Utc | TimeZone::Fixed(0) => "%Y-%m-%dT%H:%M:%S.%LZ".to_string(),
            _ => "%Y-%m-%dT%H:%M:%S.%L".to_string(),
        },
    };
    let millis = coerce_to_date(&date)?;
    Ok(Some(Bson::String(format_date(&format, millis, &tz)?)))
}
