//! `$fill: {partitionBy | partitionByFields, sortBy, output: {<field>: {value: <expr>} |
//! {method: "locf" | "linear"}}}`: null and missing fields filled with a value computed from the
//! document, the last value seen (`locf`) or a linear interpolation along `sortBy` (`linear`).
//! As MongoDB does, the method fills are a `$setWindowFields` (`$locf`/`$linearFill`, so the
//! output is sorted by partition then `sortBy`) and the value fills an `$ifNull` per field.

use bson::{Bson, Document, doc};

use super::set_window_fields;
use crate::error::{Error, ErrorCode, Result};
use crate::expression::{Expression, Vars};
use crate::pipeline::{ParseContext, RunContext, Stage};
use crate::value::display::type_name;

use super::window_function::set_path;

#[derive(Debug)]
pub struct Fill {
    /// The `$setWindowFields` doing the method fills, if any.
    window: Option<Box<dyn Stage>>,
    /// `(field, value)` of the value fills.
    values: Vec<(String, Expression)>,
    spec: Document,
}

fn fail(code: i32, message: impl Into<String>) -> Error {
    Error::location(code, message)
}

pub fn parse(arg: &Bson, cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    let Bson::Document(spec) = arg else {
        return Err(Error::new(
            ErrorCode::FailedToParse,
            format!(
                "$fill specification must be an object, found {}",
                type_name(arg)
            ),
        ));
    };
    let (mut partition_by, mut partition_fields, mut sort_by, mut output) =
        (None, None, None, None);
    for (k, v) in spec {
        match k.as_str() {
            "partitionBy" => partition_by = Some(v.clone()),
            "partitionByFields" => {
                let Bson::Array(fields) = v else {
                    return Err(Error::type_mismatch(format!(
                        "BSON field '$fill.partitionByFields' is the wrong type '{}', expected \
                         type 'array'",
                        type_name(v)
                    )));
                };
                let mut by = Document::new();
                for f in fields {
                    let Bson::String(f) = f else {
                        return Err(Error::type_mismatch(
                            "BSON field '$fill.partitionByFields' must contain strings",
                        ));
                    };
                    by.insert(f.replace('.', "_"), format!("${f}"));
                }
                partition_fields = Some(Bson::Document(by));
            }
            "sortBy" => sort_by = Some(v.clone()),
            "output" => {
                let Bson::Document(o) = v else {
                    return Err(Error::type_mismatch(format!(
                        "BSON field '$fill.output' is the wrong type '{}', expected type 'object'",
                        type_name(v)
                    )));
                };
                output = Some(o.clone());
            }
            _ => {
                return Err(fail(
                    40415,
                    format!("BSON field '$fill.{k}' is an unknown field."),
                ));
            }
        }
    }
    let output = output.ok_or_else(|| {
        fail(
            40414,
            "BSON field '$fill.output' is missing but a required field",
        )
    })?;
    if partition_by.is_some() && partition_fields.is_some() {
        return Err(fail(
            6050204,
            "Maximum one of 'partitionBy' and 'partitionByFields can be specified in '$fill'",
        ));
    }
    let mut methods = Document::new();
    let mut values = Vec::new();
    for (field, v) in &output {
        let Bson::Document(how) = v else {
            return Err(Error::type_mismatch(format!(
                "BSON field '$fill.output.{field}' is the wrong type '{}', expected type 'object'",
                type_name(v)
            )));
        };
        match (how.get("value"), how.get("method"), how.len()) {
            (Some(value), None, 1) => {
                values.push((field.clone(), Expression::parse_in(value, cx.scope)?))
            }
            (None, Some(Bson::String(m)), 1) if m == "locf" => {
                methods.insert(field.clone(), doc! {"$locf": format!("${field}")});
            }
            (None, Some(Bson::String(m)), 1) if m == "linear" => {
                methods.insert(field.clone(), doc! {"$linearFill": format!("${field}")});
            }
            (None, Some(_), 1) => {
                return Err(fail(6050202, "Method must be either locf or linear"));
            }
            _ => {
                return Err(fail(
                    6050203,
                    "Exactly one of 'value' and 'method' must be specified in a $fill output \
                     field",
                ));
            }
        }
    }
    let window = if methods.is_empty() {
        None
    } else {
        let mut swf = Document::new();
        if let Some(p) = partition_by.clone().or(partition_fields.clone()) {
            swf.insert("partitionBy", p);
        }
        if let Some(s) = &sort_by {
            swf.insert("sortBy", s.clone());
        }
        swf.insert("output", methods);
        Some(set_window_fields::parse(&Bson::Document(swf), cx)?)
    };
    Ok(Box::new(Fill {
        window,
        values,
        spec: spec.clone(),
    }))
}

impl Stage for Fill {
    fn name(&self) -> &'static str {
        "$fill"
    }

    fn apply(&self, input: Vec<Document>, cx: &RunContext<'_>) -> Result<Vec<Document>> {
        let mut docs = match &self.window {
            Some(w) => w.apply(input, cx)?,
            None => input,
        };
        for doc in &mut docs {
            for (field, value) in &self.values {
                let current = crate::path::lookup(doc, &crate::path::FieldPath::parse(field));
                if matches!(current, None | Some(Bson::Null)) {
                    let v = value
                        .eval(&Vars::with_context(doc, cx.eval))?
                        .unwrap_or(Bson::Null);
                    set_path(doc, field, v);
                }
            }
        }
        Ok(docs)
    }

    fn serialize(&self) -> Document {
        doc! {"$fill": self.spec.clone()}
    }
}
