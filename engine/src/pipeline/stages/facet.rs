//! `$facet`: several sub-pipelines over the same input; one output document with each
//! sub-pipeline's results as an array field.

use bson::{Bson, Document};

use crate::error::{Error, Result};
use crate::pipeline::{ParseContext, Pipeline, RunContext, Stage};
use crate::value::display::type_name;

/// Stages a `$facet` sub-pipeline may not contain.
const NOT_IN_FACET: &[&str] = &[
    "$facet",
    "$out",
    "$merge",
    "$collStats",
    "$indexStats",
    "$planCacheStats",
    "$documents",
    "$unionWith",
    "$changeStream",
];

#[derive(Debug)]
pub struct Facet {
    facets: Vec<(String, Pipeline)>,
}

pub fn parse(arg: &Bson, cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    let spec = match arg {
        Bson::Document(d) if !d.is_empty() => d,
        _ => {
            return Err(Error::location(
                15947,
                "the $facet specification must be a non-empty object",
            ));
        }
    };
    let mut facets = Vec::with_capacity(spec.len());
    for (name, value) in spec {
        if name.is_empty() || name.starts_with('$') || name.contains('.') {
            return Err(Error::location(
                40174,
                format!("{name} is not a valid facet name"),
            ));
        }
        let Bson::Array(items) = value else {
            return Err(Error::location(
                40170,
                format!(
                    "arguments to $facet must be arrays, {name} is type {}",
                    type_name(value)
                ),
            ));
        };
        if items.is_empty() {
            return Err(Error::location(
                40169,
                format!("sub-pipeline in $facet stage cannot be empty: {name}"),
            ));
        }
        for item in items {
            let Bson::Document(stage) = item else {
                return Err(Error::location(
                    40171,
                    format!(
                        "elements of arrays in $facet spec must be non-empty objects, {name} \
                         field contains an element of type {}",
                        type_name(item)
                    ),
                ));
            };
            if let Some(bad) = stage.keys().find(|k| NOT_IN_FACET.contains(&k.as_str())) {
                return Err(Error::location(
                    40600,
                    format!("{bad} is not allowed to be used within a $facet stage"),
                ));
            }
        }
        facets.push((
            name.clone(),
            Pipeline::parse_sub(items, cx.scope, cx.depth)?,
        ));
    }
    Ok(Box::new(Facet { facets }))
}

impl Facet {
    fn facet(
        &self,
        input: Vec<Document>,
        meta: Option<&[crate::expression::DocumentMeta]>,
        cx: &RunContext<'_>,
    ) -> Result<Vec<Document>> {
        let mut out = Document::new();
        // The facets' documents become one document, not the elements of a `$lookup` array.
        let cx = RunContext {
            joined_limit: None,
            ..*cx
        };
        let mut used = 0usize;
        for (name, pipeline) in &self.facets {
            let meta = meta.filter(|_| pipeline.reads_meta()).map(<[_]>::to_vec);
            let docs = pipeline.run_from_with_meta(0, input.clone(), meta, &cx)?.0;
            for doc in &docs {
                used += crate::value::bson_size::document_size(doc);
                if used > MAX_FACET_OUTPUT_BYTES {
                    return Err(output_too_large(used));
                }
            }
            out.insert(
                name.clone(),
                Bson::Array(docs.into_iter().map(Bson::Document).collect()),
            );
        }
        Ok(vec![out])
    }
}

impl Stage for Facet {
    fn name(&self) -> &'static str {
        "$facet"
    }

    fn apply(&self, input: Vec<Document>, cx: &RunContext<'_>) -> Result<Vec<Document>> {
        self.facet(input, None, cx)
    }

    /// Each facet reads the documents with their metadata (its sub-pipelines may read
    /// `{$meta: "textScore"}` after a leading `$text` search); the one output document has none.
    fn apply_with_meta(
        &self,
        input: Vec<Document>,
        meta: Option<Vec<crate::expression::DocumentMeta>>,
        cx: &RunContext<'_>,
    ) -> Result<crate::pipeline::Batch> {
        Ok((self.facet(input, meta.as_deref(), cx)?, None))
    }

    fn serialize(&self) -> Document {
        let spec: Document = self
            .facets
            .iter()
            .map(|(n, p)| (n.clone(), Bson::Array(p.serialize())))
            .collect();
        let mut d = Document::new();
        d.insert("$facet", spec);
        d
    }
}

/// The most bytes of documents the facets may gather into `$facet`'s one output document:
/// MongoDB's `internalQueryFacetMaxOutputDocSizeBytes`, 100 MiB. MongoDB counts each document's
/// approximate in-memory size as the facets produce it; Sprout counts its BSON size, which is
/// smaller, so nothing MongoDB runs fails here first.
pub const MAX_FACET_OUTPUT_BYTES: usize = 100 * 1024 * 1024;

/// MongoDB's error (document_source_facet.cpp, `uassert(4031700, …)`).
fn output_too_large(used: usize) -> Error {
    Error::location(
        4031700,
        format!(
            "document constructed by $facet is {used} bytes, which exceeds the limit of \
             {MAX_FACET_OUTPUT_BYTES} bytes"
        ),
    )
}
