//! `$unset`: removes fields (an exclusion projection of the listed paths).

use bson::{Bson, Document, doc};

use crate::error::{Error, Result};
use crate::pipeline::projection::AggProjection;
use crate::pipeline::{ModifiedPaths, ParseContext, RunContext, Stage};

#[derive(Debug)]
pub struct Unset {
    paths: Vec<String>,
    projection: AggProjection,
}

pub fn parse(arg: &Bson, _cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    let paths = match arg {
        Bson::String(s) => vec![s.clone()],
        Bson::Array(items) if !items.is_empty() => items
            .iter()
            .map(|i| match i {
                Bson::String(s) => Ok(s.clone()),
                _ => Err(Error::location(
                    31120,
                    "$unset specification must be a string or an array containing only string \
                     values",
                )),
            })
            .collect::<Result<Vec<_>>>()?,
        Bson::Array(_) => {
            return Err(Error::location(
                31119,
                "$unset specification must be a string or an array with at least one field",
            ));
        }
        _ => {
            return Err(Error::location(
                31002,
                "$unset specification must be a string or an array",
            ));
        }
    };
    let projection = AggProjection::exclusion_of(&paths)?;
    Ok(Box::new(Unset { paths, projection }))
}

impl Stage for Unset {
    fn name(&self) -> &'static str {
        "$unset"
    }

    fn apply_with_meta(
        &self,
        input: Vec<Document>,
        meta: Option<Vec<crate::expression::DocumentMeta>>,
        cx: &RunContext<'_>,
    ) -> Result<crate::pipeline::Batch> {
        crate::pipeline::apply_each_with_meta(self, input, meta, cx)
    }

    fn apply(&self, input: Vec<Document>, cx: &RunContext<'_>) -> Result<Vec<Document>> {
        input
            .iter()
            .map(|d| self.projection.apply(d, cx.eval))
            .collect()
    }

    fn modified_paths(&self) -> ModifiedPaths {
        self.projection.modified_paths()
    }

    /// MongoDB shows `$unset` as the exclusion `$project` it stands for.
    fn serialize(&self) -> Document {
        let mut spec = Document::new();
        for p in &self.paths {
            spec.insert(p.clone(), false);
        }
        doc! {"$project": spec}
    }
}
