//! `explain`: runs the planner (and, with executionStats or allPlansExecution, the plan) for an
//! explained command, and reports MongoDB 8.0's explain document. Each explained command is
//! read by the same typed request as the command itself (`request/`, `CountRequest`,
//! `DistinctRequest`), so the plan is chosen exactly as the command would choose it; nothing is
//! written. The writes' explains are in `explain_write.rs`.

use bson::{Bson, Document};

use super::request::find::FindRequest;
use super::target_namespace;
use crate::Engine;
use crate::catalog::Collection;
use crate::error::{Error, ErrorCode, Result};
use crate::exec::{Execution, execute};
use crate::explain::{ExplainInput, Verbosity, explain_document, unsupported};
use crate::matcher::MatchContext;
use crate::query::{CanonicalQuery, FindSpec};

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
    // MongoDB's explain_cmd.cpp: an explained command naming another database in its `$db`
    // is refused (jstests/core/explain_db_mismatch.js).
    if let Some(inner_db) = inner.get("$db") {
        let Bson::String(inner_db) = inner_db else {
            return Err(Error::type_mismatch(format!(
                "$db is the wrong type '{}', expected type 'string'",
                crate::value::display::type_name(inner_db)
            )));
        };
        if inner_db != db {
            return Err(Error::new(
                ErrorCode::InvalidNamespace,
                format!("Mismatched $db in explain command. Expected {db} but got {inner_db}"),
            ));
        }
    }
    let verbosity = Verbosity::parse(command.get("verbosity"))?;
    let Some((name, _)) = inner.iter().next() else {
        return Err(Error::location(
            40414,
            "explain command requires a nested object",
        ));
    };
    // An explained read on a view is the explain of the aggregation it resolves to, over the
    // view's source (MongoDB's explain of a view read: jstests/core/views/views_find.js expects
    // the source's namespace in queryPlanner, views_count.js a `$cursor` stage).
    if matches!(name.as_str(), "find" | "count" | "distinct" | "aggregate")
        && let Some(Bson::String(coll)) = inner.get(name)
        && let Some(view) =
            super::view::resolve(engine, &crate::catalog::Namespace::new(db, coll.as_str()))?
        && let Some(aggregate) = super::view::explained_aggregate(inner, view)
    {
        super::view::check_collation(
            engine,
            &crate::catalog::Namespace::new(db, coll.as_str()),
            inner,
        )?;
        return super::aggregate::explain_aggregate(engine, db, &aggregate, verbosity)
            .map(crate::explain::narrow_counters);
    }
    let explained = match name.as_str() {
        "find" => explain_find(engine, db, inner, verbosity, ctx),
        "delete" => super::explain_write::explain_delete(engine, db, inner, verbosity, ctx),
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

/// `{explain: {find: "c", …}}`: the find's plan, with the plan cache's `queryHash` and
/// `planCacheKey` (explain never reads or writes the cache itself).
fn explain_find(
    engine: &mut Engine,
    db: &str,
    inner: &Document,
    verbosity: Verbosity,
    ctx: &MatchContext<'_>,
) -> Result<Document> {
    let ns = target_namespace(db, inner)?;
    let request = FindRequest::parse(inner)?;
    let spec = request.spec(&engine.eval_context())?;
    let query = request.canonical(&spec);
    let explained = Explained {
        db,
        inner,
        verbosity,
        ctx,
    };
    let (mut out, execution) = explained.run(engine, &spec, &query, execute)?;
    if engine.catalog().collection(&ns).is_some() {
        let mut planned = vec![execution.winner.clone()];
        planned.extend(execution.rejected.iter().map(|(s, _)| s.clone()));
        let key = crate::planner::plan_cache::CacheKey::of(&query, &planned);
        crate::explain::insert_cache_key(&mut out, &key);
    }
    Ok(out)
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
    let spec = request.spec()?;
    let query = CanonicalQuery::new(&spec).with_hint(request.hint);
    let explained = Explained {
        db,
        inner,
        verbosity,
        ctx,
    };
    let (out, _) = explained.run(engine, &spec, &query, |coll, query, ctx, run| {
        Ok(crate::exec::count::execute_count(coll, query, skip, limit, ctx, run)?.1)
    })?;
    Ok(out)
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
    let spec = request.spec()?;
    let query = CanonicalQuery::new(&spec).with_hint(request.hint);
    let explained = Explained {
        db,
        inner,
        verbosity,
        ctx,
    };
    let (out, _) = explained.run(engine, &spec, &query, |coll, query, ctx, run| {
        crate::exec::execute_distinct(coll, key, query, ctx, run)
    })?;
    Ok(out)
}

/// An explained command: the one path from a parsed request's query to the explain reply, for
/// reads and writes alike.
pub(super) struct Explained<'a> {
    pub db: &'a str,
    /// The explained command as written (the reply's `command`).
    pub inner: &'a Document,
    pub verbosity: Verbosity,
    pub ctx: &'a MatchContext<'a>,
}

impl Explained<'_> {
    /// Plans `query` (parsed from `spec`) with `plan` and, unless the verbosity is
    /// queryPlanner, runs it; returns the explain reply and the execution it reports.
    pub(super) fn run(
        &self,
        engine: &Engine,
        spec: &FindSpec,
        query: &CanonicalQuery<'_>,
        plan: impl FnOnce(
            Option<&Collection>,
            &CanonicalQuery<'_>,
            &MatchContext<'_>,
            bool,
        ) -> Result<Execution>,
    ) -> Result<(Document, Execution)> {
        let ns = target_namespace(self.db, self.inner)?;
        let start = engine.now_millis();
        let coll = engine.catalog().collection(&ns);
        let execution = plan(
            coll,
            query,
            self.ctx,
            self.verbosity != Verbosity::QueryPlanner,
        )?;
        let elapsed = engine.now_millis() - start;
        let mut command = self.inner.clone();
        command.insert("$db", self.db);
        let out = explain_document(&ExplainInput {
            namespace: ns.to_string(),
            parsed_query: spec.filter.parsed_query(),
            command,
            verbosity: self.verbosity,
            execution_time_millis: elapsed.max(0),
            execution: &execution,
            returned: execution.docs.len(),
        });
        Ok((out, execution))
    }
}

#[cfg(test)]
mod tests {
    use bson::doc;

    use crate::Engine;

    /// An explained command whose `$db` names another database is refused with
    /// InvalidNamespace; naming the same database is fine.
    #[test]
    fn inner_db_must_be_the_command_database() {
        let mut e = Engine::new();
        let r = e.run_command("test", &doc! {"explain": {"find": "c", "$db": "other"}});
        assert_eq!(r.get_i32("code").unwrap(), 73, "{r}");
        assert_eq!(
            r.get_str("errmsg").unwrap(),
            "Mismatched $db in explain command. Expected test but got other"
        );
        let r = e.run_command("test", &doc! {"explain": {"find": "c", "$db": "test"}});
        assert_eq!(r.get_f64("ok").unwrap(), 1.0, "{r}");
    }

    /// Explaining findAndModify fails in a database never made (or dropped whole) and works on a
    /// missing collection of a database whose last collection was dropped.
    #[test]
    fn find_and_modify_explain_needs_an_opened_database() {
        let mut e = Engine::new();
        let explain = doc! {"explain": {"findAndModify": "c", "remove": true, "query": {"_id": 0}}};
        let r = e.run_command("fresh", &explain);
        assert_eq!(r.get_i32("code").unwrap(), 26, "{r}");
        e.run_command("fresh", &doc! {"insert": "c", "documents": [{"_id": 1}]});
        e.run_command("fresh", &doc! {"drop": "c"});
        let r = e.run_command("fresh", &explain);
        assert_eq!(r.get_f64("ok").unwrap(), 1.0, "{r}");
        e.run_command("fresh", &doc! {"insert": "c", "documents": [{"_id": 1}]});
        e.run_command("fresh", &doc! {"dropDatabase": 1});
        let r = e.run_command("fresh", &explain);
        assert_eq!(r.get_i32("code").unwrap(), 26, "{r}");
    }

    /// findAndModify's explain returns the document it would answer with, and `fields` puts a
    /// PROJECTION_DEFAULT over the write stage.
    #[test]
    fn find_and_modify_explain_counts_the_returned_document_under_its_projection() {
        let mut e = Engine::new();
        e.run_command(
            "t",
            &doc! {"insert": "c", "documents": [{"_id": 0, "i": 1}]},
        );
        let explain = |cmd: bson::Document| {
            doc! {"explain": cmd, "verbosity": "executionStats"}
        };
        let returned = |e: &mut Engine, cmd: bson::Document| {
            let r = e.run_command("t", &explain(cmd));
            r.get_document("executionStats")
                .unwrap()
                .get_i32("nReturned")
                .unwrap()
        };
        let remove = doc! {"findAndModify": "c", "remove": true, "query": {"_id": 0}};
        assert_eq!(returned(&mut e, remove), 1);
        let miss = doc! {"findAndModify": "c", "update": {"$inc": {"i": 1}}, "query": {"_id": 9}, "upsert": true};
        assert_eq!(returned(&mut e, miss.clone()), 0);
        let mut miss_new = miss;
        miss_new.insert("new", true);
        assert_eq!(returned(&mut e, miss_new), 1);
        let projected = doc! {"findAndModify": "c", "update": {"$inc": {"i": 1}}, "query": {"_id": 0}, "fields": {"i": 0}};
        let r = e.run_command("t", &explain(projected));
        let root = r
            .get_document("executionStats")
            .unwrap()
            .get_document("executionStages")
            .unwrap();
        assert_eq!(root.get_str("stage").unwrap(), "PROJECTION_DEFAULT");
        assert_eq!(root.get_document("transformBy").unwrap(), &doc! {"i": 0});
        assert_eq!(
            root.get_document("inputStage")
                .unwrap()
                .get_str("stage")
                .unwrap(),
            "UPDATE"
        );
        let plan = r
            .get_document("queryPlanner")
            .unwrap()
            .get_document("winningPlan")
            .unwrap();
        assert_eq!(plan.get_str("stage").unwrap(), "PROJECTION_DEFAULT");
        assert_eq!(
            e.run_command("t", &doc! {"count": "c"})
                .get_i32("n")
                .unwrap(),
            1
        );
    }
}
