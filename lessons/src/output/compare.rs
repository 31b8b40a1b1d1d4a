//! Compares what a step showed with its `expect` block as values, not as text: both are read by
//! [`parse_output`] and must hold the same parts in the same order. Significant: every value
//! and its type as printed (a bare number, `Int32`, `Double`, `Long`, `Decimal128` differ),
//! field order, array order, the error's name, code and message, the words of a text line.
//! Not significant: white space and line breaks between tokens (mongosh's wrapping, column
//! alignment), quoting (`'a'`, `"a"`, bare or quoted keys), and which shell's spelling names a
//! BSON class (`Long('5')` and `NumberLong(5)` are the same value).

use std::fmt;

use super::parse::{OutputItem, parse_output};
use super::value::{PrintedValue, key_text};

/// The first place where the output differs from the expected one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputDifference {
    /// Where: the part of the output and the path of the field, e.g.
    /// ``part 2 of the output, at `items[1].price` ``; empty for the whole output.
    pub place: String,
    pub expected: String,
    pub actual: String,
}

impl fmt::Display for OutputDifference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.place.is_empty() {
            write!(f, "{}: ", self.place)?;
        }
        write!(f, "expected {}, got {}", self.expected, self.actual)
    }
}

/// `Ok` when `actual` shows the same values, errors and lines as `expected`.
pub fn compare_output(expected: &str, actual: &str) -> Result<(), OutputDifference> {
    let (want, got) = (parse_output(expected), parse_output(actual));
    let single = want.len() == 1 && got.len() == 1;
    let part = |i: usize| {
        if single {
            String::new()
        } else {
            format!("part {} of the output", i + 1)
        }
    };
    for (i, (w, g)) in want.iter().zip(&got).enumerate() {
        if let Err(mut d) = compare_items(w, g) {
            d.place = join_place(part(i), d.place);
            return Err(d);
        }
    }
    let n = want.len().min(got.len());
    match (want.get(n), got.get(n)) {
        (Some(w), None) => Err(OutputDifference {
            place: part(n),
            expected: describe_item(w),
            actual: "nothing more (the output ends)".into(),
        }),
        (None, Some(g)) => Err(OutputDifference {
            place: part(n),
            expected: "nothing more".into(),
            actual: describe_item(g),
        }),
        _ => Ok(()),
    }
}

fn join_place(part: String, at: String) -> String {
    match (part.is_empty(), at.is_empty()) {
        (_, true) => part,
        (true, false) => at,
        (false, false) => format!("{part}, {at}"),
    }
}

fn compare_items(want: &OutputItem, got: &OutputItem) -> Result<(), OutputDifference> {
    match (want, got) {
        (OutputItem::Value(w), OutputItem::Value(g)) => {
            compare_values(w, g, "").map_err(|d| OutputDifference {
                place: if d.path.is_empty() {
                    String::new()
                } else {
                    format!("at `{}`", d.path)
                },
                expected: d.expected,
                actual: d.actual,
            })
        }
        (w, g) if w == g => Ok(()),
        (w, g) => Err(OutputDifference {
            place: String::new(),
            expected: describe_item(w),
            actual: describe_item(g),
        }),
    }
}

fn describe_item(item: &OutputItem) -> String {
    match item {
        OutputItem::Value(v) => format!("the value {}", shown(v)),
        OutputItem::Error {
            name,
            code,
            message,
        } => match code {
            Some(code) => format!("the error `{name}[{code}]: {message}`"),
            None => format!("the error `{name}: {message}`"),
        },
        OutputItem::Text(t) => format!("the line `{t}`"),
    }
}

/// A difference inside one value.
struct ValueDifference {
    path: String,
    expected: String,
    actual: String,
}

fn differ(path: &str, expected: String, actual: String) -> Result<(), ValueDifference> {
    Err(ValueDifference {
        path: path.to_string(),
        expected,
        actual,
    })
}

fn compare_values(
    want: &PrintedValue,
    got: &PrintedValue,
    path: &str,
) -> Result<(), ValueDifference> {
    use PrintedValue as V;
    match (want, got) {
        (V::Document(w), V::Document(g)) => compare_fields(w, g, path),
        (V::Array(w), V::Array(g)) => {
            compare_items_in_order(w, g, path, |i| format!("{path}[{i}]"))
        }
        (V::Call { name: wn, args: w }, V::Call { name: gn, args: g }) if wn == gn => {
            compare_items_in_order(w, g, path, |i| format!("{path}({wn} argument {})", i + 1))
        }
        (V::Number(w), V::Number(g)) | (V::Double(w), V::Double(g)) if same_number(*w, *g) => {
            Ok(())
        }
        (w, g) if std::mem::discriminant(w) == std::mem::discriminant(g) => {
            if matches!(w, V::Number(_) | V::Double(_)) || w != g {
                differ(path, shown(w), shown(g))
            } else {
                Ok(())
            }
        }
        (w, g) => differ(
            path,
            format!("{} ({})", shown(w), w.kind()),
            format!("{} ({})", shown(g), g.kind()),
        ),
    }
}

/// The same number, telling `-0` from `0` (they print differently) and `NaN` equal to itself.
fn same_number(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits()
}

/// A document's fields, in order.
fn compare_fields(
    want: &[(String, PrintedValue)],
    got: &[(String, PrintedValue)],
    path: &str,
) -> Result<(), ValueDifference> {
    let field_path = |k: &str| {
        let key = key_text(k);
        match (path.is_empty(), key.starts_with('\'')) {
            (true, false) => key,
            (false, false) => format!("{path}.{key}"),
            (_, true) => format!("{path}[{key}]"),
        }
    };
    let has = |fields: &[(String, PrintedValue)], k: &str| fields.iter().any(|(f, _)| f == k);
    let names = |fields: &[(String, PrintedValue)]| {
        let keys: Vec<String> = fields.iter().map(|(k, _)| key_text(k)).collect();
        format!("the fields in the order {}", keys.join(", "))
    };
    for i in 0..want.len().max(got.len()) {
        match (want.get(i), got.get(i)) {
            (Some((wk, wv)), Some((gk, gv))) if wk == gk => {
                compare_values(wv, gv, &field_path(wk))?;
            }
            (Some((wk, wv)), Some((gk, _))) => {
                return if has(got, wk) && has(want, gk) {
                    differ(path, names(want), names(got))
                } else if !has(got, wk) {
                    differ(
                        &field_path(wk),
                        format!("the field {}: {}", key_text(wk), shown(wv)),
                        format!("no such field (field {} is {})", i + 1, key_text(gk)),
                    )
                } else {
                    let (_, gv) = &got[i];
                    differ(
                        &field_path(gk),
                        format!("no such field (field {} is {})", i + 1, key_text(wk)),
                        format!("the field {}: {}", key_text(gk), shown(gv)),
                    )
                };
            }
            (Some((wk, wv)), None) => {
                return differ(
                    &field_path(wk),
                    format!("the field {}: {}", key_text(wk), shown(wv)),
                    "no such field".into(),
                );
            }
            (None, Some((gk, gv))) => {
                return differ(
                    &field_path(gk),
                    "no such field".into(),
                    format!("the field {}: {}", key_text(gk), shown(gv)),
                );
            }
            (None, None) => {}
        }
    }
    Ok(())
}

/// Array elements (or a call's arguments), in order.
fn compare_items_in_order(
    want: &[PrintedValue],
    got: &[PrintedValue],
    path: &str,
    item_path: impl Fn(usize) -> String,
) -> Result<(), ValueDifference> {
    for (i, (w, g)) in want.iter().zip(got).enumerate() {
        compare_values(w, g, &item_path(i))?;
    }
    let count = |n: usize| format!("{n} element{}", if n == 1 { "" } else { "s" });
    let n = want.len().min(got.len());
    match (want.get(n), got.get(n)) {
        (Some(w), None) => differ(
            path,
            format!("{} (the next is {})", count(want.len()), shown(w)),
            count(got.len()),
        ),
        (None, Some(g)) => differ(
            path,
            count(want.len()),
            format!("{} (the next is {})", count(got.len()), shown(g)),
        ),
        _ => Ok(()),
    }
}

/// A value on one line, shortened for a message.
fn shown(v: &PrintedValue) -> String {
    const MAX: usize = 160;
    let text = v.to_string();
    match text.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn difference(expected: &str, actual: &str) -> String {
        match compare_output(expected, actual) {
            Ok(()) => panic!("no difference between\n{expected}\nand\n{actual}"),
            Err(d) => d.to_string(),
        }
    }

    #[test]
    fn rewrapped_output_is_the_same() {
        let wrapped = "[\n  { _id: 1, name: 'Product 1', price: 10 },\n  {\n    _id: ObjectId('6774858007c7f83ec9f8c337'),\n    name: 'Product 2',\n    tags: [ 'new' ]\n  }\n]\nType \"it\"   for more";
        let one_line = "[ { _id: 1, name: \"Product 1\", price: 10 }, { _id: ObjectId('6774858007C7F83EC9F8C337'), name: 'Product 2', tags: ['new'] } ]\nType \"it\" for more\n";
        assert_eq!(compare_output(wrapped, one_line), Ok(()));
        assert_eq!(
            compare_output("{ n: NumberLong(5) }", "{\n  n: Long('5')\n}"),
            Ok(())
        );
        assert_eq!(
            compare_output(
                "MongoServerError[DuplicateKey]:  E11000 dup key: { _id: 1 }",
                "MongoServerError[DuplicateKey]: E11000 dup key: {  _id: 1 }\n"
            ),
            Ok(())
        );
    }

    #[test]
    fn field_order_matters() {
        assert_eq!(
            difference(
                "{ _id: 1, name: 'a', price: 2 }",
                "{ _id: 1, price: 2, name: 'a' }"
            ),
            "expected the fields in the order _id, name, price, got the fields in the order _id, price, name"
        );
        assert_eq!(
            difference("{ a: { x: 1, y: 2 } }", "{ a: { y: 2, x: 1 } }"),
            "at `a`: expected the fields in the order x, y, got the fields in the order y, x"
        );
    }

    #[test]
    fn number_types_matter() {
        assert_eq!(
            difference("{ n: 5 }", "{ n: Long('5') }"),
            "at `n`: expected 5 (number (Int32 or Double)), got Long('5') (Long)"
        );
        assert!(difference("Int32(5)", "Double(5)").contains("(Int32), got Double(5) (Double)"));
        assert!(difference("[ Decimal128('1.5') ]", "[ 1.5 ]").contains("at `[0]`"));
        assert!(difference("Decimal128('1.50')", "Decimal128('1.5')").contains("'1.50'"));
        assert!(difference("0", "-0").contains("expected 0, got -0"));
        assert_eq!(compare_output("NaN", "NaN"), Ok(()));
    }

    #[test]
    fn array_order_matters() {
        assert_eq!(
            difference("[ { _id: 1 }, { _id: 2 } ]", "[ { _id: 2 }, { _id: 1 } ]"),
            "at `[0]._id`: expected 1, got 2"
        );
        assert_eq!(
            difference("[ 1, 2 ]", "[ 1, 2, 3 ]"),
            "expected 2 elements, got 3 elements (the next is 3)"
        );
    }

    #[test]
    fn a_changed_value_is_named_by_its_path() {
        let expected = "{\n  items: [\n    { _id: 1, name: 'apple', price: 0.5 },\n    { _id: 2, name: 'orange', price: 0.8 }\n  ]\n}";
        let actual = expected.replace("0.8", "0.9");
        assert_eq!(
            difference(expected, &actual),
            "at `items[1].price`: expected 0.8, got 0.9"
        );
        assert_eq!(
            difference("{ 'first-name': 'a' }", "{ 'first-name': 'b' }"),
            "at `['first-name']`: expected 'a', got 'b'"
        );
        assert_eq!(
            difference("{ a: 1, b: 2 }", "{ a: 1 }"),
            "at `b`: expected the field b: 2, got no such field"
        );
        assert_eq!(
            difference("{ a: 1 }", "{ a: 1, c: 3 }"),
            "at `c`: expected no such field, got the field c: 3"
        );
        assert_eq!(
            difference("{ a: 1, b: 2 }", "{ a: 1, c: 2 }"),
            "at `b`: expected the field b: 2, got no such field (field 2 is c)"
        );
        assert_eq!(
            difference(
                "{ d: ISODate('2025-01-01T00:00:00.000Z') }",
                "{ d: ISODate('2025-01-01T00:00:01.000Z') }"
            ),
            "at `d`: expected ISODate('2025-01-01T00:00:00Z'), got ISODate('2025-01-01T00:00:01Z')"
        );
    }

    #[test]
    fn lines_and_errors_are_compared_part_by_part() {
        assert_eq!(
            difference("switched to db shop", "switched to db shops"),
            "expected the line `switched to db shop`, got the line `switched to db shops`"
        );
        assert_eq!(
            difference(
                "MongoServerError[DuplicateKey]: E11000",
                "MongoServerError[CannotIndexParallelArrays]: E11000"
            ),
            "expected the error `MongoServerError[DuplicateKey]: E11000`, \
             got the error `MongoServerError[CannotIndexParallelArrays]: E11000`"
        );
        assert_eq!(
            difference("hello\n[ 1 ]", "hello\n[ 2 ]"),
            "part 2 of the output, at `[0]`: expected 1, got 2"
        );
        assert_eq!(
            difference("[ 1 ]", "[ 1 ]\nType \"it\" for more"),
            "part 2 of the output: expected nothing more, got the line `Type \"it\" for more`"
        );
        assert_eq!(
            difference("10", "ten"),
            "expected the value 10, got the line `ten`"
        );
        assert_eq!(compare_output("", "\n"), Ok(()));
    }

    /// mongosh's DeprecationWarning is a printed line like any other: a step whose expected
    /// output shows it fails when the warning is missing, and the other way round.
    #[test]
    fn a_deprecation_warning_is_part_of_the_output() {
        let warning = "DeprecationWarning: Collection.count() is deprecated. Use countDocuments or estimatedDocumentCount.";
        let shown = format!("{warning}\n3");
        assert_eq!(compare_output(&shown, &shown), Ok(()));
        assert_eq!(
            difference(&shown, "3"),
            format!("part 1 of the output: expected the line `{warning}`, got the value 3")
        );
        assert_eq!(
            difference("3", &shown),
            format!("part 1 of the output: expected the value 3, got the line `{warning}`")
        );
    }
}
