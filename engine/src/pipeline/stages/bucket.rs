//! `$bucket: {groupBy, boundaries, default, output}`: documents grouped into the ranges
//! `[boundaries[i], boundaries[i+1])` (the lower boundary is the bucket's `_id`), values outside
//! every range into the `default` bucket; buckets come out sorted by `_id`. As in MongoDB (which
//! rewrites `$bucket` into `$group` over a `$switch`), a value that falls in no bucket without a
//! `default` is error 40066.

use std::cmp::Ordering;

use bson::{Bson, Document};

use super::group::group_documents;
use crate::accumulator::AccumulationStatement;
use crate::error::{Error, Result};
use crate::expression::{Expression, Scope};
use crate::pipeline::memory::{self, Held};
use crate::pipeline::{ParseContext, RunContext, Stage};
use crate::value::display::{key_value, type_name};
use crate::value::{canonical_type_rank, compare_values};

#[derive(Debug)]
pub struct Bucket {
    group_by: Expression,
    boundaries: Vec<Bson>,
    default: Option<Bson>,
    output: Vec<AccumulationStatement>,
}

pub fn parse(arg: &Bson, cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    let Bson::Document(spec) = arg else {
        return Err(Error::location(
            40201,
            format!(
                "Argument to $bucket stage must be an object, but found type: {}.",
                type_name(arg)
            ),
        ));
    };
    let (mut group_by, mut boundaries, mut default, mut output) = (None, None, None, None);
    for (k, v) in spec {
        match k.as_str() {
            "groupBy" => group_by = Some(parse_group_by("$bucket", 40202, v, cx.scope)?),
            "boundaries" => {
                let Bson::Array(items) = v else {
                    return Err(Error::location(
                        40200,
                        format!(
                            "The $bucket 'boundaries' field must be an array, but found type: {}.",
                            type_name(v)
                        ),
                    ));
                };
                boundaries = Some(constants(items, cx.scope)?);
            }
            "default" => {
                let e = Expression::parse_in(v, cx.scope)?;
                let Some(c) = e.as_constant() else {
                    return Err(Error::location(
                        40195,
                        format!(
                            "The $bucket 'default' field must be a constant expression, but \
                             found: {}.",
                            key_value(v)
                        ),
                    ));
                };
                default = Some(c.clone());
            }
            "output" => output = Some(parse_output("$bucket", 40196, v, cx.scope)?),
            _ => {
                return Err(Error::location(
                    40197,
                    format!("Unrecognized option to $bucket: {k}."),
                ));
            }
        }
    }
    let (Some(group_by), Some(boundaries)) = (group_by, boundaries) else {
        return Err(Error::location(
            40198,
            "$bucket requires 'groupBy' and 'boundaries' to be specified.",
        ));
    };
    check_boundaries(&boundaries, default.as_ref())?;
    Ok(Box::new(Bucket {
        group_by,
        boundaries,
        default,
        output: output.unwrap_or_else(default_output),
    }))
}

/// `groupBy` of `$bucket`/`$bucketAuto`: a `$`-path or an expression object.
pub(crate) fn parse_group_by(
    stage: &str,
    code: i32,
    v: &Bson,
    scope: &Scope,
) -> Result<Expression> {
    match v {
        Bson::String(s) if s.starts_with('$') => Expression::parse_in(v, scope),
        Bson::Document(_) => Expression::parse_in(v, scope),
        other => Err(Error::location(
            code,
            format!(
                "The {stage} 'groupBy' field must be defined as a $-prefixed path or an \
                 expression object, but found: {}.",
                key_value(other)
            ),
        )),
    }
}

/// `output` of `$bucket`/`$bucketAuto`: accumulators like `$group`'s fields.
pub(crate) fn parse_output(
    stage: &str,
    code: i32,
    v: &Bson,
    scope: &Scope,
) -> Result<Vec<AccumulationStatement>> {
    let Bson::Document(d) = v else {
        return Err(Error::location(
            code,
            format!(
                "The {stage} 'output' field must be an object, but found type: {}.",
                type_name(v)
            ),
        ));
    };
    d.iter()
        .map(|(k, v)| AccumulationStatement::parse(k, v, scope))
        .collect()
}

/// The output when none is given: `{count: {$sum: 1}}`.
pub(crate) fn default_output() -> Vec<AccumulationStatement> {
    let count = bson::bson!({"$sum": 1});
    AccumulationStatement::parse("count", &count, &Scope::default())
        .map(|s| vec![s])
        .unwrap_or_default()
}

fn constants(items: &[Bson], scope: &Scope) -> Result<Vec<Bson>> {
    items
        .iter()
        .map(|item| {
            let e = Expression::parse_in(item, scope)?;
            e.as_constant().cloned().ok_or_else(|| {
                Error::location(
                    40191,
                    format!(
                        "The $bucket 'boundaries' field must be an array of constant values, \
                         but found value: {}.",
                        key_value(item)
                    ),
                )
            })
        })
        .collect()
}

fn check_boundaries(boundaries: &[Bson], default: Option<&Bson>) -> Result<()> {
    if boundaries.len() < 2 {
        return Err(Error::location(
            40192,
            format!(
                "The $bucket 'boundaries' field must have at least 2 values, but found {} \
                 value(s).",
                boundaries.len()
            ),
        ));
    }
    for (i, pair) in boundaries.windows(2).enumerate() {
        let (a, b) = (&pair[0], &pair[1]);
        if canonical_type_rank(a) != canonical_type_rank(b) {
            return Err(Error::location(
                40193,
                format!(
                    "All values in the the 'boundaries' option to $bucket must have the same \
                     type. Found conflicting types {} and {}.",
                    type_name(a),
                    type_name(b)
                ),
            ));
        }
        if compare_values(a, b) != Ordering::Less {
            return Err(Error::location(
                40194,
                format!(
                    "The 'boundaries' option to $bucket must be sorted, but elements {} and {} \
                     are not in ascending order ({} is not less than {}).",
                    i,
                    i + 1,
                    key_value(a),
                    key_value(b)
                ),
            ));
        }
    }
    if let Some(d) = default {
        let lowest = &boundaries[0];
        let highest = &boundaries[boundaries.len() - 1];
        let same_type = canonical_type_rank(d) == canonical_type_rank(lowest);
        if same_type
            && compare_values(d, lowest) != Ordering::Less
            && compare_values(d, highest) == Ordering::Less
        {
            return Err(Error::location(
                40199,
                "The $bucket 'default' field must be less than the lowest boundary or greater \
                 than or equal to the highest boundary.",
            ));
        }
    }
    Ok(())
}

impl Bucket {
    /// The `_id` of the bucket a value falls in.
    fn bucket_of(&self, v: Option<Bson>) -> Result<Bson> {
        if let Some(v) = &v {
            for pair in self.boundaries.windows(2) {
                if compare_values(v, &pair[0]) != Ordering::Less
                    && compare_values(v, &pair[1]) == Ordering::Less
                {
                    return Ok(pair[0].clone());
                }
            }
        }
        self.default.clone().ok_or_else(|| {
            Error::location(
                40066,
                "$switch could not find a matching branch for an input, and no default was \
                 specified.",
            )
        })
    }
}

impl Stage for Bucket {
    fn name(&self) -> &'static str {
        "$bucket"
    }

    fn apply(&self, input: Vec<Document>, cx: &RunContext<'_>) -> Result<Vec<Document>> {
        let mut out = group_documents(&input, &self.output, cx.eval, |vars| {
            self.bucket_of(self.group_by.eval(vars)?)
        })?;
        memory::check(Held::Group, "$bucket", memory::held_bytes(&out), cx)?;
        crate::sort_slice::sort_by(&mut out, |a, b| compare_values(id_of(a), id_of(b)));
        Ok(out)
    }

    fn serialize(&self) -> Document {
        let mut spec = Document::new();
        spec.insert("groupBy", self.group_by.serialize());
        spec.insert("boundaries", self.boundaries.clone());
        if let Some(d) = &self.default {
            spec.insert("default", d.clone());
        }
        let mut output = Document::new();
        for s in &self.output {
            output.insert(s.field.clone(), s.accumulator.serialize());
        }
        spec.insert("output", output);
        let mut d = Document::new();
        d.insert("$bucket", spec);
        d
    }
}

/// A grouped document's `_id` (null if absent).
pub(crate) fn id_of(d: &Document) -> &Bson {
    d.get("_id").unwrap_or(&Bson::Null)
}
