//! `$skip`: drops the first n documents.

use bson::{Bson, Document, doc};

use super::non_negative_integer;
use crate::error::{Error, Result};
use crate::pipeline::{ParseContext, QueryPart, RunContext, Stage};

#[derive(Debug)]
pub struct Skip {
    pub skip: i64,
}

pub fn parse(arg: &Bson, _cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    let skip =
        non_negative_integer("$skip", arg).map_err(|reason| Error::location(5107200, reason))?;
    Ok(Box::new(Skip { skip }))
}

impl Stage for Skip {
    fn name(&self) -> &'static str {
        "$skip"
    }

    fn apply(&self, input: Vec<Document>, _cx: &RunContext<'_>) -> Result<Vec<Document>> {
        let n = usize::try_from(self.skip).unwrap_or(usize::MAX);
        Ok(input.into_iter().skip(n).collect())
    }

    fn apply_with_meta(
        &self,
        input: Vec<Document>,
        meta: Option<Vec<crate::expression::DocumentMeta>>,
        _cx: &RunContext<'_>,
    ) -> Result<crate::pipeline::Batch> {
        let n = usize::try_from(self.skip).unwrap_or(usize::MAX);
        let meta = meta.map(|m| m.into_iter().skip(n).collect());
        Ok((input.into_iter().skip(n).collect(), meta))
    }

    fn query_part(&self) -> Option<QueryPart<'_>> {
        Some(QueryPart::Skip(self.skip))
    }

    fn serialize(&self) -> Document {
        doc! {"$skip": self.skip}
    }
}
