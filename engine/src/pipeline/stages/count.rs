//! `$count: "<field>"`: one document `{<field>: n}` with the number of documents (none when no
//! document comes in, as MongoDB's `$group` + `$project` rewrite gives).

use bson::{Bson, Document, doc};

use crate::error::{Error, Result};
use crate::pipeline::{ParseContext, RunContext, Stage};

#[derive(Debug)]
pub struct Count {
    field: String,
}

pub fn parse(arg: &Bson, _cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    let Bson::String(field) = arg else {
        return Err(Error::location(
            40156,
            "the count field must be a non-empty string",
        ));
    };
    if field.is_empty() {
        return Err(Error::location(
            40157,
            "the count field must be a non-empty string",
        ));
    }
    if field.starts_with('$') {
        return Err(Error::location(
            40158,
            "the count field cannot be a $-prefixed path",
        ));
    }
    if field.contains('\0') {
        return Err(Error::location(
            40159,
            "the count field cannot contain a null byte",
        ));
    }
    if field.contains('.') {
        return Err(Error::location(40160, "the count field cannot contain '.'"));
    }
    Ok(Box::new(Count {
        field: field.clone(),
    }))
}

impl Stage for Count {
    fn name(&self) -> &'static str {
        "$count"
    }

    fn apply(&self, input: Vec<Document>, _cx: &RunContext<'_>) -> Result<Vec<Document>> {
        if input.is_empty() {
            return Ok(Vec::new());
        }
        // `$sum: 1` gives an int while it fits.
        let n = input.len();
        let v = i32::try_from(n).map_or(Bson::Int64(n as i64), Bson::Int32);
        let mut d = Document::new();
        d.insert(self.field.clone(), v);
        Ok(vec![d])
    }

    /// MongoDB shows `$count` as the `$group` and `$project` it stands for.
    fn serialize(&self) -> Document {
        doc! {"$group": {"_id": {"$const": Bson::Null}, &self.field: {"$sum": {"$const": 1}}}}
    }
}
