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
        sort: SortSpec::parse_stage(spec)?,
        limit: None,
    }))
}

impl Sort {
    /// The same sort keeping only its first `limit` documents.
    pub fn with_limit(spec: &Document, limit: i64) -> Result<Sort> {
        Ok(Sort {
            spec: spec.clone(),
            sort: SortSpec::parse_stage(spec)?,
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

    /// Documents carrying metadata keep it, a `{$meta: …}` key sorts by it, highest first,
    /// and each document's `sortKey` becomes the values it was ordered by (MongoDB's
    /// `{$meta: "sortKey"}`; taking them costs nothing more, the sort extracted them).
    fn apply_with_meta(
        &self,
        input: Vec<Document>,
        meta: Option<Vec<crate::expression::DocumentMeta>>,
        cx: &RunContext<'_>,
    ) -> Result<crate::pipeline::Batch> {
        let Some(meta) = meta else {
            return Ok((self.apply(input, cx)?, None));
        };
        let keep = self
            .limit
            .map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX));
        let mut keyed: Vec<(Vec<Bson>, usize)> = input
            .iter()
            .enumerate()
            .map(|(i, d)| (self.sort.key_values(d), i))
            .collect();
        // Stable: equal keys keep their incoming order.
        crate::sort_slice::sort_by(&mut keyed, |a, b| {
            self.sort
                .compare_with_meta(&a.0, &meta[a.1], &b.0, &meta[b.1])
                .then(a.1.cmp(&b.1))
        });
        keyed.truncate(keep);
        let held = memory::held_bytes(keyed.iter().map(|k| &input[k.1]));
        memory::check(Held::Sort, "$sort", held, cx)?;
        let mut docs: Vec<Option<Document>> = input.into_iter().map(Some).collect();
        let mut metas: Vec<Option<crate::expression::DocumentMeta>> =
            meta.into_iter().map(Some).collect();
        let (mut out, mut out_meta) = (Vec::with_capacity(keyed.len()), Vec::new());
        for (values, i) in keyed {
            out.extend(docs[i].take());
            if let Some(mut m) = metas[i].take() {
                m.sort_key = Some(self.sort.sort_key_with_meta(values, &m));
                out_meta.push(m);
            }
        }
        Ok((out, Some(out_meta)))
    }

    fn query_part(&self) -> Option<QueryPart<'_>> {
        // A find has no near distance or random value to sort by.
        if self.sort.needs_stage_metadata() {
            return None;
        }
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
