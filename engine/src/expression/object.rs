//! Object operators: `$getField $setField $unsetField $mergeObjects $objectToArray
//! $arrayToObject`.

use bson::{Bson, Document};

use super::math::nullish;
use super::operators::{Arity, OperatorDef, arg, positional};
use super::{Expression, Scope, Vars};
use crate::error::{Error, Result};
use crate::value::display::{key_value, type_name};

pub const OPERATORS: &[OperatorDef] = &[
    OperatorDef {
        name: "$getField",
        arity: Arity::Exactly(2),
        parse_args: parse_get_field,
        eval: get_field,
    },
    OperatorDef {
        name: "$setField",
        arity: Arity::Exactly(3),
        parse_args: parse_set_field,
        eval: set_field,
    },
    OperatorDef {
        name: "$unsetField",
        arity: Arity::Exactly(3),
        parse_args: parse_unset_field,
        eval: set_field,
    },
    OperatorDef {
        name: "$mergeObjects",
        arity: Arity::Any,
        parse_args: positional,
        eval: merge_objects,
    },
    OperatorDef {
        name: "$objectToArray",
        arity: Arity::Exactly(1),
        parse_args: positional,
        eval: object_to_array,
    },
    OperatorDef {
        name: "$arrayToObject",
        arity: Arity::Exactly(1),
        parse_args: positional,
        eval: array_to_object,
    },
];

fn type_of(v: &Option<Bson>) -> &'static str {
    v.as_ref().map_or("missing", type_name)
}

/// `$getField: {field, input}` or `$getField: field` (input `$$CURRENT`). Arguments:
/// `[field, input]`.
fn parse_get_field(
    _def: &'static OperatorDef,
    arg: &Bson,
    scope: &Scope,
) -> Result<Vec<Expression>> {
    let (mut field, mut input) = (None, None);
    match arg {
        Bson::Document(d) if d.keys().next().is_some_and(|k| !k.starts_with('$')) => {
            for (k, v) in d {
                match k.as_str() {
                    "field" => field = Some(Expression::parse_in(v, scope)?),
                    "input" => input = Some(Expression::parse_in(v, scope)?),
                    other => {
                        return Err(Error::location(
                            3041701,
                            format!("$getField found an unknown argument: {other}"),
                        ));
                    }
                }
            }
        }
        other => {
            field = Some(Expression::parse_in(other, scope)?);
            input = Some(Expression::parse_in(
                &Bson::String("$$CURRENT".into()),
                scope,
            )?);
        }
    }
    let field = field
        .ok_or_else(|| Error::location(3041702, "$getField requires 'field' to be specified"))?;
    let input = input
        .ok_or_else(|| Error::location(3041703, "$getField requires 'input' to be specified"))?;
    // A constant field must be a string; a dynamic one is checked when it is evaluated.
    if let Some(other) = field
        .as_constant()
        .filter(|v| !matches!(v, Bson::String(_)))
    {
        return Err(Error::location(
            5654602,
            format!(
                "$getField requires 'field' to evaluate to type String, but got {}",
                type_name(other)
            ),
        ));
    }
    Ok(vec![field, input])
}

/// The `field` argument of `$getField`/`$setField` must be a constant string.
fn check_constant_field(
    name: &str,
    field: &Expression,
    [not_string, not_constant]: [i32; 2],
) -> Result<()> {
    match field.as_constant() {
        Some(Bson::String(_)) => Ok(()),
        Some(other) => Err(Error::location(
            not_string,
            format!(
                "{name} requires 'field' to evaluate to type String, but got {}",
                type_name(other)
            ),
        )),
        None => Err(Error::location(
            not_constant,
            format!(
                "{name} requires 'field' to evaluate to a constant, but got a non-constant argument"
            ),
        )),
    }
}

fn field_name(args: &[Expression]) -> &str {
    match args.first().and_then(Expression::as_constant) {
        Some(Bson::String(s)) => s,
        _ => "",
    }
}

fn get_field(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let field = arg(args, 0, vars)?;
    let Some(Bson::String(field)) = field else {
        return Err(Error::location(
            3041704,
            format!(
                "$getField requires 'field' to evaluate to type String, but got {}",
                type_of(&field)
            ),
        ));
    };
    match arg(args, 1, vars)? {
        None => Ok(None),
        Some(Bson::Null | Bson::Undefined) => Ok(Some(Bson::Null)),
        Some(Bson::Document(d)) => Ok(d.get(&field).cloned()),
        // Anything else has no fields.
        Some(_) => Ok(None),
    }
}

/// `$setField: {field, input, value}`. Arguments: `[field, input, value]`.
fn parse_set_field(
    _def: &'static OperatorDef,
    arg: &Bson,
    scope: &Scope,
) -> Result<Vec<Expression>> {
    parse_field_update("$setField", arg, scope, true)
}

/// `$unsetField: {field, input}`: `$setField` with the value `$$REMOVE`.
fn parse_unset_field(
    _def: &'static OperatorDef,
    arg: &Bson,
    scope: &Scope,
) -> Result<Vec<Expression>> {
    parse_field_update("$unsetField", arg, scope, false)
}

fn parse_field_update(
    name: &str,
    arg: &Bson,
    scope: &Scope,
    with_value: bool,
) -> Result<Vec<Expression>> {
    let Bson::Document(d) = arg else {
        return Err(Error::location(
            4161100,
            format!("{name} only supports an object as its argument"),
        ));
    };
    let (mut field, mut input, mut value) = (None, None, None);
    for (k, v) in d {
        match k.as_str() {
            "field" => field = Some(Expression::parse_in(v, scope)?),
            "input" => input = Some(Expression::parse_in(v, scope)?),
            "value" if with_value => value = Some(Expression::parse_in(v, scope)?),
            other => {
                return Err(Error::location(
                    4161101,
                    format!("{name} found an unknown argument: {other}"),
                ));
            }
        }
    }
    let field = field.ok_or_else(|| {
        Error::location(4161102, format!("{name} requires 'field' to be specified"))
    })?;
    let value = match value {
        Some(v) => v,
        None if with_value => {
            return Err(Error::location(
                4161103,
                format!("{name} requires 'value' to be specified"),
            ));
        }
        None => Expression::parse_in(&Bson::String("$$REMOVE".into()), scope)?,
    };
    let input = input.ok_or_else(|| {
        Error::location(4161109, format!("{name} requires 'input' to be specified"))
    })?;
    check_constant_field(name, &field, [4161106, 4161107])?;
    Ok(vec![field, input, value])
}

fn set_field(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let input = arg(args, 1, vars)?;
    let mut doc = match input {
        None | Some(Bson::Null | Bson::Undefined) => return Ok(Some(Bson::Null)),
        Some(Bson::Document(d)) => d,
        Some(_) => {
            return Err(Error::location(
                4161105,
                "$setField requires 'input' to evaluate to type Object",
            ));
        }
    };
    let field = field_name(args);
    match arg(args, 2, vars)? {
        Some(v) => {
            doc.insert(field, v);
        }
        None => {
            doc.remove(field);
        }
    }
    Ok(Some(Bson::Document(doc)))
}

fn merge_objects(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let mut out = Document::new();
    for a in args {
        let v = a.eval(vars)?;
        match v {
            None | Some(Bson::Null | Bson::Undefined) => {}
            Some(Bson::Document(d)) => out.extend(d),
            other => {
                return Err(Error::location(
                    40400,
                    format!(
                        "$mergeObjects requires object inputs, but input {} is of type {}",
                        other.as_ref().map_or_else(String::new, key_value),
                        type_of(&other)
                    ),
                ));
            }
        }
    }
    Ok(Some(Bson::Document(out)))
}

fn object_to_array(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let v = arg(args, 0, vars)?;
    if nullish(&v) {
        return Ok(Some(Bson::Null));
    }
    let Some(Bson::Document(d)) = v else {
        return Err(Error::location(
            40390,
            format!(
                "$objectToArray requires a document input, found: {}",
                type_of(&v)
            ),
        ));
    };
    Ok(Some(Bson::Array(
        d.into_iter()
            .map(|(k, v)| Bson::Document(bson::doc! {"k": k, "v": v}))
            .collect(),
    )))
}

fn array_to_object(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let v = arg(args, 0, vars)?;
    if nullish(&v) {
        return Ok(Some(Bson::Null));
    }
    let Some(Bson::Array(items)) = v else {
        return Err(Error::location(
            40386,
            format!(
                "$arrayToObject requires an array input, found: {}",
                type_of(&v)
            ),
        ));
    };
    let mut out = Document::new();
    let pairs_of_arrays = match items.first() {
        None => return Ok(Some(Bson::Document(out))),
        Some(Bson::Array(_)) => true,
        Some(Bson::Document(_)) => false,
        Some(other) => {
            return Err(Error::location(
                40398,
                format!(
                    "Unrecognised input type format for $arrayToObject: {}",
                    type_name(other)
                ),
            ));
        }
    };
    for item in items {
        let (key, value) = if pairs_of_arrays {
            key_value_of_pair(item)?
        } else {
            key_value_of_document(item)?
        };
        if key.contains('\0') {
            return Err(Error::location(
                4940400,
                "Key field cannot contain an embedded null byte",
            ));
        }
        out.insert(key, value);
    }
    Ok(Some(Bson::Document(out)))
}

fn key_value_of_pair(item: Bson) -> Result<(String, Bson)> {
    let Bson::Array(pair) = item else {
        return Err(Error::location(
            40396,
            format!(
                "$arrayToObject requires a consistent input format. Elements must all be arrays \
                 or all be objects. Array format was detected based on the first element, found \
                 type: {}",
                type_name(&item)
            ),
        ));
    };
    let mut pair = pair.into_iter();
    match (pair.next(), pair.next(), pair.next()) {
        (Some(Bson::String(k)), Some(v), None) => Ok((k, v)),
        (Some(k), Some(_), None) => Err(Error::location(
            40395,
            format!(
                "$arrayToObject requires an array of key-value pairs, where the key must be of \
                 type string. Found key type: {}",
                type_name(&k)
            ),
        )),
        (a, b, c) => {
            let n = [a.is_some(), b.is_some(), c.is_some()]
                .iter()
                .filter(|x| **x)
                .count()
                + pair.count();
            Err(Error::location(
                40397,
                format!(
                    "$arrayToObject requires an array of size 2 arrays,found array of size: {n}"
                ),
            ))
        }
    }
}

fn key_value_of_document(item: Bson) -> Result<(String, Bson)> {
    let Bson::Document(d) = item else {
        return Err(Error::location(
            40391,
            format!(
                "$arrayToObject requires a consistent input format. Elements must all be arrays \
                 or all be objects. Object format was detected based on the first element, found \
                 type: {}",
                type_name(&item)
            ),
        ));
    };
    if d.len() != 2 {
        return Err(Error::location(
            40392,
            format!(
                "$arrayToObject requires an object keys of 'k' and 'v'. Found incorrect number of \
                 keys:{}",
                d.len()
            ),
        ));
    }
    let (Some(k), Some(v)) = (d.get("k"), d.get("v")) else {
        return Err(Error::location(
            40393,
            format!(
                "$arrayToObject requires an object with keys 'k' and 'v'. Missing either or both \
                 keys from: {}",
                key_value(&Bson::Document(d.clone()))
            ),
        ));
    };
    match k {
        Bson::String(k) => Ok((k.clone(), v.clone())),
        other => Err(Error::location(
            40394,
            format!(
                "$arrayToObject requires an object with keys 'k' and 'v', where the value of 'k' \
                 must be of type string. Found type: {}",
                type_name(other)
            ),
        )),
    }
}
