//! `$sortByCount: <expression>`: `$group` by the expression with `count: {$sum: 1}`, then
//! sorted by count, largest first (ties keep the groups' first-seen order).

use bson::{Bson, Document};

use super::bucket::default_output;
use super::group::group_documents;
use crate::accumulator::AccumulationStatement;
use crate::error::{Error, Result};
use crate::expression::Expression;
use crate::pipeline::memory::{self, Held};
use crate::pipeline::{ParseContext, RunContext, Stage};
use crate::value::compare_values;

#[derive(Debug)]
pub struct SortByCount {
    key: Expression,
    count: Vec<AccumulationStatement>,
}

pub fn parse(arg: &Bson, cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    let key = match arg {
        Bson::String(s) if s.starts_with('$') => Expression::parse_in(arg, cx.scope)?,
        Bson::String(_) => {
            return Err(Error::location(
                40148,
                "the sortByCount field must be defined as a $-prefixed path or an expression inside \
                 an object",
            ));
        }
        Bson::Document(d) => {
            if !d.keys().next().is_some_and(|k| k.starts_with('$')) {
                return Err(Error::location(
                    40147,
                    "the sortByCount field must be defined as a $-prefixed path or an expression \
                     inside an object",
                ));
            }
            Expression::parse_in(arg, cx.scope)?
        }
        _ => {
            return Err(Error::location(
                40149,
                "the sortByCount field must be specified as a string or as an object",
            ));
        }
    };
    Ok(Box::new(SortByCount {
        key,
        count: default_output(),
    }))
}

impl Stage for SortByCount {
    fn name(&self) -> &'static str {
        "$sortByCount"
    }

    fn apply(&self, input: Vec<Document>, cx: &RunContext<'_>) -> Result<Vec<Document>> {
        let mut out = group_documents(&input, &self.count, cx.eval, |vars| {
            Ok(self.key.eval(vars)?.unwrap_or(Bson::Null))
        })?;
        memory::check(Held::Group, "$sortByCount", memory::held_bytes(&out), cx)?;
        let count = |d: &Document| d.get("count").cloned().unwrap_or(Bson::Null);
        crate::sort_slice::sort_by(&mut out, |a, b| compare_values(&count(b), &count(a)));
        Ok(out)
    }

    /// MongoDB shows the `$group` and `$sort` it stands for.
    fn serialize(&self) -> Document {
        bson::doc! {
            "$group": {"_id": self.key.serialize(), "count": {"$sum": {"$const": 1}}},
            "$sort": {"count": -1},
        }
    }
}
