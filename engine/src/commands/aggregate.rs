//! `aggregate`: runs a pipeline over a collection (`aggregate: "<coll>"`) or over the documents
//! of a leading `$documents` (`aggregate: 1`), and returns a cursor like `find`.

use bson::{Bson, Document};

use super::aggregate_write::{self, WriteRun};
use super::{bool_option, document_option, find::first_batch_reply, target_namespace};
use crate::Engine;
use crate::catalog::Namespace;
use crate::error::{Error, ErrorCode, Result};
use crate::exec::Execution;
use crate::exec::count::execute_count;
use crate::explain::{ExplainInput, Verbosity, explain_document};
use crate::expression::{EvalContext, Scope};
use crate::matcher::MatchContext;
use crate::pipeline::{Pipeline, RunContext};
use crate::query::CanonicalQuery;
use crate::query::FindSpec;

use crate::value::display::type_name;

/// The fields the aggregate command defines (besides the generic ones every command accepts).
const OWN_FIELDS: &[&str] = &[
    "pipeline",
    "explain",
    "allowDiskUse",
    "cursor",
    "bypassDocumentValidation",
    "collation",
    "hint",
    "let",
    "collectionUUID",
    "isMapReduceCommand",
    "fromMongos",
    "fromRouter",
    "needsMerge",
    "$queryOptions",
];

/// An aggregate command, parsed.
struct Parsed<'c> {
    ns: Namespace,
    pipeline: Pipeline,
    batch_size: Option<usize>,
    explain: bool,
    /// The `let` variables, evaluated once in the command's context.
    scope: Scope,
    hint: Option<&'c Bson>,
    eval: EvalContext,
    allow_disk_use: bool,
}

/// `explaining`: the command came inside `{explain: …}` (an explain verbosity), which counts as
/// an explain as much as the `explain: true` field does.
fn parse<'c>(
    engine: &mut Engine,
    db: &str,
    command: &'c Document,
    explaining: bool,
) -> Result<Parsed<'c>> {
    let (ns, collectionless) = aggregate_namespace(db, command)?;
    crate::write::check_known_fields(command, "aggregate", OWN_FIELDS)?;
    let Some(pipeline) = command.get("pipeline") else {
        return Err(Error::location(
            40414,
            "BSON field 'aggregate.pipeline' is missing but a required field",
        ));
    };
    let explain = bool_option(command, "explain", false)?;
    // MongoDB 8.0's aggregation_request_helper.cpp (validate): an explained aggregate takes no
    // writeConcern, with or without a writing stage (jstests/core/explain_agg_write_concern.js).
    if (explain || explaining) && command.contains_key("writeConcern") {
        return Err(Error::new(
            ErrorCode::FailedToParse,
            "Aggregation explain does not support the'writeConcern' option",
        ));
    }
    // MongoDB 8.0 defaults `allowDiskUseByDefault` to true: only an explicit false keeps
    // blocking stages to their memory limit (see docs/reliability.md for what true means here).
    let allow_disk_use = bool_option(command, "allowDiskUse", true)?;
    bool_option(command, "bypassDocumentValidation", false)?;
    check_hint(command.get("hint"))?;
    let batch_size = cursor_batch_size(command, explain)?;
    let eval = engine.eval_context();
    let let_vars = document_option(command, "aggregate", "let")?;
    let scope = match let_vars {
        Some(vars) => Scope::from_let_in(vars, &eval)?,
        None => Scope::default(),
    };
    // `$$NOW` in a filter (`$match` with `$expr`, in `$lookup` sub-pipelines too) is evaluated
    // by the matcher, which has no evaluation context: fix it to the command's time when parsed.
    let scope = scope.with_clock(&eval)?;
    let pipeline = Pipeline::parse(pipeline, &scope, collectionless)?.optimize(&scope)?;
    // A stage reading metadata no query before it makes (40218).
    pipeline.check_metadata()?;
    if let Some(writer) = pipeline.writer() {
        aggregate_write::check_read_concern(command, writer)?;
        aggregate_write::check_target(engine, db, writer.target())?;
    }
    super::read_concern::check_standalone(command)?;
    Ok(Parsed {
        ns,
        pipeline,
        batch_size,
        explain,
        scope,
        hint: command.get("hint").filter(|h| !matches!(h, Bson::Null)),
        eval,
        allow_disk_use,
    })
}

pub fn aggregate(
    engine: &mut Engine,
    db: &str,
    command: &Document,
    ctx: &MatchContext<'_>,
) -> Result<Document> {
    let parsed = parse(engine, db, command, false)?;
    if parsed.explain {
        return explain_parsed(engine, db, command, &parsed, Verbosity::QueryPlanner)
            .map(crate::explain::narrow_counters);
    }
    let run = execute(engine, db, &parsed, ctx, Run::Results);
    if parsed.batch_size == Some(0) && parsed.pipeline.writer().is_none() {
        return Ok(empty_first_batch(engine, parsed.ns, run));
    }
    let mut docs = run?.docs;
    if let Some(writer) = parsed.pipeline.writer() {
        // `$out`/`$merge` consume the results: the cursor comes back empty.
        let write_run = WriteRun {
            scope: &parsed.scope,
            eval: &parsed.eval,
            match_ctx: ctx,
        };
        aggregate_write::write(engine, db, writer.target(), docs, &write_run)
            .map_err(executor_error)?;
        docs = Vec::new();
    } else {
        check_result_sizes(&docs).map_err(executor_error)?;
    }
    Ok(first_batch_reply(
        engine,
        parsed.ns,
        docs,
        parsed.batch_size,
        false,
    ))
}

/// All the documents an aggregate command produces, without a cursor (mapReduce's input: its
/// `query`, `sort` and `limit` are the leading stages of MongoDB's translated pipeline, and run
/// as a find through the planner here too).
pub(super) fn run_all(
    engine: &mut Engine,
    db: &str,
    command: &Document,
    ctx: &MatchContext<'_>,
) -> Result<Vec<Document>> {
    let parsed = parse(engine, db, command, false)?;
    Ok(execute(engine, db, &parsed, ctx, Run::Results)?.docs)
}

/// Parses a lone writing stage (`$out` or `$merge`) and checks its target as an aggregate
/// ending with it would (mapReduce's output is such a stage in MongoDB's translation).
pub(super) fn check_writer(engine: &mut Engine, db: &str, stage: &Document) -> Result<Pipeline> {
    let scope = Scope::default();
    let pipeline = Pipeline::parse(
        &Bson::Array(vec![Bson::Document(stage.clone())]),
        &scope,
        false,
    )?;
    match pipeline.writer() {
        Some(writer) => aggregate_write::check_target(engine, db, writer.target())?,
        None => {
            return Err(Error::new(
                ErrorCode::InternalError,
                "expected a writing stage",
            ));
        }
    }
    Ok(pipeline)
}

/// Writes `docs` through the writing stage of a pipeline [`check_writer`] accepted.
pub(super) fn write_through(
    engine: &mut Engine,
    db: &str,
    pipeline: &Pipeline,
    docs: Vec<Document>,
    ctx: &MatchContext<'_>,
) -> Result<()> {
    let Some(writer) = pipeline.writer() else {
        return Ok(());
    };
    let eval = engine.eval_context();
    let scope = Scope::default();
    let run = WriteRun {
        scope: &scope,
        eval: &eval,
        match_ctx: ctx,
    };
    aggregate_write::write(engine, db, writer.target(), docs, &run)
}

/// `cursor: {batchSize: 0}`: MongoDB 8.0 returns the cursor before it runs anything
/// (`run_aggregate.cpp` fills no first batch, and a cursor that has not run is not at its end),
/// so the reply always has a cursor id, even for no results, and an error that depends on the
/// data comes from the first `getMore` (jstests/aggregation/bugs/server5932.js).
fn empty_first_batch(engine: &mut Engine, ns: Namespace, run: Result<Executed>) -> Document {
    let run = run.and_then(|r| {
        check_result_sizes(&r.docs).map_err(executor_error)?;
        Ok(r.docs)
    });
    let (docs, error) = match run {
        Ok(docs) => (docs, None),
        Err(e) => (Vec::new(), Some(e)),
    };
    let cursors = engine.cursors_mut();
    let id = cursors.open(ns.clone(), docs.into());
    if let Some(cursor) = cursors.get_mut(id) {
        cursor.deferred_error = error;
    }
    bson::doc! {
        "cursor": {"firstBatch": [], "id": id, "ns": ns.to_string()},
        "ok": 1.0,
    }
}

/// `{explain: {aggregate: …}, verbosity}`.
pub fn explain_aggregate(
    engine: &mut Engine,
    db: &str,
    inner: &Document,
    verbosity: Verbosity,
) -> Result<Document> {
    let parsed = parse(engine, db, inner, true)?;
    explain_parsed(engine, db, inner, &parsed, verbosity)
}

/// What running a pipeline produced, with what explain reports.
struct Executed {
    docs: Vec<Document>,
    /// The find that read the collection (absent for `$documents` pipelines), with the parsed
    /// query and how many documents it returned (its documents went on to the stages).
    find: Option<(Execution, Document, usize)>,
    /// How many leading stages the find ran.
    pushed: usize,
    /// The number of documents each remaining stage returned.
    counts: Vec<usize>,
}

/// How far [`execute`] goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Run {
    /// Plans the find only (explain's queryPlanner verbosity).
    PlanOnly,
    /// Runs everything with the find's plan as explain shows it.
    Explained,
    /// Runs everything for the results: when the stages after the find read no field of its
    /// documents, the find only counts (see
    /// [`crate::pipeline::Stage::depends_only_on_input_count`]).
    Results,
}

/// Runs the pipeline: its leading `$match`/`$sort`/`$skip`/`$limit` as a find through the
/// planner (so indexes serve them, and `$sort` + `$limit` is a top-k sort), the rest stage by
/// stage.
fn execute(
    engine: &Engine,
    db: &str,
    a: &Parsed<'_>,
    ctx: &MatchContext<'_>,
    run: Run,
) -> Result<Executed> {
    let run_to_end = run != Run::PlanOnly;
    let cx = RunContext {
        catalog: engine.catalog(),
        db,
        collection: (a.ns.coll != "$cmd.aggregate").then_some(a.ns.coll.as_str()),
        sessions: engine.sessions(),
        match_ctx: ctx,
        eval: &a.eval,
        find_records: Some(crate::exec::matching_records),
        joined_limit: None,
        allow_disk_use: a.allow_disk_use,
    };
    let (input, find, pushed) = if a.pipeline.starts_with_source() {
        ((Vec::new(), None), None, 0)
    } else {
        let p = a.pipeline.pushdown();
        // The filter sees the `let` values already computed (`$$NOW` included).
        let mut spec = FindSpec::parse_in(p.filter, p.sort, None, p.skip, p.limit, &a.scope)?;
        // The stages read the find's text scores or near distances (`{$meta: …}`).
        spec.wants_metadata = a.pipeline.reads_meta();
        let query = CanonicalQuery::new(&spec).with_hint(a.hint);
        let coll = engine.catalog().collection(&a.ns);
        let counted = run == Run::Results
            && p.sort.is_none()
            && a.pipeline
                .stages()
                .get(p.stages)
                .is_some_and(|next| next.depends_only_on_input_count());
        if counted {
            // As MongoDB's cursor stage when the rest of the pipeline needs no field: empty
            // documents, as many as match, counted without fetching (COUNT_SCAN through an
            // index answering the filter alone), the skip and limit applied as `count` does.
            let filter_only = FindSpec::parse_in(p.filter, None, None, None, None, &a.scope)?;
            let query = CanonicalQuery::new(&filter_only).with_hint(a.hint);
            let skip = p.skip.map_or(0, |s| s.max(0) as u64);
            let limit = p.limit.map_or(0, |l| l.max(0) as u64);
            // Without skip or limit, a count over a lone collection scan runs as one loop over
            // the stored bytes (`exec::scanned_count`), not a stage's `work` call per record.
            let scanned = if skip == 0 && limit == 0 {
                crate::exec::scanned_count(coll, &query, ctx)
                    .map_err(|e| pushed_down_error(e, a.allow_disk_use))
                    .map_err(executor_error)?
            } else {
                None
            };
            let n = match scanned {
                Some(n) => n,
                None => {
                    execute_count(coll, &query, skip, limit, ctx, true)
                        .map_err(|e| pushed_down_error(e, a.allow_disk_use))
                        .map_err(executor_error)?
                        .0
                }
            };
            return run_stages(
                a,
                &cx,
                (vec![Document::new(); n as usize], None),
                None,
                p.stages,
            );
        }
        let next = a.pipeline.stages().get(p.stages);
        // Documents read in place carry no metadata (record ids, index keys) for the stages.
        if run == Run::Results
            && !a.pipeline.reads_meta()
            && p.sort.is_none()
            && p.skip.is_none()
            && p.limit.is_none()
            && let Some(next) = next.filter(|s| s.reads_in_place())
            && let Some(c) = coll
            && let Some(out) = in_place(next.as_ref(), c, &query, ctx, &cx)
                .map_err(|e| pushed_down_error(e, a.allow_disk_use))
                .map_err(executor_error)?
        {
            let out = out.map_err(executor_error)?;
            let returned = out.len();
            let mut executed = run_stages(a, &cx, (out, None), None, p.stages + 1)?;
            executed.pushed = p.stages;
            executed.counts.insert(0, returned);
            return Ok(executed);
        }
        let mut execution = crate::exec::execute(coll, &query, ctx, run_to_end)
            .map_err(|e| pushed_down_error(e, a.allow_disk_use))
            .map_err(executor_error)?;
        // The documents move on to the stages; explain needs only their number.
        let docs = std::mem::take(&mut execution.docs);
        let mut meta = execution.meta.take();
        if a.pipeline.reads_sort_key()
            && let (Some(sort), Some(meta)) = (spec.sort.as_ref(), meta.as_mut())
        {
            for (d, m) in docs.iter().zip(meta.iter_mut()) {
                if let Bson::Array(key) = sort.meta_sort_key(d, m.text_score) {
                    m.sort_key = Some(key);
                }
            }
        }
        let returned = docs.len();
        (
            (docs, meta),
            Some((execution, spec.filter.parsed_query(), returned)),
            p.stages,
        )
    };
    if run_to_end {
        run_stages(a, &cx, input, find, pushed)
    } else {
        Ok(Executed {
            docs: input.0,
            find,
            pushed,
            counts: Vec::new(),
        })
    }
}

/// Runs the stages after the `pushed` ones the find ran over its documents.
fn run_stages(
    a: &Parsed<'_>,
    cx: &RunContext<'_>,
    input: crate::pipeline::Batch,
    find: Option<(Execution, Document, usize)>,
    pushed: usize,
) -> Result<Executed> {
    let mut counts = Vec::new();
    let (mut docs, mut meta) = input;
    // A writing stage (always last) runs in `aggregate`, with write access.
    let readers = a.pipeline.stages().len() - usize::from(a.pipeline.writer().is_some());
    for stage in a.pipeline.stages()[..readers].iter().skip(pushed) {
        if a.pipeline.reads_meta() {
            (docs, meta) = stage
                .apply_with_meta(docs, meta.take(), cx)
                .map_err(executor_error)?;
        } else {
            docs = stage.apply(docs, cx).map_err(executor_error)?;
        }
        counts.push(docs.len());
    }
    Ok(Executed {
        docs,
        find,
        pushed,
        counts,
    })
}

/// MongoDB's largest internal document (16 MB + 16 KB): a result document beyond it cannot be
/// serialised into the cursor batch.
const MAX_RESULT_BYTES: usize = 16 * 1024 * 1024 + 16 * 1024;

/// Error 10334 (`BSONObjectTooLarge`) for a result document over the internal size limit.
fn check_result_sizes(docs: &[Document]) -> Result<()> {
    for d in docs {
        let size = crate::value::bson_size::document_size(d);
        if size > MAX_RESULT_BYTES {
            return Err(Error::new(
                ErrorCode::Location(10334),
                format!(
                    "BSONObj size: {size} (0x{size:X}) is invalid. Size must be between 0 and \
                     {MAX_RESULT_BYTES}(16MB)"
                ),
            ));
        }
    }
    Ok(())
}

/// An error of the find layer that ran the leading stages, as the aggregation reports it: a
/// blocking sort past its memory limit is the pipeline's `$sort` (with `allowDiskUse`'s
/// meaning in Sprout, see `pipeline::memory`), not a find command's.
fn pushed_down_error(e: Error, allow_disk_use: bool) -> Error {
    if e.code() == ErrorCode::QueryExceededMemoryLimitNoDiskUseAllowed.code() {
        return crate::pipeline::memory::exceeded(
            crate::pipeline::memory::Held::Sort,
            "$sort",
            crate::exec::sort::MEMORY_LIMIT_BYTES as usize + 1,
            allow_disk_use,
        );
    }
    e
}

fn executor_error(mut e: Error) -> Error {
    e.message = format!(
        "PlanExecutor error during aggregation :: caused by :: {}",
        e.message
    );
    e
}

/// MongoDB 8.0's explain of an aggregate: the find's plain explain when the whole pipeline ran
/// as a find; otherwise `stages`, the first a `$cursor` holding the find's queryPlanner (and
/// executionStats), then each remaining stage (with its `nReturned` when executed).
fn explain_parsed(
    engine: &mut Engine,
    db: &str,
    command: &Document,
    a: &Parsed<'_>,
    verbosity: Verbosity,
) -> Result<Document> {
    let start = engine.now_millis();
    let ctx = MatchContext::default();
    let run = if verbosity == Verbosity::QueryPlanner {
        Run::PlanOnly
    } else {
        Run::Explained
    };
    let ex = execute(engine, db, a, &ctx, run)?;
    let elapsed = engine.now_millis() - start;
    let mut command = command.clone();
    command.remove("explain");
    let find_explain = ex.find.as_ref().map(|(execution, parsed_query, returned)| {
        explain_document(&ExplainInput {
            namespace: a.ns.to_string(),
            parsed_query: parsed_query.clone(),
            command: command.clone(),
            verbosity,
            execution_time_millis: elapsed,
            execution,
            returned: *returned,
        })
    });
    let remaining = a.pipeline.stages().len() - ex.pushed;
    if let Some(doc) = &find_explain
        && remaining == 0
    {
        return Ok(doc.clone());
    }
    let mut stages = Vec::new();
    if let Some(doc) = &find_explain {
        let mut cursor = Document::new();
        for key in ["queryPlanner", "executionStats"] {
            if let Some(v) = doc.get(key) {
                cursor.insert(key, v.clone());
            }
        }
        let mut stage = bson::doc! {"$cursor": cursor};
        if run != Run::PlanOnly {
            let n = ex.find.as_ref().map_or(0, |(_, _, returned)| *returned);
            stage.insert("nReturned", n as i64);
            stage.insert("executionTimeMillisEstimate", 0_i64);
        }
        stages.push(Bson::Document(stage));
    }
    for (i, stage) in a.pipeline.stages().iter().skip(ex.pushed).enumerate() {
        let mut d = match stage.as_writer() {
            // Explain names the target with its database resolved.
            Some(writer) => writer.serialize_in(db),
            None => stage.serialize(),
        };
        if let Some(n) = ex.counts.get(i) {
            d.insert("nReturned", *n as i64);
            d.insert("executionTimeMillisEstimate", 0_i64);
        }
        stages.push(Bson::Document(d));
    }
    let mut reply = bson::doc! {"explainVersion": "1", "stages": stages};
    if let Some(doc) = &find_explain {
        for key in ["serverInfo", "serverParameters"] {
            if let Some(v) = doc.get(key) {
                reply.insert(key, v.clone());
            }
        }
    }
    reply.insert("command", command);
    reply.insert("ok", 1.0);
    Ok(reply)
}

/// The namespace the command reads: a collection, or `<db>.$cmd.aggregate` for `aggregate: 1`.
fn aggregate_namespace(db: &str, command: &Document) -> Result<(Namespace, bool)> {
    match command.get("aggregate") {
        Some(Bson::String(_)) => Ok((target_namespace(db, command)?, false)),
        Some(v @ (Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_)))
            if crate::value::as_i64(v) == Some(1) =>
        {
            Ok((Namespace::new(db, "$cmd.aggregate"), true))
        }
        Some(other) => Err(Error::new(
            ErrorCode::FailedToParse,
            format!(
                "Invalid command format: the 'aggregate' field must specify a collection name or \
                 1, found {}",
                type_name(other)
            ),
        )),
        None => Err(Error::new(ErrorCode::FailedToParse, "no such command: ''")),
    }
}

/// `cursor: {batchSize: n}`; the cursor option is required unless explaining.
fn cursor_batch_size(command: &Document, explain: bool) -> Result<Option<usize>> {
    let cursor = match command.get("cursor") {
        None if explain => return Ok(None),
        None => {
            return Err(Error::new(
                ErrorCode::FailedToParse,
                "The 'cursor' option is required, except for aggregate with the explain argument",
            ));
        }
        Some(Bson::Document(c)) => c,
        Some(other) => {
            return Err(Error::type_mismatch(format!(
                "BSON field 'aggregate.cursor' is the wrong type '{}', expected type 'object'",
                type_name(other)
            )));
        }
    };
    for key in cursor.keys() {
        if key != "batchSize" {
            return Err(Error::location(
                40415,
                format!("BSON field 'cursor.{key}' is an unknown field."),
            ));
        }
    }
    let size = super::count_option(cursor, "cursor", "batchSize")?;
    Ok(size.map(|s| usize::try_from(s).unwrap_or(usize::MAX)))
}

/// `hint` is an index name or a key pattern.
fn check_hint(hint: Option<&Bson>) -> Result<()> {
    match hint {
        None | Some(Bson::String(_) | Bson::Document(_)) => Ok(()),
        Some(other) => Err(Error::bad_value(format!(
            "hint must be a string or an object, found {}",
            type_name(other)
        ))),
    }
}

/// A collection scan feeding a stage that reads its input in place (`$group`): the stored
/// documents are read where they are instead of copied for the stage and dropped after it
/// (two thirds of a `$group` over 100k documents), walked in order rather than looked up one
/// by one, and read from their BSON bytes when the stage reads only some top-level fields
/// (`Stage::reads_stored_bytes`). `None` when the find is not a lone collection scan; the
/// outer error is the scan's, the inner one the stage's.
fn in_place(
    next: &dyn crate::pipeline::Stage,
    c: &crate::catalog::Collection,
    query: &CanonicalQuery<'_>,
    ctx: &crate::matcher::MatchContext<'_>,
    cx: &crate::pipeline::RunContext<'_>,
) -> Result<Option<Result<Vec<Document>>>> {
    if next.reads_stored_bytes()
        && let Some(stored) = crate::exec::scanned_bytes(Some(c), query, ctx)?
    {
        return Ok(Some(next.apply_to_stored(c, &stored, cx)));
    }
    Ok(crate::exec::scanned_documents(Some(c), query, ctx)?
        .map(|docs| next.apply_in_place(&docs, cx)))
}

#[cfg(test)]
mod tests {
    use bson::doc;

    use crate::Engine;

    /// An explained aggregate refuses writeConcern (FailedToParse), whether the explain comes
    /// from `explain: true` or from the explain command; a plain aggregate accepts it.
    #[test]
    fn explain_refuses_write_concern() {
        let mut e = Engine::new();
        e.run_command("test", &doc! {"insert": "c", "documents": [{"_id": 1}]});
        let out = doc! {"$out": "o"};
        let r = e.run_command(
            "test",
            &doc! {"aggregate": "c", "pipeline": [out.clone()], "explain": true,
            "writeConcern": {"w": 1}},
        );
        assert_eq!(r.get_i32("code").unwrap(), 9, "{r}");
        assert_eq!(
            r.get_str("errmsg").unwrap(),
            "Aggregation explain does not support the'writeConcern' option"
        );
        let r = e.run_command(
            "test",
            &doc! {"explain": {"aggregate": "c", "pipeline": [], "cursor": {},
            "writeConcern": {"w": 1}}, "verbosity": "queryPlanner"},
        );
        assert_eq!(r.get_i32("code").unwrap(), 9, "{r}");
        let r = e.run_command(
            "test",
            &doc! {"aggregate": "c", "pipeline": [out.clone()], "explain": true},
        );
        assert_eq!(r.get_f64("ok").unwrap(), 1.0, "{r}");
        let r = e.run_command(
            "test",
            &doc! {"aggregate": "c", "pipeline": [out], "cursor": {}, "writeConcern": {"w": 1}},
        );
        assert_eq!(r.get_f64("ok").unwrap(), 1.0, "{r}");
    }

    /// `batchSize: 0` returns a cursor even for no results, and a data-dependent error comes
    /// from the first getMore, which closes the cursor.
    #[test]
    fn empty_first_batch_defers_to_get_more() {
        let mut e = Engine::new();
        e.run_command(
            "test",
            &doc! {"insert": "c", "documents": [{"_id": 1, "s": "x"}]},
        );
        let r = e.run_command(
            "test",
            &doc! {"aggregate": "c", "pipeline": [{"$match": {"nope": 1}}], "cursor": {"batchSize": 0}},
        );
        let id = r.get_document("cursor").unwrap().get_i64("id").unwrap();
        assert_ne!(id, 0, "{r}");
        let r = e.run_command("test", &doc! {"getMore": id, "collection": "c"});
        let c = r.get_document("cursor").unwrap();
        assert_eq!(c.get_i64("id").unwrap(), 0, "{r}");
        assert!(c.get_array("nextBatch").unwrap().is_empty());

        let add = doc! {"$project": {"a": {"$add": [1, "$s"]}}};
        let r = e.run_command(
            "test",
            &doc! {"aggregate": "c", "pipeline": [add.clone()], "cursor": {"batchSize": 1}},
        );
        assert_eq!(r.get_f64("ok").unwrap(), 0.0, "{r}");
        let r = e.run_command(
            "test",
            &doc! {"aggregate": "c", "pipeline": [add], "cursor": {"batchSize": 0}},
        );
        let id = r.get_document("cursor").unwrap().get_i64("id").unwrap();
        let r = e.run_command("test", &doc! {"getMore": id, "collection": "c"});
        assert_eq!(r.get_f64("ok").unwrap(), 0.0, "{r}");
        let r = e.run_command("test", &doc! {"getMore": id, "collection": "c"});
        assert_eq!(r.get_i32("code").unwrap(), 43, "{r}");
    }
}
