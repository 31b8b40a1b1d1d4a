//! `find`, `getMore` and `killCursors`.

use std::collections::VecDeque;

use bson::{Bson, Document, doc};

use super::{bool_option, count_option, document_option, target_namespace};
use crate::Engine;
use crate::catalog::Namespace;
use crate::cursor::DEFAULT_FIRST_BATCH;
use crate::error::{Error, ErrorCode, Result};
use crate::matcher::MatchContext;
use crate::query::FindSpec;

pub fn find(
    engine: &mut Engine,
    db: &str,
    command: &Document,
    ctx: &MatchContext<'_>,
) -> Result<Document> {
    let ns = target_namespace(db, command)?;
    let eval = engine.eval_context();
    let fields = FindFields::read(command)?;
    let mut spec = FindSpec::parse_with_let_in(
        fields.filter,
        fields.sort,
        fields.projection,
        count_option(command, "find", "skip")?,
        limit_option(command)?,
        document_option(command, "find", "let")?,
        &eval,
    )?;
    set_min_max(&mut spec, command)?;
    let batch_size = count_option(command, "find", "batchSize")?.map(|b| b as usize);
    let single_batch = bool_option(command, "singleBatch", false)?
        || matches!(command.get("limit"), Some(l) if crate::value::as_i64_signed(l) < 0);
    let query = fields.canonical(&spec);
    let now = engine.now_millis();
    let docs =
        crate::exec::cached_plan::find_cached(engine.catalog().collection(&ns), &query, ctx, now)?;
    Ok(first_batch_reply(
        engine,
        ns,
        docs,
        batch_size,
        single_batch,
    ))
}

/// The fields of a find command the planner reads, read once (by `find` and by its explain).
#[derive(Debug, Clone, Copy)]
pub struct FindFields<'c> {
    pub filter: Option<&'c Document>,
    pub sort: Option<&'c Document>,
    pub projection: Option<&'c Document>,
    /// `None` when absent or null.
    pub hint: Option<&'c Bson>,
}

impl<'c> FindFields<'c> {
    /// Reads them, with MongoDB's type errors (`BSON field 'find.sort' is the wrong type…`).
    pub fn read(command: &'c Document) -> Result<Self> {
        Ok(FindFields {
            filter: document_option(command, "find", "filter")?,
            sort: document_option(command, "find", "sort")?,
            projection: document_option(command, "find", "projection")?,
            hint: command.get("hint").filter(|h| !matches!(h, Bson::Null)),
        })
    }

    /// The canonical query of the find `spec` parsed from these fields.
    pub fn canonical<'q>(&self, spec: &'q FindSpec) -> crate::query::CanonicalQuery<'q>
    where
        'c: 'q,
    {
        crate::query::CanonicalQuery::new(spec)
            .with_projection(self.projection)
            .with_hint(self.hint)
            .with_filter_as_written(self.filter.filter(|f| !f.is_empty()))
    }
}

/// Reads `min` and `max` (index key bounds; an empty document is no bound).
pub fn set_min_max(spec: &mut FindSpec, command: &Document) -> Result<()> {
    let bound = |name: &str| -> Result<Option<Document>> {
        Ok(document_option(command, "find", name)?
            .filter(|d| !d.is_empty())
            .cloned())
    };
    spec.min = bound("min")?;
    spec.max = bound("max")?;
    Ok(())
}

pub fn limit_option(command: &Document) -> Result<Option<i64>> {
    match command.get("limit") {
        Some(l @ (Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_))) => {
            Ok(Some(crate::value::as_i64_signed(l).abs()))
        }
        _ => count_option(command, "find", "limit"),
    }
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
    let first: Vec<Bson> = docs
        .drain(..size.min(docs.len()))
        .map(Bson::Document)
        .collect();
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
    let n = batch_size
        .filter(|b| *b > 0)
        .unwrap_or(usize::MAX)
        .min(cursor.remaining.len());
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
