//! `$documents`: the pipeline's input given literally (`aggregate: 1` only). Its argument is an
//! expression, evaluated once, that must produce an array of documents.

use bson::{Bson, Document, doc};

use crate::error::{Error, Result};
use crate::expression::Expression;
use crate::pipeline::{ParseContext, RunContext, Stage};

#[derive(Debug)]
pub struct Documents {
    expr: Expression,
}

pub fn parse(arg: &Bson, cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    Ok(Box::new(Documents {
        expr: Expression::parse_in(arg, cx.scope)?,
    }))
}

impl Stage for Documents {
    fn name(&self) -> &'static str {
        "$documents"
    }

    fn is_source(&self) -> bool {
        true
    }

    fn apply(&self, _input: Vec<Document>, cx: &RunContext<'_>) -> Result<Vec<Document>> {
        let empty = Document::new();
        let Some(Bson::Array(items)) = self.expr.evaluate_in(&empty, cx.eval)? else {
            return Err(Error::location(
                5858203,
                "error during aggregation :: caused by :: an array is expected",
            ));
        };
        items
            .into_iter()
            .map(|item| match item {
                Bson::Document(d) => Ok(d),
                other => Err(super::replace_root::not_an_object(
                    "replacement document",
                    Some(&other),
                    &doc! {"docs": other.clone()},
                )),
            })
            .collect()
    }

    fn serialize(&self) -> Document {
        doc! {"$documents": self.expr.serialize()}
    }
}
