//! The simulated oplog: one entry per write, in MongoDB's `local.oplog.rs` shape (`op` `i`,
//! `u`, `d`, `c` or `n`, `ns`, `o`, `o2`, `ts`, `t`, `v`, `wall`), each carrying the primary's
//! change batch that a secondary applies. Updates are logged as replacements (`o` is the whole
//! new document, `o2` its `_id`), which is what an idempotent oplog entry means; MongoDB 8.0
//! logs most updates as `$v: 2` diffs instead (a documented difference).

use std::collections::HashMap;

use bson::{Bson, Document, Timestamp, doc};

use crate::catalog::Namespace;
use crate::clock::ClusterClock;
use crate::storage::{Change, ChangeBatch};
use crate::value;

/// The capped size of each member's `local.oplog.rs` in Sprout (MongoDB sizes it from the
/// disk, 990 MB at least on 64-bit systems; the simulation keeps it small).
pub const OPLOG_SIZE_BYTES: i64 = 16 * 1024 * 1024;

/// One oplog entry.
#[derive(Debug, Clone, PartialEq)]
pub struct OplogEntry {
    pub ts: Timestamp,
    pub term: i64,
    pub wall_ms: i64,
    /// The entry as `local.oplog.rs` shows it.
    pub document: Document,
    /// What applying the entry changes.
    pub changes: ChangeBatch,
}

/// Turns change batches into entries, remembering what it needs to write them as MongoDB does
/// (which record ids hold which `_id`, which collections exist with which indexes).
#[derive(Debug, Default, Clone)]
pub struct OplogWriter {
    ids: HashMap<(Namespace, u64), Bson>,
    collections: HashMap<Namespace, Document>,
    clock: ClusterClock,
}

impl OplogWriter {
    /// The next timestamp: seconds of `now_ms`, the increment counting within a second.
    fn next_ts(&mut self, now_ms: i64) -> Timestamp {
        self.clock.tick(now_ms)
    }

    /// A no-op entry (`op: "n"`), as written when a set is initiated or a primary is elected.
    pub fn noop(&mut self, message: &str, term: i64, now_ms: i64) -> OplogEntry {
        let ts = self.next_ts(now_ms);
        let document = entry_doc("n", "", doc! {"msg": message}, None, ts, term, now_ms);
        OplogEntry {
            ts,
            term,
            wall_ms: now_ms,
            document,
            changes: ChangeBatch::default(),
        }
    }

    /// The entries for one command's changes (one per document or collection change).
    pub fn entries(&mut self, batch: &ChangeBatch, term: i64, now_ms: i64) -> Vec<OplogEntry> {
        let mut out = Vec::new();
        for change in &batch.changes {
            let (op, ns, o, o2) = self.describe(change);
            let ts = self.next_ts(now_ms);
            let document = entry_doc(op, &ns, o, o2, ts, term, now_ms);
            out.push(OplogEntry {
                ts,
                term,
                wall_ms: now_ms,
                document,
                changes: ChangeBatch {
                    changes: vec![change.clone()],
                },
            });
        }
        out
    }

    fn describe(&mut self, change: &Change) -> (&'static str, String, Document, Option<Document>) {
        match change {
            Change::PutDocument {
                ns,
                record_id,
                bson,
            } => {
                let doc = value::bson_bytes::decode_document(bson).unwrap_or_default();
                let id = doc.get("_id").cloned().unwrap_or(Bson::Null);
                let key = (ns.clone(), *record_id);
                let previous = self.ids.insert(key, id.clone());
                match previous {
                    Some(_) => ("u", ns.to_string(), doc, Some(doc! {"_id": id})),
                    None => ("i", ns.to_string(), doc, None),
                }
            }
            Change::DeleteDocument { ns, record_id } => {
                let id = self
                    .ids
                    .remove(&(ns.clone(), *record_id))
                    .unwrap_or(Bson::Null);
                ("d", ns.to_string(), doc! {"_id": id}, None)
            }
            Change::DropCollection { ns } => {
                self.collections.remove(ns);
                self.ids.retain(|(n, _), _| n != ns);
                (
                    "c",
                    format!("{}.$cmd", ns.db),
                    doc! {"drop": &ns.coll},
                    None,
                )
            }
            Change::PutCollection { ns, options } => {
                let previous = self.collections.insert(ns.clone(), options.clone());
                let o = collection_command(&ns.coll, previous.as_ref(), options);
                ("c", format!("{}.$cmd", ns.db), o, None)
            }
        }
    }
}

/// The command a collection change is logged as: `create` for a new collection,
/// `createIndexes`/`dropIndexes` when its index list grew or shrank, else `collMod`.
fn collection_command(coll: &str, previous: Option<&Document>, options: &Document) -> Document {
    let index_names = |d: &Document| -> Vec<(String, Document)> {
        match d.get("$indexes") {
            Some(Bson::Array(list)) => list
                .iter()
                .filter_map(|s| match s {
                    Bson::Document(s) => {
                        Some((s.get_str("name").unwrap_or("").to_string(), s.clone()))
                    }
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        }
    };
    let Some(previous) = previous else {
        let mut o = doc! {"create": coll};
        for (k, v) in options {
            if k != "$indexes" {
                o.insert(k.clone(), v.clone());
            }
        }
        return o;
    };
    let before = index_names(previous);
    let after = index_names(options);
    if let Some((_, spec)) = after
        .iter()
        .find(|(n, _)| !before.iter().any(|(b, _)| b == n))
    {
        let mut o = doc! {"createIndexes": coll};
        o.extend(spec.clone());
        return o;
    }
    if let Some((name, _)) = before
        .iter()
        .find(|(n, _)| !after.iter().any(|(a, _)| a == n))
    {
        return doc! {"dropIndexes": coll, "index": name};
    }
    doc! {"collMod": coll}
}

fn entry_doc(
    op: &str,
    ns: &str,
    o: Document,
    o2: Option<Document>,
    ts: Timestamp,
    term: i64,
    wall_ms: i64,
) -> Document {
    let mut d = doc! {"op": op, "ns": ns, "o": o};
    if let Some(o2) = o2 {
        d.insert("o2", o2);
    }
    d.insert("ts", ts);
    d.insert("t", term);
    d.insert("v", 2_i64);
    d.insert("wall", bson::DateTime::from_millis(wall_ms));
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inserts_updates_and_deletes_are_logged_as_mongodb_logs_them() {
        let ns = Namespace::new("test", "c");
        let bytes = |d: Document| d.to_vec().unwrap();
        let batch = ChangeBatch {
            changes: vec![
                Change::PutCollection {
                    ns: ns.clone(),
                    options: Document::new(),
                },
                Change::PutDocument {
                    ns: ns.clone(),
                    record_id: 1,
                    bson: bytes(doc! {"_id": 7, "x": 1}),
                },
                Change::PutDocument {
                    ns: ns.clone(),
                    record_id: 1,
                    bson: bytes(doc! {"_id": 7, "x": 2}),
                },
                Change::DeleteDocument {
                    ns: ns.clone(),
                    record_id: 1,
                },
            ],
        };
        let mut writer = OplogWriter::default();
        let entries = writer.entries(&batch, 1, 5_000);
        let ops: Vec<&str> = entries
            .iter()
            .map(|e| e.document.get_str("op").unwrap())
            .collect();
        assert_eq!(ops, ["c", "i", "u", "d"]);
        assert_eq!(entries[0].document.get_str("ns").unwrap(), "test.$cmd");
        assert_eq!(
            entries[3].document.get_document("o").unwrap(),
            &doc! {"_id": 7}
        );
        assert_eq!(
            entries[3].ts,
            Timestamp {
                time: 5,
                increment: 4
            }
        );
    }
}
