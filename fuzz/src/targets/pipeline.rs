//! Aggregation pipelines: an Extended JSON pipeline (or `{pipeline: […]}`) run over the sample
//! collection, explained, previewed stage by stage, and run collection-less (`aggregate: 1`,
//! where `$documents` supplies the input).

use bson::{Bson, doc};

use engine::commands::aggregate_preview::PreviewOptions;

use super::command;
use crate::input::ext_json;
use crate::sample::{self, COLL, DB};

pub fn run(data: &[u8]) {
    let pipeline = match ext_json(data) {
        Some(Bson::Array(stages)) => stages,
        Some(Bson::Document(d)) => match d.get("pipeline") {
            Some(Bson::Array(stages)) => stages.clone(),
            _ => vec![Bson::Document(d)],
        },
        _ => return,
    };
    let mut engine = sample::engine();
    command(
        &mut engine,
        doc! {"aggregate": COLL, "pipeline": pipeline.clone(), "cursor": {}},
    );
    command(
        &mut engine,
        doc! {"explain": {"aggregate": COLL, "pipeline": pipeline.clone(), "cursor": {}}},
    );
    command(
        &mut engine,
        doc! {"aggregate": 1, "pipeline": pipeline.clone(), "cursor": {}},
    );
    let options = PreviewOptions {
        sample: 2,
        let_vars: None,
    };
    let _ = engine.preview_pipeline(DB, Some(COLL), &pipeline, &options);
}
