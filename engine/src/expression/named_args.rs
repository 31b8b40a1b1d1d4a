//! Operators whose argument is a document of named fields (`{$trim: {input, chars}}`,
//! `{$dateToString: {date, format, timezone, onNull}}`).
//!
//! The parsed arguments keep one slot per declared field, in declaration order, after a leading
//! constant that records which fields were written: MongoDB tells an absent field (use the
//! default) from a field whose expression evaluates to missing.

use bson::Bson;

use super::array::type_name_of;
use super::operators::arg;
use super::{Expression, Scope, Vars};
use crate::error::{Error, Result};

/// The fields an operator accepts and the errors it gives for a malformed argument. In the
/// messages, `{op}` stands for the operator's name and `{}` for the type or field name.
pub struct NamedSpec {
    pub fields: &'static [&'static str],
    /// Fields that must be present, with the error when one is not.
    pub required: &'static [(&'static str, i32, &'static str)],
    /// The error for an argument that is not a document (`{}` is replaced by the type name).
    pub not_object: (i32, &'static str),
    /// The error for an unknown field (`{}` is replaced by the field name).
    pub unknown: (i32, &'static str),
}

/// An operator whose argument is the named-field document `$spec` describes.
macro_rules! named_operator {
    ($name:expr, $spec:path, $eval:expr) => {
        $crate::expression::operators::OperatorDef {
            name: $name,
            arity: $crate::expression::operators::Arity::Any,
            parse_args: |def, arg, scope| {
                $crate::expression::named_args::parse_named(def.name, &$spec, arg, scope)
            },
            eval: $eval,
        }
    };
}
pub(crate) use named_operator;

/// Parses a named-argument document into slots.
pub fn parse_named(
    op: &str,
    spec: &NamedSpec,
    arg: &Bson,
    scope: &Scope,
) -> Result<Vec<Expression>> {
    let fail = |(code, msg): (i32, &str), part: &str| {
        Error::location(code, msg.replace("{op}", op).replace("{}", part))
    };
    let Bson::Document(d) = arg else {
        return Err(fail(spec.not_object, type_name_of(&Some(arg.clone()))));
    };
    let mut slots: Vec<Option<Expression>> = vec![None; spec.fields.len()];
    for (k, v) in d {
        let Some(i) = spec.fields.iter().position(|f| f == k) else {
            return Err(fail(spec.unknown, k));
        };
        slots[i] = Some(Expression::parse_in(v, scope)?);
    }
    for (field, code, msg) in spec.required {
        if let Some(i) = spec.fields.iter().position(|f| f == field)
            && slots[i].is_none()
        {
            return Err(fail((*code, msg), ""));
        }
    }
    let mask = slots
        .iter()
        .enumerate()
        .filter(|(_, s)| s.is_some())
        .fold(0i64, |m, (i, _)| m | (1 << i));
    let mut args = Vec::with_capacity(slots.len() + 1);
    args.push(Expression::Constant(Bson::Int64(mask)));
    args.extend(
        slots
            .into_iter()
            .map(|s| s.unwrap_or(Expression::Constant(Bson::Null))),
    );
    Ok(args)
}

/// Whether field `i` (in declaration order) was written.
pub fn is_present(args: &[Expression], i: usize) -> bool {
    matches!(args.first(), Some(Expression::Constant(Bson::Int64(mask))) if mask & (1 << i) != 0)
}

/// Evaluates field `i`: `None` when the field was not written, `Some(value)` otherwise (the
/// value itself may be missing).
pub fn named(args: &[Expression], i: usize, vars: &Vars<'_>) -> Result<Option<Option<Bson>>> {
    if !is_present(args, i) {
        return Ok(None);
    }
    Ok(Some(arg(args, i + 1, vars)?))
}

/// Evaluates field `i`, absent and missing alike giving `None`.
pub fn named_value(args: &[Expression], i: usize, vars: &Vars<'_>) -> Result<Option<Bson>> {
    Ok(named(args, i, vars)?.flatten())
}

/// Whether a value is null, undefined or missing (MongoDB's "nullish").
pub fn nullish(v: &Option<Bson>) -> bool {
    matches!(v, None | Some(Bson::Null | Bson::Undefined))
}
