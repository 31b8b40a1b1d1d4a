//! `$pop`: remove the first (`-1`) or last (`1`) element of an array.

use bson::Bson;

use super::apply::{LeafContext, Outcome};
use crate::error::{Error, ErrorCode, Result};
use crate::value::display::{key_value, type_name};

/// Returns `true` for "remove the first element".
pub fn parse(field: &str, operand: &Bson) -> Result<bool> {
    let n = match operand {
        Bson::Int32(i) => f64::from(*i),
        Bson::Int64(i) => *i as f64,
        Bson::Double(d) => *d,
        other => {
            return Err(Error::new(
                ErrorCode::FailedToParse,
                format!("Expected a number in: {field}: {}", key_value(other)),
            ));
        }
    };
    if n == 1.0 {
        Ok(false)
    } else if n == -1.0 {
        Ok(true)
    } else {
        Err(Error::new(
            ErrorCode::FailedToParse,
            format!("$pop expects 1 or -1, found: {}", key_value(operand)),
        ))
    }
}

pub fn apply(first: bool, current: Option<&Bson>, cx: &LeafContext) -> Result<Outcome> {
    match current {
        None => Ok(Outcome::Unchanged),
        Some(Bson::Array(items)) if items.is_empty() => Ok(Outcome::Unchanged),
        Some(Bson::Array(items)) => {
            let mut out = items.clone();
            if first {
                out.remove(0);
            } else {
                out.pop();
            }
            Ok(Outcome::Set(Bson::Array(out)))
        }
        Some(other) => Err(Error::type_mismatch(format!(
            "Path '{}' contains an element of non-array type '{}'",
            cx.path,
            type_name(other)
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    #[test]
    fn pops_either_end() {
        let original = doc! {"_id": 1};
        let cx = LeafContext::for_tests(&original, "a");
        let arr = Bson::Array(vec![1.into(), 2.into(), 3.into()]);
        match apply(true, Some(&arr), &cx).unwrap() {
            Outcome::Set(Bson::Array(a)) => assert_eq!(a, vec![Bson::Int32(2), Bson::Int32(3)]),
            o => panic!("{o:?}"),
        }
        match apply(false, Some(&arr), &cx).unwrap() {
            Outcome::Set(Bson::Array(a)) => assert_eq!(a, vec![Bson::Int32(1), Bson::Int32(2)]),
            o => panic!("{o:?}"),
        }
        assert!(matches!(
            apply(true, None, &cx).unwrap(),
            Outcome::Unchanged
        ));
        let e = apply(true, Some(&Bson::Int32(1)), &cx).unwrap_err();
        assert_eq!(
            (e.code(), e.message.as_str()),
            (14, "Path 'a' contains an element of non-array type 'int'")
        );
    }

    #[test]
    fn operand_must_be_one_or_minus_one() {
        assert!(parse("a", &Bson::Int32(-1)).unwrap());
        assert!(!parse("a", &Bson::Double(1.0)).unwrap());
        let e = parse("a", &Bson::Int32(2)).unwrap_err();
        assert_eq!(
            (e.code(), e.message.as_str()),
            (9, "$pop expects 1 or -1, found: 2")
        );
        let e = parse("a", &Bson::Boolean(true)).unwrap_err();
        assert_eq!(e.message, "Expected a number in: a: true");
    }
}
