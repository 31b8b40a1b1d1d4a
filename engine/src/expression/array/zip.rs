//! `$zip: {inputs: [...], useLongestLength, defaults: [...]}`: transposes arrays. `inputs` and
//! `defaults` must be literal arrays of expressions (MongoDB refuses an expression there).
//! Parsed arguments: `[input count, useLongestLength, inputs..., defaults...]`.

use bson::{Bson, Document, doc};

use super::super::operators::{Arity, OperatorDef};
use super::super::{Expression, Scope, Vars};
use super::{is_nullish, type_name_of, value_text};
use crate::error::{Error, Result};

pub const OPERATORS: &[OperatorDef] = &[OperatorDef {
    name: "$zip",
    arity: Arity::AtLeast(3),
    parse_args: parse_zip,
    eval: zip,
}];

fn parse_zip(_: &'static OperatorDef, arg: &Bson, scope: &Scope) -> Result<Vec<Expression>> {
    let Bson::Document(d) = arg else {
        return Err(Error::location(
            34460,
            format!(
                "$zip only supports an object as an argument, found {}",
                type_name_of(&Some(arg.clone()))
            ),
        ));
    };
    let mut inputs = Vec::new();
    let mut defaults = Vec::new();
    let mut use_longest = false;
    for (k, v) in d {
        match (k.as_str(), v) {
            ("inputs", Bson::Array(items)) => {
                for item in items {
                    inputs.push(Expression::parse_in(item, scope)?);
                }
            }
            ("inputs", other) => {
                return Err(Error::location(
                    34461,
                    format!(
                        "inputs must be an array of expressions, found {}",
                        type_name_of(&Some(other.clone()))
                    ),
                ));
            }
            ("defaults", Bson::Array(items)) => {
                for item in items {
                    defaults.push(Expression::parse_in(item, scope)?);
                }
            }
            ("defaults", other) => {
                return Err(Error::location(
                    34462,
                    format!(
                        "defaults must be an array of expressions, found {}",
                        type_name_of(&Some(other.clone()))
                    ),
                ));
            }
            ("useLongestLength", Bson::Boolean(b)) => use_longest = *b,
            // MongoDB names the type of the whole argument here, which is always an object.
            ("useLongestLength", _) => {
                return Err(Error::location(
                    34463,
                    "useLongestLength must be a bool, found object",
                ));
            }
            (other, _) => {
                return Err(Error::location(
                    34464,
                    format!("$zip found an unknown argument: {other}"),
                ));
            }
        }
    }
    if inputs.is_empty() {
        return Err(Error::location(
            34465,
            "$zip requires at least one input array",
        ));
    }
    if !use_longest && !defaults.is_empty() {
        return Err(Error::location(
            34466,
            "cannot specify defaults unless useLongestLength is true",
        ));
    }
    if !defaults.is_empty() && defaults.len() != inputs.len() {
        return Err(Error::location(
            34467,
            "defaults and inputs must have the same length",
        ));
    }
    let count = i64::try_from(inputs.len()).unwrap_or(i64::MAX);
    let mut args = vec![
        Expression::Constant(Bson::Int64(count)),
        Expression::Constant(Bson::Boolean(use_longest)),
    ];
    args.extend(inputs);
    args.extend(defaults);
    Ok(args)
}

fn zip(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let count = match args.first().and_then(Expression::as_constant) {
        Some(Bson::Int64(n)) => usize::try_from(*n).unwrap_or(0),
        _ => 0,
    };
    let use_longest = matches!(
        args.get(1).and_then(Expression::as_constant),
        Some(Bson::Boolean(true))
    );
    let inputs = args.get(2..2 + count).unwrap_or_default();
    let defaults = args.get(2 + count..).unwrap_or_default();
    let mut arrays = Vec::with_capacity(count);
    for input in inputs {
        let v = input.eval(vars)?;
        if is_nullish(&v) {
            return Ok(Some(Bson::Null));
        }
        match v {
            Some(Bson::Array(items)) => arrays.push(items),
            other => {
                return Err(Error::location(
                    34468,
                    format!(
                        "$zip found a non-array expression in input: {}",
                        value_text(&other)
                    ),
                ));
            }
        }
    }
    let shortest = arrays.iter().map(Vec::len).min().unwrap_or(0);
    let longest = arrays.iter().map(Vec::len).max().unwrap_or(0);
    let mut fill = vec![Bson::Null; count];
    if shortest != longest {
        for (slot, e) in fill.iter_mut().zip(defaults) {
            *slot = e.eval(vars)?.unwrap_or(Bson::Null);
        }
    }
    let length = if use_longest { longest } else { shortest };
    let rows = (0..length)
        .map(|row| {
            Bson::Array(
                arrays
                    .iter()
                    .zip(&fill)
                    .map(|(array, default)| array.get(row).unwrap_or(default).clone())
                    .collect(),
            )
        })
        .collect();
    Ok(Some(Bson::Array(rows)))
}

/// `{inputs, defaults, useLongestLength}` as MongoDB serializes it.
pub(super) fn serialize(args: &[Expression]) -> Document {
    let count = match args.first().and_then(Expression::as_constant) {
        Some(Bson::Int64(n)) => usize::try_from(*n).unwrap_or(0),
        _ => 0,
    };
    let list = |from: usize, to: usize| {
        Bson::Array(
            args.get(from..to.max(from))
                .unwrap_or_default()
                .iter()
                .map(Expression::serialize)
                .collect(),
        )
    };
    let use_longest = args
        .get(1)
        .and_then(Expression::as_constant)
        .cloned()
        .unwrap_or(Bson::Boolean(false));
    doc! {
        "inputs": list(2, 2 + count),
        "defaults": list(2 + count, args.len()),
        "useLongestLength": use_longest,
    }
}
