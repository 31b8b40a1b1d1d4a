//! Time zones as MongoDB accepts them: Olson names (`"America/New_York"`, exact case) from the
//! IANA database (bundled by `jiff` natively, read when first used in the browser: `tzdata`),
//! and UTC offsets (`"+04:45"`, `"-0330"`, `"+03"`).

use bson::Bson;

use super::civil::Civil;
use crate::error::{Error, ErrorCode, Result};
use crate::value::display::type_name;

#[derive(Debug, Clone)]
pub enum TimeZone {
    Utc,
    /// A fixed offset east of UTC, in seconds.
    Fixed(i64),
    Named(jiff::tz::TimeZone),
}

impl TimeZone {
    /// MongoDB's `TimeZoneDatabase::getTimeZone`.
    pub fn parse(name: &str) -> Result<TimeZone> {
        if let Some(seconds) = parse_utc_offset(name) {
            return Ok(TimeZone::Fixed(seconds));
        }
        if name == "UTC" {
            return Ok(TimeZone::Utc);
        }
        match named(name) {
            Ok(Some(tz)) => Ok(TimeZone::Named(tz)),
            Ok(None) => Err(Error::location(
                40485,
                format!("unrecognized time zone identifier: \"{name}\""),
            )),
            Err(why) => Err(Error::new(
                ErrorCode::OperationFailed,
                format!(
                    "time zone \"{name}\" could not be loaded: the time-zone database ({}) \
                     could not be read: {why}",
                    super::tzdata::FILE
                ),
            )),
        }
    }

    /// The zone an evaluated `timezone` argument names: `None` (the operator's result is
    /// null) when the value is null or missing.
    pub fn from_value(v: &Option<Bson>) -> Result<Option<TimeZone>> {
        match v {
            None | Some(Bson::Null | Bson::Undefined) => Ok(None),
            Some(Bson::String(s)) => TimeZone::parse(s).map(Some),
            Some(other) => Err(Error::location(
                40517,
                format!(
                    "timezone must evaluate to a string, found {}",
                    type_name(other)
                ),
            )),
        }
    }

    /// The offset from UTC at an instant, in milliseconds.
    pub fn offset_millis(&self, utc_millis: i64) -> i64 {
        match self {
            TimeZone::Utc => 0,
            TimeZone::Fixed(s) => s * 1000,
            TimeZone::Named(tz) => {
                // Outside jiff's range (years -9999..9999) the nearest representable
                // instant's offset applies.
                let min = jiff::Timestamp::MIN.as_millisecond();
                let max = jiff::Timestamp::MAX.as_millisecond();
                let ts = jiff::Timestamp::from_millisecond(utc_millis.clamp(min, max))
                    .unwrap_or(jiff::Timestamp::UNIX_EPOCH);
                i64::from(tz.to_offset(ts).seconds()) * 1000
            }
        }
    }

    /// The wall clock in this zone at an instant.
    pub fn to_local(&self, utc_millis: i64) -> Civil {
        Civil::from_millis(utc_millis.saturating_add(self.offset_millis(utc_millis)))
    }

    /// The instant a wall-clock reading (as milliseconds since the local epoch) names. In a
    /// gap (spring forward) the later offset applies, in an overlap the earlier instant.
    pub fn to_utc(&self, local_millis: i64) -> i64 {
        match self {
            TimeZone::Utc => local_millis,
            TimeZone::Fixed(s) => local_millis.saturating_sub(s * 1000),
            TimeZone::Named(tz) => {
                let c = Civil::from_millis(local_millis);
                let resolved = civil_to_jiff(&c).and_then(|dt| {
                    tz.to_ambiguous_timestamp(dt)
                        .compatible()
                        .ok()
                        .map(|ts| ts.as_millisecond())
                });
                resolved.unwrap_or_else(|| {
                    local_millis.saturating_sub(self.offset_millis(local_millis))
                })
            }
        }
    }
}

/// The zone named exactly `name`: jiff's bundled database natively.
#[cfg(not(target_arch = "wasm32"))]
fn named(name: &str) -> std::result::Result<Option<jiff::tz::TimeZone>, String> {
    // jiff looks names up ignoring case; MongoDB does not.
    Ok(jiff::tz::TimeZone::get(name)
        .ok()
        .filter(|tz| tz.iana_name() == Some(name)))
}

/// The zone named exactly `name`: the database file read when first needed in the browser.
#[cfg(target_arch = "wasm32")]
fn named(name: &str) -> std::result::Result<Option<jiff::tz::TimeZone>, String> {
    super::tzdata::zone(name)
}

fn civil_to_jiff(c: &Civil) -> Option<jiff::civil::DateTime> {
    let year = i16::try_from(c.year).ok()?;
    jiff::civil::DateTime::new(
        year,
        i8::try_from(c.month).ok()?,
        i8::try_from(c.day).ok()?,
        i8::try_from(c.hour).ok()?,
        i8::try_from(c.minute).ok()?,
        i8::try_from(c.second).ok()?,
        i32::try_from(c.millisecond * 1_000_000).ok()?,
    )
    .ok()
}

/// `+hh:mm`, `+hhmm` or `+hh` (or with `-`), in seconds east of UTC.
fn parse_utc_offset(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    let sign = match b.first()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let digits = |i: usize, j: usize| -> Option<i64> {
        let part = s.get(i..j)?;
        part.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| part.parse().ok())?
    };
    let hours = digits(1, 3)?;
    let minutes = match b.len() {
        3 => 0,
        5 => digits(3, 5)?,
        6 if b[3] == b':' => digits(4, 6)?,
        _ => return None,
    };
    Some(sign * (hours * 3600 + minutes * 60))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_offsets() {
        assert!(matches!(TimeZone::parse("UTC"), Ok(TimeZone::Utc)));
        assert!(matches!(
            TimeZone::parse("+04:45"),
            Ok(TimeZone::Fixed(17_100))
        ));
        assert!(matches!(
            TimeZone::parse("-0330"),
            Ok(TimeZone::Fixed(-12_600))
        ));
        assert!(matches!(
            TimeZone::parse("+03"),
            Ok(TimeZone::Fixed(10_800))
        ));
        let e = TimeZone::parse("america/new_york").unwrap_err();
        assert_eq!(
            (e.code(), e.message.as_str()),
            (
                40485,
                "unrecognized time zone identifier: \"america/new_york\""
            )
        );
        assert_eq!(TimeZone::parse("+4:45").unwrap_err().code(), 40485);
        let ny = TimeZone::parse("America/New_York").unwrap();
        // 2017-07-01T00:00Z is in EDT (-4h), 2017-01-01T00:00Z in EST (-5h).
        assert_eq!(ny.offset_millis(1_498_867_200_000), -4 * 3_600_000);
        assert_eq!(ny.offset_millis(1_483_228_800_000), -5 * 3_600_000);
        let local = super::super::civil::days_from_civil(2017, 1, 1) * 86_400_000;
        assert_eq!(ny.to_utc(local), 1_483_246_800_000);
        // Far outside the database's range: no panic.
        let _ = ny.to_local(i64::MIN);
        let _ = ny.to_utc(i64::MAX);
    }
}
