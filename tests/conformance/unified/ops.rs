//! CRUD operations of the unified format, translated to the commands a driver sends and the
//! replies translated back to the driver's result shapes (CRUD specification).

use bson::{Bson, Document, doc};

use crate::conformance::report::catch_panic;
use engine::Engine;

/// Why an operation did not produce a result.
#[derive(Debug, Clone)]
pub enum OpError {
    /// Raised by the driver before anything is sent (argument validation).
    Client(String),
    /// Returned by the server: a failed command, a write error or a write concern error.
    Server(Box<ServerError>),
    /// The engine panicked: always a failure.
    Panic(String),
}

/// A server-side error as a driver exposes it.
#[derive(Debug, Clone)]
pub struct ServerError {
    pub code: i32,
    pub code_name: String,
    pub message: String,
    /// The reply (or the write error document) for `errorResponse` matching.
    pub response: Document,
    /// What a bulk write achieved before the error, for `expectError.expectResult`.
    pub partial: Option<Bson>,
}

impl OpError {
    pub fn describe(&self) -> String {
        match self {
            OpError::Client(m) => format!("client error: {m}"),
            OpError::Server(e) => {
                format!("server error {} ({}): {}", e.code, e.code_name, e.message)
            }
            OpError::Panic(m) => format!("engine {m}"),
        }
    }
}

/// The operations this runner translates.
pub const SUPPORTED: &[&str] = &[
    "insertOne",
    "insertMany",
    "deleteOne",
    "deleteMany",
    "updateOne",
    "updateMany",
    "replaceOne",
    "find",
    "findOne",
    "aggregate",
    "countDocuments",
    "estimatedDocumentCount",
    "count",
    "distinct",
    "findOneAndUpdate",
    "findOneAndReplace",
    "findOneAndDelete",
    "bulkWrite",
    "createIndex",
    "dropCollection",
    "createCollection",
    "modifyCollection",
];

/// Where an operation runs: a database, optionally a collection in it.
pub struct Target<'a> {
    pub db: &'a str,
    pub collection: Option<&'a str>,
    /// The collection entity's `readConcern` option, sent with the commands that read.
    pub read_concern: Option<&'a Document>,
}

/// The runner's one client's implicit session, which a driver names in every command's `lsid`.
fn implicit_session() -> Document {
    doc! {"id": bson::Binary { subtype: bson::spec::BinarySubtype::Uuid, bytes: vec![0x5a; 16] }}
}

/// Runs one command, turning an error reply into [`OpError::Server`].
pub fn command(engine: &mut Engine, db: &str, mut cmd: Document) -> Result<Document, OpError> {
    if !cmd.contains_key("lsid") {
        cmd.insert("lsid", implicit_session());
    }
    let reply = catch_panic(|| engine.run_command(db, &cmd)).map_err(OpError::Panic)?;
    if engine::reply_ok(&reply) {
        Ok(reply)
    } else {
        Err(server_error(&reply, None))
    }
}

fn server_error(reply: &Document, partial: Option<Bson>) -> OpError {
    let code = reply
        .get("code")
        .and_then(crate::conformance::ejson::as_i64)
        .unwrap_or(0) as i32;
    OpError::Server(Box::new(ServerError {
        code,
        code_name: reply.get_str("codeName").unwrap_or("").to_string(),
        message: reply.get_str("errmsg").unwrap_or("(no errmsg)").to_string(),
        response: reply.clone(),
        partial,
    }))
}

/// The first write error or write concern error of a write reply, as a server error.
fn write_error(reply: &Document, partial: Option<Bson>) -> Option<OpError> {
    if let Ok(errors) = reply.get_array("writeErrors")
        && let Some(Bson::Document(first)) = errors.first()
    {
        let mut response = first.clone();
        if !response.contains_key("codeName")
            && let Some(name) = reply.get_str("codeName").ok()
        {
            response.insert("codeName", name);
        }
        return Some(server_error(&response, partial));
    }
    if let Ok(wce) = reply.get_document("writeConcernError") {
        return Some(server_error(wce, partial));
    }
    None
}

fn get<'a>(args: &'a Document, key: &str) -> Option<&'a Bson> {
    args.get(key)
}

fn doc_arg(args: &Document, key: &str) -> Result<Document, OpError> {
    match args.get(key) {
        Some(Bson::Document(d)) => Ok(d.clone()),
        Some(other) => Err(OpError::Client(format!(
            "argument {key} must be a document, got {other}"
        ))),
        None => Err(OpError::Client(format!("missing argument {key}"))),
    }
}

/// Copies the named options from the operation's arguments to the command, when present.
fn copy_options(cmd: &mut Document, args: &Document, names: &[&str]) {
    for name in names {
        if let Some(v) = args.get(*name) {
            cmd.insert(*name, v.clone());
        }
    }
}

fn collection_name<'a>(target: &'a Target<'a>, op: &str) -> Result<&'a str, OpError> {
    target
        .collection
        .ok_or_else(|| OpError::Client(format!("{op} needs a collection entity")))
}

fn count_of(reply: &Document, key: &str) -> i64 {
    reply
        .get(key)
        .and_then(crate::conformance::ejson::as_i64)
        .unwrap_or(0)
}

/// Runs operation `name` with `args` and returns its driver-shaped result (`None` for void).
pub fn run(
    engine: &mut Engine,
    target: &Target<'_>,
    name: &str,
    args: &Document,
) -> Result<Option<Bson>, OpError> {
    let db = target.db;
    match name {
        "insertOne" => {
            let coll = collection_name(target, name)?;
            let mut document = doc_arg(args, "document")?;
            let id = ensure_id(engine, &mut document);
            let mut cmd = doc! {"insert": coll, "documents": [document], "ordered": true};
            copy_options(&mut cmd, args, &["bypassDocumentValidation", "comment"]);
            let reply = command(engine, db, cmd)?;
            if let Some(err) = write_error(&reply, None) {
                return Err(err);
            }
            Ok(Some(Bson::Document(doc! {"insertedId": id})))
        }
        "insertMany" => {
            let coll = collection_name(target, name)?;
            let docs = match get(args, "documents") {
                Some(Bson::Array(a)) => a.clone(),
                _ => return Err(OpError::Client("documents must be an array".into())),
            };
            if docs.is_empty() {
                return Err(OpError::Client("documents must not be empty".into()));
            }
            let requests: Vec<Bson> = docs
                .into_iter()
                .map(|d| Bson::Document(doc! {"insertOne": {"document": d}}))
                .collect();
            let mut bulk_args = args.clone();
            bulk_args.insert("requests", requests);
            let result = bulk_write(engine, db, coll, &bulk_args)?;
            let ids = result.get("insertedIds").cloned().unwrap_or(Bson::Null);
            Ok(Some(Bson::Document(doc! {"insertedIds": ids})))
        }
        "deleteOne" | "deleteMany" => {
            let coll = collection_name(target, name)?;
            let mut statement = doc! {
                "q": doc_arg(args, "filter")?,
                "limit": if name == "deleteOne" { 1 } else { 0 },
            };
            copy_options(&mut statement, args, &["hint", "collation"]);
            let mut cmd = doc! {"delete": coll, "deletes": [statement], "ordered": true};
            copy_options(&mut cmd, args, &["let", "comment"]);
            let reply = command(engine, db, cmd)?;
            if let Some(err) = write_error(&reply, None) {
                return Err(err);
            }
            Ok(Some(Bson::Document(
                doc! {"deletedCount": count_of(&reply, "n")},
            )))
        }
        "updateOne" | "updateMany" | "replaceOne" => {
            let coll = collection_name(target, name)?;
            let statement = update_statement(name, args)?;
            let mut cmd = doc! {"update": coll, "updates": [statement], "ordered": true};
            copy_options(
                &mut cmd,
                args,
                &["let", "comment", "bypassDocumentValidation"],
            );
            let reply = command(engine, db, cmd)?;
            if let Some(err) = write_error(&reply, None) {
                return Err(err);
            }
            let upserted = reply.get_array("upserted").map(|a| a.len()).unwrap_or(0) as i64;
            let mut result = doc! {
                "matchedCount": count_of(&reply, "n") - upserted,
                "modifiedCount": count_of(&reply, "nModified"),
                "upsertedCount": upserted,
            };
            if let Ok(list) = reply.get_array("upserted")
                && let Some(Bson::Document(first)) = list.first()
                && let Some(id) = first.get("_id")
            {
                result.insert("upsertedId", id.clone());
            }
            Ok(Some(Bson::Document(result)))
        }
        "find" | "findOne" => {
            let coll = collection_name(target, name)?;
            let mut cmd = doc! {"find": coll};
            if let Some(filter) = get(args, "filter") {
                cmd.insert("filter", filter.clone());
            }
            copy_options(
                &mut cmd,
                args,
                &[
                    "sort",
                    "projection",
                    "skip",
                    "hint",
                    "collation",
                    "let",
                    "comment",
                    "allowDiskUse",
                    "min",
                    "max",
                    "returnKey",
                    "showRecordId",
                    "maxTimeMS",
                ],
            );
            if name == "findOne" {
                cmd.insert("limit", 1);
                cmd.insert("singleBatch", true);
            } else {
                copy_options(&mut cmd, args, &["limit", "batchSize"]);
            }
            let docs = cursor_all(engine, db, coll, cmd, get(args, "batchSize"))?;
            if name == "findOne" {
                Ok(Some(docs.into_iter().next().unwrap_or(Bson::Null)))
            } else {
                Ok(Some(Bson::Array(docs)))
            }
        }
        "aggregate" => {
            let pipeline = match get(args, "pipeline") {
                Some(Bson::Array(p)) => p.clone(),
                _ => return Err(OpError::Client("pipeline must be an array".into())),
            };
            let (aggregate, coll_for_getmore): (Bson, &str) = match target.collection {
                Some(c) => (Bson::String(c.to_string()), c),
                None => (Bson::Int32(1), "$cmd.aggregate"),
            };
            let writes_out = pipeline.last().is_some_and(|stage| {
                matches!(stage, Bson::Document(d) if d.contains_key("$out") || d.contains_key("$merge"))
            });
            let mut cursor = Document::new();
            if let Some(b) = get(args, "batchSize")
                && !writes_out
            {
                cursor.insert("batchSize", b.clone());
            }
            let mut cmd = doc! {"aggregate": aggregate, "pipeline": pipeline, "cursor": cursor};
            if let Some(rc) = target.read_concern {
                cmd.insert("readConcern", rc.clone());
            }
            copy_options(
                &mut cmd,
                args,
                &[
                    "allowDiskUse",
                    "collation",
                    "hint",
                    "let",
                    "comment",
                    "maxTimeMS",
                    "bypassDocumentValidation",
                ],
            );
            let docs = cursor_all(engine, db, coll_for_getmore, cmd, get(args, "batchSize"))?;
            Ok(Some(Bson::Array(docs)))
        }
        "countDocuments" => {
            let coll = collection_name(target, name)?;
            let mut pipeline = vec![Bson::Document(doc! {"$match": doc_arg(args, "filter")?})];
            if let Some(skip) = get(args, "skip") {
                pipeline.push(Bson::Document(doc! {"$skip": skip.clone()}));
            }
            if let Some(limit) = get(args, "limit") {
                pipeline.push(Bson::Document(doc! {"$limit": limit.clone()}));
            }
            pipeline.push(Bson::Document(
                doc! {"$group": {"_id": 1, "n": {"$sum": 1}}},
            ));
            let mut cmd = doc! {"aggregate": coll, "pipeline": pipeline, "cursor": {}};
            copy_options(
                &mut cmd,
                args,
                &["collation", "hint", "comment", "maxTimeMS"],
            );
            let docs = cursor_all(engine, db, coll, cmd, None)?;
            let n = match docs.first() {
                Some(Bson::Document(d)) => d
                    .get("n")
                    .and_then(crate::conformance::ejson::as_i64)
                    .unwrap_or(0),
                _ => 0,
            };
            Ok(Some(Bson::Int64(n)))
        }
        "estimatedDocumentCount" | "count" => {
            let coll = collection_name(target, name)?;
            let mut cmd = doc! {"count": coll};
            if name == "count" {
                if let Some(filter) = get(args, "filter") {
                    cmd.insert("query", filter.clone());
                }
                copy_options(&mut cmd, args, &["skip", "limit", "collation", "hint"]);
            }
            copy_options(&mut cmd, args, &["comment", "maxTimeMS"]);
            let reply = command(engine, db, cmd)?;
            Ok(Some(Bson::Int64(count_of(&reply, "n"))))
        }
        "distinct" => {
            let coll = collection_name(target, name)?;
            let key = match get(args, "fieldName") {
                Some(Bson::String(s)) => s.clone(),
                _ => return Err(OpError::Client("fieldName must be a string".into())),
            };
            let mut cmd = doc! {"distinct": coll, "key": key};
            if let Some(filter) = get(args, "filter") {
                cmd.insert("query", filter.clone());
            }
            copy_options(
                &mut cmd,
                args,
                &["collation", "hint", "comment", "maxTimeMS"],
            );
            let reply = command(engine, db, cmd)?;
            match reply.get("values") {
                Some(Bson::Array(values)) => Ok(Some(Bson::Array(values.clone()))),
                _ => Err(OpError::Client(format!(
                    "distinct reply without values: {}",
                    crate::conformance::ejson::canonical_doc(&reply)
                ))),
            }
        }
        "findOneAndUpdate" | "findOneAndReplace" | "findOneAndDelete" => {
            let coll = collection_name(target, name)?;
            let mut cmd = doc! {"findAndModify": coll, "query": doc_arg(args, "filter")?};
            match name {
                "findOneAndDelete" => {
                    cmd.insert("remove", true);
                }
                "findOneAndUpdate" => {
                    let update = get(args, "update").cloned().unwrap_or(Bson::Null);
                    validate_update(&update)?;
                    cmd.insert("update", update);
                }
                _ => {
                    let replacement = doc_arg(args, "replacement")?;
                    validate_replacement(&replacement)?;
                    cmd.insert("update", replacement);
                }
            }
            if name != "findOneAndDelete" {
                let after = matches!(get(args, "returnDocument"), Some(Bson::String(s)) if s.eq_ignore_ascii_case("after"));
                cmd.insert("new", after);
                copy_options(&mut cmd, args, &["upsert", "bypassDocumentValidation"]);
                if name == "findOneAndUpdate" {
                    copy_options(&mut cmd, args, &["arrayFilters"]);
                }
            }
            if let Some(projection) = get(args, "projection") {
                cmd.insert("fields", projection.clone());
            }
            copy_options(
                &mut cmd,
                args,
                &["sort", "collation", "hint", "let", "comment", "maxTimeMS"],
            );
            let reply = command(engine, db, cmd)?;
            if let Some(err) = write_error(&reply, None) {
                return Err(err);
            }
            Ok(Some(reply.get("value").cloned().unwrap_or(Bson::Null)))
        }
        "bulkWrite" => {
            let coll = collection_name(target, name)?;
            Ok(Some(Bson::Document(bulk_write(engine, db, coll, args)?)))
        }
        "createIndex" => {
            let coll = collection_name(target, name)?;
            let keys = doc_arg(args, "keys")?;
            let index_name = match get(args, "name") {
                Some(Bson::String(s)) => s.clone(),
                _ => keys
                    .iter()
                    .map(|(k, v)| format!("{k}_{}", index_direction(v)))
                    .collect::<Vec<_>>()
                    .join("_"),
            };
            let mut index = doc! {"key": keys, "name": index_name.clone()};
            for (k, v) in args {
                if k != "keys" && k != "name" && k != "session" {
                    index.insert(k.clone(), v.clone());
                }
            }
            command(engine, db, doc! {"createIndexes": coll, "indexes": [index]})?;
            Ok(Some(Bson::String(index_name)))
        }
        "dropCollection" => {
            let coll = string_arg(args, "collection")?;
            match command(engine, db, doc! {"drop": coll}) {
                Ok(_) => Ok(None),
                Err(OpError::Server(e)) if e.code == 26 => Ok(None),
                Err(e) => Err(e),
            }
        }
        "createCollection" => {
            let coll = string_arg(args, "collection")?;
            let mut cmd = doc! {"create": coll};
            for (k, v) in args {
                if k != "collection" && k != "session" {
                    cmd.insert(k.clone(), v.clone());
                }
            }
            command(engine, db, cmd)?;
            Ok(None)
        }
        "modifyCollection" => {
            let coll = string_arg(args, "collection")?;
            let mut cmd = doc! {"collMod": coll};
            for (k, v) in args {
                if k != "collection" && k != "session" {
                    cmd.insert(k.clone(), v.clone());
                }
            }
            command(engine, db, cmd)?;
            Ok(None)
        }
        other => Err(OpError::Client(format!(
            "operation {other} is not supported by this runner"
        ))),
    }
}

fn string_arg(args: &Document, key: &str) -> Result<String, OpError> {
    match args.get(key) {
        Some(Bson::String(s)) => Ok(s.clone()),
        _ => Err(OpError::Client(format!("argument {key} must be a string"))),
    }
}

fn index_direction(v: &Bson) -> String {
    match v {
        Bson::String(s) => s.clone(),
        other => crate::conformance::ejson::as_i64(other)
            .map(|i| i.to_string())
            .unwrap_or_else(|| other.to_string()),
    }
}

/// Adds an ObjectId `_id` first when the document has none (as drivers do) and returns the id.
fn ensure_id(engine: &mut Engine, document: &mut Document) -> Bson {
    if let Some(id) = document.get("_id") {
        return id.clone();
    }
    let id = Bson::ObjectId(engine.new_object_id());
    let mut with_id = doc! {"_id": id.clone()};
    with_id.extend(std::mem::take(document));
    *document = with_id;
    id
}

/// An update must be a pipeline or a non-empty document of update operators.
fn validate_update(update: &Bson) -> Result<(), OpError> {
    match update {
        Bson::Array(_) => Ok(()),
        Bson::Document(d) => match d.keys().next() {
            None => Err(OpError::Client("update document must not be empty".into())),
            Some(k) if k.starts_with('$') => Ok(()),
            Some(_) => Err(OpError::Client(
                "update document must contain only atomic modifiers".into(),
            )),
        },
        _ => Err(OpError::Client(
            "update must be a document or a pipeline".into(),
        )),
    }
}

/// A replacement must not contain update operators.
fn validate_replacement(replacement: &Document) -> Result<(), OpError> {
    match replacement.keys().next() {
        Some(k) if k.starts_with('$') => Err(OpError::Client(
            "replacement document must not contain atomic modifiers".into(),
        )),
        _ => Ok(()),
    }
}

/// The `updates` statement of an updateOne/updateMany/replaceOne (also inside bulkWrite).
fn update_statement(kind: &str, args: &Document) -> Result<Document, OpError> {
    let (u, multi) = match kind {
        "replaceOne" => {
            let replacement = doc_arg(args, "replacement")?;
            validate_replacement(&replacement)?;
            (Bson::Document(replacement), false)
        }
        _ => {
            let update = get(args, "update").cloned().unwrap_or(Bson::Null);
            validate_update(&update)?;
            (update, kind == "updateMany")
        }
    };
    let mut statement = doc! {"q": doc_arg(args, "filter")?, "u": u};
    if multi {
        statement.insert("multi", true);
    }
    copy_options(
        &mut statement,
        args,
        &["upsert", "collation", "hint", "sort"],
    );
    if kind != "replaceOne" {
        copy_options(&mut statement, args, &["arrayFilters"]);
    }
    Ok(statement)
}

/// Reads a cursor to the end: the first batch, then getMore until the id is 0.
fn cursor_all(
    engine: &mut Engine,
    db: &str,
    coll: &str,
    cmd: Document,
    batch_size: Option<&Bson>,
) -> Result<Vec<Bson>, OpError> {
    let reply = command(engine, db, cmd)?;
    let mut out = Vec::new();
    let mut cursor = reply
        .get_document("cursor")
        .map_err(|_| OpError::Client("reply without a cursor".into()))?
        .clone();
    for _ in 0..10_000 {
        let batch_key = if cursor.contains_key("firstBatch") {
            "firstBatch"
        } else {
            "nextBatch"
        };
        if let Ok(batch) = cursor.get_array(batch_key) {
            out.extend(batch.iter().cloned());
        }
        let id = cursor
            .get("id")
            .and_then(crate::conformance::ejson::as_i64)
            .unwrap_or(0);
        if id == 0 {
            return Ok(out);
        }
        let mut more = doc! {"getMore": id, "collection": coll};
        if let Some(b) = batch_size {
            more.insert("batchSize", b.clone());
        }
        let reply = command(engine, db, more)?;
        cursor = reply
            .get_document("cursor")
            .map_err(|_| OpError::Client("getMore reply without a cursor".into()))?
            .clone();
    }
    Err(OpError::Client(
        "cursor did not end after 10000 getMores".into(),
    ))
}

#[derive(Default)]
struct BulkResult {
    inserted: i64,
    matched: i64,
    modified: i64,
    deleted: i64,
    upserted: i64,
    inserted_ids: Document,
    upserted_ids: Document,
}

impl BulkResult {
    fn to_document(&self) -> Document {
        doc! {
            "deletedCount": self.deleted,
            "insertedCount": self.inserted,
            "insertedIds": self.inserted_ids.clone(),
            "matchedCount": self.matched,
            "modifiedCount": self.modified,
            "upsertedCount": self.upserted,
            "upsertedIds": self.upserted_ids.clone(),
        }
    }
}

#[derive(Clone, Copy, PartialEq)]
enum BatchKind {
    Insert,
    Update,
    Delete,
}

/// A bulk write: consecutive models of one kind go in one insert/update/delete command.
fn bulk_write(
    engine: &mut Engine,
    db: &str,
    coll: &str,
    args: &Document,
) -> Result<Document, OpError> {
    let requests = match get(args, "requests") {
        Some(Bson::Array(r)) => r.clone(),
        _ => return Err(OpError::Client("requests must be an array".into())),
    };
    if requests.is_empty() {
        return Err(OpError::Client("requests must not be empty".into()));
    }
    let ordered = !matches!(get(args, "ordered"), Some(Bson::Boolean(false)));
    // Validate and translate every model first: a client error sends nothing.
    let mut models: Vec<(BatchKind, Document, Option<Bson>)> = Vec::new();
    for request in &requests {
        let Bson::Document(model) = request else {
            return Err(OpError::Client(
                "a bulk write model must be a document".into(),
            ));
        };
        let Some((kind, Bson::Document(margs))) = model.iter().next() else {
            return Err(OpError::Client("malformed bulk write model".into()));
        };
        let entry = match kind.as_str() {
            "insertOne" => {
                let mut document = doc_arg(margs, "document")?;
                let id = ensure_id(engine, &mut document);
                (BatchKind::Insert, document, Some(id))
            }
            "updateOne" | "updateMany" | "replaceOne" => {
                (BatchKind::Update, update_statement(kind, margs)?, None)
            }
            "deleteOne" | "deleteMany" => {
                let mut statement = doc! {
                    "q": doc_arg(margs, "filter")?,
                    "limit": if kind == "deleteOne" { 1 } else { 0 },
                };
                copy_options(&mut statement, margs, &["hint", "collation"]);
                (BatchKind::Delete, statement, None)
            }
            other => {
                return Err(OpError::Client(format!("unknown bulk write model {other}")));
            }
        };
        models.push(entry);
    }

    let mut result = BulkResult::default();
    let mut first_error: Option<(Document, Document)> = None;
    let mut start = 0;
    while start < models.len() {
        let kind = models[start].0;
        let mut end = start;
        while end < models.len() && models[end].0 == kind {
            end += 1;
        }
        let items: Vec<Bson> = models[start..end]
            .iter()
            .map(|(_, d, _)| Bson::Document(d.clone()))
            .collect();
        let mut cmd = match kind {
            BatchKind::Insert => doc! {"insert": coll, "documents": items},
            BatchKind::Update => doc! {"update": coll, "updates": items},
            BatchKind::Delete => doc! {"delete": coll, "deletes": items},
        };
        cmd.insert("ordered", ordered);
        copy_options(&mut cmd, args, &["comment", "bypassDocumentValidation"]);
        if kind != BatchKind::Insert {
            copy_options(&mut cmd, args, &["let"]);
        }
        let reply = match command(engine, db, cmd) {
            Ok(r) => r,
            Err(OpError::Server(mut e)) => {
                e.partial = Some(Bson::Document(result.to_document()));
                return Err(OpError::Server(e));
            }
            Err(e) => return Err(e),
        };
        let n = count_of(&reply, "n");
        let mut failed: Vec<usize> = Vec::new();
        if let Ok(errors) = reply.get_array("writeErrors") {
            for e in errors {
                if let Bson::Document(e) = e {
                    let index = e
                        .get("index")
                        .and_then(crate::conformance::ejson::as_i64)
                        .unwrap_or(0) as usize;
                    failed.push(index);
                    if first_error.is_none() {
                        let mut e = e.clone();
                        e.insert("index", (start + index) as i64);
                        first_error = Some((e, reply.clone()));
                    }
                }
            }
        }
        match kind {
            BatchKind::Insert => {
                result.inserted += n;
                for (i, (_, _, id)) in models[start..end].iter().enumerate() {
                    let stopped_before = ordered && failed.iter().any(|f| *f <= i);
                    if !failed.contains(&i)
                        && !stopped_before
                        && let Some(id) = id
                    {
                        result
                            .inserted_ids
                            .insert((start + i).to_string(), id.clone());
                    }
                }
            }
            BatchKind::Update => {
                let upserted = reply.get_array("upserted").cloned().unwrap_or_default();
                result.matched += n - upserted.len() as i64;
                result.modified += count_of(&reply, "nModified");
                result.upserted += upserted.len() as i64;
                for u in upserted {
                    if let Bson::Document(u) = u {
                        let index = u
                            .get("index")
                            .and_then(crate::conformance::ejson::as_i64)
                            .unwrap_or(0) as usize;
                        if let Some(id) = u.get("_id") {
                            result
                                .upserted_ids
                                .insert((start + index).to_string(), id.clone());
                        }
                    }
                }
            }
            BatchKind::Delete => result.deleted += n,
        }
        if let Ok(wce) = reply.get_document("writeConcernError")
            && first_error.is_none()
        {
            first_error = Some((wce.clone(), reply.clone()));
        }
        if first_error.is_some() && ordered {
            break;
        }
        start = end;
    }
    if let Some((error, _reply)) = first_error {
        let partial = Some(Bson::Document(result.to_document()));
        return Err(server_error(&error, partial));
    }
    Ok(result.to_document())
}
