//! Writes to a sharded collection through the router, with MongoDB 8.0's rules: an insert
//! goes to the chunk its shard key value falls in (a missing key field counts as null);
//! `updateOne`/`deleteOne`/`findAndModify` without the shard key are allowed (the first shard
//! holding a match applies it); an upsert needs the whole shard key fixed by its filter; an
//! update may change a document's shard key value (the shell's writes are retryable, as
//! mongosh's are), and a document whose new key belongs to another shard's chunk moves there.

use bson::{Bson, Document, doc};

use super::reads::int_or_long;
use super::router::Router;
use super::shard::error_with_details;
use crate::error::{Error, ErrorCode, Result};

/// A statement's (matched, modified, upserted `_id`).
type Outcome = (i64, i64, Option<Bson>);
/// A statement's error, with the shard's `writeErrors` entry when there is one.
type Failure = Box<(Error, Option<Document>)>;

impl Router {
    pub(super) fn insert(&mut self, db: &str, coll: &str, command: &Document) -> Result<Document> {
        let ns = format!("{db}.{coll}");
        let ordered = command.get_bool("ordered").unwrap_or(true);
        let documents = command.get_array("documents").cloned().unwrap_or_default();
        let mut n: i64 = 0;
        let mut write_errors: Vec<Bson> = Vec::new();
        let mut targeted: Vec<String> = Vec::new();
        for (index, item) in documents.iter().enumerate() {
            let Bson::Document(original) = item else {
                continue;
            };
            let mut document = original.clone();
            if !document.contains_key("_id") {
                let id = self.config_server.new_object_id();
                let mut with_id = doc! {"_id": id};
                with_id.extend(document);
                document = with_id;
            }
            let placed = self.chunk_for_document(&ns, &document);
            let (shard, chunk) = match placed {
                Ok(p) => p,
                Err(e) => {
                    write_errors.push(write_error(index, &e, None));
                    if ordered {
                        break;
                    }
                    continue;
                }
            };
            let mut cmd = doc! {"insert": coll, "documents": [document.clone()]};
            for field in ["bypassDocumentValidation", "writeConcern"] {
                if let Some(v) = command.get(field) {
                    cmd.insert(field, v.clone());
                }
            }
            let reply = self.servers[shard].run_command(db, &cmd);
            if let Some(e) = crate::reply_error(&reply) {
                return Err(error_with_details(e, &reply));
            }
            if let Ok(errors) = reply.get_array("writeErrors")
                && let Some(Bson::Document(first)) = errors.first()
            {
                let mut first = first.clone();
                first.insert("index", index as i32);
                write_errors.push(Bson::Document(first));
                if ordered {
                    break;
                }
                continue;
            }
            n += 1;
            let id = &self.metadata.shards[shard].id;
            if !targeted.contains(id) {
                targeted.push(id.clone());
            }
            let size = crate::value::bson_size::document_size(&document);
            self.note_write(&ns, chunk, size);
        }
        self.last_targeted = targeted;
        let mut reply = doc! {"n": int_or_long(n)};
        if !write_errors.is_empty() {
            reply.insert("writeErrors", write_errors);
        }
        reply.insert("ok", 1.0);
        Ok(reply)
    }

    /// The shard (index) and chunk (index) a document belongs to.
    pub(super) fn chunk_for_document(
        &self,
        ns: &str,
        document: &Document,
    ) -> Result<(usize, usize)> {
        let entry = self.metadata.collection(ns).ok_or_else(|| {
            Error::new(
                ErrorCode::NamespaceNotSharded,
                format!("{ns} is not sharded"),
            )
        })?;
        let key = entry.key.extract(document)?;
        let chunk = entry.chunks.find(&key);
        let shard = self
            .shard_index(&entry.chunks.chunks[chunk].shard)
            .unwrap_or(0);
        Ok((shard, chunk))
    }

    pub(super) fn update(&mut self, db: &str, coll: &str, command: &Document) -> Result<Document> {
        let ns = format!("{db}.{coll}");
        let ordered = command.get_bool("ordered").unwrap_or(true);
        let statements = command.get_array("updates").cloned().unwrap_or_default();
        let (mut n, mut modified) = (0_i64, 0_i64);
        let mut upserted: Vec<Bson> = Vec::new();
        let mut write_errors: Vec<Bson> = Vec::new();
        for (index, item) in statements.iter().enumerate() {
            let Bson::Document(statement) = item else {
                continue;
            };
            match self.update_statement(db, coll, &ns, statement) {
                Ok((sn, sm, up)) => {
                    n += sn;
                    modified += sm;
                    if let Some(id) = up {
                        upserted.push(Bson::Document(doc! {"index": index as i32, "_id": id}));
                    }
                }
                Err(failure) => {
                    let (e, reply) = *failure;
                    write_errors.push(write_error(index, &e, reply.as_ref()));
                    if ordered {
                        break;
                    }
                }
            }
        }
        let mut reply =
            doc! {"n": int_or_long(n + upserted.len() as i64), "nModified": int_or_long(modified)};
        if !upserted.is_empty() {
            reply.insert("upserted", upserted);
        }
        if !write_errors.is_empty() {
            reply.insert("writeErrors", write_errors);
        }
        reply.insert("ok", 1.0);
        Ok(reply)
    }

    /// One update statement: (matched, modified, upserted `_id`).
    fn update_statement(
        &mut self,
        db: &str,
        coll: &str,
        ns: &str,
        statement: &Document,
    ) -> std::result::Result<Outcome, Failure> {
        let q = statement.get_document("q").cloned().unwrap_or_default();
        let multi = statement.get_bool("multi").unwrap_or(false);
        let upsert = statement.get_bool("upsert").unwrap_or(false);
        let touches_key = self.update_touches_key(ns, statement.get("u"));
        let (shards, key_target) = self.target_shards(ns, &q);
        if upsert && key_target.exact.is_none() {
            return Err(Box::new((
                Error::new(
                    ErrorCode::ShardKeyNotFound,
                    "Failed to target upsert by query :: could not extract exact shard key",
                ),
                None,
            )));
        }
        let plain = !touches_key && (multi || shards.len() == 1);
        if plain {
            let (mut n, mut m, mut up) = (0, 0, None);
            for &i in &shards {
                let reply = self.servers[i]
                    .run_command(db, &doc! {"update": coll, "updates": [statement.clone()]});
                let (sn, sm, sup) = statement_outcome(&reply)?;
                n += sn;
                m += sm;
                up = up.or(sup);
                if let Some(id) = &up {
                    self.note_upsert(db, ns, i, id);
                }
            }
            return Ok((n, m, up));
        }
        if multi
            && touches_key
            && self.multi_update_changes_key(db, coll, ns, &shards, statement)?
        {
            // update_stage's rule (8.0): a shard key value may change only in a single update.
            return Err(Box::new((
                Error::new(
                    ErrorCode::InvalidOptions,
                    "Multi-update operations are not allowed when updating the shard key field.",
                ),
                None,
            )));
        }
        // Document by document: find a match, update it by _id, then move it if its new shard
        // key value belongs to another shard.
        let (mut n, mut m) = (0, 0);
        for &i in &shards {
            let mut find = doc! {"find": coll, "filter": q.clone(), "projection": {"_id": 1}};
            if !multi {
                find.insert("limit", 1);
                if let Some(sort) = statement.get("sort") {
                    find.insert("sort", sort.clone());
                }
            }
            let matches = self.servers[i]
                .run_to_end(db, &find)
                .map_err(|e| Box::new((e, None)))?;
            for found in matches {
                let Some(id) = found.get("_id").cloned() else {
                    continue;
                };
                let mut single = statement.clone();
                single.insert("q", doc! {"$and": [q.clone(), {"_id": id.clone()}]});
                single.insert("multi", false);
                single.insert("upsert", false);
                single.remove("sort");
                let reply =
                    self.servers[i].run_command(db, &doc! {"update": coll, "updates": [single]});
                let (sn, sm, _) = statement_outcome(&reply)?;
                n += sn;
                m += sm;
                if touches_key && sm > 0 {
                    self.rehome(db, coll, ns, i, &id)
                        .map_err(|e| Box::new((e, None)))?;
                }
            }
            if !multi && n > 0 {
                break;
            }
        }
        if n == 0 && upsert && shards.len() == 1 {
            let reply = self.servers[shards[0]]
                .run_command(db, &doc! {"update": coll, "updates": [statement.clone()]});
            return statement_outcome(&reply);
        }
        Ok((n, m, None))
    }

    /// Whether a multi-update would change the shard key value of a document it matches: each
    /// match is updated on a scratch engine first, nothing on the shards.
    fn multi_update_changes_key(
        &mut self,
        db: &str,
        coll: &str,
        ns: &str,
        shards: &[usize],
        statement: &Document,
    ) -> std::result::Result<bool, Failure> {
        let Some(key) = self.metadata.collection(ns).map(|c| c.key.clone()) else {
            return Ok(false);
        };
        let q = statement.get_document("q").cloned().unwrap_or_default();
        for &i in shards {
            let matches = self.servers[i]
                .run_to_end(db, &doc! {"find": coll, "filter": q.clone()})
                .map_err(|e| Box::new((e, None)))?;
            for document in matches {
                let before = key.extract(&document).map_err(|e| Box::new((e, None)))?;
                let mut scratch = self.new_engine();
                scratch.run_command(db, &doc! {"insert": coll, "documents": [document]});
                let mut single = statement.clone();
                single.insert("multi", false);
                single.insert("upsert", false);
                let reply = scratch.run_command(db, &doc! {"update": coll, "updates": [single]});
                statement_outcome(&reply)?;
                let after = scratch
                    .run_command(db, &doc! {"find": coll})
                    .get_document("cursor")
                    .ok()
                    .and_then(|c| c.get_array("firstBatch").ok())
                    .and_then(|b| b.first())
                    .and_then(Bson::as_document)
                    .map(|d| key.extract(d))
                    .transpose()
                    .map_err(|e| Box::new((e, None)))?;
                if after.is_some_and(|a| super::shard_key::compare_keys(&a, &before).is_ne()) {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// Whether an update (`u`) can change a shard key field: a replacement always may; an
    /// operator update when one of its paths is a key field, a parent or a child of one; a
    /// pipeline update may.
    fn update_touches_key(&self, ns: &str, update: Option<&Bson>) -> bool {
        let Some(entry) = self.metadata.collection(ns) else {
            return false;
        };
        let Some(Bson::Document(u)) = update else {
            return true;
        };
        if !u.keys().any(|k| k.starts_with('$')) {
            return true;
        }
        u.values().filter_map(Bson::as_document).any(|fields| {
            fields.keys().any(|path| {
                entry.key.field_names().any(|key| {
                    path == key
                        || key.starts_with(&format!("{path}."))
                        || path.starts_with(&format!("{key}."))
                })
            })
        })
    }

    /// Moves a document whose shard key value changed to the shard owning its new key.
    fn rehome(&mut self, db: &str, coll: &str, ns: &str, from: usize, id: &Bson) -> Result<()> {
        let docs = self.servers[from]
            .run_to_end(db, &doc! {"find": coll, "filter": {"_id": id.clone()}})?;
        let Some(document) = docs.into_iter().next() else {
            return Ok(());
        };
        let (to, _) = self.chunk_for_document(ns, &document)?;
        if to == from {
            return Ok(());
        }
        let reply =
            self.servers[to].run_command(db, &doc! {"insert": coll, "documents": [document]});
        if let Some(e) = crate::reply_error(&reply) {
            return Err(e);
        }
        if let Ok(errors) = reply.get_array("writeErrors")
            && let Some(Bson::Document(first)) = errors.first()
        {
            return Err(Error::new(
                ErrorCode::from_code(first.get_i32("code").unwrap_or(1)),
                first.get_str("errmsg").unwrap_or("").to_string(),
            ));
        }
        self.servers[from].run_command(
            db,
            &doc! {"delete": coll, "deletes": [{"q": {"_id": id.clone()}, "limit": 1}]},
        );
        Ok(())
    }

    /// Counts an upserted document's bytes against its chunk.
    fn note_upsert(&mut self, db: &str, ns: &str, shard: usize, id: &Bson) {
        let coll = ns.split_once('.').map(|(_, c)| c).unwrap_or("");
        if let Ok(docs) =
            self.servers[shard].run_to_end(db, &doc! {"find": coll, "filter": {"_id": id.clone()}})
            && let Some(d) = docs.first()
            && let Ok((_, chunk)) = self.chunk_for_document(ns, d)
        {
            let size = crate::value::bson_size::document_size(d);
            self.note_write(ns, chunk, size);
        }
    }

    pub(super) fn delete(&mut self, db: &str, coll: &str, command: &Document) -> Result<Document> {
        let ns = format!("{db}.{coll}");
        let ordered = command.get_bool("ordered").unwrap_or(true);
        let statements = command.get_array("deletes").cloned().unwrap_or_default();
        let mut n = 0_i64;
        let mut write_errors: Vec<Bson> = Vec::new();
        for (index, item) in statements.iter().enumerate() {
            let Bson::Document(statement) = item else {
                continue;
            };
            let q = statement.get_document("q").cloned().unwrap_or_default();
            let one = statement.get("limit").and_then(crate::value::as_i64) == Some(1);
            let (shards, _) = self.target_shards(&ns, &q);
            let mut failed = false;
            for &i in &shards {
                let reply = self.servers[i]
                    .run_command(db, &doc! {"delete": coll, "deletes": [statement.clone()]});
                match statement_outcome(&reply) {
                    Ok((sn, _, _)) => n += sn,
                    Err(failure) => {
                        let (e, r) = *failure;
                        write_errors.push(write_error(index, &e, r.as_ref()));
                        failed = true;
                        break;
                    }
                }
                if one && n > 0 {
                    break;
                }
            }
            if failed && ordered {
                break;
            }
        }
        let mut reply = doc! {"n": int_or_long(n)};
        if !write_errors.is_empty() {
            reply.insert("writeErrors", write_errors);
        }
        reply.insert("ok", 1.0);
        Ok(reply)
    }

    pub(super) fn find_and_modify(
        &mut self,
        db: &str,
        coll: &str,
        command: &Document,
    ) -> Result<Document> {
        let ns = format!("{db}.{coll}");
        let query = command.get_document("query").cloned().unwrap_or_default();
        let upsert = command.get_bool("upsert").unwrap_or(false);
        let (shards, key_target) = self.target_shards(&ns, &query);
        if upsert && key_target.exact.is_none() {
            return Err(Error::new(
                ErrorCode::ShardKeyNotFound,
                "Query for sharded findAndModify must contain the shard key",
            ));
        }
        let touches_key = !command.get_bool("remove").unwrap_or(false)
            && self.update_touches_key(&ns, command.get("update"));
        let mut last = None;
        for &i in &shards {
            let reply = self.servers[i].run_command(db, command);
            if let Some(e) = crate::reply_error(&reply) {
                return Err(error_with_details(e, &reply));
            }
            let n = reply
                .get_document("lastErrorObject")
                .ok()
                .and_then(|l| l.get("n"))
                .and_then(crate::value::as_i64)
                .unwrap_or(0);
            if n > 0 {
                let id = reply
                    .get_document("lastErrorObject")
                    .ok()
                    .and_then(|l| l.get("upserted").cloned())
                    .or_else(|| {
                        reply
                            .get_document("value")
                            .ok()
                            .and_then(|v| v.get("_id").cloned())
                    });
                if touches_key && let Some(id) = &id {
                    self.rehome(db, coll, &ns, i, id)?;
                }
                self.last_targeted = vec![self.metadata.shards[i].id.clone()];
                return Ok(reply);
            }
            last = Some(reply);
        }
        Ok(last.unwrap_or_else(|| {
            doc! {"lastErrorObject": {"n": 0, "updatedExisting": false}, "value": Bson::Null, "ok": 1.0}
        }))
    }
}

/// A shard's reply to a one-statement update or delete: (n, nModified, upserted `_id`), or
/// its write error.
fn statement_outcome(reply: &Document) -> std::result::Result<Outcome, Failure> {
    if let Some(e) = crate::reply_error(reply) {
        return Err(Box::new((e, None)));
    }
    if let Ok(errors) = reply.get_array("writeErrors")
        && let Some(Bson::Document(first)) = errors.first()
    {
        let e = Error::new(
            ErrorCode::from_code(first.get_i32("code").unwrap_or(1)),
            first.get_str("errmsg").unwrap_or("").to_string(),
        );
        return Err(Box::new((e, Some(first.clone()))));
    }
    let upserted = reply
        .get_array("upserted")
        .ok()
        .and_then(|a| a.first())
        .and_then(Bson::as_document)
        .and_then(|d| d.get("_id").cloned());
    let n = reply.get("n").and_then(crate::value::as_i64).unwrap_or(0);
    let modified = reply
        .get("nModified")
        .and_then(crate::value::as_i64)
        .unwrap_or(0);
    Ok((n - i64::from(upserted.is_some()), modified, upserted))
}

/// A `writeErrors` entry for statement `index`: the shard's own entry (with its details) when
/// there is one.
fn write_error(index: usize, e: &Error, shard_entry: Option<&Document>) -> Bson {
    let mut entry = match shard_entry {
        Some(d) => d.clone(),
        None => doc! {"code": e.code(), "errmsg": e.message.clone()},
    };
    entry.insert("index", index as i32);
    Bson::Document(entry)
}
