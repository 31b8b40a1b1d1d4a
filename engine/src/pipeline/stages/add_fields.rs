//! `$addFields` and its alias `$set`: computed fields added to each document.

use bson::{Bson, Document};

use crate::error::Result;
use crate::pipeline::projection::AggProjection;
use crate::pipeline::{ModifiedPaths, ParseContext, RunContext, Stage};

#[derive(Debug)]
pub struct AddFields {
    name: &'static str,
    projection: AggProjection,
}

pub fn parse_add_fields(arg: &Bson, cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    parse_named("$addFields", arg, cx)
}

pub fn parse_set(arg: &Bson, cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    parse_named("$set", arg, cx)
}

fn parse_named(name: &'static str, arg: &Bson, cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    Ok(Box::new(AddFields {
        name,
        projection: AggProjection::parse_add_fields(arg, cx.scope, name)?,
    }))
}

impl Stage for AddFields {
    fn name(&self) -> &'static str {
        self.name
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

    fn serialize(&self) -> Document {
        let mut d = Document::new();
        d.insert(self.name, self.projection.serialize());
        d
    }
}
