//! The operators that evaluate an expression per element with the element bound to a variable:
//! `$map` and `$filter` (`as`, default `this`) and `$reduce` (`$$this` and `$$value`).
//!
//! Parsed arguments: `$map` → `[input, as, in]`, `$filter` → `[input, as, cond, limit?]`,
//! `$reduce` → `[input, initialValue, in]`; a variable name travels as a string constant.

use bson::{Bson, Document};

use super::super::memory::{ArrayBudget, value_memory};
use super::super::operators::{Arity, OperatorDef};
use super::super::{Expression, Scope, Vars, truthy};
use super::{as_int32, is_nullish, type_name_of, value_text};
use crate::error::{Error, Result};

pub const OPERATORS: &[OperatorDef] = &[
    OperatorDef {
        name: "$map",
        arity: Arity::Exactly(3),
        parse_args: parse_map,
        eval: map,
    },
    OperatorDef {
        name: "$filter",
        arity: Arity::Range(3, 4),
        parse_args: parse_filter,
        eval: filter,
    },
    OperatorDef {
        name: "$reduce",
        arity: Arity::Exactly(3),
        parse_args: parse_reduce,
        eval: reduce,
    },
];

/// The argument document of an operator that takes named parameters.
fn spec<'a>(arg: &'a Bson, code: i32, message: &str) -> Result<&'a Document> {
    match arg {
        Bson::Document(d) => Ok(d),
        _ => Err(Error::location(code, message.to_string())),
    }
}

/// MongoDB's rules for a variable an operator defines (`validateNameForUserWrite`): a
/// lowercase ASCII letter or a non-ASCII character first, then letters, digits, `_`, non-ASCII.
pub(super) fn check_variable_name_for_write(name: &str) -> Result<()> {
    if name == "CURRENT" {
        return Ok(());
    }
    let mut chars = name.chars();
    let Some(first) = chars.next() else {
        return Err(Error::location(
            16866,
            "empty variable names are not allowed",
        ));
    };
    if first.is_ascii() && !first.is_ascii_lowercase() {
        return Err(Error::location(
            16867,
            format!("'{name}' starts with an invalid character for a user variable name"),
        ));
    }
    if let Some(bad) = chars.find(|c| c.is_ascii() && !(c.is_ascii_alphanumeric() || *c == '_')) {
        return Err(Error::location(
            16868,
            format!("'{name}' contains an invalid character for a variable name: '{bad}'"),
        ));
    }
    Ok(())
}

/// The variable an `as` field names (`this` when absent; a non-string names the empty string,
/// which is refused), validated and added to a copy of the scope.
fn bind_as(as_field: Option<&Bson>, scope: &Scope) -> Result<(String, Scope)> {
    let name = match as_field {
        None => "this".to_string(),
        Some(Bson::String(s)) => s.clone(),
        Some(_) => String::new(),
    };
    check_variable_name_for_write(&name)?;
    let mut inner = scope.clone();
    inner.bind(&name);
    Ok((name, inner))
}

fn parse_map(_: &'static OperatorDef, arg: &Bson, scope: &Scope) -> Result<Vec<Expression>> {
    let d = spec(arg, 16878, "$map only supports an object as its argument")?;
    let (mut input, mut as_field, mut each) = (None, None, None);
    for (k, v) in d {
        match k.as_str() {
            "input" => input = Some(v),
            "as" => as_field = Some(v),
            "in" => each = Some(v),
            other => {
                return Err(Error::location(
                    16879,
                    format!("Unrecognized parameter to $map: {other}"),
                ));
            }
        }
    }
    let input = input.ok_or_else(|| Error::location(16880, "Missing 'input' parameter to $map"))?;
    let each = each.ok_or_else(|| Error::location(16882, "Missing 'in' parameter to $map"))?;
    let input = Expression::parse_in(input, scope)?;
    let (name, inner) = bind_as(as_field, scope)?;
    let each = Expression::parse_in(each, &inner)?;
    Ok(vec![input, Expression::Constant(Bson::String(name)), each])
}

fn parse_filter(_: &'static OperatorDef, arg: &Bson, scope: &Scope) -> Result<Vec<Expression>> {
    let d = spec(
        arg,
        28646,
        "$filter only supports an object as its argument",
    )?;
    let (mut input, mut as_field, mut cond, mut limit) = (None, None, None, None);
    for (k, v) in d {
        match k.as_str() {
            "input" => input = Some(v),
            "as" => as_field = Some(v),
            "cond" => cond = Some(v),
            "limit" => limit = Some(v),
            other => {
                return Err(Error::location(
                    28647,
                    format!("Unrecognized parameter to $filter: {other}"),
                ));
            }
        }
    }
    let input =
        input.ok_or_else(|| Error::location(28648, "Missing 'input' parameter to $filter"))?;
    let cond = cond.ok_or_else(|| Error::location(28650, "Missing 'cond' parameter to $filter"))?;
    let input = Expression::parse_in(input, scope)?;
    let (name, inner) = bind_as(as_field, scope)?;
    let mut args = vec![
        input,
        Expression::Constant(Bson::String(name)),
        Expression::parse_in(cond, &inner)?,
    ];
    if let Some(limit) = limit {
        args.push(Expression::parse_in(limit, scope)?);
    }
    Ok(args)
}

fn parse_reduce(_: &'static OperatorDef, arg: &Bson, scope: &Scope) -> Result<Vec<Expression>> {
    let Bson::Document(d) = arg else {
        return Err(Error::location(
            40075,
            format!(
                "$reduce requires an object as an argument, found: {}",
                type_name_of(&Some(arg.clone()))
            ),
        ));
    };
    let mut inner = scope.clone();
    inner.bind("this");
    inner.bind("value");
    let (mut input, mut initial, mut each) = (None, None, None);
    for (k, v) in d {
        match k.as_str() {
            "input" => input = Some(Expression::parse_in(v, scope)?),
            "initialValue" => initial = Some(Expression::parse_in(v, scope)?),
            "in" => each = Some(Expression::parse_in(v, &inner)?),
            other => {
                return Err(Error::location(
                    40076,
                    format!("$reduce found an unknown argument: {other}"),
                ));
            }
        }
    }
    let input =
        input.ok_or_else(|| Error::location(40077, "$reduce requires 'input' to be specified"))?;
    let initial = initial
        .ok_or_else(|| Error::location(40078, "$reduce requires 'initialValue' to be specified"))?;
    let each =
        each.ok_or_else(|| Error::location(40079, "$reduce requires 'in' to be specified"))?;
    Ok(vec![input, initial, each])
}

/// The name a parsed `as` argument carries.
fn variable_name(args: &[Expression]) -> String {
    match args.get(1) {
        Some(Expression::Constant(Bson::String(s))) => s.clone(),
        _ => "this".to_string(),
    }
}

/// The per-element variable of `$map` and `$filter`. Naming it `CURRENT` rebinds `$$CURRENT`,
/// so that `"$a"` reads the element's field (a non-document element has no fields).
struct ElementBinding<'v, 'a> {
    vars: &'v Vars<'a>,
    name: String,
    bound: Vec<(String, Bson)>,
}

impl<'v, 'a> ElementBinding<'v, 'a> {
    fn new(vars: &'v Vars<'a>, name: String) -> Self {
        let mut bound = vars.bound.to_vec();
        bound.push((name.clone(), Bson::Null));
        ElementBinding { vars, name, bound }
    }

    fn eval(&mut self, e: &Expression, item: &Bson) -> Result<Option<Bson>> {
        if self.name == "CURRENT" {
            let empty = Document::new();
            let current = match item {
                Bson::Document(d) => d,
                _ => &empty,
            };
            return e.eval(&Vars {
                current,
                ..*self.vars
            });
        }
        if let Some(slot) = self.bound.last_mut() {
            slot.1 = item.clone();
        }
        e.eval(&self.vars.rebound(&self.bound))
    }
}

/// Evaluates the input of `$map` or `$filter`: `Ok(None)` when it is nullish (the result is
/// null), the elements otherwise.
fn input_array(
    args: &[Expression],
    vars: &Vars<'_>,
    code: i32,
    op: &str,
) -> Result<Option<Vec<Bson>>> {
    let v = match args.first() {
        Some(e) => e.eval(vars)?,
        None => None,
    };
    if is_nullish(&v) {
        return Ok(None);
    }
    match v {
        Some(Bson::Array(items)) => Ok(Some(items)),
        other => Err(Error::location(
            code,
            format!(
                "input to {op} must be an array not {}",
                type_name_of(&other)
            ),
        )),
    }
}

fn map(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let Some(items) = input_array(args, vars, 16883, "$map")? else {
        return Ok(Some(Bson::Null));
    };
    let Some(each) = args.get(2) else {
        return Ok(Some(Bson::Null));
    };
    let mut element = ElementBinding::new(vars, variable_name(args));
    let mut out = Vec::with_capacity(items.len());
    let mut budget = ArrayBudget::new("$map");
    for item in items {
        // A missing result cannot sit in an array: it becomes null.
        let v = element.eval(each, &item)?.unwrap_or(Bson::Null);
        budget.add(value_memory(&v))?;
        out.push(v);
    }
    Ok(Some(Bson::Array(out)))
}

fn filter(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let Some(items) = input_array(args, vars, 28651, "$filter")? else {
        return Ok(Some(Bson::Null));
    };
    if items.is_empty() {
        return Ok(Some(Bson::Array(items)));
    }
    let mut remaining = match args.get(3) {
        Some(limit) => filter_limit(limit.eval(vars)?)?,
        None => None,
    };
    let Some(cond) = args.get(2) else {
        return Ok(Some(Bson::Null));
    };
    let mut element = ElementBinding::new(vars, variable_name(args));
    let mut out = Vec::new();
    for item in items {
        if truthy(&element.eval(cond, &item)?) {
            out.push(item);
            if let Some(n) = remaining.as_mut() {
                *n -= 1;
                if *n == 0 {
                    break;
                }
            }
        }
    }
    Ok(Some(Bson::Array(out)))
}

/// `$filter`'s limit: none when nullish, else a positive 32-bit integer.
fn filter_limit(v: Option<Bson>) -> Result<Option<i32>> {
    if is_nullish(&v) {
        return Ok(None);
    }
    let Some(n) = v.as_ref().and_then(as_int32) else {
        return Err(Error::location(
            327391,
            format!(
                "$filter: limit must be represented as a 32-bit integral value: {}",
                value_text(&v)
            ),
        ));
    };
    if n <= 0 {
        return Err(Error::location(
            327392,
            format!("$filter: limit must be greater than 0: {}", value_text(&v)),
        ));
    }
    Ok(Some(n))
}

fn reduce(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let input = match args.first() {
        Some(e) => e.eval(vars)?,
        None => None,
    };
    if is_nullish(&input) {
        return Ok(Some(Bson::Null));
    }
    let Some(Bson::Array(items)) = input else {
        return Err(Error::location(
            40080,
            format!(
                "$reduce requires that 'input' be an array, found: {}",
                value_text(&input)
            ),
        ));
    };
    let (Some(initial), Some(each)) = (args.get(1), args.get(2)) else {
        return Ok(Some(Bson::Null));
    };
    let mut accumulated = initial.eval(vars)?;
    let mut bound = vars.bound.to_vec();
    let this_slot = bound.len();
    bound.push(("this".into(), Bson::Null));
    bound.push(("value".into(), Bson::Null));
    for item in items {
        bound[this_slot].1 = item;
        // A missing accumulated value stays missing: the binding is renamed out of reach
        // (no user variable can be named "").
        bound[this_slot + 1] = match accumulated.take() {
            Some(v) => ("value".into(), v),
            None => (String::new(), Bson::Null),
        };
        accumulated = each.eval(&vars.rebound(&bound))?;
    }
    Ok(accumulated)
}
