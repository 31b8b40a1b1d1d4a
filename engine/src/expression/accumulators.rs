//! `$sum $avg $min $max $stdDevPop $stdDevSamp` as expressions (MongoDB's
//! `ExpressionFromAccumulator`): one argument that evaluates to an array is folded element by
//! element, one argument of another kind is folded alone, several arguments are folded together.
//! The folding is the `$group` accumulator's own (`crate::accumulator`), fed one value at a time.

use bson::Bson;

use super::operators::{Arity, OperatorDef, positional};
use super::{Expression, Scope, Vars};
use crate::accumulator::Accumulator;
use crate::error::{Error, Result};

pub const OPERATORS: &[OperatorDef] = &[
    folding("$sum", sum),
    folding("$avg", avg),
    folding("$min", min),
    folding("$max", max),
    folding("$stdDevPop", std_dev_pop),
    folding("$stdDevSamp", std_dev_samp),
];

const fn folding(name: &'static str, eval: super::operators::Eval) -> OperatorDef {
    OperatorDef {
        name,
        arity: Arity::Any,
        parse_args: positional,
        eval,
    }
}

/// The variable the accumulator reads each value from.
const ELEMENT: &str = "element";

fn fold(name: &str, args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let scope = Scope {
        bound: vec![ELEMENT.to_string()],
        ..Scope::default()
    };
    let accumulator = Accumulator::parse(name, &Bson::String(format!("$${ELEMENT}")), &scope)?
        .ok_or_else(|| Error::location(168, format!("Unrecognized expression '{name}'")))?;
    let mut state = accumulator.start(&Bson::Null)?;
    let values: Vec<Option<Bson>> = match args {
        [single] => match single.eval(vars)? {
            Some(Bson::Array(items)) => items.into_iter().map(Some).collect(),
            other => vec![other],
        },
        _ => args.iter().map(|a| a.eval(vars)).collect::<Result<_>>()?,
    };
    let mut bound = vars.bound.to_vec();
    bound.push((ELEMENT.to_string(), Bson::Null));
    for value in values {
        if let Some(slot) = bound.last_mut() {
            // Every one of these accumulators treats missing as null: both are skipped.
            slot.1 = value.unwrap_or(Bson::Null);
        }
        accumulator.accumulate(&mut state, &vars.rebound(&bound))?;
    }
    Ok(Some(accumulator.value(&state)))
}

fn sum(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    fold("$sum", args, vars)
}
fn avg(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    fold("$avg", args, vars)
}
fn min(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    fold("$min", args, vars)
}
fn max(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    fold("$max", args, vars)
}
fn std_dev_pop(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    fold("$stdDevPop", args, vars)
}
fn std_dev_samp(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    fold("$stdDevSamp", args, vars)
}

#[cfg(test)]
mod tests {
    use bson::{Bson, bson, doc};

    use super::super::tests::eval;

    #[test]
    fn fold_arrays_or_arguments() {
        let d = doc! {"a": [7, 1, 2], "s": "x", "n": null};
        assert_eq!(eval(bson!({"$sum": "$a"}), &d), Some(bson!(10)));
        assert_eq!(eval(bson!({"$sum": ["$a", 1]}), &d), Some(bson!(1)));
        assert_eq!(eval(bson!({"$sum": "$s"}), &d), Some(bson!(0)));
        assert_eq!(
            eval(bson!({"$avg": "$a"}), &d),
            Some(Bson::Double(10.0 / 3.0))
        );
        assert_eq!(eval(bson!({"$avg": "$n"}), &d), Some(Bson::Null));
        assert_eq!(eval(bson!({"$max": [[1, 2, 3]]}), &d), Some(bson!(3)));
        assert_eq!(
            eval(bson!({"$max": [100, 2, [1, 2, 3]]}), &d),
            Some(bson!([1, 2, 3]))
        );
        assert_eq!(eval(bson!({"$max": []}), &d), Some(Bson::Null));
        assert_eq!(
            eval(bson!({"$min": [null, 2, "$nope", 1]}), &d),
            Some(bson!(1))
        );
        assert_eq!(eval(bson!({"$min": {}}), &d), Some(bson!({})));
        assert_eq!(
            eval(bson!({"$stdDevPop": [1, 3]}), &d),
            Some(Bson::Double(1.0))
        );
        assert_eq!(eval(bson!({"$stdDevSamp": [1]}), &d), Some(Bson::Null));
    }
}
