//! Views (`create` with `viewOn` and `pipeline`). As in MongoDB, a read on a view is resolved
//! into an aggregation over the view's source collection: the view's pipeline (and the
//! pipelines of the views it is defined on) first, then the read's own stages. Writes to a
//! view are refused with CommandNotSupportedOnView (166).

use bson::{Bson, Document, doc};

use crate::Engine;
use crate::catalog::Namespace;
use crate::error::{Error, ErrorCode, Result};
use crate::matcher::MatchContext;

pub use crate::catalog::view::{ResolvedView, resolve_in};

/// The view `ns` names, resolved, or `None` when it is not a view.
pub fn resolve(engine: &Engine, ns: &Namespace) -> Result<Option<ResolvedView>> {
    resolve_in(engine.catalog(), ns)
}

/// The error for a command that cannot run on a view.
pub fn not_supported(ns: &Namespace) -> Error {
    Error::new(
        ErrorCode::CommandNotSupportedOnView,
        format!("Namespace {ns} is a view, not a collection"),
    )
}

/// Checks a view definition before `create` or `collMod` stores it, in the order of MongoDB
/// 8.0's `ViewsForDatabase` (view_catalog.cpp): the pipeline parses as an aggregation's, holds
/// no stage that writes (OptionNotSupportedOnView), and the database's views stay acyclic and
/// at most 20 deep (`catalog::view_graph`).
pub fn check_definition(
    engine: &Engine,
    ns: &Namespace,
    view_on: &str,
    pipeline: &[Bson],
) -> Result<()> {
    check_pipeline(ns, pipeline)?;
    // MongoDB reloads the whole view catalog, so a definition stored invalid through
    // `system.views` fails this one too (jstests/core/views/views_creation.js).
    for (name, coll) in engine.catalog().collections(&ns.db) {
        if name != ns.coll
            && coll.options.contains_key("viewOn")
            && let Ok(stages) = coll.options.get_array("pipeline")
        {
            check_pipeline(&Namespace::new(&ns.db, name), stages)?;
        }
    }
    crate::catalog::view_graph::check_definition(
        engine.catalog(),
        &ns.db,
        &ns.coll,
        view_on,
        pipeline,
    )
}

/// A view's pipeline parses as an aggregation's and holds no stage that writes.
fn check_pipeline(ns: &Namespace, pipeline: &[Bson]) -> Result<()> {
    let parsed = crate::pipeline::Pipeline::parse_stages(
        pipeline,
        &crate::expression::Scope::default(),
        false,
    )?;
    if let Some((i, stage)) = parsed
        .stages()
        .iter()
        .enumerate()
        .find(|(_, s)| s.as_writer().is_some())
    {
        return Err(Error::new(
            ErrorCode::OptionNotSupportedOnView,
            format!(
                "The aggregation stage {} in location {i} of the pipeline cannot be used in the view definition of {ns} because it writes to disk",
                stage.name()
            ),
        ));
    }
    Ok(())
}

/// `collMod` on a view: a new `viewOn`, `pipeline` or both (the other kept), checked as
/// `create` checks a definition. MongoDB 8.0 takes no other option for a view
/// (InvalidOptions); it asks for both fields only when auth is on, which Sprout has not
/// (jstests/core/views/views_change.js).
pub fn modify(engine: &mut Engine, ns: &Namespace, command: &Document) -> Result<Document> {
    for (k, _) in command.iter().skip(1) {
        match k.as_str() {
            "viewOn" | "pipeline" | "writeConcern" | "comment" | "lsid" | "$db" => {}
            other => {
                return Err(Error::new(
                    ErrorCode::InvalidOptions,
                    format!("option not supported on a view: {other}"),
                ));
            }
        }
    }
    let Some(mut options) = engine.catalog().collection(ns).map(|c| c.options.clone()) else {
        return Err(Error::new(
            ErrorCode::NamespaceNotFound,
            "ns does not exist",
        ));
    };
    match command.get("viewOn") {
        None => {}
        Some(Bson::String(on)) if on.is_empty() => {
            return Err(Error::bad_value("'viewOn' cannot be empty"));
        }
        Some(Bson::String(on)) => {
            options.insert("viewOn", on.clone());
        }
        Some(other) => return Err(wrong_type("collMod.viewOn", other, "string")),
    }
    match command.get("pipeline") {
        None => {}
        Some(Bson::Array(stages)) => {
            if let Some(stage) = stages.iter().find(|s| !matches!(s, Bson::Document(_))) {
                return Err(wrong_type("collMod.pipeline.0", stage, "object"));
            }
            options.insert("pipeline", stages.clone());
        }
        // IDL `array<object>` (coll_mod.idl): a document is the wrong type, whatever its keys.
        Some(other) => return Err(wrong_type("collMod.pipeline", other, "array")),
    }
    let view_on = options.get_str("viewOn").unwrap_or_default().to_string();
    let pipeline = options.get_array("pipeline").cloned().unwrap_or_default();
    check_definition(engine, ns, &view_on, &pipeline)?;
    if let Some(coll) = engine.catalog_mut().collection_mut(ns) {
        coll.options = options.clone();
    }
    engine.record(crate::storage::Change::PutCollection {
        ns: ns.clone(),
        options,
    });
    Ok(doc! {"ok": 1.0})
}

fn wrong_type(field: &str, value: &Bson, expected: &str) -> Error {
    Error::type_mismatch(format!(
        "BSON field '{field}' is the wrong type '{}', expected type '{expected}'",
        crate::value::display::type_name(value)
    ))
}

/// Runs a read command on a view as an aggregation over its source. `command` names the view.
pub fn run_read(
    engine: &mut Engine,
    db: &str,
    command: &Document,
    view_ns: &Namespace,
    view: ResolvedView,
    ctx: &MatchContext<'_>,
) -> Result<Document> {
    let name = command.keys().next().cloned().unwrap_or_default();
    let mut pipeline = view.pipeline;
    let source = view.source.coll.clone();
    match name.as_str() {
        "find" => {
            refuse_find_options(command)?;
            push_find_stages(&mut pipeline, command);
            let mut aggregate = doc! {"aggregate": source, "pipeline": pipeline, "cursor": {}};
            copy_fields(
                command,
                &mut aggregate,
                &["collation", "hint", "let", "comment"],
            );
            if let Some(b) = command.get("batchSize") {
                aggregate.insert("cursor", doc! {"batchSize": b.clone()});
            }
            let reply = super::aggregate::aggregate(engine, db, &aggregate, ctx)?;
            Ok(belongs_to_view(engine, reply, view_ns))
        }
        "count" => {
            push_count_stages(&mut pipeline, command);
            let docs = aggregate_docs(engine, db, &source, pipeline, command, ctx)?;
            let n = docs
                .first()
                .and_then(|d| d.get("count"))
                .cloned()
                .unwrap_or(Bson::Int32(0));
            Ok(doc! {"n": n, "ok": 1.0})
        }
        "distinct" => {
            if let Some(q) = non_empty_doc(command, "query") {
                pipeline.push(Bson::Document(doc! {"$match": q}));
            }
            let docs = aggregate_docs(engine, db, &source, pipeline, command, ctx)?;
            let key = command.get_str("key").unwrap_or_default();
            let values = super::distinct::distinct_values(&docs, key);
            Ok(doc! {"values": values, "ok": 1.0})
        }
        "aggregate" => {
            if let Ok(own) = command.get_array("pipeline") {
                pipeline.extend(own.iter().cloned());
            }
            let mut aggregate = command.clone();
            aggregate.insert("aggregate", source);
            aggregate.insert("pipeline", pipeline);
            let reply = super::aggregate::aggregate(engine, db, &aggregate, ctx)?;
            Ok(belongs_to_view(engine, reply, view_ns))
        }
        _ => Err(not_supported(view_ns)),
    }
}

/// A find on a view runs as an aggregation, which has no counterpart for some of find's
/// options: MongoDB 8.0's `query_request_helper::asAggregationCommand` refuses them with
/// InvalidPipelineOperator (jstests/core/views/views_find.js). A negative `limit` is refused as
/// find's IDL refuses it (`validator: {gte: 0}`).
fn refuse_find_options(command: &Document) -> Result<()> {
    /// MongoDB's InvalidPipelineOperator (the engine reports it as `Location168`, as
    /// `expression` does for an unknown operator).
    const INVALID_PIPELINE_OPERATOR: i32 = 168;
    let set = |field: &str| match command.get(field) {
        None | Some(Bson::Null) => false,
        Some(Bson::Document(d)) => !d.is_empty(),
        Some(v) => crate::expression::truthy(&Some(v.clone())),
    };
    for field in [
        "min",
        "max",
        "returnKey",
        "showRecordId",
        "tailable",
        "noCursorTimeout",
        "allowPartialResults",
        "readOnce",
        "allowSpeculativeMajorityRead",
        "requestResumeToken",
        "resumeAfter",
    ] {
        if set(field) {
            return Err(Error::location(
                INVALID_PIPELINE_OPERATOR,
                format!("Option {field} not supported in aggregation."),
            ));
        }
    }
    if command
        .get_document("sort")
        .is_ok_and(|s| s.contains_key("$natural"))
    {
        return Err(Error::location(
            INVALID_PIPELINE_OPERATOR,
            "Sort option $natural not supported in aggregation.",
        ));
    }
    let limit = command.get("limit").map(crate::value::as_i64_signed);
    if set("singleBatch") && limit != Some(1) {
        return Err(Error::location(
            INVALID_PIPELINE_OPERATOR,
            "Option singleBatch not supported in aggregation.",
        ));
    }
    if let Some(n) = limit.filter(|n| *n < 0) {
        return Err(Error::location(
            51024,
            format!("BSON field 'limit' value must be >= 0, actual value '{n}'"),
        ));
    }
    Ok(())
}

/// The aggregation MongoDB explains for an explained read on a view (its ResolvedView's
/// `asExpandedViewAggregation`): the view's pipeline over its source, then the read's own
/// stages; a count ends in `$count`, a distinct in `$unwind` and `$group` of the key.
/// `None` for a command that does not read.
pub fn explained_aggregate(command: &Document, view: ResolvedView) -> Option<Document> {
    let name = command.keys().next().cloned().unwrap_or_default();
    let mut pipeline = view.pipeline;
    let source = view.source.coll.clone();
    let mut aggregate = doc! {"aggregate": source.clone(), "cursor": {}};
    match name.as_str() {
        "find" => {
            push_find_stages(&mut pipeline, command);
            copy_fields(command, &mut aggregate, &["collation", "hint", "let"]);
        }
        "count" => {
            push_count_stages(&mut pipeline, command);
            copy_fields(command, &mut aggregate, &["collation", "hint"]);
        }
        "distinct" => {
            if let Some(q) = non_empty_doc(command, "query") {
                pipeline.push(Bson::Document(doc! {"$match": q}));
            }
            let key = format!("${}", command.get_str("key").unwrap_or_default());
            pipeline.push(Bson::Document(
                doc! {"$unwind": {"path": key.clone(), "preserveNullAndEmptyArrays": true}},
            ));
            pipeline.push(Bson::Document(
                doc! {"$group": {"_id": Bson::Null, "distinct": {"$addToSet": key}}},
            ));
            copy_fields(command, &mut aggregate, &["collation", "hint"]);
        }
        "aggregate" => {
            if let Ok(own) = command.get_array("pipeline") {
                pipeline.extend(own.iter().cloned());
            }
            for (k, v) in command {
                if k != "aggregate" && k != "pipeline" {
                    aggregate.insert(k.clone(), v.clone());
                }
            }
        }
        _ => return None,
    }
    aggregate.insert("pipeline", pipeline);
    Some(aggregate)
}

/// A view read's reply and its open cursor name the view, as MongoDB's do: the `getMore`s
/// that follow ask for the view's namespace (jstests/aggregation/sources/lookup/
/// lookup_subpipeline.js reads a view through more than one batch).
fn belongs_to_view(engine: &mut Engine, mut reply: Document, view_ns: &Namespace) -> Document {
    if let Ok(cursor) = reply.get_document_mut("cursor") {
        cursor.insert("ns", view_ns.to_string());
        if let Ok(id) = cursor.get_i64("id")
            && id != 0
            && let Some(open) = engine.cursors_mut().get_mut(id)
        {
            open.ns = view_ns.clone();
        }
    }
    reply
}

/// A find's filter, sort, skip, limit and projection as stages after a view's.
fn push_find_stages(pipeline: &mut Vec<Bson>, command: &Document) {
    if let Some(f) = non_empty_doc(command, "filter") {
        pipeline.push(Bson::Document(doc! {"$match": f}));
    }
    if let Some(s) = non_empty_doc(command, "sort") {
        pipeline.push(Bson::Document(doc! {"$sort": s}));
    }
    push_skip_and_limit(pipeline, command);
    if let Some(p) = non_empty_doc(command, "projection") {
        pipeline.push(Bson::Document(doc! {"$project": p}));
    }
}

/// A count's query, skip and limit as stages after a view's, ending in `$count`.
fn push_count_stages(pipeline: &mut Vec<Bson>, command: &Document) {
    if let Some(q) = non_empty_doc(command, "query") {
        pipeline.push(Bson::Document(doc! {"$match": q}));
    }
    push_skip_and_limit(pipeline, command);
    pipeline.push(Bson::Document(doc! {"$count": "count"}));
}

/// A read's `skip` and `limit` as stages (a negative limit counts as its absolute value).
fn push_skip_and_limit(pipeline: &mut Vec<Bson>, command: &Document) {
    if let Some(skip) = command
        .get("skip")
        .filter(|s| crate::value::as_i64_signed(s) > 0)
    {
        pipeline.push(Bson::Document(doc! {"$skip": skip.clone()}));
    }
    if let Some(limit) = command
        .get("limit")
        .filter(|l| crate::value::as_i64_signed(l) != 0)
    {
        let n = crate::value::as_i64_signed(limit).abs();
        pipeline.push(Bson::Document(doc! {"$limit": n}));
    }
}

fn non_empty_doc(command: &Document, field: &str) -> Option<Document> {
    command
        .get_document(field)
        .ok()
        .filter(|d| !d.is_empty())
        .cloned()
}

fn copy_fields(from: &Document, to: &mut Document, fields: &[&str]) {
    for f in fields {
        if let Some(v) = from.get(*f) {
            to.insert(*f, v.clone());
        }
    }
}

/// All the documents an aggregation over `source` produces.
fn aggregate_docs(
    engine: &mut Engine,
    db: &str,
    source: &str,
    pipeline: Vec<Bson>,
    command: &Document,
    ctx: &MatchContext<'_>,
) -> Result<Vec<Document>> {
    let mut aggregate =
        doc! {"aggregate": source, "pipeline": pipeline, "cursor": {"batchSize": i32::MAX}};
    copy_fields(command, &mut aggregate, &["collation", "hint"]);
    let reply = super::aggregate::aggregate(engine, db, &aggregate, ctx)?;
    Ok(reply
        .get_document("cursor")
        .and_then(|c| c.get_array("firstBatch"))
        .map(|batch| {
            batch
                .iter()
                .filter_map(|d| d.as_document().cloned())
                .collect()
        })
        .unwrap_or_default())
}

/// Commands a view answers by resolution.
const READS: &[&str] = &["find", "count", "distinct", "aggregate"];
/// Commands a view refuses.
const WRITES: &[&str] = &[
    "insert",
    "update",
    "delete",
    "findAndModify",
    "findandmodify",
    "createIndexes",
    "dropIndexes",
    "convertToCapped",
    "reIndex",
];

/// Answers `command` when it names a view: a read runs over the view's source, a write fails.
/// `Ok(None)`: not a view (or a command views do not change), dispatch as usual.
pub fn intercept(
    engine: &mut Engine,
    db: &str,
    name: &str,
    command: &Document,
    ctx: &MatchContext<'_>,
) -> Result<Option<Document>> {
    let is_read = READS.contains(&name);
    if !is_read && !WRITES.contains(&name) {
        return Ok(None);
    }
    let Some(Bson::String(coll)) = command.get(name) else {
        return Ok(None);
    };
    let ns = Namespace::new(db, coll.as_str());
    let Some(view) = resolve(engine, &ns)? else {
        return Ok(None);
    };
    if !is_read {
        return Err(not_supported(&ns));
    }
    check_collation(engine, &ns, command)?;
    run_read(engine, db, command, &ns, view, ctx).map(Some)
}

/// A read on a view may name a collation only if it is the view's default (the simple one
/// when the view has none): MongoDB refuses another with OptionNotSupportedOnView, "Cannot
/// override a view's default collation" (views_count.js, views_distinct.js).
pub fn check_collation(engine: &Engine, view_ns: &Namespace, command: &Document) -> Result<()> {
    let Some(requested) = command.get("collation") else {
        return Ok(());
    };
    let name = command.keys().next().cloned().unwrap_or_default();
    let requested = crate::collation::Collation::parse(requested, &format!("{name}.collation"))?;
    let own = match engine
        .catalog()
        .collection(view_ns)
        .and_then(|c| c.options.get_document("collation").ok())
    {
        Some(spec) => crate::collation::Collation::from_document(spec)?,
        None => None,
    };
    if requested != own {
        return Err(Error::new(
            ErrorCode::OptionNotSupportedOnView,
            "Cannot override a view's default collation",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::Engine;
    use bson::{Bson, doc};

    fn engine() -> Engine {
        let mut e = Engine::new();
        e.run_command(
            "t",
            &doc! {"insert": "c", "documents": [{"_id": 1, "k": "a"}, {"_id": 2, "k": "b"}, {"_id": 3, "k": "b"}]},
        );
        let r = e.run_command(
            "t",
            &doc! {"create": "v", "viewOn": "c", "pipeline": [{"$match": {"_id": {"$gt": 1}}}]},
        );
        assert_eq!(r, doc! {"ok": 1.0});
        e
    }

    #[test]
    fn reads_go_through_the_view_pipeline() {
        let mut e = engine();
        assert_eq!(
            e.run_command("t", &doc! {"count": "v"}),
            doc! {"n": 2, "ok": 1.0}
        );
        let r = e.run_command("t", &doc! {"find": "v", "filter": {"_id": 3}});
        let cursor = r.get_document("cursor").unwrap();
        assert_eq!(cursor.get_str("ns").unwrap(), "t.v");
        assert_eq!(
            cursor.get_array("firstBatch").unwrap(),
            &vec![Bson::Document(doc! {"_id": 3, "k": "b"})]
        );
        assert_eq!(
            e.run_command("t", &doc! {"distinct": "v", "key": "k"}),
            doc! {"values": ["b"], "ok": 1.0}
        );
        let r = e.run_command(
            "t",
            &doc! {"aggregate": "v", "pipeline": [{"$group": {"_id": "$k", "n": {"$sum": 1}}}], "cursor": {}},
        );
        assert_eq!(
            r.get_document("cursor")
                .unwrap()
                .get_array("firstBatch")
                .unwrap(),
            &vec![Bson::Document(doc! {"_id": "b", "n": 2})]
        );
    }

    #[test]
    fn a_read_cannot_override_the_view_collation_and_explains_as_its_aggregation() {
        let mut e = engine();
        for cmd in [
            doc! {"count": "v", "collation": {"locale": "en_US"}},
            doc! {"distinct": "v", "key": "k", "collation": {"locale": "en_US"}},
            doc! {"find": "v", "collation": {"locale": "en_US"}},
        ] {
            let r = e.run_command("t", &cmd);
            assert_eq!(r.get_i32("code").unwrap(), 167, "{r}");
            assert_eq!(r.get_str("codeName").unwrap(), "OptionNotSupportedOnView");
        }
        let r = e.run_command("t", &doc! {"count": "v", "collation": {"locale": "simple"}});
        assert_eq!(r.get_i32("n").unwrap(), 2, "{r}");
        // An explained count on a view is the explain of its aggregation over the source.
        let r = e.run_command("t", &doc! {"explain": {"count": "v", "query": {"k": "b"}}});
        let stages = r.get_array("stages").unwrap_or_else(|_| panic!("{r}"));
        let cursor = stages[0]
            .as_document()
            .unwrap()
            .get_document("$cursor")
            .unwrap();
        assert_eq!(
            cursor
                .get_document("queryPlanner")
                .unwrap()
                .get_str("namespace")
                .unwrap(),
            "t.c"
        );
        let r = e.run_command("t", &doc! {"explain": {"find": "v", "filter": {"k": "b"}}});
        assert_eq!(
            r.get_document("queryPlanner")
                .unwrap()
                .get_str("namespace")
                .unwrap(),
            "t.c",
            "{r}"
        );
    }

    fn first_batch(r: &bson::Document) -> Vec<Bson> {
        r.get_document("cursor")
            .and_then(|c| c.get_array("firstBatch"))
            .cloned()
            .unwrap_or_else(|_| panic!("no cursor: {r}"))
    }

    #[test]
    fn lookup_and_union_with_read_a_view_through_its_pipeline() {
        let mut e = engine();
        e.run_command(
            "t",
            &doc! {"insert": "o", "documents": [{"_id": 9, "k": "b"}]},
        );
        let r = e.run_command(
            "t",
            &doc! {"aggregate": "o", "pipeline": [{"$lookup": {"from": "v", "localField": "k", "foreignField": "k", "as": "j"}}], "cursor": {}},
        );
        assert_eq!(
            first_batch(&r),
            vec![Bson::Document(
                doc! {"_id": 9, "k": "b", "j": [{"_id": 2, "k": "b"}, {"_id": 3, "k": "b"}]}
            )]
        );
        let r = e.run_command(
            "t",
            &doc! {"aggregate": "o", "pipeline": [{"$unionWith": {"coll": "v", "pipeline": [{"$project": {"k": 0}}]}}], "cursor": {}},
        );
        assert_eq!(
            first_batch(&r),
            vec![
                Bson::Document(doc! {"_id": 9, "k": "b"}),
                Bson::Document(doc! {"_id": 2}),
                Bson::Document(doc! {"_id": 3}),
            ]
        );
    }

    #[test]
    fn graph_lookup_searches_a_view_through_its_pipeline() {
        let mut e = Engine::new();
        e.run_command(
            "t",
            &doc! {"insert": "emp", "documents": [
                {"_id": 1, "name": "a", "boss": null, "on": true},
                {"_id": 2, "name": "b", "boss": "a", "on": true},
                {"_id": 3, "name": "c", "boss": "b", "on": false},
                {"_id": 4, "name": "d", "boss": "b", "on": true},
            ]},
        );
        e.run_command(
            "t",
            &doc! {"create": "active", "viewOn": "emp", "pipeline": [{"$match": {"on": true}}, {"$project": {"on": 0}}]},
        );
        let r = e.run_command(
            "t",
            &doc! {"aggregate": "emp", "pipeline": [
                {"$match": {"_id": 1}},
                {"$graphLookup": {"from": "active", "startWith": "$name", "connectFromField": "name", "connectToField": "boss", "as": "reports", "depthField": "d"}},
                {"$project": {"reports": 1}},
            ], "cursor": {}},
        );
        assert_eq!(
            first_batch(&r),
            vec![Bson::Document(doc! {"_id": 1, "reports": [
                {"_id": 2, "name": "b", "boss": "a", "d": 0_i64},
                {"_id": 4, "name": "d", "boss": "b", "d": 1_i64},
            ]})]
        );
    }

    /// A view's `$lookup`s count toward the sub-pipeline depth of the stage that reads the view.
    #[test]
    fn a_view_read_by_lookup_adds_its_nesting_to_the_depth_limit() {
        let mut e = engine();
        let nested = |from: &str, levels: usize| {
            let mut p = vec![Bson::Document(
                doc! {"$lookup": {"from": from, "as": "same", "pipeline": []}},
            )];
            for _ in 1..levels {
                p = vec![Bson::Document(
                    doc! {"$lookup": {"from": from, "as": "same", "pipeline": p}},
                )];
            }
            p
        };
        e.run_command("t", &doc! {"insert": "one", "documents": [{"_id": 1}]});
        let r = e.run_command(
            "t",
            &doc! {"create": "v10", "viewOn": "one", "pipeline": nested("one", 10)},
        );
        assert_eq!(r, doc! {"ok": 1.0});
        let r = e.run_command(
            "t",
            &doc! {"aggregate": "one", "pipeline": nested("v10", 10), "cursor": {}},
        );
        assert_eq!(first_batch(&r).len(), 1);
        let r = e.run_command(
            "t",
            &doc! {"aggregate": "one", "pipeline": nested("v10", 11), "cursor": {}},
        );
        assert_eq!(r.get_i32("code").ok(), Some(232), "{r}");
        // Also when no document reaches the inner stages (MongoDB checks while parsing).
        let r = e.run_command(
            "t",
            &doc! {"aggregate": "none", "pipeline": nested("v10", 11), "cursor": {}},
        );
        assert_eq!(r.get_i32("code").ok(), Some(232), "{r}");
        let r = e.run_command(
            "t",
            &doc! {"aggregate": "none", "pipeline": [{"$unionWith": {"coll": "none", "pipeline": nested("v10", 11)}}], "cursor": {}},
        );
        assert_eq!(r.get_i32("code").ok(), Some(232), "{r}");
        let r = e.run_command(
            "t",
            &doc! {"aggregate": "none", "pipeline": nested("v10", 10), "cursor": {}},
        );
        assert_eq!(r.get_f64("ok").ok(), Some(1.0), "{r}");
    }

    #[test]
    fn a_view_definition_is_checked_as_an_aggregation_without_writes() {
        let mut e = engine();
        let code = |e: &mut Engine, pipeline: Bson| {
            e.run_command(
                "t",
                &doc! {"create": "w", "viewOn": "c", "pipeline": pipeline},
            )
            .get_i32("code")
            .ok()
        };
        assert_eq!(
            code(
                &mut e,
                Bson::Array(vec![Bson::Document(doc! {"$out": "x"})])
            ),
            Some(167)
        );
        let lookup_out = doc! {"$lookup": {"from": "o", "pipeline": [{"$out": "x"}], "as": "r"}};
        assert_eq!(
            code(&mut e, Bson::Array(vec![Bson::Document(lookup_out)])),
            Some(51047)
        );
        let facet_out = doc! {"$facet": {"f": [{"$out": "x"}]}};
        assert_eq!(
            code(&mut e, Bson::Array(vec![Bson::Document(facet_out)])),
            Some(40600)
        );
        let no_as = doc! {"$lookup": {"from": "a", "localField": "b", "foreignField": "c"}};
        assert_eq!(
            code(&mut e, Bson::Array(vec![Bson::Document(no_as)])),
            Some(9)
        );
        // v is defined on c: c on v would be a cycle.
        let r = e.run_command("t", &doc! {"create": "c2", "viewOn": "v"});
        assert_eq!(r, doc! {"ok": 1.0});
        let r = e.run_command("t", &doc! {"collMod": "v", "viewOn": "c2", "pipeline": []});
        assert_eq!(r.get_i32("code").ok(), Some(5));
    }

    #[test]
    fn coll_mod_redefines_a_view() {
        let mut e = engine();
        let r = e.run_command(
            "t",
            &doc! {"collMod": "v", "pipeline": [{"$match": {"k": "a"}}]},
        );
        assert_eq!(r, doc! {"ok": 1.0});
        let r = e.run_command("t", &doc! {"find": "v"});
        assert_eq!(
            first_batch(&r),
            vec![Bson::Document(doc! {"_id": 1, "k": "a"})]
        );
        let r = e.run_command("t", &doc! {"collMod": "v", "viewOn": "none"});
        assert_eq!(r, doc! {"ok": 1.0});
        assert!(first_batch(&e.run_command("t", &doc! {"find": "v"})).is_empty());
        // coll_mod.idl: `pipeline` is array<object>.
        let r = e.run_command("t", &doc! {"collMod": "v", "viewOn": "c", "pipeline": {}});
        assert_eq!(r.get_i32("code").ok(), Some(14));
        let r = e.run_command("t", &doc! {"collMod": "v", "validator": {}});
        assert_eq!(r.get_i32("code").ok(), Some(72));
        let r = e.run_command("t", &doc! {"collMod": "c", "viewOn": "v"});
        assert_eq!(r.get_i32("code").ok(), Some(72));
    }

    #[test]
    fn a_find_on_a_view_refuses_what_an_aggregation_cannot_do() {
        let mut e = engine();
        for bad in [
            doc! {"find": "v", "sort": {"$natural": 1}},
            doc! {"find": "v", "readOnce": true},
            doc! {"find": "v", "singleBatch": true},
            doc! {"find": "v", "returnKey": true},
        ] {
            assert_eq!(
                e.run_command("t", &bad).get_i32("code").ok(),
                Some(168),
                "{bad}"
            );
        }
        let r = e.run_command("t", &doc! {"find": "v", "limit": -1});
        assert_eq!(r.get_i32("code").ok(), Some(51024));
        let r = e.run_command("t", &doc! {"find": "v", "singleBatch": true, "limit": 1});
        assert_eq!(first_batch(&r).len(), 1);
    }

    #[test]
    fn writes_to_a_view_are_refused() {
        let mut e = engine();
        let r = e.run_command("t", &doc! {"insert": "v", "documents": [{"_id": 9}]});
        assert_eq!(r.get_i32("code").unwrap(), 166);
        assert_eq!(
            r.get_str("errmsg").unwrap(),
            "Namespace t.v is a view, not a collection"
        );
    }

    #[test]
    fn list_collections_shows_the_view() {
        let mut e = engine();
        let r = e.run_command("t", &doc! {"listCollections": 1, "filter": {"name": "v"}});
        let batch = r
            .get_document("cursor")
            .unwrap()
            .get_array("firstBatch")
            .unwrap();
        assert_eq!(
            batch[0].as_document().unwrap(),
            &doc! {
                "name": "v", "type": "view",
                "options": {"viewOn": "c", "pipeline": [{"$match": {"_id": {"$gt": 1}}}]},
                "info": {"readOnly": true},
            }
        );
    }
}
