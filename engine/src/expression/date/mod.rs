//! Date operators. `parts.rs`: `$year $month $dayOfMonth $hour $minute $second $millisecond
//! $dayOfWeek $dayOfYear $week $isoWeek $isoWeekYear $isoDayOfWeek $dateToParts $dateFromParts`;
//! `format.rs`: `$dateToString`; `from_string.rs`: `$dateFromString` (`free_form.rs`: the
//! English dates timelib reads beside ISO 8601); `arith.rs`: `$dateAdd $dateSubtract $dateDiff
//! $dateTrunc`.
//!
//! Dates are i64 milliseconds; calendar arithmetic is done on that whole range (`civil.rs`),
//! time zone offsets come from the IANA database (`timezone.rs`).

mod arith;
pub mod civil;
mod format;
mod free_form;
mod from_string;
mod parts;
mod timezone;
pub mod tzdata;

use bson::Bson;

pub use from_string::free_form_millis;
pub(crate) use parts::utc_component;

use super::array::type_name_of;
use super::operators::OperatorDef;
use crate::error::{Error, Result};

pub const OPERATORS: &[OperatorDef] = &[
    parts::component("$year", parts::year),
    parts::component("$month", parts::month),
    parts::component("$dayOfMonth", parts::day_of_month),
    parts::component("$hour", parts::hour),
    parts::component("$minute", parts::minute),
    parts::component("$second", parts::second),
    parts::component("$millisecond", parts::millisecond),
    parts::component("$dayOfWeek", parts::day_of_week),
    parts::component("$dayOfYear", parts::day_of_year),
    parts::component("$week", parts::week),
    parts::component("$isoWeek", parts::iso_week),
    parts::component("$isoWeekYear", parts::iso_week_year),
    parts::component("$isoDayOfWeek", parts::iso_day_of_week),
    parts::DATE_TO_PARTS,
    parts::DATE_FROM_PARTS,
    format::DATE_TO_STRING,
    from_string::DATE_FROM_STRING,
    arith::DATE_ADD,
    arith::DATE_SUBTRACT,
    arith::DATE_DIFF,
    arith::DATE_TRUNC,
];

/// MongoDB's `Value::coerceToDate`: dates, timestamps and ObjectIds name instants.
pub fn coerce_to_date(v: &Option<Bson>) -> Result<i64> {
    match v {
        Some(Bson::DateTime(d)) => Ok(d.timestamp_millis()),
        Some(Bson::Timestamp(t)) => Ok(i64::from(t.time) * 1000),
        Some(Bson::ObjectId(o)) => Ok(o.timestamp().timestamp_millis()),
        _ => Err(Error::location(
            16006,
            format!("can't convert from BSON type {} to Date", type_name_of(v)),
        )),
    }
}

/// An integral number that fits in 64 bits (`Value::integral64Bit`).
pub fn integral_i64(v: &Option<Bson>) -> Option<i64> {
    match v {
        Some(Bson::Int32(i)) => Some(i64::from(*i)),
        Some(Bson::Int64(i)) => Some(*i),
        Some(Bson::Double(d)) if d.fract() == 0.0 && d.abs() < 9.223_372_036_854_775e18 => {
            Some(*d as i64)
        }
        Some(Bson::Decimal128(d)) => {
            let dec = crate::value::Decimal::from_bson(d);
            (dec.to_f64().fract() == 0.0)
                .then(|| dec.to_i64_truncated())
                .flatten()
        }
        _ => None,
    }
}

/// A date result, or an error when it leaves the range of BSON dates.
pub fn date_value(millis: i64) -> Bson {
    Bson::DateTime(bson::DateTime::from_millis(millis))
}

#[cfg(test)]
mod tests;
