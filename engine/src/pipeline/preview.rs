//! Stage-by-stage preview of a pipeline for the lesson UI: the documents run through the stages
//! once, and after each stage the preview records its name, how many documents came out and
//! the first few of them. Every stage runs in the pipeline's order (nothing is pushed down
//! into a find or reordered), so each count is the one the learner's pipeline, as written,
//! produces at that point.

use bson::Document;

use super::{Pipeline, RunContext};
use crate::error::Result;

/// What came out of one stage.
#[derive(Debug, Clone, PartialEq)]
pub struct StagePreview {
    /// The stage's name with its `$` (`"$match"`).
    pub stage: &'static str,
    /// The number of documents the stage returned.
    pub count: usize,
    /// The first documents it returned (at most the requested sample size).
    pub sample: Vec<Document>,
}

impl Pipeline {
    /// Runs every stage over `input`, recording each stage's output count and first `sample`
    /// documents. One pass: each stage runs once, on the previous stage's output.
    pub fn preview(
        &self,
        input: Vec<Document>,
        cx: &RunContext<'_>,
        sample: usize,
    ) -> Result<Vec<StagePreview>> {
        let mut docs = input;
        let mut previews = Vec::with_capacity(self.stages.len());
        for stage in &self.stages {
            docs = stage.apply(docs, cx)?;
            previews.push(StagePreview {
                stage: stage.name(),
                count: docs.len(),
                sample: docs.iter().take(sample).cloned().collect(),
            });
        }
        Ok(previews)
    }
}
