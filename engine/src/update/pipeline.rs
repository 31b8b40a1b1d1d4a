//! Pipeline-style updates (`u: [{$set: …}, {$unset: …}]`): the document runs through a restricted
//! aggregation pipeline and the result replaces it, as MongoDB's PipelineExecutor does (a
//! replacement that keeps the `_id` when the result has none and may hold `$`-prefixed fields).

use std::rc::Rc;

use bson::{Bson, Document};

use super::identical::identical_documents;
use super::replacement;
use crate::catalog::Catalog;
use crate::error::{Error, ErrorCode, Result};
use crate::expression::{EvalContext, Scope};
use crate::matcher::MatchContext;
use crate::pipeline::{Pipeline, RunContext};

/// The stages MongoDB allows within an update (`isAllowedWithinUpdatePipeline`).
const ALLOWED_STAGES: [&str; 6] = [
    "$addFields",
    "$set",
    "$project",
    "$unset",
    "$replaceRoot",
    "$replaceWith",
];

/// A parsed update pipeline (shared: a parsed stage is not cloneable).
#[derive(Debug, Clone)]
pub struct PipelineUpdate {
    pipeline: Rc<Pipeline>,
}

impl PipelineUpdate {
    /// Parses the stages with the command's `let` constants, then refuses the stages an update
    /// may not use (after the whole pipeline parsed, as MongoDB checks them).
    pub fn parse(stages: &[Bson], scope: &Scope) -> Result<PipelineUpdate> {
        let pipeline = Pipeline::parse_stages(stages, scope, false)?;
        if let Some(stage) = pipeline
            .stages()
            .iter()
            .find(|s| !ALLOWED_STAGES.contains(&s.name()))
        {
            return Err(Error::new(
                ErrorCode::InvalidOptions,
                format!(
                    "{} is not allowed to be used within an update",
                    stage.name()
                ),
            ));
        }
        Ok(PipelineUpdate {
            pipeline: Rc::new(pipeline),
        })
    }

    /// Runs the pipeline over `doc` and replaces it with the result: `None` when the result is
    /// byte-for-byte the document (MongoDB's no-op test, so a result without its `_id` counts
    /// as a modification even though the `_id` is then kept).
    pub fn apply(&self, doc: &Document, eval: &EvalContext) -> Result<Option<Document>> {
        let transformed = self.transform(doc, eval)?;
        if identical_documents(&transformed, doc) {
            return Ok(None);
        }
        let replaced = replacement::replace(doc, &transformed)?;
        Ok(Some(replaced.unwrap_or_else(|| doc.clone())))
    }

    /// The document an upsert inserts: the query's seed run through the pipeline; an `_id` the
    /// seed has may not change.
    pub fn upsert_document(&self, seed: &Document, eval: &EvalContext) -> Result<Document> {
        let transformed = self.transform(seed, eval)?;
        Ok(replacement::replace(seed, &transformed)?.unwrap_or_else(|| seed.clone()))
    }

    fn transform(&self, doc: &Document, eval: &EvalContext) -> Result<Document> {
        // The allowed stages never read a collection: they run against an empty catalog.
        let catalog = Catalog::default();
        let sessions = crate::sessions::SessionCache::default();
        let match_ctx = MatchContext::default();
        let cx = RunContext {
            catalog: &catalog,
            db: "",
            collection: None,
            sessions: &sessions,
            match_ctx: &match_ctx,
            eval,
            find_records: None,
            joined_limit: None,
            allow_disk_use: true,
        };
        let mut out = self.pipeline.run(vec![doc.clone()], &cx)?;
        match out.pop() {
            Some(d) if out.is_empty() => Ok(d),
            _ => Err(Error::bad_value(
                "An update pipeline must produce exactly one document",
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use bson::{Bson, Document, bson, doc};

    use super::*;
    use crate::expression::Scope;

    fn parse(stages: Bson) -> Result<PipelineUpdate> {
        let Bson::Array(items) = stages else {
            panic!("not an array")
        };
        PipelineUpdate::parse(&items, &Scope::default())
    }

    fn apply(doc: Document, stages: Bson) -> Result<Option<Document>> {
        parse(stages)?.apply(&doc, EvalContext::detached())
    }

    #[test]
    fn stages_transform_the_document_and_keep_its_id() {
        let d = doc! {"_id": 1, "a": 1, "b": 2};
        let out = apply(
            d.clone(),
            bson!([{"$set": {"c": {"$add": ["$a", "$b"]}}}, {"$unset": "a"}]),
        );
        assert_eq!(out.unwrap(), Some(doc! {"_id": 1, "b": 2, "c": 3}));
        let out = apply(d.clone(), bson!([{"$project": {"_id": 0, "b": 1}}]));
        assert_eq!(out.unwrap(), Some(doc! {"_id": 1, "b": 2}));
        let out = apply(d.clone(), bson!([{"$replaceWith": {"x": "$a"}}]));
        assert_eq!(out.unwrap(), Some(doc! {"_id": 1, "x": 1}));
    }

    #[test]
    fn an_identical_result_is_a_no_op_but_a_dropped_id_is_not() {
        let d = doc! {"_id": 1, "a": 1};
        assert_eq!(apply(d.clone(), bson!([{"$set": {"a": 1}}])).unwrap(), None);
        assert_eq!(apply(d.clone(), bson!([])).unwrap(), None);
        // MongoDB compares the pipeline's output byte for byte before keeping the _id.
        assert_eq!(
            apply(d.clone(), bson!([{"$unset": "_id"}])).unwrap(),
            Some(d.clone())
        );
        assert!(apply(d, bson!([{"$set": {"a": 1.0}}])).unwrap().is_some());
    }

    #[test]
    fn dollar_prefixed_and_dotted_names_may_be_created() {
        let d = doc! {"_id": 1, "foo": {}};
        let out = apply(
            d,
            bson!([{"$replaceWith": {"$setField": {"field": {"$literal": "$a"}, "value": 1, "input": "$$ROOT"}}}]),
        );
        assert_eq!(out.unwrap(), Some(doc! {"_id": 1, "foo": {}, "$a": 1}));
    }

    #[test]
    fn changing_the_id_and_other_stages_are_refused() {
        let e = apply(doc! {"_id": 1, "a": 1}, bson!([{"$set": {"_id": 10}}])).unwrap_err();
        assert_eq!(
            (e.code(), e.message.as_str()),
            (
                66,
                "After applying the update, the (immutable) field '_id' was found to have been altered to _id: 10"
            )
        );
        let e = parse(bson!([{"$set": {"a": 1}}, {"$match": {"a": 1}}])).unwrap_err();
        assert_eq!(
            (e.code(), e.message.as_str()),
            (72, "$match is not allowed to be used within an update")
        );
        let e = parse(bson!([{"$bogus": {}}])).unwrap_err();
        assert_eq!(e.code(), 40324);
    }

    #[test]
    fn let_constants_and_now_are_visible() {
        let scope = Scope::from_let(&doc! {"v": 5}).unwrap();
        let p = PipelineUpdate::parse(&[bson!({"$set": {"a": "$$v"}})], &scope).unwrap();
        let eval = EvalContext::new(86_400_000, 1);
        let out = p.apply(&doc! {"_id": 1}, &eval).unwrap();
        assert_eq!(out, Some(doc! {"_id": 1, "a": 5}));
        let p = parse(bson!([{"$set": {"t": "$$NOW"}}])).unwrap();
        let out = p.upsert_document(&doc! {"k": 1}, &eval).unwrap();
        assert_eq!(
            out,
            doc! {"k": 1, "t": Bson::DateTime(bson::DateTime::from_millis(86_400_000))}
        );
    }
}
