//! A date's components in a time zone (`$year`...`$isoDayOfWeek`, `$dateToParts`) and a date
//! from components (`$dateFromParts`, where out-of-range values carry into the next unit).

use bson::{Bson, Document};

use super::super::named_args::{NamedSpec, is_present, named_value, nullish, parse_named};
use super::super::operators::{Arity, Eval, OperatorDef, arg};
use super::super::string::value_string;
use super::super::{Expression, Scope, Vars};
use super::civil::{Civil, MILLIS_PER_DAY, days_from_civil};
use super::timezone::TimeZone;
use super::{coerce_to_date, date_value, integral_i64};
use crate::error::{Error, Result};
use crate::value::display::key_value;

/// `$year` and its siblings: `date`, `[date]` or `{date, timezone}`.
pub const fn component(name: &'static str, eval: Eval) -> OperatorDef {
    OperatorDef {
        name,
        arity: Arity::Any,
        parse_args: parse_date_and_timezone,
        eval,
    }
}

fn parse_date_and_timezone(
    def: &'static OperatorDef,
    arg: &Bson,
    scope: &Scope,
) -> Result<Vec<Expression>> {
    let op = def.name;
    match arg {
        // `{date, timezone}`; a document whose first field is an operator is the date itself.
        Bson::Document(d) if !d.keys().next().is_some_and(|k| k.starts_with('$')) => {
            let (mut date, mut timezone) = (None, None);
            for (k, v) in d {
                match k.as_str() {
                    "date" => date = Some(Expression::parse_in(v, scope)?),
                    "timezone" => timezone = Some(Expression::parse_in(v, scope)?),
                    other => {
                        return Err(Error::location(
                            40535,
                            format!("unrecognized option to {op}: \"{other}\""),
                        ));
                    }
                }
            }
            let Some(date) = date else {
                return Err(Error::location(
                    40539,
                    format!(
                        "missing 'date' argument to {op}, provided: {op}: {}",
                        key_value(arg)
                    ),
                ));
            };
            Ok(std::iter::once(date).chain(timezone).collect())
        }
        Bson::Array(items) => {
            if items.len() != 1 {
                return Err(Error::location(
                    40536,
                    format!(
                        "{op} accepts exactly one argument if given an array, but was given {}",
                        items.len()
                    ),
                ));
            }
            Ok(vec![Expression::parse_in(&items[0], scope)?])
        }
        other => Ok(vec![Expression::parse_in(other, scope)?]),
    }
}

/// The date's wall clock, or `None` when the date or the time zone is null or missing. The
/// date is converted before the time zone is read, as in MongoDB.
fn local(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Civil>> {
    let date = arg(args, 0, vars)?;
    if nullish(&date) {
        return Ok(None);
    }
    let date = coerce_to_date(&date)?;
    let tz = match args.get(1) {
        None => TimeZone::Utc,
        Some(e) => match TimeZone::from_value(&e.eval(vars)?)? {
            Some(tz) => tz,
            None => return Ok(None),
        },
    };
    Ok(Some(tz.to_local(date)))
}

/// An int32 component (years beyond int32 wrap as the server's cast does).
fn int(v: i64) -> Bson {
    Bson::Int32(v as i32)
}

fn with_local(args: &[Expression], vars: &Vars<'_>, f: fn(&Civil) -> Bson) -> Result<Option<Bson>> {
    Ok(Some(local(args, vars)?.map_or(Bson::Null, |c| f(&c))))
}

pub fn year(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    with_local(args, vars, |c| int(c.year))
}
pub fn month(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    with_local(args, vars, |c| int(c.month))
}
pub fn day_of_month(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    with_local(args, vars, |c| int(c.day))
}
pub fn hour(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    with_local(args, vars, |c| int(c.hour))
}
pub fn minute(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    with_local(args, vars, |c| int(c.minute))
}
pub fn second(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    with_local(args, vars, |c| int(c.second))
}
pub fn millisecond(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    with_local(args, vars, |c| int(c.millisecond))
}
pub fn day_of_week(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    with_local(args, vars, |c| int(c.day_of_week()))
}
pub fn day_of_year(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    with_local(args, vars, |c| int(c.day_of_year()))
}
pub fn week(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    with_local(args, vars, |c| int(c.week()))
}
pub fn iso_week(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    with_local(args, vars, |c| int(c.iso_week().1))
}
/// MongoDB answers `$isoWeekYear` as a long.
pub fn iso_week_year(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    with_local(args, vars, |c| Bson::Int64(c.iso_week().0))
}
pub fn iso_day_of_week(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    with_local(args, vars, |c| int(c.iso_day_of_week()))
}

/// What the one-argument form of the component operator `name` (`$year`...`$isoDayOfWeek`)
/// gives for a date in UTC (no `timezone`), from the date's wall clock: for a caller that
/// reads the date's milliseconds itself (`$group` from the stored bytes); `None` for another
/// name. The operators above compute the same (unit test).
pub(crate) fn utc_component(name: &str) -> Option<fn(&Civil) -> Bson> {
    Some(match name {
        "$year" => |c| int(c.year),
        "$month" => |c| int(c.month),
        "$dayOfMonth" => |c| int(c.day),
        "$hour" => |c| int(c.hour),
        "$minute" => |c| int(c.minute),
        "$second" => |c| int(c.second),
        "$millisecond" => |c| int(c.millisecond),
        "$dayOfWeek" => |c| int(c.day_of_week()),
        "$dayOfYear" => |c| int(c.day_of_year()),
        "$week" => |c| int(c.week()),
        "$isoWeek" => |c| int(c.iso_week().1),
        "$isoWeekYear" => |c| Bson::Int64(c.iso_week().0),
        "$isoDayOfWeek" => |c| int(c.iso_day_of_week()),
        _ => return None,
    })
}

const TO_PARTS: NamedSpec = NamedSpec {
    fields: &["date", "timezone", "iso8601"],
    required: &[("date", 40522, "Missing 'date' parameter to $dateToParts")],
    not_object: (
        40524,
        "$dateToParts only supports an object as its argument",
    ),
    unknown: (40520, "Unrecognized argument to $dateToParts: {}"),
};

pub const DATE_TO_PARTS: OperatorDef = OperatorDef {
    name: "$dateToParts",
    arity: Arity::Any,
    parse_args: |def, arg, scope| parse_named(def.name, &TO_PARTS, arg, scope),
    eval: date_to_parts,
};

fn date_to_parts(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let date = named_value(args, 0, vars)?;
    let tz = if is_present(args, 1) {
        match TimeZone::from_value(&named_value(args, 1, vars)?)? {
            Some(tz) => tz,
            None => return Ok(Some(Bson::Null)),
        }
    } else {
        TimeZone::Utc
    };
    let iso = if is_present(args, 2) {
        match named_value(args, 2, vars)? {
            Some(Bson::Boolean(b)) => b,
            v if nullish(&v) => return Ok(Some(Bson::Null)),
            v => {
                return Err(Error::location(
                    40521,
                    format!(
                        "iso8601 must evaluate to a bool, found {}",
                        super::super::array::type_name_of(&v)
                    ),
                ));
            }
        }
    } else {
        false
    };
    if nullish(&date) {
        return Ok(Some(Bson::Null));
    }
    let c = tz.to_local(coerce_to_date(&date)?);
    let mut d = Document::new();
    if iso {
        let (iso_year, iso_week) = c.iso_week();
        d.insert("isoWeekYear", int(iso_year));
        d.insert("isoWeek", int(iso_week));
        d.insert("isoDayOfWeek", int(c.iso_day_of_week()));
    } else {
        d.insert("year", int(c.year));
        d.insert("month", int(c.month));
        d.insert("day", int(c.day));
    }
    d.insert("hour", int(c.hour));
    d.insert("minute", int(c.minute));
    d.insert("second", int(c.second));
    d.insert("millisecond", int(c.millisecond));
    Ok(Some(Bson::Document(d)))
}

const FROM_PARTS_FIELDS: &[&str] = &[
    "year",
    "month",
    "day",
    "hour",
    "minute",
    "second",
    "millisecond",
    "isoWeekYear",
    "isoWeek",
    "isoDayOfWeek",
    "timezone",
];

const FROM_PARTS: NamedSpec = NamedSpec {
    fields: FROM_PARTS_FIELDS,
    required: &[],
    not_object: (
        40519,
        "$dateFromParts only supports an object as its argument",
    ),
    unknown: (40518, "Unrecognized argument to $dateFromParts: {}"),
};

pub const DATE_FROM_PARTS: OperatorDef = OperatorDef {
    name: "$dateFromParts",
    arity: Arity::Any,
    parse_args: parse_from_parts,
    eval: date_from_parts,
};

fn parse_from_parts(
    def: &'static OperatorDef,
    arg: &Bson,
    scope: &Scope,
) -> Result<Vec<Expression>> {
    let args = parse_named(def.name, &FROM_PARTS, arg, scope)?;
    let present = |name: &str| {
        FROM_PARTS_FIELDS
            .iter()
            .position(|f| *f == name)
            .is_some_and(|i| is_present(&args, i))
    };
    let (natural, iso) = (present("year"), present("isoWeekYear"));
    if !natural && !iso {
        return Err(Error::location(
            40516,
            "$dateFromParts requires either 'year' or 'isoWeekYear' to be present",
        ));
    }
    if natural && (iso || present("isoWeek") || present("isoDayOfWeek")) {
        return Err(Error::location(
            40489,
            "$dateFromParts does not allow mixing natural dates with ISO dates",
        ));
    }
    if iso && (present("month") || present("day")) {
        return Err(Error::location(
            40525,
            "$dateFromParts does not allow mixing ISO dates with natural dates",
        ));
    }
    Ok(args)
}

/// A component's value: its default when absent, `None` when null or missing. `bounded`
/// components must fit in 16 bits, as MongoDB requires.
fn part(
    args: &[Expression],
    i: usize,
    vars: &Vars<'_>,
    default: i64,
    bounded: bool,
) -> Result<Option<i64>> {
    if !is_present(args, i) {
        return Ok(Some(default));
    }
    let v = named_value(args, i, vars)?;
    if nullish(&v) {
        return Ok(None);
    }
    let name = FROM_PARTS_FIELDS[i];
    let n = integral_i64(&v);
    let Some(n) = n else {
        return Err(Error::location(
            40515,
            format!(
                "'{name}' must evaluate to an integer, found {} with value {}",
                super::super::array::type_name_of(&v),
                value_string(&v)
            ),
        ));
    };
    if bounded && !(-32768..=32767).contains(&n) {
        return Err(Error::location(
            31034,
            format!(
                "'{name}' must evaluate to a value in the range [-32768, 32767]; value {n} is not \
                 in range"
            ),
        ));
    }
    Ok(Some(n))
}

/// `$dateFromParts`, reading the fields in MongoDB's order: the time of day, the time zone,
/// then the date.
fn date_from_parts(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    const NULL: Result<Option<Bson>> = Ok(Some(Bson::Null));
    let mut time = [0i64; 4];
    for (slot, (i, bounded)) in time
        .iter_mut()
        .zip([(3, true), (4, true), (5, false), (6, false)])
    {
        match part(args, i, vars, 0, bounded)? {
            Some(n) => *slot = n,
            None => return NULL,
        }
    }
    let tz = if is_present(args, 10) {
        TimeZone::from_value(&named_value(args, 10, vars)?)?
    } else {
        Some(TimeZone::Utc)
    };
    let Some(tz) = tz else { return NULL };
    let iso = is_present(args, 7);
    let (first, rest) = if iso { (7, [8, 9]) } else { (0, [1, 2]) };
    let mut date = [0i64; 3];
    for (slot, (i, bounded)) in
        date.iter_mut()
            .zip([(first, false), (rest[0], true), (rest[1], true)])
    {
        let default = if i == first { 1970 } else { 1 };
        match part(args, i, vars, default, bounded)? {
            Some(n) => *slot = n,
            None => return NULL,
        }
    }
    let [year, a, b] = date;
    if !(1..=9999).contains(&year) {
        let (code, name) = if iso {
            (31095, "isoWeekYear")
        } else {
            (40523, "year")
        };
        return Err(Error::location(
            code,
            format!("'{name}' must evaluate to an integer in the range 1 to 9999, found {year}"),
        ));
    }
    let days = if iso {
        // Monday of ISO week 1 is the Monday on or before January 4th.
        let jan4 = days_from_civil(year, 1, 4);
        let monday = jan4 - (jan4 + 3).rem_euclid(7);
        monday + (a - 1) * 7 + (b - 1)
    } else {
        let months = year * 12 + (a - 1);
        days_from_civil(months.div_euclid(12), months.rem_euclid(12) + 1, 1) + b - 1
    };
    let [hour, minute, second, ms] = time;
    // Seconds and milliseconds are unbounded 64-bit values: saturate rather than overflow.
    let local = (days * MILLIS_PER_DAY + hour * 3_600_000 + minute * 60_000)
        .saturating_add(second.saturating_mul(1000))
        .saturating_add(ms);
    Ok(Some(date_value(tz.to_utc(local))))
}
