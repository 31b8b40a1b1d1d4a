//! `$dateAdd`, `$dateSubtract`, `$dateDiff` and `$dateTrunc`: calendar arithmetic in a time
//! zone. Units of a day and more work on the zone's wall clock (adding a day across a daylight
//! saving change keeps the local time); smaller units work on the instant.

use bson::Bson;

use super::super::array::type_name_of;
use super::super::named_args::{NamedSpec, is_present, named_value, nullish, parse_named};
use super::super::operators::{Arity, OperatorDef};
use super::super::string::value_string;
use super::super::{Expression, Vars};
use super::civil::{Civil, MILLIS_PER_DAY, days_from_civil, days_in_month};
use super::timezone::TimeZone;
use super::{coerce_to_date, date_value, integral_i64};
use crate::error::{Error, ErrorCode, Result};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unit {
    Year,
    Quarter,
    Month,
    Week,
    Day,
    Hour,
    Minute,
    Second,
    Millisecond,
}

impl Unit {
    /// The length of a fixed-length unit in milliseconds.
    fn millis(self) -> Option<i64> {
        match self {
            Unit::Hour => Some(3_600_000),
            Unit::Minute => Some(60_000),
            Unit::Second => Some(1000),
            Unit::Millisecond => Some(1),
            _ => None,
        }
    }

    /// MongoDB's `serializeTimeUnit`.
    fn name(self) -> &'static str {
        match self {
            Unit::Year => "year",
            Unit::Quarter => "quarter",
            Unit::Month => "month",
            Unit::Week => "week",
            Unit::Day => "day",
            Unit::Hour => "hour",
            Unit::Minute => "minute",
            Unit::Second => "second",
            Unit::Millisecond => "millisecond",
        }
    }

    /// The largest amount (exclusive, either sign) `dateAdd` accepts in this unit: about the
    /// range of a date (`isDateAddAmountValid`, src/mongo/db/query/datetime/date_time_support.cpp).
    fn max_add_amount(self) -> Option<i64> {
        const MAX_DAYS: i64 = (u64::MAX / 86_400_000) as i64 + 1;
        const MAX_YEARS: i64 = MAX_DAYS / 365 + 1;
        Some(match self {
            Unit::Year => MAX_YEARS,
            Unit::Quarter => MAX_YEARS * 4,
            Unit::Month => MAX_YEARS * 12,
            Unit::Week => MAX_DAYS / 7,
            Unit::Day => MAX_DAYS,
            Unit::Hour => MAX_DAYS * 24,
            Unit::Minute => MAX_DAYS * 24 * 60,
            Unit::Second => MAX_DAYS * 24 * 60 * 60,
            Unit::Millisecond => return None,
        })
    }
}

/// MongoDB's `dateAdd`: refuses an amount far outside the date range (5976500), then reports a
/// result outside it as an overflow (5166406).
fn checked_date_add(date: i64, unit: Unit, amount: i64, tz: &TimeZone) -> Result<i64> {
    if let Some(max) = unit.max_add_amount()
        && !(-max < amount && amount < max)
    {
        return Err(Error::location(
            5976500,
            format!(
                "invalid dateAdd 'amount' parameter value: {amount} {}",
                unit.name()
            ),
        ));
    }
    add(date, unit, amount, tz).ok_or_else(|| Error::location(5166406, "dateAdd overflowed"))
}

/// MongoDB's `parseTimeUnit`.
fn parse_unit(v: &Option<Bson>, op: &str) -> Result<Unit> {
    let Some(Bson::String(s)) = v else {
        return Err(Error::location(
            5439013,
            format!(
                "{op} requires 'unit' to be a string, but got {}",
                type_name_of(v)
            ),
        ));
    };
    Ok(match s.as_str() {
        "year" => Unit::Year,
        "quarter" => Unit::Quarter,
        "month" => Unit::Month,
        "week" => Unit::Week,
        "day" => Unit::Day,
        "hour" => Unit::Hour,
        "minute" => Unit::Minute,
        "second" => Unit::Second,
        "millisecond" => Unit::Millisecond,
        _ => {
            return Err(Error::new(
                ErrorCode::FailedToParse,
                format!(
                    "{op} parameter 'unit' value parsing failed :: caused by :: unknown time \
                     unit value: {s}"
                ),
            ));
        }
    })
}

/// `startOfWeek` as days after Sunday (0 = Sunday ... 6 = Saturday).
fn parse_start_of_week(v: &Option<Bson>, op: &str) -> Result<i64> {
    let Some(Bson::String(s)) = v else {
        return Err(Error::location(
            5439015,
            format!(
                "{op} requires 'startOfWeek' to be a string, but got {}",
                type_name_of(v)
            ),
        ));
    };
    const DAYS: [&str; 7] = [
        "sunday",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
    ];
    let lower = s.to_ascii_lowercase();
    DAYS.iter()
        .position(|d| *d == lower || d[..3] == lower)
        .map(|i| i as i64)
        .ok_or_else(|| {
            Error::location(
                5439016,
                format!(
                    "{op} parameter 'startOfWeek' value cannot be recognized as a day of a week: \
                     {s}"
                ),
            )
        })
}

/// The time zone field `i`: UTC when absent, `None` when null.
fn zone(
    args: &[Expression],
    i: usize,
    vars: &Vars<'_>,
    context: Option<&str>,
) -> Result<Option<TimeZone>> {
    if !is_present(args, i) {
        return Ok(Some(TimeZone::Utc));
    }
    TimeZone::from_value(&named_value(args, i, vars)?).map_err(|e| match context {
        Some(op) => Error::new(
            e.code,
            format!(
                "{op} parameter 'timezone' value parsing failed :: caused by :: {}",
                e.message
            ),
        ),
        None => e,
    })
}

const ADD_FIELDS: &[&str] = &["startDate", "unit", "amount", "timezone"];

fn parse_add(
    def: &'static OperatorDef,
    arg: &Bson,
    scope: &super::super::Scope,
) -> Result<Vec<Expression>> {
    const SPEC: NamedSpec = NamedSpec {
        fields: ADD_FIELDS,
        required: &[],
        not_object: (5166400, "{op} expects an object as its argument"),
        unknown: (5166401, "Unrecognized argument to {op}: {}"),
    };
    let args = parse_named(def.name, &SPEC, arg, scope)?;
    if !(0..3).all(|i| is_present(&args, i)) {
        return Err(Error::location(
            5166402,
            format!(
                "{} requires startDate, unit, and amount to be present",
                def.name
            ),
        ));
    }
    Ok(args)
}

pub const DATE_ADD: OperatorDef = OperatorDef {
    name: "$dateAdd",
    arity: Arity::Any,
    parse_args: parse_add,
    eval: |args, vars| date_arithmetic(args, vars, "$dateAdd", false),
};

pub const DATE_SUBTRACT: OperatorDef = OperatorDef {
    name: "$dateSubtract",
    arity: Arity::Any,
    parse_args: parse_add,
    eval: |args, vars| date_arithmetic(args, vars, "$dateSubtract", true),
};

fn date_arithmetic(
    args: &[Expression],
    vars: &Vars<'_>,
    op: &str,
    subtract: bool,
) -> Result<Option<Bson>> {
    let start = named_value(args, 0, vars)?;
    if nullish(&start) {
        return Ok(Some(Bson::Null));
    }
    let unit = named_value(args, 1, vars)?;
    if nullish(&unit) {
        return Ok(Some(Bson::Null));
    }
    let unit = parse_unit(&unit, op)?;
    let amount = named_value(args, 2, vars)?;
    if nullish(&amount) {
        return Ok(Some(Bson::Null));
    }
    let Some(tz) = zone(args, 3, vars, None)? else {
        return Ok(Some(Bson::Null));
    };
    let start = coerce_to_date(&start).map_err(|_| {
        Error::location(
            5166403,
            format!("{op} requires startDate to be convertible to a date"),
        )
    })?;
    let amount = integral_i64(&amount).ok_or_else(|| {
        Error::location(
            5166405,
            format!("{op} expects integer amount of time units"),
        )
    })?;
    let amount = if subtract {
        amount.checked_neg().ok_or_else(|| {
            Error::location(
                6045000,
                format!("invalid $dateSubtract 'amount' parameter value: {amount}"),
            )
        })?
    } else {
        amount
    };
    checked_date_add(start, unit, amount, &tz).map(|ms| Some(date_value(ms)))
}

/// `date + amount units` in `tz`; `None` on overflow.
fn add(date: i64, unit: Unit, amount: i64, tz: &TimeZone) -> Option<i64> {
    if let Some(len) = unit.millis() {
        return date.checked_add(amount.checked_mul(len)?);
    }
    let local = tz.to_local(date);
    let time = local_time_of_day(&local);
    let days = match unit {
        Unit::Day => local.days.checked_add(amount)?,
        Unit::Week => local.days.checked_add(amount.checked_mul(7)?)?,
        _ => {
            let months = match unit {
                Unit::Year => amount.checked_mul(12)?,
                Unit::Quarter => amount.checked_mul(3)?,
                _ => amount,
            };
            let total = (local.year.checked_mul(12)? + local.month - 1).checked_add(months)?;
            let (year, month) = (total.div_euclid(12), total.rem_euclid(12) + 1);
            // Past the end of the month, the result is the month's last day.
            let day = local.day.min(days_in_month(year, month));
            days_from_civil(year, month, day)
        }
    };
    let local_millis = days.checked_mul(MILLIS_PER_DAY)?.checked_add(time)?;
    Some(tz.to_utc(local_millis))
}

fn local_time_of_day(c: &Civil) -> i64 {
    c.hour * 3_600_000 + c.minute * 60_000 + c.second * 1000 + c.millisecond
}

const DIFF_FIELDS: &[&str] = &["startDate", "endDate", "unit", "timezone", "startOfWeek"];

pub const DATE_DIFF: OperatorDef = OperatorDef {
    name: "$dateDiff",
    arity: Arity::Any,
    parse_args: |def, arg, scope| {
        const SPEC: NamedSpec = NamedSpec {
            fields: DIFF_FIELDS,
            required: &[
                (
                    "startDate",
                    5166303,
                    "Missing 'startDate' parameter to $dateDiff",
                ),
                (
                    "endDate",
                    5166304,
                    "Missing 'endDate' parameter to $dateDiff",
                ),
                ("unit", 5166305, "Missing 'unit' parameter to $dateDiff"),
            ],
            not_object: (5166301, "$dateDiff only supports an object as its argument"),
            unknown: (5166302, "Unrecognized argument to $dateDiff: {}"),
        };
        parse_named(def.name, &SPEC, arg, scope)
    },
    eval: date_diff,
};

/// MongoDB's `convertDate` for `$dateDiff` and `$dateTrunc`.
fn require_date(v: &Option<Bson>, op: &str, name: &str) -> Result<i64> {
    coerce_to_date(v).map_err(|_| {
        Error::location(
            5166307,
            format!(
                "{op} requires '{name}' to be a date, but got {}",
                type_name_of(v)
            ),
        )
    })
}

/// `startOfWeek` (field `i`) when the unit is a week: Sunday when absent, `None` when null.
fn week_start(
    args: &[Expression],
    i: usize,
    vars: &Vars<'_>,
    unit: Unit,
    op: &str,
) -> Result<Option<i64>> {
    if unit != Unit::Week || !is_present(args, i) {
        return Ok(Some(0));
    }
    let v = named_value(args, i, vars)?;
    if nullish(&v) {
        return Ok(None);
    }
    parse_start_of_week(&v, op).map(Some)
}

/// The unit (field `unit_field`), then `startOfWeek` and `timezone` (fields 4 and 3) of
/// `$dateDiff` and `$dateTrunc`, read in MongoDB's order; `None` when one is null.
fn unit_week_and_zone(
    args: &[Expression],
    unit_field: usize,
    vars: &Vars<'_>,
    op: &str,
) -> Result<Option<(Unit, i64, TimeZone)>> {
    let unit = named_value(args, unit_field, vars)?;
    if nullish(&unit) {
        return Ok(None);
    }
    let unit = parse_unit(&unit, op)?;
    let Some(week_start) = week_start(args, 4, vars, unit, op)? else {
        return Ok(None);
    };
    Ok(zone(args, 3, vars, Some(op))?.map(|tz| (unit, week_start, tz)))
}

fn date_diff(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    const OP: &str = "$dateDiff";
    let start = named_value(args, 0, vars)?;
    if nullish(&start) {
        return Ok(Some(Bson::Null));
    }
    let end = named_value(args, 1, vars)?;
    if nullish(&end) {
        return Ok(Some(Bson::Null));
    }
    let Some((unit, week_start, tz)) = unit_week_and_zone(args, 2, vars, OP)? else {
        return Ok(Some(Bson::Null));
    };
    let start = require_date(&start, OP, "startDate")?;
    let end = require_date(&end, OP, "endDate")?;
    let (a, b) = (tz.to_local(start), tz.to_local(end));
    let diff = match unit {
        Unit::Year => b.year - a.year,
        Unit::Quarter => (b.year - a.year) * 4 + (b.month - 1) / 3 - (a.month - 1) / 3,
        Unit::Month => (b.year - a.year) * 12 + b.month - a.month,
        // Weeks are counted by the week starts crossed.
        Unit::Week => {
            let week = |c: &Civil| (c.days + 4 - week_start).div_euclid(7);
            week(&b) - week(&a)
        }
        Unit::Day => b.days - a.days,
        Unit::Hour => {
            let local = |ms: i64| {
                ms.saturating_add(tz.offset_millis(ms))
                    .div_euclid(3_600_000)
            };
            local(end) - local(start)
        }
        Unit::Minute | Unit::Second | Unit::Millisecond => {
            let len = unit.millis().unwrap_or(1);
            // Only milliseconds between the extreme dates can leave the long range.
            end.div_euclid(len)
                .checked_sub(start.div_euclid(len))
                .ok_or_else(|| Error::location(5166308, "dateDiff overflowed"))?
        }
    };
    Ok(Some(Bson::Int64(diff)))
}

const TRUNC_FIELDS: &[&str] = &["date", "unit", "binSize", "timezone", "startOfWeek"];

pub const DATE_TRUNC: OperatorDef = OperatorDef {
    name: "$dateTrunc",
    arity: Arity::Any,
    parse_args: |def, arg, scope| {
        const SPEC: NamedSpec = NamedSpec {
            fields: TRUNC_FIELDS,
            required: &[
                ("date", 5439009, "Missing 'date' parameter to $dateTrunc"),
                ("unit", 5439010, "Missing 'unit' parameter to $dateTrunc"),
            ],
            not_object: (
                5439007,
                "$dateTrunc only supports an object as its argument",
            ),
            unknown: (5439008, "Unrecognized argument to $dateTrunc: {}"),
        };
        parse_named(def.name, &SPEC, arg, scope)
    },
    eval: date_trunc,
};

fn date_trunc(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    const OP: &str = "$dateTrunc";
    let date = named_value(args, 0, vars)?;
    if nullish(&date) {
        return Ok(Some(Bson::Null));
    }
    let bin_size = if is_present(args, 2) {
        let v = named_value(args, 2, vars)?;
        if nullish(&v) {
            return Ok(Some(Bson::Null));
        }
        let n = integral_i64(&v).ok_or_else(|| {
            Error::location(
                5439017,
                format!(
                    "$dateTrunc requires 'binSize' to be a 64-bit integer, but got value '{}' of \
                     type {}",
                    value_string(&v),
                    type_name_of(&v)
                ),
            )
        })?;
        if n <= 0 {
            return Err(Error::location(
                5439018,
                format!("$dateTrunc requires 'binSize' to be greater than 0, but got value {n}"),
            ));
        }
        n
    } else {
        1
    };
    let Some((unit, week_start, tz)) = unit_week_and_zone(args, 1, vars, OP)? else {
        return Ok(Some(Bson::Null));
    };
    let date = require_date(&date, OP, "date")?;
    Ok(Some(date_value(truncate(
        date, unit, bin_size, &tz, week_start,
    )?)))
}

/// The start of the `bin_size`-unit bin holding `date`. Bins are counted from
/// 2000-01-01T00:00 on the zone's wall clock (for weeks, from the first `week_start` day on or
/// after it). As MongoDB's `truncateDate` (src/mongo/db/query/datetime/date_time_support.cpp):
/// fixed-length bins are cut in milliseconds with overflow checks (5439000-5439002); calendar
/// bins take a `binSize` up to 100,000,000,000 (5439006) and end with `dateAdd` from the
/// reference point, which refuses an amount outside the date range.
fn truncate(date: i64, unit: Unit, bin_size: i64, tz: &TimeZone, week_start: i64) -> Result<i64> {
    const MAX_CALENDAR_BIN: i64 = 100_000_000_000;
    let overflowed = |code| Error::location(code, "dateTrunc overflowed");
    let reference_days = days_from_civil(2000, 1, 1);
    if let Some(len) = unit.millis() {
        let bin = bin_size
            .checked_mul(len)
            .ok_or_else(|| overflowed(5439002))?;
        let reference = tz.to_utc(reference_days * MILLIS_PER_DAY);
        let shifted = date
            .checked_sub(reference)
            .ok_or_else(|| overflowed(5439000))?;
        return date
            .checked_sub(shifted.rem_euclid(bin))
            .ok_or_else(|| overflowed(5439001));
    }
    if bin_size > MAX_CALENDAR_BIN {
        return Err(Error::location(
            5439006,
            "dateTrunc unsupported binSize value",
        ));
    }
    let local = tz.to_local(date);
    let (reference_day, distance) = match unit {
        Unit::Year => (reference_days, local.year - 2000),
        Unit::Quarter => (
            reference_days,
            ((local.year - 2000) * 12 + local.month - 1).div_euclid(3),
        ),
        Unit::Month => (reference_days, (local.year - 2000) * 12 + local.month - 1),
        Unit::Week => {
            // 2000-01-01 was a Saturday (6).
            let first = reference_days + (week_start - 6).rem_euclid(7);
            (first, (local.days - first).div_euclid(7))
        }
        _ => (reference_days, local.days - reference_days),
    };
    let lower = distance - distance.rem_euclid(bin_size);
    let reference = tz.to_utc(reference_day * MILLIS_PER_DAY);
    checked_date_add(reference, unit, lower, tz)
}
