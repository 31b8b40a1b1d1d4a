//! The positional string operators.

use bson::Bson;

use super::super::array::type_name_of;
use super::super::memory::{ArrayBudget, VALUE_BYTES};
use super::super::named_args::nullish;
use super::super::operators::{OperatorDef, arg, parse_list};
use super::super::{Expression, Scope, Vars};
use super::builder::StringBuilder;
use super::{coerce_to_string, integral_i32, value_string};
use crate::error::{Error, Result};

type Out = Result<Option<Bson>>;

pub fn concat(args: &[Expression], vars: &Vars<'_>) -> Out {
    let mut out = StringBuilder::default();
    for a in args {
        let v = a.eval(vars)?;
        match &v {
            _ if nullish(&v) => return Ok(Some(Bson::Null)),
            Some(Bson::String(s)) => out.push(s)?,
            _ => {
                return Err(Error::location(
                    16702,
                    format!("$concat only supports strings, not {}", type_name_of(&v)),
                ));
            }
        }
    }
    Ok(Some(Bson::String(out.finish())))
}

/// Numbers `$substrBytes` accepts for its index and length, as `Value::coerceToLong` reads
/// them: doubles truncated (saturating), decimals rounded half to even (`Decimal128::toLong`'s
/// default), a NaN or infinite decimal as the long minimum (the decimal library's invalid
/// result), src/mongo/db/exec/document_value/value.cpp.
fn substr_number(v: &Option<Bson>) -> Option<i64> {
    match v {
        Some(Bson::Int32(i)) => Some(i64::from(*i)),
        Some(Bson::Int64(i)) => Some(*i),
        Some(Bson::Double(d)) => Some(*d as i64),
        Some(Bson::Decimal128(d)) => {
            let d = crate::value::numeric::Decimal::from_bson(d).to_f64();
            Some(if d.is_finite() {
                d.round_ties_even() as i64
            } else {
                i64::MIN
            })
        }
        _ => None,
    }
}

fn is_continuation_byte(b: u8) -> bool {
    b & 0xC0 == 0x80
}

pub fn substr_bytes(args: &[Expression], vars: &Vars<'_>) -> Out {
    const OP: &str = "$substrBytes";
    let s = coerce_to_string(&arg(args, 0, vars)?)?;
    let lower = arg(args, 1, vars)?;
    let length = arg(args, 2, vars)?;
    let Some(lower) = substr_number(&lower) else {
        return Err(Error::location(
            16034,
            format!(
                "{OP}:  starting index must be a numeric type (is BSON type {})",
                type_name_of(&lower)
            ),
        ));
    };
    let Some(length) = substr_number(&length) else {
        return Err(Error::location(
            16035,
            format!(
                "{OP}:  length must be a numeric type (is BSON type {})",
                type_name_of(&length)
            ),
        ));
    };
    if lower < 0 {
        return Err(Error::location(
            50752,
            format!("{OP}:  starting index must be non-negative (got: {lower})"),
        ));
    }
    let bytes = s.as_bytes();
    let lower = usize::try_from(lower).unwrap_or(usize::MAX);
    // A negative length means the rest of the string.
    let length = usize::try_from(length).unwrap_or(bytes.len());
    if lower < bytes.len() && is_continuation_byte(bytes[lower]) {
        return Err(Error::location(
            28656,
            format!("{OP}:  Invalid range, starting index is a UTF-8 continuation byte."),
        ));
    }
    let end = lower.saturating_add(length);
    if end < bytes.len() && is_continuation_byte(bytes[end]) {
        return Err(Error::location(
            28657,
            format!("{OP}:  Invalid range, ending index is in the middle of a UTF-8 character."),
        ));
    }
    if lower >= bytes.len() {
        return Ok(Some(Bson::String(String::new())));
    }
    let end = end.min(bytes.len());
    Ok(Some(Bson::String(s[lower..end].to_string())))
}

pub fn substr_cp(args: &[Expression], vars: &Vars<'_>) -> Out {
    const OP: &str = "$substrCP";
    let s = coerce_to_string(&arg(args, 0, vars)?)?;
    let lower = arg(args, 1, vars)?;
    let length = arg(args, 2, vars)?;
    let check = |v: &Option<Bson>, what: &str, codes: (i32, i32)| -> Result<i32> {
        if !matches!(
            v,
            Some(Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_) | Bson::Decimal128(_))
        ) {
            return Err(Error::location(
                codes.0,
                format!(
                    "{OP}: {what} must be a numeric type (is BSON type {})",
                    type_name_of(v)
                ),
            ));
        }
        integral_i32(v).ok_or_else(|| {
            Error::location(
                codes.1,
                format!(
                    "{OP}: {what} cannot be represented as a 32-bit integral value: {}",
                    value_string(v)
                ),
            )
        })
    };
    let start = check(&lower, "starting index", (34450, 34451))?;
    let length = check(&length, "length", (34452, 34453))?;
    if length < 0 {
        return Err(Error::location(
            34454,
            format!("{OP}: length must be a nonnegative integer."),
        ));
    }
    if start < 0 {
        return Err(Error::location(
            34455,
            format!("{OP}: the starting index must be nonnegative integer."),
        ));
    }
    let out: String = s
        .chars()
        .skip(start as usize)
        .take(length as usize)
        .collect();
    Ok(Some(Bson::String(out)))
}

fn string_length(args: &[Expression], vars: &Vars<'_>, op: &str, code: i32) -> Result<String> {
    let v = arg(args, 0, vars)?;
    match v {
        Some(Bson::String(s)) => Ok(s),
        _ => Err(Error::location(
            code,
            format!(
                "{op} requires a string argument, found: {}",
                type_name_of(&v)
            ),
        )),
    }
}

fn int_length(n: usize) -> Out {
    i32::try_from(n)
        .map(|n| Some(Bson::Int32(n)))
        .map_err(|_| Error::location(34470, "string length could not be represented as an int."))
}

pub fn str_len_bytes(args: &[Expression], vars: &Vars<'_>) -> Out {
    int_length(string_length(args, vars, "$strLenBytes", 34473)?.len())
}

pub fn str_len_cp(args: &[Expression], vars: &Vars<'_>) -> Out {
    int_length(
        string_length(args, vars, "$strLenCP", 34471)?
            .chars()
            .count(),
    )
}

pub fn to_lower(args: &[Expression], vars: &Vars<'_>) -> Out {
    let s = coerce_to_string(&arg(args, 0, vars)?)?;
    Ok(Some(Bson::String(s.to_ascii_lowercase())))
}

pub fn to_upper(args: &[Expression], vars: &Vars<'_>) -> Out {
    let s = coerce_to_string(&arg(args, 0, vars)?)?;
    Ok(Some(Bson::String(s.to_ascii_uppercase())))
}

pub fn strcasecmp(args: &[Expression], vars: &Vars<'_>) -> Out {
    let a = coerce_to_string(&arg(args, 0, vars)?)?.to_ascii_lowercase();
    let b = coerce_to_string(&arg(args, 1, vars)?)?.to_ascii_lowercase();
    Ok(Some(Bson::Int32(match a.as_bytes().cmp(b.as_bytes()) {
        std::cmp::Ordering::Less => -1,
        std::cmp::Ordering::Equal => 0,
        std::cmp::Ordering::Greater => 1,
    })))
}

pub fn split(args: &[Expression], vars: &Vars<'_>) -> Out {
    let input = arg(args, 0, vars)?;
    let sep = arg(args, 1, vars)?;
    if nullish(&input) || nullish(&sep) {
        return Ok(Some(Bson::Null));
    }
    let not_string = |code: i32, which: &str, v: &Option<Bson>| {
        Error::location(
            code,
            format!(
                "$split requires an expression that evaluates to a string as a {which} argument, \
                 found: {}",
                type_name_of(v)
            ),
        )
    };
    let Some(Bson::String(input)) = &input else {
        return Err(not_string(40085, "first", &input));
    };
    let Some(Bson::String(sep)) = &sep else {
        return Err(not_string(40086, "second", &sep));
    };
    if sep.is_empty() {
        return Err(Error::location(
            40087,
            "$split requires a non-empty separator",
        ));
    }
    // A one-byte separator through a long string of it makes a string per byte.
    let mut budget = ArrayBudget::new("$split");
    let mut out = Vec::new();
    for part in input.split(sep.as_str()) {
        budget.add(VALUE_BYTES + part.len())?;
        out.push(Bson::String(part.to_string()));
    }
    Ok(Some(Bson::Array(out)))
}

/// `$indexOfBytes`/`$indexOfCP` take two to four arguments.
pub fn parse_index_of(
    def: &'static OperatorDef,
    arg: &Bson,
    scope: &Scope,
) -> Result<Vec<Expression>> {
    let args = parse_list(arg, scope)?;
    if !(2..=4).contains(&args.len()) {
        return Err(Error::location(
            28667,
            format!(
                "Expression {} takes at least 2 arguments, and at most 4, but {} were passed in.",
                def.name,
                args.len()
            ),
        ));
    }
    Ok(args)
}

/// The operands of `$indexOfBytes`/`$indexOfCP`: `None` when the string is null or missing.
struct IndexOfArgs {
    input: String,
    token: String,
    start: Option<usize>,
    end: Option<usize>,
}

fn index_of_args(
    op: &str,
    codes: (i32, i32),
    args: &[Expression],
    vars: &Vars<'_>,
) -> Result<Option<IndexOfArgs>> {
    let input = arg(args, 0, vars)?;
    if nullish(&input) {
        return Ok(None);
    }
    let Some(Bson::String(input)) = input else {
        return Err(Error::location(
            codes.0,
            format!(
                "{op} requires a string as the first argument, found: {}",
                type_name_of(&input)
            ),
        ));
    };
    let token = arg(args, 1, vars)?;
    let Some(Bson::String(token)) = token else {
        return Err(Error::location(
            codes.1,
            format!(
                "{op} requires a string as the second argument, found: {}",
                type_name_of(&token)
            ),
        ));
    };
    let index = |i: usize, what: &str| -> Result<Option<usize>> {
        if args.len() <= i {
            return Ok(None);
        }
        let v = arg(args, i, vars)?;
        // The missing space after the operator's name is MongoDB's.
        let n = integral_i32(&v).ok_or_else(|| {
            Error::location(
                40096,
                format!(
                    "{op}requires an integral {what}, found a value of type: {}, with value: {}",
                    type_name_of(&v),
                    value_string(&v)
                ),
            )
        })?;
        usize::try_from(n).map(Some).map_err(|_| {
            Error::location(
                40097,
                format!("{op} requires a nonnegative {what}, found: {n}"),
            )
        })
    };
    let start = index(2, "starting index")?;
    let end = index(3, "ending index")?;
    Ok(Some(IndexOfArgs {
        input,
        token,
        start,
        end,
    }))
}

fn position(p: Option<usize>) -> Out {
    Ok(Some(Bson::Int32(
        p.and_then(|p| i32::try_from(p).ok()).unwrap_or(-1),
    )))
}

pub fn index_of_bytes(args: &[Expression], vars: &Vars<'_>) -> Out {
    let Some(a) = index_of_args("$indexOfBytes", (40091, 40092), args, vars)? else {
        return Ok(Some(Bson::Null));
    };
    let bytes = a.input.as_bytes();
    let start = a.start.unwrap_or(0);
    let end = a.end.unwrap_or(bytes.len()).min(bytes.len());
    if start > bytes.len() || end < start {
        return position(None);
    }
    let hay = &bytes[..end];
    let needle = a.token.as_bytes();
    let found = (start..=hay.len().saturating_sub(needle.len()))
        .find(|&i| i + needle.len() <= hay.len() && &hay[i..i + needle.len()] == needle);
    position(found)
}

pub fn index_of_cp(args: &[Expression], vars: &Vars<'_>) -> Out {
    let Some(a) = index_of_args("$indexOfCP", (40093, 40094), args, vars)? else {
        return Ok(Some(Bson::Null));
    };
    let chars: Vec<char> = a.input.chars().collect();
    let needle: Vec<char> = a.token.chars().collect();
    let start = a.start.unwrap_or(0);
    let end = a.end.unwrap_or(chars.len()).min(chars.len());
    if start > chars.len() || end < start {
        return position(None);
    }
    if needle.is_empty() {
        return position(Some(start));
    }
    let found =
        (start..end).find(|&i| i + needle.len() <= end && chars[i..i + needle.len()] == needle[..]);
    position(found)
}
