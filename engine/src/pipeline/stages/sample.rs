//! `$sample: {size: n}`: n documents chosen at random, in random order. The randomness comes
//! from the command's seeded generator, so a seeded engine gives the same sample every run.

use bson::{Bson, Document, doc};

use crate::error::{Error, Result};
use crate::expression::DocumentMeta;
use crate::pipeline::{ParseContext, RunContext, Stage};

#[derive(Debug)]
pub struct Sample {
    size: i64,
}

pub fn parse(arg: &Bson, _cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    let Bson::Document(spec) = arg else {
        return Err(Error::location(
            28745,
            "the $sample stage specification must be an object",
        ));
    };
    let mut size = None;
    for (k, v) in spec {
        if k != "size" {
            return Err(Error::location(
                28748,
                format!("unrecognized option to $sample: {k}"),
            ));
        }
        let n = match v {
            Bson::Int32(i) => i64::from(*i),
            Bson::Int64(i) => *i,
            Bson::Double(d) if d.is_finite() => *d as i64,
            Bson::Decimal128(d) => crate::value::Decimal::from_bson(d)
                .to_i64_truncated()
                .unwrap_or(i64::MAX),
            _ => {
                return Err(Error::location(
                    28746,
                    "size argument to $sample must be a number",
                ));
            }
        };
        if n < 0 {
            return Err(Error::location(
                28747,
                "size argument to $sample must not be negative",
            ));
        }
        size = Some(n);
    }
    let Some(size) = size else {
        return Err(Error::location(28749, "$sample stage must specify a size"));
    };
    Ok(Box::new(Sample { size }))
}

impl Sample {
    /// A partial Fisher-Yates shuffle: the first slots (as many as returned) end up a uniform
    /// sample; `meta`, when given, moves with its documents.
    fn shuffle(
        &self,
        input: &mut [Document],
        mut meta: Option<&mut Vec<DocumentMeta>>,
        cx: &RunContext<'_>,
    ) -> usize {
        let take = usize::try_from(self.size)
            .unwrap_or(usize::MAX)
            .min(input.len());
        for i in 0..take {
            let remaining = input.len() - i;
            let offset = ((cx.eval.next_random() * remaining as f64) as usize).min(remaining - 1);
            input.swap(i, i + offset);
            if let Some(m) = meta.as_deref_mut() {
                m.swap(i, i + offset);
            }
        }
        take
    }
}

impl Stage for Sample {
    fn name(&self) -> &'static str {
        "$sample"
    }

    fn apply(&self, mut input: Vec<Document>, cx: &RunContext<'_>) -> Result<Vec<Document>> {
        let take = self.shuffle(&mut input, None, cx);
        input.truncate(take);
        Ok(input)
    }

    /// The sampled documents keep their metadata and each gets a `randVal`, the random number
    /// it was drawn with; they come out highest `randVal` first, as MongoDB's `$sample` sorts
    /// by `{$meta: "randVal"}`.
    fn apply_with_meta(
        &self,
        mut input: Vec<Document>,
        meta: Option<Vec<DocumentMeta>>,
        cx: &RunContext<'_>,
    ) -> Result<crate::pipeline::Batch> {
        let mut meta = meta.unwrap_or_else(|| vec![DocumentMeta::default(); input.len()]);
        let take = self.shuffle(&mut input, Some(&mut meta), cx);
        input.truncate(take);
        meta.truncate(take);
        let mut draws: Vec<f64> = (0..take).map(|_| cx.eval.next_random()).collect();
        draws.sort_by(|a, b| b.total_cmp(a));
        for (m, r) in meta.iter_mut().zip(draws) {
            m.rand_val = Some(r);
        }
        Ok((input, Some(meta)))
    }

    fn serialize(&self) -> Document {
        doc! {"$sample": {"size": self.size}}
    }
}
