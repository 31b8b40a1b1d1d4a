//! A find's reply written from the stored BSON bytes of the documents it matched (for a caller
//! that takes the reply as bytes, `Engine::run_command_reply`), without a document tree in
//! between.

use std::collections::VecDeque;

use bson::Document;

use super::find::MAX_BATCH_BYTES;
use super::request::find::FindRequest;
use crate::Engine;
use crate::catalog::Namespace;
use crate::cursor::DEFAULT_FIRST_BATCH;
use crate::error::Result;
use crate::matcher::MatchContext;

/// The reply of a find whose plan is a lone collection scan (a filter of one-field paths, no
/// sort, projection, skip, limit, hint, key bounds, `showRecordId` or `returnKey`), written
/// from the matched documents' stored BSON bytes (`catalog::Collection::bytes`) without a
/// document tree in between: copying each matched tree out of the collection, encoding it
/// into the reply and freeing it was most of such a find (`docs/performance.md`, session 14).
/// The same bytes as [`super::find::first_batch_reply`]'s document encoded, the same batch (at most
/// `batchSize` documents, 101 by default, within [`MAX_BATCH_BYTES`], at least one), and the
/// same cursor for the rest. `None`: the find is not such a find (or a document's bytes are
/// not kept); it runs as usual.
pub(super) fn stored_scan_reply(
    engine: &mut Engine,
    ns: Namespace,
    query: &crate::planner::CanonicalQuery<'_>,
    request: &FindRequest<'_>,
    ctx: &MatchContext<'_>,
) -> Result<Option<Vec<u8>>> {
    let spec = query.spec;
    if spec.sort.is_some()
        || spec.skip != 0
        || spec.limit.is_some_and(|l| l != 0)
        || spec.projection.is_some()
        || spec.min.is_some()
        || spec.max.is_some()
        || spec.show_record_id
        || spec.return_key
        || query.hint.is_some()
    {
        return Ok(None);
    }
    let Some(coll) = engine.catalog().collection(&ns) else {
        return Ok(None);
    };
    if !crate::exec::no_index_could_serve(coll, &spec.filter) {
        return Ok(None);
    }
    let Some(found) = crate::exec::scanned_bytes(Some(coll), query, ctx)? else {
        return Ok(None);
    };
    let (reply, rest) = first_batch(
        coll,
        &found,
        request.batch_size.unwrap_or(DEFAULT_FIRST_BATCH),
        request.single_batch,
    );
    let id = if rest.is_empty() {
        0
    } else {
        engine.cursors_mut().open(ns.clone(), rest)
    };
    Ok(Some(reply.finish(id, &ns)))
}

/// The reply of a find answered by the express path (`exec::express::equality_record_ids`:
/// `record_ids` in the order its plan returns them), written from the documents' stored bytes
/// as [`stored_scan_reply`] writes it: the same bytes as [`super::find::first_batch_reply`]'s
/// document encoded, the same batch and cursor. `None` when a document's bytes are not kept
/// (the caller copies the documents as before).
pub(super) fn stored_records_reply(
    engine: &mut Engine,
    ns: &Namespace,
    record_ids: &[u64],
    batch_size: Option<usize>,
    single_batch: bool,
) -> Option<Vec<u8>> {
    let coll = engine.catalog().collection(ns)?;
    let mut found = Vec::with_capacity(record_ids.len());
    for rid in record_ids {
        match coll.bytes(*rid) {
            Some(b) => found.push((*rid, b)),
            // A record without a document is skipped, as the document path skips it.
            None if coll.get(*rid).is_none() => {}
            None => return None,
        }
    }
    let (reply, rest) = first_batch(
        coll,
        &found,
        batch_size.unwrap_or(DEFAULT_FIRST_BATCH),
        single_batch,
    );
    let id = if rest.is_empty() {
        0
    } else {
        engine.cursors_mut().open(ns.clone(), rest)
    };
    Some(reply.finish(id, ns))
}

/// The first batch of `found` (at most `max_count` documents within [`MAX_BATCH_BYTES`], at
/// least one) written as a reply's batch, and the documents of the rest for a cursor (none
/// for a single batch).
fn first_batch(
    coll: &crate::catalog::Collection,
    found: &[(u64, &[u8])],
    max_count: usize,
    single_batch: bool,
) -> (CursorReplyWriter, VecDeque<Document>) {
    let mut n = 0;
    let mut total = 0;
    for (_, b) in found.iter().take(max_count) {
        if n > 0 && total + b.len() > MAX_BATCH_BYTES {
            break;
        }
        total += b.len();
        n += 1;
    }
    // Each element adds its type, its name (the index) and a NUL.
    let mut reply = CursorReplyWriter::new("firstBatch", total + n * 8);
    for (_, b) in &found[..n] {
        reply.push(b);
    }
    let rest: VecDeque<Document> = if single_batch {
        VecDeque::new()
    } else {
        found[n..]
            .iter()
            .filter_map(|(rid, _)| coll.get(*rid).cloned())
            .collect()
    };
    (reply, rest)
}

/// Writes `{cursor: {<batch>: [documents], id, ns}, ok: 1.0}` as BSON bytes from documents'
/// bytes, as `doc!` and `to_vec` would encode it.
struct CursorReplyWriter {
    out: Vec<u8>,
    /// Where the cursor document and the batch array start (their lengths are written last).
    cursor_at: usize,
    array_at: usize,
    count: usize,
}

impl CursorReplyWriter {
    // The reply is written in a few copies of runs of bytes made on the stack, not a `push`
    // or `extend_from_slice` per part: each was a call in the size-optimised wasm build (and
    // each copy a call into V8's `memory.copy`), 14 of them per point lookup (session 18).
    fn new(batch_field: &str, batch_bytes: usize) -> Self {
        let mut out = Vec::with_capacity(batch_bytes + 128 + batch_field.len());
        // The reply's length, `cursor` as an embedded document, its length (written last).
        out.extend_from_slice(b"\0\0\0\0\x03cursor\0\0\0\0\0\x04");
        let cursor_at = 12;
        out.extend_from_slice(batch_field.as_bytes());
        // The name's NUL, then the array's length (written last).
        out.extend_from_slice(&[0; 5]);
        let array_at = out.len() - 4;
        CursorReplyWriter {
            out,
            cursor_at,
            array_at,
            count: 0,
        }
    }

    /// Appends one document (its complete BSON bytes) to the batch.
    fn push(&mut self, doc: &[u8]) {
        // The type, the index in digits, the name's NUL: written from the end.
        let mut head = [0u8; 22];
        let mut at = head.len() - 1;
        let mut n = self.count;
        loop {
            at -= 1;
            head[at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        at -= 1;
        head[at] = 0x03;
        self.out.extend_from_slice(&head[at..]);
        self.out.extend_from_slice(doc);
        self.count += 1;
    }

    /// Closes the batch and writes the cursor's `id` and `ns` (`db.coll`, written from its
    /// parts: formatting it was 3% of a point lookup) and `ok`.
    fn finish(mut self, id: i64, ns: &Namespace) -> Vec<u8> {
        // The batch's end, `id` (int64), then `ns`'s type, name and length.
        let mut mid = [0u8; 21];
        mid[1..5].copy_from_slice(b"\x12id\0");
        mid[5..13].copy_from_slice(&id.to_le_bytes());
        mid[13..17].copy_from_slice(b"\x02ns\0");
        let len = ns.db.len() + 1 + ns.coll.len();
        mid[17..21].copy_from_slice(&((len + 1) as i32).to_le_bytes());
        let array_end = self.out.len() + 1;
        self.out.extend_from_slice(&mid);
        self.patch_len(self.array_at, array_end);
        self.out.extend_from_slice(ns.db.as_bytes());
        self.out.push(b'.');
        self.out.extend_from_slice(ns.coll.as_bytes());
        // `ns`'s NUL, the cursor's end, `ok: 1.0`, the reply's end.
        let mut tail = [0u8; 15];
        tail[2..6].copy_from_slice(b"\x01ok\0");
        tail[6..14].copy_from_slice(&1.0_f64.to_le_bytes());
        let cursor_end = self.out.len() + 2;
        self.out.extend_from_slice(&tail);
        self.patch_len(self.cursor_at, cursor_end);
        self.patch_len(0, self.out.len());
        self.out
    }

    /// Writes the length of the document that starts at `at` and ends before `end`.
    fn patch_len(&mut self, at: usize, end: usize) {
        let len = (end - at) as i32;
        self.out[at..at + 4].copy_from_slice(&len.to_le_bytes());
    }
}

#[cfg(test)]
mod tests {
    use crate::Engine;
    use crate::commands::Reply;
    use bson::doc;

    /// A find answered from stored bytes replies with the same bytes as the tree path (its
    /// reply document encoded), with the same batch and the same cursor for the rest; finds it
    /// does not serve (sort, projection, limit, an index on a filtered field, arrays in the
    /// path) reply as before.
    #[test]
    fn stored_bytes_reply_equals_the_document_reply() {
        let setup = |e: &mut Engine| {
            let docs: Vec<bson::Document> = (0..450)
                .map(|i| {
                    let cat = ["a", "b", "c"][i as usize % 3];
                    let mut d = doc! {"_id": i, "cat": cat,
                    "n": i % 17, "s": "x".repeat(i as usize % 40)};
                    if i % 50 == 0 {
                        d.insert("cat", vec!["a", "b"]);
                    }
                    if i % 7 == 0 {
                        d.insert("n", 2.5);
                    }
                    d
                })
                .collect();
            e.run_command("t", &doc! {"insert": "c", "documents": docs});
            e.run_command(
                "t",
                &doc! {"update": "c", "updates": [{"q": {"n": 3}, "u": {"$set": {"s": "changed", "z": [1, 2]}}, "multi": true}]},
            );
            e.run_command(
                "t",
                &doc! {"delete": "c", "deletes": [{"q": {"n": 4}, "limit": 0}]},
            );
            e.run_command(
                "t",
                &doc! {"createIndexes": "c", "indexes": [{"key": {"s": 1}, "name": "s_1"}]},
            );
        };
        let (mut a, mut b) = (Engine::new(), Engine::new());
        setup(&mut a);
        setup(&mut b);
        let finds = [
            doc! {"find": "c", "filter": {"cat": "a", "n": {"$gt": 5}}},
            doc! {"find": "c", "filter": {"cat": "a", "n": {"$gt": 5}}, "batchSize": 0},
            doc! {"find": "c", "filter": {"cat": "a", "n": {"$gt": 5}}, "batchSize": 1},
            doc! {"find": "c", "filter": {"cat": "b"}, "batchSize": 1000},
            doc! {"find": "c", "filter": {"cat": "b"}, "singleBatch": true},
            doc! {"find": "c", "filter": {"$or": [{"n": 2.5}, {"cat": "c"}]}, "batchSize": 7},
            doc! {"find": "c"},
            doc! {"find": "c", "filter": {}},
            doc! {"find": "c", "filter": {"nothing": 1}},
            doc! {"find": "missing", "filter": {"a": 1}},
            doc! {"find": "c", "filter": {"cat": "a"}, "sort": {"n": 1}},
            doc! {"find": "c", "filter": {"cat": "a"}, "projection": {"n": 1}},
            doc! {"find": "c", "filter": {"cat": "a"}, "limit": 3},
            doc! {"find": "c", "filter": {"s": "changed"}},
            doc! {"find": "c", "filter": {"z": 2}},
            doc! {"find": "c", "filter": {"cat": {"$bad": 1}}},
            // The express path (an `_id` or a single-field index's equality).
            doc! {"find": "c", "filter": {"_id": 9}},
            doc! {"find": "c", "filter": {"_id": 9.0}, "limit": 1},
            doc! {"find": "c", "filter": {"_id": 4}},
            doc! {"find": "c", "filter": {"_id": 12}, "batchSize": 0},
            doc! {"find": "c", "filter": {"s": "changed"}, "batchSize": 2},
            doc! {"find": "c", "filter": {"s": "changed"}, "limit": 3},
            doc! {"find": "c", "filter": {"s": "changed"}, "singleBatch": true, "batchSize": 2},
            doc! {"find": "c", "filter": {"s": "xx"}, "batchSize": 0},
            doc! {"find": "c", "filter": {"s": "nothing"}},
        ];
        for f in finds {
            let want = a.run_command("t", &f);
            let got = b.run_command_reply("t", &f);
            let served = matches!(got, Reply::Bytes(_));
            let got = got.into_bytes().unwrap();
            assert_eq!(got, want.to_vec().unwrap(), "{f}");
            let filter = f.get_document("filter").ok();
            // Served by the express path: `_id` or `s` (its index) equal to a scalar.
            let express = filter
                .is_some_and(|q| q.len() == 1 && (q.contains_key("_id") || q.contains_key("s")));
            let plain = filter.is_none_or(|q| !q.contains_key("s") && !q.contains_key("_id"))
                && !f.contains_key("sort")
                && !f.contains_key("projection")
                && !f.contains_key("limit")
                && !f.get_str("find").is_ok_and(|c| c == "missing")
                && !format!("{f}").contains("$bad")
                // A rooted `$or` is planned branch by branch (subplan): the usual path.
                && !format!("{f}").contains("$or");
            assert_eq!(served, plain || express, "{f}");
            // The rest of the results, batch by batch.
            let id = want
                .get_document("cursor")
                .ok()
                .and_then(|c| c.get_i64("id").ok());
            if let Some(id) = id.filter(|id| *id != 0) {
                for _ in 0..100 {
                    let more = doc! {"getMore": id, "collection": "c", "batchSize": 50};
                    let want = a.run_command("t", &more);
                    let got = b.run_command_reply("t", &more).into_bytes().unwrap();
                    assert_eq!(got, want.to_vec().unwrap(), "{f}");
                    if want.get_document("cursor").unwrap().get_i64("id").unwrap() == 0 {
                        break;
                    }
                }
            }
        }
    }

    /// A batch holds at most 16 MiB of documents (and at least one), through the bytes too.
    #[test]
    fn stored_bytes_batches_stop_at_16_mib() {
        let big = "y".repeat(5 * 1024 * 1024);
        let (mut a, mut b) = (Engine::new(), Engine::new());
        for e in [&mut a, &mut b] {
            for i in 0..5 {
                e.run_command(
                    "t",
                    &doc! {"insert": "c", "documents": [{"_id": i, "big": &big}]},
                );
            }
        }
        let f = doc! {"find": "c", "filter": {"_id": {"$gte": 0}}, "hint": {"$natural": 1}};
        let want = a.run_command("t", &f);
        assert_eq!(crate::commands::first_batch(&want).len(), 3);
        // A hint is left to the usual path; without one the bytes serve.
        let got = b.run_command_reply("t", &f);
        assert!(matches!(got, Reply::Document(_)));
        let f = doc! {"find": "c", "filter": {"big": {"$exists": true}}};
        let want = a.run_command("t", &f);
        let got = b.run_command_reply("t", &f);
        assert!(matches!(got, Reply::Bytes(_)));
        assert_eq!(got.into_bytes().unwrap(), want.to_vec().unwrap());
    }
}
