//! Explain of `delete`, `update` and `findAndModify`: the write's filter is planned as a find
//! (with the write's sort and hint), then run under DELETE or UPDATE, which count what they
//! would do (`nWouldDelete`, `nMatched`, `nWouldModify`, `nWouldUpsert`) without writing. Each
//! reads its command through the command's own typed request (`request/`).

use bson::{Bson, Document, doc};

use super::explain::Explained;
use super::request::delete::DeleteRequest;
use super::request::find_and_modify::FindAndModifyRequest;
use super::request::update::UpdateRequest;
use super::target_namespace;
use crate::Engine;
use crate::error::Result;
use crate::exec::update::{Update, UpdatePlan};
use crate::exec::{Stage, explain_write};
use crate::explain::Verbosity;
use crate::matcher::MatchContext;
use crate::query::{CanonicalQuery, FindSpec};
use crate::update::{ArrayFilters, UpdateSpec};

/// What an explained write does, read from its command's request.
struct WriteStatement<'a> {
    filter: &'a Document,
    sort: Option<&'a Document>,
    hint: Option<&'a Bson>,
    /// `None`: the write deletes.
    update: Option<&'a Bson>,
    array_filters: &'a [Document],
    multi: bool,
    upsert: bool,
}

/// `{explain: {delete: "c", deletes: [{q, limit, hint}]}}`: the one statement's plan.
pub fn explain_delete(
    engine: &mut Engine,
    db: &str,
    inner: &Document,
    verbosity: Verbosity,
    ctx: &MatchContext<'_>,
) -> Result<Document> {
    target_namespace(db, inner)?;
    let statement = DeleteRequest::parse(inner)?.only_statement()?;
    let write = WriteStatement {
        filter: statement.q,
        sort: None,
        hint: statement.hint,
        update: None,
        array_filters: &[],
        multi: !statement.just_one,
        upsert: false,
    };
    explain_statement(engine, db, inner, verbosity, &write, ctx)
}

/// `{explain: {update: "c", updates: [{q, u, multi, upsert, arrayFilters, hint, sort}]}}`: the
/// one statement's plan.
pub fn explain_update(
    engine: &mut Engine,
    db: &str,
    inner: &Document,
    verbosity: Verbosity,
    ctx: &MatchContext<'_>,
) -> Result<Document> {
    let request = UpdateRequest::parse(inner)?;
    let statement = request.only_statement()?;
    let write = WriteStatement {
        filter: statement.q,
        sort: statement.sort,
        hint: statement.hint,
        update: Some(statement.u),
        array_filters: &statement.array_filters,
        multi: statement.multi,
        upsert: statement.upsert,
    };
    explain_statement(engine, db, inner, verbosity, &write, ctx)
}

/// `{explain: {findAndModify: "c", query, sort, update | remove, upsert, hint}}`.
pub fn explain_find_and_modify(
    engine: &mut Engine,
    db: &str,
    inner: &Document,
    verbosity: Verbosity,
    ctx: &MatchContext<'_>,
) -> Result<Document> {
    let request = FindAndModifyRequest::parse(inner)?;
    // MongoDB explains findAndModify on a missing collection, but not in a database never made
    // (find_and_modify.cpp: "database … does not exist"; explain_find_and_modify.js).
    if !engine.catalog().database_opened(db) {
        return Err(crate::error::Error::new(
            crate::error::ErrorCode::NamespaceNotFound,
            format!("database {db} does not exist"),
        ));
    }
    let empty = Document::new();
    let write = WriteStatement {
        filter: request.query.unwrap_or(&empty),
        sort: request.sort,
        hint: request.hint,
        update: request.update.filter(|_| !request.remove),
        array_filters: &request.array_filters,
        multi: false,
        upsert: request.upsert,
    };
    let mut out = explain_statement(engine, db, inner, verbosity, &write, ctx)?;
    shape_find_and_modify(
        &mut out,
        request.fields,
        request.upsert && request.return_new,
    );
    Ok(out)
}

/// findAndModify's explain as MongoDB shapes it: the write stage returns the document it
/// would answer with (`nReturned` 1 when a document matched, or when an upsert returns the new
/// one), and `fields` adds a PROJECTION_DEFAULT above it (get_executor.cpp builds a
/// ProjectionStageDefault for a findAndModify projection; explain_find_and_modify.js).
fn shape_find_and_modify(out: &mut Document, fields: Option<&Document>, upsert_returns_new: bool) {
    if let (Some(fields), Ok(planner)) = (fields, out.get_document_mut("queryPlanner"))
        && let Some(Bson::Document(mut plan)) = planner.remove("winningPlan")
    {
        let mut projection = Document::new();
        if let Some(cached) = plan.remove("isCached") {
            projection.insert("isCached", cached);
        }
        projection.insert("stage", "PROJECTION_DEFAULT");
        projection.insert("transformBy", fields.clone());
        projection.insert("inputStage", plan);
        planner.insert("winningPlan", projection);
    }
    let Ok(stats) = out.get_document_mut("executionStats") else {
        return;
    };
    let Some(Bson::Document(mut stage)) = stats.remove("executionStages") else {
        return;
    };
    let count = |stage: &Document, name: &str| match stage.get(name) {
        Some(Bson::Int32(n)) => i64::from(*n),
        Some(Bson::Int64(n)) => *n,
        _ => 0,
    };
    let found = count(&stage, "nWouldDelete") > 0 || count(&stage, "nMatched") > 0;
    let upserted = upsert_returns_new && count(&stage, "nWouldUpsert") > 0;
    let returned = i32::from(found || upserted);
    stage.insert("nReturned", returned);
    stage.insert("advanced", returned);
    stats.insert("nReturned", returned);
    let root = match fields {
        Some(fields) => {
            let mut projection = doc! {"stage": "PROJECTION_DEFAULT"};
            for name in COUNTERS {
                if let Some(v) = stage.get(name) {
                    projection.insert(name, v.clone());
                }
            }
            projection.insert("transformBy", fields.clone());
            projection.insert("inputStage", stage);
            projection
        }
        None => stage,
    };
    stats.insert("executionStages", root);
}

/// The counters every stage shows, which a projection over the write stage repeats.
const COUNTERS: [&str; 9] = [
    "nReturned",
    "executionTimeMillisEstimate",
    "works",
    "advanced",
    "needTime",
    "needYield",
    "saveState",
    "restoreState",
    "isEOF",
];

fn explain_statement(
    engine: &mut Engine,
    db: &str,
    inner: &Document,
    verbosity: Verbosity,
    write: &WriteStatement<'_>,
    ctx: &MatchContext<'_>,
) -> Result<Document> {
    let spec = FindSpec::parse(Some(write.filter), write.sort, None, None, None)?;
    let query = CanonicalQuery::new(&spec).with_hint(write.hint);
    let array_filters = ArrayFilters::parse(write.array_filters)?;
    let update = match write.update {
        Some(u) => Some(UpdateSpec::parse(u, &array_filters)?),
        None => None,
    };
    let now_millis = engine.now_millis();
    let eval = engine.eval_context();
    let explained = Explained {
        db,
        inner,
        verbosity,
        ctx,
    };
    let (out, _) = explained.run(
        engine,
        &spec,
        &query,
        |coll, query, ctx, run| match &update {
            Some(update_spec) => explain_write(coll, query, ctx, run, |input| {
                let plan = UpdatePlan {
                    spec: update_spec,
                    filter: &spec.filter,
                    array_filters: &array_filters,
                    now_millis,
                    eval: &eval,
                    multi: write.multi,
                    upsert: write.upsert,
                };
                Box::new(Update::new(plan, input)) as Box<dyn Stage + '_>
            }),
            None => crate::exec::explain_delete(coll, query, write.multi, ctx, run),
        },
    )?;
    Ok(out)
}
