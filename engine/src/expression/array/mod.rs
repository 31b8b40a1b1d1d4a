//! Array operators. This file holds the element-access family (`$arrayElemAt $first $last
//! $concatArrays $in $indexOfArray $reverseArray $size $slice $range`) and the helpers every
//! array file shares; the sub-modules hold the operators that bind variables (`iterate`), the
//! `n`-element operators (`n_elements`), `$sortArray` (`sort`) and `$zip` (`zip`).
//!
//! Messages and codes follow MongoDB 8.0's `expression.cpp`. A value MongoDB prints with
//! `Value::toString()` goes through [`value_text`]; a number it prints after
//! `coerceToDouble()` goes through [`double_text`] (C++ stream formatting, 6 significant digits).

mod elements;
pub mod iterate;
pub mod n_elements;
mod range;
pub mod sort;
pub mod zip;

#[cfg(test)]
mod tests;

use bson::{Bson, doc};

use super::Expression;
use super::operators::{Arity, OperatorDef, positional};
use crate::value::Decimal;
use crate::value::display::{key_value, type_name};

pub const OPERATORS: &[OperatorDef] = &[
    def("$arrayElemAt", Arity::Exactly(2), elements::array_elem_at),
    def("$first", Arity::Exactly(1), elements::first),
    def("$last", Arity::Exactly(1), elements::last),
    def("$concatArrays", Arity::Any, elements::concat_arrays),
    def("$in", Arity::Exactly(2), elements::in_array),
    def(
        "$indexOfArray",
        Arity::Range(2, 4),
        elements::index_of_array,
    ),
    def("$reverseArray", Arity::Exactly(1), elements::reverse_array),
    def("$size", Arity::Exactly(1), elements::size),
    def("$slice", Arity::Range(2, 3), elements::slice),
    def("$range", Arity::Range(2, 3), range::range),
];

const fn def(name: &'static str, arity: Arity, eval: super::operators::Eval) -> OperatorDef {
    OperatorDef {
        name,
        arity,
        parse_args: positional,
        eval,
    }
}

/// The type name MongoDB prints for a value that may be missing.
pub fn type_name_of(v: &Option<Bson>) -> &'static str {
    v.as_ref().map_or("missing", type_name)
}

/// MongoDB's `nullish()`: missing, null or undefined.
pub(super) fn is_nullish(v: &Option<Bson>) -> bool {
    matches!(v, None | Some(Bson::Null | Bson::Undefined))
}

/// MongoDB's `numeric()`.
pub(super) fn is_numeric(v: &Bson) -> bool {
    matches!(
        v,
        Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_) | Bson::Decimal128(_)
    )
}

/// The number as an exact integer, if it is one (`Value::integral64Bit()`).
pub(super) fn as_int64(v: &Bson) -> Option<i64> {
    match v {
        Bson::Int32(i) => Some(i64::from(*i)),
        Bson::Int64(i) => Some(*i),
        Bson::Double(d) => {
            // -2^63 is representable; 2^63 is not.
            if d.fract() == 0.0
                && *d >= -9_223_372_036_854_775_808.0
                && *d < 9.223_372_036_854_776e18
            {
                Some(*d as i64)
            } else {
                None
            }
        }
        Bson::Decimal128(d) => {
            let dec = Decimal::from_bson(d);
            let truncated = dec.to_i64_truncated()?;
            (dec.total_cmp(&Decimal::from_i64(truncated)) == std::cmp::Ordering::Equal)
                .then_some(truncated)
        }
        _ => None,
    }
}

/// The number as an exact 32-bit integer, if it is one (`Value::integral()`).
pub(super) fn as_int32(v: &Bson) -> Option<i32> {
    as_int64(v).and_then(|i| i32::try_from(i).ok())
}

/// A number converted to double and printed as a C++ stream prints a double.
pub(super) fn double_text(v: &Bson) -> String {
    cpp_double(crate::value::as_f64(v).unwrap_or(0.0))
}

/// A double as `std::ostream << double` writes it: `%g` with 6 significant digits.
pub(super) fn cpp_double(d: f64) -> String {
    if d.is_nan() {
        return "nan".into();
    }
    if d.is_infinite() {
        return if d < 0.0 { "-inf".into() } else { "inf".into() };
    }
    if d == 0.0 {
        return if d.is_sign_negative() {
            "-0".into()
        } else {
            "0".into()
        };
    }
    let scientific = format!("{d:.5e}");
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    if !(-4..6).contains(&exponent) {
        let mantissa = strip_zeros(mantissa);
        let sign = if exponent < 0 { '-' } else { '+' };
        return format!("{mantissa}e{sign}{:02}", exponent.abs());
    }
    let decimals = usize::try_from(5 - exponent).unwrap_or(0);
    strip_zeros(&format!("{d:.decimals$}")).to_string()
}

fn strip_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

/// A value as MongoDB's `Value::toString()` writes it (`"abc"` quoted, `{a: 1}`, `[1, 2]`,
/// `MISSING` for a missing value).
pub(super) fn value_text(v: &Option<Bson>) -> String {
    match v {
        None => "MISSING".into(),
        Some(v) => bson_text(v),
    }
}

fn bson_text(v: &Bson) -> String {
    match v {
        Bson::Double(d) => cpp_double(*d),
        Bson::Decimal128(d) => d.to_string(),
        Bson::Undefined => "undefined".into(),
        Bson::Document(d) => {
            let fields: Vec<String> = d
                .iter()
                .map(|(k, v)| format!("{k}: {}", bson_text(v)))
                .collect();
            format!("{{{}}}", fields.join(", "))
        }
        Bson::Array(items) => {
            let items: Vec<String> = items.iter().map(bson_text).collect();
            format!("[{}]", items.join(", "))
        }
        other => key_value(other),
    }
}

/// The value of an expression known when it is parsed: a constant, or an array or document
/// of constants (MongoDB folds those while optimizing, before any document is read).
pub(super) fn constant_value(e: &Expression) -> Option<Bson> {
    match e {
        Expression::Constant(v) => Some(v.clone()),
        Expression::Array(items) => items
            .iter()
            .map(constant_value)
            .collect::<Option<Vec<_>>>()
            .map(Bson::Array),
        Expression::Object(fields) => {
            let mut doc = bson::Document::new();
            for (k, e) in fields {
                doc.insert(k.clone(), constant_value(e)?);
            }
            Some(Bson::Document(doc))
        }
        _ => None,
    }
}

/// The operators of these files that take named arguments serialize them by name, as MongoDB's
/// explain shows them (`{$map: {input, as, in}}`); `None` for any other operator.
pub(super) fn serialize_named(name: &str, args: &[Expression]) -> Option<Bson> {
    let expr = |i: usize| args.get(i).map_or(Bson::Null, Expression::serialize);
    let raw = |i: usize| {
        args.get(i)
            .and_then(Expression::as_constant)
            .cloned()
            .unwrap_or(Bson::Null)
    };
    let spec = match name {
        "$map" => doc! {"input": expr(0), "as": raw(1), "in": expr(2)},
        "$filter" => {
            let mut d = doc! {"input": expr(0), "as": raw(1), "cond": expr(2)};
            if args.len() > 3 {
                d.insert("limit", expr(3));
            }
            d
        }
        "$reduce" => doc! {"input": expr(0), "initialValue": expr(1), "in": expr(2)},
        "$firstN" | "$lastN" | "$maxN" | "$minN" => doc! {"n": expr(0), "input": expr(1)},
        "$sortArray" => doc! {"input": expr(0), "sortBy": raw(1)},
        "$zip" => zip::serialize(args),
        _ => return None,
    };
    let mut out = bson::Document::new();
    out.insert(name, spec);
    Some(Bson::Document(out))
}
