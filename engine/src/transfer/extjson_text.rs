//! Extended JSON v2 text exactly as MongoDB's Go tools write it (`mongoexport`, and
//! `mongodump`'s `metadata.json`): the Go driver's `bson.MarshalExtJSON(doc, canonical, false)`,
//! compact, fields in document order.
//!
//! What differs from other writers (source: mongo-tools' vendored
//! `go.mongodb.org/mongo-driver/v2/bson/extjson_writer.go`):
//! - doubles are Go's `strconv.FormatFloat(f, 'G', -1, 64)`: the shortest round-trip digits,
//!   in exponent form (`1E+06`, `1.5E-07`, two exponent digits at least) when the decimal
//!   exponent is below -4 or at least 6, with `.0` added when the text has neither `.` nor `E`;
//!   relaxed mode writes finite doubles as bare numbers, canonical as `{"$numberDouble": …}`;
//! - relaxed dates between 1970 and 9999 are `{"$date":"2006-01-02T15:04:05.999Z"}` with the
//!   milliseconds' trailing zeros (and the dot) dropped; other dates, and every date in
//!   canonical mode, are `{"$date":{"$numberLong":"…"}}`;
//! - regular expression options are sorted; strings escape `"` `\` and control characters
//!   (`\n \r \t \b \f`, else `\u00XX`) and U+2028/U+2029, but not `<`, `>` or `&`.

use bson::{Bson, Document};

use crate::expression::date::civil::Civil;

/// Which Extended JSON v2 form to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExtJsonMode {
    /// Native JSON numbers for int32, int64 and finite doubles; ISO-8601 dates.
    Relaxed,
    /// Every number and date wrapped, so the BSON type survives.
    Canonical,
}

/// The one-line Extended JSON text of `doc`.
pub fn document_text(doc: &Document, mode: ExtJsonMode) -> String {
    let mut out = String::new();
    write_document(doc, mode, &mut out);
    out
}

fn write_document(doc: &Document, mode: ExtJsonMode, out: &mut String) {
    out.push('{');
    for (i, (key, value)) in doc.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_string(key, out);
        out.push(':');
        write_value(value, mode, out);
    }
    out.push('}');
}

fn write_value(value: &Bson, mode: ExtJsonMode, out: &mut String) {
    let canonical = mode == ExtJsonMode::Canonical;
    match value {
        Bson::Document(d) => write_document(d, mode, out),
        Bson::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(item, mode, out);
            }
            out.push(']');
        }
        Bson::Double(d) => {
            let text = go_format_double(*d);
            if canonical || !d.is_finite() {
                wrapped_string("$numberDouble", &text, out);
            } else {
                out.push_str(&text);
            }
        }
        Bson::Int32(i) if canonical => wrapped_string("$numberInt", &i.to_string(), out),
        Bson::Int32(i) => out.push_str(&i.to_string()),
        Bson::Int64(i) if canonical => wrapped_string("$numberLong", &i.to_string(), out),
        Bson::Int64(i) => out.push_str(&i.to_string()),
        Bson::String(s) => write_string(s, out),
        Bson::Boolean(b) => out.push_str(if *b { "true" } else { "false" }),
        Bson::Null => out.push_str("null"),
        Bson::ObjectId(oid) => wrapped_string("$oid", &oid.to_hex(), out),
        Bson::DateTime(dt) => write_date(dt.timestamp_millis(), canonical, out),
        Bson::Decimal128(d) => wrapped_string("$numberDecimal", &d.to_string(), out),
        Bson::Binary(b) => {
            out.push_str("{\"$binary\":{\"base64\":\"");
            out.push_str(&base64_standard(&b.bytes));
            out.push_str("\",\"subType\":\"");
            out.push_str(&format!("{:02x}", u8::from(b.subtype)));
            out.push_str("\"}}");
        }
        Bson::RegularExpression(re) => {
            let mut options: Vec<char> = re.options.as_str().chars().collect();
            crate::sort_slice::sort(&mut options);
            let options: String = options.into_iter().collect();
            out.push_str("{\"$regularExpression\":{\"pattern\":");
            write_string(re.pattern.as_str(), out);
            out.push_str(",\"options\":");
            write_string(&options, out);
            out.push_str("}}");
        }
        Bson::JavaScriptCode(code) => {
            out.push_str("{\"$code\":");
            write_string(code, out);
            out.push('}');
        }
        Bson::JavaScriptCodeWithScope(cws) => {
            out.push_str("{\"$code\":");
            write_string(&cws.code, out);
            out.push_str(",\"$scope\":");
            write_document(&cws.scope, mode, out);
            out.push('}');
        }
        Bson::Timestamp(ts) => {
            out.push_str(&format!(
                "{{\"$timestamp\":{{\"t\":{},\"i\":{}}}}}",
                ts.time, ts.increment
            ));
        }
        Bson::Symbol(s) => {
            out.push_str("{\"$symbol\":");
            write_string(s, out);
            out.push('}');
        }
        Bson::Undefined => out.push_str("{\"$undefined\":true}"),
        Bson::MinKey => out.push_str("{\"$minKey\":1}"),
        Bson::MaxKey => out.push_str("{\"$maxKey\":1}"),
        Bson::DbPointer(_) => write_db_pointer(value, out),
    }
}

/// `{"$dbPointer":{"$ref":"<ns>","$id":{"$oid":"<hex>"}}}`; the crate keeps the pointer's parts
/// private, so they are read from its canonical Extended JSON.
fn write_db_pointer(value: &Bson, out: &mut String) {
    let json = value.clone().into_canonical_extjson();
    let pointer = json.get("$dbPointer");
    let ns = pointer
        .and_then(|p| p.get("$ref"))
        .and_then(|r| r.as_str())
        .unwrap_or_default();
    let id = pointer
        .and_then(|p| p.get("$id"))
        .and_then(|i| i.get("$oid"))
        .and_then(|o| o.as_str())
        .unwrap_or_default();
    out.push_str("{\"$dbPointer\":{\"$ref\":");
    write_string(ns, out);
    out.push_str(",\"$id\":{\"$oid\":\"");
    out.push_str(id);
    out.push_str("\"}}}");
}

fn wrapped_string(key: &str, text: &str, out: &mut String) {
    out.push_str("{\"");
    out.push_str(key);
    out.push_str("\":\"");
    out.push_str(text);
    out.push_str("\"}");
}

/// The last millisecond of 9999-12-31, the end of the range the relaxed form writes as ISO text.
const LAST_ISO_MILLIS: i64 = 253_402_300_799_999;

fn write_date(millis: i64, canonical: bool, out: &mut String) {
    if canonical || !(0..=LAST_ISO_MILLIS).contains(&millis) {
        out.push_str("{\"$date\":{\"$numberLong\":\"");
        out.push_str(&millis.to_string());
        out.push_str("\"}}");
        return;
    }
    out.push_str("{\"$date\":\"");
    out.push_str(&go_rfc3339_milli(millis));
    out.push_str("\"}");
}

/// Go's `t.UTC().Format("2006-01-02T15:04:05.999Z07:00")` for a time from 1970 to 9999.
fn go_rfc3339_milli(millis: i64) -> String {
    let t = Civil::from_millis(millis);
    let mut text = format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
        t.year, t.month, t.day, t.hour, t.minute, t.second
    );
    if t.millisecond != 0 {
        let fraction = format!("{:03}", t.millisecond);
        text.push('.');
        text.push_str(fraction.trim_end_matches('0'));
    }
    text.push('Z');
    text
}

/// Go's `formatDouble` in the driver's Extended JSON writer (see the module documentation).
pub fn go_format_double(d: f64) -> String {
    if d.is_nan() {
        return "NaN".into();
    }
    if d.is_infinite() {
        return if d > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    let sign = if d.is_sign_negative() { "-" } else { "" };
    if d == 0.0 {
        return format!("{sign}0.0");
    }
    // Rust's `{:e}` gives the shortest round-trip digits, as Go's shortest formatting does.
    let scientific = format!("{:e}", d.abs());
    let (mantissa, exponent) = scientific
        .split_once('e')
        .unwrap_or((scientific.as_str(), "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let text = if !(-4..6).contains(&exponent) {
        let (first, rest) = digits.split_at(1);
        let fraction = if rest.is_empty() {
            String::new()
        } else {
            format!(".{rest}")
        };
        let exp_sign = if exponent < 0 { '-' } else { '+' };
        format!("{first}{fraction}E{exp_sign}{:02}", exponent.abs())
    } else {
        positional(&digits, exponent)
    };
    let text = if text.contains('.') || text.contains('E') {
        text
    } else {
        format!("{text}.0")
    };
    format!("{sign}{text}")
}

/// `digits` (d.ddd… × 10^exponent) written without an exponent, fraction only when needed.
fn positional(digits: &str, exponent: i32) -> String {
    let point = exponent + 1; // digits before the decimal point
    if point <= 0 {
        let zeros = "0".repeat(point.unsigned_abs() as usize);
        return format!("0.{zeros}{digits}");
    }
    let point = point as usize;
    if digits.len() <= point {
        format!("{digits}{}", "0".repeat(point - digits.len()))
    } else {
        format!("{}.{}", &digits[..point], &digits[point..])
    }
}

/// A JSON string as Go's `writeStringWithEscapes(s, buf, escapeHTML=false)` writes it.
pub fn write_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out.push('"');
}

fn base64_standard(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;
    use bson::oid::ObjectId;

    #[test]
    fn doubles_are_written_as_go_formats_them() {
        let cases = [
            (1.0, "1.0"),
            (-0.0, "-0.0"),
            (0.0, "0.0"),
            (123456.0, "123456.0"),
            (1_000_000.0, "1E+06"),
            (1_234_567.0, "1.234567E+06"),
            (0.0001, "0.0001"),
            (0.00001, "1E-05"),
            (1.5e-7, "1.5E-07"),
            (12.5, "12.5"),
            (1.7976931348623157e308, "1.7976931348623157E+308"),
            (-1.2345678921232e18, "-1.2345678921232E+18"),
            (5e-324, "5E-324"),
            (f64::INFINITY, "Infinity"),
            (f64::NAN, "NaN"),
        ];
        for (d, want) in cases {
            assert_eq!(go_format_double(d), want, "{d}");
        }
    }

    #[test]
    fn relaxed_and_canonical_text_match_mongoexport() {
        let oid = ObjectId::parse_str("5f0c1e2d3b4a596877665544").unwrap();
        let d = doc! {
            "_id": oid, "i": 5, "l": 7_i64, "d": 2.0, "big": 1e21, "inf": f64::NEG_INFINITY,
            "s": "a\"b\\c\n\u{1}<&>\u{2028}é",
            "t": bson::DateTime::from_millis(1_577_836_800_120),
            "t0": bson::DateTime::from_millis(1_577_836_800_000),
            "old": bson::DateTime::from_millis(-1),
            "re": bson::Regex { pattern: "^a".try_into().unwrap(), options: "xi".try_into().unwrap() },
            "bin": bson::Binary { subtype: bson::spec::BinarySubtype::Uuid, bytes: vec![1, 2, 3] },
            "ts": bson::Timestamp { time: 1, increment: 2 },
            "arr": [1, {"n": bson::Bson::Null}], "e": {}, "min": bson::Bson::MinKey,
        };
        assert_eq!(
            document_text(&d, ExtJsonMode::Relaxed),
            concat!(
                r#"{"_id":{"$oid":"5f0c1e2d3b4a596877665544"},"i":5,"l":7,"d":2.0,"big":1E+21,"#,
                r#""inf":{"$numberDouble":"-Infinity"},"s":"a\"b\\c\n\u0001<&>\u2028é","#,
                r#""t":{"$date":"2020-01-01T00:00:00.12Z"},"t0":{"$date":"2020-01-01T00:00:00Z"},"#,
                r#""old":{"$date":{"$numberLong":"-1"}},"#,
                r#""re":{"$regularExpression":{"pattern":"^a","options":"ix"}},"#,
                r#""bin":{"$binary":{"base64":"AQID","subType":"04"}},"#,
                r#""ts":{"$timestamp":{"t":1,"i":2}},"arr":[1,{"n":null}],"e":{},"min":{"$minKey":1}}"#
            )
        );
        let c = doc! {"i": 5, "l": 7_i64, "d": 2.0, "t": bson::DateTime::from_millis(5)};
        assert_eq!(
            document_text(&c, ExtJsonMode::Canonical),
            concat!(
                r#"{"i":{"$numberInt":"5"},"l":{"$numberLong":"7"},"d":{"$numberDouble":"2.0"},"#,
                r#""t":{"$date":{"$numberLong":"5"}}}"#
            )
        );
    }

    #[test]
    fn iso_dates_cover_the_calendar() {
        assert_eq!(go_rfc3339_milli(0), "1970-01-01T00:00:00Z");
        assert_eq!(
            go_rfc3339_milli(951_782_400_001),
            "2000-02-29T00:00:00.001Z"
        );
        assert_eq!(
            go_rfc3339_milli(LAST_ISO_MILLIS),
            "9999-12-31T23:59:59.999Z"
        );
        let mut out = String::new();
        write_date(LAST_ISO_MILLIS + 1, false, &mut out);
        assert_eq!(out, r#"{"$date":{"$numberLong":"253402300800000"}}"#);
    }
}
