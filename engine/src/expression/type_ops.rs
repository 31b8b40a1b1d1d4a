//! Type operators: `$isArray`, `$isNumber`, `$type`.

use bson::Bson;

use super::operators::{Arity, OperatorDef, arg, positional};
use super::{Expression, Vars};
use crate::error::Result;
use crate::value::display::type_name;

pub const OPERATORS: &[OperatorDef] = &[
    OperatorDef {
        name: "$isArray",
        arity: Arity::Exactly(1),
        parse_args: positional,
        eval: is_array,
    },
    OperatorDef {
        name: "$isNumber",
        arity: Arity::Exactly(1),
        parse_args: positional,
        eval: is_number,
    },
    OperatorDef {
        name: "$type",
        arity: Arity::Exactly(1),
        parse_args: positional,
        eval: type_of,
    },
];

fn is_array(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let v = arg(args, 0, vars)?;
    Ok(Some(Bson::Boolean(matches!(v, Some(Bson::Array(_))))))
}

fn is_number(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let v = arg(args, 0, vars)?;
    Ok(Some(Bson::Boolean(matches!(
        v,
        Some(Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_) | Bson::Decimal128(_))
    ))))
}

/// The type's alias, or `"missing"` for a missing value.
fn type_of(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let v = arg(args, 0, vars)?;
    Ok(Some(Bson::String(
        v.as_ref().map_or("missing", type_name).to_string(),
    )))
}
