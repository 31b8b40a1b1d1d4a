//! String operators against MongoDB 8.0's documented results and error messages.

use bson::{Bson, Document, bson, doc};

use super::super::Expression;
use super::format_double;

fn eval(expr: Bson) -> Option<Bson> {
    eval_on(expr, &doc! {})
}

fn eval_on(expr: Bson, d: &Document) -> Option<Bson> {
    Expression::parse(&expr)
        .unwrap_or_else(|e| panic!("{expr}: {e}"))
        .evaluate(d)
        .unwrap_or_else(|e| panic!("{expr}: {e}"))
}

fn err(expr: Bson) -> (i32, String) {
    let e = match Expression::parse(&expr) {
        Err(e) => e,
        Ok(x) => x.evaluate(&doc! {}).expect_err("expected an error"),
    };
    (e.code(), e.message)
}

fn s(v: &str) -> Option<Bson> {
    Some(Bson::String(v.into()))
}

#[test]
fn concat_and_case() {
    assert_eq!(eval(bson!({"$concat": ["a", "b", "c"]})), s("abc"));
    assert_eq!(eval(bson!({"$concat": []})), s(""));
    assert_eq!(eval(bson!({"$concat": ["a", null]})), Some(Bson::Null));
    assert_eq!(eval(bson!({"$concat": ["a", "$nope"]})), Some(Bson::Null));
    assert_eq!(
        err(bson!({"$concat": ["a", 1]})),
        (16702, "$concat only supports strings, not int".into())
    );
    assert_eq!(eval(bson!({"$toUpper": "abcé"})), s("ABCé"));
    assert_eq!(eval(bson!({"$toLower": ["ABC"]})), s("abc"));
    assert_eq!(eval(bson!({"$toLower": null})), s(""));
    assert_eq!(eval(bson!({"$toUpper": 1.5})), s("1.5"));
    assert_eq!(
        err(bson!({"$toUpper": [[1]]})),
        (16007, "can't convert from BSON type array to String".into())
    );
    assert_eq!(
        eval(bson!({"$strcasecmp": ["13Q1", "13q1"]})),
        Some(bson!(0))
    );
    assert_eq!(
        eval(bson!({"$strcasecmp": ["13Q4", "13q1"]})),
        Some(bson!(1))
    );
    assert_eq!(
        eval(bson!({"$strcasecmp": ["12Q4", "13q1"]})),
        Some(bson!(-1))
    );
    assert_eq!(
        err(bson!({"$strcasecmp": ["a"]})),
        (
            16020,
            "Expression $strcasecmp takes exactly 2 arguments. 1 were passed in.".into()
        )
    );
}

#[test]
fn coercion_writes_numbers_and_dates_like_the_server() {
    assert_eq!(format_double(2.0), "2");
    assert_eq!(format_double(1.23456789), "1.23457");
    assert_eq!(format_double(1e20), "1e+20");
    assert_eq!(format_double(0.0001), "0.0001");
    assert_eq!(format_double(0.00001234), "1.234e-05");
    assert_eq!(format_double(123456.0), "123456");
    assert_eq!(format_double(1234567.0), "1.23457e+06");
    let d = doc! {"d": bson::DateTime::from_millis(1_388_564_139_736)};
    assert_eq!(
        eval_on(bson!({"$toLower": "$d"}), &d),
        s("2014-01-01t08:15:39.736z")
    );
}

/// A Timestamp as a string is `Timestamp::toStringPretty` (ctime's month, day and time in UTC,
/// then the increment), src/mongo/bson/timestamp.cpp.
#[test]
fn timestamps_as_strings() {
    let d = doc! {"t": Bson::Timestamp(bson::Timestamp { time: 1, increment: 2 }),
    "u": Bson::Timestamp(bson::Timestamp { time: 1_700_000_000, increment: 15 })};
    assert_eq!(
        eval_on(bson!({"$toUpper": "$t"}), &d),
        s("JAN  1 00:00:01:2")
    );
    assert_eq!(
        eval_on(bson!({"$toLower": "$u"}), &d),
        s("nov 14 22:13:20:15")
    );
    assert_eq!(
        eval_on(bson!({"$substrBytes": ["$u", 0, 6]}), &d),
        s("Nov 14")
    );
    assert_eq!(
        eval_on(bson!({"$substrCP": ["$t", 7, 8]}), &d),
        s("00:00:01")
    );
}

/// `$substr`/`$substrBytes` take decimal index and length (`Value::numeric`), rounded half to
/// even by `coerceToLong`.
#[test]
fn substr_bytes_with_decimals() {
    let dec = |s: &str| Bson::Decimal128(s.parse().unwrap());
    assert_eq!(
        eval(bson!({"$substr": ["abcdef", dec("1"), dec("2")]})),
        s("bc")
    );
    assert_eq!(
        eval(bson!({"$substrBytes": ["abcdef", dec("1.5"), dec("2.5")]})),
        s("cd")
    );
    assert_eq!(
        eval(bson!({"$substrBytes": ["abcdef", dec("0"), dec("-1")]})),
        s("abcdef")
    );
    assert_eq!(
        err(bson!({"$substrBytes": ["abcdef", dec("-1"), 2]})).0,
        50752
    );
    assert_eq!(
        err(bson!({"$substrBytes": ["abcdef", dec("NaN"), 2]})).0,
        50752
    );
}

#[test]
fn substrings() {
    assert_eq!(eval(bson!({"$substr": ["hello world", 6, -1]})), s("world"));
    assert_eq!(eval(bson!({"$substrBytes": ["abcde", 1, 2]})), s("bc"));
    assert_eq!(eval(bson!({"$substrBytes": ["abc", 5, 2]})), s(""));
    assert_eq!(eval(bson!({"$substrBytes": [null, 0, 2]})), s(""));
    assert_eq!(
        eval(bson!({"$substrBytes": ["cafétéria", 0, 5]})),
        s("café")
    );
    assert_eq!(
        err(bson!({"$substrBytes": ["cafétéria", 4, 3]})),
        (
            28656,
            "$substrBytes:  Invalid range, starting index is a UTF-8 continuation byte.".into()
        )
    );
    assert_eq!(
        err(bson!({"$substrBytes": ["cafétéria", 0, 4]})),
        (
            28657,
            "$substrBytes:  Invalid range, ending index is in the middle of a UTF-8 character."
                .into()
        )
    );
    assert_eq!(
        err(bson!({"$substrBytes": ["abc", "x", 1]})),
        (
            16034,
            "$substrBytes:  starting index must be a numeric type (is BSON type string)".into()
        )
    );
    assert_eq!(err(bson!({"$substrBytes": ["abc", -1, 1]})).0, 50752);
    assert_eq!(eval(bson!({"$substrCP": ["cafétéria", 5, 4]})), s("éria"));
    assert_eq!(eval(bson!({"$substrCP": ["abc", 1, 100]})), s("bc"));
    assert_eq!(
        err(bson!({"$substrCP": ["abc", 0.5, 1]})),
        (
            34451,
            "$substrCP: starting index cannot be represented as a 32-bit integral value: 0.5"
                .into()
        )
    );
    assert_eq!(
        err(bson!({"$substrCP": ["abc", 0, -1]})),
        (
            34454,
            "$substrCP: length must be a nonnegative integer.".into()
        )
    );
    assert_eq!(err(bson!({"$substrCP": ["abc", -1, 1]})).0, 34455);
    assert_eq!(err(bson!({"$substrCP": ["abc", 0, "1"]})).0, 34452);
}

#[test]
fn lengths_split_and_index_of() {
    assert_eq!(eval(bson!({"$strLenBytes": "cafétéria"})), Some(bson!(11)));
    assert_eq!(eval(bson!({"$strLenCP": "cafétéria"})), Some(bson!(9)));
    assert_eq!(
        err(bson!({"$strLenCP": null})),
        (
            34471,
            "$strLenCP requires a string argument, found: null".into()
        )
    );
    assert_eq!(
        err(bson!({"$strLenBytes": "$nope"})),
        (
            34473,
            "$strLenBytes requires a string argument, found: missing".into()
        )
    );
    assert_eq!(
        eval(bson!({"$split": ["June-15-2013", "-"]})),
        Some(bson!(["June", "15", "2013"]))
    );
    assert_eq!(
        eval(bson!({"$split": ["astronomical", "astro"]})),
        Some(bson!(["", "nomical"]))
    );
    assert_eq!(eval(bson!({"$split": [null, "/"]})), Some(Bson::Null));
    assert_eq!(err(bson!({"$split": ["abc", ""]})).0, 40087);
    assert_eq!(
        err(bson!({"$split": [1, "a"]})),
        (
            40085,
            "$split requires an expression that evaluates to a string as a first argument, \
             found: int"
                .into()
        )
    );
    assert_eq!(
        eval(bson!({"$indexOfBytes": ["cafeteria", "e"]})),
        Some(bson!(3))
    );
    assert_eq!(
        eval(bson!({"$indexOfBytes": ["cafétéria", "t"]})),
        Some(bson!(5))
    );
    assert_eq!(
        eval(bson!({"$indexOfBytes": ["foo.bar.fi", ".", 5]})),
        Some(bson!(7))
    );
    assert_eq!(
        eval(bson!({"$indexOfBytes": ["vanilla", "ll", 0, 2]})),
        Some(bson!(-1))
    );
    assert_eq!(
        eval(bson!({"$indexOfBytes": [null, "a"]})),
        Some(Bson::Null)
    );
    assert_eq!(
        eval(bson!({"$indexOfCP": ["cafétéria", "t"]})),
        Some(bson!(4))
    );
    assert_eq!(eval(bson!({"$indexOfCP": ["abc", "", 2]})), Some(bson!(2)));
    assert_eq!(eval(bson!({"$indexOfCP": ["abc", "", 5]})), Some(bson!(-1)));
    assert_eq!(
        err(bson!({"$indexOfCP": ["foobar foobar", "bar", "hello"]})),
        (
            40096,
            "$indexOfCPrequires an integral starting index, found a value of type: string, \
             with value: \"hello\""
                .into()
        )
    );
    assert_eq!(
        err(bson!({"$indexOfBytes": ["foobar", "bar", -2]})),
        (
            40097,
            "$indexOfBytes requires a nonnegative starting index, found: -2".into()
        )
    );
    assert_eq!(
        err(bson!({"$indexOfBytes": ["a", 1]})),
        (
            40092,
            "$indexOfBytes requires a string as the second argument, found: int".into()
        )
    );
    assert_eq!(err(bson!({"$indexOfCP": ["a"]})).0, 28667);
}

#[test]
fn trims() {
    assert_eq!(
        eval(bson!({"$trim": {"input": "  \u{2003}ggggoodbyeeeee \n"}})),
        s("ggggoodbyeeeee")
    );
    assert_eq!(eval(bson!({"$ltrim": {"input": "  a  "}})), s("a  "));
    assert_eq!(eval(bson!({"$rtrim": {"input": "  a  "}})), s("  a"));
    assert_eq!(
        eval(bson!({"$trim": {"input": "ggggoodbyeeeee", "chars": "ge"}})),
        s("oodby")
    );
    assert_eq!(
        eval(bson!({"$trim": {"input": "abc", "chars": null}})),
        Some(Bson::Null)
    );
    assert_eq!(
        eval(bson!({"$trim": {"input": "abc", "chars": "$nope"}})),
        Some(Bson::Null)
    );
    assert_eq!(eval(bson!({"$trim": {"input": null}})), Some(Bson::Null));
    assert_eq!(
        err(bson!({"$trim": {"input": 1}})),
        (
            50699,
            "$trim requires its input to be a string, got 1 (of type int) instead.".into()
        )
    );
    assert_eq!(
        err(bson!({"$ltrim": {"input": "a", "chars": 1}})),
        (
            50700,
            "$ltrim requires 'chars' to be a string, got 1 (of type int) instead.".into()
        )
    );
    assert_eq!(
        err(bson!({"$trim": "a"})),
        (
            50696,
            "$trim requires an object as an argument, found: string".into()
        )
    );
    assert_eq!(
        err(bson!({"$trim": {"input": "a", "x": 1}})),
        (50694, "$trim found an unrecognized option: x".into())
    );
    assert_eq!(
        err(bson!({"$rtrim": {"chars": "a"}})),
        (50695, "$rtrim requires an 'input' field".into())
    );
}

#[test]
fn replaces() {
    let r = |op: &str, i: Bson, f: Bson, rep: Bson| {
        let mut d = Document::new();
        d.insert(op, doc! {"input": i, "find": f, "replacement": rep});
        eval(Bson::Document(d))
    };
    assert_eq!(
        r(
            "$replaceOne",
            bson!("blue paint"),
            bson!("blue"),
            bson!("red")
        ),
        s("red paint")
    );
    assert_eq!(
        r(
            "$replaceAll",
            bson!("blue paint with blue"),
            bson!("blue"),
            bson!("red")
        ),
        s("red paint with red")
    );
    assert_eq!(
        r("$replaceAll", bson!("abc"), bson!(""), bson!("-")),
        s("-a-b-c-")
    );
    assert_eq!(
        r("$replaceOne", bson!("abc"), bson!(""), bson!("-")),
        s("-abc")
    );
    assert_eq!(
        r("$replaceOne", bson!("abc"), bson!("z"), bson!("-")),
        s("abc")
    );
    assert_eq!(
        r("$replaceOne", bson!(null), bson!("a"), bson!("-")),
        Some(Bson::Null)
    );
    assert_eq!(
        err(bson!({"$replaceAll": {"input": null, "find": 1, "replacement": "x"}})),
        (
            51745,
            "$replaceAll requires that 'find' be a string, found: 1".into()
        )
    );
    assert_eq!(
        err(bson!({"$replaceOne": {"input": "a", "find": "a"}})),
        (
            51747,
            "$replaceOne requires 'replacement' to be specified".into()
        )
    );
    assert_eq!(err(bson!({"$replaceOne": [1]})).0, 51751);
    assert_eq!(
        err(bson!({"$replaceOne": {"input": "a", "find": "a", "replacement": "b", "q": 1}})),
        (51750, "$replaceOne found an unknown argument: q".into())
    );
}

#[test]
fn regex_find_shapes() {
    assert_eq!(
        eval(
            bson!({"$regexFind": {"input": "Single LINE description.", "regex": "line", "options": "i"}})
        ),
        Some(bson!({"match": "LINE", "idx": 7, "captures": []}))
    );
    assert_eq!(
        eval(bson!({"$regexFind": {"input": "cafétéria", "regex": "(té)(x)?"}})),
        Some(bson!({"match": "té", "idx": 4, "captures": ["té", null]}))
    );
    assert_eq!(
        eval(bson!({"$regexFind": {"input": "abc", "regex": "z"}})),
        Some(Bson::Null)
    );
    assert_eq!(
        eval(bson!({"$regexFindAll": {"input": "a1b22c", "regex": "([0-9]+)"}})),
        Some(bson!([
            {"match": "1", "idx": 1, "captures": ["1"]},
            {"match": "22", "idx": 3, "captures": ["22"]}
        ]))
    );
    assert_eq!(
        eval(bson!({"$regexFindAll": {"input": "ab", "regex": "x*"}})),
        Some(bson!([
            {"match": "", "idx": 0, "captures": []},
            {"match": "", "idx": 1, "captures": []}
        ]))
    );
    assert_eq!(
        eval(bson!({"$regexFindAll": {"input": "", "regex": "x*"}})),
        Some(bson!([{"match": "", "idx": 0, "captures": []}]))
    );
    assert_eq!(
        eval(bson!({"$regexFindAll": {"input": null, "regex": "x"}})),
        Some(bson!([]))
    );
    // `idx` counts code points across matches (the count carried from one match to the next):
    // 😀 is two UTF-16 code units, one code point.
    assert_eq!(
        eval(bson!({"$regexFindAll": {"input": "a😀éb😀", "regex": "[ab😀]"}})),
        Some(bson!([
            {"match": "a", "idx": 0, "captures": []},
            {"match": "😀", "idx": 1, "captures": []},
            {"match": "b", "idx": 3, "captures": []},
            {"match": "😀", "idx": 4, "captures": []}
        ]))
    );
    let re = Bson::RegularExpression(bson::Regex {
        pattern: "^b".to_string().try_into().unwrap(),
        options: "m".to_string().try_into().unwrap(),
    });
    assert_eq!(
        eval(Bson::Document(
            doc! {"$regexMatch": {"input": "a\nb", "regex": re.clone()}}
        )),
        Some(bson!(true))
    );
    assert_eq!(
        eval(bson!({"$regexMatch": {"input": null, "regex": "a"}})),
        Some(bson!(false))
    );
    assert_eq!(
        err(Bson::Document(
            doc! {"$regexMatch": {"input": "a", "regex": re, "options": "i"}}
        )),
        (
            51107,
            "$regexMatch: found regex option(s) specified in both 'regex' and 'option' fields"
                .into()
        )
    );
    assert_eq!(
        err(bson!({"$regexFind": {"input": 1, "regex": "a"}})),
        (
            51104,
            "$regexFind needs 'input' to be of type string".into()
        )
    );
    assert_eq!(
        err(bson!({"$regexFind": {"input": "a", "regex": 1}})),
        (
            51105,
            "$regexFind needs 'regex' to be of type string or regex".into()
        )
    );
    assert_eq!(
        err(bson!({"$regexFind": {"input": "a", "regex": "a", "options": "q"}})),
        (51108, "$regexFind invalid flag in regex options: q".into())
    );
    assert_eq!(
        err(bson!({"$regexFind": {"input": "a", "regex": "("}})).0,
        51111
    );
    assert_eq!(
        err(bson!({"$regexFindAll": {"regex": "a"}})),
        (31022, "$regexFindAll requires 'input' parameter".into())
    );
    assert_eq!(
        err(bson!({"$regexFind": {"input": "a", "regex": "a", "flags": "i"}})),
        (31024, "$regexFind found an unknown argument: flags".into())
    );
    assert_eq!(
        err(bson!({"$regexFind": "a"})),
        (
            51103,
            "$regexFind expects an object of named arguments but found: string".into()
        )
    );
}
