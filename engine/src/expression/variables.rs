//! `$let`: binds variables for its `in` expression. The variables' values are evaluated in the
//! enclosing scope (one cannot name another of the same `$let`), as in MongoDB. Binding
//! `CURRENT` changes what `"$field"` paths read.

use bson::{Bson, Document};

use super::field_path::check_variable_name_for_write;
use super::operators::{Arity, OperatorDef};
use super::{Expression, Scope, Vars};
use crate::error::{Error, Result};

pub const OPERATORS: &[OperatorDef] = &[OperatorDef {
    name: "$let",
    arity: Arity::Any,
    parse_args: parse_let,
    eval: let_in,
}];

/// Arguments: `[name1, value1, name2, value2, …, in]`, each name a string constant.
fn parse_let(_def: &'static OperatorDef, arg: &Bson, scope: &Scope) -> Result<Vec<Expression>> {
    let Bson::Document(spec) = arg else {
        return Err(Error::location(
            16874,
            "$let only supports an object as its argument",
        ));
    };
    let (mut vars, mut body) = (None, None);
    for (k, v) in spec {
        match k.as_str() {
            "vars" => vars = Some(v),
            "in" => body = Some(v),
            other => {
                return Err(Error::location(
                    16875,
                    format!("Unrecognized parameter to $let: {other}"),
                ));
            }
        }
    }
    let vars = vars.ok_or_else(|| Error::location(16876, "Missing 'vars' parameter to $let"))?;
    let body = body.ok_or_else(|| Error::location(16877, "Missing 'in' parameter to $let"))?;
    let Bson::Document(vars) = vars else {
        return Err(Error::location(
            10065,
            "invalid parameter: expected an object (vars)",
        ));
    };
    let mut inner = scope.clone();
    let mut args = Vec::with_capacity(vars.len() * 2 + 1);
    for (name, value) in vars {
        if name != "CURRENT" {
            check_variable_name_for_write(name)?;
        }
        args.push(Expression::Constant(Bson::String(name.clone())));
        args.push(Expression::parse_in(value, scope)?);
        if name != "CURRENT" {
            inner.bind(name);
        }
    }
    args.push(Expression::parse_in(body, &inner)?);
    Ok(args)
}

/// The name under which a non-document `CURRENT` is kept among the bound variables (user
/// variable names cannot start with an upper-case letter, so no user variable has it).
pub const CURRENT_SCALAR: &str = "CURRENT";

fn let_in(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let Some((body, pairs)) = args.split_last() else {
        return Ok(None);
    };
    let mut bound = vars.bound.to_vec();
    let mut current: Option<Document> = None;
    for pair in pairs.chunks(2) {
        let [Expression::Constant(Bson::String(name)), value] = pair else {
            continue;
        };
        // A missing value binds as missing, which reads back as missing.
        let v = value.eval(vars)?;
        if name == "CURRENT" {
            // A document becomes what `"$field"` paths read; any other value is what
            // `$$CURRENT` reads (and `"$field"` finds nothing in it), as in MongoDB, where
            // `{$let: {vars: {CURRENT: "$three"}, in: {$multiply: ["$$CURRENT", 2]}}}` works.
            bound.retain(|(n, _)| n != CURRENT_SCALAR);
            match v {
                Some(Bson::Document(d)) => current = Some(d),
                Some(other) => {
                    current = Some(Document::new());
                    bound.push((CURRENT_SCALAR.to_string(), other));
                }
                None => {
                    current = Some(Document::new());
                    bound.push((CURRENT_SCALAR.to_string(), Bson::Undefined));
                }
            }
            continue;
        }
        match v {
            Some(v) => bound.push((name.clone(), v)),
            None => bound.retain(|(n, _)| n != name),
        }
    }
    let mut inner = vars.rebound(&bound);
    if let Some(doc) = &current {
        inner.current = doc;
    }
    body.eval(&inner)
}
