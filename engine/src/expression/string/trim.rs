//! `$trim`, `$ltrim`, `$rtrim`: `{input, chars}`, trimming whole code points.

use bson::Bson;

use super::super::array::type_name_of;
use super::super::named_args::{NamedSpec, named, named_value, nullish};
use super::super::{Expression, Vars};
use super::value_string;
use crate::error::{Error, Result};

pub const SPEC: NamedSpec = NamedSpec {
    fields: &["input", "chars"],
    required: &[("input", 50695, "{op} requires an 'input' field")],
    not_object: (50696, "{op} requires an object as an argument, found: {}"),
    unknown: (50694, "{op} found an unrecognized option: {}"),
};

/// The characters trimmed when `chars` is absent: the null character and Unicode's spaces.
const DEFAULT_CHARS: &[char] = &[
    '\0', ' ', '\t', '\n', '\u{0B}', '\u{0C}', '\r', '\u{A0}', '\u{1680}', '\u{2000}', '\u{2001}',
    '\u{2002}', '\u{2003}', '\u{2004}', '\u{2005}', '\u{2006}', '\u{2007}', '\u{2008}', '\u{2009}',
    '\u{200A}', '\u{2028}', '\u{2029}', '\u{202F}', '\u{205F}', '\u{3000}',
];

#[derive(Clone, Copy)]
enum Side {
    Both,
    Start,
    End,
}

pub fn trim_both(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    trim(args, vars, "$trim", Side::Both)
}

pub fn trim_start(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    trim(args, vars, "$ltrim", Side::Start)
}

pub fn trim_end(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    trim(args, vars, "$rtrim", Side::End)
}

fn trim(args: &[Expression], vars: &Vars<'_>, op: &str, side: Side) -> Result<Option<Bson>> {
    let input = named_value(args, 0, vars)?;
    if nullish(&input) {
        return Ok(Some(Bson::Null));
    }
    let Some(Bson::String(input)) = input else {
        return Err(Error::location(
            50699,
            format!(
                "{op} requires its input to be a string, got {} (of type {}) instead.",
                value_string(&input),
                type_name_of(&input)
            ),
        ));
    };
    let custom: Vec<char>;
    let chars: &[char] = match named(args, 1, vars)? {
        None => DEFAULT_CHARS,
        Some(v) if nullish(&v) => return Ok(Some(Bson::Null)),
        Some(Some(Bson::String(s))) => {
            custom = s.chars().collect();
            &custom
        }
        Some(v) => {
            return Err(Error::location(
                50700,
                format!(
                    "{op} requires 'chars' to be a string, got {} (of type {}) instead.",
                    value_string(&v),
                    type_name_of(&v)
                ),
            ));
        }
    };
    let out = match side {
        Side::Both => input.trim_matches(chars),
        Side::Start => input.trim_start_matches(chars),
        Side::End => input.trim_end_matches(chars),
    };
    Ok(Some(Bson::String(out.to_string())))
}
