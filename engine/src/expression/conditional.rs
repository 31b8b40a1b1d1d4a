//! `$cond`, `$ifNull` and `$switch`.

use bson::Bson;

use super::operators::{Arity, OperatorDef, arg, check_arity, parse_list, positional};
use super::{Expression, Scope, Vars, truthy};
use crate::error::{Error, Result};
use crate::value::display::type_name;

pub const OPERATORS: &[OperatorDef] = &[
    OperatorDef {
        name: "$cond",
        arity: Arity::Exactly(3),
        parse_args: parse_cond,
        eval: cond,
    },
    OperatorDef {
        name: "$ifNull",
        arity: Arity::AtLeast(2),
        parse_args: parse_if_null,
        eval: if_null,
    },
    OperatorDef {
        name: "$switch",
        arity: Arity::Any,
        parse_args: parse_switch,
        eval: switch,
    },
];

/// `$cond: [if, then, else]` or `$cond: {if, then, else}`.
fn parse_cond(def: &'static OperatorDef, arg: &Bson, scope: &Scope) -> Result<Vec<Expression>> {
    let Bson::Document(d) = arg else {
        return positional(def, arg, scope);
    };
    let mut parts: [Option<Expression>; 3] = [None, None, None];
    for (k, v) in d {
        let slot = match k.as_str() {
            "if" => 0,
            "then" => 1,
            "else" => 2,
            other => {
                return Err(Error::location(
                    17083,
                    format!("Unrecognized parameter to $cond: {other}"),
                ));
            }
        };
        if let Some(p) = parts.get_mut(slot) {
            *p = Some(Expression::parse_in(v, scope)?);
        }
    }
    let [i, t, e] = parts;
    let i = i.ok_or_else(|| Error::location(17080, "Missing 'if' parameter to $cond"))?;
    let t = t.ok_or_else(|| Error::location(17081, "Missing 'then' parameter to $cond"))?;
    let e = e.ok_or_else(|| Error::location(17082, "Missing 'else' parameter to $cond"))?;
    Ok(vec![i, t, e])
}

fn cond(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    if truthy(&arg(args, 0, vars)?) {
        arg(args, 1, vars)
    } else {
        arg(args, 2, vars)
    }
}

fn parse_if_null(def: &'static OperatorDef, arg: &Bson, scope: &Scope) -> Result<Vec<Expression>> {
    let args = parse_list(arg, scope)?;
    if args.len() < 2 {
        return Err(Error::location(
            1257300,
            format!("$ifNull needs at least two arguments, had: {}", args.len()),
        ));
    }
    check_arity(def, args.len())?;
    Ok(args)
}

/// The first argument that is neither null nor missing (nor undefined); else the last.
fn if_null(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let Some((last, firsts)) = args.split_last() else {
        return Ok(None);
    };
    for a in firsts {
        match a.eval(vars)? {
            None | Some(Bson::Null | Bson::Undefined) => continue,
            v => return Ok(v),
        }
    }
    last.eval(vars)
}

/// `$switch: {branches: [{case, then}, …], default}`. Arguments: `[case1, then1, …]`, then the
/// default when there is one (an odd count).
fn parse_switch(_def: &'static OperatorDef, arg: &Bson, scope: &Scope) -> Result<Vec<Expression>> {
    let Bson::Document(spec) = arg else {
        return Err(Error::location(
            40060,
            format!(
                "$switch requires an object as an argument, found: {}",
                type_name(arg)
            ),
        ));
    };
    let mut args = Vec::new();
    let mut default = None;
    for (k, v) in spec {
        match k.as_str() {
            "branches" => {
                let Bson::Array(branches) = v else {
                    return Err(Error::location(
                        40061,
                        format!(
                            "$switch expected an array for 'branches', found: {}",
                            type_name(v)
                        ),
                    ));
                };
                for branch in branches {
                    let (case, then) = parse_branch(branch, scope)?;
                    args.push(case);
                    args.push(then);
                }
            }
            "default" => default = Some(Expression::parse_in(v, scope)?),
            other => {
                return Err(Error::location(
                    40067,
                    format!("$switch found an unknown argument: {other}"),
                ));
            }
        }
    }
    if args.is_empty() {
        return Err(Error::location(
            40068,
            "$switch requires at least one branch.",
        ));
    }
    args.extend(default);
    Ok(args)
}

fn parse_branch(branch: &Bson, scope: &Scope) -> Result<(Expression, Expression)> {
    let Bson::Document(b) = branch else {
        return Err(Error::location(
            40062,
            format!(
                "$switch expected each branch to be an object, found: {}",
                type_name(branch)
            ),
        ));
    };
    let (mut case, mut then) = (None, None);
    for (k, v) in b {
        match k.as_str() {
            "case" => case = Some(Expression::parse_in(v, scope)?),
            "then" => then = Some(Expression::parse_in(v, scope)?),
            other => {
                return Err(Error::location(
                    40063,
                    format!("$switch found an unknown argument to a branch: {other}"),
                ));
            }
        }
    }
    let case = case.ok_or_else(|| {
        Error::location(
            40064,
            "$switch requires each branch have a 'case' expression",
        )
    })?;
    let then = then.ok_or_else(|| {
        Error::location(
            40065,
            "$switch requires each branch have a 'then' expression.",
        )
    })?;
    Ok((case, then))
}

fn switch(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let mut branches = args.chunks_exact(2);
    for pair in branches.by_ref() {
        if let [case, then] = pair
            && truthy(&case.eval(vars)?)
        {
            return then.eval(vars);
        }
    }
    match branches.remainder() {
        [default] => default.eval(vars),
        _ => Err(Error::location(
            40066,
            "$switch could not find a matching branch for an input, and no default was \
             specified.",
        )),
    }
}
