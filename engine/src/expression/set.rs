//! Set operators: `$setEquals $setIntersection $setUnion $setDifference $setIsSubset
//! $anyElementTrue $allElementsTrue`. Arrays are sets of values under MongoDB's comparison
//! (`1`, `NumberLong(1)` and `1.0` are one element). As in MongoDB, `$setUnion` and
//! `$setIntersection` return their elements in sorted order, keeping the first value seen of
//! equal ones; `$setDifference` keeps the first operand's order.
//!
//! MongoDB checks constant operands while optimizing, before any document is read, with codes of
//! their own (`$setEquals` 5887502, `$setIsSubset` 17311 and 17310); those checks are made here
//! when the expression is parsed.

use std::collections::BTreeSet;

use bson::Bson;

use super::array::{constant_value, is_nullish, type_name_of};
use super::operators::{Arity, OperatorDef, arg, parse_list, positional};
use super::{Expression, Scope, Vars, value_truthy};
use crate::error::{Error, Result};
use crate::value::OrderedValue;

pub const OPERATORS: &[OperatorDef] = &[
    set_op(
        "$setEquals",
        Arity::AtLeast(2),
        parse_set_equals,
        set_equals,
    ),
    set_op("$setIntersection", Arity::Any, positional, set_intersection),
    set_op("$setUnion", Arity::Any, positional, set_union),
    set_op(
        "$setDifference",
        Arity::Exactly(2),
        positional,
        set_difference,
    ),
    set_op(
        "$setIsSubset",
        Arity::Exactly(2),
        parse_set_is_subset,
        set_is_subset,
    ),
    set_op(
        "$anyElementTrue",
        Arity::Exactly(1),
        positional,
        any_element_true,
    ),
    set_op(
        "$allElementsTrue",
        Arity::Exactly(1),
        positional,
        all_elements_true,
    ),
];

const fn set_op(
    name: &'static str,
    arity: Arity,
    parse_args: super::operators::ParseArgs,
    eval: super::operators::Eval,
) -> OperatorDef {
    OperatorDef {
        name,
        arity,
        parse_args,
        eval,
    }
}

/// The values as a set, keeping the first of equal values (`collect` would keep the last).
fn to_set(items: impl IntoIterator<Item = Bson>) -> BTreeSet<OrderedValue> {
    let mut set = BTreeSet::new();
    for item in items {
        set.insert(OrderedValue(item));
    }
    set
}

fn from_set(set: BTreeSet<OrderedValue>) -> Option<Bson> {
    Some(Bson::Array(set.into_iter().map(|v| v.0).collect()))
}

fn equals_message(index: usize, v: &Option<Bson>) -> String {
    format!(
        "All operands of $setEquals must be arrays. {}-th argument is of type: {}",
        index + 1,
        type_name_of(v)
    )
}

fn parse_set_equals(_: &'static OperatorDef, arg: &Bson, scope: &Scope) -> Result<Vec<Expression>> {
    let args = parse_list(arg, scope)?;
    if args.len() < 2 {
        return Err(Error::location(
            17045,
            format!(
                "$setEquals needs at least two arguments had: {}",
                args.len()
            ),
        ));
    }
    for (i, a) in args.iter().enumerate() {
        if let Some(v) = constant_value(a)
            && !matches!(v, Bson::Array(_))
        {
            return Err(Error::location(5887502, equals_message(i, &Some(v))));
        }
    }
    Ok(args)
}

fn set_equals(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let mut first: Option<BTreeSet<OrderedValue>> = None;
    for (i, a) in args.iter().enumerate() {
        let v = a.eval(vars)?;
        let Some(Bson::Array(items)) = v else {
            return Err(Error::location(17044, equals_message(i, &v)));
        };
        let set = to_set(items);
        match &first {
            None => first = Some(set),
            Some(f) if *f != set => return Ok(Some(Bson::Boolean(false))),
            Some(_) => {}
        }
    }
    Ok(Some(Bson::Boolean(true)))
}

/// The operands of `$setIntersection`/`$setUnion`, evaluated in order: `None` (a null result)
/// at the first nullish one, an error at the first that is not an array.
fn array_operands(
    op: &str,
    code: i32,
    args: &[Expression],
    vars: &Vars<'_>,
) -> Result<Option<Vec<Vec<Bson>>>> {
    let mut out = Vec::with_capacity(args.len());
    for a in args {
        let v = a.eval(vars)?;
        if is_nullish(&v) {
            return Ok(None);
        }
        let Some(Bson::Array(items)) = v else {
            return Err(Error::location(
                code,
                format!(
                    "All operands of {op} must be arrays. One argument is of type: {}",
                    type_name_of(&v)
                ),
            ));
        };
        out.push(items);
    }
    Ok(Some(out))
}

fn set_intersection(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let Some(operands) = array_operands("$setIntersection", 17047, args, vars)? else {
        return Ok(Some(Bson::Null));
    };
    let mut current: Option<BTreeSet<OrderedValue>> = None;
    for items in operands {
        current = Some(match current.take() {
            None => to_set(items),
            Some(set) if set.is_empty() => set,
            Some(set) => {
                let next = to_set(items);
                // MongoDB walks the smaller set and keeps its values.
                let (kept, other) = if set.len() > next.len() {
                    (next, set)
                } else {
                    (set, next)
                };
                kept.into_iter().filter(|v| other.contains(v)).collect()
            }
        });
    }
    Ok(from_set(current.unwrap_or_default()))
}

fn set_union(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let Some(operands) = array_operands("$setUnion", 17043, args, vars)? else {
        return Ok(Some(Bson::Null));
    };
    Ok(from_set(to_set(operands.into_iter().flatten())))
}

fn set_difference(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let lhs = arg(args, 0, vars)?;
    let rhs = arg(args, 1, vars)?;
    if is_nullish(&lhs) || is_nullish(&rhs) {
        return Ok(Some(Bson::Null));
    }
    let operand = |v: Option<Bson>, code: i32, which: &str| match v {
        Some(Bson::Array(items)) => Ok(items),
        other => Err(Error::location(
            code,
            format!(
                "both operands of $setDifference must be arrays. {which} argument is of type: {}",
                type_name_of(&other)
            ),
        )),
    };
    let lhs = operand(lhs, 17048, "First")?;
    // The right-hand set also removes the left operand's duplicates as they are met.
    let mut seen = to_set(operand(rhs, 17049, "Second")?);
    let out = lhs
        .into_iter()
        .filter(|v| seen.insert(OrderedValue(v.clone())))
        .collect();
    Ok(Some(Bson::Array(out)))
}

fn subset_message(which: &str, v: &Option<Bson>) -> String {
    format!(
        "both operands of $setIsSubset must be arrays. {which} argument is of type: {}",
        type_name_of(v)
    )
}

fn parse_set_is_subset(
    def: &'static OperatorDef,
    arg: &Bson,
    scope: &Scope,
) -> Result<Vec<Expression>> {
    let args = positional(def, arg, scope)?;
    let lhs_constant = args.first().and_then(constant_value).is_some();
    if !lhs_constant
        && let Some(rhs) = args.get(1).and_then(constant_value)
        && !matches!(rhs, Bson::Array(_))
    {
        return Err(Error::location(17311, subset_message("Second", &Some(rhs))));
    }
    Ok(args)
}

fn set_is_subset(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let rhs_constant = args.get(1).and_then(constant_value).is_some();
    let lhs_constant = args.first().and_then(constant_value).is_some();
    let lhs = arg(args, 0, vars)?;
    let Some(Bson::Array(lhs)) = lhs else {
        let code = if rhs_constant && !lhs_constant {
            17310
        } else {
            17046
        };
        return Err(Error::location(code, subset_message("First", &lhs)));
    };
    let rhs = arg(args, 1, vars)?;
    let Some(Bson::Array(rhs)) = rhs else {
        return Err(Error::location(17042, subset_message("Second", &rhs)));
    };
    let rhs = to_set(rhs);
    Ok(Some(Bson::Boolean(
        lhs.into_iter().all(|v| rhs.contains(&OrderedValue(v))),
    )))
}

/// The one argument of `$anyElementTrue`/`$allElementsTrue` as an array.
fn elements(op: &str, code: i32, args: &[Expression], vars: &Vars<'_>) -> Result<Vec<Bson>> {
    match arg(args, 0, vars)? {
        Some(Bson::Array(items)) => Ok(items),
        other => Err(Error::location(
            code,
            format!(
                "{op}'s argument must be an array, but is {}",
                type_name_of(&other)
            ),
        )),
    }
}

fn any_element_true(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let items = elements("$anyElementTrue", 17041, args, vars)?;
    Ok(Some(Bson::Boolean(items.iter().any(value_truthy))))
}

fn all_elements_true(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let items = elements("$allElementsTrue", 17040, args, vars)?;
    Ok(Some(Bson::Boolean(items.iter().all(value_truthy))))
}

#[cfg(test)]
mod tests {
    use bson::{Bson, Document, bson, doc};

    use super::super::Expression;

    fn eval(expr: Bson) -> Option<Bson> {
        let d = doc! {"a": [3, 1, 2], "n": null};
        Expression::parse(&expr)
            .and_then(|e| e.evaluate(&d))
            .unwrap_or_else(|e| panic!("{expr}: {e}"))
    }

    fn eval_err(expr: Bson) -> (i32, String) {
        let d = Document::new();
        let e = match Expression::parse(&expr) {
            Err(e) => e,
            Ok(x) => x.evaluate(&d).expect_err("expected an error"),
        };
        (e.code(), e.message)
    }

    #[test]
    fn union_and_intersection_are_sorted() {
        assert_eq!(
            eval(bson!({"$setUnion": ["$a", [4, 2.0]]})),
            Some(bson!([1, 2, 3, 4]))
        );
        assert_eq!(eval(bson!({"$setUnion": ["$a", "$n"]})), Some(Bson::Null));
        assert_eq!(
            eval(bson!({"$setIntersection": [[Bson::Int64(1), 2, 3], [3, 1]]})),
            Some(bson!([1, 3]))
        );
        assert_eq!(eval(bson!({"$setIntersection": []})), Some(bson!([])));
        assert_eq!(
            eval_err(bson!({"$setUnion": [[1], {}]})),
            (
                17043,
                "All operands of $setUnion must be arrays. One argument is of type: object".into()
            )
        );
    }

    #[test]
    fn difference_equals_subset() {
        assert_eq!(
            eval(bson!({"$setDifference": [[3, 3, 1, 4], [1]]})),
            Some(bson!([3, 4]))
        );
        assert_eq!(
            eval(bson!({"$setDifference": ["$n", [1]]})),
            Some(Bson::Null)
        );
        assert_eq!(
            eval(bson!({"$setEquals": ["$a", [1, 2, 3, 3], [2.0, 1, 3]]})),
            Some(bson!(true))
        );
        assert_eq!(
            eval(bson!({"$setIsSubset": [[1, 1], "$a"]})),
            Some(bson!(true))
        );
        assert_eq!(
            eval_err(bson!({"$setEquals": [1]})),
            (
                17045,
                "$setEquals needs at least two arguments had: 1".into()
            )
        );
        assert_eq!(
            eval_err(bson!({"$setEquals": ["$x", [1]]})),
            (
                17044,
                "All operands of $setEquals must be arrays. 1-th argument is of type: missing"
                    .into()
            )
        );
        assert_eq!(eval_err(bson!({"$setEquals": [[1], null]})).0, 5887502);
        assert_eq!(eval_err(bson!({"$setIsSubset": ["$x", null]})).0, 17311);
        assert_eq!(eval_err(bson!({"$setIsSubset": ["$x", [1]]})).0, 17310);
        assert_eq!(eval_err(bson!({"$setIsSubset": ["$x", "$y"]})).0, 17046);
        assert_eq!(
            eval_err(bson!({"$setDifference": [[1], 2]})).1,
            "both operands of $setDifference must be arrays. Second argument is of type: int"
        );
    }

    #[test]
    fn any_and_all_elements() {
        assert_eq!(
            eval(bson!({"$allElementsTrue": [[1, "x", []]]})),
            Some(bson!(true))
        );
        assert_eq!(
            eval(bson!({"$allElementsTrue": [[1, null]]})),
            Some(bson!(false))
        );
        assert_eq!(
            eval(bson!({"$anyElementTrue": [[0, false, 2]]})),
            Some(bson!(true))
        );
        assert_eq!(
            eval_err(bson!({"$anyElementTrue": [null]})),
            (
                17041,
                "$anyElementTrue's argument must be an array, but is null".into()
            )
        );
        assert_eq!(eval_err(bson!({"$allElementsTrue": ["$x"]})).0, 17040);
    }
}
