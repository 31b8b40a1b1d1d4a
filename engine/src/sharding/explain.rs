//! `explain` through the router, in MongoDB 8.0's sharded shape: `queryPlanner.winningPlan`
//! is `SINGLE_SHARD`, `SHARD_MERGE`, `SHARD_MERGE_SORT` (a sorted find over several shards)
//! or `SHARD_WRITE`, with a `shards` array holding each targeted shard's own plan
//! (`shardName`, `connectionString`, `serverInfo`, then the shard's queryPlanner fields);
//! `executionStats` sums the shards' and lists them under `executionStages.shards`. An
//! aggregation's explain shows how the pipeline was split (`splitPipeline`) and each shard's
//! explain under `shards`.

use bson::{Bson, Document, doc};

use super::reads::int_or_long;
use super::router::Router;
use crate::error::{Error, ErrorCode, Result};

impl Router {
    pub(super) fn explain(&mut self, db: &str, command: &Document) -> Result<Document> {
        let inner = command.get_document("explain").cloned().map_err(|_| {
            Error::type_mismatch(
                "BSON field 'explain.explain' is the wrong type, expected type 'object'",
            )
        })?;
        let name = inner.keys().next().cloned().unwrap_or_default();
        let coll = inner.get_str(&name).unwrap_or("").to_string();
        let ns = format!("{db}.{coll}");
        let sharded = self.metadata.collection(&ns).is_some();
        let shards: Vec<usize> = if sharded {
            let filter = match name.as_str() {
                "find" => inner.get_document("filter").cloned().unwrap_or_default(),
                "count" | "distinct" => inner.get_document("query").cloned().unwrap_or_default(),
                "findAndModify" | "findandmodify" => {
                    inner.get_document("query").cloned().unwrap_or_default()
                }
                "update" | "delete" => {
                    let list = if name == "update" {
                        "updates"
                    } else {
                        "deletes"
                    };
                    inner
                        .get_array(list)
                        .ok()
                        .and_then(|a| a.first())
                        .and_then(Bson::as_document)
                        .and_then(|s| s.get_document("q").ok())
                        .cloned()
                        .unwrap_or_default()
                }
                "aggregate" => {
                    let pipeline = inner.get_array("pipeline").cloned().unwrap_or_default();
                    return self.explain_aggregate(db, &ns, command, &pipeline);
                }
                _ => Document::new(),
            };
            self.target_shards(&ns, &filter).0
        } else {
            vec![self.primary_index(db, false)?]
        };
        if !sharded && name == "aggregate" {
            let pipeline = inner.get_array("pipeline").cloned().unwrap_or_default();
            return self.explain_aggregate(db, &ns, command, &pipeline);
        }
        let mut replies = Vec::new();
        for &i in &shards {
            let reply = self.servers[i].run_command(db, command);
            if let Some(e) = crate::reply_error(&reply) {
                return Err(super::shard::error_with_details(e, &reply));
            }
            replies.push((i, reply));
        }
        self.last_targeted = shards
            .iter()
            .map(|&i| self.metadata.shards[i].id.clone())
            .collect();
        let write = matches!(
            name.as_str(),
            "update" | "delete" | "findAndModify" | "findandmodify"
        );
        let stage = if shards.len() == 1 {
            "SINGLE_SHARD"
        } else if write {
            "SHARD_WRITE"
        } else if name == "find" && inner.get_document("sort").is_ok_and(|s| !s.is_empty()) {
            "SHARD_MERGE_SORT"
        } else {
            "SHARD_MERGE"
        };
        Ok(self.merge_explains(stage, command, &replies))
    }

    fn shard_header(&self, i: usize, reply: &Document) -> Document {
        let shard = &self.metadata.shards[i];
        let mut server_info = reply
            .get_document("serverInfo")
            .cloned()
            .unwrap_or_default();
        server_info.insert("host", self.servers[i].serving_host(&shard.host));
        doc! {"shardName": &shard.id, "connectionString": &shard.host, "serverInfo": server_info}
    }

    fn merge_explains(
        &self,
        stage: &str,
        command: &Document,
        replies: &[(usize, Document)],
    ) -> Document {
        let mut planner_shards = Vec::new();
        let mut execution_shards = Vec::new();
        let (mut n, mut keys, mut docs, mut millis) = (0_i64, 0_i64, 0_i64, 0_i64);
        let mut has_stats = false;
        for (i, reply) in replies {
            let mut entry = self.shard_header(*i, reply);
            if let Ok(qp) = reply.get_document("queryPlanner") {
                entry.extend(qp.clone());
            }
            planner_shards.push(Bson::Document(entry));
            if let Ok(stats) = reply.get_document("executionStats") {
                has_stats = true;
                let get = |f: &str| stats.get(f).and_then(crate::value::as_i64).unwrap_or(0);
                n += get("nReturned");
                keys += get("totalKeysExamined");
                docs += get("totalDocsExamined");
                millis = millis.max(get("executionTimeMillis"));
                let mut e =
                    doc! {"shardName": &self.metadata.shards[*i].id, "executionSuccess": true};
                e.extend(stats.clone());
                execution_shards.push(Bson::Document(e));
            }
        }
        let mut out = doc! {
            "queryPlanner": {
                "mongosPlannerVersion": 1,
                "winningPlan": {"stage": stage, "shards": planner_shards},
            },
        };
        if has_stats {
            out.insert(
                "executionStats",
                doc! {
                    "nReturned": int_or_long(n),
                    "executionTimeMillis": int_or_long(millis),
                    "totalKeysExamined": int_or_long(keys),
                    "totalDocsExamined": int_or_long(docs),
                    "executionStages": {
                        "stage": stage,
                        "nReturned": int_or_long(n),
                        "executionTimeMillis": int_or_long(millis),
                        "totalKeysExamined": int_or_long(keys),
                        "totalDocsExamined": int_or_long(docs),
                        "totalChildMillis": millis,
                        "shards": execution_shards,
                    },
                },
            );
        }
        out.insert("serverInfo", self.router_server_info(replies));
        if let Ok(inner) = command.get_document("explain") {
            out.insert("command", inner.clone());
        }
        out.insert("ok", 1.0);
        out
    }

    fn router_server_info(&self, replies: &[(usize, Document)]) -> Document {
        let mut info = replies
            .first()
            .and_then(|(_, r)| r.get_document("serverInfo").ok())
            .cloned()
            .unwrap_or_default();
        info.insert("host", "localhost");
        info.insert("port", 27017);
        info
    }

    fn explain_aggregate(
        &mut self,
        db: &str,
        ns: &str,
        command: &Document,
        pipeline: &[Bson],
    ) -> Result<Document> {
        let sharded = self.metadata.collection(ns).is_some();
        let (shards, split_shards_part, merger_part) = if sharded {
            self.split_for(ns, pipeline)
        } else {
            (vec![self.primary_index(db, false)?], Vec::new(), Vec::new())
        };
        let single = shards.len() == 1;
        let shards_part: Vec<Bson> = if single {
            pipeline.to_vec()
        } else {
            split_shards_part
        };
        let mut shard_command = command.clone();
        if let Ok(mut inner) = command.get_document("explain").cloned() {
            inner.insert("pipeline", shards_part.clone());
            shard_command.insert("explain", inner);
        }
        let mut per_shard = Document::new();
        for &i in &shards {
            let reply = self.servers[i].run_command(db, &shard_command);
            if let Some(e) = crate::reply_error(&reply) {
                return Err(super::shard::error_with_details(e, &reply));
            }
            let mut entry =
                doc! {"host": self.servers[i].serving_host(&self.metadata.shards[i].host)};
            entry.extend(reply.into_iter().filter(|(k, _)| k != "ok"));
            per_shard.insert(self.metadata.shards[i].id.clone(), entry);
        }
        self.last_targeted = shards
            .iter()
            .map(|&i| self.metadata.shards[i].id.clone())
            .collect();
        let mut out = Document::new();
        if single {
            out.insert("mergeType", "primaryShard");
            out.insert("splitPipeline", Bson::Null);
        } else {
            out.insert("mergeType", "mongos");
            out.insert(
                "splitPipeline",
                doc! {"shardsPart": shards_part, "mergerPart": merger_part},
            );
        }
        out.insert("shards", per_shard);
        out.insert("ok", 1.0);
        if shards.is_empty() {
            return Err(Error::new(ErrorCode::ShardNotFound, "No shards found"));
        }
        Ok(out)
    }
}
