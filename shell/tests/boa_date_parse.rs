//! Boa's `Date.parse` reads its own `toString` (`Thu Jan 01 1970 00:00:00 GMT+0000`) and
//! `toUTCString` (`Thu, 01 Jan 1970 00:00:00 GMT`) formats with a hand-written reader in
//! `vendor/boa_engine/src/builtins/date/utils.rs` (issue #22: the `time` crate's format-description
//! parser it replaced was about 10 KB gzip of the shipped wasm). These checks compare its answers
//! with that parser's for the same format descriptions, over edge cases and a grid of dates.

use boa_engine::{Context, Source};
use time::{OffsetDateTime, PrimitiveDateTime, macros::format_description};

/// What upstream Boa answered for a string its ISO reader declined: the `time` crate's parse.
fn with_time(date: &str) -> Option<i64> {
    if let Ok(t) = OffsetDateTime::parse(
        date,
        &format_description!(
            "[weekday repr:short] [month repr:short] [day] [year] [hour]:[minute]:[second] GMT[offset_hour sign:mandatory][offset_minute][end]"
        ),
    ) {
        return Some(t.unix_timestamp() * 1000 + i64::from(t.millisecond()));
    }
    if let Ok(t) = PrimitiveDateTime::parse(
        date,
        &format_description!(
            "[weekday repr:short], [day] [month repr:short] [year] [hour]:[minute]:[second] GMT[end]"
        ),
    ) {
        let t = t.assume_utc();
        return Some(t.unix_timestamp() * 1000 + i64::from(t.millisecond()));
    }
    None
}

/// Boa's `Date.parse` of `date`: `None` for `NaN` (it does not time-clip what it read).
fn with_boa(context: &mut Context, date: &str) -> Option<f64> {
    let js = format!("Date.parse({})", serde_json::to_string(date).unwrap());
    let value = context.eval(Source::from_bytes(&js)).unwrap();
    let ms = value.as_number().unwrap();
    if ms.is_nan() { None } else { Some(ms) }
}

#[test]
fn to_string_formats_parse_as_the_time_crate_did() {
    let mut cases: Vec<String> = [
        "Thu Jan 01 1970 00:00:00 GMT+0000",
        "Thu, 01 Jan 1970 00:00:00 GMT",
        "Tue Feb 29 2000 23:59:59 GMT-0130",
        "Mon Feb 29 1900 00:00:00 GMT+0000",
        "Mon Feb 29 2004 12:00:00 GMT+2559",
        "Mon Feb 29 2004 12:00:00 GMT+2600",
        "Mon Feb 29 2004 12:00:00 GMT+0060",
        "Mon Feb 29 2004 12:00:00 GMT-0000",
        "Mon Feb 29 2004 12:00:00 GMT0000",
        "Mon Feb 29 2004 12:00:00 GMT+00",
        "Mon Feb 29 2004 12:00:00 GMT+0000 ",
        "Mon Feb 29 2004 12:00:00 GMT",
        "Mon, 29 Feb 2004 12:00:00 GMT+0000",
        "mon Feb 29 2004 12:00:00 GMT+0000",
        "Mon feb 29 2004 12:00:00 GMT+0000",
        "Xyz Feb 29 2004 12:00:00 GMT+0000",
        "Sun Dec 31 -0001 23:59:60 GMT+0000",
        "Sun Dec 31 -0001 24:00:00 GMT+0000",
        "Sun Dec 31 -0001 23:60:00 GMT+0000",
        "Sun Dec 31 -0001 23:59:59 GMT+0000",
        "Sun Dec 31 +0001 23:59:59 GMT+0000",
        "Sun Dec 31 -0000 23:59:59 GMT+0000",
        "Sat Sep 13 +275760 00:00:00 GMT+0000",
        "Sat Sep 13 +275760 00:00:01 GMT+0000",
        "Tue Apr 20 -271821 00:00:00 GMT+0000",
        "Sun Dec 31 +999999 23:59:59 GMT+0000",
        "Sun Dec 31 +1234567 23:59:59 GMT+0000",
        "Sun Dec 31 12345 23:59:59 GMT+0000",
        "Sun Dec 31 123 23:59:59 GMT+0000",
        "Sun Dec 31 +123 23:59:59 GMT+0000",
        "Sun Dec 00 2020 23:59:59 GMT+0000",
        "Sun Dec 1 2020 23:59:59 GMT+0000",
        "Sun Dec  1 2020 23:59:59 GMT+0000",
        "Sun, 31 Dec 2020 23:59:59 GMT",
        "Sun, 31 Nov 2020 23:59:59 GMT",
        "Sun, 30 Nov 2020 23:59:59 GMT",
        "Sun, 30 Nov 2020 23:59:59 GMT+0100",
        "Sun, 30 Nov 2020 23:59:59",
        "Sun,30 Nov 2020 23:59:59 GMT",
        "Sun, 30 Nov -2020 23:59:59 GMT",
        "",
        "Sun",
        "Sun Dec",
    ]
    .iter()
    .map(|s| (*s).to_string())
    .collect();
    let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
    let months = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    for (i, month) in months.iter().enumerate() {
        for day in [0, 1, 15, 28, 29, 30, 31, 32] {
            for year in [
                "1600", "1700", "1969", "1970", "2023", "2024", "-0400", "+002024",
            ] {
                let weekday = weekdays[(i + day) % 7];
                cases.push(format!(
                    "{weekday} {month} {day:02} {year} 13:14:15 GMT+0545"
                ));
                cases.push(format!("{weekday}, {day:02} {month} {year} 01:02:03 GMT"));
            }
        }
    }
    let mut context = Context::default();
    let mut read = 0;
    for case in &cases {
        let want = with_time(case).map(|ms| ms as f64);
        read += usize::from(want.is_some());
        assert_eq!(with_boa(&mut context, case), want, "{case:?}");
    }
    assert!(read > 300, "{read} of {} read", cases.len());
}

/// Every year but those of five or six digits after 9999 (printed without a sign, which the
/// grammar, as upstream's, does not read: `Sat Sep 13 275760 …`).
#[test]
fn a_date_reads_back_its_own_strings() {
    let mut context = Context::default();
    let js = "var bad = []; for (var t of [0, -1e12, 1.7e12, -8.64e15, -62198755200000, 253402300799000]) { \
              var d = new Date(t); \
              if (Date.parse(d.toString()) !== t) bad.push(d.toString()); \
              if (Date.parse(d.toUTCString()) !== t) bad.push(d.toUTCString()); } bad.join(' | ')";
    let value = context.eval(Source::from_bytes(js)).unwrap();
    assert_eq!(
        value.as_string().map(|s| s.to_std_string_escaped()),
        Some(String::new())
    );
}
