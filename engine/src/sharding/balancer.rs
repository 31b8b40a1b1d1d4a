//! Chunk splits, migrations and the balancer, over simulated time. A chunk that has had more
//! than the chunk size written into it is split at its median key (as mongos's auto-splitter
//! did); every `BALANCER_ROUND_INTERVAL_MS` of simulated time, unless stopped, the balancer
//! first moves chunks that lie in a zone onto a shard of that zone, then, as MongoDB 8.0
//! balances by data size, moves a chunk from the shard holding the most of a collection's
//! data to the one holding the least when they differ by three chunk sizes or more.

use bson::{Bson, Document, doc};

use super::router::{BALANCER_ROUND_INTERVAL_MS, Router};
use super::shard_key::{KeyValues, compare_keys};
use crate::error::Result;

impl Router {
    /// Counts bytes written into a chunk; past the chunk size the chunk is split.
    pub(super) fn note_write(&mut self, ns: &str, chunk: usize, bytes: usize) {
        let limit = self.chunk_size_bytes;
        let Some(entry) = self.metadata.collection_mut(ns) else {
            return;
        };
        let Some(c) = entry.chunks.chunks.get_mut(chunk) else {
            return;
        };
        c.bytes_written += bytes;
        if c.bytes_written < limit {
            return;
        }
        c.bytes_written = 0;
        // Split while the chunk's data is over the chunk size and a median exists.
        let mut index = chunk;
        for _ in 0..64 {
            let Ok((docs_size, median)) = self.chunk_size_and_median(ns, index) else {
                return;
            };
            if docs_size <= limit {
                return;
            }
            let Some(median) = median else { return };
            let Some(entry) = self.metadata.collection_mut(ns) else {
                return;
            };
            if entry.chunks.split_at(median.clone()).is_err() {
                return;
            }
            let now = bson::DateTime::from_millis(self.now_millis());
            let key = self.metadata.collection(ns).map(|c| c.key.clone());
            if let Some(key) = key {
                self.metadata.changelog.push(doc! {"what": "split", "ns": ns, "time": now, "details": {"splitPoint": key.key_document(&median)}});
            }
            // Keep splitting the bigger half: the left one first.
            let (left_size, _) = self.chunk_size_and_median(ns, index).unwrap_or((0, None));
            if left_size <= limit {
                index += 1;
            }
        }
    }

    /// The documents of chunk `index` on its shard, with their key values, in key order.
    fn chunk_documents(&mut self, ns: &str, index: usize) -> Result<Vec<(KeyValues, Document)>> {
        let Some(entry) = self.metadata.collection(ns) else {
            return Ok(Vec::new());
        };
        let chunk = entry.chunks.chunks[index].clone();
        let key = entry.key.clone();
        let shard = self.shard_index(&chunk.shard).unwrap_or(0);
        let (db, coll) = ns.split_once('.').unwrap_or((ns, ""));
        let docs = self.servers[shard].run_to_end(db, &doc! {"find": coll})?;
        let mut keyed: Vec<(KeyValues, Document)> = docs
            .into_iter()
            .filter_map(|d| key.extract(&d).ok().map(|k| (k, d)))
            .filter(|(k, _)| chunk.contains(k))
            .collect();
        crate::sort_slice::sort_by(&mut keyed, |a, b| compare_keys(&a.0, &b.0));
        Ok(keyed)
    }

    fn chunk_size_and_median(
        &mut self,
        ns: &str,
        index: usize,
    ) -> Result<(usize, Option<KeyValues>)> {
        let docs = self.chunk_documents(ns, index)?;
        let size = docs
            .iter()
            .map(|(_, d)| crate::value::bson_size::document_size(d))
            .sum();
        Ok((size, median_of(ns, &docs, self, index)))
    }

    /// The key that splits chunk `index` in half by document count (none when every document
    /// has the chunk's lowest key).
    pub(super) fn median_key(&mut self, ns: &str, index: usize) -> Result<Option<KeyValues>> {
        let docs = self.chunk_documents(ns, index)?;
        Ok(median_of(ns, &docs, self, index))
    }

    /// Moves chunk `index` of `ns` to shard `to`: its documents are copied there (with the
    /// collection's indexes) and deleted from the donor; the chunk takes a new major version.
    pub(super) fn migrate(&mut self, ns: &str, index: usize, to: usize) -> Result<()> {
        let Some(entry) = self.metadata.collection(ns) else {
            return Ok(());
        };
        let chunk = entry.chunks.chunks[index].clone();
        let key = entry.key.clone();
        let from = self.shard_index(&chunk.shard).unwrap_or(0);
        if from == to {
            return Ok(());
        }
        let (db, coll) = ns.split_once('.').unwrap_or((ns, ""));
        let indexes = self.servers[from]
            .run_to_end(db, &doc! {"listIndexes": coll})
            .unwrap_or_default();
        self.ensure_collection_on(db, coll, to, &indexes)?;
        let docs = self.chunk_documents(ns, index)?;
        let ids: Vec<Bson> = docs
            .iter()
            .filter_map(|(_, d)| d.get("_id").cloned())
            .collect();
        let moving: Vec<Bson> = docs.into_iter().map(|(_, d)| Bson::Document(d)).collect();
        for batch in moving.chunks(1000) {
            let reply = self.servers[to].run_command(
                db,
                &doc! {"insert": coll, "documents": batch.to_vec(), "ordered": false},
            );
            if let Some(e) = crate::reply_error(&reply) {
                return Err(e);
            }
        }
        for batch in ids.chunks(1000) {
            self.servers[from].run_command(db, &doc! {"delete": coll, "deletes": [{"q": {"_id": {"$in": batch.to_vec()}}, "limit": 0}]});
        }
        let to_id = self.metadata.shards[to].id.clone();
        if let Some(entry) = self.metadata.collection_mut(ns) {
            entry.chunks.move_chunk(index, &to_id);
        }
        let now = bson::DateTime::from_millis(self.now_millis());
        self.metadata.changelog.push(doc! {
            "what": "moveChunk.from", "ns": ns, "time": now,
            "details": {"min": key.key_document(&chunk.min), "max": key.key_document(&chunk.max),
                        "from": &chunk.shard, "to": to_id, "note": "success"},
        });
        Ok(())
    }

    /// Runs the balancer rounds whose time has come.
    pub(super) fn run_due_balancer_rounds(&mut self) {
        let now = self.now_millis();
        while self.last_balancer_round_ms + BALANCER_ROUND_INTERVAL_MS <= now {
            self.last_balancer_round_ms += BALANCER_ROUND_INTERVAL_MS;
            if !self.metadata.balancer_stopped {
                self.balancer_round();
            }
        }
    }

    /// One round: zone moves first, then one data-size move per collection.
    pub fn balancer_round(&mut self) {
        self.balancer_rounds += 1;
        let namespaces: Vec<String> = self
            .metadata
            .collections
            .iter()
            .filter(|c| !c.no_balance)
            .map(|c| c.namespace.clone())
            .collect();
        for ns in namespaces {
            self.split_at_zone_bounds(&ns);
            if self.zone_round(&ns) {
                continue;
            }
            self.size_round(&ns);
        }
    }

    /// The zone a chunk lies in (the zone range holding its lower bound), if any.
    fn chunk_zone(&self, ns: &str, index: usize) -> Option<String> {
        let entry = self.metadata.collection(ns)?;
        let chunk = &entry.chunks.chunks[index];
        self.metadata
            .zones
            .iter()
            .filter(|z| z.namespace == ns)
            .find_map(|z| {
                let lo = entry.key.values_of_bound(&z.min).ok()?;
                let hi = entry.key.values_of_bound(&z.max).ok()?;
                (compare_keys(&lo, &chunk.min).is_le() && compare_keys(&chunk.min, &hi).is_lt())
                    .then(|| z.zone.clone())
            })
    }

    fn split_at_zone_bounds(&mut self, ns: &str) {
        let bounds: Vec<KeyValues> = match self.metadata.collection(ns) {
            Some(entry) => self
                .metadata
                .zones
                .iter()
                .filter(|z| z.namespace == ns)
                .flat_map(|z| {
                    [
                        entry.key.values_of_bound(&z.min).ok(),
                        entry.key.values_of_bound(&z.max).ok(),
                    ]
                })
                .flatten()
                .collect(),
            None => return,
        };
        if let Some(entry) = self.metadata.collection_mut(ns) {
            for b in bounds {
                let i = entry.chunks.find(&b);
                if compare_keys(&entry.chunks.chunks[i].min, &b).is_ne() {
                    let _ = entry.chunks.split_at(b);
                }
            }
        }
    }

    /// Moves the first chunk that sits outside its zone's shards; whether one moved.
    fn zone_round(&mut self, ns: &str) -> bool {
        let count = self
            .metadata
            .collection(ns)
            .map(|c| c.chunks.chunks.len())
            .unwrap_or(0);
        for index in 0..count {
            let Some(zone) = self.chunk_zone(ns, index) else {
                continue;
            };
            let owner = self
                .metadata
                .collection(ns)
                .map(|c| c.chunks.chunks[index].shard.clone())
                .unwrap_or_default();
            let candidates: Vec<usize> = (0..self.metadata.shards.len())
                .filter(|&i| self.metadata.shards[i].zones.contains(&zone))
                .collect();
            if candidates.is_empty()
                || candidates
                    .iter()
                    .any(|&i| self.metadata.shards[i].id == owner)
            {
                continue;
            }
            let ids = self.metadata.shard_ids();
            let counts = self
                .metadata
                .collection(ns)
                .map(|c| c.chunks.counts(&ids))
                .unwrap_or_default();
            let to = *candidates
                .iter()
                .min_by_key(|&&i| counts[i].1)
                .unwrap_or(&candidates[0]);
            return self.migrate(ns, index, to).is_ok();
        }
        false
    }

    /// MongoDB 8.0's rule: move when the most and least loaded shards differ by at least three
    /// chunk sizes of this collection's data.
    fn size_round(&mut self, ns: &str) {
        let (db, coll) = ns.split_once('.').unwrap_or((ns, ""));
        let mut sizes: Vec<(usize, i64)> = Vec::new();
        for i in 0..self.servers.len() {
            let reply = self.servers[i].run_command(db, &doc! {"collStats": coll});
            sizes.push((
                i,
                reply
                    .get("size")
                    .and_then(crate::value::as_i64)
                    .unwrap_or(0),
            ));
        }
        let (Some(&(max_i, max_size)), Some(&(min_i, min_size))) = (
            sizes.iter().max_by_key(|(_, s)| *s),
            sizes.iter().min_by_key(|(_, s)| *s),
        ) else {
            return;
        };
        if max_i == min_i || max_size - min_size < 3 * self.chunk_size_bytes as i64 {
            return;
        }
        let donor = self.metadata.shards[max_i].id.clone();
        let count = self
            .metadata
            .collection(ns)
            .map(|c| c.chunks.chunks.len())
            .unwrap_or(0);
        let movable = (0..count).find(|&i| {
            self.metadata
                .collection(ns)
                .is_some_and(|c| c.chunks.chunks[i].shard == donor)
                && self.chunk_zone(ns, i).is_none()
        });
        if let Some(index) = movable {
            let _ = self.migrate(ns, index, min_i);
        }
    }
}

/// The middle document's key, unless it equals the chunk's lower bound.
fn median_of(
    ns: &str,
    docs: &[(KeyValues, Document)],
    router: &Router,
    index: usize,
) -> Option<KeyValues> {
    let entry = router.metadata.collection(ns)?;
    let min = &entry.chunks.chunks.get(index)?.min;
    let middle = docs.get(docs.len() / 2)?.0.clone();
    if compare_keys(&middle, min).is_eq() {
        // Every key from the middle down may repeat: take the first key above the lowest.
        return docs
            .iter()
            .map(|(k, _)| k)
            .find(|k| compare_keys(k, min).is_gt() && compare_keys(k, &docs[0].0).is_gt())
            .cloned();
    }
    if compare_keys(&middle, &docs[0].0).is_eq() {
        return docs
            .iter()
            .map(|(k, _)| k)
            .find(|k| compare_keys(k, &docs[0].0).is_gt())
            .cloned();
    }
    Some(middle)
}
