//! `find`, `getMore` and `killCursors`.

use std::collections::VecDeque;

use bson::{Bson, Document, doc};

use super::request::find::FindRequest;
use super::{count_option, target_namespace};
use crate::Engine;
use crate::catalog::Namespace;
use crate::cursor::DEFAULT_FIRST_BATCH;
use crate::error::{Error, ErrorCode, Result};
use crate::matcher::MatchContext;

pub fn find(
    engine: &mut Engine,
    db: &str,
    command: &Document,
    ctx: &MatchContext<'_>,
) -> Result<Document> {
    let ns = target_namespace(db, command)?;
    let request = FindRequest::parse(command)?;
    let spec = request.spec(&engine.eval_context())?;
    let query = request.canonical(&spec);
    let now = engine.now_millis();
    let docs =
        crate::exec::cached_plan::find_cached(engine.catalog().collection(&ns), &query, ctx, now)?;
    let reply = first_batch_reply(engine, ns, docs, request.batch_size, request.single_batch);
    let flag = |name: &str| matches!(command.get(name), Some(Bson::Boolean(true)));
    if flag("tailable")
        && flag("awaitData")
        && let Ok(id) = reply.get_document("cursor").and_then(|c| c.get_i64("id"))
        && let Some(cursor) = engine.cursors_mut().get_mut(id)
    {
        cursor.await_data = true;
    }
    Ok(reply)
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

pub fn get_more(engine: &mut Engine, db: &str, command: &Document) -> Result<Document> {
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
    if let Some(e) = cursor.deferred_error.take() {
        engine.cursors_mut().close(id);
        return Err(e);
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

    /// jstests/core/getmore_cmd_maxtimems.js: maxTimeMS on a getMore is for awaitData cursors.
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
