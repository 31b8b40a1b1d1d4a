//! `$out`: replaces a collection with the pipeline's results. Parsing lives here; the write
//! itself (a new collection built aside, then swapped in) is `commands/aggregate_write.rs`.

use bson::{Bson, Document, doc};

use crate::error::{Error, ErrorCode, Result};
use crate::pipeline::{ParseContext, RunContext, Stage, WriteStage, WriteTarget};
use crate::value::display::type_name;

/// Where `$out` writes: `{$out: "coll"}` (the command's database) or `{$out: {db, coll}}`.
#[derive(Debug, Clone, PartialEq)]
pub struct OutSpec {
    pub db: Option<String>,
    pub coll: String,
}

#[derive(Debug)]
pub struct Out {
    spec: OutSpec,
}

pub fn parse(arg: &Bson, _cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    let spec = match arg {
        Bson::String(coll) => OutSpec {
            db: None,
            coll: coll.clone(),
        },
        Bson::Document(d) => parse_object(d)?,
        other => {
            return Err(Error::location(
                16990,
                format!(
                    "$out only supports a string or object argument, but found {}",
                    type_name(other)
                ),
            ));
        }
    };
    Ok(Box::new(Out { spec }))
}

/// The IDL-parsed `{db, coll, timeseries}` form.
fn parse_object(d: &Document) -> Result<OutSpec> {
    let mut db = None;
    let mut coll = None;
    for (k, v) in d {
        match k.as_str() {
            "db" => db = Some(string_field("$out", k, v)?),
            "coll" => coll = Some(string_field("$out", k, v)?),
            "timeseries" => {
                return Err(Error::new(
                    ErrorCode::NotImplemented,
                    "$out to a time-series collection is not supported by Sprout (it has no \
                     time-series collections)",
                ));
            }
            other => {
                return Err(Error::location(
                    40415,
                    format!("BSON field '$out.{other}' is an unknown field."),
                ));
            }
        }
    }
    let Some(db) = db else {
        return Err(missing_field("$out", "db"));
    };
    let Some(coll) = coll else {
        return Err(missing_field("$out", "coll"));
    };
    Ok(OutSpec { db: Some(db), coll })
}

/// A string field of an IDL-parsed stage object (`BSON field '$out.coll' is the wrong type…`).
pub(crate) fn string_field(stage: &str, field: &str, v: &Bson) -> Result<String> {
    match v {
        Bson::String(s) => Ok(s.clone()),
        other => Err(Error::type_mismatch(format!(
            "BSON field '{stage}.{field}' is the wrong type '{}', expected type 'string'",
            type_name(other)
        ))),
    }
}

pub(crate) fn missing_field(stage: &str, field: &str) -> Error {
    Error::location(
        40414,
        format!("BSON field '{stage}.{field}' is missing but a required field"),
    )
}

impl WriteStage for Out {
    fn target(&self) -> WriteTarget<'_> {
        WriteTarget::Out(&self.spec)
    }

    fn serialize_in(&self, db: &str) -> Document {
        let db = self.spec.db.as_deref().unwrap_or(db);
        doc! {"$out": {"db": db, "coll": self.spec.coll.clone()}}
    }
}

impl Stage for Out {
    fn name(&self) -> &'static str {
        "$out"
    }

    fn apply(&self, _input: Vec<Document>, _cx: &RunContext<'_>) -> Result<Vec<Document>> {
        Err(writer_applied(self.name()))
    }

    fn serialize(&self) -> Document {
        let mut spec = Document::new();
        if let Some(db) = &self.spec.db {
            spec.insert("db", db.clone());
        }
        spec.insert("coll", self.spec.coll.clone());
        doc! {"$out": spec}
    }

    fn as_writer(&self) -> Option<&dyn WriteStage> {
        Some(self)
    }
}

/// A writing stage is always last and run by the aggregate command; reaching `apply` means a
/// caller ran a pipeline without its writer.
pub(crate) fn writer_applied(stage: &str) -> Error {
    Error::new(
        ErrorCode::InternalError,
        format!("{stage} writes through the aggregate command and cannot run as a plain stage"),
    )
}
