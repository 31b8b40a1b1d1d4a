//! `$firstN $lastN $maxN $minN` in their expression form: `{n, input}` over an array.
//! Parsed arguments: `[n, input]`.

use std::cmp::Ordering;

use bson::Bson;

use super::super::operators::{Arity, OperatorDef, arg};
use super::super::{Expression, Scope, Vars};
use super::{as_int64, is_nullish, is_numeric, value_text};
use crate::error::{Error, Result};
use crate::value::compare_values;
use crate::value::display::key_value;

pub const OPERATORS: &[OperatorDef] = &[
    n_operator("$firstN", first_n),
    n_operator("$lastN", last_n),
    n_operator("$maxN", max_n),
    n_operator("$minN", min_n),
];

const fn n_operator(name: &'static str, eval: super::super::operators::Eval) -> OperatorDef {
    OperatorDef {
        name,
        arity: Arity::Exactly(2),
        parse_args: parse_n,
        eval,
    }
}

fn parse_n(def: &'static OperatorDef, arg: &Bson, scope: &Scope) -> Result<Vec<Expression>> {
    let Bson::Document(d) = arg else {
        let code = if matches!(def.name, "$firstN" | "$lastN") {
            5787801
        } else {
            5787900
        };
        return Err(Error::location(
            code,
            format!(
                "specification must be an object; found {}: {}",
                def.name,
                key_value(arg)
            ),
        ));
    };
    let (mut n, mut input) = (None, None);
    for (k, v) in d {
        match k.as_str() {
            "n" => n = Some(Expression::parse_in(v, scope)?),
            "input" => input = Some(Expression::parse_in(v, scope)?),
            other => {
                return Err(Error::location(
                    5787901,
                    format!("Unknown argument for 'n' operator: {other}"),
                ));
            }
        }
    }
    let n = n.ok_or_else(|| Error::location(5787906, "Missing value for 'n'"))?;
    let input = input.ok_or_else(|| Error::location(5787907, "Missing value for 'input'"))?;
    Ok(vec![n, input])
}

/// Evaluates `n` (a positive integer) and then `input` (an array).
fn n_and_input(args: &[Expression], vars: &Vars<'_>) -> Result<(usize, Vec<Bson>)> {
    let n = arg(args, 0, vars)?;
    let integral = |v: &Bson| is_numeric(v).then(|| as_int64(v));
    let Some(count) = n.as_ref().and_then(integral) else {
        return Err(Error::location(
            5787902,
            format!(
                "Value for 'n' must be of integral type, but found {}",
                value_text(&n)
            ),
        ));
    };
    let Some(count) = count else {
        return Err(Error::location(
            5787903,
            format!(
                "Value for 'n' must be of integral type, but found {}",
                value_text(&n)
            ),
        ));
    };
    if count <= 0 {
        return Err(Error::location(
            5787908,
            format!("'n' must be greater than 0, found {count}"),
        ));
    }
    match arg(args, 1, vars)? {
        Some(Bson::Array(items)) => Ok((usize::try_from(count).unwrap_or(usize::MAX), items)),
        _ => Err(Error::location(5788200, "Input must be an array")),
    }
}

fn first_n(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let (n, items) = n_and_input(args, vars)?;
    Ok(Some(Bson::Array(items.into_iter().take(n).collect())))
}

fn last_n(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let (n, items) = n_and_input(args, vars)?;
    let skip = items.len().saturating_sub(n);
    Ok(Some(Bson::Array(items.into_iter().skip(skip).collect())))
}

fn max_n(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let (n, items) = n_and_input(args, vars)?;
    let mut kept = extremes(n, items, Ordering::Less);
    kept.reverse();
    Ok(Some(Bson::Array(kept)))
}

fn min_n(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let (n, items) = n_and_input(args, vars)?;
    Ok(Some(Bson::Array(extremes(n, items, Ordering::Greater))))
}

/// MongoDB's bounded multiset for `$minN`/`$maxN`: nullish values are skipped; the kept values
/// are in ascending order, equal values in arrival order. When `n` values are kept, a new value
/// replaces the worst one (the last for min, the first for max) only if `worst` compares to it
/// as `evict_when`.
fn extremes(n: usize, items: Vec<Bson>, evict_when: Ordering) -> Vec<Bson> {
    let mut kept: Vec<Bson> = Vec::new();
    for item in items {
        if is_nullish(&Some(item.clone())) {
            continue;
        }
        if kept.len() == n {
            let worst = if evict_when == Ordering::Greater {
                kept.len() - 1
            } else {
                0
            };
            if kept
                .get(worst)
                .is_some_and(|w| compare_values(w, &item) == evict_when)
            {
                kept.remove(worst);
            } else {
                continue;
            }
        }
        let at = kept.partition_point(|k| compare_values(k, &item) != Ordering::Greater);
        kept.insert(at, item);
    }
    kept
}
