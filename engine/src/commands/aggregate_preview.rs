//! `sproutPreviewPipeline` (a Sprout command, not MongoDB's) and [`Engine::preview_pipeline`]:
//! what each stage of a pipeline returns, for the lesson UI's stage-by-stage view.
//!
//! `{sproutPreviewPipeline: "<coll>" | 1, pipeline: [...], sample: <n>, let: {...}}` answers
//! `{stages: [{stage: "$match", nReturned: <count>, sample: [<first n documents>]}, ...], ok: 1}`.

use bson::{Bson, Document, doc};

use super::{count_option, document_option, target_namespace};
use crate::Engine;
use crate::catalog::Namespace;
use crate::error::{Error, ErrorCode, Result};
use crate::expression::Scope;
use crate::matcher::MatchContext;
use crate::pipeline::{Pipeline, RunContext, StagePreview};

/// How many documents of each stage's output a preview keeps unless told otherwise.
pub const DEFAULT_SAMPLE: usize = 5;

/// Options of a preview.
#[derive(Debug, Clone)]
pub struct PreviewOptions {
    /// How many documents of each stage's output to keep.
    pub sample: usize,
    /// The command-level `let` variables.
    pub let_vars: Option<Document>,
}

impl Default for PreviewOptions {
    fn default() -> Self {
        PreviewOptions {
            sample: DEFAULT_SAMPLE,
            let_vars: None,
        }
    }
}

/// Previews `pipeline` over collection `coll` of `db` (`None`: a collectionless pipeline that
/// starts with `$documents`).
pub fn preview_pipeline(
    engine: &mut Engine,
    db: &str,
    coll: Option<&str>,
    pipeline: &[Bson],
    options: &PreviewOptions,
    ctx: &MatchContext<'_>,
) -> Result<Vec<StagePreview>> {
    let eval = engine.eval_context();
    let scope = match &options.let_vars {
        Some(vars) => Scope::from_let_in(vars, &eval)?,
        None => Scope::default(),
    };
    let pipeline = Pipeline::parse_stages(pipeline, &scope, coll.is_none())?;
    let input = match coll {
        Some(coll) if !pipeline.starts_with_source() => engine
            .catalog()
            .collection(&Namespace::new(db, coll))
            .map(|c| c.iter().map(|(_, d)| d.clone()).collect())
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    let cx = RunContext {
        catalog: engine.catalog(),
        db,
        collection: coll,
        sessions: engine.sessions(),
        match_ctx: ctx,
        eval: &eval,
        find_records: Some(crate::exec::matching_records),
        joined_limit: None,
        allow_disk_use: true,
    };
    pipeline.preview(input, &cx, options.sample)
}

/// The command form.
pub fn preview_command(
    engine: &mut Engine,
    db: &str,
    command: &Document,
    ctx: &MatchContext<'_>,
) -> Result<Document> {
    let coll = match command.get("sproutPreviewPipeline") {
        Some(Bson::String(_)) => Some(target_namespace(db, command)?.coll),
        Some(v) if crate::value::as_i64(v) == Some(1) => None,
        _ => {
            return Err(Error::new(
                ErrorCode::FailedToParse,
                "the 'sproutPreviewPipeline' field must name a collection or be 1",
            ));
        }
    };
    let Some(Bson::Array(pipeline)) = command.get("pipeline") else {
        return Err(Error::type_mismatch(
            "'pipeline' option must be specified as an array",
        ));
    };
    let sample = count_option(command, "sproutPreviewPipeline", "sample")?
        .map_or(DEFAULT_SAMPLE, |n| usize::try_from(n).unwrap_or(usize::MAX));
    let options = PreviewOptions {
        sample,
        let_vars: document_option(command, "sproutPreviewPipeline", "let")?.cloned(),
    };
    let stages = preview_pipeline(engine, db, coll.as_deref(), pipeline, &options, ctx)?;
    let stages: Vec<Bson> = stages
        .into_iter()
        .map(|p| {
            Bson::Document(doc! {
                "stage": p.stage,
                "nReturned": i32::try_from(p.count)
                    .map_or(Bson::Int64(p.count as i64), Bson::Int32),
                "sample": p.sample.into_iter().map(Bson::Document).collect::<Vec<_>>(),
            })
        })
        .collect();
    Ok(doc! {"stages": stages, "ok": 1.0})
}
