//! The `insert` command.

use bson::{Bson, Document, doc};

use super::{bool_option, target_namespace};
use crate::Engine;
use crate::error::{Error, ErrorCode, Result};
use crate::storage::Change;
use crate::write::empty_timestamp;

/// `{insert: <coll>, documents: [...], ordered: <bool>}` → `{n, writeErrors?, ok}`.
pub fn insert(engine: &mut Engine, db: &str, command: &Document) -> Result<Document> {
    crate::write::check_write_command_fields(command, "insert", &["documents"])?;
    let ns = target_namespace(db, command)?;
    let documents = match command.get("documents") {
        Some(Bson::Array(a)) => a,
        Some(other) => {
            return Err(Error::type_mismatch(format!(
                "BSON field 'insert.documents' is the wrong type '{}', expected type 'array'",
                crate::value::display::type_name(other)
            )));
        }
        None => {
            return Err(Error::location(
                40414,
                "BSON field 'insert.documents' is missing but a required field",
            ));
        }
    };
    check_batch_size(documents.len())?;
    let ordered = bool_option(command, "ordered", true)?;
    crate::write::check_write_concern(command)?;

    let bypass = empty_timestamp::bypass_requested(command);

    // Validate shapes and assign _id first, before touching the collection.
    let mut prepared = Vec::with_capacity(documents.len());
    for (i, d) in documents.iter().enumerate() {
        let Bson::Document(d) = d else {
            return Err(not_a_document(i, d));
        };
        prepared.push(prepare_for_insert(engine, d).map(|mut d| {
            if !bypass {
                fill_empty_timestamps(engine, &mut d);
            }
            Prepared::Tree(d, None)
        }));
    }
    store(engine, ns, ordered, prepared)
}

/// [`insert`] of documents taken out of the command (which holds an empty `documents` array
/// in their place) and given away: each is stored itself, not a copy of it
/// (`Engine::run_command_owned`), with the bytes it arrived as when they are its encoding.
pub fn insert_owned(
    engine: &mut Engine,
    db: &str,
    command: &Document,
    given: super::GivenDocuments<'_>,
) -> Result<Document> {
    let super::GivenDocuments {
        documents,
        encoded,
        exact,
        kept,
    } = given;
    crate::write::check_write_command_fields(command, "insert", &["documents"])?;
    let ns = target_namespace(db, command)?;
    check_batch_size(if kept { encoded.len() } else { documents.len() })?;
    let ordered = bool_option(command, "ordered", true)?;
    crate::write::check_write_concern(command)?;
    let bypass = empty_timestamp::bypass_requested(command);
    if kept {
        let prepared = encoded
            .into_iter()
            .map(|bytes| prepare_kept(engine, bytes, bypass))
            .collect();
        return store(engine, ns, ordered, prepared);
    }
    let mut prepared = Vec::with_capacity(documents.len());
    for (i, d) in documents.into_iter().enumerate() {
        let Bson::Document(d) = d else {
            return Err(not_a_document(i, &d));
        };
        // Kept as it arrived (`prepare_owned` changes a document only to put `_id` first;
        // an empty timestamp filled changes its bytes but not their length).
        let kept = d.iter().next().is_some_and(|(k, _)| k == "_id");
        let filled = !bypass && empty_timestamp::has_empty_timestamp(&d);
        let arrived = encoded.get(i).map(|&bytes| Arrived {
            bytes,
            exact: exact && kept && !filled,
        });
        // From an exact command, the document is the one its bytes hold: its names hold no NUL
        // (a name ends at one) and it nests no deeper than its bytes allow (each level takes at
        // least 7 bytes around an empty document's 5), so short ones pass `check_storable`
        // without the walk; kept as it arrived, its size is its bytes'.
        let storable = exact && encoded.get(i).is_some_and(|b| b.len() <= SHALLOW_BYTES);
        let size = encoded
            .get(i)
            .filter(|_| exact && kept)
            .map(|bytes| bytes.len());
        prepared.push(prepare_owned(engine, d, storable, size).map(|mut d| {
            if filled {
                fill_empty_timestamps(engine, &mut d);
            }
            Prepared::Tree(d, arrived)
        }));
    }
    store(engine, ns, ordered, prepared)
}

/// A document ready to store: a tree (with the bytes it arrived as, if known), or bytes alone
/// that are exactly its encoding, `_id` first, whose `_id` is `id`.
enum Prepared<'b> {
    Tree(Document, Option<Arrived<'b>>),
    Kept { id: Bson, bytes: &'b [u8] },
}

/// [`prepare_owned`] of a document given as bytes that `value::bson_bytes::insert_parts`
/// checked: with `_id` first and no empty timestamp to fill it stays bytes (its `_id` decoded
/// and checked, its size its bytes'); else it is decoded and prepared as a tree (its bytes no
/// longer its encoding once `_id` moves first or is added, or a timestamp is filled).
fn prepare_kept<'b>(engine: &mut Engine, bytes: &'b [u8], bypass: bool) -> Result<Prepared<'b>> {
    use crate::value::bson_bytes;
    let fill = !bypass && empty_timestamp::bytes_have_empty_timestamp(bytes);
    match bson_bytes::first_element(bytes) {
        Some(("_id", id)) if !fill => {
            check_id(&id)?;
            check_size_of(bytes.len())?;
            Ok(Prepared::Kept { id, bytes })
        }
        _ => {
            let d = bson_bytes::decode_document(bytes)?;
            // Nesting within `KEPT_DEPTH` and names from bytes (no NUL): storable.
            let mut d = prepare_owned(engine, d, true, None)?;
            if fill {
                fill_empty_timestamps(engine, &mut d);
            }
            Ok(Prepared::Tree(
                d,
                Some(Arrived {
                    bytes,
                    exact: false,
                }),
            ))
        }
    }
}

/// Replaces the document's top-level empty timestamps with the next cluster times.
fn fill_empty_timestamps(engine: &mut Engine, d: &mut Document) {
    empty_timestamp::fill_empty_timestamps(d, || engine.tick_cluster_time());
}

/// MongoDB's write_ops::checkOpCountForCommand, as for `update` and `delete`: an empty batch,
/// or one over 100,000 documents, is refused before anything else.
fn check_batch_size(len: usize) -> Result<()> {
    let max = super::request::update::MAX_BATCH;
    if len == 0 || len > max {
        return Err(Error::new(
            ErrorCode::InvalidLength,
            format!("Write batch sizes must be between 1 and {max}. Got {len} operations."),
        ));
    }
    Ok(())
}

fn not_a_document(i: usize, d: &Bson) -> Error {
    Error::type_mismatch(format!(
        "BSON field 'insert.documents.{i}' is the wrong type '{}', expected type 'object'",
        crate::value::display::type_name(d)
    ))
}

/// The bytes a document arrived as, and whether they are known to be its encoding.
#[derive(Clone, Copy)]
struct Arrived<'b> {
    bytes: &'b [u8],
    exact: bool,
}

/// Stores the prepared documents (or reports why each could not be), in order; an ordered
/// insert stops at its first error. Beside each document, the bytes it arrived as, if known:
/// kept when they are exactly its encoding (it may have been changed since: `_id` moved
/// first or added), else it is encoded.
fn store(
    engine: &mut Engine,
    ns: crate::catalog::Namespace,
    ordered: bool,
    prepared: Vec<Result<Prepared<'_>>>,
) -> Result<Document> {
    // A database that would differ only in case from one that exists is not made: every
    // document that would be stored gets that error (MongoDB's makeCollection fails for each,
    // handled as the document's write error).
    let prepared: Vec<_> = match engine.catalog().check_new_database(&ns.db) {
        Ok(()) => prepared,
        Err(e) => prepared
            .into_iter()
            .map(|p| p.and_then(|_| Err(e.clone())))
            .collect(),
    };
    // MongoDB creates the collection when it first has a document to store: a batch whose
    // documents all fail before storage (a bad `_id`, over 16 MiB), or whose first one does
    // when ordered, leaves no collection behind (write_ops_exec's performInserts fixes each
    // document before its batch reaches makeCollection; jstests/core/insert_id_undefined.js).
    let reaches_storage = if ordered {
        prepared.first().is_some_and(Result::is_ok)
    } else {
        prepared.iter().any(Result::is_ok)
    };
    if !reaches_storage {
        let mut write_errors = Vec::new();
        for (index, doc) in prepared.iter().enumerate() {
            if let Err(e) = doc {
                write_errors.push(write_error(index, e));
                if ordered {
                    break;
                }
            }
        }
        let mut reply = doc! {"n": 0};
        if !write_errors.is_empty() {
            reply.insert("writeErrors", write_errors);
        }
        reply.insert("ok", 1.0);
        return Ok(reply);
    }

    let ns_text = ns.to_string();
    let validation = engine.validation_for(&ns)?;
    let mut changes = Vec::new();
    let (coll, created) = engine.catalog_mut().collection_or_create(&ns);
    if created {
        changes.push(Change::PutCollection {
            ns: ns.clone(),
            options: Document::new(),
        });
    }
    coll.reserve(prepared.len());
    let mut n = 0;
    let mut write_errors = Vec::new();
    for (index, doc) in prepared.into_iter().enumerate() {
        let outcome = doc.and_then(|doc| {
            let (doc, arrived) = match doc {
                // Stored as its bytes alone when nothing needs its tree: no validator, no
                // index but `{_id: 1}`.
                Prepared::Kept { id, bytes }
                    if validation.is_none() && coll.keeps_bytes_alone() =>
                {
                    let record_id = coll.insert_kept(&ns_text, &id, bytes)?;
                    return Ok((record_id, bytes.to_vec()));
                }
                Prepared::Kept { bytes, .. } => (
                    crate::value::bson_bytes::decode_document(bytes)?,
                    Some(Arrived { bytes, exact: true }),
                ),
                Prepared::Tree(doc, arrived) => (doc, arrived),
            };
            if let Some(v) = &validation {
                v.check_insert(&doc)?;
            }
            let bytes = match arrived
                .filter(|a| a.exact || crate::value::bson_bytes::encodes_to(&doc, a.bytes))
            {
                Some(a) => a.bytes.to_vec(),
                None => doc.to_vec().map_err(|e| Error::bad_value(e.to_string()))?,
            };
            let record_id = coll.insert_encoded(&ns_text, doc, &bytes)?;
            Ok((record_id, bytes))
        });
        match outcome {
            Ok((record_id, bson)) => {
                n += 1;
                changes.push(Change::PutDocument {
                    ns: ns.clone(),
                    record_id,
                    bson,
                });
            }
            Err(e) => {
                write_errors.push(write_error(index, &e));
                if ordered {
                    break;
                }
            }
        }
    }
    for c in changes {
        engine.record(c);
    }
    let mut reply = doc! {"n": n};
    if !write_errors.is_empty() {
        reply.insert("writeErrors", write_errors);
    }
    reply.insert("ok", 1.0);
    Ok(reply)
}

/// Puts `_id` first (generating an ObjectId when missing) and checks the document's shape.
pub fn prepare_for_insert(engine: &mut Engine, d: &Document) -> Result<Document> {
    // Nesting and field names first: both would make the size below meaningless.
    crate::value::nesting::check_storable(d, crate::value::nesting::Write::Insert)?;
    let out = match d.iter().next() {
        // `_id` already first (what drivers and the shell send): one clone of the map, which
        // copies its hash table instead of hashing every field name again.
        Some((k, id)) if k == "_id" => {
            check_id(id)?;
            d.clone()
        }
        _ => with_id_first(engine, d.get("_id"), d.iter())?,
    };
    check_size(&out)?;
    Ok(out)
}

/// [`prepare_for_insert`] of a document given away: one whose `_id` is first is kept as it
/// is, without a copy.
/// `storable`: known to pass `check_storable`; `size`: its BSON size, when known and it has
/// `_id` first (so it is stored as it is).
pub fn prepare_owned(
    engine: &mut Engine,
    d: Document,
    storable: bool,
    size: Option<usize>,
) -> Result<Document> {
    if !storable {
        crate::value::nesting::check_storable(&d, crate::value::nesting::Write::Insert)?;
    }
    let out = match d.iter().next() {
        Some((k, id)) if k == "_id" => {
            check_id(id)?;
            d
        }
        _ => with_id_first(engine, d.get("_id"), d.iter())?,
    };
    match size {
        Some(size) => {
            debug_assert_eq!(size, crate::value::bson_size::document_size(&out));
            check_size_of(size)?
        }
        None => check_size(&out)?,
    }
    Ok(out)
}

/// The largest document (in bytes) that cannot nest deeper than `check_storable` allows: `k`
/// levels take at least `5 + 7 * (k - 1)` bytes (an empty document, and per level around it a
/// length, a type, an empty name's NUL and a final NUL).
const SHALLOW_BYTES: usize = 5 + 7 * (crate::value::nesting::MAX_STORAGE_DEPTH - 1);

/// A copy of a document's `fields` with `_id` first: `id`, or a new ObjectId when missing.
fn with_id_first<'d>(
    engine: &mut Engine,
    id: Option<&Bson>,
    fields: impl Iterator<Item = (&'d String, &'d Bson)>,
) -> Result<Document> {
    let mut out = Document::new();
    match id {
        Some(id) => {
            check_id(id)?;
            out.insert("_id", id.clone());
        }
        None => {
            out.insert("_id", engine.new_object_id());
        }
    }
    for (k, v) in fields {
        if k == "_id" {
            continue;
        }
        out.insert(k.clone(), v.clone());
    }
    Ok(out)
}

/// MongoDB refuses arrays, regexes and undefined as `_id`, and `$`-prefixed field names
/// anywhere inside a document `_id` (storage validation of embedded documents).
fn check_id(id: &Bson) -> Result<()> {
    let kind = match id {
        Bson::Array(_) => "array",
        Bson::RegularExpression(_) => "regex",
        Bson::Undefined => "undefined",
        Bson::Document(d) => {
            return match dollar_prefixed_field(d) {
                Some(name) => Err(Error::new(
                    ErrorCode::DollarPrefixedFieldName,
                    format!(
                        "_id fields may not contain '$'-prefixed fields: {name} is not valid for storage."
                    ),
                )),
                None => Ok(()),
            };
        }
        _ => return Ok(()),
    };
    Err(Error::new(
        ErrorCode::InvalidIdField,
        format!("The '_id' value cannot be of type {kind}"),
    ))
}

/// The first `$`-prefixed field name in `d` or in the documents and arrays it holds; a DBRef's
/// `$ref`/`$id`/`$db` are allowed, as MongoDB's `storageValidEmbedded` allows them.
fn dollar_prefixed_field(d: &Document) -> Option<String> {
    let is_dbref = d.keys().next().is_some_and(|k| k == "$ref");
    for (k, v) in d {
        if k.starts_with('$') && !(is_dbref && matches!(k.as_str(), "$ref" | "$id" | "$db")) {
            return Some(k.clone());
        }
        if let Some(name) = dollar_prefixed_in_value(v) {
            return Some(name);
        }
    }
    None
}

fn dollar_prefixed_in_value(v: &Bson) -> Option<String> {
    match v {
        Bson::Document(d) => dollar_prefixed_field(d),
        Bson::Array(items) => items.iter().find_map(dollar_prefixed_in_value),
        _ => None,
    }
}

/// The 16 MiB document limit.
pub const MAX_DOCUMENT_BYTES: usize = 16 * 1024 * 1024;

fn check_size(d: &Document) -> Result<()> {
    // Computed from the document (encoding it could fail, and an error here once showed up as
    // a size of usize::MAX). MongoDB's `fixDocumentForInsert` (src/mongo/db/ops/insert.cpp)
    // answers BadValue with this text for a document over BSONObjMaxUserSize.
    check_size_of(crate::value::bson_size::document_size(d))
}

fn check_size_of(size: usize) -> Result<()> {
    if size > MAX_DOCUMENT_BYTES {
        return Err(Error::new(
            ErrorCode::BadValue,
            format!(
                "object to insert too large. size in bytes: {size}, max size: {MAX_DOCUMENT_BYTES}"
            ),
        ));
    }
    Ok(())
}

/// An upsert's new document over the 16 MiB limit: MongoDB's upsert stage refuses it with
/// 17420 before inserting (src/mongo/db/exec/upsert_stage.cpp; jstests/core/max_doc_size.js).
pub(super) fn check_upsert_size(d: &Document) -> Result<()> {
    if crate::value::bson_size::document_size(d) > MAX_DOCUMENT_BYTES {
        return Err(Error::new(
            ErrorCode::Location(17420),
            format!("Document to upsert is larger than {MAX_DOCUMENT_BYTES}"),
        ));
    }
    Ok(())
}

/// A `writeErrors` entry; duplicate keys also carry `keyPattern` and `keyValue` as in MongoDB.
pub fn write_error(index: usize, e: &Error) -> Document {
    let mut w = doc! {"index": index as i32, "code": e.code()};
    if let Some(details) = &e.details {
        w.extend(details.as_ref().clone());
    }
    w.insert("errmsg", e.message.clone());
    w
}

#[cfg(test)]
mod tests {
    use crate::Engine;
    use crate::clock::SimulatedClock;

    /// An engine on a fixed clock and seed: two of them generate the same ObjectIds (engines on
    /// the system clock are seeded from the millisecond they are made, so two made across a
    /// millisecond's end differed, and the tests comparing them failed now and then).
    fn twin() -> Engine {
        Engine::with_clock(Box::new(SimulatedClock::new(1_700_000_000_000)), 7)
    }
    use bson::{Bson, doc};

    #[test]
    fn unacknowledged_writes_answer_ok_alone_and_still_write() {
        let mut e = twin();
        let w0 = doc! {"w": 0};
        let commands = [
            doc! {"insert": "c", "documents": [{"_id": 1}, {"_id": 1}], "writeConcern": w0.clone()},
            doc! {"update": "c", "updates": [{"q": {"_id": 2}, "u": {"$set": {"a": 1}}, "upsert": true}], "writeConcern": w0.clone()},
            doc! {"delete": "c", "deletes": [{"q": {"$set": 1}, "limit": 0}], "writeConcern": w0.clone()},
        ];
        for c in &commands {
            assert_eq!(e.run_command("t", c), doc! {"ok": 1.0}, "{c}");
        }
        let acknowledged = e.run_command(
            "t",
            &doc! {"insert": "c", "documents": [{"_id": 3}], "writeConcern": {"w": 0, "j": true}},
        );
        assert_eq!(acknowledged.get_i32("n").ok(), Some(1));
        let count = e.run_command("t", &doc! {"count": "c"});
        assert_eq!(count.get_i32("n").ok(), Some(3));
    }

    /// A database whose name differs only in case from an existing one is not made, by any
    /// command that would make it (jstests/core/dbcase.js, dbcase2.js).
    #[test]
    fn a_database_differing_only_in_case_is_refused() {
        let mut e = twin();
        let ok = e.run_command("dbcase", &doc! {"insert": "c", "documents": [{"_id": 1}]});
        assert_eq!(ok.get_i32("n").ok(), Some(1), "{ok}");
        let message = "db already exists with different case already have: [dbcase] trying to create [dbCase]";
        let r = e.run_command(
            "dbCase",
            &doc! {"insert": "c", "documents": [{"_id": 1}, {"_id": 2}], "ordered": false},
        );
        let errors = r.get_array("writeErrors").unwrap();
        assert_eq!((r.get_i32("n").ok(), errors.len()), (Some(0), 2), "{r}");
        let first = errors[0].as_document().unwrap();
        assert_eq!(first.get_i32("code").ok(), Some(13297));
        assert_eq!(first.get_str("errmsg").ok(), Some(message));
        for command in [
            doc! {"create": "c"},
            doc! {"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1"}]},
            doc! {"update": "c", "updates": [{"q": {"_id": 1}, "u": {"$set": {"a": 1}}, "upsert": true}]},
        ] {
            let r = e.run_command("dbCase", &command);
            let code = r.get_i32("code").ok().or_else(|| {
                r.get_array("writeErrors").ok()?[0]
                    .as_document()?
                    .get_i32("code")
                    .ok()
            });
            assert_eq!(code, Some(13297), "{command}: {r}");
        }
        let names: Vec<&str> = e.catalog().database_names().collect();
        assert_eq!(names, ["dbcase"]);
        // The same name, and another name once the first is gone, are fine.
        let more = e.run_command("dbcase", &doc! {"insert": "d", "documents": [{}]});
        assert_eq!(more.get_i32("n").ok(), Some(1), "{more}");
        e.run_command("dbcase", &doc! {"dropDatabase": 1});
        let later = e.run_command("dbCase", &doc! {"insert": "c", "documents": [{}]});
        assert_eq!(later.get_i32("n").ok(), Some(1), "{later}");
    }

    #[test]
    fn an_owned_insert_answers_and_stores_as_a_borrowed_one() {
        let commands = [
            doc! {"insert": "c", "documents": [{"_id": 1, "a": 1}, {"a": 2, "_id": 2}]},
            // A duplicate, a bad `_id`, a document over nothing: unordered goes on.
            doc! {"insert": "c", "documents": [{"_id": 1}, {"_id": [1]}, {"_id": 3, "$bad": 1}, {"_id": 4}], "ordered": false},
            doc! {"insert": "c", "documents": [{"_id": 5}, 7]},
            doc! {"insert": "c", "documents": 7},
            doc! {"insert": "c"},
            doc! {"insert": "c", "documents": [{"_id": 6}], "writeConcern": {"w": "bad"}},
            // A field the command does not define (MongoDB's IDL: 40415), nothing inserted.
            doc! {"insert": "c", "documents": [{"_id": 7}], "asdf": true},
        ];
        let mut borrowed = twin();
        let mut owned = twin();
        for c in &commands {
            let a = borrowed.run_command("t", c);
            let b = owned
                .run_command_owned("t", c.clone())
                .into_document()
                .unwrap();
            assert_eq!(a, b, "{c}");
        }
        let unknown = borrowed.run_command("t", commands.last().unwrap());
        assert_eq!(unknown.get_i32("code").ok(), Some(40415), "{unknown}");
        let find = doc! {"find": "c", "filter": {}};
        assert_eq!(
            borrowed.run_command("t", &find),
            owned.run_command("t", &find)
        );
        let stored = owned.run_command("t", &find);
        let batch = stored
            .get_document("cursor")
            .unwrap()
            .get_array("firstBatch");
        // `_id` moved first, the documents themselves stored.
        assert_eq!(
            batch.unwrap()[..2],
            [
                Bson::Document(doc! {"_id": 1, "a": 1}),
                Bson::Document(doc! {"_id": 2, "a": 2})
            ]
        );
    }

    /// Run from its bytes (`Engine::run_command_encoded`), an insert answers, stores and
    /// records changes as the document path does: the bytes a document arrived as are kept
    /// only when they are its encoding (not when `_id` is moved first or added, a name
    /// repeats, array keys are out of order, or a type is one `encodes_to` does not check).
    /// The smallest document nesting one level more than storage allows is over
    /// `SHALLOW_BYTES`, and one at the limit is within it; from bytes, both answer as the
    /// document path does.
    #[test]
    fn short_documents_cannot_nest_too_deep() {
        let nested = |levels: usize| {
            let mut d = bson::Document::new();
            for _ in 1..levels {
                d = doc! {"": d};
            }
            d
        };
        let limit = crate::value::nesting::MAX_STORAGE_DEPTH;
        let at_limit = nested(limit);
        assert_eq!(at_limit.to_vec().unwrap().len(), super::SHALLOW_BYTES);
        assert!(nested(limit + 1).to_vec().unwrap().len() > super::SHALLOW_BYTES);
        for (levels, id) in [(limit - 1, 1), (limit, 2), (limit + 1, 3)] {
            // Under `documents` and `_id`, the empty-named chain starts one level down.
            let command = doc! {"insert": "c", "documents": [{"_id": id, "a": nested(levels - 1)}]};
            let a = twin().run_command("t", &command);
            let b = twin()
                .run_command_encoded("t", &command.to_vec().unwrap())
                .unwrap()
                .into_document()
                .unwrap();
            assert_eq!(a, b, "{levels}");
        }
    }

    #[test]
    fn an_insert_from_bytes_stores_and_records_the_encoding() {
        let commands = [
            doc! {"insert": "c", "documents": [{"_id": 1, "a": 1}, {"a": 2, "_id": 2}, {"b": [1, {"c": "x"}]}]},
            doc! {"insert": "c", "documents": [{"_id": 1}, {"_id": [1]}, {"_id": 3, "$bad": 1}, {"_id": 4, "r": bson::Regex {
            pattern: "a".try_into().unwrap(), options: "i".try_into().unwrap() }}], "ordered": false},
            doc! {"insert": "c", "documents": [{"_id": 5}, 7]},
            doc! {"insert": "c", "documents": 7},
            doc! {"insert": "c", "documents": [{"_id": 6}], "writeConcern": {"w": "bad"}},
            doc! {"insert": "c", "documents": [{"_id": 8}], "asdf": true},
            doc! {"find": "c", "filter": {}},
        ];
        let mut by_doc = twin();
        let mut by_bytes = twin();
        for c in &commands {
            let a = by_doc.run_command("t", c);
            let b = by_bytes
                .run_command_encoded("t", &c.to_vec().unwrap())
                .unwrap()
                .into_document()
                .unwrap();
            assert_eq!(a, b, "{c}");
            assert_eq!(by_doc.take_changes(), by_bytes.take_changes(), "{c}");
        }
        // Bytes that are not their decoded document's encoding: `_id` repeated (the later
        // value in the first place), array keys "1", "0".
        let mut odd = Vec::new();
        for (i, body) in [
            &[
                0x10, b'_', b'i', b'd', 0, 9, 0, 0, 0, 0x10, b'_', b'i', b'd', 0, 8, 0, 0, 0,
            ][..],
            &[
                0x10, b'_', b'i', b'd', 0, 10, 0, 0, 0, 0x04, b'a', 0, 19, 0, 0, 0, 0x10, b'1', 0,
                5, 0, 0, 0, 0x10, b'0', 0, 6, 0, 0, 0, 0,
            ][..],
        ]
        .iter()
        .enumerate()
        {
            let mut d = ((body.len() + 5) as i32).to_le_bytes().to_vec();
            d.extend_from_slice(body);
            d.push(0);
            let mut element = vec![0x03];
            element.extend_from_slice(i.to_string().as_bytes());
            element.push(0);
            element.extend_from_slice(&d);
            odd.extend_from_slice(&element);
        }
        let mut array = ((odd.len() + 5) as i32).to_le_bytes().to_vec();
        array.extend_from_slice(&odd);
        array.push(0);
        let mut body = vec![
            0x02, b'i', b'n', b's', b'e', b'r', b't', 0, 2, 0, 0, 0, b'c', 0,
        ];
        body.push(0x04);
        body.extend_from_slice(b"documents\0");
        body.extend_from_slice(&array);
        let mut command = ((body.len() + 5) as i32).to_le_bytes().to_vec();
        command.extend_from_slice(&body);
        command.push(0);
        let decoded = crate::value::bson_bytes::decode_document(&command).unwrap();
        let a = by_doc.run_command("t", &decoded);
        let b = by_bytes
            .run_command_encoded("t", &command)
            .unwrap()
            .into_document()
            .unwrap();
        assert_eq!(a, b);
        assert_eq!(a.get_i32("n").ok(), Some(2), "{a}");
        let (x, y) = (by_doc.take_changes(), by_bytes.take_changes());
        assert_eq!(x, y);
        assert_eq!(y.changes.len(), 2);
        // Bad bytes: an error, no change.
        assert!(by_bytes.run_command_encoded("t", &command[1..]).is_err());
    }

    /// Inserts whose documents are stored as their bytes alone (`Engine::run_command_encoded`
    /// with `insert_parts`) answer, record and store as the document path does, and the
    /// documents read back alike through every later command: duplicates (across numeric
    /// types, ordered and not), `_id` not first or missing, bad `_id`s, a validator, a unique
    /// secondary index, a capped collection, updates, deletes, a rename, sizes.
    #[test]
    fn inserts_kept_as_bytes_answer_as_documents_do() {
        let commands = [
            doc! {"insert": "c", "documents": [{"_id": 1, "a": "x"}, {"_id": 2, "a": {"b": [1, 2]}}, {"_id": 1.0, "a": "dup"}, {"_id": 3}], "ordered": false},
            doc! {"insert": "c", "documents": [{"_id": 4}, {"_id": 2_i64}, {"_id": 5}]},
            doc! {"insert": "c", "documents": [{"a": 1, "_id": 6}, {"b": 2}, {"_id": [1]}, {"_id": {"$x": 1}}, {"_id": 7}], "ordered": false},
            doc! {"find": "c", "filter": {"_id": 2}},
            doc! {"find": "c", "filter": {"a.b": 2}},
            doc! {"update": "c", "updates": [{"q": {"_id": 1}, "u": {"$set": {"z": 1}}}, {"q": {"_id": 4}, "u": {"_id": 4, "w": 1}}]},
            doc! {"delete": "c", "deletes": [{"q": {"_id": 3}, "limit": 1}]},
            doc! {"insert": "c", "documents": [{"_id": 3, "again": true}]},
            doc! {"find": "c", "filter": {}, "sort": {"_id": 1}},
            doc! {"collStats": "c"},
            doc! {"create": "v", "validator": {"a": {"$type": "int"}}},
            doc! {"insert": "v", "documents": [{"_id": 1, "a": 1}, {"_id": 2, "a": "s"}, {"_id": 3, "a": 3}], "ordered": false},
            doc! {"createIndexes": "u", "indexes": [{"key": {"a": 1}, "name": "a_1", "unique": true}]},
            doc! {"insert": "u", "documents": [{"_id": 1, "a": 1}, {"_id": 2, "a": 1}, {"_id": 3, "a": 2}], "ordered": false},
            doc! {"create": "cap", "capped": true, "size": 4096, "max": 3},
            doc! {"insert": "cap", "documents": [{"_id": 1}, {"_id": 2}, {"_id": 3}, {"_id": 4}, {"_id": 5}]},
            doc! {"insert": "cap", "documents": [{"_id": 6, "s": "x"}]},
            doc! {"find": "cap", "filter": {}},
            doc! {"collStats": "cap"},
            doc! {"renameCollection": "t.c", "to": "t.d"},
            doc! {"find": "d", "filter": {"_id": {"$gte": 2}}},
            doc! {"aggregate": "d", "pipeline": [{"$group": {"_id": null, "n": {"$sum": 1}}}], "cursor": {}},
            doc! {"validate": "d"},
            doc! {"find": "v", "filter": {}},
            doc! {"find": "u", "filter": {}},
        ];
        let mut by_doc = twin();
        let mut by_bytes = twin();
        let mut kept = 0;
        for c in &commands {
            let bytes = c.to_vec().unwrap();
            kept += usize::from(crate::value::bson_bytes::insert_parts(&bytes).is_some());
            let a = by_doc.run_command("t", c);
            let b = by_bytes
                .run_command_encoded("t", &bytes)
                .unwrap()
                .into_document()
                .unwrap();
            assert_eq!(a, b, "{c}");
            assert_eq!(by_doc.take_changes(), by_bytes.take_changes(), "{c}");
        }
        assert_eq!(kept, 8);
    }

    #[test]
    fn dollar_prefixed_fields_inside_id_are_refused() {
        let mut e = twin();
        let r = e.run_command(
            "test",
            &doc! {"insert": "c", "documents": [{"_id": {"a": 2, "$c": 3}}, {"_id": {"x": [{"$y": 1}]}}], "ordered": false},
        );
        let errors = r.get_array("writeErrors").unwrap();
        assert_eq!(errors.len(), 2);
        let first = errors[0].as_document().unwrap();
        assert_eq!(first.get_i32("code").unwrap(), 52);
        assert_eq!(
            first.get_str("errmsg").unwrap(),
            "_id fields may not contain '$'-prefixed fields: $c is not valid for storage."
        );
        let r = e.run_command(
            "test",
            &doc! {"insert": "c", "documents": [{"_id": {"$ref": "c", "$id": 1}}]},
        );
        assert_eq!(r, doc! {"n": 1, "ok": 1.0});
    }

    #[test]
    fn an_empty_batch_is_invalid_length() {
        let mut e = twin();
        let r = e.run_command("test", &doc! {"insert": "c", "documents": []});
        assert_eq!(r.get_i32("code").unwrap(), 16);
        assert_eq!(
            r.get_str("errmsg").unwrap(),
            "Write batch sizes must be between 1 and 100000. Got 0 operations."
        );
        // The same when the documents are given away (the Node.js binding).
        let owned = e
            .run_command_owned("test", doc! {"insert": "c", "documents": []})
            .into_document()
            .unwrap();
        assert_eq!(owned, r);
    }

    #[test]
    fn insert_assigns_ids_first_and_reports_duplicates() {
        let mut e = twin();
        let r = e.run_command(
            "test",
            &doc! {"insert": "c", "documents": [{"a": 1}, {"_id": 5, "b": 2}]},
        );
        assert_eq!(r, doc! {"n": 2, "ok": 1.0});
        let r = e.run_command(
            "test",
            &doc! {"insert": "c", "documents": [{"_id": 6}, {"_id": 5}, {"_id": 7}], "ordered": false},
        );
        assert_eq!(r.get_i32("n").unwrap(), 2);
        let errs = r.get_array("writeErrors").unwrap();
        assert_eq!(errs.len(), 1);
        let w = errs[0].as_document().unwrap();
        assert_eq!(w.get_i32("index").unwrap(), 1);
        assert_eq!(w.get_i32("code").unwrap(), 11000);
        let stored = e
            .catalog()
            .collection(&crate::catalog::Namespace::new("test", "c"))
            .unwrap();
        let first = stored.iter().next().unwrap().1;
        assert!(matches!(first.iter().next(), Some((k, Bson::ObjectId(_))) if k == "_id"));
        // Every command's changes come out as one batch.
        let batch = e.take_changes();
        assert_eq!(batch.changes.len(), 1 + 2 + 2);
    }

    #[test]
    fn ordered_insert_stops_at_first_error() {
        let mut e = twin();
        e.run_command("test", &doc! {"insert": "c", "documents": [{"_id": 1}]});
        let r = e.run_command(
            "test",
            &doc! {"insert": "c", "documents": [{"_id": 2}, {"_id": 1}, {"_id": 3}]},
        );
        assert_eq!(r.get_i32("n").unwrap(), 1);
    }

    #[test]
    fn bad_documents_fail_the_command() {
        let mut e = twin();
        let r = e.run_command("test", &doc! {"insert": "c", "documents": [1]});
        assert_eq!(r.get_i32("code").unwrap(), 14);
        let r = e.run_command("test", &doc! {"insert": "c"});
        assert_eq!(r.get_i32("code").unwrap(), 40414);
        let r = e.run_command("test", &doc! {"insert": "c", "documents": [{"_id": [1]}]});
        assert_eq!(r.get_array("writeErrors").unwrap().len(), 1);
    }

    fn first_write_error(r: &bson::Document) -> (i32, String) {
        let w = r.get_array("writeErrors").unwrap()[0]
            .as_document()
            .unwrap()
            .clone();
        (
            w.get_i32("code").unwrap(),
            w.get_str("errmsg").unwrap().to_string(),
        )
    }

    #[test]
    fn a_field_name_with_nul_is_refused_with_the_drivers_message() {
        let mut e = twin();
        let r = e.run_command("test", &doc! {"insert": "c", "documents": [{"a\0b": 1}]});
        assert_eq!(
            first_write_error(&r),
            (2, "key a\0b must not contain null bytes".to_string())
        );
        let r = e.run_command("test", &doc! {"insert": "c", "documents": [{"_id": 1}]});
        assert!(crate::reply_ok(&r));
        let r = e.run_command(
            "test",
            &doc! {"update": "c", "updates": [{"q": {"_id": 1}, "u": {"$set": {"x": {"a\0b": 1}}}}]},
        );
        assert_eq!(first_write_error(&r).0, 2);
    }

    #[test]
    fn documents_nest_at_most_180_levels() {
        let nested = |levels: usize| {
            let mut d = doc! {"a": 1};
            for _ in 1..levels {
                d = doc! {"a": d};
            }
            d
        };
        let mut e = twin();
        let r = e.run_command("test", &doc! {"insert": "c", "documents": [nested(180)]});
        assert_eq!(r.get_i32("n").ok(), Some(1), "{r:?}");
        let r = e.run_command("test", &doc! {"insert": "c", "documents": [nested(181)]});
        assert_eq!(
            first_write_error(&r),
            (
                15,
                "cannot insert document because it exceeds 180 levels of nesting".to_string()
            )
        );
        // A command nested past 200 levels is refused before anything reads it.
        let r = e.run_command("test", &doc! {"find": "c", "filter": nested(250)});
        assert_eq!(r.get_i32("code").ok(), Some(15));
        assert_eq!(
            r.get_str("errmsg").ok(),
            Some("BSONObj exceeds maximum nested object depth")
        );
    }

    #[test]
    fn an_oversized_document_reports_its_size() {
        let mut e = twin();
        let s = "x".repeat(16 * 1024 * 1024);
        let r = e.run_command(
            "test",
            &doc! {"insert": "c", "documents": [{"_id": 1, "s": s}]},
        );
        let (code, message) = first_write_error(&r);
        assert_eq!(code, 2);
        assert_eq!(
            message,
            "object to insert too large. size in bytes: 16777238, max size: 16777216"
        );
    }

    #[test]
    fn a_batch_refused_before_storage_creates_no_collection() {
        let mut e = twin();
        let r = e.run_command(
            "test",
            &doc! {"insert": "c", "documents": [{"_id": [1]}, {"_id": 2}]},
        );
        assert_eq!(first_write_error(&r).0, 53);
        assert_eq!(r.get_i32("n").ok(), Some(0));
        let names = e.run_command("test", &doc! {"listCollections": 1, "nameOnly": true});
        let batch = names
            .get_document("cursor")
            .and_then(|c| c.get_array("firstBatch"))
            .map(|b| b.len())
            .ok();
        assert_eq!(batch, Some(0));
        // Unordered, one good document is enough to create it.
        let r = e.run_command(
            "test",
            &doc! {"insert": "c", "ordered": false, "documents": [{"_id": [1]}, {"_id": 2}]},
        );
        assert_eq!(r.get_i32("n").ok(), Some(1));
    }

    #[test]
    fn an_oversized_upsert_is_refused_before_it_is_inserted() {
        let mut e = twin();
        let s = "x".repeat(16 * 1024 * 1024);
        let r = e.run_command(
            "test",
            &doc! {"update": "c", "updates": [{"q": {"_id": 1}, "u": {"_id": 1, "s": s}, "upsert": true}]},
        );
        let (code, message) = first_write_error(&r);
        assert_eq!(code, 17420);
        assert_eq!(message, "Document to upsert is larger than 16777216");
        let count = e.run_command("test", &doc! {"count": "c"});
        assert_eq!(count.get_i32("n").ok(), Some(0));
    }
}
