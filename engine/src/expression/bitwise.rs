//! Bitwise operators (MongoDB 6.3+): `$bitAnd`, `$bitOr`, `$bitXor` over any number of int and
//! long operands, and `$bitNot` over one. A nullish operand makes the result null; the result is
//! an int when every operand is an int, otherwise a long.

use bson::Bson;

use super::operators::{Arity, OperatorDef, arg, positional_def};
use super::{Expression, Vars};
use crate::error::{Error, Result};

pub const OPERATORS: &[OperatorDef] = &[
    positional_def("$bitAnd", Arity::Any, bit_and),
    positional_def("$bitOr", Arity::Any, bit_or),
    positional_def("$bitXor", Arity::Any, bit_xor),
    positional_def("$bitNot", Arity::Exactly(1), bit_not),
];

fn only_int_and_long(op: &str) -> Error {
    Error::type_mismatch(format!("{op} only supports int and long operands."))
}

/// Folds the operands with `combine`, starting from `identity` (what an empty list answers).
fn fold(
    op: &str,
    identity: i64,
    combine: fn(i64, i64) -> i64,
    args: &[Expression],
    vars: &Vars<'_>,
) -> Result<Option<Bson>> {
    let mut acc = identity;
    let mut all_int = true;
    for e in args {
        match e.eval(vars)? {
            None | Some(Bson::Null | Bson::Undefined) => return Ok(Some(Bson::Null)),
            Some(Bson::Int32(i)) => acc = combine(acc, i64::from(i)),
            Some(Bson::Int64(i)) => {
                all_int = false;
                acc = combine(acc, i);
            }
            Some(_) => return Err(only_int_and_long(op)),
        }
    }
    // With int operands only, the bits above 32 are copies of the sign bit: the cast is exact.
    Ok(Some(if all_int {
        Bson::Int32(acc as i32)
    } else {
        Bson::Int64(acc)
    }))
}

fn bit_and(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    fold("$bitAnd", -1, |a, b| a & b, args, vars)
}

fn bit_or(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    fold("$bitOr", 0, |a, b| a | b, args, vars)
}

fn bit_xor(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    fold("$bitXor", 0, |a, b| a ^ b, args, vars)
}

fn bit_not(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    Ok(Some(match arg(args, 0, vars)? {
        None | Some(Bson::Null | Bson::Undefined) => Bson::Null,
        Some(Bson::Int32(i)) => Bson::Int32(!i),
        Some(Bson::Int64(i)) => Bson::Int64(!i),
        Some(_) => return Err(only_int_and_long("$bitNot")),
    }))
}

#[cfg(test)]
mod tests {
    use bson::{Bson, bson, doc};

    use crate::expression::tests::{eval, eval_err};

    #[test]
    fn bitwise_operators() {
        let d = doc! {"a": 6, "b": 3_i64};
        assert_eq!(
            eval(bson!({"$bitAnd": ["$a", 7]}), &d),
            Some(Bson::Int32(6))
        );
        assert_eq!(
            eval(bson!({"$bitOr": ["$a", "$b"]}), &d),
            Some(Bson::Int64(7))
        );
        assert_eq!(
            eval(bson!({"$bitXor": ["$a", 3]}), &d),
            Some(Bson::Int32(5))
        );
        assert_eq!(eval(bson!({"$bitAnd": []}), &d), Some(Bson::Int32(-1)));
        assert_eq!(eval(bson!({"$bitNot": "$b"}), &d), Some(Bson::Int64(!3)));
        assert_eq!(eval(bson!({"$bitOr": ["$a", "$zz"]}), &d), Some(Bson::Null));
    }

    #[test]
    fn bitwise_operators_refuse_other_types() {
        let (_, message) = eval_err(bson!({"$bitAnd": [1, 2.5]}), &doc! {});
        assert_eq!(message, "$bitAnd only supports int and long operands.");
    }
}
