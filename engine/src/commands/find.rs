//! `find`, `getMore` and `killCursors`.

use std::collections::VecDeque;

use bson::{Bson, Document, doc};

use super::find_stored_reply::{stored_records_reply, stored_scan_reply};
use super::request::find::FindRequest;
use super::{Reply, count_option, target_namespace};
use crate::Engine;
use crate::catalog::Namespace;
use crate::cursor::{CappedScan, DEFAULT_FIRST_BATCH};
use crate::error::{Error, ErrorCode, Result};
use crate::matcher::MatchContext;

/// The find command; with `bytes` (the caller takes the reply as BSON bytes), a find whose
/// results are stored documents unchanged writes its reply from their stored bytes
/// ([`stored_scan_reply`]).
pub fn find_reply(
    engine: &mut Engine,
    db: &str,
    command: &Document,
    ctx: &MatchContext<'_>,
    bytes: bool,
) -> Result<Reply> {
    let ns = target_namespace(db, command)?;
    let request = FindRequest::parse(command)?;
    let flag = |name: &str| matches!(crate::path::field(command, name), Some(Bson::Boolean(true)));
    let tailable = flag("tailable");
    if !tailable
        && let Some(coll) = engine.catalog().collection(&ns)
        && let Some(filter) = request.express_filter()
        && let Some(record_ids) = crate::exec::express::equality_record_ids(
            coll,
            filter,
            request
                .limit
                .filter(|l| *l > 0)
                .map(|l| usize::try_from(l).unwrap_or(usize::MAX)),
        )
    {
        return Ok(express_reply(
            engine,
            ns,
            &record_ids,
            request.batch_size,
            request.single_batch,
            bytes,
        ));
    }
    let spec = request.spec(&engine.eval_context())?;
    if tailable {
        check_tailable(&request)?;
    }
    if let Some(coll) = engine.catalog().collection(&ns)
        && coll.is_capped()
        && (tailable || whole_collection_scan(&request, command))
    {
        let scan = CappedScan {
            skip_left: spec.skip,
            limit_left: spec.limit,
            spec,
            position: None,
            tailable,
        };
        return capped_scan_first_batch(
            engine,
            ns,
            scan,
            request.batch_size,
            flag("awaitData"),
            ctx,
        )
        .map(Reply::Document);
    }
    if tailable && engine.catalog().collection(&ns).is_some() {
        return Err(Error::bad_value(format!(
            "error processing query: ns={ns} tailable cursor requested on non capped collection"
        )));
    }
    let query = request.canonical(&spec);
    if bytes && let Some(reply) = stored_scan_reply(engine, ns.clone(), &query, &request, ctx)? {
        return Ok(Reply::Bytes(reply));
    }
    let now = engine.now_millis();
    let docs =
        crate::exec::cached_plan::find_cached(engine.catalog().collection(&ns), &query, ctx, now)?;
    Ok(Reply::Document(first_batch_reply(
        engine,
        ns,
        docs,
        request.batch_size,
        request.single_batch,
    )))
}
/// The reply of a find the express path answered with `record_ids`: with `bytes`, written from
/// the documents' stored bytes (no document is copied, encoded or freed), else (or when a
/// document's bytes are not kept) from copies of the documents.
pub(crate) fn express_reply(
    engine: &mut Engine,
    ns: Namespace,
    record_ids: &[u64],
    batch_size: Option<usize>,
    single_batch: bool,
    bytes: bool,
) -> Reply {
    if bytes
        && let Some(reply) = stored_records_reply(engine, &ns, record_ids, batch_size, single_batch)
    {
        return Reply::Bytes(reply);
    }
    let docs = match engine.catalog().collection(&ns) {
        Some(coll) => record_ids
            .iter()
            .filter_map(|rid| coll.get(*rid).cloned())
            .collect(),
        None => Vec::new(),
    };
    Reply::Document(first_batch_reply(
        engine,
        ns,
        docs,
        batch_size,
        single_batch,
    ))
}

/// MongoDB 8.0's query_request_helper.cpp (validateFindCommandRequest): a tailable cursor
/// reads in natural order and stays open, so no other sort and no single batch.
fn check_tailable(request: &FindRequest<'_>) -> Result<()> {
    // Compared as values, as MongoDB's SimpleBSONObjComparator does: the legacy shell's
    // `{$natural: 1}` carries a double.
    let natural = doc! {"$natural": 1};
    if let Some(sort) = request.sort
        && !sort.is_empty()
        && crate::value::compare_values_simple(
            &Bson::Document(sort.clone()),
            &Bson::Document(natural),
        ) != std::cmp::Ordering::Equal
    {
        return Err(Error::bad_value(
            "cannot use tailable option with a sort other than {$natural: 1}",
        ));
    }
    if request.single_batch {
        return Err(Error::bad_value(
            "cannot use tailable option with the 'singleBatch' option",
        ));
    }
    Ok(())
}

/// A find that is a plain collection scan of everything in natural order (no filter, sort,
/// hint, bounds, collation, record ids or index keys): over a capped collection it reads as
/// MongoDB's collection scan does, a batch at a time, and dies when its position is
/// overwritten (jstests/core/capped_max1.js).
fn whole_collection_scan(request: &FindRequest<'_>, command: &Document) -> bool {
    request.filter.is_none_or(Document::is_empty)
        && request.sort.is_none_or(Document::is_empty)
        && request.hint.is_none()
        && request.min.is_none()
        && request.max.is_none()
        && !request.single_batch
        && !request.show_record_id
        && !command.contains_key("returnKey")
        && !command.contains_key("collation")
}

/// Reads the scan on from its position: up to `max` documents. Stops at the end of the
/// collection or of the limit.
fn scan_capped(
    coll: &crate::catalog::Collection,
    scan: &mut CappedScan,
    max: usize,
    ctx: &MatchContext<'_>,
) -> Result<Vec<Document>> {
    let mut out = Vec::new();
    for (rid, doc) in coll.iter_after(scan.position) {
        if out.len() >= max || scan.limit_left == Some(0) {
            break;
        }
        scan.position = Some(rid);
        if !scan.spec.filter.matches_with(doc, ctx)? {
            continue;
        }
        if scan.skip_left > 0 {
            scan.skip_left -= 1;
            continue;
        }
        out.push(scan.spec.project(doc, ctx)?);
        if let Some(left) = &mut scan.limit_left {
            *left -= 1;
        }
    }
    Ok(out)
}

/// Whether the scan has more to read now or later: a tailable one while its limit lasts and
/// it stands on a record (over an empty collection it has no position, and MongoDB closes
/// it), a plain one while records follow its position.
fn scan_goes_on(coll: &crate::catalog::Collection, scan: &CappedScan) -> bool {
    if scan.limit_left == Some(0) {
        return false;
    }
    if scan.tailable {
        return scan.position.is_some();
    }
    coll.iter()
        .next_back()
        .is_some_and(|(last, _)| scan.position.is_none_or(|p| last > p))
}

fn capped_scan_first_batch(
    engine: &mut Engine,
    ns: Namespace,
    mut scan: CappedScan,
    batch_size: Option<usize>,
    await_data: bool,
    ctx: &MatchContext<'_>,
) -> Result<Document> {
    let Some(coll) = engine.catalog().collection(&ns) else {
        return Ok(first_batch_reply(engine, ns, Vec::new(), None, true));
    };
    let first = scan_capped(
        coll,
        &mut scan,
        batch_size.unwrap_or(DEFAULT_FIRST_BATCH),
        ctx,
    )?;
    // An empty first batch (`batchSize: 0`) runs nothing, so the cursor is not at its end.
    let untouched = batch_size == Some(0) && scan.limit_left != Some(0);
    let id = if untouched || scan_goes_on(coll, &scan) {
        let cursors = engine.cursors_mut();
        let id = cursors.open(ns.clone(), VecDeque::new());
        if let Some(cursor) = cursors.get_mut(id) {
            cursor.await_data = await_data;
            cursor.scan = Some(scan);
        }
        id
    } else {
        0
    };
    let first: Vec<Bson> = first.into_iter().map(Bson::Document).collect();
    Ok(doc! {
        "cursor": {"firstBatch": first, "id": id, "ns": ns.to_string()},
        "ok": 1.0,
    })
}

/// The next batch of a capped scan (see [`CappedScan`]).
fn capped_scan_get_more(
    engine: &mut Engine,
    id: i64,
    ns: &Namespace,
    mut scan: CappedScan,
    batch_size: Option<usize>,
    ctx: &MatchContext<'_>,
) -> Result<Document> {
    let Some(coll) = engine.catalog().collection(ns) else {
        engine.cursors_mut().close(id);
        return Ok(doc! {
            "cursor": {"nextBatch": [], "id": 0_i64, "ns": ns.to_string()},
            "ok": 1.0,
        });
    };
    if let Some(p) = scan.position
        && coll.get(p).is_none()
    {
        engine.cursors_mut().close(id);
        return Err(Error::new(
            ErrorCode::CappedPositionLost,
            format!(
                "CollectionScan died due to position in capped collection being deleted. \
                 Last seen record id: RecordId({p})"
            ),
        ));
    }
    let max = batch_size.filter(|b| *b > 0).unwrap_or(usize::MAX);
    // The getMore's own context: a `$where` in the cursor's filter is evaluated on every batch.
    let next = scan_capped(coll, &mut scan, max, ctx)?;
    let goes_on = scan_goes_on(coll, &scan);
    if goes_on {
        if let Some(cursor) = engine.cursors_mut().get_mut(id) {
            cursor.scan = Some(scan);
        }
    } else {
        engine.cursors_mut().close(id);
    }
    let next: Vec<Bson> = next.into_iter().map(Bson::Document).collect();
    Ok(doc! {
        "cursor": {"nextBatch": next, "id": if goes_on { id } else { 0 }, "ns": ns.to_string()},
        "ok": 1.0,
    })
}

/// Builds `{cursor: {firstBatch, id, ns}, ok: 1}`, keeping the rest of the results open.
pub fn first_batch_reply(
    engine: &mut Engine,
    ns: Namespace,
    docs: Vec<Document>,
    batch_size: Option<usize>,
    single_batch: bool,
) -> Document {
    let size = batch_size.unwrap_or(DEFAULT_FIRST_BATCH);
    let mut docs: VecDeque<Document> = docs.into();
    let n = batch_len(&docs, size);
    let first: Vec<Bson> = docs.drain(..n).map(Bson::Document).collect();
    let id = if docs.is_empty() || single_batch {
        0
    } else {
        engine.cursors_mut().open(ns.clone(), docs)
    };
    doc! {
        "cursor": {"firstBatch": first, "id": id, "ns": ns.to_string()},
        "ok": 1.0,
    }
}

/// Bytes of documents one reply batch holds at most: MongoDB's `FindCommon::haveSpaceForNext`
/// adds a document while the batch stays within `BSONObjMaxUserSize` (16 MiB), and always
/// returns at least one, so a negative limit (one batch) can return fewer documents than it
/// names.
pub const MAX_BATCH_BYTES: usize = 16 * 1024 * 1024;

/// How many of `docs` the next batch takes: at most `max_count`, and no more than fit in
/// [`MAX_BATCH_BYTES`] (but at least one).
fn batch_len(docs: &VecDeque<Document>, max_count: usize) -> usize {
    let mut bytes = 0;
    let mut n = 0;
    for doc in docs.iter().take(max_count) {
        let size = crate::value::bson_size::document_size(doc);
        if n > 0 && bytes + size > MAX_BATCH_BYTES {
            break;
        }
        bytes += size;
        n += 1;
    }
    n
}

pub fn get_more(
    engine: &mut Engine,
    db: &str,
    command: &Document,
    ctx: &MatchContext<'_>,
) -> Result<Document> {
    let id = match command.get("getMore") {
        Some(Bson::Int64(i)) => *i,
        Some(other) => {
            return Err(Error::type_mismatch(format!(
                "BSON field 'getMore.getMore' is the wrong type '{}', expected type 'long'",
                crate::value::display::type_name(other)
            )));
        }
        None => {
            return Err(Error::new(
                ErrorCode::FailedToParse,
                "getMore needs a cursor id",
            ));
        }
    };
    let coll = match command.get("collection") {
        Some(Bson::String(s)) => s.clone(),
        _ => {
            return Err(Error::location(
                40414,
                "BSON field 'getMore.collection' is missing but a required field",
            ));
        }
    };
    let ns = Namespace::new(db, coll);
    let batch_size = count_option(command, "getMore", "batchSize")?.map(|b| b as usize);
    let Some(cursor) = engine.cursors_mut().get_mut(id) else {
        return Err(Error::new(
            ErrorCode::Location(43),
            format!("cursor id {id} not found"),
        ));
    };
    if let Some(reason) = cursor.killed {
        engine.cursors_mut().close(id);
        return Err(Error::new(
            ErrorCode::QueryPlanKilled,
            format!("cursor {id} on '{ns}' was killed: {reason}"),
        ));
    }
    if cursor.ns != ns {
        return Err(Error::new(
            ErrorCode::Location(13),
            format!(
                "Requested getMore on namespace '{ns}', but cursor belongs to a different namespace {}",
                cursor.ns
            ),
        ));
    }
    // MongoDB's getMore: maxTimeMS bounds the wait of an awaitData cursor and nothing else
    // (jstests/core/getmore_cmd_maxtimems.js).
    if command.contains_key("maxTimeMS") && !cursor.await_data {
        return Err(Error::bad_value(
            "cannot set maxTimeMS on getMore command for a non-awaitData cursor",
        ));
    }
    if let Some(e) = cursor.deferred_error.take() {
        engine.cursors_mut().close(id);
        return Err(e);
    }
    if let Some(scan) = cursor.scan.take() {
        return capped_scan_get_more(engine, id, &ns, scan, batch_size, ctx);
    }
    let n = batch_len(
        &cursor.remaining,
        batch_size.filter(|b| *b > 0).unwrap_or(usize::MAX),
    );
    let next: Vec<Bson> = cursor.remaining.drain(..n).map(Bson::Document).collect();
    let exhausted = cursor.remaining.is_empty();
    if exhausted {
        engine.cursors_mut().close(id);
    }
    Ok(doc! {
        "cursor": {"nextBatch": next, "id": if exhausted { 0 } else { id }, "ns": ns.to_string()},
        "ok": 1.0,
    })
}

pub fn kill_cursors(engine: &mut Engine, _db: &str, command: &Document) -> Result<Document> {
    let ids = match command.get("cursors") {
        Some(Bson::Array(a)) => a.clone(),
        _ => {
            return Err(Error::location(
                40414,
                "BSON field 'killCursors.cursors' is missing but a required field",
            ));
        }
    };
    let mut killed = Vec::new();
    let mut not_found = Vec::new();
    for id in ids {
        let Bson::Int64(i) = id else { continue };
        if engine.cursors_mut().close(i) {
            killed.push(Bson::Int64(i));
        } else {
            not_found.push(Bson::Int64(i));
        }
    }
    Ok(doc! {
        "cursorsKilled": killed,
        "cursorsNotFound": not_found,
        "cursorsAlive": [],
        "cursorsUnknown": [],
        "ok": 1.0,
    })
}

#[cfg(test)]
mod tests {
    use crate::Engine;
    use bson::doc;

    /// `{$meta: "sortKey"}` shows the document's value for each sort component as an array
    /// (MongoDB 4.4+, jstests/core/query/sort/sortl.js), even when an index or `_id` lookup
    /// gives the order; without a sort it is refused (BadValue).
    #[test]
    fn sort_key_meta_projection() {
        let mut e = Engine::new();
        e.run_command(
            "t",
            &doc! {"insert": "c", "documents": [{"_id": 1, "a": 2}]},
        );
        let r = e.run_command(
            "t",
            &doc! {"find": "c", "filter": {"_id": 1}, "sort": {"a": 1, "z": -1},
            "projection": {"b": {"$meta": "sortKey"}}},
        );
        assert_eq!(
            crate::commands::first_batch(&r),
            vec![doc! {"_id": 1, "a": 2, "b": [2, null]}]
        );
        let r = e.run_command(
            "t",
            &doc! {"find": "c", "projection": {"b": {"$meta": "sortKey"}}},
        );
        assert_eq!(r.get_i32("code").unwrap(), 2, "{r}");
        assert_eq!(
            r.get_str("errmsg").unwrap(),
            "cannot use sortKey $meta projection without a sort"
        );
    }

    #[test]
    fn find_with_batches_and_get_more() {
        let mut e = Engine::new();
        let docs: Vec<_> = (0..5).map(|i| doc! {"_id": i, "k": i % 2}).collect();
        e.run_command("t", &doc! {"insert": "c", "documents": docs});
        let r = e.run_command("t", &doc! {"find": "c", "filter": {"k": 1}});
        let c = r.get_document("cursor").unwrap();
        assert_eq!(c.get_array("firstBatch").unwrap().len(), 2);
        assert_eq!(c.get_i64("id").unwrap(), 0);
        let r = e.run_command(
            "t",
            &doc! {"find": "c", "batchSize": 2, "sort": {"_id": -1}},
        );
        let c = r.get_document("cursor").unwrap();
        let id = c.get_i64("id").unwrap();
        assert_ne!(id, 0);
        assert_eq!(
            c.get_array("firstBatch").unwrap()[0]
                .as_document()
                .unwrap()
                .get_i32("_id")
                .unwrap(),
            4
        );
        let r = e.run_command("t", &doc! {"getMore": id, "collection": "c"});
        let c = r.get_document("cursor").unwrap();
        assert_eq!(c.get_array("nextBatch").unwrap().len(), 3);
        assert_eq!(c.get_i64("id").unwrap(), 0);
        let r = e.run_command("t", &doc! {"getMore": id, "collection": "c"});
        assert_eq!(r.get_i32("code").unwrap(), 43);
    }

    fn batch(r: &bson::Document, name: &str) -> (Vec<i32>, i64) {
        let c = r.get_document("cursor").unwrap_or_else(|_| panic!("{r}"));
        let ids = c
            .get_array(name)
            .unwrap()
            .iter()
            .map(|d| d.as_document().unwrap().get_i32("_id").unwrap())
            .collect();
        (ids, c.get_i64("id").unwrap())
    }

    /// A tailable cursor over a capped collection stays open at its end and returns what is
    /// inserted later; over an empty one it closes, and its limit ends it (MongoDB 8.0,
    /// jstests/core/tailable_skip_limit.js, tailable_getmore_batch_size.js).
    #[test]
    fn tailable_cursor_reads_later_inserts() {
        let mut e = Engine::new();
        e.run_command("t", &doc! {"create": "c", "capped": true, "size": 4096});
        let r = e.run_command("t", &doc! {"find": "c", "tailable": true});
        assert_eq!(batch(&r, "firstBatch"), (vec![], 0));
        e.run_command(
            "t",
            &doc! {"insert": "c", "documents": [{"_id": 1}, {"_id": 2}, {"_id": 3}]},
        );
        let r = e.run_command(
            "t",
            &doc! {"find": "c", "tailable": true, "skip": 1, "batchSize": 1},
        );
        let (first, id) = batch(&r, "firstBatch");
        assert_eq!(first, vec![2]);
        assert_ne!(id, 0);
        let more = doc! {"getMore": id, "collection": "c"};
        assert_eq!(
            batch(&e.run_command("t", &more), "nextBatch"),
            (vec![3], id)
        );
        assert_eq!(batch(&e.run_command("t", &more), "nextBatch"), (vec![], id));
        e.run_command(
            "t",
            &doc! {"insert": "c", "documents": [{"_id": 4}, {"_id": 5}]},
        );
        let more2 = doc! {"getMore": id, "collection": "c", "batchSize": 1};
        assert_eq!(
            batch(&e.run_command("t", &more2), "nextBatch"),
            (vec![4], id)
        );
        assert_eq!(
            batch(&e.run_command("t", &more), "nextBatch"),
            (vec![5], id)
        );
        let r = e.run_command("t", &doc! {"find": "c", "tailable": true, "limit": 2});
        assert_eq!(batch(&r, "firstBatch"), (vec![1, 2], 0));

        let refused = [
            doc! {"find": "c", "tailable": true, "singleBatch": true},
            doc! {"find": "c", "tailable": true, "sort": {"_id": 1}},
        ];
        for cmd in refused {
            assert_eq!(e.run_command("t", &cmd).get_i32("code").unwrap(), 2);
        }
        e.run_command("t", &doc! {"insert": "plain", "documents": [{"_id": 1}]});
        let r = e.run_command("t", &doc! {"find": "plain", "tailable": true});
        assert_eq!(r.get_i32("code").unwrap(), 2, "{r}");
    }

    /// A scan of a capped collection dies when a capped insert overwrites the record it stands
    /// on (CappedPositionLost), as MongoDB's collection scan does (jstests/core/capped_max1.js).
    #[test]
    fn capped_scan_dies_when_its_position_is_overwritten() {
        let mut e = Engine::new();
        e.run_command(
            "t",
            &doc! {"create": "c", "capped": true, "size": 65536, "max": 4},
        );
        let docs: Vec<_> = (0..4).map(|i| doc! {"_id": i}).collect();
        e.run_command("t", &doc! {"insert": "c", "documents": docs});
        let r = e.run_command("t", &doc! {"find": "c", "batchSize": 2});
        let (first, id) = batch(&r, "firstBatch");
        assert_eq!(first, vec![0, 1]);
        // One more document overwrites _id 0, not the position (_id 1).
        e.run_command("t", &doc! {"insert": "c", "documents": [{"_id": 4}]});
        let more = doc! {"getMore": id, "collection": "c", "batchSize": 1};
        assert_eq!(
            batch(&e.run_command("t", &more), "nextBatch"),
            (vec![2], id)
        );
        let more_ids: Vec<_> = (5..9).map(|i| doc! {"_id": i}).collect();
        e.run_command("t", &doc! {"insert": "c", "documents": more_ids});
        let r = e.run_command("t", &more);
        assert_eq!(r.get_i32("code").unwrap(), 136, "{r}");
        assert_eq!(r.get_str("codeName").unwrap(), "CappedPositionLost");
        // A plain scan that reaches the end closes.
        let r = e.run_command("t", &doc! {"find": "c"});
        assert_eq!(batch(&r, "firstBatch"), (vec![5, 6, 7, 8], 0));
    }

    /// jstests/core/getmore_cmd_maxtimems.js: maxTimeMS on a getMore is for awaitData cursors.
    #[test]
    fn a_capped_get_more_evaluates_where_with_its_context() {
        struct EvenX;
        impl crate::matcher::WhereEvaluator for EvenX {
            fn evaluate(&self, _code: &str, doc: &bson::Document) -> crate::Result<bool> {
                Ok(doc.get_i32("x").is_ok_and(|x| x % 2 == 0))
            }
        }
        let ctx = crate::matcher::MatchContext {
            where_evaluator: Some(&EvenX),
            map_reduce: None,
            meta: None,
        };
        let mut e = Engine::new();
        e.run_command("t", &doc! {"create": "c", "capped": true, "size": 4096});
        let docs: Vec<_> = (0..8).map(|i| doc! {"_id": i, "x": i}).collect();
        e.run_command("t", &doc! {"insert": "c", "documents": docs});
        let find = doc! {"find": "c", "filter": {"$where": "this.x % 2 == 0"}, "batchSize": 2};
        let r = e.run_command_with("t", &find, &ctx);
        let id = r.get_document("cursor").unwrap().get_i64("id").unwrap();
        let r = e.run_command_with("t", &doc! {"getMore": id, "collection": "c"}, &ctx);
        let ids: Vec<i32> = r
            .get_document("cursor")
            .unwrap()
            .get_array("nextBatch")
            .unwrap()
            .iter()
            .map(|d| d.as_document().unwrap().get_i32("_id").unwrap())
            .collect();
        assert_eq!(ids, [4, 6], "{r:?}");
    }

    #[test]
    fn get_more_takes_max_time_ms_only_for_await_data_cursors() {
        let mut e = Engine::new();
        e.run_command("t", &doc! {"create": "c", "capped": true, "size": 4096});
        let docs: Vec<_> = (0..5).map(|i| doc! {"_id": i}).collect();
        e.run_command("t", &doc! {"insert": "c", "documents": docs});
        let open = |e: &mut Engine, extra: bson::Document| {
            let mut cmd = doc! {"find": "c", "batchSize": 2};
            cmd.extend(extra);
            let r = e.run_command("t", &cmd);
            r.get_document("cursor").unwrap().get_i64("id").unwrap()
        };
        let id = open(&mut e, doc! {});
        let r = e.run_command(
            "t",
            &doc! {"getMore": id, "collection": "c", "maxTimeMS": 60000},
        );
        assert_eq!(
            (r.get_i32("code").unwrap(), r.get_str("errmsg").unwrap()),
            (
                2,
                "cannot set maxTimeMS on getMore command for a non-awaitData cursor"
            )
        );
        let id = open(&mut e, doc! {"tailable": true, "awaitData": true});
        let r = e.run_command(
            "t",
            &doc! {"getMore": id, "collection": "c", "maxTimeMS": 60000},
        );
        assert_eq!(r.get_f64("ok").unwrap(), 1.0, "{r}");
    }

    /// Dropping a collection kills its cursors; the next getMore says so (issue #19;
    /// jstests/core/getmore_invalidated_cursors.js: QueryPlanKilled, "collection dropped").
    #[test]
    fn drop_kills_the_collections_cursors() {
        for drop in [doc! {"drop": "c"}, doc! {"dropDatabase": 1}] {
            let mut e = Engine::new();
            let docs: Vec<_> = (0..5).map(|i| doc! {"_id": i}).collect();
            e.run_command("t", &doc! {"insert": "c", "documents": docs});
            let r = e.run_command("t", &doc! {"find": "c", "batchSize": 2});
            let id = r.get_document("cursor").unwrap().get_i64("id").unwrap();
            e.run_command("t", &drop);
            let r = e.run_command("t", &doc! {"getMore": id, "collection": "c"});
            assert_eq!(r.get_i32("code").unwrap(), 175, "{r}");
            assert_eq!(r.get_str("codeName").unwrap(), "QueryPlanKilled");
            assert!(r.get_str("errmsg").unwrap().contains("collection dropped"));
            let r = e.run_command("t", &doc! {"getMore": id, "collection": "c"});
            assert_eq!(r.get_i32("code").unwrap(), 43);
        }
    }

    /// A hinted sparse index answers from its keys: a document without the field is not in it,
    /// so `{a: null}` hinted to it does not return that document (issue #19).
    #[test]
    fn hinted_sparse_index_returns_only_indexed_documents() {
        let mut e = Engine::new();
        e.run_command(
            "t",
            &doc! {"insert": "c", "documents": [{"_id": 1, "a": 1}, {"_id": 2}, {"_id": 3, "a": null}]},
        );
        e.run_command(
            "t",
            &doc! {"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1", "sparse": true}]},
        );
        let ids = |r: bson::Document| -> Vec<i32> {
            r.get_document("cursor")
                .unwrap()
                .get_array("firstBatch")
                .unwrap()
                .iter()
                .map(|d| d.as_document().unwrap().get_i32("_id").unwrap())
                .collect()
        };
        let r = e.run_command("t", &doc! {"find": "c", "filter": {"a": null}});
        assert_eq!(ids(r), vec![2, 3]);
        let r = e.run_command(
            "t",
            &doc! {"find": "c", "filter": {"a": null}, "hint": "a_1"},
        );
        assert_eq!(ids(r), vec![3]);
        let r = e.run_command(
            "t",
            &doc! {"count": "c", "query": {"a": null}, "hint": {"a": 1}},
        );
        assert_eq!(r.get_i32("n").unwrap(), 1, "{r}");
        // An empty hint is no hint (jstests/core/index_check6.js's hint({})).
        let r = e.run_command("t", &doc! {"find": "c", "filter": {"a": null}, "hint": {}});
        assert_eq!(ids(r), vec![2, 3]);
    }

    #[test]
    fn a_batch_holds_at_most_16_mib_of_documents() {
        let mut e = Engine::new();
        let big = "x".repeat(1024 * 1024);
        for i in 0..20 {
            e.run_command(
                "t",
                &doc! {"insert": "c", "documents": [{"_id": i, "p": &big}]},
            );
        }
        let r = e.run_command("t", &doc! {"find": "c", "limit": -18});
        let c = r.get_document("cursor").unwrap();
        assert_eq!(c.get_array("firstBatch").unwrap().len(), 15);
        assert_eq!(c.get_i64("id").unwrap(), 0);
        let r = e.run_command("t", &doc! {"find": "c", "batchSize": 1});
        let id = r.get_document("cursor").unwrap().get_i64("id").unwrap();
        let r = e.run_command("t", &doc! {"getMore": id, "collection": "c"});
        let c = r.get_document("cursor").unwrap();
        assert_eq!(c.get_array("nextBatch").unwrap().len(), 15);
        assert_ne!(c.get_i64("id").unwrap(), 0);
    }

    #[test]
    fn a_blocking_sort_past_100_mib_fails_and_says_why() {
        let mut e = Engine::new();
        let big = "x".repeat(1024 * 1024);
        for i in 0..110 {
            e.run_command(
                "t",
                &doc! {"insert": "c", "documents": [{"_id": i, "p": &big}]},
            );
        }
        let r = e.run_command(
            "t",
            &doc! {"find": "c", "sort": {"p": 1}, "allowDiskUse": false},
        );
        assert_eq!(r.get_i32("code").unwrap(), 292);
        assert_eq!(
            r.get_str("errmsg").unwrap(),
            "Executor error during find command :: caused by :: Sort exceeded memory limit of \
             104857600 bytes, but did not opt in to external sorting."
        );
        let r = e.run_command("t", &doc! {"find": "c", "sort": {"p": 1}});
        assert_eq!(r.get_i32("code").unwrap(), 292);
        assert!(
            r.get_str("errmsg")
                .unwrap()
                .contains("allowDiskUse: true does not lift this limit in Sprout"),
            "{r:?}"
        );
    }

    #[test]
    fn skip_and_limit() {
        let mut e = Engine::new();
        let docs: Vec<_> = (0..5).map(|i| doc! {"_id": i}).collect();
        e.run_command("t", &doc! {"insert": "c", "documents": docs});
        let r = e.run_command("t", &doc! {"find": "c", "skip": 1, "limit": 2});
        let batch = r
            .get_document("cursor")
            .unwrap()
            .get_array("firstBatch")
            .unwrap()
            .clone();
        assert_eq!(batch, vec![doc! {"_id": 1}.into(), doc! {"_id": 2}.into()]);
        let r = e.run_command("t", &doc! {"find": "missing"});
        assert!(
            r.get_document("cursor")
                .unwrap()
                .get_array("firstBatch")
                .unwrap()
                .is_empty()
        );
    }
}
