//! Explain of `delete`, `update` and `findAndModify`: the write's filter is planned as a find
//! (with the write's sort and hint), then run under DELETE or UPDATE, which count what they
//! would do (`nWouldDelete`, `nMatched`, `nWouldModify`, `nWouldUpsert`) without writing. Each
//! reads its command through the command's own typed request (`request/`).

use bson::{Bson, Document};

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
