//! `$and $or $not`: boolean logic over MongoDB's truthiness.

use bson::Bson;

use super::operators::{Arity, OperatorDef, arg, positional};
use super::{Expression, Vars, truthy};
use crate::error::Result;

pub const OPERATORS: &[OperatorDef] = &[
    OperatorDef {
        name: "$and",
        arity: Arity::Any,
        parse_args: positional,
        eval: and,
    },
    OperatorDef {
        name: "$or",
        arity: Arity::Any,
        parse_args: positional,
        eval: or,
    },
    OperatorDef {
        name: "$not",
        arity: Arity::Exactly(1),
        parse_args: positional,
        eval: not,
    },
];

fn and(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    for a in args {
        if !truthy(&a.eval(vars)?) {
            return Ok(Some(Bson::Boolean(false)));
        }
    }
    Ok(Some(Bson::Boolean(true)))
}

fn or(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    for a in args {
        if truthy(&a.eval(vars)?) {
            return Ok(Some(Bson::Boolean(true)));
        }
    }
    Ok(Some(Bson::Boolean(false)))
}

fn not(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    Ok(Some(Bson::Boolean(!truthy(&arg(args, 0, vars)?))))
}
