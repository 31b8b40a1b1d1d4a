//! `$bit`: bitwise `and`, `or`, `xor` on int and long fields.

use bson::Bson;

use super::apply::{LeafContext, Outcome};
use super::identical::identical;
use crate::error::{Error, Result};
use crate::value::display::{key_value, type_name};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BitKind {
    And,
    Or,
    Xor,
}

#[derive(Debug, Clone, PartialEq)]
pub struct BitOp {
    pub kind: BitKind,
    /// An int or a long.
    pub operand: Bson,
}

const FORMAT: &str = "{$bit: {field: {and/or/xor: #}}";

pub fn parse(operand: &Bson) -> Result<Vec<BitOp>> {
    let Bson::Document(d) = operand else {
        return Err(Error::bad_value(format!(
            "The $bit modifier is not compatible with a {}. You must pass in an embedded document: {FORMAT}",
            type_name(operand)
        )));
    };
    if d.is_empty() {
        return Err(Error::bad_value(format!(
            "You must pass in at least one bitwise operation. The format is: {FORMAT}"
        )));
    }
    let mut ops = Vec::new();
    for (k, v) in d {
        let kind = match k.as_str() {
            "and" => BitKind::And,
            "or" => BitKind::Or,
            "xor" => BitKind::Xor,
            _ => {
                return Err(Error::bad_value(format!(
                    "The $bit modifier only supports 'and', 'or', and 'xor', not '{k}' which is an unknown operator: {{{k}: {}}}",
                    key_value(v)
                )));
            }
        };
        if !matches!(v, Bson::Int32(_) | Bson::Int64(_)) {
            return Err(Error::bad_value(format!(
                "The $bit modifier field must be an Integer(32/64 bit); a '{}' is not supported here: {{{k}: {}}}",
                type_name(v),
                key_value(v)
            )));
        }
        ops.push(BitOp {
            kind,
            operand: v.clone(),
        });
    }
    Ok(ops)
}

pub fn apply(ops: &[BitOp], current: Option<&Bson>, cx: &LeafContext) -> Result<Outcome> {
    let start = current.cloned().unwrap_or(Bson::Int32(0));
    let mut value = match start {
        Bson::Int32(_) | Bson::Int64(_) => start,
        other => {
            return Err(Error::bad_value(format!(
                "Cannot apply $bit to a value of non-integral type.{} has the field {} of non-integer type {}",
                cx.id_text(),
                cx.field,
                type_name(&other)
            )));
        }
    };
    for op in ops {
        value = combine(&value, op);
    }
    match current {
        Some(existing) if identical(existing, &value) => Ok(Outcome::Unchanged),
        _ => Ok(Outcome::Set(value)),
    }
}

fn combine(value: &Bson, op: &BitOp) -> Bson {
    let f = |a: i64, b: i64| match op.kind {
        BitKind::And => a & b,
        BitKind::Or => a | b,
        BitKind::Xor => a ^ b,
    };
    match (value, &op.operand) {
        (Bson::Int32(a), Bson::Int32(b)) => Bson::Int32(match op.kind {
            BitKind::And => a & b,
            BitKind::Or => a | b,
            BitKind::Xor => a ^ b,
        }),
        (Bson::Int32(a), Bson::Int64(b)) => Bson::Int64(f(i64::from(*a), *b)),
        (Bson::Int64(a), Bson::Int32(b)) => Bson::Int64(f(*a, i64::from(*b))),
        (Bson::Int64(a), Bson::Int64(b)) => Bson::Int64(f(*a, *b)),
        (other, _) => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::{bson, doc};

    fn bit(cur: Option<Bson>, operand: Bson) -> Result<Outcome> {
        let original = doc! {"_id": 1};
        let cx = LeafContext::for_tests(&original, "a");
        apply(&parse(&operand)?, cur.as_ref(), &cx)
    }

    #[test]
    fn bitwise_results_keep_the_wider_type() {
        match bit(Some(bson!(13)), bson!({"and": 10})).unwrap() {
            Outcome::Set(v) => assert_eq!(v, Bson::Int32(8)),
            o => panic!("{o:?}"),
        }
        match bit(Some(bson!(13)), bson!({"or": 5_i64})).unwrap() {
            Outcome::Set(v) => assert_eq!(v, Bson::Int64(13)),
            o => panic!("{o:?}"),
        }
        match bit(None, bson!({"xor": 3})).unwrap() {
            Outcome::Set(v) => assert_eq!(v, Bson::Int32(3)),
            o => panic!("{o:?}"),
        }
        assert!(matches!(
            bit(Some(bson!(1)), bson!({"or": 1})).unwrap(),
            Outcome::Unchanged
        ));
    }

    #[test]
    fn errors() {
        let m = |o: Bson| parse(&o).unwrap_err().message;
        assert_eq!(
            m(bson!({})),
            "You must pass in at least one bitwise operation. The format is: {$bit: {field: {and/or/xor: #}}"
        );
        assert_eq!(
            m(bson!({"ors": 10})),
            "The $bit modifier only supports 'and', 'or', and 'xor', not 'ors' which is an unknown operator: {ors: 10}"
        );
        assert_eq!(
            m(bson!({"or": 10.0})),
            "The $bit modifier field must be an Integer(32/64 bit); a 'double' is not supported here: {or: 10.0}"
        );
        assert_eq!(
            bit(Some(bson!("x")), bson!({"or": 1})).unwrap_err().code(),
            2
        );
    }
}
