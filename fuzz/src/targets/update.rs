//! The update language: an Extended JSON update (operator document, replacement or pipeline), or a
//! whole update statement `{q, u, arrayFilters, upsert}`, applied by `update` to every sample
//! document, as an upsert, and by `findAndModify`.

use bson::{Bson, Document, doc};

use super::command;
use crate::input::ext_json;
use crate::sample::{self, COLL};

pub fn run(data: &[u8]) {
    let Some(value) = ext_json(data) else {
        return;
    };
    let statement = match value {
        Bson::Document(d) if d.contains_key("u") => statement_of(d),
        u @ (Bson::Document(_) | Bson::Array(_)) => doc! {"q": {}, "u": u},
        _ => return,
    };
    let mut engine = sample::engine();
    let mut multi = statement.clone();
    multi.insert("multi", true);
    multi.remove("upsert");
    command(&mut engine, doc! {"update": COLL, "updates": [multi]});
    let mut upsert = statement.clone();
    upsert.insert("q", doc! {"_id": 1000, "a": 1});
    upsert.insert("upsert", true);
    command(&mut engine, doc! {"update": COLL, "updates": [upsert]});
    let mut find_and_modify = doc! {
        "findAndModify": COLL,
        "query": statement.get("q").cloned().unwrap_or(Bson::Document(Document::new())),
        "update": statement.get("u").cloned().unwrap_or(Bson::Null),
        "new": true,
    };
    if let Some(filters) = statement.get("arrayFilters") {
        find_and_modify.insert("arrayFilters", filters.clone());
    }
    command(&mut engine, find_and_modify);
}

/// The statement's own fields that an update takes, with `q` defaulting to every document.
fn statement_of(d: Document) -> Document {
    let mut out = doc! {"q": d.get("q").cloned().unwrap_or(Bson::Document(Document::new()))};
    for key in ["u", "arrayFilters", "upsert", "collation", "hint"] {
        if let Some(v) = d.get(key) {
            out.insert(key, v.clone());
        }
    }
    out
}
