//! `$sum $avg $min $max $stdDevPop $stdDevSamp` as expressions (MongoDB's
//! `ExpressionFromAccumulator`): one argument that evaluates to an array is folded element by
//! element, one argument of another kind is folded alone, several arguments are folded together.
//! The folding is the `$group` accumulator's own (`crate::fold`), fed one value at a time.

use bson::Bson;

use super::operators::{Arity, OperatorDef, positional};
use super::{Expression, Vars};
use crate::error::Result;
use crate::fold::FoldOp;

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

fn fold(op: FoldOp, args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let mut state = op.start();
    let values: Vec<Option<Bson>> = match args {
        [single] => match single.eval(vars)? {
            Some(Bson::Array(items)) => items.into_iter().map(Some).collect(),
            other => vec![other],
        },
        _ => args.iter().map(|a| a.eval(vars)).collect::<Result<_>>()?,
    };
    for value in values {
        // Every one of these folds treats missing as null: both are skipped.
        state.process(op, Some(value.unwrap_or(Bson::Null)))?;
    }
    Ok(Some(state.value(op)))
}

fn sum(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    fold(FoldOp::Sum, args, vars)
}
fn avg(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    fold(FoldOp::Avg, args, vars)
}
fn min(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    fold(FoldOp::Min, args, vars)
}
fn max(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    fold(FoldOp::Max, args, vars)
}
fn std_dev_pop(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    fold(FoldOp::StdDevPop, args, vars)
}
fn std_dev_samp(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    fold(FoldOp::StdDevSamp, args, vars)
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
