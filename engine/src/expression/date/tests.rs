//! Date operators against the MongoDB manual's examples and MongoDB 8.0's error messages.

use bson::{Bson, DateTime, Document, bson, doc};

use super::super::Expression;

fn date(iso: &str) -> Bson {
    Bson::DateTime(DateTime::parse_rfc3339_str(iso).unwrap_or_else(|e| panic!("{iso}: {e}")))
}

fn eval_on(expr: Bson, d: &Document) -> Option<Bson> {
    Expression::parse(&expr)
        .unwrap_or_else(|e| panic!("{expr}: {e}"))
        .evaluate(d)
        .unwrap_or_else(|e| panic!("{expr}: {e}"))
}

fn eval(expr: Bson) -> Option<Bson> {
    eval_on(expr, &doc! {})
}

fn err(expr: Bson) -> (i32, String) {
    let e = match Expression::parse(&expr) {
        Err(e) => e,
        Ok(x) => x.evaluate(&doc! {}).expect_err("expected an error"),
    };
    (e.code(), e.message)
}

fn manual_doc() -> Document {
    doc! {"date": date("2014-01-01T08:15:39.736Z")}
}

#[test]
fn components_of_the_manual_example() {
    let d = manual_doc();
    let cases = [
        ("$year", bson!(2014)),
        ("$month", bson!(1)),
        ("$dayOfMonth", bson!(1)),
        ("$hour", bson!(8)),
        ("$minute", bson!(15)),
        ("$second", bson!(39)),
        ("$millisecond", bson!(736)),
        ("$dayOfYear", bson!(1)),
        ("$dayOfWeek", bson!(4)),
        ("$week", bson!(0)),
        ("$isoWeek", bson!(1)),
        ("$isoWeekYear", Bson::Int64(2014)),
        ("$isoDayOfWeek", bson!(3)),
    ];
    for (op, expected) in cases {
        let mut e = Document::new();
        e.insert(op, "$date");
        assert_eq!(
            eval_on(Bson::Document(e), &d),
            Some(expected.clone()),
            "{op}"
        );
        let mut e = Document::new();
        e.insert(op, vec![Bson::String("$date".into())]);
        assert_eq!(
            eval_on(Bson::Document(e), &d),
            Some(expected),
            "{op} in an array"
        );
    }
    let ny = bson!({"$hour": {"date": "$date", "timezone": "America/New_York"}});
    assert_eq!(eval_on(ny, &d), Some(bson!(3)));
    let offset = bson!({"$minute": {"date": "$date", "timezone": "+04:30"}});
    assert_eq!(eval_on(offset, &d), Some(bson!(45)));
    assert_eq!(
        eval_on(bson!({"$year": {"date": "$date", "timezone": null}}), &d),
        Some(Bson::Null)
    );
    assert_eq!(eval(bson!({"$year": null})), Some(Bson::Null));
    // ObjectIds and timestamps name instants too.
    let oid = bson::oid::ObjectId::parse_str("5a0b1c2d0000000000000000").unwrap();
    assert_eq!(
        eval_on(bson!({"$year": "$o"}), &doc! {"o": oid}),
        Some(bson!(2017))
    );
}

#[test]
fn component_errors() {
    assert_eq!(
        err(bson!({"$year": "2014"})),
        (16006, "can't convert from BSON type string to Date".into())
    );
    assert_eq!(
        err(bson!({"$year": {"date": {"$literal": 1}, "timezone": "Nowhere/Land"}})),
        (16006, "can't convert from BSON type int to Date".into())
    );
    let d = manual_doc();
    let e = Expression::parse(&bson!({"$year": {"date": "$date", "timezone": "Nowhere/Land"}}))
        .unwrap()
        .evaluate(&d)
        .unwrap_err();
    assert_eq!(
        (e.code(), e.message.as_str()),
        (40485, "unrecognized time zone identifier: \"Nowhere/Land\"")
    );
    let e = Expression::parse(&bson!({"$year": {"date": "$date", "timezone": 5}}))
        .unwrap()
        .evaluate(&d)
        .unwrap_err();
    assert_eq!(
        (e.code(), e.message.as_str()),
        (40517, "timezone must evaluate to a string, found int")
    );
    assert_eq!(
        err(bson!({"$month": {"date": "$d", "zone": "UTC"}})),
        (40535, "unrecognized option to $month: \"zone\"".into())
    );
    assert_eq!(
        err(bson!({"$week": {"timezone": "UTC"}})),
        (
            40539,
            "missing 'date' argument to $week, provided: $week: { timezone: \"UTC\" }".into()
        )
    );
    assert_eq!(
        err(bson!({"$hour": [1, 2]})),
        (
            40536,
            "$hour accepts exactly one argument if given an array, but was given 2".into()
        )
    );
}

#[test]
fn date_to_string_manual_examples() {
    let d = manual_doc();
    let f = |format: &str, tz: Option<&str>| {
        let mut spec = doc! {"format": format, "date": "$date"};
        if let Some(tz) = tz {
            spec.insert("timezone", tz);
        }
        eval_on(Bson::Document(doc! {"$dateToString": spec}), &d)
    };
    let s = |v: &str| Some(Bson::String(v.into()));
    assert_eq!(f("%Y-%m-%d", None), s("2014-01-01"));
    assert_eq!(
        f("%H:%M:%S:%L%z", Some("America/New_York")),
        s("03:15:39:736-0500")
    );
    assert_eq!(f("%H:%M:%S:%L%z", Some("+04:30")), s("12:45:39:736+0430"));
    assert_eq!(f("%Z", Some("America/New_York")), s("-300"));
    assert_eq!(f("%Z", Some("+04:30")), s("270"));
    assert_eq!(f("%b %B", None), s("Jan January"));
    assert_eq!(f("%j %w %u %U %V %G %%", None), s("001 4 3 00 01 2014 %"));
    assert_eq!(
        eval_on(bson!({"$dateToString": {"date": "$date"}}), &d),
        s("2014-01-01T08:15:39.736Z")
    );
    assert_eq!(
        eval_on(
            bson!({"$dateToString": {"date": "$date", "timezone": "Asia/Tokyo"}}),
            &d
        ),
        s("2014-01-01T17:15:39.736")
    );
    assert_eq!(
        eval(bson!({"$dateToString": {"date": null, "onNull": "none"}})),
        s("none")
    );
    assert_eq!(
        eval(bson!({"$dateToString": {"date": "$x", "onNull": "$y"}})),
        None
    );
    assert_eq!(
        eval(bson!({"$dateToString": {"date": null}})),
        Some(Bson::Null)
    );
    assert_eq!(
        eval_on(
            bson!({"$dateToString": {"date": "$date", "format": null}}),
            &d
        ),
        Some(Bson::Null)
    );
    let far = doc! {"date": Bson::DateTime(DateTime::from_millis(253_402_300_800_000))};
    let e = Expression::parse(&bson!({"$dateToString": {"date": "$date"}}))
        .unwrap()
        .evaluate(&far)
        .unwrap_err();
    assert_eq!(
        (e.code(), e.message.as_str()),
        (
            18537,
            "Could not convert date to string: date component was outside the supported range \
             of 0-9999: 10000"
        )
    );
}

#[test]
fn date_to_string_errors() {
    assert_eq!(
        err(bson!({"$dateToString": {"date": null, "format": "%Q"}})),
        (
            18536,
            "Invalid format character '%Q' in format string".into()
        )
    );
    assert_eq!(
        err(bson!({"$dateToString": {"date": null, "format": "abc%"}})),
        (18535, "Unmatched '%' at end of format string".into())
    );
    assert_eq!(
        err(bson!({"$dateToString": {"date": null, "format": 5}})),
        (
            18533,
            "$dateToString requires that 'format' be a string, found: int with value 5".into()
        )
    );
    assert_eq!(
        err(bson!({"$dateToString": {"format": "%Y"}})),
        (18628, "Missing 'date' parameter to $dateToString".into())
    );
    assert_eq!(
        err(bson!({"$dateToString": {"date": null, "fmt": "%Y"}})),
        (18534, "Unrecognized argument to $dateToString: fmt".into())
    );
    assert_eq!(
        err(bson!({"$dateToString": "x"})),
        (
            18629,
            "$dateToString only supports an object as its argument".into()
        )
    );
}

#[test]
fn date_to_parts_and_back() {
    let d = doc! {"date": date("2017-01-01T01:29:09.123Z")};
    assert_eq!(
        eval_on(bson!({"$dateToParts": {"date": "$date"}}), &d),
        Some(
            bson!({"year": 2017, "month": 1, "day": 1, "hour": 1, "minute": 29,
                     "second": 9, "millisecond": 123})
        )
    );
    assert_eq!(
        eval_on(
            bson!({"$dateToParts": {"date": "$date", "iso8601": true}}),
            &d
        ),
        Some(
            bson!({"isoWeekYear": 2016, "isoWeek": 52, "isoDayOfWeek": 7, "hour": 1,
                     "minute": 29, "second": 9, "millisecond": 123})
        )
    );
    assert_eq!(
        eval_on(
            bson!({"$dateToParts": {"date": "$date", "timezone": "America/New_York"}}),
            &d
        ),
        Some(
            bson!({"year": 2016, "month": 12, "day": 31, "hour": 20, "minute": 29,
                     "second": 9, "millisecond": 123})
        )
    );
    assert_eq!(
        err(bson!({"$dateToParts": {"date": "$date", "iso8601": 1}})),
        (40521, "iso8601 must evaluate to a bool, found int".into())
    );
    assert_eq!(
        eval(bson!({"$dateFromParts": {"year": 2017, "month": 2, "day": 8, "hour": 12}})),
        Some(date("2017-02-08T12:00:00Z"))
    );
    assert_eq!(
        eval(
            bson!({"$dateFromParts": {"isoWeekYear": 2017, "isoWeek": 6, "isoDayOfWeek": 3,
                                        "hour": 12}})
        ),
        Some(date("2017-02-08T12:00:00Z"))
    );
    assert_eq!(
        eval(
            bson!({"$dateFromParts": {"year": 2016, "month": 12, "day": 31, "hour": 23,
                                        "minute": 46, "second": 12,
                                        "timezone": "America/New_York"}})
        ),
        Some(date("2017-01-01T04:46:12Z"))
    );
    // Out-of-range values carry into the next unit.
    assert_eq!(
        eval(bson!({"$dateFromParts": {"year": 2017, "month": 14, "day": 1}})),
        Some(date("2018-02-01T00:00:00Z"))
    );
    assert_eq!(
        eval(bson!({"$dateFromParts": {"year": 2016, "month": 1, "day": 0}})),
        Some(date("2015-12-31T00:00:00Z"))
    );
    assert_eq!(
        eval(bson!({"$dateFromParts": {"year": 2017, "hour": -1, "millisecond": 1500}})),
        Some(date("2016-12-31T23:00:01.500Z"))
    );
    assert_eq!(
        eval(bson!({"$dateFromParts": {"year": null}})),
        Some(Bson::Null)
    );
    assert_eq!(
        err(bson!({"$dateFromParts": {"year": 0}})),
        (
            40523,
            "'year' must evaluate to an integer in the range 1 to 9999, found 0".into()
        )
    );
    assert_eq!(
        err(bson!({"$dateFromParts": {"year": 2017, "month": 40000}})),
        (
            31034,
            "'month' must evaluate to a value in the range [-32768, 32767]; value 40000 is not \
             in range"
                .into()
        )
    );
    assert_eq!(
        err(bson!({"$dateFromParts": {"year": 2017, "day": 1.5}})),
        (
            40515,
            "'day' must evaluate to an integer, found double with value 1.5".into()
        )
    );
    assert_eq!(err(bson!({"$dateFromParts": {"month": 1}})).0, 40516);
    assert_eq!(
        err(bson!({"$dateFromParts": {"year": 2017, "isoWeek": 1}})).0,
        40489
    );
    assert_eq!(
        err(bson!({"$dateFromParts": {"isoWeekYear": 2017, "day": 1}})).0,
        40525
    );
    assert_eq!(
        err(bson!({"$dateFromParts": {"year": 2017, "era": 1}})),
        (40518, "Unrecognized argument to $dateFromParts: era".into())
    );
}

#[test]
fn date_from_string() {
    assert_eq!(
        eval(
            bson!({"$dateFromString": {"dateString": "2017-02-08T12:10:40.787",
                                         "timezone": "America/New_York"}})
        ),
        Some(date("2017-02-08T17:10:40.787Z"))
    );
    assert_eq!(
        eval(bson!({"$dateFromString": {"dateString": "15-06-2018", "format": "%d-%m-%Y"}})),
        Some(date("2018-06-15T00:00:00Z"))
    );
    assert_eq!(
        eval(bson!({"$dateFromString": {"dateString": "2017-02-08T12:10:40Z"}})),
        Some(date("2017-02-08T12:10:40Z"))
    );
    assert_eq!(
        eval(bson!({"$dateFromString": {"dateString": "2017-02-08 12:10:40 +05:30"}})),
        Some(date("2017-02-08T06:40:40Z"))
    );
    assert_eq!(
        eval(bson!({"$dateFromString": {"dateString": "2017-07-04"}})),
        Some(date("2017-07-04T00:00:00Z"))
    );
    assert_eq!(
        eval(bson!({"$dateFromString": {"dateString": "2017-07-04 Europe/Paris"}})),
        Some(date("2017-07-03T22:00:00Z"))
    );
    assert_eq!(
        eval(bson!({"$dateFromString": {"dateString": "08 Feb 2017", "format": "%d %b %Y"}})),
        Some(date("2017-02-08T00:00:00Z"))
    );
    assert_eq!(
        eval(bson!({"$dateFromString": {"dateString": "not a date", "onError": "bad"}})),
        Some(bson!("bad"))
    );
    assert_eq!(
        eval(bson!({"$dateFromString": {"dateString": null, "onNull": "none"}})),
        Some(bson!("none"))
    );
    assert_eq!(
        eval(bson!({"$dateFromString": {"dateString": 5, "onError": "bad"}})),
        Some(bson!("bad"))
    );
    let (code, msg) = err(bson!({"$dateFromString": {"dateString": 5}}));
    assert_eq!(
        (code, msg.as_str()),
        (
            241,
            "$dateFromString requires that 'dateString' be a string, found: int with value 5"
        )
    );
    assert_eq!(
        err(
            bson!({"$dateFromString": {"dateString": "2017-02-08T12:10:40Z",
                                        "timezone": "Europe/Paris"}})
        )
        .0,
        241
    );
    assert_eq!(
        err(bson!({"$dateFromString": {"dateString": "2017-02-30"}})).0,
        241
    );
    assert_eq!(
        err(bson!({"$dateFromString": {"dateString": null, "format": 1}})).0,
        40684
    );
    assert_eq!(
        err(bson!({"$dateFromString": {"format": "%Y"}})),
        (
            40542,
            "Missing 'dateString' parameter to $dateFromString".into()
        )
    );
}

#[test]
fn date_add_subtract() {
    let add = |start: &str, unit: &str, amount: i64, tz: Option<&str>| {
        let mut spec = doc! {"startDate": date(start), "unit": unit, "amount": amount};
        if let Some(tz) = tz {
            spec.insert("timezone", tz);
        }
        eval(Bson::Document(doc! {"$dateAdd": spec}))
    };
    assert_eq!(
        add("2021-01-31T10:00:00Z", "month", 1, None),
        Some(date("2021-02-28T10:00:00Z"))
    );
    assert_eq!(
        add("2020-02-29T00:00:00Z", "year", 1, None),
        Some(date("2021-02-28T00:00:00Z"))
    );
    assert_eq!(
        add("2020-01-15T00:00:00Z", "quarter", -1, None),
        Some(date("2019-10-15T00:00:00Z"))
    );
    // A day keeps the wall clock across the change to daylight saving time; 24 hours do not.
    assert_eq!(
        add("2021-03-13T17:00:00Z", "day", 1, Some("America/New_York")),
        Some(date("2021-03-14T16:00:00Z"))
    );
    assert_eq!(
        add("2021-03-13T17:00:00Z", "hour", 24, Some("America/New_York")),
        Some(date("2021-03-14T17:00:00Z"))
    );
    assert_eq!(
        eval(
            bson!({"$dateSubtract": {"startDate": date("2021-03-01T00:00:00Z"), "unit": "week",
                                       "amount": 2}})
        ),
        Some(date("2021-02-15T00:00:00Z"))
    );
    assert_eq!(
        eval(bson!({"$dateAdd": {"startDate": null, "unit": "day", "amount": 1}})),
        Some(Bson::Null)
    );
    assert_eq!(
        err(
            bson!({"$dateAdd": {"startDate": date("2021-03-01T00:00:00Z"), "unit": "day",
                                 "amount": 1.5}})
        ),
        (
            5166405,
            "$dateAdd expects integer amount of time units".into()
        )
    );
    assert_eq!(
        err(bson!({"$dateAdd": {"startDate": "x", "unit": "day", "amount": 1}})),
        (
            5166403,
            "$dateAdd requires startDate to be convertible to a date".into()
        )
    );
    assert_eq!(
        err(bson!({"$dateAdd": {"startDate": "x", "unit": "days", "amount": 1}})),
        (
            9,
            "$dateAdd parameter 'unit' value parsing failed :: caused by :: unknown time unit \
             value: days"
                .into()
        )
    );
    assert_eq!(
        err(bson!({"$dateAdd": {"startDate": "x", "unit": 1, "amount": 1}})),
        (
            5439013,
            "$dateAdd requires 'unit' to be a string, but got int".into()
        )
    );
    assert_eq!(
        err(bson!({"$dateSubtract": {"startDate": "x", "unit": "day"}})),
        (
            5166402,
            "$dateSubtract requires startDate, unit, and amount to be present".into()
        )
    );
    assert_eq!(
        err(
            bson!({"$dateAdd": {"startDate": date("2021-03-01T00:00:00Z"), "unit": "year",
                                 "amount": i64::MAX}})
        )
        .0,
        5976500
    );
    assert_eq!(
        err(
            bson!({"$dateSubtract": {"startDate": date("2021-03-01T00:00:00Z"),
                                      "unit": "year", "amount": i64::MIN}})
        )
        .0,
        6045000
    );
}

#[test]
fn date_diff() {
    let diff = |a: &str, b: &str, unit: &str, extra: Document| {
        let mut spec = doc! {"startDate": date(a), "endDate": date(b), "unit": unit};
        spec.extend(extra);
        eval(Bson::Document(doc! {"$dateDiff": spec}))
    };
    assert_eq!(
        diff(
            "2020-12-31T23:59:59Z",
            "2021-01-01T00:00:00Z",
            "year",
            doc! {}
        ),
        Some(Bson::Int64(1))
    );
    assert_eq!(
        diff(
            "2021-01-01T00:00:00Z",
            "2021-12-31T00:00:00Z",
            "quarter",
            doc! {}
        ),
        Some(Bson::Int64(3))
    );
    assert_eq!(
        diff(
            "2021-03-31T00:00:00Z",
            "2021-01-01T00:00:00Z",
            "month",
            doc! {}
        ),
        Some(Bson::Int64(-2))
    );
    assert_eq!(
        diff(
            "2020-01-01T23:00:00Z",
            "2020-01-02T01:00:00Z",
            "day",
            doc! {}
        ),
        Some(Bson::Int64(1))
    );
    assert_eq!(
        diff(
            "2020-01-01T23:00:00Z",
            "2020-01-02T01:00:00Z",
            "day",
            doc! {"timezone": "America/New_York"}
        ),
        Some(Bson::Int64(0))
    );
    // 2021-01-03 is a Sunday: one Sunday-started week boundary, none on Monday-started weeks.
    assert_eq!(
        diff(
            "2021-01-02T00:00:00Z",
            "2021-01-03T00:00:00Z",
            "week",
            doc! {}
        ),
        Some(Bson::Int64(1))
    );
    assert_eq!(
        diff(
            "2021-01-02T00:00:00Z",
            "2021-01-03T00:00:00Z",
            "week",
            doc! {"startOfWeek": "MONDAY"}
        ),
        Some(Bson::Int64(0))
    );
    assert_eq!(
        diff(
            "2021-01-01T00:00:00.900Z",
            "2021-01-01T00:00:01.100Z",
            "second",
            doc! {}
        ),
        Some(Bson::Int64(1))
    );
    assert_eq!(
        diff(
            "2021-01-01T00:00:00Z",
            "2021-01-01T00:00:01.5Z",
            "millisecond",
            doc! {}
        ),
        Some(Bson::Int64(1500))
    );
    let extremes = bson!({"$dateDiff": {"startDate": {"$literal": DateTime::MIN},
                                         "endDate": {"$literal": DateTime::MAX},
                                         "unit": "millisecond"}});
    assert_eq!(err(extremes), (5166308, "dateDiff overflowed".into()));
    assert_eq!(
        err(bson!({"$dateDiff": {"startDate": 1, "endDate": 2, "unit": "day"}})),
        (
            5166307,
            "$dateDiff requires 'startDate' to be a date, but got int".into()
        )
    );
    assert_eq!(
        err(
            bson!({"$dateDiff": {"startDate": 1, "endDate": 2, "unit": "week",
                                  "startOfWeek": "someday"}})
        ),
        (
            5439016,
            "$dateDiff parameter 'startOfWeek' value cannot be recognized as a day of a week: \
             someday"
                .into()
        )
    );
    assert_eq!(
        err(
            bson!({"$dateDiff": {"startDate": 1, "endDate": 2, "unit": "day",
                                  "timezone": "Mars/Base"}})
        ),
        (
            40485,
            "$dateDiff parameter 'timezone' value parsing failed :: caused by :: unrecognized \
             time zone identifier: \"Mars/Base\""
                .into()
        )
    );
    assert_eq!(
        err(bson!({"$dateDiff": {"startDate": 1, "unit": "day"}})),
        (5166304, "Missing 'endDate' parameter to $dateDiff".into())
    );
}

#[test]
fn date_trunc_manual_examples() {
    let trunc = |d: &str, spec: Document| {
        let mut full = doc! {"date": date(d)};
        full.extend(spec);
        eval(Bson::Document(doc! {"$dateTrunc": full}))
    };
    let weekly = doc! {"unit": "week", "binSize": 2, "timezone": "America/Los_Angeles",
    "startOfWeek": "Monday"};
    assert_eq!(
        trunc("2020-05-18T14:10:30Z", weekly.clone()),
        Some(date("2020-05-11T07:00:00Z"))
    );
    assert_eq!(
        trunc("2021-03-20T11:30:05Z", weekly.clone()),
        Some(date("2021-03-15T07:00:00Z"))
    );
    assert_eq!(
        trunc("2021-01-11T06:31:15Z", weekly),
        Some(date("2021-01-04T08:00:00Z"))
    );
    assert_eq!(
        trunc("2021-03-20T11:30:05Z", doc! {"unit": "month", "binSize": 6}),
        Some(date("2021-01-01T00:00:00Z"))
    );
    assert_eq!(
        // Bins count from 2000-01-01T00:00: 185,987 hours later, the 5-hour bin starts at 9:00.
        trunc("2021-03-20T11:30:05Z", doc! {"unit": "hour", "binSize": 5}),
        Some(date("2021-03-20T09:00:00Z"))
    );
    assert_eq!(
        trunc("2021-03-20T11:30:05Z", doc! {"unit": "quarter"}),
        Some(date("2021-01-01T00:00:00Z"))
    );
    assert_eq!(
        trunc(
            "2021-03-20T11:30:05Z",
            doc! {"unit": "day", "timezone": "+05:00"}
        ),
        Some(date("2021-03-19T19:00:00Z"))
    );
    assert_eq!(
        err(
            bson!({"$dateTrunc": {"date": date("2021-03-20T11:30:05Z"), "unit": "day",
                                  "binSize": 0}})
        ),
        (
            5439018,
            "$dateTrunc requires 'binSize' to be greater than 0, but got value 0".into()
        )
    );
    assert_eq!(
        err(
            bson!({"$dateTrunc": {"date": date("2021-03-20T11:30:05Z"), "unit": "day",
                                  "binSize": "1"}})
        ),
        (
            5439017,
            "$dateTrunc requires 'binSize' to be a 64-bit integer, but got value '\"1\"' of type \
             string"
                .into()
        )
    );
    assert_eq!(
        err(bson!({"$dateTrunc": {"date": 5, "unit": "day"}})),
        (
            5166307,
            "$dateTrunc requires 'date' to be a date, but got int".into()
        )
    );
    assert_eq!(
        err(bson!({"$dateTrunc": {"date": 5}})),
        (5439010, "Missing 'unit' parameter to $dateTrunc".into())
    );
}

/// `$dateAdd`/`$dateSubtract` refuse amounts outside the date range (5976500) and results past
/// it (5166406); `$dateTrunc` refuses calendar bins over 100,000,000,000 (5439006) and bins
/// that reach past the date range, instead of wrapping (date_time_support.cpp).
#[test]
fn date_arithmetic_overflow_is_an_error() {
    let start = date("2021-03-01T00:00:00Z");
    let add = |op: &str, unit: &str, amount: i64| {
        let mut e = Document::new();
        e.insert(
            op,
            doc! {"startDate": start.clone(), "unit": unit, "amount": amount},
        );
        err(Bson::Document(e))
    };
    assert_eq!(
        add("$dateAdd", "year", 1_000_000_000),
        (
            5976500,
            "invalid dateAdd 'amount' parameter value: 1000000000 year".into()
        )
    );
    assert_eq!(
        add("$dateSubtract", "month", 100_000_000_000),
        (
            5976500,
            "invalid dateAdd 'amount' parameter value: -100000000000 month".into()
        )
    );
    assert_eq!(add("$dateAdd", "day", 200_000_000_000).0, 5166406);
    assert_eq!(add("$dateAdd", "millisecond", i64::MAX).0, 5166406);
    assert_eq!(add("$dateAdd", "second", i64::MAX / 2).0, 5976500);
    let trunc = |unit: &str, bin: i64| {
        err(
            bson!({"$dateTrunc": {"date": date("1900-03-01T00:00:00Z"), "unit": unit,
                                   "binSize": bin}}),
        )
    };
    assert_eq!(
        trunc("year", 100_000_000_001),
        (5439006, "dateTrunc unsupported binSize value".into())
    );
    assert_eq!(trunc("month", 100_000_000_000).0, 5976500);
    assert_eq!(trunc("hour", i64::MAX / 1000).0, 5439002);
    // A large bin that still fits: the bin starts at the reference point's earlier multiple.
    assert_eq!(
        eval(
            bson!({"$dateTrunc": {"date": date("2001-03-01T00:00:00Z"), "unit": "year",
                                    "binSize": 1_000_000}})
        ),
        Some(date("2000-01-01T00:00:00Z"))
    );
}

#[test]
fn extreme_dates_do_not_panic() {
    for ms in [i64::MIN, i64::MAX, -62_167_219_200_001, 253_402_300_800_000] {
        let d = doc! {"d": Bson::DateTime(DateTime::from_millis(ms))};
        for op in ["$year", "$isoWeek", "$week", "$dayOfYear"] {
            let mut e = Document::new();
            e.insert(op, doc! {"date": "$d", "timezone": "Europe/London"});
            assert!(eval_on(Bson::Document(e), &d).is_some());
        }
        let exprs = [
            bson!({"$dateToParts": {"date": "$d", "iso8601": true, "timezone": "Asia/Kolkata"}}),
            bson!({"$dateTrunc": {"date": "$d", "unit": "week", "binSize": 3,
                                  "timezone": "America/New_York"}}),
            bson!({"$dateDiff": {"startDate": "$d", "endDate": {"$literal": DateTime::from_millis(0)},
                                 "unit": "quarter", "timezone": "Europe/Paris"}}),
        ];
        for e in exprs {
            let _ = Expression::parse(&e).unwrap().evaluate(&d);
        }
        for unit in ["year", "month", "day", "hour", "millisecond"] {
            let e = bson!({"$dateAdd": {"startDate": "$d", "unit": unit, "amount": 1000,
                                        "timezone": "Europe/Paris"}});
            let _ = Expression::parse(&e).unwrap().evaluate(&d);
        }
        let _ = Expression::parse(&bson!({"$dateToString": {"date": "$d"}}))
            .unwrap()
            .evaluate(&d);
    }
}

#[test]
fn free_form_dates_as_mongodb_reads_them() {
    // jstests/aggregation/expressions/date_from_string.js, "Wacky format tests from data".
    for (text, iso) in [
        ("July 4th, 2017", "2017-07-04T00:00:00Z"),
        ("July 4th, 2017 12:39:30 BST", "2017-07-04T11:39:30Z"),
        ("July 4th, 2017 11am", "2017-07-04T11:00:00Z"),
        ("July 4th, 2017 12pm", "2017-07-04T12:00:00Z"),
        ("7/4/17", "2017-07-04T00:00:00Z"),
        ("04-07-2017", "2017-07-04T00:00:00Z"),
        ("2017-Jul-04 noon", "2017-07-04T12:00:00Z"),
        ("2017-07-04 12:48:07 GMT+0545", "2017-07-04T07:03:07Z"),
        ("2017-07-04 12:48:07 GMT-0200", "2017-07-04T14:48:07Z"),
        // timelib's `hour24 [:.] minute [:.] second` (issue #19: this one was refused as
        // naming an unknown time zone).
        ("2017-07-04T11:56.02", "2017-07-04T11:56:02Z"),
        ("2017-07-04T11.56.02.5Z", "2017-07-04T11:56:02.500Z"),
    ] {
        assert_eq!(
            eval(bson!({"$dateFromString": {"dateString": text}})),
            Some(date(iso)),
            "{text}"
        );
        assert_eq!(eval(bson!({"$toDate": text})), Some(date(iso)), "{text}");
    }
    // An impossible day is still refused.
    assert_eq!(err(bson!({"$toDate": "Feb 30th, 2017"})).0, 241);
    assert_eq!(
        err(bson!({"$dateFromString": {"dateString": "July 4th"}})).0,
        241
    );
}

/// `utc_component` (what `$group` over stored bytes computes a date's component with) gives
/// what the operators give without a time zone, before 1970, around leap days and far out.
#[test]
fn utc_components_are_the_operators() {
    let names = [
        "$year",
        "$month",
        "$dayOfMonth",
        "$hour",
        "$minute",
        "$second",
        "$millisecond",
        "$dayOfWeek",
        "$dayOfYear",
        "$week",
        "$isoWeek",
        "$isoWeekYear",
        "$isoDayOfWeek",
    ];
    let mut millis = vec![
        0,
        -1,
        1,
        i64::MIN,
        i64::MAX,
        951_782_400_000,
        -62_135_596_800_001,
    ];
    let mut x: i64 = 0x2545_F491_4F6C_DD1D;
    for _ in 0..400 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        millis.push(x % 400_000_000_000_000);
    }
    for ms in millis {
        let d = doc! {"d": DateTime::from_millis(ms)};
        for name in names {
            let mut e = Document::new();
            e.insert(name, "$d");
            let part = super::utc_component(name).unwrap();
            let civil = super::civil::Civil::from_millis(ms);
            assert_eq!(
                eval_on(Bson::Document(e), &d),
                Some(part(&civil)),
                "{name} {ms}"
            );
        }
    }
    assert!(super::utc_component("$dateToParts").is_none());
}
