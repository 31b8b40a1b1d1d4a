//! `$setWindowFields: {partitionBy, sortBy, output: {<field>: {<function>: <args>, window}}}`:
//! each document gains fields computed over a window of the documents of its partition. As in
//! MongoDB, documents come out sorted by partition key, then by `sortBy`. Windows are
//! `documents: [lower, upper]` (positions relative to the current document) or `range: [lower,
//! upper]` (values relative to the current document's `sortBy` value, dates with a `unit`);
//! a bound is a number, `"current"` or `"unbounded"`; without a window the whole partition.

use std::collections::BTreeMap;

use bson::{Bson, Document};

use super::window_function::{Partition, WindowFunction, set_path, sort_number, unit_millis};
use crate::error::{Error, ErrorCode, Result};
use crate::expression::{Expression, Scope, Vars};
use crate::pipeline::memory::{self, Held};
use crate::pipeline::{ParseContext, RunContext, Stage};
use crate::sort::SortSpec;
use crate::value::OrderedValue;
use crate::value::display::{key_value, type_name};

#[derive(Debug)]
pub struct SetWindowFields {
    partition_by: Option<Expression>,
    sort_by: Option<SortSpec>,
    sort_spec: Option<Document>,
    outputs: Vec<OutputField>,
}

#[derive(Debug)]
struct OutputField {
    path: String,
    function: WindowFunction,
    window: Option<Window>,
    spec: Bson,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Bound {
    Unbounded,
    Current,
    Offset(f64),
}

#[derive(Debug, Clone)]
enum Window {
    Documents(Bound, Bound),
    Range {
        lower: Bound,
        upper: Bound,
        unit_ms: Option<f64>,
    },
}

fn parse_error(message: impl Into<String>) -> Error {
    Error::new(ErrorCode::FailedToParse, message)
}

pub fn parse(arg: &Bson, cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    let Bson::Document(spec) = arg else {
        return Err(parse_error(format!(
            "the $setWindowFields stage specification must be an object, found {}",
            type_name(arg)
        )));
    };
    let (mut partition_by, mut sort_by, mut sort_spec, mut output) = (None, None, None, None);
    for (k, v) in spec {
        match k.as_str() {
            "partitionBy" => partition_by = Some(Expression::parse_in(v, cx.scope)?),
            "sortBy" => {
                let Bson::Document(s) = v else {
                    return Err(Error::type_mismatch(format!(
                        "BSON field '$setWindowFields.sortBy' is the wrong type '{}', expected \
                         type 'object'",
                        type_name(v)
                    )));
                };
                sort_by = Some(SortSpec::parse(s)?);
                sort_spec = Some(s.clone());
            }
            "output" => {
                let Bson::Document(o) = v else {
                    return Err(Error::type_mismatch(format!(
                        "BSON field '$setWindowFields.output' is the wrong type '{}', expected \
                         type 'object'",
                        type_name(v)
                    )));
                };
                output = Some(o);
            }
            _ => {
                return Err(Error::location(
                    40415,
                    format!("BSON field '$setWindowFields.{k}' is an unknown field."),
                ));
            }
        }
    }
    let output = output.ok_or_else(|| {
        Error::location(
            40414,
            "BSON field '$setWindowFields.output' is missing but a required field",
        )
    })?;
    let mut outputs = Vec::with_capacity(output.len());
    for (path, v) in output {
        let field = parse_output_field(path, v, cx.scope)?;
        check_sort(&field, sort_by.as_ref())?;
        outputs.push(field);
    }
    Ok(Box::new(SetWindowFields {
        partition_by,
        sort_by,
        sort_spec,
        outputs,
    }))
}

fn parse_output_field(path: &str, v: &Bson, scope: &Scope) -> Result<OutputField> {
    if path.starts_with('$') {
        return Err(parse_error(format!(
            "Output field name cannot start with '$': {path}"
        )));
    }
    let Bson::Document(d) = v else {
        return Err(parse_error(format!("The field '{path}' must be an object")));
    };
    let mut function = None;
    let mut window = None;
    for (k, arg) in d {
        if k == "window" {
            window = Some(parse_window(arg)?);
        } else if k.starts_with('$') {
            if function.is_some() {
                return Err(parse_error(
                    "Cannot specify multiple functions in window function spec",
                ));
            }
            function = Some(WindowFunction::parse(k, arg, scope)?);
        } else {
            return Err(parse_error(format!(
                "Window function found an unknown argument: {k}"
            )));
        }
    }
    let function = function.ok_or_else(|| parse_error("Expected a $-prefixed window function"))?;
    if window.is_some() && !function.accepts_window() {
        return Err(parse_error(format!(
            "{} does not accept a 'window' field",
            d.keys().find(|k| *k != "window").map_or("", String::as_str)
        )));
    }
    Ok(OutputField {
        path: path.to_string(),
        function,
        window,
        spec: v.clone(),
    })
}

fn check_sort(field: &OutputField, sort: Option<&SortSpec>) -> Result<()> {
    let fields = sort.map_or(0, |s| s.keys().len());
    if let Some((name, exactly)) = field.function.sort_requirement() {
        let ok = match exactly {
            Some(n) => fields == n,
            None => fields > 0,
        };
        if !ok {
            return Err(Error::location(
                5371602,
                format!(
                    "{name} must be specified with a top level sortBy expression with exactly \
                     one element"
                ),
            ));
        }
    }
    if let Some(Window::Range { .. }) = field.window
        && fields != 1
    {
        return Err(Error::location(
            5339902,
            "Range-based bounds require sortBy a single field",
        ));
    }
    Ok(())
}

fn parse_window(v: &Bson) -> Result<Window> {
    let Bson::Document(d) = v else {
        return Err(parse_error("'window' field must be an object"));
    };
    let (mut documents, mut range, mut unit) = (None, None, None);
    for (k, v) in d {
        match k.as_str() {
            "documents" => documents = Some(parse_bounds(v, true)?),
            "range" => range = Some(parse_bounds(v, false)?),
            "unit" => unit = Some(unit_millis(v)?),
            _ => {
                return Err(parse_error(format!(
                    "'window' field can only contain 'documents' as the only argument or \
                     'range' with an optional 'unit' field, found: {k}"
                )));
            }
        }
    }
    match (documents, range) {
        (Some((lower, upper)), None) if unit.is_none() => Ok(Window::Documents(lower, upper)),
        (None, Some((lower, upper))) => Ok(Window::Range {
            lower,
            upper,
            unit_ms: unit,
        }),
        _ => Err(parse_error(
            "'window' field can only contain 'documents' as the only argument or 'range' with \
             an optional 'unit' field",
        )),
    }
}

fn parse_bounds(v: &Bson, documents: bool) -> Result<(Bound, Bound)> {
    let kind = if documents { "documents" } else { "range" };
    let Bson::Array(items) = v else {
        return Err(parse_error(format!(
            "Window bounds must be a 2-element array: {kind}: {}",
            key_value(v)
        )));
    };
    let [lower, upper] = items.as_slice() else {
        return Err(parse_error(format!(
            "Window bounds must be a 2-element array: {kind}: {}",
            key_value(v)
        )));
    };
    let bound = |b: &Bson| -> Result<Bound> {
        match b {
            Bson::String(s) if s == "unbounded" => Ok(Bound::Unbounded),
            Bson::String(s) if s == "current" => Ok(Bound::Current),
            other => match crate::accumulator::sum::as_f64(other) {
                Some(x) if !documents || x.fract() == 0.0 => Ok(Bound::Offset(x)),
                _ => Err(parse_error(format!(
                    "Numeric {kind} window bounds must be {}: {}",
                    if documents { "an integer" } else { "a number" },
                    key_value(other)
                ))),
            },
        }
    };
    let (lo, hi) = (bound(lower)?, bound(upper)?);
    let as_num = |b: Bound| match b {
        Bound::Unbounded => None,
        Bound::Current => Some(0.0),
        Bound::Offset(x) => Some(x),
    };
    let bad_order = matches!((as_num(lo), as_num(hi)), (Some(a), Some(b)) if a > b);
    if bad_order {
        return Err(parse_error(format!(
            "Lower bound must not exceed upper bound: {}",
            key_value(v)
        )));
    }
    Ok((lo, hi))
}

impl SetWindowFields {
    /// The `[lo, hi)` positions of document `i`'s window.
    fn window_of(
        &self,
        field: &OutputField,
        part: &Partition<'_>,
        i: usize,
    ) -> Result<(usize, usize)> {
        let n = part.docs.len();
        match &field.window {
            None => Ok((0, n)),
            Some(Window::Documents(lower, upper)) => {
                let at = |b: &Bound, unbounded: i64| -> i64 {
                    match b {
                        Bound::Unbounded => unbounded,
                        Bound::Current => i as i64,
                        Bound::Offset(x) => i as i64 + *x as i64,
                    }
                };
                let lo = at(lower, 0).clamp(0, n as i64) as usize;
                let hi = (at(upper, n as i64 - 1) + 1).clamp(0, n as i64) as usize;
                Ok((lo, hi.max(lo)))
            }
            Some(Window::Range {
                lower,
                upper,
                unit_ms,
            }) => {
                let value = |j: usize| -> Result<f64> {
                    let v = part.keys[j].first().cloned().unwrap_or(Bson::Null);
                    match (&v, unit_ms) {
                        (Bson::DateTime(d), Some(_)) => Ok(d.timestamp_millis() as f64),
                        (Bson::DateTime(_), None) => Err(Error::location(
                            5429513,
                            "Invalid range: Expected the sortBy field to be a number, but it \
                             was a date; a date sortBy needs a 'unit'",
                        )),
                        (_, Some(_)) => Err(Error::location(
                            5429513,
                            format!(
                                "Invalid range: Expected the sortBy field to be a Date, but it \
                                 was {}",
                                type_name(&v)
                            ),
                        )),
                        _ => sort_number(&v).ok_or_else(|| {
                            Error::location(
                                5429414,
                                format!(
                                    "Invalid range: Expected the sortBy field to be a number, \
                                     but it was {}",
                                    type_name(&v)
                                ),
                            )
                        }),
                    }
                };
                let scale = unit_ms.unwrap_or(1.0);
                let current = value(i)?;
                let limit = |b: &Bound| match b {
                    Bound::Unbounded => None,
                    Bound::Current => Some(current),
                    Bound::Offset(x) => Some(current + x * scale),
                };
                let (low, high) = (limit(lower), limit(upper));
                let mut lo = n;
                let mut hi = 0;
                for j in 0..n {
                    let x = value(j)?;
                    if low.is_none_or(|l| x >= l) && high.is_none_or(|h| x <= h) {
                        lo = lo.min(j);
                        hi = hi.max(j + 1);
                    }
                }
                Ok(if lo >= hi { (0, 0) } else { (lo, hi) })
            }
        }
    }
}

impl Stage for SetWindowFields {
    fn name(&self) -> &'static str {
        "$setWindowFields"
    }

    fn apply(&self, input: Vec<Document>, cx: &RunContext<'_>) -> Result<Vec<Document>> {
        // With `sortBy` or `partitionBy` MongoDB puts a `$sort` of the whole input in front;
        // without, the whole input is the one partition the stage holds.
        let held = if self.sort_by.is_some() || self.partition_by.is_some() {
            Held::Sort
        } else {
            Held::WindowPartition
        };
        memory::check(held, "$setWindowFields", memory::held_bytes(&input), cx)?;
        // Partitions in ascending key order; each partition sorted stably by sortBy.
        let mut partitions: BTreeMap<OrderedValue, Vec<Document>> = BTreeMap::new();
        for doc in input {
            let key = match &self.partition_by {
                Some(e) => e
                    .eval(&Vars::with_context(&doc, cx.eval))?
                    .unwrap_or(Bson::Null),
                None => Bson::Null,
            };
            partitions.entry(OrderedValue(key)).or_default().push(doc);
        }
        let mut out = Vec::new();
        // The computed values (a `$push` over a growing window copies the window each time).
        let mut budget = memory::OutputBudget::new("$setWindowFields");
        for (_, mut docs) in partitions {
            let keys: Vec<Vec<Bson>> = match &self.sort_by {
                Some(sort) => {
                    let mut keyed: Vec<(Vec<Bson>, Document)> =
                        docs.into_iter().map(|d| (sort.key_values(&d), d)).collect();
                    crate::sort_slice::sort_by(&mut keyed, |a, b| sort.compare_keys(&a.0, &b.0));
                    let (keys, sorted): (Vec<_>, Vec<_>) = keyed.into_iter().unzip();
                    docs = sorted;
                    keys
                }
                None => vec![Vec::new(); docs.len()],
            };
            let part = Partition {
                docs: &docs,
                keys: &keys,
                sort: self.sort_by.as_ref(),
            };
            let mut computed: Vec<Vec<Bson>> = Vec::with_capacity(docs.len());
            for i in 0..docs.len() {
                let mut values = Vec::with_capacity(self.outputs.len());
                for field in &self.outputs {
                    let (lo, hi) = self.window_of(field, &part, i)?;
                    let v = field.function.value(&part, i, lo, hi)?;
                    budget.add(crate::value::bson_size::value_size(&v))?;
                    values.push(v);
                }
                computed.push(values);
            }
            for (mut doc, values) in docs.into_iter().zip(computed) {
                for (field, v) in self.outputs.iter().zip(values) {
                    set_path(&mut doc, &field.path, v);
                }
                out.push(doc);
            }
        }
        Ok(out)
    }

    fn serialize(&self) -> Document {
        let mut spec = Document::new();
        if let Some(p) = &self.partition_by {
            spec.insert("partitionBy", p.serialize());
        }
        if let Some(s) = &self.sort_spec {
            spec.insert("sortBy", s.clone());
        }
        let mut output = Document::new();
        for f in &self.outputs {
            output.insert(f.path.clone(), f.spec.clone());
        }
        spec.insert("output", output);
        let mut d = Document::new();
        d.insert("$setWindowFields", spec);
        d
    }
}
