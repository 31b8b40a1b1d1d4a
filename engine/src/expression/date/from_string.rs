//! `$dateFromString`: `{dateString, format, timezone, onError, onNull}`.
//!
//! With a `format`, the string is read by MongoDB's specifiers (`%Y %m %d %H %M %S %L %j %G %V
//! %u %b %B %z %Z %%`). Without one, ISO 8601 dates and times are accepted (`2017-02-08`,
//! `2017-02-08T12:10:40.787Z`, `2017-02-08 12:10:40 +05:30`, `2017/02/08`...), with an
//! optional UTC offset or Olson zone name at the end; then the free-form English dates
//! MongoDB's timelib also reads ("July 4th, 2017", "2017-Jul-04 noon", `free_form.rs`).

use bson::Bson;

use super::super::array::type_name_of;
use super::super::named_args::{NamedSpec, is_present, named, named_value, nullish, parse_named};
use super::super::operators::{Arity, OperatorDef};
use super::super::string::value_string;
use super::super::{Expression, Vars};
use super::civil::{MILLIS_PER_DAY, days_from_civil, days_in_month};
use super::date_value;
use super::format::validate_format;
use super::free_form;
use super::timezone::TimeZone;
use crate::error::{Error, ErrorCode, Result};

const SPEC: NamedSpec = NamedSpec {
    fields: &["dateString", "format", "timezone", "onError", "onNull"],
    required: &[(
        "dateString",
        40542,
        "Missing 'dateString' parameter to $dateFromString",
    )],
    not_object: (
        40540,
        "$dateFromString only supports an object as an argument, found: {}",
    ),
    unknown: (40541, "Unrecognized argument to $dateFromString: {}"),
};

pub const DATE_FROM_STRING: OperatorDef = OperatorDef {
    name: "$dateFromString",
    arity: Arity::Any,
    parse_args: |def, arg, scope| parse_named(def.name, &SPEC, arg, scope),
    eval: date_from_string,
};

/// Month names, lower case (the first three letters are the abbreviation).
pub(super) const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// MongoDB's `ConversionFailure` (241), the error `onError` replaces.
fn conversion_failure(message: String) -> Error {
    Error::new(ErrorCode::ConversionFailure, message)
}

/// `$dateFromString`, in MongoDB's order: the format is checked first, then the time zone, then
/// a null string gives `onNull`; conversion failures after that give `onError` when present.
fn date_from_string(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let date_string = named_value(args, 0, vars)?;
    let format = named_value(args, 1, vars)?;
    if is_present(args, 1) && !nullish(&format) {
        let Some(Bson::String(f)) = &format else {
            return Err(Error::location(
                40684,
                format!(
                    "$dateFromString requires that 'format' be a string, found: {} with value {}",
                    type_name_of(&format),
                    value_string(&format)
                ),
            ));
        };
        validate_format(f, FROM_STRING_SPECIFIERS)?;
    }
    let explicit_zone = is_present(args, 2);
    let tz = if explicit_zone {
        TimeZone::from_value(&named_value(args, 2, vars)?)?
    } else {
        Some(TimeZone::Utc)
    };
    if nullish(&date_string) {
        return Ok(match named(args, 4, vars)? {
            Some(on_null) => on_null,
            None => Some(Bson::Null),
        });
    }
    let result = (|| -> Result<Option<Bson>> {
        let s = string_arg(&date_string)?;
        let Some(tz) = &tz else {
            return Ok(Some(Bson::Null));
        };
        let parsed = if is_present(args, 1) {
            let Some(Bson::String(f)) = &format else {
                return Ok(Some(Bson::Null));
            };
            parse_with_format(s, f)?
        } else {
            // ISO 8601 first; timelib's free-form English dates otherwise.
            parse_iso(s).or_else(|e| free_form::parse(s).map(Parsed::from).ok_or(e))?
        };
        parsed.resolve(s, tz, explicit_zone).map(Some)
    })();
    match result {
        Err(e) if e.code() == 241 && is_present(args, 3) => named_value(args, 3, vars),
        other => other,
    }
}

fn string_arg(v: &Option<Bson>) -> Result<&str> {
    match v {
        Some(Bson::String(s)) => Ok(s),
        _ => Err(conversion_failure(format!(
            "$dateFromString requires that 'dateString' be a string, found: {} with value {}",
            type_name_of(v),
            value_string(v)
        ))),
    }
}

/// The specifiers `$dateFromString` reads.
const FROM_STRING_SPECIFIERS: &str = "%bBdGHjLmMSuVYzZ";

/// What a date string said.
#[derive(Debug, Default)]
struct Parsed {
    year: Option<i64>,
    month: Option<i64>,
    day: Option<i64>,
    day_of_year: Option<i64>,
    iso_year: Option<i64>,
    iso_week: Option<i64>,
    iso_day: Option<i64>,
    hour: i64,
    minute: i64,
    second: i64,
    millisecond: i64,
    /// A UTC offset written in the string, in seconds.
    offset: Option<i64>,
    /// An Olson zone named in the string.
    zone: Option<String>,
}

impl Parsed {
    fn resolve(&self, s: &str, tz: &TimeZone, explicit_zone: bool) -> Result<Bson> {
        if explicit_zone && self.offset.is_some() {
            return Err(conversion_failure(
                "you cannot pass in a date/time string with GMT offset together with a timezone \
                 argument"
                    .into(),
            ));
        }
        if explicit_zone && let Some(z) = &self.zone {
            return Err(conversion_failure(format!(
                "you cannot pass in a date/time string with time zone information ('{z}') \
                 together with a timezone argument"
            )));
        }
        let days = if let Some(iso_year) = self.iso_year {
            let jan4 = days_from_civil(iso_year, 1, 4);
            let monday = jan4 - (jan4 + 3).rem_euclid(7);
            monday + (self.iso_week.unwrap_or(1) - 1) * 7 + (self.iso_day.unwrap_or(1) - 1)
        } else {
            let (Some(year), Some(month), Some(day)) = (self.year, self.month, self.day) else {
                if let (Some(year), Some(doy)) = (self.year, self.day_of_year) {
                    return self.finish(days_from_civil(year, 1, 1) + doy - 1, tz);
                }
                return Err(conversion_failure(format!(
                    "an incomplete date/time string has been found, with elements missing: \"{s}\""
                )));
            };
            if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
                return Err(conversion_failure(format!(
                    "Error parsing date string '{s}'; The parsed date was invalid"
                )));
            }
            days_from_civil(year, month, day)
        };
        self.finish(days, tz)
    }

    fn finish(&self, days: i64, tz: &TimeZone) -> Result<Bson> {
        let local = days * MILLIS_PER_DAY
            + self.hour * 3_600_000
            + self.minute * 60_000
            + self.second * 1000
            + self.millisecond;
        let millis = match (&self.offset, &self.zone) {
            (Some(offset), _) => local - offset * 1000,
            (None, Some(zone)) => TimeZone::parse(zone)
                .map_err(|e| conversion_failure(e.message))?
                .to_utc(local),
            (None, None) => tz.to_utc(local),
        };
        Ok(date_value(millis))
    }
}

impl From<free_form::FreeForm> for Parsed {
    fn from(f: free_form::FreeForm) -> Parsed {
        Parsed {
            year: Some(f.year),
            month: Some(f.month),
            day: Some(f.day),
            hour: f.hour,
            minute: f.minute,
            second: f.second,
            millisecond: f.millisecond,
            offset: f.offset,
            zone: f.zone,
            ..Parsed::default()
        }
    }
}

/// A free-form English date (`2017-Jul-04 noon`) in UTC unless it names a zone, as `$toDate`
/// reads strings its ISO parse refuses; `None` when it is not one.
pub fn free_form_millis(s: &str) -> Option<i64> {
    let parsed = Parsed::from(free_form::parse(s)?);
    match parsed.resolve(s, &TimeZone::Utc, false).ok()? {
        Bson::DateTime(d) => Some(d.timestamp_millis()),
        _ => None,
    }
}

/// A cursor over the date string.
struct Reader<'a> {
    s: &'a str,
    pos: usize,
}

impl<'a> Reader<'a> {
    fn rest(&self) -> &'a str {
        &self.s[self.pos..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    /// Between `min` and `max` ASCII digits.
    fn number(&mut self, min: usize, max: usize) -> Option<i64> {
        let digits = self
            .rest()
            .bytes()
            .take(max)
            .take_while(u8::is_ascii_digit)
            .count();
        if digits < min {
            return None;
        }
        let n = self.rest()[..digits].parse().ok()?;
        self.pos += digits;
        Some(n)
    }

    /// `±hh`, `±hhmm` or `±hh:mm`, in seconds.
    fn offset(&mut self) -> Option<i64> {
        let sign = match self.peek()? {
            '+' => 1,
            '-' => -1,
            _ => return None,
        };
        self.pos += 1;
        let hours = self.number(2, 2)?;
        self.eat(':');
        let minutes = self.number(2, 2).unwrap_or(0);
        Some(sign * (hours * 3600 + minutes * 60))
    }

    fn month_name(&mut self) -> Option<i64> {
        let rest = self.rest().to_ascii_lowercase();
        for (i, name) in MONTHS.iter().enumerate() {
            for candidate in [*name, &name[..3]] {
                if rest.starts_with(candidate) {
                    self.pos += candidate.len();
                    return Some(i as i64 + 1);
                }
            }
        }
        None
    }
}

fn parse_error(s: &str, what: &str) -> Error {
    conversion_failure(format!("Error parsing date string '{s}'; {what}"))
}

fn parse_with_format(s: &str, format: &str) -> Result<Parsed> {
    let mut r = Reader { s, pos: 0 };
    let mut p = Parsed::default();
    let mut f = format.chars();
    let bad = |what: &str| parse_error(s, what);
    while let Some(c) = f.next() {
        if c != '%' {
            if !r.eat(c) {
                return Err(bad("The separation symbol could not be found"));
            }
            continue;
        }
        let spec = f.next().unwrap_or('%');
        let value =
            |r: &mut Reader<'_>, min, max, what: &str| r.number(min, max).ok_or_else(|| bad(what));
        match spec {
            '%' => {
                if !r.eat('%') {
                    return Err(bad("The escaped character could not be found"));
                }
            }
            'Y' => p.year = Some(value(&mut r, 4, 4, "A four digit year could not be found")?),
            'G' => {
                p.iso_year = Some(value(
                    &mut r,
                    4,
                    4,
                    "A four digit ISO year could not be found",
                )?)
            }
            'm' => p.month = Some(value(&mut r, 1, 2, "A two digit month could not be found")?),
            'd' => p.day = Some(value(&mut r, 1, 2, "A two digit day could not be found")?),
            'j' => {
                p.day_of_year = Some(value(
                    &mut r,
                    1,
                    3,
                    "A three digit day-of-year could not be found",
                )?)
            }
            'H' => p.hour = value(&mut r, 1, 2, "A two digit hour could not be found")?,
            'M' => p.minute = value(&mut r, 1, 2, "A two digit minute could not be found")?,
            'S' => p.second = value(&mut r, 1, 2, "A two digit second could not be found")?,
            'L' => {
                let start = r.pos;
                let n = value(&mut r, 1, 3, "A three digit millisecond could not be found")?;
                // "5" is 500 ms, "05" is 50 ms.
                p.millisecond = n * 10i64.pow(3 - (r.pos - start) as u32);
            }
            'V' => {
                p.iso_week = Some(value(
                    &mut r,
                    1,
                    2,
                    "A two digit ISO week could not be found",
                )?)
            }
            'u' => {
                p.iso_day = Some(value(
                    &mut r,
                    1,
                    1,
                    "A single digit day of week could not be found",
                )?)
            }
            'b' | 'B' => {
                p.month = Some(
                    r.month_name()
                        .ok_or_else(|| bad("A textual month could not be found"))?,
                )
            }
            'z' => p.offset = Some(r.offset().ok_or_else(|| bad("Unexpected data found."))?),
            'Z' => {
                let sign = if r.eat('-') {
                    -1
                } else {
                    i64::from(!r.eat('+')) | 1
                };
                let minutes = value(&mut r, 1, 4, "Unexpected data found.")?;
                p.offset = Some(sign * minutes * 60);
            }
            _ => return Err(bad("Unexpected data found.")),
        }
    }
    if !r.rest().is_empty() {
        return Err(bad("Trailing data"));
    }
    check_time(s, &p)?;
    Ok(p)
}

fn check_time(s: &str, p: &Parsed) -> Result<()> {
    if p.hour > 24 || p.minute > 59 || p.second > 59 {
        return Err(parse_error(s, "Unexpected data found."));
    }
    Ok(())
}

/// ISO 8601 dates with an optional time and zone.
fn parse_iso(s: &str) -> Result<Parsed> {
    let bad = |what: &str| parse_error(s, what);
    let mut r = Reader {
        s: s.trim(),
        pos: 0,
    };
    let mut p = Parsed::default();
    let year = r
        .number(4, 4)
        .ok_or_else(|| bad("Unexpected data found."))?;
    let sep = r.peek();
    if !matches!(sep, Some('-' | '/' | '.')) {
        return Err(bad("Unexpected data found."));
    }
    r.pos += 1;
    let month = r
        .number(1, 2)
        .ok_or_else(|| bad("Unexpected data found."))?;
    if !r.eat(sep.unwrap_or('-')) {
        return Err(bad("Unexpected data found."));
    }
    let day = r
        .number(1, 2)
        .ok_or_else(|| bad("Unexpected data found."))?;
    (p.year, p.month, p.day) = (Some(year), Some(month), Some(day));
    if r.eat('T')
        || (r.peek() == Some(' ') && r.rest()[1..].starts_with(|c: char| c.is_ascii_digit()))
    {
        r.eat(' ');
        p.hour = r
            .number(1, 2)
            .ok_or_else(|| bad("Unexpected data found."))?;
        // timelib's `hour24 [:.] minute [:.] second`: a dot may separate the clock's parts
        // (`2017-07-04T11:56.02` is 11:56:02).
        if !(r.eat(':') || r.eat('.')) {
            return Err(bad("Unexpected data found."));
        }
        p.minute = r
            .number(2, 2)
            .ok_or_else(|| bad("Unexpected data found."))?;
        if r.eat(':') || r.eat('.') {
            p.second = r
                .number(2, 2)
                .ok_or_else(|| bad("Unexpected data found."))?;
            if r.eat('.') || r.eat(',') {
                let start = r.pos;
                let digits = r
                    .number(1, 9)
                    .ok_or_else(|| bad("Unexpected data found."))?;
                let len = (r.pos - start) as u32;
                p.millisecond = if len >= 3 {
                    digits / 10i64.pow(len - 3)
                } else {
                    digits * 10i64.pow(3 - len)
                };
            }
        }
    }
    r.eat(' ');
    match r.peek() {
        None => {}
        Some('Z' | 'z') if r.rest().len() == 1 => p.offset = Some(0),
        Some('+' | '-') => {
            p.offset = Some(r.offset().ok_or_else(|| bad("Unexpected data found."))?);
        }
        Some(_) => {
            let name = r.rest();
            if name == "UTC" || name == "GMT" {
                p.offset = Some(0);
            } else if TimeZone::parse(name).is_ok() {
                p.zone = Some(name.to_string());
            } else {
                return Err(bad("The timezone could not be found in the database"));
            }
            r.pos = r.s.len();
        }
    }
    if let Some(z) = r.rest().strip_prefix(['Z', 'z']) {
        if !z.is_empty() {
            return Err(bad("Trailing data"));
        }
    } else if !r.rest().is_empty() {
        return Err(bad("Trailing data"));
    }
    check_time(s, &p)?;
    Ok(p)
}
