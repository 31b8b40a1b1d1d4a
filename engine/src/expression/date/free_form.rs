//! The free-form English dates MongoDB's date parser (timelib's `strtotime` grammar) reads
//! beside ISO 8601, for `$dateFromString` without a format and `$toDate`:
//!
//! - dates: `July 4th, 2017`, `4 July 2017`, `2017-Jul-04`, `04-Jul-2017`, `7/4/17` (American
//!   month/day/year), `04-07-2017` and `04.07.2017` (day-month-year), `2017-07-04`;
//! - an optional time: `noon`, `midnight`, `12:39[:30[.5]]`, `11am`, `12:30 pm`;
//! - an optional zone: `Z`, `UTC`, `GMT`, `GMT+0545`, `+05:45`, a common abbreviation (`BST`,
//!   `CET`, `EST`, …) or an Olson name.
//!
//! A two-digit year is 19xx from 70 on and 20xx below, as timelib's `process_year` does.
//! The examples are those of MongoDB's `jstests/aggregation/expressions/date_from_string.js`
//! ("Wacky format tests from data"): `2017-Jul-04 noon` is 2017-07-04T12:00:00Z.

use super::from_string::MONTHS;
use super::timezone::TimeZone;

/// A date read from free-form text: civil fields, and the zone the text named, if any.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct FreeForm {
    pub year: i64,
    pub month: i64,
    pub day: i64,
    pub hour: i64,
    pub minute: i64,
    pub second: i64,
    pub millisecond: i64,
    /// A fixed UTC offset the text gave (`GMT+0545`, `BST`), in seconds.
    pub offset: Option<i64>,
    /// An Olson zone name the text gave.
    pub zone: Option<String>,
}

/// Zone abbreviations of timelib's table that name one fixed offset (hours east of UTC).
const ABBREVIATIONS: &[(&str, i64)] = &[
    ("bst", 1),
    ("ist", 1),
    ("wet", 0),
    ("west", 1),
    ("cet", 1),
    ("cest", 2),
    ("eet", 2),
    ("eest", 3),
    ("est", -5),
    ("edt", -4),
    ("cst", -6),
    ("cdt", -5),
    ("mst", -7),
    ("mdt", -6),
    ("pst", -8),
    ("pdt", -7),
];

/// Reads `s`; `None` when it is not one of the forms above (or names an impossible time).
pub fn parse(s: &str) -> Option<FreeForm> {
    let lower = s.trim().to_ascii_lowercase();
    let tokens: Vec<&str> = lower
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .collect();
    let (mut out, used) = date(&tokens)?;
    let mut rest = &tokens[used..];
    if let Some((h, m, sec, ms, n)) = time(rest) {
        (out.hour, out.minute, out.second, out.millisecond) = (h, m, sec, ms);
        rest = &rest[n..];
    }
    match rest {
        [] => {}
        [zone] => zone_of(zone, s, &mut out)?,
        _ => return None,
    }
    Some(out)
}

/// The date at the front of `tokens`, and how many tokens it took.
fn date(tokens: &[&str]) -> Option<(FreeForm, usize)> {
    let first = *tokens.first()?;
    let civil = |year, month, day| FreeForm {
        year,
        month,
        day,
        ..FreeForm::default()
    };
    // `July 4th 2017`
    if let Some(month) = month_name(first) {
        let day = ordinal_day(tokens.get(1)?)?;
        let year = year_number(tokens.get(2)?)?;
        return Some((civil(year, month, day), 3));
    }
    // `4th July 2017`
    if let (Some(day), Some(month)) = (
        ordinal_day(first),
        tokens.get(1).and_then(|t| month_name(t)),
    ) {
        let year = year_number(tokens.get(2)?)?;
        return Some((civil(year, month, day), 3));
    }
    // One token with separators.
    for sep in ['-', '/', '.'] {
        let parts: Vec<&str> = first.split(sep).collect();
        let [a, b, c] = parts[..] else {
            continue;
        };
        let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
        let parsed = match (sep, month_name(b)) {
            // `2017-Jul-04` and `04-Jul-2017`
            ('-', Some(month)) if a.len() == 4 && digits(a) && digits(c) => {
                (a.parse().ok()?, month, c.parse().ok()?)
            }
            ('-', Some(month)) if digits(a) && digits(c) => {
                (year_number(c)?, month, a.parse().ok()?)
            }
            (_, None) if digits(a) && digits(b) && digits(c) => {
                let (a, b) = (a.parse().ok()?, b.parse().ok()?);
                if parts[0].len() == 4 {
                    // `2017-07-04`
                    (a, b, c.parse().ok()?)
                } else if sep == '/' {
                    // American `7/4/17`: month, day, year.
                    (year_number(c)?, a, b)
                } else {
                    // `04-07-2017`, `04.07.2017`: day, month, year.
                    (year_number(c)?, b, a)
                }
            }
            _ => continue,
        };
        let (year, month, day) = parsed;
        return Some((civil(year, month, day), 1));
    }
    None
}

/// The time at the front of `tokens`: hour, minute, second, millisecond, tokens taken.
fn time(tokens: &[&str]) -> Option<(i64, i64, i64, i64, usize)> {
    let first = *tokens.first()?;
    match first {
        "noon" => return Some((12, 0, 0, 0, 1)),
        "midnight" => return Some((0, 0, 0, 0, 1)),
        _ => {}
    }
    // `11am`, `12:30pm`, `12:30 pm`
    let (clock, meridian, taken) = if let Some(c) = first.strip_suffix("am") {
        (c, Some(false), 1)
    } else if let Some(c) = first.strip_suffix("pm") {
        (c, Some(true), 1)
    } else {
        match tokens.get(1).copied() {
            Some("am") => (first, Some(false), 2),
            Some("pm") => (first, Some(true), 2),
            _ => (first, None, 1),
        }
    };
    let mut fields = clock.split(':');
    let hour: i64 = number(fields.next()?, 1, 2)?;
    let minute: i64 = match fields.next() {
        Some(m) => number(m, 2, 2)?,
        None if meridian.is_some() => 0,
        None => return None,
    };
    let (second, millisecond) = match fields.next() {
        Some(sec) => {
            let (whole, frac) = sec.split_once('.').unwrap_or((sec, ""));
            let ms = if frac.is_empty() {
                0
            } else {
                let padded: String = frac.chars().chain("000".chars()).take(3).collect();
                number(&padded, 3, 3)?
            };
            (number(whole, 2, 2)?, ms)
        }
        None => (0, 0),
    };
    if fields.next().is_some() || minute > 59 || second > 59 {
        return None;
    }
    let hour = match meridian {
        Some(pm) if (1..=12).contains(&hour) => hour % 12 + if pm { 12 } else { 0 },
        Some(_) => return None,
        None if hour <= 23 => hour,
        None => return None,
    };
    Some((hour, minute, second, millisecond, taken))
}

/// A zone token (`original`: the whole text, to keep an Olson name's case).
fn zone_of(token: &str, original: &str, out: &mut FreeForm) -> Option<()> {
    let offset_text = token
        .strip_prefix("gmt")
        .or_else(|| token.strip_prefix("utc"))
        .unwrap_or(token);
    if offset_text.is_empty() || token == "z" {
        out.offset = Some(0);
    } else if let Some(offset) = offset(offset_text) {
        out.offset = Some(offset);
    } else if let Some((_, hours)) = ABBREVIATIONS.iter().find(|(a, _)| *a == token) {
        out.offset = Some(hours * 3600);
    } else {
        let name = original.split_whitespace().last()?;
        TimeZone::parse(name).ok()?;
        out.zone = Some(name.to_string());
    }
    Some(())
}

/// `±hh`, `±hhmm` or `±hh:mm`, in seconds.
fn offset(text: &str) -> Option<i64> {
    let (sign, digits) = match text.as_bytes().first()? {
        b'+' => (1, &text[1..]),
        b'-' => (-1, &text[1..]),
        _ => return None,
    };
    let digits = digits.replace(':', "");
    let (h, m) = match digits.len() {
        2 => (number(&digits, 2, 2)?, 0),
        4 => (number(&digits[..2], 2, 2)?, number(&digits[2..], 2, 2)?),
        _ => return None,
    };
    Some(sign * (h * 3600 + m * 60))
}

fn month_name(token: &str) -> Option<i64> {
    let token = token.trim_end_matches('.');
    MONTHS
        .iter()
        .position(|m| token == *m || (token.len() == 3 && m.starts_with(token)))
        .map(|i| i as i64 + 1)
}

/// `4`, `4th`, `1st`, `22nd`, `3rd`.
fn ordinal_day(token: &str) -> Option<i64> {
    let digits = ["st", "nd", "rd", "th"]
        .iter()
        .find_map(|s| token.strip_suffix(s))
        .unwrap_or(token);
    number(digits, 1, 2)
}

/// A four-digit year, or a two-digit one (19xx from 70, 20xx below).
fn year_number(token: &str) -> Option<i64> {
    match token.len() {
        4 => number(token, 4, 4),
        2 => number(token, 2, 2).map(|y| if y < 70 { 2000 + y } else { 1900 + y }),
        _ => None,
    }
}

fn number(text: &str, min: usize, max: usize) -> Option<i64> {
    (text.len() >= min && text.len() <= max && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse().ok())
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Year, month, day, hour, minute, second and offset.
    type Civil = (i64, i64, i64, i64, i64, i64, Option<i64>);

    fn civil(s: &str) -> Option<Civil> {
        parse(s).map(|f| (f.year, f.month, f.day, f.hour, f.minute, f.second, f.offset))
    }

    #[test]
    fn mongodb_wacky_formats() {
        // jstests/aggregation/expressions/date_from_string.js
        assert_eq!(civil("July 4th, 2017"), Some((2017, 7, 4, 0, 0, 0, None)));
        assert_eq!(
            civil("July 4th, 2017 12:39:30 BST"),
            Some((2017, 7, 4, 12, 39, 30, Some(3600)))
        );
        assert_eq!(
            civil("July 4th, 2017 11am"),
            Some((2017, 7, 4, 11, 0, 0, None))
        );
        assert_eq!(
            civil("July 4th, 2017 12pm"),
            Some((2017, 7, 4, 12, 0, 0, None))
        );
        assert_eq!(civil("7/4/17"), Some((2017, 7, 4, 0, 0, 0, None)));
        assert_eq!(civil("04-07-2017"), Some((2017, 7, 4, 0, 0, 0, None)));
        assert_eq!(
            civil("2017-Jul-04 noon"),
            Some((2017, 7, 4, 12, 0, 0, None))
        );
        assert_eq!(
            civil("2017-07-04 12:48:07 GMT+0545"),
            Some((2017, 7, 4, 12, 48, 7, Some(20700)))
        );
        assert_eq!(
            civil("2017-07-04 12:48:07 GMT-0200"),
            Some((2017, 7, 4, 12, 48, 7, Some(-7200)))
        );
    }

    #[test]
    fn other_forms_and_refusals() {
        assert_eq!(
            civil("4 July 1999 midnight"),
            Some((1999, 7, 4, 0, 0, 0, None))
        );
        assert_eq!(civil("12am 4 July 1999"), None);
        assert_eq!(civil("July 4th"), None);
        assert_eq!(civil("2017, 12:50:53"), None);
        assert_eq!(civil("July 4th, 2017 13pm"), None);
        assert_eq!(civil("hello"), None);
        assert_eq!(civil(""), None);
        assert_eq!(
            parse("July 4th, 2017 Europe/London").and_then(|f| f.zone),
            Some("Europe/London".to_string())
        );
    }
}
