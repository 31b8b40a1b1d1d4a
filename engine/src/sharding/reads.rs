//! Reads of a sharded collection through the router: the filter picks the shards
//! (`targeting.rs`); one shard answers directly, several are merged. A merge puts the shards'
//! results into a private merger engine and runs the rest of the command there (a find's
//! sort, skip, limit and projection; the part of a pipeline after its first stage that needs
//! every document), so the merged answer is the one a single server would give.

use bson::{Bson, Document, doc};

use super::router::{CursorOwner, Router, first_stage_is};
use super::split_group::split_group;
use super::targeting::{KeyTarget, target};
use crate::Engine;
use crate::error::{Error, ErrorCode, Result};
use crate::value::compare_values;

/// Stages each shard can run on its own documents before the results meet.
const SHARD_STAGES: &[&str] = &[
    "$match",
    "$project",
    "$addFields",
    "$set",
    "$unset",
    "$unwind",
    "$replaceRoot",
    "$replaceWith",
    "$redact",
];

/// Stages the merger cannot run, since they read or write other collections.
const NOT_MERGEABLE: &[&str] = &["$lookup", "$graphLookup", "$unionWith", "$out", "$merge"];

impl Router {
    /// The shards (indexes) a filter on a sharded collection targets, and the key target.
    pub(super) fn target_shards(&mut self, ns: &str, filter: &Document) -> (Vec<usize>, KeyTarget) {
        let Some(entry) = self.metadata.collection(ns) else {
            return (
                Vec::new(),
                KeyTarget {
                    ranges: None,
                    exact: None,
                },
            );
        };
        let key_target = target(&entry.key, filter);
        let ids = key_target.shards(&entry.chunks, &self.metadata.shard_ids());
        let indexes: Vec<usize> = ids.iter().filter_map(|id| self.shard_index(id)).collect();
        self.last_targeted = ids;
        (indexes, key_target)
    }

    pub(super) fn find(&mut self, db: &str, coll: &str, command: &Document) -> Result<Document> {
        let filter = command.get_document("filter").cloned().unwrap_or_default();
        let (shards, _) = self.target_shards(&format!("{db}.{coll}"), &filter);
        if shards.len() == 1 {
            let targeted = self.last_targeted.clone();
            let reply = self.forward(shards[0], db, command);
            self.last_targeted = targeted;
            return Ok(reply);
        }
        let mut shard_command = command.clone();
        for field in [
            "projection",
            "skip",
            "limit",
            "batchSize",
            "singleBatch",
            "returnKey",
            "showRecordId",
        ] {
            shard_command.remove(field);
        }
        let skip = command
            .get("skip")
            .and_then(crate::value::as_i64)
            .unwrap_or(0);
        if let Some(limit) = command.get("limit").and_then(crate::value::as_i64)
            && limit > 0
        {
            shard_command.insert("limit", limit.saturating_add(skip.max(0)));
        }
        let mut docs = Vec::new();
        for &i in &shards {
            docs.extend(self.servers[i].run_to_end(db, &shard_command)?);
        }
        let mut merger = self.new_engine();
        load_merger(&mut merger, db, coll, docs, false)?;
        let mut merged = command.clone();
        merged.remove("hint");
        let reply = merger.run_command(db, &merged);
        self.keep_merger(&reply, merger);
        Ok(reply)
    }

    /// Remembers a merger engine whose cursor is still open.
    fn keep_merger(&mut self, reply: &Document, merger: Engine) {
        if let Ok(cursor) = reply.get_document("cursor")
            && let Ok(id) = cursor.get_i64("id")
            && id != 0
        {
            self.cursors
                .push((id, CursorOwner::Merger(Box::new(merger))));
        }
    }

    pub(super) fn count(&mut self, db: &str, coll: &str, command: &Document) -> Result<Document> {
        let query = command.get_document("query").cloned().unwrap_or_default();
        let (shards, _) = self.target_shards(&format!("{db}.{coll}"), &query);
        let mut shard_command = command.clone();
        shard_command.remove("skip");
        shard_command.remove("limit");
        let mut n: i64 = 0;
        for &i in &shards {
            let reply = self.servers[i].run_command(db, &shard_command);
            if let Some(e) = crate::reply_error(&reply) {
                return Err(e);
            }
            n += reply.get("n").and_then(crate::value::as_i64).unwrap_or(0);
        }
        let skip = command
            .get("skip")
            .and_then(crate::value::as_i64)
            .unwrap_or(0)
            .max(0);
        n = (n - skip).max(0);
        if let Some(limit) = command.get("limit").and_then(crate::value::as_i64)
            && limit != 0
        {
            n = n.min(limit.abs());
        }
        Ok(doc! {"n": int_or_long(n), "ok": 1.0})
    }

    pub(super) fn distinct(
        &mut self,
        db: &str,
        coll: &str,
        command: &Document,
    ) -> Result<Document> {
        let query = command.get_document("query").cloned().unwrap_or_default();
        let (shards, _) = self.target_shards(&format!("{db}.{coll}"), &query);
        let mut values: Vec<Bson> = Vec::new();
        for &i in &shards {
            let reply = self.servers[i].run_command(db, command);
            if let Some(e) = crate::reply_error(&reply) {
                return Err(e);
            }
            for v in reply.get_array("values").cloned().unwrap_or_default() {
                if !values.iter().any(|x| compare_values(x, &v).is_eq()) {
                    values.push(v);
                }
            }
        }
        crate::sort_slice::sort_by(&mut values, compare_values);
        Ok(doc! {"values": values, "ok": 1.0})
    }

    pub(super) fn aggregate(
        &mut self,
        db: &str,
        coll: &str,
        command: &Document,
    ) -> Result<Document> {
        let ns = format!("{db}.{coll}");
        if first_stage_is(command, "$collStats") {
            let shards = self.collection_shards(db, &ns);
            return self.coll_stats_stage(db, command, &shards);
        }
        let pipeline = command.get_array("pipeline").cloned().unwrap_or_default();
        let (shards, shards_part, merger_part) = self.split_for(&ns, &pipeline);
        if shards.len() == 1 {
            let targeted = self.last_targeted.clone();
            let reply = self.forward(shards[0], db, command);
            self.last_targeted = targeted;
            return Ok(reply);
        }
        if let Some(stage) = merger_part
            .iter()
            .filter_map(Bson::as_document)
            .filter_map(|d| d.keys().next())
            .find(|k| NOT_MERGEABLE.contains(&k.as_str()))
        {
            return Err(Error::new(
                ErrorCode::IllegalOperation,
                format!(
                    "{stage} on a sharded collection across several shards is not simulated by \
                     Sprout's router; filter on the shard key so that one shard answers"
                ),
            ));
        }
        let mut shard_command = doc! {"aggregate": coll, "pipeline": shards_part, "cursor": {}};
        for field in ["collation", "let", "allowDiskUse"] {
            if let Some(v) = command.get(field) {
                shard_command.insert(field, v.clone());
            }
        }
        let mut docs = Vec::new();
        for &i in &shards {
            docs.extend(self.servers[i].run_to_end(db, &shard_command)?);
        }
        let mut merger = self.new_engine();
        load_merger(&mut merger, db, coll, docs, true)?;
        let mut merged = command.clone();
        let mut merged_pipeline = vec![Bson::Document(doc! {"$replaceWith": "$d"})];
        merged_pipeline.extend(merger_part);
        merged.insert("pipeline", merged_pipeline);
        let reply = merger.run_command(db, &merged);
        self.keep_merger(&reply, merger);
        Ok(reply)
    }

    /// The shards a pipeline targets (by its leading `$match`), the stages each shard runs and
    /// the stages the merger runs. The shards run the leading stages that need no other
    /// shard's documents; a `$group` right after them is split into a partial group on each
    /// shard and a merging group (`split_group.rs`).
    pub(super) fn split_for(
        &mut self,
        ns: &str,
        pipeline: &[Bson],
    ) -> (Vec<usize>, Vec<Bson>, Vec<Bson>) {
        let filter = pipeline
            .first()
            .and_then(Bson::as_document)
            .and_then(|d| d.get_document("$match").ok())
            .cloned()
            .unwrap_or_default();
        let (shards, _) = self.target_shards(ns, &filter);
        let split = pipeline
            .iter()
            .position(|s| {
                !s.as_document()
                    .and_then(|d| d.keys().next())
                    .is_some_and(|k| SHARD_STAGES.contains(&k.as_str()))
            })
            .unwrap_or(pipeline.len());
        let mut shards_part = pipeline[..split].to_vec();
        let mut merger_part = pipeline[split..].to_vec();
        let group = merger_part
            .first()
            .and_then(Bson::as_document)
            .filter(|stage| stage.len() == 1)
            .and_then(|stage| stage.get_document("$group").ok());
        if let Some((partial, merging)) = group.and_then(split_group) {
            shards_part.push(Bson::Document(doc! {"$group": partial}));
            merger_part.splice(0..1, merging);
        }
        (shards, shards_part, merger_part)
    }
}

/// Fills the merger's copy of the collection with the shards' results; `wrapped` keeps each
/// result whole under `d` (pipeline results may repeat or lack `_id`), in arrival order.
fn load_merger(
    merger: &mut Engine,
    db: &str,
    coll: &str,
    docs: Vec<Document>,
    wrapped: bool,
) -> Result<()> {
    let documents: Vec<Bson> = docs
        .into_iter()
        .enumerate()
        .map(|(i, d)| {
            if wrapped {
                Bson::Document(doc! {"_id": i as i64, "d": d})
            } else {
                Bson::Document(d)
            }
        })
        .collect();
    let reply = merger.run_command(db, &doc! {"create": coll});
    if let Some(e) = crate::reply_error(&reply) {
        return Err(e);
    }
    for chunk in documents.chunks(1000) {
        merger.run_command(
            db,
            &doc! {"insert": coll, "documents": chunk.to_vec(), "ordered": false},
        );
    }
    merger.take_changes();
    Ok(())
}

/// A count as MongoDB writes it: an int32 when it fits.
pub(super) fn int_or_long(n: i64) -> Bson {
    i32::try_from(n).map(Bson::Int32).unwrap_or(Bson::Int64(n))
}
