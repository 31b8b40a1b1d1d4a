//! `$unionWith`: the input documents followed by another collection's documents (through an
//! optional pipeline). `{pipeline}` alone must begin with `$documents`.

use bson::{Bson, Document};

use crate::error::{Error, ErrorCode, Result};
use crate::pipeline::{ParseContext, Pipeline, RunContext, Stage, SubPipelineOwner};
use crate::value::display::type_name;

#[derive(Debug)]
pub struct UnionWith {
    coll: Option<String>,
    pipeline_spec: Option<Vec<Bson>>,
    pipeline: Option<Pipeline>,
    /// The sub-pipeline depth (a view named by `coll` has its pipeline parsed at it).
    depth: usize,
}

pub fn parse(arg: &Bson, cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    let (coll, pipeline_spec) = match arg {
        Bson::String(s) => (Some(s.clone()), None),
        Bson::Document(spec) => {
            let mut coll = None;
            let mut pipeline = None;
            for (k, v) in spec {
                match (k.as_str(), v) {
                    ("coll", Bson::String(s)) => coll = Some(s.clone()),
                    ("pipeline", Bson::Array(items)) => pipeline = Some(items.clone()),
                    ("coll" | "pipeline", other) => {
                        let expected = if k == "coll" { "string" } else { "array" };
                        return Err(Error::type_mismatch(format!(
                            "BSON field '$unionWith.{k}' is the wrong type '{}', expected type \
                             '{expected}'",
                            type_name(other)
                        )));
                    }
                    (other, _) => {
                        return Err(Error::location(
                            40415,
                            format!("BSON field '$unionWith.{other}' is an unknown field."),
                        ));
                    }
                }
            }
            (coll, pipeline)
        }
        other => {
            return Err(Error::new(
                ErrorCode::FailedToParse,
                format!(
                    "the $unionWith stage specification must be an object or string, but found {}",
                    type_name(other)
                ),
            ));
        }
    };
    let depth = cx.sub_pipeline_depth()?;
    let pipeline = match &pipeline_spec {
        Some(items) => Some(Pipeline::parse_sub_of(
            items,
            cx.scope,
            SubPipelineOwner::UnionWith,
            depth,
        )?),
        None => None,
    };
    if coll.is_none() && !pipeline.as_ref().is_some_and(Pipeline::starts_with_source) {
        return Err(Error::new(
            ErrorCode::FailedToParse,
            "$unionWith stage without explicit collection must have a pipeline with $documents as \
             first stage",
        ));
    }
    Ok(Box::new(UnionWith {
        coll,
        pipeline_spec,
        pipeline,
        depth,
    }))
}

impl Stage for UnionWith {
    fn name(&self) -> &'static str {
        "$unionWith"
    }

    /// The pipeline's own documents keep their metadata; the other collection's come without.
    fn apply_with_meta(
        &self,
        input: Vec<Document>,
        meta: Option<Vec<crate::expression::DocumentMeta>>,
        cx: &RunContext<'_>,
    ) -> Result<crate::pipeline::Batch> {
        let own = input.len();
        let out = self.apply(input, cx)?;
        let meta = meta.map(|mut m| {
            m.resize(own, Default::default());
            m.resize(out.len(), Default::default());
            m
        });
        Ok((out, meta))
    }

    fn apply(&self, mut input: Vec<Document>, cx: &RunContext<'_>) -> Result<Vec<Document>> {
        cx.check_view_depth(
            self.coll.as_deref(),
            self.pipeline_spec.as_deref().unwrap_or_default(),
            self.depth,
        )?;
        // The sub-pipeline reads only the metadata its own first stage makes (40218).
        if let Some(p) = &self.pipeline {
            p.check_metadata()?;
        }
        let other = match (&self.pipeline, &self.coll) {
            (Some(p), _) if p.starts_with_source() => p.run(Vec::new(), cx)?,
            (Some(p), Some(coll)) => p.run(cx.collection_documents(coll, self.depth)?, cx)?,
            (None, Some(coll)) => cx.collection_documents(coll, self.depth)?,
            _ => Vec::new(),
        };
        input.extend(other);
        Ok(input)
    }

    fn serialize(&self) -> Document {
        let mut spec = Document::new();
        if let Some(coll) = &self.coll {
            spec.insert("coll", coll.clone());
        }
        spec.insert("pipeline", self.pipeline_spec.clone().unwrap_or_default());
        let mut d = Document::new();
        d.insert("$unionWith", spec);
        d
    }
}
