//! `$limit`: passes the first n documents.

use bson::{Bson, Document, doc};

use super::non_negative_integer;
use crate::error::{Error, Result};
use crate::pipeline::{ParseContext, QueryPart, RunContext, Stage};

#[derive(Debug)]
pub struct Limit {
    pub limit: i64,
}

pub fn parse(arg: &Bson, _cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    let limit =
        non_negative_integer("$limit", arg).map_err(|reason| Error::location(5107201, reason))?;
    if limit == 0 {
        return Err(Error::location(15958, "the limit must be positive"));
    }
    Ok(Box::new(Limit { limit }))
}

impl Stage for Limit {
    fn name(&self) -> &'static str {
        "$limit"
    }

    fn apply(&self, mut input: Vec<Document>, _cx: &RunContext<'_>) -> Result<Vec<Document>> {
        input.truncate(usize::try_from(self.limit).unwrap_or(usize::MAX));
        Ok(input)
    }

    fn apply_with_meta(
        &self,
        mut input: Vec<Document>,
        mut meta: Option<Vec<crate::expression::DocumentMeta>>,
        _cx: &RunContext<'_>,
    ) -> Result<crate::pipeline::Batch> {
        let n = usize::try_from(self.limit).unwrap_or(usize::MAX);
        input.truncate(n);
        if let Some(m) = meta.as_mut() {
            m.truncate(n);
        }
        Ok((input, meta))
    }

    fn query_part(&self) -> Option<QueryPart<'_>> {
        Some(QueryPart::Limit(self.limit))
    }

    fn serialize(&self) -> Document {
        doc! {"$limit": self.limit}
    }
}
