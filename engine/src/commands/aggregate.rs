//! `aggregate`: runs a pipeline over a collection (`aggregate: "<coll>"`) or over the documents
//! of a leading `$documents` (`aggregate: 1`), and returns a cursor like `find`.

use bson::{Bson, Document};

use super::{bool_option, document_option, find::first_batch_reply, target_namespace};
use crate::Engine;
use crate::catalog::Namespace;
use crate::error::{Error, ErrorCode, Result};
use crate::expression::Scope;
use crate::matcher::MatchContext;
use crate::pipeline::{Pipeline, RunContext};
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

pub fn aggregate(
    engine: &mut Engine,
    db: &str,
    command: &Document,
    ctx: &MatchContext<'_>,
) -> Result<Document> {
    let (ns, collectionless) = aggregate_namespace(db, command)?;
    crate::write::check_known_fields(command, "aggregate", OWN_FIELDS)?;
    let Some(pipeline) = command.get("pipeline") else {
        return Err(Error::location(
            40414,
            "BSON field 'aggregate.pipeline' is missing but a required field",
        ));
    };
    let explain = bool_option(command, "explain", false)?;
    bool_option(command, "allowDiskUse", false)?;
    bool_option(command, "bypassDocumentValidation", false)?;
    crate::write::check_collation(command.get("collation"), "aggregate.collation")?;
    check_hint(command.get("hint"))?;
    let batch_size = cursor_batch_size(command, explain)?;
    let eval = engine.eval_context();
    let scope = match document_option(command, "aggregate", "let")? {
        Some(vars) => Scope::from_let_in(vars, &eval)?,
        None => Scope::default(),
    };
    let pipeline = Pipeline::parse(pipeline, &scope, collectionless)?;
    if explain {
        return Err(Error::new(
            ErrorCode::NotImplemented,
            "explain of an aggregate is not supported by Sprout yet",
        ));
    }
    let input = if pipeline.starts_with_source() {
        Vec::new()
    } else {
        engine
            .catalog()
            .collection(&ns)
            .map(|c| c.iter().map(|(_, d)| d.clone()).collect())
            .unwrap_or_default()
    };
    let cx = RunContext {
        catalog: engine.catalog(),
        db,
        match_ctx: ctx,
        eval: &eval,
    };
    let docs = pipeline.run(input, &cx).map_err(|mut e| {
        e.message = format!(
            "PlanExecutor error during aggregation :: caused by :: {}",
            e.message
        );
        e
    })?;
    Ok(first_batch_reply(engine, ns, docs, batch_size, false))
}

/// The namespace the command reads: a collection, or `<db>.$cmd.aggregate` for `aggregate: 1`.
fn aggregate_namespace(db: &str, command: &Document) -> Result<(Namespace, bool)> {
    match command.get("aggregate") {
        Some(Bson::String(_)) => Ok((target_namespace(db, command)?, false)),
        Some(v @ (Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_)))
            if crate::query::as_i64(v) == Some(1) =>
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
