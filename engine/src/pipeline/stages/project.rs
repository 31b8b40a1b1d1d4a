//! `$project`: reshapes each document (inclusion, exclusion, computed fields).

use bson::{Bson, Document, doc};

use crate::error::Result;
use crate::pipeline::projection::AggProjection;
use crate::pipeline::{ModifiedPaths, ParseContext, RunContext, Stage};

#[derive(Debug)]
pub struct Project {
    projection: AggProjection,
}

pub fn parse(arg: &Bson, cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    Ok(Box::new(Project {
        projection: AggProjection::parse_project(arg, cx.scope)?,
    }))
}

impl Stage for Project {
    fn name(&self) -> &'static str {
        "$project"
    }

    fn apply(&self, input: Vec<Document>, cx: &RunContext<'_>) -> Result<Vec<Document>> {
        input
            .iter()
            .map(|d| self.projection.apply(d, cx.eval))
            .collect()
    }

    fn apply_with_meta(
        &self,
        input: Vec<Document>,
        meta: Option<Vec<crate::expression::DocumentMeta>>,
        cx: &RunContext<'_>,
    ) -> Result<crate::pipeline::Batch> {
        crate::pipeline::map_meta(input, meta, |d, m| {
            self.projection.apply_with_meta(&d, cx.eval, m)
        })
    }

    fn modified_paths(&self) -> ModifiedPaths {
        self.projection.modified_paths()
    }

    fn renamed_paths(&self) -> Vec<(String, String)> {
        self.projection.renames()
    }

    fn input_fields_read(&self) -> Option<Vec<String>> {
        self.projection.inclusion_reads()
    }

    fn serialize(&self) -> Document {
        doc! {"$project": self.projection.serialize()}
    }
}
