//! One module per fuzz target; each exposes `run(data: &[u8])`.

pub mod extjson;
pub mod filter;
pub mod index_scan;
pub mod pipeline;
pub mod preprocess;
pub mod printer_roundtrip;
pub mod projection;
pub mod shell_program;
pub mod update;

use bson::{Bson, Document};
use engine::Engine;

use crate::input::assert_reply_shape;
use crate::sample::DB;

/// Runs `command` on `engine` and checks the reply's shape; returns the reply.
pub(crate) fn command(engine: &mut Engine, command: Document) -> Document {
    let reply = engine.run_command(DB, &command);
    assert_reply_shape(&command, &reply);
    reply
}

/// The `_id`s of a find or aggregate reply's first batch, as canonical Extended JSON text,
/// sorted: the set of documents, whatever the order.
pub(crate) fn id_set(reply: &Document) -> Option<Vec<String>> {
    let batch = reply
        .get_document("cursor")
        .ok()?
        .get_array("firstBatch")
        .ok()?;
    let mut ids: Vec<String> = batch
        .iter()
        .map(|d| match d {
            Bson::Document(d) => d
                .get("_id")
                .map(|id| engine::value::extjson::to_canonical(id).to_string())
                .unwrap_or_default(),
            other => format!("not a document: {other}"),
        })
        .collect();
    ids.sort();
    Some(ids)
}
