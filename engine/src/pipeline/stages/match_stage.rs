//! `$match`: keeps the documents the query filter matches (the engine's matcher).

use bson::{Bson, Document, doc};

use crate::error::{Error, Result};
use crate::expression::Scope;
use crate::matcher::Filter;
use crate::pipeline::{ParseContext, QueryPart, RunContext, Stage};

#[derive(Debug)]
pub struct Match {
    spec: Document,
    filter: Filter,
}

pub fn parse(arg: &Bson, cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    let Bson::Document(spec) = arg else {
        return Err(Error::location(
            15959,
            "the match filter must be an expression in an object",
        ));
    };
    let stage = Match::new(spec, cx.scope)?;
    // MongoDB refuses `$where` in a pipeline's `$match` (BadValue; jstests/aggregation/bugs/
    // server6335.js expects ErrorCodes.BadValue).
    if stage.filter.has_where() {
        return Err(Error::bad_value(
            "$where is not allowed inside of a $match aggregation expression",
        ));
    }
    // MatchExpressionParser without AllowedFeatures::kGeoNear (document_source_match.cpp).
    if stage.filter.has_near() {
        return Err(Error::bad_value(
            "$geoNear, $near, and $nearSphere are not allowed in this context",
        ));
    }
    Ok(Box::new(stage))
}

impl Match {
    /// A `$match` of `spec` (the optimizer's merged and split filters).
    pub fn new(spec: &Document, scope: &Scope) -> Result<Match> {
        Ok(Match {
            spec: spec.clone(),
            filter: Filter::parse_in(spec, scope)?,
        })
    }
}

impl Stage for Match {
    fn name(&self) -> &'static str {
        "$match"
    }

    fn apply(&self, input: Vec<Document>, cx: &RunContext<'_>) -> Result<Vec<Document>> {
        let mut out = Vec::with_capacity(input.len());
        for d in input {
            if self.filter.matches_with(&d, cx.match_ctx)? {
                out.push(d);
            }
        }
        Ok(out)
    }

    fn apply_with_meta(
        &self,
        input: Vec<Document>,
        meta: Option<Vec<crate::expression::DocumentMeta>>,
        cx: &RunContext<'_>,
    ) -> Result<crate::pipeline::Batch> {
        crate::pipeline::filter_meta(input, meta, |d, m| {
            self.filter.matches_with(d, &cx.match_ctx.with_meta(m))
        })
    }

    fn query_part(&self) -> Option<QueryPart<'_>> {
        Some(QueryPart::Filter(&self.spec))
    }

    fn serialize(&self) -> Document {
        doc! {"$match": self.filter.parsed_query()}
    }
}
