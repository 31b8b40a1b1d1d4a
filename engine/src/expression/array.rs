//! Array operators: `$in`, `$size`.

use bson::Bson;

use super::operators::{Arity, OperatorDef, arg, positional};
use super::{Expression, Vars};
use crate::error::{Error, Result};
use crate::value::{display::type_name, values_equal};

pub const OPERATORS: &[OperatorDef] = &[
    OperatorDef {
        name: "$in",
        arity: Arity::Exactly(2),
        parse_args: positional,
        eval: in_array,
    },
    OperatorDef {
        name: "$size",
        arity: Arity::Exactly(1),
        parse_args: positional,
        eval: size,
    },
];

/// The type name MongoDB prints for a value that may be missing.
pub fn type_name_of(v: &Option<Bson>) -> &'static str {
    v.as_ref().map_or("missing", type_name)
}

fn in_array(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let needle = arg(args, 0, vars)?.unwrap_or(Bson::Undefined);
    let hay = arg(args, 1, vars)?;
    let Some(Bson::Array(items)) = &hay else {
        return Err(Error::location(
            40081,
            format!(
                "$in requires an array as a second argument, found: {}",
                type_name_of(&hay)
            ),
        ));
    };
    Ok(Some(Bson::Boolean(
        items.iter().any(|v| values_equal(v, &needle)),
    )))
}

fn size(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let v = arg(args, 0, vars)?;
    match &v {
        Some(Bson::Array(items)) => Ok(Some(Bson::Int32(
            i32::try_from(items.len()).unwrap_or(i32::MAX),
        ))),
        _ => Err(Error::location(
            17124,
            format!(
                "The argument to $size must be an array. Type of argument was: {}",
                type_name_of(&v)
            ),
        )),
    }
}
