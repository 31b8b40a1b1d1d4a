//! The command interface: one function per MongoDB command, chosen by the command document's
//! first field, as the server does.

mod admin;
mod aggregate;
pub mod aggregate_preview;
mod aggregate_write;
mod coll_mod;
mod convert_to_capped;
mod count;
mod delete;
mod distinct;
mod explain;
mod explain_write;
pub(crate) mod find;
mod find_and_modify;
pub(crate) mod find_bytes;
mod find_stored_reply;
pub(crate) mod hello;
mod indexes;
mod insert;
pub mod map_reduce;
mod plan_cache;
pub(crate) mod read_concern;
mod reindex;
pub(crate) mod request;
mod system_views;
mod transfer;
mod update;
mod validate;
pub(crate) mod view;

use bson::{Bson, Document};

use crate::Engine;
use crate::catalog::{Namespace, validate_collection_name, validate_db_name};
use crate::error::{Error, ErrorCode, Result};

/// A command's reply: a document, or its BSON bytes already encoded. Bytes come only when the
/// caller takes bytes ([`crate::Engine::run_command_reply`]) and the command can write its reply
/// without a tree: a find whose results are stored documents unchanged (`find::find_reply`).
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    Document(Document),
    Bytes(Vec<u8>),
}

impl Reply {
    /// The reply's BSON bytes (an error when a document reply cannot be encoded).
    pub fn into_bytes(self) -> std::result::Result<Vec<u8>, String> {
        match self {
            Reply::Document(d) => d.to_vec().map_err(|e| e.to_string()),
            Reply::Bytes(b) => Ok(b),
        }
    }

    /// The reply as a document (bytes are decoded).
    pub fn into_document(self) -> std::result::Result<Document, String> {
        match self {
            Reply::Document(d) => Ok(d),
            Reply::Bytes(b) => crate::value::bson_bytes::decode_document(&b).map_err(|e| e.message),
        }
    }
}

pub fn dispatch(
    engine: &mut Engine,
    db: &str,
    command: &Document,
    ctx: &crate::matcher::MatchContext<'_>,
) -> Result<Document> {
    match dispatch_reply(engine, db, command, None, ctx, false)? {
        Reply::Document(d) => Ok(d),
        // Not asked for: never happens; decoded all the same.
        bytes => bytes
            .into_document()
            .map_err(|e| Error::new(ErrorCode::InternalError, e)),
    }
}

/// An `insert`'s documents taken out of its command and given away, with the BSON bytes each
/// arrived as where the caller has them (`encoded[i]` for `documents[i]`; fewer or none: the
/// others are encoded), kept as the stored bytes when they are exactly the document's
/// encoding.
pub struct GivenDocuments<'b> {
    pub documents: Vec<Bson>,
    pub encoded: Vec<&'b [u8]>,
    /// Whether each of `encoded` is known to be exactly its document's encoding (the command
    /// was decoded from bytes that are its exact encoding,
    /// `value::bson_bytes::decode_document_exact`), so a document kept as it arrived needs no
    /// check (`encodes_to`).
    pub exact: bool,
    /// `documents` is empty and `encoded` holds the documents as bytes alone, each one
    /// `value::bson_bytes::insert_parts` checked (exactly its encoding, decoded only when
    /// needed).
    pub kept: bool,
}

/// [`dispatch`], with `documents`: an `insert`'s documents the caller took out of `command` and
/// gives away (`Engine::run_command_owned`), stored as they are, not copied; and with `bytes`:
/// the caller takes the reply as BSON bytes, so a command that can write them without building
/// a tree does.
pub fn dispatch_reply(
    engine: &mut Engine,
    db: &str,
    command: &Document,
    documents: Option<GivenDocuments<'_>>,
    ctx: &crate::matcher::MatchContext<'_>,
    bytes: bool,
) -> Result<Reply> {
    let Some((name, _)) = command.iter().next() else {
        return Err(Error::new(ErrorCode::FailedToParse, "no such command: ''"));
    };
    validate_db_name(db)?;
    // Read commands compare strings under their collation from the start (see
    // `write::collation::enter_command_collation`); update and delete enter one per statement.
    let _collation =
        match name.as_str() {
            "find" | "aggregate" | "count" | "distinct" | "findAndModify" | "findandmodify"
            | "mapReduce" | "mapreduce" => Some(crate::write::collation::enter_command_collation(
                engine.catalog(),
                db,
                command,
            )?),
            "explain" => match command.get("explain") {
                Some(Bson::Document(inner)) => Some(
                    crate::write::collation::enter_command_collation(engine.catalog(), db, inner)?,
                ),
                _ => None,
            },
            _ => None,
        };
    // (`aggregate` checks after its writing stages' own read concern rule.)
    if matches!(name.as_str(), "find" | "count" | "distinct") {
        read_concern::check_standalone(command)?;
    }
    if let Some(reply) = system_views::intercept(engine, db, name, command)? {
        return Ok(Reply::Document(reply));
    }
    if let Some(reply) = view::intercept(engine, db, name, command, ctx)? {
        return Ok(Reply::Document(reply));
    }
    if name == "find" {
        return find::find_reply(engine, db, command, ctx, bytes);
    }
    let reply = match name.as_str() {
        "insert" => match documents {
            Some(owned) => insert::insert_owned(engine, db, command, owned),
            None => insert::insert(engine, db, command),
        },
        "aggregate" => aggregate::aggregate(engine, db, command, ctx),
        "sproutPreviewPipeline" => aggregate_preview::preview_command(engine, db, command, ctx),
        "sproutExportJSON" => transfer::export_json_command(engine, db, command, ctx),
        "sproutImportJSON" => transfer::import_json_command(engine, db, command),
        "sproutExportArchive" => transfer::export_archive_command(engine, db, command),
        "sproutImportArchive" => transfer::import_archive_command(engine, db, command),
        "getMore" => find::get_more(engine, db, command, ctx),
        "killCursors" => find::kill_cursors(engine, db, command),
        "delete" => delete::delete(engine, db, command, ctx),
        "update" => update::update(engine, db, command, ctx),
        "findAndModify" | "findandmodify" => {
            find_and_modify::find_and_modify(engine, db, command, ctx)
        }
        "count" => count::count(engine, db, command, ctx),
        "distinct" => distinct::distinct(engine, db, command, ctx),
        "mapReduce" | "mapreduce" => map_reduce::map_reduce(engine, db, command, ctx),
        "explain" => explain::explain(engine, db, command, ctx),
        "createIndexes" => indexes::create_indexes(engine, db, command),
        "dropIndexes" | "deleteIndexes" => indexes::drop_indexes(engine, db, command),
        "listIndexes" => indexes::list_indexes(engine, db, command),
        "create" => admin::create(engine, db, command),
        "drop" => admin::drop(engine, db, command),
        "dropDatabase" => admin::drop_database(engine, db),
        "listCollections" => admin::list_collections(engine, db, command),
        "listDatabases" => admin::list_databases(engine, command),
        "dbStats" | "dbstats" => admin::db_stats(engine, db, command),
        "collStats" | "collstats" => admin::coll_stats(engine, db, command),
        "renameCollection" => admin::rename_collection(engine, db, command),
        "planCacheClear" => plan_cache::plan_cache_clear(engine, db, command),
        "collMod" => coll_mod::coll_mod(engine, db, command),
        "validate" => validate::validate(engine, db, command),
        "convertToCapped" => convert_to_capped::convert_to_capped(engine, db, command),
        "cloneCollectionAsCapped" => {
            convert_to_capped::clone_collection_as_capped(engine, db, command)
        }
        "reIndex" => reindex::reindex(engine, db, command),
        "ping" => Ok(bson::doc! {"ok": 1.0}),
        "features" => Ok(engine.features(command)),
        "hello" => Ok(hello::hello(engine, false)),
        "isMaster" | "ismaster" => Ok(hello::hello(engine, true)),
        "buildInfo" | "buildinfo" => Ok(admin::build_info()),
        other => Err(Error::new(
            ErrorCode::CommandNotFound,
            format!("no such command: '{other}'"),
        )),
    };
    let unacknowledged = matches!(name.as_str(), "insert" | "update" | "delete")
        && crate::write::write_concern::is_unacknowledged(command);
    if unacknowledged {
        // An unacknowledged write answers `{ok: 1}` alone whatever happened, its counts and
        // errors untold, as a driver sending `w: 0` hears nothing back (8.0's
        // batch_write_command_w0.js expects `{ok: 1}` for a delete whose filter is refused).
        drop(reply);
        return Ok(Reply::Document(bson::doc! {"ok": 1.0}));
    }
    reply.map(Reply::Document)
}

/// The collection a command names in its first field (`{insert: "products", ...}`).
fn target_namespace(db: &str, command: &Document) -> Result<Namespace> {
    let Some((_, value)) = command.iter().next() else {
        return Err(Error::new(ErrorCode::FailedToParse, "no such command: ''"));
    };
    match value {
        Bson::String(coll) => {
            let ns = Namespace::new(db, coll.as_str());
            validate_collection_name(&ns)?;
            Ok(ns)
        }
        other => Err(Error::new(
            ErrorCode::InvalidNamespace,
            format!(
                "collection name has invalid type {}",
                crate::value::display::type_name(other)
            ),
        )),
    }
}

/// A command's field by name: the names compared in order (`path::field`), not hashed, since
/// a command has a few fields and most options a command reads are absent (a `find` reads
/// fifteen; hashing each name was 4% of a point lookup through the Node binding).
fn option<'a>(command: &'a Document, name: &str) -> Option<&'a Bson> {
    crate::path::field(command, name)
}

/// Reads an optional boolean option the way the server does (numbers are accepted as truth).
fn bool_option(command: &Document, field: &str, default: bool) -> Result<bool> {
    match option(command, field) {
        None => Ok(default),
        Some(Bson::Boolean(b)) => Ok(*b),
        Some(Bson::Int32(i)) => Ok(*i != 0),
        Some(Bson::Int64(i)) => Ok(*i != 0),
        Some(Bson::Double(d)) => Ok(*d != 0.0),
        Some(other) => Err(Error::type_mismatch(format!(
            "BSON field '{field}' is the wrong type '{}', expected type 'bool'",
            crate::value::display::type_name(other)
        ))),
    }
}

/// Reads an optional non-negative integer option.
fn count_option(command: &Document, cmd: &str, field: &str) -> Result<Option<i64>> {
    let v = match option(command, field) {
        None | Some(Bson::Null) => return Ok(None),
        Some(Bson::Int32(i)) => i64::from(*i),
        Some(Bson::Int64(i)) => *i,
        Some(Bson::Double(d)) if d.fract() == 0.0 => *d as i64,
        Some(other) => {
            return Err(Error::type_mismatch(format!(
                "BSON field '{cmd}.{field}' is the wrong type '{}', expected types '[long, int, decimal, double]'",
                crate::value::display::type_name(other)
            )));
        }
    };
    if v < 0 {
        return Err(Error::new(
            ErrorCode::Location(51024),
            format!("BSON field '{field}' value must be >= 0, actual value '{v}'"),
        ));
    }
    Ok(Some(v))
}

/// Reads an optional document option.
fn document_option<'a>(
    command: &'a Document,
    cmd: &str,
    field: &str,
) -> Result<Option<&'a Document>> {
    match option(command, field) {
        None | Some(Bson::Null) => Ok(None),
        Some(Bson::Document(d)) => Ok(Some(d)),
        Some(other) => Err(Error::type_mismatch(format!(
            "BSON field '{cmd}.{field}' is the wrong type '{}', expected type 'object'",
            crate::value::display::type_name(other)
        ))),
    }
}

/// The documents of a reply's `cursor.firstBatch` (for tests).
#[cfg(test)]
mod insert_tests;

#[cfg(test)]
pub(crate) fn first_batch(reply: &Document) -> Vec<Document> {
    reply
        .get_document("cursor")
        .and_then(|c| c.get_array("firstBatch"))
        .map(|b| b.iter().filter_map(|d| d.as_document().cloned()).collect())
        .unwrap_or_default()
}
