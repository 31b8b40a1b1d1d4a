//! `$sort`: orders the documents (MongoDB's sort-key rules, stable for equal keys).

use bson::{Bson, Document, doc};

use crate::error::{Error, Result};
use crate::pipeline::{ParseContext, QueryPart, RunContext, Stage};
use crate::query::sort::SortSpec;

#[derive(Debug)]
pub struct Sort {
    pub spec: Document,
    sort: SortSpec,
}

pub fn parse(arg: &Bson, _cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    let Bson::Document(spec) = arg else {
        return Err(Error::location(
            15973,
            "the $sort key specification must be an object",
        ));
    };
    if spec.is_empty() {
        return Err(Error::location(
            15976,
            "$sort stage must have at least one sort key",
        ));
    }
    Ok(Box::new(Sort {
        spec: spec.clone(),
        sort: SortSpec::parse(spec)?,
    }))
}

impl Stage for Sort {
    fn name(&self) -> &'static str {
        "$sort"
    }

    fn apply(&self, input: Vec<Document>, _cx: &RunContext<'_>) -> Result<Vec<Document>> {
        // The sort is stable: equal keys keep their incoming order.
        let mut refs: Vec<&Document> = input.iter().collect();
        self.sort.sort(&mut refs);
        Ok(refs.into_iter().cloned().collect())
    }

    fn query_part(&self) -> Option<QueryPart<'_>> {
        Some(QueryPart::Sort(&self.spec))
    }

    fn serialize(&self) -> Document {
        doc! {"$sort": {"sortKey": self.spec.clone()}}
    }
}
