//! `$median` and `$percentile` with `method: 'approximate'`. MongoDB's approximate method is a
//! t-digest whose answers are data points; on the data sizes Sprout holds in memory the exact
//! discrete percentile (the value at rank ⌈p·n⌉ − 1 of the sorted numbers) is what it returns.
//! Non-numeric inputs are ignored; with no numbers the result is null.

use bson::Bson;

use crate::error::{Error, ErrorCode, Result};
use crate::expression::{Expression, Scope};
use crate::fold::number_as_f64;
use crate::value::display::{key_value, type_name};

/// Parses `{input, p, method}` (`$median`: `{input, method}`); returns the input and the `p`s.
pub fn parse(name: &str, spec: &Bson, scope: &Scope) -> Result<(Expression, Vec<f64>)> {
    let median = name == "$median";
    let Bson::Document(d) = spec else {
        return Err(Error::location(
            if median { 7436100 } else { 7429703 },
            format!("specification must be an object; found {}", key_value(spec)),
        ));
    };
    let (mut input, mut p, mut method) = (None, None, None);
    for (k, v) in d {
        match k.as_str() {
            "input" => input = Some(v),
            "p" if !median => p = Some(v),
            "method" => method = Some(v),
            _ => {
                return Err(Error::location(
                    40415,
                    format!("BSON field '{name}.{k}' is an unknown field."),
                ));
            }
        }
    }
    let missing = |field: &str| {
        Error::location(
            40414,
            format!("BSON field '{name}.{field}' is missing but a required field"),
        )
    };
    let input = input.ok_or_else(|| missing("input"))?;
    let ps = if median {
        vec![0.5]
    } else {
        parse_p(p.ok_or_else(|| missing("p"))?, scope)?
    };
    match method.ok_or_else(|| missing("method"))? {
        Bson::String(m) if m == "approximate" => {}
        Bson::String(_) => {
            return Err(Error::bad_value(
                "Currently only 'approximate' can be used as percentile 'method'.",
            ));
        }
        other => {
            return Err(Error::new(
                ErrorCode::TypeMismatch,
                format!(
                    "BSON field '{name}.method' is the wrong type '{}', expected type 'string'",
                    type_name(other)
                ),
            ));
        }
    }
    Ok((Expression::parse_in(input, scope)?, ps))
}

/// `p`: a constant array of numbers in [0, 1].
fn parse_p(p: &Bson, scope: &Scope) -> Result<Vec<f64>> {
    let expr = Expression::parse_in(p, scope)?;
    // A constant expression (a literal array, `$$` constants) evaluates without a document.
    let value = match &expr {
        Expression::Constant(v) => Some(v.clone()),
        Expression::Array(items) if items.iter().all(|i| i.as_constant().is_some()) => {
            expr.evaluate(&bson::Document::new())?
        }
        _ => None,
    };
    let Some(value) = value else {
        return Err(Error::location(
            7750300,
            format!(
                "The $percentile 'p' field must be an array of constant values, but found \
                 value: {}.",
                key_value(p)
            ),
        ));
    };
    let msg = "The $percentile 'p' field must be an array of numbers from [0.0, 1.0], but found: ";
    let items = match &value {
        Bson::Array(items) if !items.is_empty() => items,
        other => {
            return Err(Error::location(
                7750301,
                format!("{msg}{}", key_value(other)),
            ));
        }
    };
    let mut ps = Vec::with_capacity(items.len());
    for item in items {
        let Some(x) = number_as_f64(item) else {
            return Err(Error::location(
                7750302,
                format!("{msg}{}", key_value(item)),
            ));
        };
        if !(0.0..=1.0).contains(&x) {
            return Err(Error::location(7750303, format!("{msg}{x}")));
        }
        ps.push(x);
    }
    Ok(ps)
}

/// A number the quantile accumulators take in.
pub fn as_number(v: &Bson) -> Option<f64> {
    number_as_f64(v).filter(|x| !x.is_nan())
}

/// The percentiles of the samples: one double for `$median`, an array for `$percentile`.
pub fn value(samples: &[f64], ps: &[f64], median: bool) -> Bson {
    let mut sorted = samples.to_vec();
    crate::sort_slice::sort_by(&mut sorted, f64::total_cmp);
    let at = |p: f64| -> Bson {
        if sorted.is_empty() {
            return Bson::Null;
        }
        let n = sorted.len();
        let rank = if p >= 1.0 {
            n - 1
        } else {
            ((p * n as f64).ceil() as usize)
                .saturating_sub(1)
                .min(n - 1)
        };
        Bson::Double(sorted[rank])
    };
    if median {
        at(0.5)
    } else {
        Bson::Array(ps.iter().map(|p| at(*p)).collect())
    }
}
