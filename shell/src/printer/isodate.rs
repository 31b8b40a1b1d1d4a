//! Dates as the shells print them: JavaScript's `Date.prototype.toISOString()` (mongosh,
//! Extended JSON) and the 3.0 shell's `Date.prototype.tojson` (no `.000` when the milliseconds
//! are zero). Both work on UTC fields computed here from epoch milliseconds.

/// JavaScript dates hold at most this many milliseconds either side of the epoch.
const MAX_JS_MILLIS: i64 = 8_640_000_000_000_000;

/// A UTC calendar time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Civil {
    pub year: i64,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
    pub second: u32,
    pub millis: u32,
}

/// The UTC fields of a JavaScript date, or `None` for an Invalid Date (out of JavaScript's range).
pub fn civil(ms: i64) -> Option<Civil> {
    if !(-MAX_JS_MILLIS..=MAX_JS_MILLIS).contains(&ms) {
        return None;
    }
    let days = ms.div_euclid(86_400_000);
    let in_day = ms.rem_euclid(86_400_000);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    Some(Civil {
        year,
        month,
        day,
        hour: (in_day / 3_600_000) as u32,
        minute: (in_day / 60_000 % 60) as u32,
        second: (in_day / 1000 % 60) as u32,
        millis: (in_day % 1000) as u32,
    })
}

/// `new Date(ms).toISOString()`, or `None` for an Invalid Date.
pub fn js_iso_string(ms: i64) -> Option<String> {
    let c = civil(ms)?;
    let year = if (0..=9999).contains(&c.year) {
        format!("{:04}", c.year)
    } else {
        format!("{}{:06}", if c.year < 0 { '-' } else { '+' }, c.year.abs())
    };
    Some(format!(
        "{year}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        c.month, c.day, c.hour, c.minute, c.second, c.millis
    ))
}

/// The text inside the 3.0 shell's `ISODate("…")`: fields zero-padded with `Number.zeroPad`
/// (which pads the decimal text, so year -1 becomes `00-1`), milliseconds only when non-zero.
/// An Invalid Date prints its `NaN` fields, as the old shell did.
pub fn legacy_iso_text(ms: i64) -> String {
    let Some(c) = civil(ms) else {
        return "0NaN-NaN-NaNTNaN:NaN:NaNZ".to_string();
    };
    let pad = |text: String, width: usize| format!("{text:0>width$}");
    let mut out = format!(
        "{}-{}-{}T{}:{}:{}",
        pad(c.year.to_string(), 4),
        pad(c.month.to_string(), 2),
        pad(c.day.to_string(), 2),
        pad(c.hour.to_string(), 2),
        pad(c.minute.to_string(), 2),
        pad(c.second.to_string(), 2)
    );
    if c.millis != 0 {
        out.push('.');
        out.push_str(&pad(c.millis.to_string(), 3));
    }
    out.push('Z');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_strings_match_javascript() {
        assert_eq!(
            js_iso_string(0).as_deref(),
            Some("1970-01-01T00:00:00.000Z")
        );
        assert_eq!(
            js_iso_string(1_704_067_200_000).as_deref(),
            Some("2024-01-01T00:00:00.000Z")
        );
        assert_eq!(
            js_iso_string(1_425_957_603_597).as_deref(),
            Some("2015-03-10T03:20:03.597Z")
        );
        assert_eq!(
            js_iso_string(-1).as_deref(),
            Some("1969-12-31T23:59:59.999Z")
        );
        assert_eq!(
            js_iso_string(253_402_300_800_000).as_deref(),
            Some("+010000-01-01T00:00:00.000Z")
        );
        assert_eq!(
            js_iso_string(-62_198_755_200_000).as_deref(),
            Some("-000001-01-01T00:00:00.000Z")
        );
        assert_eq!(
            js_iso_string(MAX_JS_MILLIS).as_deref(),
            Some("+275760-09-13T00:00:00.000Z")
        );
        assert_eq!(js_iso_string(MAX_JS_MILLIS + 1), None);
        assert_eq!(js_iso_string(i64::MIN), None);
    }

    #[test]
    fn legacy_text_drops_zero_millis() {
        assert_eq!(legacy_iso_text(1_428_116_400_000), "2015-04-04T03:00:00Z");
        assert_eq!(
            legacy_iso_text(1_425_957_603_597),
            "2015-03-10T03:20:03.597Z"
        );
        assert_eq!(
            legacy_iso_text(1_425_957_603_050),
            "2015-03-10T03:20:03.050Z"
        );
        assert_eq!(legacy_iso_text(-62_198_755_200_000), "00-1-01-01T00:00:00Z");
        assert_eq!(legacy_iso_text(i64::MAX), "0NaN-NaN-NaNTNaN:NaN:NaNZ");
    }
}
