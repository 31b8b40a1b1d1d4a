//! `$replaceRoot: {newRoot: <expr>}` and `$replaceWith: <expr>`: each document is replaced by
//! the document the expression produces.

use bson::{Bson, Document, doc};

use crate::error::{Error, Result};
use crate::expression::{DocumentMeta, Expression, Vars};
use crate::pipeline::{ParseContext, RunContext, Stage};
use crate::value::display::{key_value, type_name};

#[derive(Debug)]
pub struct ReplaceRoot {
    /// `$replaceWith` names the value "replacement document" in its errors, `$replaceRoot`
    /// names it "newRoot".
    with: bool,
    new_root: Expression,
}

pub fn parse_replace_root(arg: &Bson, cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    let Bson::Document(spec) = arg else {
        return Err(Error::location(
            40229,
            format!(
                "expected an object as specification for $replaceRoot stage, got {}",
                type_name(arg)
            ),
        ));
    };
    if let Some(unknown) = spec.keys().find(|k| *k != "newRoot") {
        return Err(Error::location(
            40415,
            format!("BSON field '$replaceRoot.{unknown}' is an unknown field."),
        ));
    }
    let Some(new_root) = spec.get("newRoot") else {
        return Err(Error::location(
            40414,
            "BSON field '$replaceRoot.newRoot' is missing but a required field",
        ));
    };
    Ok(Box::new(ReplaceRoot {
        with: false,
        new_root: Expression::parse_in(new_root, cx.scope)?,
    }))
}

pub fn parse_replace_with(arg: &Bson, cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    Ok(Box::new(ReplaceRoot {
        with: true,
        new_root: Expression::parse_in(arg, cx.scope)?,
    }))
}

/// MongoDB's error 40228 for a replacement that is not a document.
pub fn not_an_object(what: &str, value: Option<&Bson>, input: &Document) -> Error {
    let (shown, ty) = match value {
        Some(v) => (key_value(v), type_name(v)),
        None => ("MISSING".to_string(), "missing"),
    };
    Error::location(
        40228,
        format!(
            "'{what}' must evaluate to an object, but resulting value was: {shown}. Type of \
             resulting value: '{ty}'. Input document: {}",
            document_display(input)
        ),
    )
}

/// A document as the server's `Document::toString` writes it: `{_id: 1, a: "x"}`.
fn document_display(d: &Document) -> String {
    let fields: Vec<String> = d
        .iter()
        .map(|(k, v)| match v {
            Bson::Document(inner) => format!("{k}: {}", document_display(inner)),
            other => format!("{k}: {}", key_value(other)),
        })
        .collect();
    format!("{{{}}}", fields.join(", "))
}

impl ReplaceRoot {
    fn replace(
        &self,
        d: &Document,
        meta: Option<&DocumentMeta>,
        cx: &RunContext<'_>,
    ) -> Result<Document> {
        let what = if self.with {
            "replacement document"
        } else {
            "newRoot"
        };
        let vars = Vars::with_context(d, cx.eval).with_meta(meta);
        match self.new_root.eval(&vars)? {
            Some(Bson::Document(new)) => Ok(new),
            other => Err(not_an_object(what, other.as_ref(), d)),
        }
    }
}

impl Stage for ReplaceRoot {
    fn name(&self) -> &'static str {
        if self.with {
            "$replaceWith"
        } else {
            "$replaceRoot"
        }
    }

    fn apply(&self, input: Vec<Document>, cx: &RunContext<'_>) -> Result<Vec<Document>> {
        input.iter().map(|d| self.replace(d, None, cx)).collect()
    }

    /// The new document keeps the metadata of the one it replaces, and the expression reads
    /// it (MongoDB's ReplaceRootTransformation copies the input's metadata).
    fn apply_with_meta(
        &self,
        input: Vec<Document>,
        meta: Option<Vec<DocumentMeta>>,
        cx: &RunContext<'_>,
    ) -> Result<crate::pipeline::Batch> {
        crate::pipeline::map_meta(input, meta, |d, m| self.replace(&d, m, cx))
    }

    /// MongoDB shows both forms as `$replaceRoot`.
    fn serialize(&self) -> Document {
        doc! {"$replaceRoot": {"newRoot": self.new_root.serialize()}}
    }
}
