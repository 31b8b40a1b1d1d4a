//! ISO-8601 date parsing for `ISODate("…")`, accepting the forms the legacy shell accepted.

/// Milliseconds since the epoch for `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS[.fff]]` with an optional
/// `Z` or `±HH[:]MM` offset (no offset means UTC, as in the mongo shell).
pub fn parse_iso_date(text: &str) -> Option<i64> {
    let s = text.trim();
    let (date, rest) = match s.find(['T', ' ']) {
        Some(i) => (&s[..i], &s[i + 1..]),
        None => (s, ""),
    };
    let mut parts = date.split('-');
    let year: i64 = parts.next()?.parse().ok()?;
    let month: u32 = parts.next().map_or(Some(1), |p| p.parse().ok())?;
    let day: u32 = parts.next().map_or(Some(1), |p| p.parse().ok())?;
    if parts.next().is_some()
        || !(1..=12).contains(&month)
        || day < 1
        || day > days_in_month(year, month)
    {
        return None;
    }
    let (time, offset_minutes) = split_offset(rest)?;
    let mut hms = time.split(':');
    let hour: i64 = hms
        .next()
        .filter(|h| !h.is_empty())
        .map_or(Some(0), |h| h.parse().ok())?;
    let minute: i64 = hms.next().map_or(Some(0), |m| m.parse().ok())?;
    let (second, millis) = match hms.next() {
        None => (0, 0),
        Some(sec) => {
            let (whole, frac) = sec.split_once('.').unwrap_or((sec, ""));
            let frac_ms = if frac.is_empty() {
                0
            } else {
                let digits: String = frac.chars().take(3).collect();
                if !frac.chars().all(|c| c.is_ascii_digit()) {
                    return None;
                }
                format!("{digits:0<3}").parse::<i64>().ok()?
            };
            (whole.parse::<i64>().ok()?, frac_ms)
        }
    };
    if hms.next().is_some() || hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    let days = days_from_civil(year, month, day);
    Some(((days * 24 + hour) * 60 + minute - offset_minutes) * 60_000 + second * 1000 + millis)
}

fn split_offset(rest: &str) -> Option<(&str, i64)> {
    if let Some(t) = rest.strip_suffix('Z') {
        return Some((t, 0));
    }
    if let Some(i) = rest.rfind(['+', '-']) {
        let (t, off) = rest.split_at(i);
        let sign = if off.starts_with('-') { -1 } else { 1 };
        let digits: String = off[1..].chars().filter(|c| *c != ':').collect();
        if digits.len() != 4 {
            return None;
        }
        let h: i64 = digits[..2].parse().ok()?;
        let m: i64 = digits[2..].parse().ok()?;
        return Some((t, sign * (h * 60 + m)));
    }
    Some((rest, 0))
}

fn is_leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if is_leap(y) => 29,
        _ => 28,
    }
}

/// Days since 1970-01-01 (Howard Hinnant's civil-from-days algorithm, inverted).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_shell_forms() {
        assert_eq!(parse_iso_date("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(
            parse_iso_date("2012-12-19T06:01:17.171Z"),
            Some(1_355_896_877_171)
        );
        assert_eq!(parse_iso_date("2012-12-19"), Some(1_355_875_200_000));
        assert_eq!(
            parse_iso_date("2012-12-19T07:01:17.171+01:00"),
            Some(1_355_896_877_171)
        );
        assert_eq!(parse_iso_date("2000-02-29"), Some(951_782_400_000));
        assert_eq!(parse_iso_date("2001-02-29"), None);
        assert_eq!(parse_iso_date("nonsense"), None);
        assert_eq!(parse_iso_date("1969-12-31T23:59:59.999Z"), Some(-1));
    }
}
