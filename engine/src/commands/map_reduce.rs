//! `mapReduce` (deprecated, still in MongoDB 8.0). Since 4.4 MongoDB runs it on the aggregation
//! framework (map_reduce_agg.cpp, mr_common.cpp `translateFromMR`): `$match` (query), `$sort`,
//! `$limit`, a projection calling the map function (`$_internalJsEmit`), `$unwind`, a `$group`
//! by the emitted key whose accumulator calls the reduce function (`$_internalJsReduce`), a
//! projection calling finalize, then `$out` (replace) or `$merge` (merge, reduce). The reply
//! is `{results: [...]}` inline or `{result: <coll>}` / `{result: {db, collection}}`, without
//! the `counts` and `timing` older servers sent (SERVER-48297).
//!
//! The engine runs no JavaScript: the map, reduce and finalize functions run through a
//! [`MapReduceEvaluator`] the caller supplies (the shell's, with Boa), as `$where` runs through
//! a [`crate::matcher::WhereEvaluator`]. Without one, a mapReduce that has documents to map fails
//! as a server without a JavaScript engine answers (31246).
//!
//! Here the query, sort and limit run as an aggregate (through the planner), the map, grouping,
//! reduce and finalize run in order, and the output goes through the `$out`/`$merge` stage
//! MongoDB's translation ends with. The `reduce` output mode's `$merge` pipeline (reduce the
//! stored value with the new one, then finalize) is applied before a `$merge` that replaces.

use std::collections::BTreeMap;

use bson::{Bson, Document, doc};

use super::{aggregate, option};
use crate::Engine;
use crate::catalog::Namespace;
use crate::error::{Error, ErrorCode, Result};
use crate::javascript::MapReduceEvaluator;
use crate::matcher::MatchContext;
use crate::value::OrderedValue;
use crate::value::display::type_name;

/// The fields the mapReduce command defines (map_reduce.idl), besides the generic ones.
const OWN_FIELDS: &[&str] = &[
    "map",
    "reduce",
    "out",
    "query",
    "sort",
    "collation",
    "limit",
    "finalize",
    "scope",
    "verbose",
    "bypassDocumentValidation",
    "jsMode",
];

/// BSON's largest user document (`BSONObjMaxUserSize`): an inline reply must fit in it.
const MAX_REPLY_BYTES: usize = 16 * 1024 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OutputType {
    Replace,
    Merge,
    Reduce,
    Inline,
}

/// The `out` option (MongoDB's `MapReduceOutOptions`).
#[derive(Debug, Clone, PartialEq)]
struct OutOptions {
    db: Option<String>,
    collection: String,
    kind: OutputType,
    sharded: bool,
}

/// MongoDB's `MapReduceOutOptions::parseFromBSON`.
fn parse_out(out: &Bson) -> Result<OutOptions> {
    let obj = match out {
        Bson::String(coll) => {
            return Ok(OutOptions {
                db: None,
                collection: coll.clone(),
                kind: OutputType::Replace,
                sharded: false,
            });
        }
        Bson::Document(obj) => obj,
        _ => {
            return Err(Error::bad_value(
                "'out' must be either a string or an object",
            ));
        }
    };
    if let Some(inline) = obj.get("inline") {
        if obj.len() != 1 {
            return Err(Error::new(
                ErrorCode::InvalidOptions,
                "'inline' must be specified alone",
            ));
        }
        if crate::value::numeric::as_f64(inline) != Some(1.0) {
            return Err(Error::bad_value("'inline' takes only numeric '1'"));
        }
        return Ok(OutOptions {
            db: None,
            collection: String::new(),
            kind: OutputType::Inline,
            sharded: false,
        });
    }
    let mut allowed = 4;
    let sharded = match obj.get("sharded") {
        Some(Bson::Boolean(true)) => true,
        Some(Bson::Boolean(false)) => {
            return Err(Error::bad_value("sharded field value must be true"));
        }
        Some(_) => return Err(Error::bad_value("sharded field value must be boolean")),
        None => {
            allowed -= 1;
            false
        }
    };
    let (collection, kind) = [
        ("replace", OutputType::Replace),
        ("merge", OutputType::Merge),
        ("reduce", OutputType::Reduce),
    ]
    .iter()
    .find_map(|(name, kind)| obj.get(*name).map(|v| (*name, v, *kind)))
    .map(|(name, value, kind)| match value {
        Bson::String(coll) => Ok((coll.clone(), kind)),
        _ => Err(Error::bad_value(format!(
            "'{name}' supports only string consisting of output collection name"
        ))),
    })
    .unwrap_or_else(|| {
        Err(Error::bad_value(
            "'out' requires 'replace', 'merge' or 'reduce'",
        ))
    })?;
    let db = match obj.get("db") {
        Some(Bson::String(db)) => {
            if matches!(db.as_str(), "admin" | "local" | "config") {
                return Err(Error::new(
                    ErrorCode::CommandNotSupported,
                    "cannot target internal database as output",
                ));
            }
            Some(db.clone())
        }
        Some(_) => return Err(Error::bad_value("db field value must be string")),
        None => {
            allowed -= 1;
            None
        }
    };
    match obj.get("nonAtomic") {
        Some(Bson::Boolean(true)) => {}
        Some(Bson::Boolean(false)) => {
            return Err(Error::bad_value("nonAtomic field value must be true"));
        }
        Some(_) => return Err(Error::bad_value("nonAtomic field value must be boolean")),
        None => allowed -= 1,
    }
    if obj.len() != allowed {
        return Err(Error::bad_value(
            "'out' supports only output type with collection name, optional 'sharded' and optional 'db'",
        ));
    }
    Ok(OutOptions {
        db,
        collection,
        kind,
        sharded,
    })
}

/// A JavaScript function option (`MapReduceJavascriptCode`): a string or code; with
/// `nullable`, null and undefined mean none (`MapReduceJavascriptCodeOrNull`, finalize).
fn code_option(command: &Document, field: &str, nullable: bool) -> Result<Option<String>> {
    match option(command, field) {
        None => Ok(None),
        Some(Bson::Null | Bson::Undefined) if nullable => Ok(None),
        Some(Bson::String(s)) => Ok(Some(s.clone())),
        Some(Bson::JavaScriptCode(s)) => Ok(Some(s.clone())),
        Some(Bson::JavaScriptCodeWithScope(c)) => Ok(Some(c.code.clone())),
        Some(_) => Err(Error::bad_value(format!(
            "'{field}' must be of string or code type"
        ))),
    }
}

fn missing(field: &str) -> Error {
    Error::location(
        40414,
        format!("BSON field 'mapReduce.{field}' is missing but a required field"),
    )
}

/// An IDL `bool` option: booleans only.
fn strict_bool(command: &Document, field: &str) -> Result<bool> {
    match option(command, field) {
        None => Ok(false),
        Some(Bson::Boolean(b)) => Ok(*b),
        Some(other) => Err(Error::type_mismatch(format!(
            "BSON field 'mapReduce.{field}' is the wrong type '{}', expected type 'bool'",
            type_name(other)
        ))),
    }
}

/// An IDL `object` option that may be null.
fn object_option<'a>(command: &'a Document, field: &str) -> Result<Option<&'a Document>> {
    super::document_option(command, "mapReduce", field)
}

/// The mapReduce command, parsed.
struct Parsed {
    ns: Namespace,
    map: String,
    reduce: String,
    finalize: Option<String>,
    out: OutOptions,
    query: Option<Document>,
    sort: Option<Document>,
    limit: Option<i64>,
}

fn parse(db: &str, command: &Document) -> Result<Parsed> {
    let ns = super::target_namespace(db, command)?;
    crate::write::check_known_fields(command, "mapReduce", OWN_FIELDS)?;
    let map = code_option(command, "map", false)?;
    let reduce = code_option(command, "reduce", false)?;
    let finalize = code_option(command, "finalize", true)?;
    let query = object_option(command, "query")?.cloned();
    let sort = object_option(command, "sort")?.cloned();
    object_option(command, "collation")?;
    let limit = match option(command, "limit") {
        None => None,
        Some(v @ (Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_) | Bson::Decimal128(_))) => {
            Some(crate::value::as_i64_signed(v))
        }
        Some(other) => {
            return Err(Error::type_mismatch(format!(
                "BSON field 'mapReduce.limit' is the wrong type '{}', expected types '[long, int, decimal, double]'",
                type_name(other)
            )));
        }
    };
    match option(command, "scope") {
        None | Some(Bson::Null | Bson::Document(_)) => {}
        Some(_) => return Err(Error::bad_value("'scope' must be of object type")),
    }
    for field in ["verbose", "bypassDocumentValidation", "jsMode"] {
        strict_bool(command, field)?;
    }
    let map = map.ok_or_else(|| missing("map"))?;
    let reduce = reduce.ok_or_else(|| missing("reduce"))?;
    let out = parse_out(option(command, "out").ok_or_else(|| missing("out"))?)?;
    Ok(Parsed {
        ns,
        map,
        reduce,
        finalize,
        out,
        query,
        sort,
        limit,
    })
}

/// MongoDB's `interpretTranslationError`: the errors of translating the command into a
/// pipeline, in mapReduce's words; others carry "MapReduce internal error".
fn translation_error(e: Error, out_ns: &Namespace) -> Error {
    let message = match e.code() {
        73 => format!("Invalid output namespace {out_ns} for MapReduce"),
        15976 => "The mapReduce sort option must have at least one sort key".to_string(),
        15958 => "The limit specified to mapReduce must be positive".to_string(),
        17385 | 31319 => format!(
            "Can't output mapReduce results to special collection {}",
            out_ns.coll
        ),
        31320 | 31321 => format!(
            "Can't output mapReduce results to internal DB {}",
            out_ns.db
        ),
        _ => return internal_error(e),
    };
    Error { message, ..e }
}

/// A failure while running, with the context MongoDB's runAggregationMapReduce adds.
fn internal_error(mut e: Error) -> Error {
    let message = e
        .message
        .strip_prefix("PlanExecutor error during aggregation :: caused by :: ")
        .unwrap_or(&e.message);
    e.message = format!("MapReduce internal error :: caused by :: {message}");
    e
}

/// The error of a server without a JavaScript engine (ExpressionInternalJsEmit::evaluate).
fn no_javascript() -> Error {
    Error::location(
        31246,
        "Cannot run server-side javascript without the javascript engine enabled",
    )
}

pub fn map_reduce(
    engine: &mut Engine,
    db: &str,
    command: &Document,
    ctx: &MatchContext<'_>,
) -> Result<Document> {
    let p = parse(db, command)?;
    let out_ns = Namespace::new(p.out.db.as_deref().unwrap_or(db), p.out.collection.as_str());
    if super::view::resolve(engine, &p.ns)?.is_some() {
        return Err(Error::new(
            ErrorCode::CommandNotSupportedOnView,
            "mapReduce on a view is not supported",
        ));
    }
    // The translation: the leading stages, then the output stage (mr_common.cpp).
    if p.sort.as_ref().is_some_and(Document::is_empty) {
        return Err(translation_error(
            Error::location(15976, "$sort stage must have at least one sort key"),
            &out_ns,
        ));
    }
    if p.limit.is_some_and(|l| l <= 0) {
        return Err(translation_error(
            Error::location(15958, "the limit must be positive"),
            &out_ns,
        ));
    }
    let writer = match p.out.kind {
        OutputType::Inline => None,
        kind => {
            if p.out.sharded {
                return Err(Error::new(
                    ErrorCode::InvalidOptions,
                    if kind == OutputType::Replace {
                        "Combination of 'out.sharded' and 'replace' output mode is not supported. Cannot replace an existing sharded collection or create a new sharded collection. Please create the sharded collection first and use a different output mode or consider using an unsharded collection."
                    } else {
                        "Cannot use mapReduce to create a new sharded collection. Please create and shard the target collection before proceeding."
                    },
                ));
            }
            let target = doc! {"db": &out_ns.db, "coll": &out_ns.coll};
            let stage = if kind == OutputType::Replace {
                doc! {"$out": target}
            } else {
                doc! {"$merge": {"into": target, "on": "_id", "whenMatched": "replace", "whenNotMatched": "insert"}}
            };
            Some(
                aggregate::check_writer(engine, db, &stage)
                    .map_err(|e| translation_error(e, &out_ns))?,
            )
        }
    };
    let mut pipeline = Vec::new();
    if let Some(q) = &p.query {
        pipeline.push(Bson::Document(doc! {"$match": q.clone()}));
    }
    if let Some(s) = &p.sort {
        pipeline.push(Bson::Document(doc! {"$sort": s.clone()}));
    }
    if let Some(l) = p.limit {
        pipeline.push(Bson::Document(doc! {"$limit": l}));
    }
    let mut read = doc! {"aggregate": &p.ns.coll, "pipeline": pipeline, "cursor": {}};
    if let Some(c) = option(command, "collation") {
        read.insert("collation", c.clone());
    }
    let input = aggregate::run_all(engine, db, &read, ctx).map_err(internal_error)?;
    let results = map_and_reduce(&p, input, ctx.map_reduce).map_err(internal_error)?;
    let Some(writer) = writer else {
        let size: usize = results
            .iter()
            .map(crate::value::bson_size::document_size)
            .sum();
        if size > MAX_REPLY_BYTES {
            return Err(Error::location(
                10334,
                format!(
                    "BSONObj size: {size} (0x{size:X}) is invalid. Size must be between 0 and {MAX_REPLY_BYTES}(16MB)"
                ),
            ));
        }
        return Ok(doc! {"results": results, "ok": 1.0});
    };
    let results = if p.out.kind == OutputType::Reduce {
        reduce_into(engine, &out_ns, &p, results, ctx.map_reduce).map_err(internal_error)?
    } else {
        results
    };
    aggregate::write_through(engine, db, &writer, results, ctx).map_err(internal_error)?;
    let result = match &p.out.db {
        Some(out_db) => Bson::Document(doc! {"db": out_db, "collection": &out_ns.coll}),
        None => Bson::String(out_ns.coll.clone()),
    };
    Ok(doc! {"result": result, "ok": 1.0})
}

/// Map, group by key (in the command's collation, keys in order), reduce, finalize: the
/// `{_id: key, value}` documents.
fn map_and_reduce(
    p: &Parsed,
    input: Vec<Document>,
    js: Option<&dyn MapReduceEvaluator>,
) -> Result<Vec<Document>> {
    if input.is_empty() {
        return Ok(Vec::new());
    }
    let js = js.ok_or_else(no_javascript)?;
    let mut groups: BTreeMap<OrderedValue, Vec<Bson>> = BTreeMap::new();
    for doc in &input {
        for (key, value) in js.map(&p.map, doc)? {
            groups.entry(OrderedValue(key)).or_default().push(value);
        }
    }
    let mut results = Vec::with_capacity(groups.len());
    for (OrderedValue(key), values) in groups {
        // MongoDB 4.4+ calls reduce even for a key with one value (SERVER-68766 made the old
        // single-value shortcut an option, off by default).
        let value = reduce(js, &p.reduce, &key, values)?;
        let value = finalize(js, p, &key, value)?;
        results.push(doc! {"_id": key, "value": value});
    }
    Ok(results)
}

/// BSON's largest user document (`BSONObjMaxUserSize`), the most one reduce call is given.
const MAX_REDUCE_BYTES: usize = 16 * 1024 * 1024;

/// MongoDB's `AccumulatorInternalJsReduce::getValue`: the values, last first, go to reduce in
/// batches whose key and values fit in 16 MiB; a batch's result joins the values left, until
/// one call took them all. A value that cannot join another within the limit fails (31392).
fn reduce(
    js: &dyn MapReduceEvaluator,
    code: &str,
    key: &Bson,
    mut values: Vec<Bson>,
) -> Result<Bson> {
    let key_bytes = crate::value::bson_size::value_size(key);
    loop {
        let mut batch = Vec::new();
        let mut batch_bytes = 5;
        let mut left = values.len();
        while left > 0 {
            let value = &values[left - 1];
            let bytes = crate::value::bson_size::value_size(value) + 8;
            if batch_bytes + key_bytes + bytes > MAX_REDUCE_BYTES {
                if batch.len() <= 1 {
                    return Err(Error::location(31392, "Value too large to reduce"));
                }
                break;
            }
            batch.push(value.clone());
            batch_bytes += bytes;
            left -= 1;
        }
        let result = js.call(code, &[key.clone(), Bson::Array(batch)])?;
        if left == 0 {
            return Ok(result);
        }
        values.truncate(left);
        values.push(result);
    }
}

fn finalize(js: &dyn MapReduceEvaluator, p: &Parsed, key: &Bson, value: Bson) -> Result<Bson> {
    match &p.finalize {
        Some(code) => js.call(code, &[key.clone(), value]),
        None => Ok(value),
    }
}

/// The `reduce` output mode's `$merge` pipeline: a result whose `_id` the target already has
/// becomes `reduce(_id, [stored value, new value])`, finalized (translateOutReduce).
fn reduce_into(
    engine: &Engine,
    out_ns: &Namespace,
    p: &Parsed,
    results: Vec<Document>,
    js: Option<&dyn MapReduceEvaluator>,
) -> Result<Vec<Document>> {
    let Some(coll) = engine.catalog().collection(out_ns) else {
        return Ok(results);
    };
    let mut wanted: BTreeMap<OrderedValue, Option<Bson>> = results
        .iter()
        .filter_map(|d| d.get("_id"))
        .map(|id| (OrderedValue(id.clone()), None))
        .collect();
    for (_, stored) in coll.iter() {
        if let Some(id) = stored.get("_id")
            && let Some(slot) = wanted.get_mut(&OrderedValue(id.clone()))
        {
            *slot = Some(stored.get("value").cloned().unwrap_or(Bson::Null));
        }
    }
    let mut merged = Vec::with_capacity(results.len());
    for mut doc in results {
        let id = doc.get("_id").cloned().unwrap_or(Bson::Null);
        if let Some(Some(stored)) = wanted.get(&OrderedValue(id.clone())) {
            let js = js.ok_or_else(no_javascript)?;
            let new = doc.get("value").cloned().unwrap_or(Bson::Null);
            let value = js.call(
                &p.reduce,
                &[id.clone(), Bson::Array(vec![stored.clone(), new])],
            )?;
            doc.insert("value", finalize(js, p, &id, value)?);
        }
        merged.push(doc);
    }
    Ok(merged)
}

#[cfg(test)]
mod tests;
