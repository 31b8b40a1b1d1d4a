//! `$replaceOne` and `$replaceAll`: `{input, find, replacement}`, all strings.

use bson::Bson;

use super::super::named_args::{NamedSpec, named_value, nullish};
use super::super::{Expression, Vars};
use super::builder::StringBuilder;
use super::value_string;
use crate::error::{Error, Result};

pub const SPEC: NamedSpec = NamedSpec {
    fields: &["input", "find", "replacement"],
    required: &[
        ("input", 51749, "{op} requires 'input' to be specified"),
        ("find", 51748, "{op} requires 'find' to be specified"),
        (
            "replacement",
            51747,
            "{op} requires 'replacement' to be specified",
        ),
    ],
    not_object: (51751, "{op} requires an object as an argument, found: {}"),
    unknown: (51750, "{op} found an unknown argument: {}"),
};

/// The three strings, or `None` when any is null or missing (after every type is checked).
fn operands(
    op: &str,
    args: &[Expression],
    vars: &Vars<'_>,
) -> Result<Option<(String, String, String)>> {
    let mut values = Vec::with_capacity(3);
    for (i, (name, code)) in [("input", 51746), ("find", 51745), ("replacement", 51744)]
        .into_iter()
        .enumerate()
    {
        let v = named_value(args, i, vars)?;
        if !nullish(&v) && !matches!(v, Some(Bson::String(_))) {
            return Err(Error::location(
                code,
                format!(
                    "{op} requires that '{name}' be a string, found: {}",
                    value_string(&v)
                ),
            ));
        }
        values.push(v);
    }
    let mut strings = values.into_iter().map(|v| match v {
        Some(Bson::String(s)) => Some(s),
        _ => None,
    });
    Ok(match (strings.next(), strings.next(), strings.next()) {
        (Some(Some(i)), Some(Some(f)), Some(Some(r))) => Some((i, f, r)),
        _ => None,
    })
}

pub fn replace_one(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let Some((input, find, replacement)) = operands("$replaceOne", args, vars)? else {
        return Ok(Some(Bson::Null));
    };
    Ok(Some(Bson::String(replace(&input, &find, &replacement, 1)?)))
}

pub fn replace_all(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let Some((input, find, replacement)) = operands("$replaceAll", args, vars)? else {
        return Ok(Some(Bson::Null));
    };
    // An empty `find` matches before every character and at the end (MongoDB inserts between
    // bytes; between code points keeps the string valid UTF-8).
    Ok(Some(Bson::String(replace(
        &input,
        &find,
        &replacement,
        usize::MAX,
    )?)))
}

/// `input` with its first `times` occurrences of `find` replaced (as `str::replacen`), built
/// under MongoDB's 64 MB string cap.
fn replace(input: &str, find: &str, replacement: &str, times: usize) -> Result<String> {
    let mut out = StringBuilder::default();
    let mut last = 0;
    for (at, found) in input.match_indices(find).take(times) {
        out.push(&input[last..at])?;
        out.push(replacement)?;
        last = at + found.len();
    }
    out.push(&input[last..])?;
    Ok(out.finish())
}
