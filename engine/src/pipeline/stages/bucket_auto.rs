//! `$bucketAuto: {groupBy, buckets, output, granularity}`: documents sorted by the `groupBy`
//! value and cut into about `buckets` buckets of equal size, as MongoDB does: each bucket takes
//! round(n / buckets) documents (the last bucket takes the rest), then every following document
//! with the same value (or, with a granularity, below the rounded-up boundary); a bucket's `_id`
//! is `{min, max}` where max is the next bucket's min (the last bucket's max is its largest
//! value, or the rounded-up boundary with a granularity).

use std::cmp::Ordering;

use bson::{Bson, Document, doc};

use super::bucket::{default_output, parse_group_by, parse_output};
use super::granularity::Granularity;
use crate::accumulator::{AccumulationStatement, State};
use crate::error::{Error, Result};
use crate::expression::{EvalContext, Expression, Vars};
use crate::pipeline::memory::{self, Held};
use crate::pipeline::{ParseContext, RunContext, Stage};
use crate::value::compare_values;
use crate::value::display::type_name;

#[derive(Debug)]
pub struct BucketAuto {
    group_by: Expression,
    buckets: usize,
    output: Vec<AccumulationStatement>,
    granularity: Option<Granularity>,
}

pub fn parse(arg: &Bson, cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    let Bson::Document(spec) = arg else {
        return Err(Error::location(
            40240,
            format!(
                "The argument to $bucketAuto must be an object, but found type: {}",
                type_name(arg)
            ),
        ));
    };
    let (mut group_by, mut buckets, mut output, mut granularity) = (None, None, None, None);
    for (k, v) in spec {
        match k.as_str() {
            "groupBy" => group_by = Some(parse_group_by("$bucketAuto", 40239, v, cx.scope)?),
            "buckets" => buckets = Some(parse_buckets(v)?),
            "output" => output = Some(parse_output("$bucketAuto", 40244, v, cx.scope)?),
            "granularity" => {
                let Bson::String(name) = v else {
                    return Err(Error::location(
                        40261,
                        format!(
                            "The $bucketAuto 'granularity' field must be a string, but found \
                             type: {}",
                            type_name(v)
                        ),
                    ));
                };
                granularity = Some(Granularity::parse(name)?);
            }
            _ => {
                return Err(Error::location(
                    40245,
                    format!("Unrecognized option to $bucketAuto: {k}."),
                ));
            }
        }
    }
    let (Some(group_by), Some(buckets)) = (group_by, buckets) else {
        return Err(Error::location(
            40246,
            "$bucketAuto requires 'groupBy' and 'buckets' to be specified",
        ));
    };
    Ok(Box::new(BucketAuto {
        group_by,
        buckets,
        output: output.unwrap_or_else(default_output),
        granularity,
    }))
}

fn parse_buckets(v: &Bson) -> Result<usize> {
    let Some(x) = crate::accumulator::sum::as_f64(v) else {
        return Err(Error::location(
            40241,
            format!(
                "The $bucketAuto 'buckets' field must be a numeric value, but found type: {}",
                type_name(v)
            ),
        ));
    };
    if x.fract() != 0.0 || x < f64::from(i32::MIN) || x > f64::from(i32::MAX) {
        return Err(Error::location(
            40242,
            format!(
                "The $bucketAuto 'buckets' field must be representable as a 32-bit integer, \
                 but found {}",
                crate::value::display::key_value(v)
            ),
        ));
    }
    if x <= 0.0 {
        return Err(Error::location(
            40243,
            format!(
                "The $bucketAuto 'buckets' field must be greater than 0, but found: {}",
                x as i64
            ),
        ));
    }
    Ok(x as usize)
}

/// One bucket being filled.
struct Filling {
    min: Bson,
    max: Bson,
    states: Vec<State>,
}

impl BucketAuto {
    /// The `groupBy` value of a document (missing is null), checked against the granularity.
    fn key(&self, vars: &Vars<'_>) -> Result<Bson> {
        let key = self.group_by.eval(vars)?.unwrap_or(Bson::Null);
        if self.granularity.is_some() {
            let Some(x) = crate::accumulator::sum::as_f64(&key) else {
                return Err(Error::location(
                    40258,
                    format!(
                        "$bucketAuto can specify a 'granularity' with numeric boundaries only, \
                         but found a value with type: {}",
                        type_name(&key)
                    ),
                ));
            };
            if x.is_nan() {
                return Err(Error::location(
                    40259,
                    "$bucketAuto can specify a 'granularity' with numeric boundaries only, but \
                     found a NaN",
                ));
            }
            if x < 0.0 {
                return Err(Error::location(
                    40260,
                    "$bucketAuto can specify a 'granularity' with non-negative numbers only, \
                     but found a negative number",
                ));
            }
        }
        Ok(key)
    }

    fn add(
        &self,
        bucket: &mut Filling,
        key: &Bson,
        doc: &Document,
        eval: &EvalContext,
    ) -> Result<()> {
        bucket.max = key.clone();
        let vars = Vars::with_context(doc, eval);
        for (s, state) in self.output.iter().zip(bucket.states.iter_mut()) {
            s.accumulator.accumulate(state, &vars)?;
        }
        Ok(())
    }

    fn finish(&self, bucket: Filling) -> Document {
        let mut out = doc! {"_id": {"min": bucket.min, "max": bucket.max}};
        for (s, state) in self.output.iter().zip(&bucket.states) {
            out.insert(s.field.clone(), s.accumulator.value(state));
        }
        out
    }
}

impl Stage for BucketAuto {
    fn name(&self) -> &'static str {
        "$bucketAuto"
    }

    fn apply(&self, input: Vec<Document>, cx: &RunContext<'_>) -> Result<Vec<Document>> {
        // MongoDB sorts the whole input by the groupBy value first.
        memory::check(Held::Sort, "$bucketAuto", memory::held_bytes(&input), cx)?;
        let mut keyed = Vec::with_capacity(input.len());
        for doc in input {
            let key = self.key(&Vars::with_context(&doc, cx.eval))?;
            keyed.push((key, doc));
        }
        // Stable: equal keys keep their arrival order, as MongoDB's positional sort key does.
        crate::sort_slice::sort_by(&mut keyed, |a, b| compare_values(&a.0, &b.0));
        let n = keyed.len();
        let approx = ((n as f64 / self.buckets as f64).round() as usize).max(1);
        let mut out = Vec::new();
        let mut items = keyed.into_iter().peekable();
        let mut previous_max: Option<Bson> = None;
        let mut bucket_number = 0;
        while let Some((key, doc)) = items.next() {
            bucket_number += 1;
            let min = match (&self.granularity, &previous_max) {
                (Some(_), Some(max)) => max.clone(),
                (Some(g), None) => g.round_down(&key)?,
                (None, _) => key.clone(),
            };
            let states = self
                .output
                .iter()
                .map(|s| s.accumulator.start(&Bson::Null))
                .collect::<Result<Vec<_>>>()?;
            let mut bucket = Filling {
                min,
                max: key.clone(),
                states,
            };
            self.add(&mut bucket, &key, &doc, cx.eval)?;
            let last_bucket = bucket_number == self.buckets;
            let mut taken = 1;
            while taken < approx || last_bucket {
                let Some((k, d)) = items.next() else { break };
                self.add(&mut bucket, &k, &d, cx.eval)?;
                taken += 1;
            }
            match &self.granularity {
                Some(g) => {
                    let boundary = g.round_up(&bucket.max)?;
                    while let Some((k, _)) = items.peek() {
                        let absorbs = compare_values(&boundary, k) == Ordering::Greater
                            || compare_values(&bucket.max, k) == Ordering::Equal;
                        if !absorbs {
                            break;
                        }
                        if let Some((k, d)) = items.next() {
                            self.add(&mut bucket, &k, &d, cx.eval)?;
                        }
                    }
                    let at_zero = crate::accumulator::sum::as_f64(&boundary) == Some(0.0);
                    bucket.max = match items.peek() {
                        Some((next, _)) if at_zero => g.round_down(next)?,
                        _ => boundary,
                    };
                }
                None => {
                    while let Some((k, _)) = items.peek() {
                        if compare_values(&bucket.max, k) != Ordering::Equal {
                            break;
                        }
                        if let Some((k, d)) = items.next() {
                            self.add(&mut bucket, &k, &d, cx.eval)?;
                        }
                    }
                    if let Some((next, _)) = items.peek() {
                        bucket.max = next.clone();
                    }
                }
            }
            previous_max = Some(bucket.max.clone());
            out.push(self.finish(bucket));
        }
        Ok(out)
    }

    fn serialize(&self) -> Document {
        let mut spec = doc! {
            "groupBy": self.group_by.serialize(),
            "buckets": i32::try_from(self.buckets).unwrap_or(i32::MAX),
        };
        if let Some(g) = &self.granularity {
            spec.insert("granularity", g.name());
        }
        let mut output = Document::new();
        for s in &self.output {
            output.insert(s.field.clone(), s.accumulator.serialize());
        }
        spec.insert("output", output);
        doc! {"$bucketAuto": spec}
    }
}
