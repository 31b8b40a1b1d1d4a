//! The `update` command, and the steps it shares with `findAndModify`: applying a parsed update
//! to a stored document, and inserting an upsert's document.

use bson::{Bson, Document, doc};

use super::insert::{prepare_for_insert, write_error};
use super::request::update::{UpdateRequest, UpdateStatement};
use super::target_namespace;
use crate::Engine;
use crate::catalog::Namespace;
use crate::error::{Error, ErrorCode, Result};
use crate::expression::{EvalContext, Scope};
use crate::matcher::{Filter, MatchContext};
use crate::query::FindSpec;
use crate::sort::SortSpec;
use crate::storage::Change;
use crate::update::{ArrayFilters, UpdateEnv, UpdateSpec, check_upsert_query};
use crate::write::collation::enter_collation;

/// The largest document an update may produce (16 MiB).
const MAX_UPDATED_BYTES: usize = 16 * 1024 * 1024;

/// What one statement did.
#[derive(Debug, Default)]
struct StatementResult {
    n: i64,
    modified: i64,
    upserted_id: Option<Bson>,
}

/// `{update: <coll>, updates: [{q, u, upsert, multi, arrayFilters, hint, collation}], ordered}`
/// → `{n, writeErrors?, upserted?, nModified, ok}`.
pub fn update(
    engine: &mut Engine,
    db: &str,
    command: &Document,
    ctx: &MatchContext<'_>,
) -> Result<Document> {
    let ns = target_namespace(db, command)?;
    let request = UpdateRequest::parse(command)?;
    // One evaluation context for the whole command: `$$NOW` is one instant, as in MongoDB.
    let eval = engine.eval_context();
    let scope = match request.let_vars {
        Some(vars) => Scope::from_let_in(vars, &eval)?,
        None => Scope::default(),
    };
    let statements = &request.statements;
    let ordered = request.ordered;

    let mut n = 0;
    let mut modified = 0;
    let mut upserted = Vec::new();
    let mut write_errors = Vec::new();
    for (index, statement) in statements.iter().enumerate() {
        let bypass = request.bypass_empty_ts_replacement;
        match run_statement(engine, &ns, statement, bypass, &scope, &eval, ctx) {
            Ok(r) => {
                n += r.n;
                modified += r.modified;
                if let Some(id) = r.upserted_id {
                    upserted.push(doc! {"index": index as i32, "_id": id});
                }
            }
            Err(e) => {
                write_errors.push(write_error(index, &e));
                if ordered {
                    break;
                }
            }
        }
    }
    let mut reply = doc! {"n": count_value(n)};
    if !write_errors.is_empty() {
        reply.insert("writeErrors", write_errors);
    }
    if !upserted.is_empty() {
        reply.insert("upserted", upserted);
    }
    reply.insert("nModified", count_value(modified));
    reply.insert("ok", 1.0);
    Ok(reply)
}

/// Counts are ints in MongoDB's replies while they fit.
fn count_value(n: i64) -> Bson {
    match i32::try_from(n) {
        Ok(small) => Bson::Int32(small),
        Err(_) => Bson::Int64(n),
    }
}

fn run_statement(
    engine: &mut Engine,
    ns: &Namespace,
    statement: &UpdateStatement<'_>,
    bypass_empty_ts: bool,
    scope: &Scope,
    eval: &EvalContext,
    ctx: &MatchContext<'_>,
) -> Result<StatementResult> {
    let _collation = enter_collation(
        statement.collation,
        "update.updates.collation",
        engine.catalog().collection(ns),
    )?;
    let filters = ArrayFilters::parse(&statement.array_filters)?;
    let mut spec = UpdateSpec::parse_in(statement.u, &filters, scope)?;
    if !bypass_empty_ts {
        fill_replacement_timestamps(engine, &mut spec);
    }
    if statement.multi && spec.is_replacement() {
        return Err(Error::new(
            ErrorCode::FailedToParse,
            "multi update is not supported for replacement-style update",
        ));
    }
    if statement.upsert {
        check_upsert_query(statement.q)?;
    }
    let selection = FindSpec::parse_in(Some(statement.q), None, None, None, None, scope)?;
    let sort = match statement.sort {
        Some(s) if !s.is_empty() => Some(SortSpec::parse(s)?),
        _ => None,
    };
    let mut targets = matching_records(engine, ns, &selection, sort.as_ref(), ctx)?;
    if !statement.multi {
        targets.truncate(1);
    }
    let filter = &selection.filter;
    let mut result = StatementResult::default();
    for record_id in targets {
        result.n += 1;
        if update_record(engine, ns, record_id, &spec, filter, &filters, eval)?.is_some() {
            result.modified += 1;
        }
    }
    if result.n == 0 && statement.upsert {
        let (id, _) = insert_upsert(engine, ns, &spec, statement.q, &filters, eval)?;
        result.n = 1;
        result.upserted_id = Some(id);
    }
    Ok(result)
}

/// The record ids of the documents `selection` (a filter only) matches, in the order the
/// planner's chosen plan returns them (as MongoDB's update, findAndModify, count and distinct
/// select their documents), then stably in `sort` order when there is one. Evaluation errors
/// (`$where` with no evaluator, `$expr` failures) are returned, as find returns them.
pub(super) fn matching_records(
    engine: &Engine,
    ns: &Namespace,
    selection: &FindSpec,
    sort: Option<&SortSpec>,
    context: &MatchContext<'_>,
) -> Result<Vec<u64>> {
    let coll = engine.catalog().collection(ns);
    let mut records = crate::exec::matching_record_ids(coll, selection, context)?;
    if let (Some(sort), Some(coll)) = (sort, coll) {
        let mut keyed: Vec<(u64, &Document)> = records
            .iter()
            .filter_map(|rid| Some((*rid, coll.get(*rid)?)))
            .collect();
        crate::sort_slice::sort_by(&mut keyed, |a, b| sort.compare(a.1, b.1));
        records = keyed.into_iter().map(|(rid, _)| rid).collect();
    }
    Ok(records)
}

/// A replacement's top-level empty timestamps (but `_id`'s) become cluster times once, when
/// the statement is parsed, as MongoDB's ObjectReplaceExecutor fills them
/// ([`crate::write::empty_timestamp`]); operator and pipeline updates keep them.
pub(super) fn fill_replacement_timestamps(engine: &mut Engine, spec: &mut UpdateSpec) {
    if let UpdateSpec::Replacement(r) = spec {
        crate::write::empty_timestamp::fill_empty_timestamps(r, || engine.tick_cluster_time());
    }
}

/// Applies `spec` to one stored document and stores the result; returns the new document when
/// it changed (`None`: a no-op, which `nModified` does not count).
pub(super) fn update_record(
    engine: &mut Engine,
    ns: &Namespace,
    record_id: u64,
    spec: &UpdateSpec,
    filter: &Filter,
    filters: &ArrayFilters,
    eval: &EvalContext,
) -> Result<Option<Document>> {
    let Some(current) = engine
        .catalog()
        .collection(ns)
        .and_then(|c| c.get(record_id))
        .cloned()
    else {
        return Ok(None);
    };
    // The positional `$` stands for the array element the query matched (its elemMatchKey).
    let matched_position = if spec.is_positional() {
        filter.first_array_position(&current)
    } else {
        None
    };
    let env = UpdateEnv {
        array_filters: filters,
        now_millis: engine.now_millis(),
        matched_position,
        eval,
    };
    let Some(updated) = spec.apply(&current, &env)? else {
        return Ok(None);
    };
    crate::value::nesting::check_storable(&updated, crate::value::nesting::Write::Update)?;
    let bytes = updated
        .to_vec()
        .map_err(|e| Error::bad_value(e.to_string()))?;
    if bytes.len() > MAX_UPDATED_BYTES {
        return Err(Error::location(
            17419,
            format!("Resulting document after update is larger than {MAX_UPDATED_BYTES}"),
        ));
    }
    if let Some(v) = engine.validation_for(ns)? {
        v.check_update(&current, &updated)?;
    }
    let ns_text = ns.to_string();
    let Some(coll) = engine.catalog_mut().collection_mut(ns) else {
        return Ok(None);
    };
    // Only the indexes whose keys changed are touched (a unique clash changes nothing).
    coll.replace_encoded(&ns_text, record_id, updated.clone(), &bytes)?;
    engine.record(Change::PutDocument {
        ns: ns.clone(),
        record_id,
        bson: bytes,
    });
    Ok(Some(updated))
}

/// Inserts the document an upsert builds from `query` and `spec`; returns its `_id` and the
/// stored document. Creates the collection when needed.
pub(super) fn insert_upsert(
    engine: &mut Engine,
    ns: &Namespace,
    spec: &UpdateSpec,
    query: &Document,
    filters: &ArrayFilters,
    eval: &EvalContext,
) -> Result<(Bson, Document)> {
    let env = UpdateEnv {
        array_filters: filters,
        now_millis: engine.now_millis(),
        matched_position: None,
        eval,
    };
    let built = spec.upsert_document(query, &env)?;
    super::insert::check_upsert_size(&built)?;
    let doc = prepare_for_insert(engine, &built)?;
    let id = doc.get("_id").cloned().unwrap_or(Bson::Null);
    if let Some(v) = engine.validation_for(ns)? {
        v.check_insert(&doc)?;
    }
    let bytes = doc.to_vec().map_err(|e| Error::bad_value(e.to_string()))?;
    let ns_text = ns.to_string();
    engine.catalog().check_new_database(&ns.db)?;
    let (coll, created) = engine.catalog_mut().collection_or_create(ns);
    let record_id = coll.insert(&ns_text, doc.clone());
    if created {
        engine.record(Change::PutCollection {
            ns: ns.clone(),
            options: Document::new(),
        });
    }
    let record_id = record_id?;
    engine.record(Change::PutDocument {
        ns: ns.clone(),
        record_id,
        bson: bytes,
    });
    Ok((id, doc))
}

#[cfg(test)]
mod tests {
    use bson::{Bson, Document, doc};

    use crate::Engine;
    use crate::catalog::Namespace;
    use crate::storage::Change;

    /// A replacement's top-level empty timestamps become cluster times (also for an upsert
    /// and in findAndModify); `$set` and pipelines keep them, as does
    /// `bypassEmptyTsReplacement: true` (MongoDB's jstests/core/write/empty_ts/empty_ts.js).
    #[test]
    fn replacements_fill_empty_timestamps() {
        let empty = bson::Timestamp {
            time: 0,
            increment: 0,
        };
        let mut e = engine_with((1..=6).map(|i| doc! {"_id": i, "a": i}).collect());
        let commands = [
            doc! {"update": "c", "updates": [{"q": {"_id": 1}, "u": {"a": empty}}]},
            doc! {"update": "c", "updates": [{"q": {"_id": 7}, "u": {"a": empty, "n": {"b": empty}}, "upsert": true}]},
            doc! {"findAndModify": "c", "query": {"_id": 2}, "update": {"a": empty}},
            doc! {"update": "c", "updates": [{"q": {"_id": 3}, "u": {"$set": {"a": empty}}}]},
            doc! {"update": "c", "updates": [{"q": {"_id": 4}, "u": [{"$addFields": {"a": empty}}]}]},
            doc! {"update": "c", "updates": [{"q": {"_id": 5}, "u": {"a": empty}}], "bypassEmptyTsReplacement": true},
            doc! {"update": "c", "updates": [{"q": {"_id": 6}, "u": {"_id": 6, "a": empty}}]},
        ];
        for c in &commands {
            let r = e.run_command("t", c);
            assert_eq!(r.get_f64("ok").ok(), Some(1.0), "{c}: {r}");
            assert!(!r.contains_key("writeErrors"), "{c}: {r}");
        }
        let r = e.run_command("t", &doc! {"find": "c", "filter": {}, "sort": {"_id": 1}});
        let batch = r
            .get_document("cursor")
            .unwrap()
            .get_array("firstBatch")
            .unwrap();
        let filled: Vec<(i32, bool)> = batch
            .iter()
            .filter_map(Bson::as_document)
            .map(|d| {
                let a = d.get_timestamp("a").unwrap();
                (d.get_i32("_id").unwrap(), a != empty)
            })
            .collect();
        assert_eq!(
            filled,
            [
                (1, true),
                (2, true),
                (3, false),
                (4, false),
                (5, false),
                (6, true),
                (7, true)
            ]
        );
        let upserted = batch[6].as_document().unwrap();
        assert_eq!(upserted.get_document("n").unwrap(), &doc! {"b": empty});
    }

    fn engine_with(docs: Vec<Document>) -> Engine {
        let mut e = Engine::new();
        e.run_command("t", &doc! {"insert": "c", "documents": docs});
        e.take_changes();
        e
    }

    fn stored(e: &Engine) -> Vec<Document> {
        e.catalog()
            .collection(&Namespace::new("t", "c"))
            .map(|c| c.iter().map(|(_, d)| d.clone()).collect())
            .unwrap_or_default()
    }

    fn update(e: &mut Engine, updates: Vec<Document>) -> Document {
        e.run_command("t", &doc! {"update": "c", "updates": updates})
    }

    #[test]
    fn matched_and_modified_counts_are_exact() {
        let mut e = engine_with((0..3).map(|i| doc! {"_id": i, "a": 1}).collect());
        let r = update(
            &mut e,
            vec![doc! {"q": {}, "u": {"$set": {"a": 1}}, "multi": true}],
        );
        assert_eq!(r, doc! {"n": 3, "nModified": 0, "ok": 1.0});
        assert!(e.take_changes().is_empty(), "a no-op records no change");
        let r = update(
            &mut e,
            vec![doc! {"q": {}, "u": {"$set": {"a": 2}}, "multi": true}],
        );
        assert_eq!(r, doc! {"n": 3, "nModified": 3, "ok": 1.0});
        assert_eq!(e.take_changes().changes.len(), 3);
        let r = update(&mut e, vec![doc! {"q": {"a": 2}, "u": {"$inc": {"a": 1}}}]);
        assert_eq!(r, doc! {"n": 1, "nModified": 1, "ok": 1.0});
        let r = update(&mut e, vec![doc! {"q": {"a": 99}, "u": {"$inc": {"a": 1}}}]);
        assert_eq!(r, doc! {"n": 0, "nModified": 0, "ok": 1.0});
        // Several statements add up.
        let r = update(
            &mut e,
            vec![
                doc! {"q": {"_id": 0}, "u": {"$set": {"b": 1}}},
                doc! {"q": {"_id": 1}, "u": {"$set": {"a": 2}}},
                doc! {"q": {"_id": 2}, "u": {"$set": {"b": 1}}},
            ],
        );
        assert_eq!(r, doc! {"n": 3, "nModified": 2, "ok": 1.0});
        assert_eq!(
            stored(&e),
            vec![
                doc! {"_id": 0, "a": 3, "b": 1},
                doc! {"_id": 1, "a": 2},
                doc! {"_id": 2, "a": 2, "b": 1}
            ]
        );
    }

    #[test]
    fn updated_documents_keep_their_record_id() {
        let mut e = engine_with(vec![doc! {"_id": 1, "a": 1}, doc! {"_id": 2}]);
        update(&mut e, vec![doc! {"q": {"_id": 1}, "u": {"b": 2}}]);
        let batch = e.take_changes();
        assert_eq!(batch.changes.len(), 1);
        match &batch.changes[0] {
            Change::PutDocument {
                record_id, bson, ..
            } => {
                assert_eq!(*record_id, 1);
                let d = Document::from_reader(bson.as_slice()).unwrap();
                assert_eq!(d, doc! {"_id": 1, "b": 2});
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(stored(&e)[0], doc! {"_id": 1, "b": 2});
    }

    #[test]
    fn upserts_report_their_ids() {
        let mut e = Engine::new();
        let r = update(
            &mut e,
            vec![doc! {"q": {"x": 5}, "u": {"$set": {"y": 1}}, "upsert": true}],
        );
        assert_eq!(r.get_i32("n").unwrap(), 1);
        assert_eq!(r.get_i32("nModified").unwrap(), 0);
        let up = r.get_array("upserted").unwrap();
        let entry = up[0].as_document().unwrap();
        assert_eq!(entry.get_i32("index").unwrap(), 0);
        let id = entry.get("_id").unwrap().clone();
        assert!(matches!(id, Bson::ObjectId(_)));
        assert_eq!(stored(&e), vec![doc! {"_id": id, "x": 5, "y": 1}]);
        let keys: Vec<_> = r.keys().map(String::as_str).collect();
        assert_eq!(keys, ["n", "upserted", "nModified", "ok"]);
        // The collection was created in the same batch.
        let batch = e.take_changes();
        assert!(matches!(batch.changes[0], Change::PutCollection { .. }));
        assert_eq!(batch.changes.len(), 2);

        let r = update(
            &mut e,
            vec![
                doc! {"q": {"_id": 7}, "u": {"$inc": {"n": 1}}, "upsert": true},
                doc! {"q": {"_id": 7}, "u": {"$inc": {"n": 1}}, "upsert": true},
            ],
        );
        assert_eq!(
            r,
            doc! {"n": 2, "upserted": [{"index": 0, "_id": 7}], "nModified": 1, "ok": 1.0}
        );
        assert_eq!(stored(&e)[1], doc! {"_id": 7, "n": 2});
        // A replacement upsert takes the query's _id.
        update(
            &mut e,
            vec![doc! {"q": {"_id": 8, "k": 1}, "u": {"z": 1}, "upsert": true}],
        );
        assert_eq!(stored(&e)[2], doc! {"_id": 8, "z": 1});
    }

    #[test]
    fn statement_errors_become_write_errors() {
        let mut e = engine_with(vec![doc! {"_id": 1, "a": "x"}, doc! {"_id": 2, "a": 1}]);
        let statements = vec![
            doc! {"q": {"_id": 2}, "u": {"$inc": {"a": 1}}},
            doc! {"q": {"_id": 1}, "u": {"$inc": {"a": 1}}},
            doc! {"q": {"_id": 2}, "u": {"$inc": {"a": 1}}},
        ];
        let r = update(&mut e, statements.clone());
        assert_eq!(r.get_i32("n").unwrap(), 1);
        assert_eq!(r.get_i32("nModified").unwrap(), 1);
        let errors = r.get_array("writeErrors").unwrap();
        assert_eq!(errors.len(), 1);
        let w = errors[0].as_document().unwrap();
        assert_eq!(w.get_i32("index").unwrap(), 1);
        assert_eq!(w.get_i32("code").unwrap(), 14);
        let keys: Vec<_> = r.keys().map(String::as_str).collect();
        assert_eq!(keys, ["n", "writeErrors", "nModified", "ok"]);
        let r = e.run_command(
            "t",
            &doc! {"update": "c", "updates": statements, "ordered": false},
        );
        assert_eq!(r.get_i32("n").unwrap(), 2);
        assert_eq!(r.get_array("writeErrors").unwrap().len(), 1);
        assert_eq!(stored(&e)[1], doc! {"_id": 2, "a": 4});

        let r = update(&mut e, vec![doc! {"q": {}, "u": {"a": 1}, "multi": true}]);
        let w = r.get_array("writeErrors").unwrap()[0]
            .as_document()
            .unwrap()
            .clone();
        assert_eq!(w.get_i32("code").unwrap(), 9);
        assert_eq!(
            w.get_str("errmsg").unwrap(),
            "multi update is not supported for replacement-style update"
        );
        // An upsert that collides with an existing _id.
        let r = update(
            &mut e,
            vec![doc! {"q": {"a": "none"}, "u": {"_id": 1}, "upsert": true}],
        );
        let w = r.get_array("writeErrors").unwrap()[0]
            .as_document()
            .unwrap()
            .clone();
        assert_eq!(w.get_i32("code").unwrap(), 11000);
        // Bad filters are write errors too.
        let r = update(
            &mut e,
            vec![doc! {"q": {"$bogus": 1}, "u": {"$set": {"a": 1}}}],
        );
        assert_eq!(r.get_array("writeErrors").unwrap().len(), 1);
    }

    #[test]
    fn malformed_commands_fail_whole() {
        let mut e = Engine::new();
        let code =
            |e: &mut Engine, cmd: Document| e.run_command("t", &cmd).get_i32("code").unwrap();
        assert_eq!(code(&mut e, doc! {"update": "c"}), 40414);
        assert_eq!(code(&mut e, doc! {"update": "c", "updates": []}), 16);
        assert_eq!(code(&mut e, doc! {"update": "c", "updates": {}}), 14);
        assert_eq!(
            code(&mut e, doc! {"update": "c", "updates": [{"u": {}}]}),
            40414
        );
        assert_eq!(
            code(&mut e, doc! {"update": "c", "updates": [{"q": {}}]}),
            40414
        );
        assert_eq!(
            code(&mut e, doc! {"update": "c", "updates": [{"q": 1, "u": {}}]}),
            14
        );
        assert_eq!(
            code(&mut e, doc! {"update": "c", "updates": [{"q": {}, "u": 1}]}),
            9
        );
        assert_eq!(
            code(
                &mut e,
                doc! {"update": "c", "updates": [{"q": {}, "u": {}, "multi": 1}]}
            ),
            14
        );
        assert_eq!(
            code(
                &mut e,
                doc! {"update": "c", "updates": [{"q": {}, "u": {}, "x": 1}]}
            ),
            40415
        );
        assert_eq!(
            code(
                &mut e,
                doc! {"update": "c", "updates": [{"q": {}, "u": {}}], "x": 1}
            ),
            40415
        );
        assert_eq!(
            code(
                &mut e,
                doc! {"update": "c", "updates": [{"q": {}, "u": {}}], "writeConcern": {"w": true}}
            ),
            9
        );
        assert_eq!(
            code(
                &mut e,
                doc! {"update": "c", "updates": [{"q": {}, "u": {}, "arrayFilters": 1}]}
            ),
            14
        );
    }

    #[test]
    fn positional_operator_uses_the_matched_element() {
        let mut e = engine_with(vec![
            doc! {"_id": 1, "grades": [85, 92, 95]},
            doc! {"_id": 2, "items": [{"q": 1, "p": 1}, {"q": 5, "p": 1}]},
        ]);
        let r = update(
            &mut e,
            vec![
                doc! {"q": {"grades": {"$gte": 90}}, "u": {"$set": {"grades.$": 0}}},
                doc! {"q": {"items.q": 5}, "u": {"$inc": {"items.$.p": 10}}},
                doc! {"q": {"_id": 1}, "u": {"$set": {"grades.$": 1}}},
            ],
        );
        assert_eq!(r.get_i32("n").unwrap(), 2);
        let w = r.get_array("writeErrors").unwrap()[0]
            .as_document()
            .unwrap()
            .clone();
        assert_eq!(
            w.get_str("errmsg").unwrap(),
            "The positional operator did not find the match needed from the query."
        );
        assert_eq!(
            stored(&e),
            vec![
                doc! {"_id": 1, "grades": [85, 0, 95]},
                doc! {"_id": 2, "items": [{"q": 1, "p": 1}, {"q": 5, "p": 11}]}
            ]
        );
    }

    #[test]
    fn pull_and_array_filters_use_query_operators() {
        let mut e = engine_with(vec![doc! {"_id": 1, "v": [3, 6, 9], "g": [1, 5, 9]}]);
        let r = update(
            &mut e,
            vec![
                doc! {"q": {}, "u": {"$pull": {"v": {"$gte": 6}}}},
                doc! {"q": {}, "u": {"$inc": {"g.$[big]": 100}}, "arrayFilters": [{"big": {"$gt": 4}}]},
            ],
        );
        assert_eq!(r, doc! {"n": 2, "nModified": 2, "ok": 1.0});
        assert_eq!(stored(&e)[0], doc! {"_id": 1, "v": [3], "g": [1, 105, 109]});
    }

    #[test]
    fn sort_picks_the_document_a_single_update_changes() {
        let mut e = engine_with((1..=3).map(|i| doc! {"_id": i, "x": i * 11}).collect());
        let r = update(
            &mut e,
            vec![doc! {"q": {"_id": {"$gt": 1}}, "u": {"$inc": {"x": 1}}, "sort": {"_id": -1}}],
        );
        assert_eq!(r, doc! {"n": 1, "nModified": 1, "ok": 1.0});
        assert_eq!(stored(&e)[2], doc! {"_id": 3, "x": 34});
        let r = update(
            &mut e,
            vec![doc! {"q": {}, "u": {"$set": {"z": 1}}, "multi": true, "sort": {"x": 1}}],
        );
        assert_eq!(r.get_i32("code").unwrap(), 9);
        assert_eq!(
            r.get_str("errmsg").unwrap(),
            "Cannot specify sort with multi=true"
        );
    }

    #[test]
    fn a_statement_matches_under_its_collation() {
        let mut e = engine_with(vec![doc! {"_id": 1, "s": "a"}, doc! {"_id": 2, "s": "A"}]);
        let r = update(
            &mut e,
            vec![
                doc! {"q": {"s": "A"}, "u": {"$set": {"t": 1}}, "multi": true, "collation": {"locale": "en", "strength": 2}},
                doc! {"q": {"s": "A"}, "u": {"$set": {"u": 1}}, "multi": true, "collation": {"locale": "simple"}},
            ],
        );
        assert_eq!(r, doc! {"n": 3, "nModified": 3, "ok": 1.0});
        let r = update(
            &mut e,
            vec![doc! {"q": {"s": "a"}, "u": {"$set": {"t": 1}}, "collation": {"locale": "xx"}}],
        );
        let w = r.get_array("writeErrors").unwrap()[0]
            .as_document()
            .unwrap()
            .clone();
        assert_eq!(w.get_i32("code").unwrap(), 2);
    }

    #[test]
    fn pipeline_updates_with_let_upsert_and_counts() {
        let mut e = engine_with(vec![doc! {"_id": 1, "a": 1}, doc! {"_id": 2, "a": 2}]);
        let r = e.run_command(
            "t",
            &doc! {"update": "c", "let": {"v": 10}, "updates": [
                {"q": {"$expr": {"$eq": ["$a", {"$subtract": ["$$v", 9]}]}},
                 "u": [{"$set": {"b": {"$add": ["$a", "$$v"]}}}]},
                {"q": {"_id": 2}, "u": [{"$set": {"a": 2}}]},
                {"q": {"_id": 7, "k": "x"}, "u": [{"$set": {"n": "$$v"}}], "upsert": true},
            ]},
        );
        assert_eq!(
            r,
            doc! {"n": 3, "upserted": [{"index": 2, "_id": 7}], "nModified": 1, "ok": 1.0}
        );
        assert_eq!(
            stored(&e),
            vec![
                doc! {"_id": 1, "a": 1, "b": 11},
                doc! {"_id": 2, "a": 2},
                doc! {"_id": 7, "k": "x", "n": 10}
            ]
        );
        let r = update(
            &mut e,
            vec![doc! {"q": {}, "u": [{"$set": {"a": 1}}], "arrayFilters": [{"i": 1}]}],
        );
        let w = r.get_array("writeErrors").unwrap()[0]
            .as_document()
            .unwrap()
            .clone();
        assert_eq!(w.get_i32("code").unwrap(), 9);
        let r = update(
            &mut e,
            vec![doc! {"q": {"_id": 1}, "u": [{"$group": {"_id": 1}}]}],
        );
        let w = r.get_array("writeErrors").unwrap()[0]
            .as_document()
            .unwrap()
            .clone();
        assert_eq!(
            w.get_str("errmsg").unwrap(),
            "$group is not allowed to be used within an update"
        );
    }

    #[test]
    fn let_variables_reach_the_query() {
        let mut e = engine_with(vec![doc! {"_id": 1}, doc! {"_id": 2}]);
        let r = e.run_command(
            "t",
            &doc! {
                "update": "c",
                "updates": [{"q": {"$expr": {"$eq": ["$_id", "$$id"]}}, "u": {"$set": {"x": "foo"}}}],
                "let": {"id": 2},
            },
        );
        assert_eq!(r, doc! {"n": 1, "nModified": 1, "ok": 1.0});
        assert_eq!(stored(&e)[1], doc! {"_id": 2, "x": "foo"});
        let r = e.run_command(
            "t",
            &doc! {"update": "c", "updates": [{"q": {}, "u": {"$set": {"x": 1}}}], "let": 1},
        );
        assert_eq!(r.get_i32("code").unwrap(), 14);
    }

    #[test]
    fn unique_index_violations_are_write_errors_and_leave_the_document() {
        let mut e = engine_with(vec![doc! {"_id": 1, "k": 1}, doc! {"_id": 2, "k": 2}]);
        let r = e.run_command(
            "t",
            &doc! {"createIndexes": "c", "indexes": [{"key": {"k": 1}, "name": "k_1", "unique": true}]},
        );
        assert_eq!(r.get_f64("ok").unwrap(), 1.0, "{r}");
        e.take_changes();
        let r = update(
            &mut e,
            vec![doc! {"q": {"_id": 2}, "u": {"$set": {"k": 1}}}],
        );
        let w = r.get_array("writeErrors").unwrap()[0]
            .as_document()
            .unwrap()
            .clone();
        assert_eq!(w.get_i32("code").unwrap(), 11000);
        assert_eq!(r.get_i32("nModified").unwrap(), 0);
        assert_eq!(stored(&e)[1], doc! {"_id": 2, "k": 2});
        assert!(e.take_changes().is_empty());
        // The index follows updates: the old key is free again once changed.
        let r = update(
            &mut e,
            vec![doc! {"q": {"_id": 2}, "u": {"$set": {"k": 3}}}],
        );
        assert_eq!(r, doc! {"n": 1, "nModified": 1, "ok": 1.0});
        let r = update(
            &mut e,
            vec![doc! {"q": {"_id": 1}, "u": {"$set": {"k": 2}}}],
        );
        assert_eq!(r, doc! {"n": 1, "nModified": 1, "ok": 1.0});
    }

    #[test]
    fn array_filters_reach_the_update() {
        let mut e = engine_with(vec![doc! {"_id": 1, "g": [1, 5, 9]}]);
        let r = update(
            &mut e,
            vec![doc! {"q": {}, "u": {"$set": {"g.$[x]": 0}}, "arrayFilters": [{"x": 5}]}],
        );
        assert_eq!(r, doc! {"n": 1, "nModified": 1, "ok": 1.0});
        assert_eq!(stored(&e)[0], doc! {"_id": 1, "g": [1, 0, 9]});
    }
}
