//! `$cond` and `$ifNull`.

use bson::Bson;

use super::operators::{Arity, OperatorDef, arg, check_arity, parse_list, positional};
use super::{Expression, Scope, Vars, truthy};
use crate::error::{Error, Result};

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
