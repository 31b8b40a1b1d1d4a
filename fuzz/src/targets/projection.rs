//! The projection language: an Extended JSON projection (or `{filter, projection, sort}`) run by
//! `find` over the sample documents, by `findAndModify`'s `fields`, and as a `$project` stage.

use bson::{Bson, Document, doc};

use super::command;
use crate::input::ext_json_document;
use crate::sample::{self, COLL};

pub fn run(data: &[u8]) {
    let Some(input) = ext_json_document(data) else {
        return;
    };
    let (filter, projection, sort) = match input.get("projection") {
        Some(Bson::Document(p)) => (
            input
                .get("filter")
                .cloned()
                .unwrap_or(Bson::Document(Document::new())),
            p.clone(),
            input.get("sort").cloned(),
        ),
        _ => (Bson::Document(Document::new()), input, None),
    };
    let mut engine = sample::engine();
    let mut find = doc! {"find": COLL, "filter": filter.clone(), "projection": projection.clone()};
    if let Some(sort) = sort {
        find.insert("sort", sort);
    }
    command(&mut engine, find);
    command(
        &mut engine,
        doc! {"aggregate": COLL, "pipeline": [{"$project": projection.clone()}], "cursor": {}},
    );
    command(
        &mut engine,
        doc! {"findAndModify": COLL, "query": filter, "fields": projection, "update": {"$set": {"touched": true}}},
    );
}
