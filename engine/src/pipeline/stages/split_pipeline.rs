//! `$_internalSplitPipeline`: where a sharded cluster splits the pipeline between the shards and
//! the merging host (`mergeType`). One server has nothing to split, so the stage passes documents
//! through unchanged, as MongoDB's `DocumentSourceInternalSplitPipeline` does on a replica set;
//! its argument is still checked as 8.0 checks it (document_source_internal_split_pipeline.cpp,
//! `createFromBson`).

use bson::{Bson, Document, doc};

use crate::error::{Error, Result};
use crate::pipeline::{ParseContext, RunContext, Stage};
use crate::value::display::{key_value, type_name};

const NAME: &str = "$_internalSplitPipeline";

#[derive(Debug)]
pub struct SplitPipeline {
    /// The `mergeType` as given (`localOnly`, `anyShard`, `mongos`), if any.
    merge_type: Option<String>,
}

pub fn parse(arg: &Bson, _cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    let Bson::Document(spec) = arg else {
        return Err(Error::type_mismatch(format!(
            "{NAME} must take a nested object but found: {NAME}: {}",
            key_value(arg)
        )));
    };
    let mut merge_type = None;
    for (field, value) in spec {
        if field != "mergeType" {
            return Err(Error::bad_value(format!(
                "unrecognized field while parsing {NAME}: '{field}'"
            )));
        }
        match value {
            Bson::String(s) if matches!(s.as_str(), "localOnly" | "anyShard" | "mongos") => {
                merge_type = Some(s.clone());
            }
            Bson::String(s) => {
                return Err(Error::bad_value(format!(
                    "unrecognized field while parsing mergeType: '{s}'"
                )));
            }
            Bson::Document(d) => {
                if d.len() != 1 || !matches!(d.get("specificShard"), Some(Bson::String(_))) {
                    return Err(Error::location(
                        7958300,
                        "Object argument to $_internalSplitPipeline must contain a single \
                         string field named 'specificShard'",
                    ));
                }
                return Err(Error::location(
                    7958301,
                    "Cannot specify 'mergeType' of 'specificShard' and not have sharding enabled",
                ));
            }
            other => {
                return Err(Error::bad_value(format!(
                    "'mergeType' must be a string value or an object but found: {}",
                    type_name(other)
                )));
            }
        }
    }
    Ok(Box::new(SplitPipeline { merge_type }))
}

impl Stage for SplitPipeline {
    fn name(&self) -> &'static str {
        NAME
    }

    fn apply(&self, input: Vec<Document>, _cx: &RunContext<'_>) -> Result<Vec<Document>> {
        Ok(input)
    }

    /// A pass-through: the documents keep their metadata.
    fn apply_with_meta(
        &self,
        input: Vec<Document>,
        meta: Option<Vec<crate::expression::DocumentMeta>>,
        _cx: &RunContext<'_>,
    ) -> Result<crate::pipeline::Batch> {
        Ok((input, meta))
    }

    fn serialize(&self) -> Document {
        let mut spec = Document::new();
        if let Some(t) = &self.merge_type {
            spec.insert("mergeType", t.clone());
        }
        doc! {NAME: spec}
    }
}

#[cfg(test)]
mod tests {
    use crate::Engine;
    use bson::{Bson, doc};

    fn agg(e: &mut Engine, stage: bson::Document) -> bson::Document {
        e.run_command(
            "test",
            &doc! {"aggregate": "c", "pipeline": [stage, {"$sort": {"a": -1}}], "cursor": {}},
        )
    }

    #[test]
    fn passes_documents_through_and_checks_its_argument() {
        let mut e = Engine::new();
        e.run_command(
            "test",
            &doc! {"insert": "c", "documents": [{"_id": 1, "a": 1}, {"_id": 2, "a": 2}]},
        );
        let r = agg(
            &mut e,
            doc! {"$_internalSplitPipeline": {"mergeType": "anyShard"}},
        );
        let batch = r
            .get_document("cursor")
            .unwrap()
            .get_array("firstBatch")
            .unwrap();
        assert_eq!(batch[0], Bson::Document(doc! {"_id": 2, "a": 2}));
        assert_eq!(batch.len(), 2);
        let code = |r: bson::Document| r.get("code").cloned();
        let r = agg(&mut e, doc! {"$_internalSplitPipeline": 1});
        assert_eq!(code(r), Some(Bson::Int32(14)));
        let r = agg(
            &mut e,
            doc! {"$_internalSplitPipeline": {"mergeType": "nowhere"}},
        );
        assert_eq!(code(r), Some(Bson::Int32(2)));
        let r = agg(&mut e, doc! {"$_internalSplitPipeline": {"other": 1}});
        assert_eq!(code(r), Some(Bson::Int32(2)));
        let r = agg(
            &mut e,
            doc! {"$_internalSplitPipeline": {"mergeType": {"specificShard": "s0"}}},
        );
        assert_eq!(code(r), Some(Bson::Int32(7958301)));
        let r = agg(
            &mut e,
            doc! {"$_internalSplitPipeline": {"mergeType": {"x": 1}}},
        );
        assert_eq!(code(r), Some(Bson::Int32(7958300)));
    }
}
