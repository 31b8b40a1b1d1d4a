//! `$_internalInhibitOptimization`: passes documents through unchanged; the stages before it
//! and after it are optimised separately (nothing moves across it).

use bson::{Bson, Document, doc};

use crate::error::Result;
use crate::pipeline::{ParseContext, RunContext, Stage};

#[derive(Debug)]
pub struct InhibitOptimization;

/// MongoDB accepts any argument here.
pub fn parse(_arg: &Bson, _cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    Ok(Box::new(InhibitOptimization))
}

impl Stage for InhibitOptimization {
    fn name(&self) -> &'static str {
        "$_internalInhibitOptimization"
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
        doc! {"$_internalInhibitOptimization": {}}
    }
}
