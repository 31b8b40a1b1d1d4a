//! Type operators: `$isArray`, `$isNumber`, `$type`; the sizes `$bsonSize` and `$binarySize`;
//! `$toHashedIndexKey` (the key a hashed index stores).

use bson::Bson;

use super::operators::{Arity, OperatorDef, arg, positional};
use super::{Expression, Vars};
use crate::error::{Error, Result};
use crate::value::display::type_name;

pub const OPERATORS: &[OperatorDef] = &[
    OperatorDef {
        name: "$isArray",
        arity: Arity::Exactly(1),
        parse_args: positional,
        eval: is_array,
    },
    OperatorDef {
        name: "$isNumber",
        arity: Arity::Exactly(1),
        parse_args: positional,
        eval: is_number,
    },
    OperatorDef {
        name: "$type",
        arity: Arity::Exactly(1),
        parse_args: positional,
        eval: type_of,
    },
    OperatorDef {
        name: "$bsonSize",
        arity: Arity::Exactly(1),
        parse_args: positional,
        eval: bson_size,
    },
    OperatorDef {
        name: "$binarySize",
        arity: Arity::Exactly(1),
        parse_args: positional,
        eval: binary_size,
    },
    OperatorDef {
        name: "$toHashedIndexKey",
        arity: Arity::Exactly(1),
        parse_args: positional,
        eval: to_hashed_index_key,
    },
];

fn is_array(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let v = arg(args, 0, vars)?;
    Ok(Some(Bson::Boolean(matches!(v, Some(Bson::Array(_))))))
}

fn is_number(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let v = arg(args, 0, vars)?;
    Ok(Some(Bson::Boolean(matches!(
        v,
        Some(Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_) | Bson::Decimal128(_))
    ))))
}

/// The type's alias, or `"missing"` for a missing value.
fn type_of(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let v = arg(args, 0, vars)?;
    Ok(Some(Bson::String(
        v.as_ref().map_or("missing", type_name).to_string(),
    )))
}

/// The size in bytes of a document as BSON; null for a nullish input.
fn bson_size(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    match arg(args, 0, vars)? {
        None | Some(Bson::Null | Bson::Undefined) => Ok(Some(Bson::Null)),
        Some(Bson::Document(d)) => {
            let bytes = d.to_vec().map_err(|e| Error::bad_value(e.to_string()))?;
            Ok(Some(size_value(bytes.len())))
        }
        Some(other) => Err(Error::location(
            31393,
            format!(
                "$bsonSize requires a document input, found: {}",
                type_name(&other)
            ),
        )),
    }
}

/// The size in bytes of a string (UTF-8) or of a binData's payload; null for a nullish input.
fn binary_size(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    match arg(args, 0, vars)? {
        None | Some(Bson::Null | Bson::Undefined) => Ok(Some(Bson::Null)),
        Some(Bson::String(s)) => Ok(Some(size_value(s.len()))),
        Some(Bson::Binary(b)) => Ok(Some(size_value(b.bytes.len()))),
        Some(other) => Err(Error::location(
            51276,
            format!(
                "$binarySize requires a string or BinData argument, found: {}",
                type_name(&other)
            ),
        )),
    }
}

/// A size as MongoDB returns it: an int (sizes stay far below 2^31 under the 16 MB limit).
fn size_value(n: usize) -> Bson {
    i32::try_from(n).map_or(Bson::Int64(n as i64), Bson::Int32)
}

/// The hashed index key of the value (a missing value hashes as null), as a long.
fn to_hashed_index_key(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let v = arg(args, 0, vars)?.unwrap_or(Bson::Null);
    Ok(Some(crate::value::hashed::hash_value(&v)))
}

#[cfg(test)]
mod tests {
    use bson::{Binary, Bson, bson, doc, spec::BinarySubtype};

    use crate::expression::tests::{eval, eval_err};

    #[test]
    fn sizes() {
        let d = doc! {"o": {"a": 1}, "s": "héllo", "b": Binary {subtype: BinarySubtype::Generic, bytes: vec![1, 2, 3]}};
        assert_eq!(eval(bson!({"$bsonSize": "$o"}), &d), Some(Bson::Int32(12)));
        assert_eq!(eval(bson!({"$bsonSize": "$$REMOVE"}), &d), Some(Bson::Null));
        assert_eq!(eval(bson!({"$binarySize": "$s"}), &d), Some(Bson::Int32(6)));
        assert_eq!(eval(bson!({"$binarySize": "$b"}), &d), Some(Bson::Int32(3)));
        assert_eq!(eval_err(bson!({"$bsonSize": 1}), &d).0, 31393);
        assert_eq!(eval_err(bson!({"$binarySize": 1}), &d).0, 51276);
    }

    #[test]
    fn hashed_index_key_is_mongodb_hash() {
        // The example of MongoDB's $toHashedIndexKey documentation.
        let d = doc! {"val": "string to hash"};
        assert_eq!(
            eval(bson!({"$toHashedIndexKey": "$val"}), &d),
            Some(Bson::Int64(763543691661428748))
        );
        assert_eq!(
            eval(bson!({"$toHashedIndexKey": "$nope"}), &d),
            eval(bson!({"$toHashedIndexKey": null}), &d)
        );
    }
}
