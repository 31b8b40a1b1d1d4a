//! The window functions of `$setWindowFields`: every accumulator (`$sum`, `$topN`...) over a
//! window of documents, and the order-aware functions `$rank $denseRank $documentNumber $shift
//! $expMovingAvg $derivative $integral $covariancePop $covarianceSamp $locf $linearFill`.

use std::cmp::Ordering;

use bson::{Bson, Document};

use crate::accumulator::Accumulator;
use crate::error::{Error, Result};
use crate::expression::{Expression, Scope, Vars};
use crate::sort::SortSpec;
use crate::value::display::key_value;

/// A parsed window function.
#[derive(Debug)]
pub enum WindowFunction {
    Accumulator(Accumulator),
    Rank {
        dense: bool,
    },
    DocumentNumber,
    Shift {
        output: Expression,
        by: i64,
        default: Bson,
    },
    ExpMovingAvg {
        input: Expression,
        alpha: f64,
    },
    Derivative {
        input: Expression,
        unit_ms: Option<f64>,
    },
    Integral {
        input: Expression,
        unit_ms: Option<f64>,
    },
    Covariance {
        x: Expression,
        y: Expression,
        sample: bool,
    },
    Locf(Expression),
    LinearFill(Expression),
}

/// A partition ready for evaluation: its documents in sort order and their sort keys.
pub struct Partition<'a> {
    pub docs: &'a [Document],
    pub keys: &'a [Vec<Bson>],
    pub sort: Option<&'a SortSpec>,
}

impl WindowFunction {
    pub fn parse(name: &str, arg: &Bson, scope: &Scope) -> Result<WindowFunction> {
        let no_args = |f: WindowFunction| -> Result<WindowFunction> {
            match arg {
                Bson::Document(d) if d.is_empty() => Ok(f),
                _ => Err(Error::location(
                    5371603,
                    format!("{name} must be specified with '{{}}' as the value"),
                )),
            }
        };
        Ok(match name {
            "$rank" => no_args(WindowFunction::Rank { dense: false })?,
            "$denseRank" => no_args(WindowFunction::Rank { dense: true })?,
            "$documentNumber" => no_args(WindowFunction::DocumentNumber)?,
            "$shift" => parse_shift(arg, scope)?,
            "$expMovingAvg" => parse_exp_moving_avg(arg, scope)?,
            "$derivative" | "$integral" => {
                let (input, unit_ms) = parse_input_unit(name, arg, scope)?;
                if name == "$derivative" {
                    WindowFunction::Derivative { input, unit_ms }
                } else {
                    WindowFunction::Integral { input, unit_ms }
                }
            }
            "$covariancePop" | "$covarianceSamp" => {
                let Bson::Array(items) = arg else {
                    return Err(Error::location(
                        5424000,
                        format!("{name} requires an array of two expressions"),
                    ));
                };
                let [x, y] = items.as_slice() else {
                    return Err(Error::location(
                        5424000,
                        format!("{name} requires an array of two expressions"),
                    ));
                };
                WindowFunction::Covariance {
                    x: Expression::parse_in(x, scope)?,
                    y: Expression::parse_in(y, scope)?,
                    sample: name == "$covarianceSamp",
                }
            }
            "$locf" => WindowFunction::Locf(Expression::parse_in(arg, scope)?),
            "$linearFill" => WindowFunction::LinearFill(Expression::parse_in(arg, scope)?),
            _ => match Accumulator::parse(name, arg, scope)? {
                Some(acc) => WindowFunction::Accumulator(acc),
                None => {
                    return Err(Error::new(
                        crate::error::ErrorCode::FailedToParse,
                        format!("Unrecognized window function, {name}"),
                    ));
                }
            },
        })
    }

    /// Whether the function needs `sortBy`, and how many fields it may have (`None`: any).
    pub fn sort_requirement(&self) -> Option<(&'static str, Option<usize>)> {
        match self {
            WindowFunction::Rank { dense: false } => Some(("$rank", Some(1))),
            WindowFunction::Rank { dense: true } => Some(("$denseRank", Some(1))),
            WindowFunction::DocumentNumber => Some(("$documentNumber", None)),
            WindowFunction::Shift { .. } => Some(("$shift", None)),
            WindowFunction::ExpMovingAvg { .. } => Some(("$expMovingAvg", None)),
            WindowFunction::Derivative { .. } => Some(("$derivative", Some(1))),
            WindowFunction::Integral { .. } => Some(("$integral", Some(1))),
            WindowFunction::LinearFill(_) => Some(("$linearFill", Some(1))),
            WindowFunction::Locf(_) => None,
            WindowFunction::Covariance { .. } | WindowFunction::Accumulator(_) => None,
        }
    }

    /// Whether a `window` may be given (the ranking and fill functions take none).
    pub fn accepts_window(&self) -> bool {
        !matches!(
            self,
            WindowFunction::Rank { .. }
                | WindowFunction::DocumentNumber
                | WindowFunction::Shift { .. }
                | WindowFunction::ExpMovingAvg { .. }
                | WindowFunction::Locf(_)
                | WindowFunction::LinearFill(_)
        )
    }

    /// The function's value for document `i` of the partition over the window `[lo, hi)`.
    pub fn value(&self, part: &Partition<'_>, i: usize, lo: usize, hi: usize) -> Result<Bson> {
        let window = &part.docs[lo.min(hi)..hi];
        match self {
            WindowFunction::Accumulator(acc) => {
                let mut state = acc.start(&Bson::Null)?;
                for d in window {
                    acc.accumulate(&mut state, &Vars::new(d))?;
                }
                Ok(acc.value(&state))
            }
            WindowFunction::DocumentNumber => Ok(int_or_long(i + 1)),
            WindowFunction::Rank { dense } => Ok(rank(part, i, *dense)),
            WindowFunction::Shift {
                output,
                by,
                default,
            } => {
                let target = i as i64 + by;
                match usize::try_from(target).ok().and_then(|t| part.docs.get(t)) {
                    Some(d) => Ok(output.evaluate(d)?.unwrap_or(Bson::Null)),
                    None => Ok(default.clone()),
                }
            }
            WindowFunction::ExpMovingAvg { input, alpha } => {
                let mut avg: Option<f64> = None;
                for d in &part.docs[..=i] {
                    if let Some(x) = input.evaluate(d)?.as_ref().and_then(number) {
                        avg = Some(match avg {
                            None => x,
                            Some(prev) => alpha * x + (1.0 - alpha) * prev,
                        });
                    }
                }
                Ok(avg.map_or(Bson::Null, Bson::Double))
            }
            WindowFunction::Derivative { input, unit_ms } => {
                let points = points(part, lo, hi, input, *unit_ms)?;
                match (points.first(), points.last()) {
                    (Some(a), Some(b)) if points.len() >= 2 && b.0 != a.0 => {
                        Ok(Bson::Double((b.1 - a.1) / (b.0 - a.0)))
                    }
                    _ => Ok(Bson::Null),
                }
            }
            WindowFunction::Integral { input, unit_ms } => {
                let points = points(part, lo, hi, input, *unit_ms)?;
                if points.is_empty() {
                    return Ok(Bson::Null);
                }
                let area: f64 = points
                    .windows(2)
                    .map(|w| (w[0].1 + w[1].1) / 2.0 * (w[1].0 - w[0].0))
                    .sum();
                Ok(Bson::Double(area))
            }
            WindowFunction::Covariance { x, y, sample } => {
                let mut pairs = Vec::new();
                for d in window {
                    let (a, b) = (x.evaluate(d)?, y.evaluate(d)?);
                    if let (Some(a), Some(b)) =
                        (a.as_ref().and_then(number), b.as_ref().and_then(number))
                    {
                        pairs.push((a, b));
                    }
                }
                let n = pairs.len() as f64;
                if pairs.is_empty() || (*sample && pairs.len() < 2) {
                    return Ok(Bson::Null);
                }
                let (mx, my) = (
                    pairs.iter().map(|p| p.0).sum::<f64>() / n,
                    pairs.iter().map(|p| p.1).sum::<f64>() / n,
                );
                let c: f64 = pairs.iter().map(|(a, b)| (a - mx) * (b - my)).sum();
                Ok(Bson::Double(c / if *sample { n - 1.0 } else { n }))
            }
            WindowFunction::Locf(input) => {
                for d in part.docs[..=i].iter().rev() {
                    match input.evaluate(d)? {
                        None | Some(Bson::Null) => continue,
                        Some(v) => return Ok(v),
                    }
                }
                Ok(Bson::Null)
            }
            WindowFunction::LinearFill(input) => linear_fill(part, i, input),
        }
    }
}

fn int_or_long(n: usize) -> Bson {
    i32::try_from(n).map_or(Bson::Int64(n as i64), Bson::Int32)
}

fn number(v: &Bson) -> Option<f64> {
    crate::accumulator::sum::as_f64(v)
}

/// `$rank`: 1 + the number of documents sorting strictly before; `$denseRank`: 1 + the number
/// of distinct sort keys before.
fn rank(part: &Partition<'_>, i: usize, dense: bool) -> Bson {
    let Some(sort) = part.sort else {
        return Bson::Null;
    };
    let key = &part.keys[i];
    let mut r = 1;
    let mut previous: Option<&Vec<Bson>> = None;
    for k in &part.keys[..i] {
        if sort.compare_keys(k, key) == Ordering::Less {
            let distinct = previous.is_none_or(|p| sort.compare_keys(p, k) != Ordering::Equal);
            if !dense || distinct {
                r += 1;
            }
            previous = Some(k);
        }
    }
    int_or_long(r)
}

/// The (x, y) points of a window: x is the sort value (dates in `unit`s), y the input.
fn points(
    part: &Partition<'_>,
    lo: usize,
    hi: usize,
    input: &Expression,
    unit_ms: Option<f64>,
) -> Result<Vec<(f64, f64)>> {
    let mut out = Vec::new();
    for j in lo..hi {
        let x = match part.keys[j].first() {
            Some(Bson::DateTime(d)) => match unit_ms {
                Some(u) => d.timestamp_millis() as f64 / u,
                None => {
                    return Err(Error::location(
                        5624900,
                        "For windows that involve date or time ranges, a unit must be provided.",
                    ));
                }
            },
            Some(v) => match number(v) {
                Some(x) if unit_ms.is_none() => x,
                Some(_) => {
                    return Err(Error::location(
                        5624901,
                        "For windows that involve date or time ranges, a unit must be provided.",
                    ));
                }
                None => continue,
            },
            None => continue,
        };
        if let Some(y) = input.evaluate(&part.docs[j])?.as_ref().and_then(number) {
            out.push((x, y));
        }
    }
    Ok(out)
}

fn linear_fill(part: &Partition<'_>, i: usize, input: &Expression) -> Result<Bson> {
    let value_at = |j: usize| -> Result<Option<Bson>> {
        Ok(input
            .evaluate(&part.docs[j])?
            .filter(|v| !matches!(v, Bson::Null)))
    };
    if let Some(v) = value_at(i)? {
        return Ok(v);
    }
    let x_at = |j: usize| part.keys[j].first().and_then(sort_number);
    let mut before = None;
    for j in (0..i).rev() {
        if let Some(v) = value_at(j)? {
            before = Some((j, v));
            break;
        }
    }
    let mut after = None;
    for j in i + 1..part.docs.len() {
        if let Some(v) = value_at(j)? {
            after = Some((j, v));
            break;
        }
    }
    let (Some((a, va)), Some((b, vb))) = (before, after) else {
        return Ok(Bson::Null);
    };
    let (Some(ya), Some(yb), Some(xa), Some(xb), Some(x)) =
        (number(&va), number(&vb), x_at(a), x_at(b), x_at(i))
    else {
        return Err(Error::location(
            6050106,
            "There can be no repeated values in the sortBy field, and $linearFill requires \
             numeric values to fill",
        ));
    };
    if xb == xa {
        return Ok(Bson::Null);
    }
    Ok(Bson::Double(ya + (yb - ya) * (x - xa) / (xb - xa)))
}

/// A sort value as a number (dates as milliseconds).
pub fn sort_number(v: &Bson) -> Option<f64> {
    match v {
        Bson::DateTime(d) => Some(d.timestamp_millis() as f64),
        other => number(other),
    }
}

fn parse_shift(arg: &Bson, scope: &Scope) -> Result<WindowFunction> {
    let Bson::Document(d) = arg else {
        return Err(Error::location(
            5788600,
            "Argument to $shift must be an object",
        ));
    };
    let (mut output, mut by, mut default) = (None, None, Bson::Null);
    for (k, v) in d {
        match k.as_str() {
            "output" => output = Some(Expression::parse_in(v, scope)?),
            "by" => {
                by = Some(match v {
                    Bson::Int32(i) => i64::from(*i),
                    Bson::Int64(i) => *i,
                    Bson::Double(f) if f.fract() == 0.0 => *f as i64,
                    _ => {
                        return Err(Error::location(
                            5788602,
                            "'$shift:by' field must be an integer, but found by: ".to_string()
                                + &key_value(v),
                        ));
                    }
                })
            }
            "default" => {
                let e = Expression::parse_in(v, scope)?;
                default = e.as_constant().cloned().ok_or_else(|| {
                    Error::location(
                        5788603,
                        "'$shift:default' expression must yield a constant value.",
                    )
                })?;
            }
            _ => {
                return Err(Error::location(
                    5788604,
                    format!("Unknown argument in $shift: {k}"),
                ));
            }
        }
    }
    let output = output
        .ok_or_else(|| Error::location(5788601, "$shift requires an 'output' expression."))?;
    let by =
        by.ok_or_else(|| Error::location(5788602, "$shift requires 'by' as an integer value."))?;
    Ok(WindowFunction::Shift {
        output,
        by,
        default,
    })
}

fn parse_exp_moving_avg(arg: &Bson, scope: &Scope) -> Result<WindowFunction> {
    let Bson::Document(d) = arg else {
        return Err(Error::location(
            5433600,
            "$expMovingAvg must have exactly one argument that is an object",
        ));
    };
    let (mut input, mut alpha) = (None, None);
    let mut both = false;
    for (k, v) in d {
        match k.as_str() {
            "input" => input = Some(Expression::parse_in(v, scope)?),
            "N" => {
                both |= alpha.is_some();
                let n = match v {
                    Bson::Int32(i) => i64::from(*i),
                    Bson::Int64(i) => *i,
                    Bson::Double(f) if f.fract() == 0.0 => *f as i64,
                    _ => 0,
                };
                if n <= 0 {
                    return Err(Error::location(
                        5433603,
                        "'N' field must be an integer, but found type ".to_string()
                            + crate::value::display::type_name(v),
                    ));
                }
                alpha = Some(2.0 / (n as f64 + 1.0));
            }
            "alpha" => {
                both |= alpha.is_some();
                match number(v) {
                    Some(a) if a > 0.0 && a < 1.0 => alpha = Some(a),
                    _ => {
                        return Err(Error::location(
                            5433606,
                            "'alpha' must be between 0 and 1 (exclusive), found alpha: "
                                .to_string()
                                + &key_value(v),
                        ));
                    }
                }
            }
            _ => {
                return Err(Error::location(
                    5433605,
                    format!(
                        "Got unrecognized field in $expMovingAvg, $expMovingAvg sub object must have exactly two fields: An 'input' field, and either an 'N' field or an 'alpha' field, but found {k}"
                    ),
                ));
            }
        }
    }
    let (Some(input), Some(alpha)) = (input, alpha) else {
        return Err(Error::location(
            5433602,
            "$expMovingAvg sub object must have exactly two fields: An 'input' field, and \
             either an 'N' field or an 'alpha' field",
        ));
    };
    if both {
        return Err(Error::location(
            5433602,
            "$expMovingAvg sub object must have exactly two fields: An 'input' field, and \
             either an 'N' field or an 'alpha' field",
        ));
    }
    Ok(WindowFunction::ExpMovingAvg { input, alpha })
}

fn parse_input_unit(name: &str, arg: &Bson, scope: &Scope) -> Result<(Expression, Option<f64>)> {
    let Bson::Document(d) = arg else {
        return Err(Error::location(
            5490700,
            format!(
                "{name} expects an object, but got a {}",
                crate::value::display::type_name(arg)
            ),
        ));
    };
    let (mut input, mut unit) = (None, None);
    for (k, v) in d {
        match k.as_str() {
            "input" => input = Some(Expression::parse_in(v, scope)?),
            "unit" => unit = Some(unit_millis(v)?),
            _ => {
                return Err(Error::location(
                    5490701,
                    format!("{name} got unexpected argument: {k}"),
                ));
            }
        }
    }
    let input = input.ok_or_else(|| {
        Error::location(5490702, format!("{name} requires an 'input' expression"))
    })?;
    Ok((input, unit))
}

/// A fixed-length time unit in milliseconds (`week` and shorter).
pub fn unit_millis(v: &Bson) -> Result<f64> {
    let Bson::String(u) = v else {
        return Err(Error::location(
            5490703,
            format!(
                "'unit' must be a string, but got {}",
                crate::value::display::type_name(v)
            ),
        ));
    };
    Ok(match u.as_str() {
        "week" => 604_800_000.0,
        "day" => 86_400_000.0,
        "hour" => 3_600_000.0,
        "minute" => 60_000.0,
        "second" => 1_000.0,
        "millisecond" => 1.0,
        "month" | "quarter" | "year" => {
            return Err(Error::location(5490704, "unit must be 'week' or smaller"));
        }
        other => {
            return Err(Error::bad_value(format!(
                "unknown time unit value: {other}"
            )));
        }
    })
}

/// The output of a window function set into a document at a dotted path.
pub fn set_path(doc: &mut Document, path: &str, value: Bson) {
    match path.split_once('.') {
        None => {
            doc.insert(path, value);
        }
        Some((head, rest)) => {
            let mut inner = match doc.get(head) {
                Some(Bson::Document(d)) => d.clone(),
                _ => Document::new(),
            };
            set_path(&mut inner, rest, value);
            doc.insert(head, inner);
        }
    }
}
