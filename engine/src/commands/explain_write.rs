//! Explain of `update` and `findAndModify`: the write's filter is planned as a find (with the
//! write's sort and hint), then run under UPDATE (or DELETE for a findAndModify that removes),
//! which counts what it would do (`nMatched`, `nWouldModify`, `nWouldUpsert`, `nWouldDelete`)
//! without writing.

use bson::{Bson, Document};

use super::explain::reply;
use super::{bool_option, document_option, target_namespace};
use crate::Engine;
use crate::error::{Error, Result};
use crate::exec::update::{Update, UpdatePlan};
use crate::exec::{Stage, explain_write};
use crate::explain::Verbosity;
use crate::matcher::MatchContext;
use crate::query::CanonicalQuery;
use crate::query::FindSpec;
use crate::update::{ArrayFilters, UpdateSpec};

/// What an explained write does, read from its command.
struct WriteStatement<'a> {
    filter: &'a Document,
    sort: Option<&'a Document>,
    hint: Option<&'a Bson>,
    update: Option<&'a Bson>,
    array_filters: Vec<Document>,
    multi: bool,
    upsert: bool,
}

/// `{explain: {update: "c", updates: [{q, u, multi, upsert, arrayFilters, hint, sort}]}}`: the
/// first statement's plan.
pub fn explain_update(
    engine: &mut Engine,
    db: &str,
    inner: &Document,
    verbosity: Verbosity,
    ctx: &MatchContext<'_>,
) -> Result<Document> {
    let statement = match inner.get("updates") {
        Some(Bson::Array(items)) => match items.first() {
            Some(Bson::Document(d)) => d,
            _ => {
                return Err(Error::bad_value(
                    "explain of an update needs exactly one update statement",
                ));
            }
        },
        _ => {
            return Err(Error::location(
                40414,
                "BSON field 'update.updates' is missing but a required field",
            ));
        }
    };
    let empty = Document::new();
    let write = WriteStatement {
        filter: document_option(statement, "update.updates", "q")?.unwrap_or(&empty),
        sort: document_option(statement, "update.updates", "sort")?,
        hint: statement.get("hint"),
        update: statement.get("u"),
        array_filters: super::update::array_filters_option(statement, "update.updates")?,
        multi: bool_option(statement, "multi", false)?,
        upsert: bool_option(statement, "upsert", false)?,
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
    let empty = Document::new();
    let remove = bool_option(inner, "remove", false)?;
    let write = WriteStatement {
        filter: document_option(inner, "findAndModify", "query")?.unwrap_or(&empty),
        sort: document_option(inner, "findAndModify", "sort")?,
        hint: inner.get("hint"),
        update: if remove { None } else { inner.get("update") },
        array_filters: super::update::array_filters_option(inner, "findAndModify")?,
        multi: false,
        upsert: bool_option(inner, "upsert", false)?,
    };
    if !remove && write.update.is_none() {
        return Err(Error::location(
            9,
            "Either an update or remove=true must be specified",
        ));
    }
    explain_statement(engine, db, inner, verbosity, &write, ctx)
}

fn explain_statement(
    engine: &mut Engine,
    db: &str,
    inner: &Document,
    verbosity: Verbosity,
    write: &WriteStatement<'_>,
    ctx: &MatchContext<'_>,
) -> Result<Document> {
    let ns = target_namespace(db, inner)?;
    let spec = FindSpec::parse(Some(write.filter), write.sort, None, None, None)?;
    let query = CanonicalQuery::new(&spec)
        .with_hint(write.hint.filter(|h| !super::count::is_empty_hint(h)));
    let array_filters = ArrayFilters::parse(&write.array_filters)?;
    let update = match write.update {
        Some(u) => Some(UpdateSpec::parse(u, &array_filters)?),
        None => None,
    };
    let start = engine.now_millis();
    let now_millis = engine.now_millis();
    let eval = engine.eval_context();
    let coll = engine.catalog().collection(&ns);
    let run = verbosity != Verbosity::QueryPlanner;
    let execution = match &update {
        Some(update_spec) => explain_write(coll, &query, ctx, run, |input| {
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
        })?,
        None => crate::exec::explain_delete(coll, &query, false, ctx, run)?,
    };
    let elapsed = engine.now_millis() - start;
    let parsed = spec.filter.parsed_query();
    Ok(reply(
        db, &ns, inner, parsed, verbosity, elapsed, &execution,
    ))
}
