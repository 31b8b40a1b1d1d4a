//! `$eq $ne $gt $gte $lt $lte $cmp`: comparisons in MongoDB's total order across types
//! (a missing value compares as undefined, below null).

use std::cmp::Ordering;

use bson::Bson;

use super::operators::{Arity, OperatorDef, arg, positional};
use super::{Expression, Vars};
use crate::error::Result;
use crate::value::compare_values;

pub const OPERATORS: &[OperatorDef] = &[
    binary("$eq", eq),
    binary("$ne", ne),
    binary("$gt", gt),
    binary("$gte", gte),
    binary("$lt", lt),
    binary("$lte", lte),
    binary("$cmp", cmp),
];

const fn binary(name: &'static str, eval: super::operators::Eval) -> OperatorDef {
    OperatorDef {
        name,
        arity: Arity::Exactly(2),
        parse_args: positional,
        eval,
    }
}

/// Orders two evaluated arguments; missing compares as undefined.
pub fn order(args: &[Expression], vars: &Vars<'_>) -> Result<Ordering> {
    let a = arg(args, 0, vars)?.unwrap_or(Bson::Undefined);
    let b = arg(args, 1, vars)?.unwrap_or(Bson::Undefined);
    Ok(compare_values(&a, &b))
}

fn eq(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    Ok(Some(Bson::Boolean(order(args, vars)? == Ordering::Equal)))
}
fn ne(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    Ok(Some(Bson::Boolean(order(args, vars)? != Ordering::Equal)))
}
fn gt(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    Ok(Some(Bson::Boolean(order(args, vars)? == Ordering::Greater)))
}
fn gte(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    Ok(Some(Bson::Boolean(order(args, vars)? != Ordering::Less)))
}
fn lt(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    Ok(Some(Bson::Boolean(order(args, vars)? == Ordering::Less)))
}
fn lte(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    Ok(Some(Bson::Boolean(order(args, vars)? != Ordering::Greater)))
}
fn cmp(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    Ok(Some(Bson::Int32(match order(args, vars)? {
        Ordering::Less => -1,
        Ordering::Equal => 0,
        Ordering::Greater => 1,
    })))
}
