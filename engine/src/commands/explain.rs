//! `explain`: runs the planner (and, with executionStats or allPlansExecution, the plan) for an
//! explained `find`, and reports MongoDB 8.0's explain document. The plan is chosen exactly as
//! the command itself would choose it; nothing is written.

use bson::{Bson, Document};

use super::{count_option, document_option, target_namespace};
use crate::Engine;
use crate::error::{Error, Result};
use crate::exec::execute;
use crate::explain::{ExplainInput, Verbosity, explain_document, unsupported};
use crate::matcher::MatchContext;
use crate::query::FindSpec;

/// `ctx` carries the shell's `$where` evaluator, so an explained `$where` query runs as the
/// query itself would.
pub fn explain(
    engine: &mut Engine,
    db: &str,
    command: &Document,
    ctx: &MatchContext<'_>,
) -> Result<Document> {
    let inner = match command.get("explain") {
        Some(Bson::Document(d)) => d,
        Some(other) => {
            return Err(Error::type_mismatch(format!(
                "BSON field 'explain.explain' is the wrong type '{}', expected type 'object'",
                crate::value::display::type_name(other)
            )));
        }
        None => {
            return Err(Error::location(
                40414,
                "explain command requires a nested object",
            ));
        }
    };
    let verbosity = Verbosity::parse(command.get("verbosity"))?;
    let Some((name, _)) = inner.iter().next() else {
        return Err(Error::location(
            40414,
            "explain command requires a nested object",
        ));
    };
    let explained = match name.as_str() {
        "find" => explain_find(engine, db, inner, verbosity, ctx),
        "delete" => explain_delete(engine, db, inner, verbosity, ctx),
        "count" => explain_count(engine, db, inner, verbosity, ctx),
        "aggregate" => super::aggregate::explain_aggregate(engine, db, inner, verbosity),
        "distinct" => explain_distinct(engine, db, inner, verbosity, ctx),
        "update" => super::explain_write::explain_update(engine, db, inner, verbosity, ctx),
        "findAndModify" | "findandmodify" => {
            super::explain_write::explain_find_and_modify(engine, db, inner, verbosity, ctx)
        }
        other => Err(unsupported(other)),
    };
    explained.map(crate::explain::narrow_counters)
}

fn explain_find(
    engine: &mut Engine,
    db: &str,
    inner: &Document,
    verbosity: Verbosity,
    ctx: &MatchContext<'_>,
) -> Result<Document> {
    let ns = target_namespace(db, inner)?;
    let fields = super::find::FindFields::read(inner)?;
    let spec = parse_find_spec(inner, &fields)?;
    let query = fields.canonical(&spec);
    let start = engine.now_millis();
    let coll = engine.catalog().collection(&ns);
    let run = verbosity != Verbosity::QueryPlanner;
    let execution = execute(coll, &query, ctx, run)?;
    let elapsed = engine.now_millis() - start;
    let mut out = reply(
        db,
        &ns,
        inner,
        spec.filter.parsed_query(),
        verbosity,
        elapsed,
        &execution,
    );
    if coll.is_some() {
        let mut planned = vec![execution.winner.clone()];
        planned.extend(execution.rejected.iter().map(|(s, _)| s.clone()));
        let key = crate::planner::plan_cache::CacheKey::of(&query, &planned);
        crate::explain::insert_cache_key(&mut out, &key);
    }
    Ok(out)
}

/// `{explain: {delete: "c", deletes: [{q, limit}]}}`: the first delete statement's plan.
fn explain_delete(
    engine: &mut Engine,
    db: &str,
    inner: &Document,
    verbosity: Verbosity,
    ctx: &MatchContext<'_>,
) -> Result<Document> {
    let ns = target_namespace(db, inner)?;
    let statement = match inner.get("deletes") {
        Some(Bson::Array(items)) => match items.first() {
            Some(Bson::Document(d)) => d,
            _ => {
                return Err(Error::bad_value(
                    "explain of a delete needs exactly one delete statement",
                ));
            }
        },
        _ => {
            return Err(Error::location(
                40414,
                "BSON field 'delete.deletes' is missing but a required field",
            ));
        }
    };
    let empty = Document::new();
    let filter = match statement.get("q") {
        Some(Bson::Document(q)) => q,
        _ => &empty,
    };
    let multi = statement
        .get("limit")
        .map(crate::value::as_i64_signed)
        .unwrap_or(0)
        == 0;
    let spec = FindSpec::parse(Some(filter), None, None, None, None)?;
    let query = crate::query::CanonicalQuery::new(&spec).with_hint(statement.get("hint"));
    let start = engine.now_millis();
    let coll = engine.catalog().collection(&ns);
    let execution = crate::exec::explain_delete(
        coll,
        &query,
        multi,
        ctx,
        verbosity != Verbosity::QueryPlanner,
    )?;
    let elapsed = engine.now_millis() - start;
    let parsed = spec.filter.parsed_query();
    Ok(reply(
        db, &ns, inner, parsed, verbosity, elapsed, &execution,
    ))
}

/// `{explain: {count: "c", query, skip, limit, hint}}`: COUNT over the query's plan
/// (COUNT_SCAN when an index answers alone), or RECORD_STORE_FAST_COUNT without a query.
fn explain_count(
    engine: &mut Engine,
    db: &str,
    inner: &Document,
    verbosity: Verbosity,
    ctx: &MatchContext<'_>,
) -> Result<Document> {
    let request = super::count::CountRequest::parse(inner)?;
    let (skip, limit) = (request.skip as u64, request.limit as u64);
    explain_query_command(
        engine,
        db,
        inner,
        verbosity,
        ctx,
        (request.spec()?, request.hint),
        |coll, query, ctx, run| {
            Ok(crate::exec::count::execute_count(coll, query, skip, limit, ctx, run)?.1)
        },
    )
}

/// `{explain: {distinct: "c", key, query}}`: DISTINCT_SCAN under PROJECTION_COVERED when an
/// index on the key answers the query alone, else the query's find plan.
fn explain_distinct(
    engine: &mut Engine,
    db: &str,
    inner: &Document,
    verbosity: Verbosity,
    ctx: &MatchContext<'_>,
) -> Result<Document> {
    let request = super::distinct::DistinctRequest::parse(inner)?;
    let key = request.key;
    explain_query_command(
        engine,
        db,
        inner,
        verbosity,
        ctx,
        (request.spec()?, request.hint),
        |coll, query, ctx, run| crate::exec::execute_distinct(coll, key, query, ctx, run),
    )
}

/// Explains a read command with a parsed `query` and a `hint` (count, distinct, from their
/// requests): `plan` plans it and,
/// unless the verbosity is queryPlanner, runs it.
fn explain_query_command(
    engine: &mut Engine,
    db: &str,
    inner: &Document,
    verbosity: Verbosity,
    ctx: &MatchContext<'_>,
    (spec, hint): (FindSpec, Option<&Bson>),
    plan: impl FnOnce(
        Option<&crate::catalog::Collection>,
        &crate::query::CanonicalQuery<'_>,
        &MatchContext<'_>,
        bool,
    ) -> Result<crate::exec::Execution>,
) -> Result<Document> {
    let ns = target_namespace(db, inner)?;
    let query = crate::query::CanonicalQuery::new(&spec).with_hint(hint);
    let start = engine.now_millis();
    let coll = engine.catalog().collection(&ns);
    let execution = plan(coll, &query, ctx, verbosity != Verbosity::QueryPlanner)?;
    let elapsed = engine.now_millis() - start;
    let parsed = spec.filter.parsed_query();
    Ok(reply(
        db, &ns, inner, parsed, verbosity, elapsed, &execution,
    ))
}

/// The explain document for an explained command and its execution.
pub(super) fn reply(
    db: &str,
    ns: &crate::catalog::Namespace,
    inner: &Document,
    parsed_query: Document,
    verbosity: Verbosity,
    elapsed: i64,
    execution: &crate::exec::Execution,
) -> Document {
    let mut command = inner.clone();
    command.insert("$db", db);
    explain_document(&ExplainInput {
        namespace: ns.to_string(),
        parsed_query,
        command,
        verbosity,
        execution_time_millis: elapsed.max(0),
        execution,
    })
}

/// The find's spec, read as the find command reads it.
fn parse_find_spec(inner: &Document, fields: &super::find::FindFields<'_>) -> Result<FindSpec> {
    let mut spec = FindSpec::parse_with_let(
        fields.filter,
        fields.sort,
        fields.projection,
        count_option(inner, "find", "skip")?,
        super::find::limit_option(inner)?,
        document_option(inner, "find", "let")?,
    )?;
    super::find::set_min_max(&mut spec, inner)?;
    Ok(spec)
}
