//! `$sort`: orders the documents (MongoDB's sort-key rules, stable for equal keys).

use bson::{Bson, Document, doc};

use crate::error::{Error, Result};
use crate::pipeline::memory::{self, Held};
use crate::pipeline::{ModifiedPaths, ParseContext, QueryPart, RunContext, Stage};
use crate::sort::SortSpec;

#[derive(Debug)]
pub struct Sort {
    pub spec: Document,
    sort: SortSpec,
    /// A following `$limit` absorbed by the optimizer (a top-k sort).
    pub limit: Option<i64>,
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
        limit: None,
    }))
}

impl Sort {
    /// The same sort keeping only its first `limit` documents.
    pub fn with_limit(spec: &Document, limit: i64) -> Result<Sort> {
        Ok(Sort {
            spec: spec.clone(),
            sort: SortSpec::parse(spec)?,
            limit: Some(limit),
        })
    }
}

impl Stage for Sort {
    fn name(&self) -> &'static str {
        "$sort"
    }

    fn apply(&self, input: Vec<Document>, cx: &RunContext<'_>) -> Result<Vec<Document>> {
        // The sort is stable: equal keys keep their incoming order.
        let mut refs: Vec<&Document> = input.iter().collect();
        self.sort.sort(&mut refs);
        let keep = self
            .limit
            .map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX));
        // A top-k sort holds only the k best documents at a time.
        let held = memory::held_bytes(refs.iter().take(keep).copied());
        memory::check(Held::Sort, "$sort", held, cx)?;
        Ok(refs.into_iter().take(keep).cloned().collect())
    }

    fn query_part(&self) -> Option<QueryPart<'_>> {
        Some(match self.limit {
            Some(n) => QueryPart::SortLimit(&self.spec, n),
            None => QueryPart::Sort(&self.spec),
        })
    }

    /// A sort changes no value, but one that keeps only its top documents decides which
    /// documents a later `$match` sees.
    fn modified_paths(&self) -> ModifiedPaths {
        match self.limit {
            Some(_) => ModifiedPaths::All,
            None => ModifiedPaths::Only(Vec::new()),
        }
    }

    fn serialize(&self) -> Document {
        let mut spec = doc! {"sortKey": self.spec.clone()};
        if let Some(n) = self.limit {
            spec.insert("limit", n);
        }
        doc! {"$sort": spec}
    }
}
