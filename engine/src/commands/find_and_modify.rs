//! The `findAndModify` command: update, replace or remove one document and return it (as it
//! was, or with `new: true` as it became).

use bson::{Bson, Document, doc};

use super::request::find_and_modify::FindAndModifyRequest;
use super::target_namespace;
use super::update::{insert_upsert, matching_records, update_record};
use crate::Engine;
use crate::catalog::Namespace;
use crate::error::{Error, Result};
use crate::expression::{EvalContext, Scope};
use crate::matcher::{Filter, MatchContext};
use crate::query::FindSpec;
use crate::sort::SortSpec;
use crate::storage::Change;
use crate::update::{ArrayFilters, UpdateSpec, check_upsert_query};

/// `{findAndModify: <coll>, query, sort, remove, update, new, fields, upsert, arrayFilters}`
/// → `{lastErrorObject: {n, updatedExisting, upserted?}, value, ok}`.
pub fn find_and_modify(
    engine: &mut Engine,
    db: &str,
    command: &Document,
    ctx: &MatchContext<'_>,
) -> Result<Document> {
    let ns = target_namespace(db, command)?;
    let request = FindAndModifyRequest::parse(command)?;
    let empty = Document::new();
    let query = request.query.unwrap_or(&empty);
    // The query, sort and projection are parsed (and checked together) as find parses them.
    let mut find = FindSpec::parse_with_let(
        Some(query),
        request.sort,
        request.fields,
        None,
        None,
        request.let_vars,
    )?;
    // MongoDB 8.0's get_executor.cpp (makeProjection): findAndModify returns no sort key.
    if find
        .projection
        .as_ref()
        .is_some_and(crate::projection::Projection::needs_sort_key)
    {
        return Err(Error::bad_value(
            "Cannot use a $meta sortKey projection in findAndModify commands.",
        ));
    }
    if request.upsert {
        check_upsert_query(query)?;
    }
    let eval = engine.eval_context();
    let spec = match request.update {
        Some(u) => {
            let filters = ArrayFilters::parse(&request.array_filters)?;
            let scope = match request.let_vars {
                Some(vars) => Scope::from_let_in(vars, &eval)?,
                None => Scope::default(),
            };
            let mut spec = UpdateSpec::parse_in(u, &filters, &scope)?;
            super::update::fill_replacement_timestamps(engine, &mut spec);
            Some((spec, filters))
        }
        None => None,
    };
    // The documents are selected by the filter alone (then ordered by the sort), as update
    // selects them; the projection applies to the returned document.
    let (sort, projection) = (find.sort.take(), find.projection.take());
    let target = first_match(engine, &ns, &find, sort.as_ref(), ctx)?;
    find.projection = projection;

    let (last_error, value) = match &spec {
        None => remove_one(engine, &ns, target),
        Some((spec, filters)) => update_one(
            engine,
            &ns,
            target,
            spec,
            &find.filter,
            filters,
            query,
            request.upsert,
            request.return_new,
            &eval,
        )?,
    };
    let value = match value {
        Bson::Document(d) => Bson::Document(find.project(&d, ctx)?),
        other => other,
    };
    Ok(doc! {"lastErrorObject": last_error, "value": value, "ok": 1.0})
}

/// The record the command acts on: the first match in sort order (plan order without a sort).
fn first_match(
    engine: &Engine,
    ns: &Namespace,
    selection: &FindSpec,
    sort: Option<&SortSpec>,
    ctx: &MatchContext<'_>,
) -> Result<Option<(u64, Document)>> {
    let records = matching_records(engine, ns, selection, sort, ctx)?;
    let found = records.first().and_then(|record_id| {
        let doc = engine.catalog().collection(ns)?.get(*record_id)?.clone();
        Some((*record_id, doc))
    });
    Ok(found)
}

fn remove_one(
    engine: &mut Engine,
    ns: &Namespace,
    target: Option<(u64, Document)>,
) -> (Document, Bson) {
    let Some((record_id, doc)) = target else {
        return (doc! {"n": 0}, Bson::Null);
    };
    if let Some(coll) = engine.catalog_mut().collection_mut(ns) {
        coll.remove(record_id);
    }
    engine.record(Change::DeleteDocument {
        ns: ns.clone(),
        record_id,
    });
    (doc! {"n": 1}, Bson::Document(doc))
}

#[allow(clippy::too_many_arguments)]
fn update_one(
    engine: &mut Engine,
    ns: &Namespace,
    target: Option<(u64, Document)>,
    spec: &UpdateSpec,
    filter: &Filter,
    filters: &ArrayFilters,
    query: &Document,
    upsert: bool,
    return_new: bool,
    eval: &EvalContext,
) -> Result<(Document, Bson)> {
    match target {
        Some((record_id, before)) => {
            let after = update_record(engine, ns, record_id, spec, filter, filters, eval)?;
            let value = if return_new {
                after.unwrap_or_else(|| before.clone())
            } else {
                before
            };
            Ok((
                doc! {"n": 1, "updatedExisting": true},
                Bson::Document(value),
            ))
        }
        None if upsert => {
            let (id, inserted) = insert_upsert(engine, ns, spec, query, filters, eval)?;
            let value = if return_new {
                Bson::Document(inserted)
            } else {
                Bson::Null
            };
            Ok((
                doc! {"n": 1, "updatedExisting": false, "upserted": id},
                value,
            ))
        }
        None => Ok((doc! {"n": 0, "updatedExisting": false}, Bson::Null)),
    }
}

#[cfg(test)]
mod tests {
    use bson::{Bson, Document, doc};

    use crate::Engine;

    /// findAndModify refuses a `{$meta: "sortKey"}` projection (BadValue), with a sort or not.
    #[test]
    fn sort_key_projection_is_refused() {
        let mut e = engine();
        for cmd in [
            doc! {"findAndModify": "c", "query": {"_id": 1}, "update": {"$set": {"b": 1}},
            "sort": {"n": 1}, "fields": {"x": {"$meta": "sortKey"}}},
            doc! {"findAndModify": "c", "remove": true, "sort": {"n": 1},
            "fields": {"x": {"$meta": "sortKey"}}},
        ] {
            let r = e.run_command("t", &cmd);
            assert_eq!(r.get_i32("code").unwrap(), 2, "{r}");
        }
        let r = e.run_command("t", &doc! {"find": "c", "filter": {"_id": 1}});
        assert_eq!(
            crate::commands::first_batch(&r),
            vec![doc! {"_id": 1, "k": "a", "n": 3}]
        );
    }

    fn engine() -> Engine {
        let mut e = Engine::new();
        e.run_command(
            "t",
            &doc! {"insert": "c", "documents": [
                {"_id": 1, "k": "a", "n": 3},
                {"_id": 2, "k": "a", "n": 1},
                {"_id": 3, "k": "b", "n": 2},
            ]},
        );
        e
    }

    fn fam(e: &mut Engine, args: Document) -> Document {
        let mut cmd = doc! {"findAndModify": "c"};
        cmd.extend(args);
        e.run_command("t", &cmd)
    }

    #[test]
    fn returns_the_old_or_new_document() {
        let mut e = engine();
        let r = fam(
            &mut e,
            doc! {"query": {"k": "a"}, "update": {"$inc": {"n": 10}}},
        );
        assert_eq!(
            r,
            doc! {
                "lastErrorObject": {"n": 1, "updatedExisting": true},
                "value": {"_id": 1, "k": "a", "n": 3},
                "ok": 1.0
            }
        );
        let r = fam(
            &mut e,
            doc! {"query": {"k": "a"}, "sort": {"n": 1}, "update": {"$inc": {"n": 10}}, "new": true},
        );
        assert_eq!(
            r.get_document("value").unwrap(),
            &doc! {"_id": 2, "k": "a", "n": 11}
        );
        // A no-op update still reports the match.
        let r = fam(
            &mut e,
            doc! {"query": {"_id": 3}, "update": {"$set": {"n": 2}}, "new": true},
        );
        assert_eq!(
            r.get_document("lastErrorObject").unwrap(),
            &doc! {"n": 1, "updatedExisting": true}
        );
        // Replacement.
        let r = fam(
            &mut e,
            doc! {"query": {"_id": 3}, "update": {"z": 1}, "new": true},
        );
        assert_eq!(r.get_document("value").unwrap(), &doc! {"_id": 3, "z": 1});
    }

    #[test]
    fn pipelines_and_let_reach_the_update() {
        let mut e = engine();
        let r = fam(
            &mut e,
            doc! {"query": {"_id": 1}, "update": [{"$set": {"n": {"$multiply": ["$n", "$$f"]}}}],
            "let": {"f": 2}, "new": true},
        );
        assert_eq!(
            r.get_document("value").unwrap(),
            &doc! {"_id": 1, "k": "a", "n": 6}
        );
        let r = fam(
            &mut e,
            doc! {"query": {"_id": 1}, "update": [{"$sort": {"n": 1}}]},
        );
        assert_eq!(r.get_i32("code").unwrap(), 72);
    }

    #[test]
    fn no_match_and_upsert() {
        let mut e = engine();
        let r = fam(
            &mut e,
            doc! {"query": {"k": "zz"}, "update": {"$set": {"n": 0}}},
        );
        assert_eq!(
            r,
            doc! {"lastErrorObject": {"n": 0, "updatedExisting": false}, "value": null, "ok": 1.0}
        );
        let r = fam(
            &mut e,
            doc! {"query": {"_id": 9, "k": "zz"}, "update": {"$set": {"n": 0}}, "upsert": true},
        );
        assert_eq!(
            r,
            doc! {
                "lastErrorObject": {"n": 1, "updatedExisting": false, "upserted": 9},
                "value": null,
                "ok": 1.0
            }
        );
        let r = fam(
            &mut e,
            doc! {"query": {"k": "new"}, "update": {"$set": {"n": 0}}, "upsert": true, "new": true},
        );
        let value = r.get_document("value").unwrap();
        assert!(matches!(value.get("_id"), Some(Bson::ObjectId(_))));
        assert_eq!(value.get_str("k").unwrap(), "new");
    }

    #[test]
    fn remove_returns_the_removed_document() {
        let mut e = engine();
        let r = fam(
            &mut e,
            doc! {"query": {"k": "a"}, "sort": {"n": -1}, "remove": true},
        );
        assert_eq!(
            r,
            doc! {"lastErrorObject": {"n": 1}, "value": {"_id": 1, "k": "a", "n": 3}, "ok": 1.0}
        );
        let r = fam(&mut e, doc! {"query": {"_id": 1}, "remove": true});
        assert_eq!(
            r,
            doc! {"lastErrorObject": {"n": 0}, "value": null, "ok": 1.0}
        );
        let r = e.run_command("t", &doc! {"count": "c"});
        assert_eq!(r.get_i32("n").unwrap(), 2);
    }

    #[test]
    fn fields_project_the_returned_document() {
        let mut e = engine();
        let r = fam(
            &mut e,
            doc! {"query": {"_id": 2}, "update": {"$inc": {"n": 1}}, "new": true, "fields": {"n": 1, "_id": 0}},
        );
        assert_eq!(r.get_document("value").unwrap(), &doc! {"n": 2});
        let r = fam(
            &mut e,
            doc! {"query": {"_id": 3}, "remove": true, "fields": {"k": 0}},
        );
        assert_eq!(r.get_document("value").unwrap(), &doc! {"_id": 3, "n": 2});
        let r = fam(
            &mut e,
            doc! {"query": {}, "remove": true, "fields": {"a": 1, "b": 0}},
        );
        assert_eq!(r.get_i32("code").unwrap(), 31254);
    }

    #[test]
    fn let_variables_reach_the_query() {
        let mut e = engine();
        let r = fam(
            &mut e,
            doc! {"query": {"$expr": {"$eq": ["$_id", "$$id"]}}, "remove": true, "let": {"id": 3}},
        );
        assert_eq!(
            r.get_document("value").unwrap(),
            &doc! {"_id": 3, "k": "b", "n": 2}
        );
    }

    #[test]
    fn argument_errors() {
        let mut e = engine();
        let err = |e: &mut Engine, args: Document| {
            let r = fam(e, args);
            (
                r.get_i32("code").unwrap(),
                r.get_str("errmsg").unwrap().to_string(),
            )
        };
        assert_eq!(
            err(&mut e, doc! {"query": {}}),
            (
                9,
                "Either an update or remove=true must be specified".into()
            )
        );
        assert_eq!(
            err(&mut e, doc! {"remove": true, "update": {"$set": {"a": 1}}}),
            (9, "Cannot specify both an update and remove=true".into())
        );
        assert_eq!(err(&mut e, doc! {"remove": true, "new": true}).0, 9);
        assert_eq!(err(&mut e, doc! {"remove": true, "upsert": true}).0, 9);
        assert_eq!(err(&mut e, doc! {"query": 1, "remove": true}).0, 14);
        assert_eq!(
            err(&mut e, doc! {"update": {"$set": {"k": 1}}, "bogus": 1}).0,
            40415
        );
        // Update errors fail the command.
        let (code, msg) = err(
            &mut e,
            doc! {"query": {"_id": 1}, "update": {"$inc": {"k": 1}}},
        );
        assert_eq!(code, 14);
        assert!(msg.starts_with("Cannot apply $inc to a value of non-numeric type."));
        assert_eq!(err(&mut e, doc! {"update": {"$foo": {"k": 1}}}).0, 9);
    }
}

#[cfg(test)]
mod no_panic {
    use bson::{Bson, Document, bson, doc};

    use crate::Engine;

    /// Every write-side command with every field set to every kind of value answers with a
    /// reply (success or a MongoDB error), never a panic.
    #[test]
    fn odd_arguments_never_panic() {
        let values = [
            Bson::Null,
            Bson::Int32(-1),
            Bson::Int64(i64::MIN),
            Bson::Double(f64::NAN),
            Bson::String("x".into()),
            Bson::Boolean(true),
            bson!([]),
            bson!([{}]),
            bson!([1, "a"]),
            bson!({}),
            bson!({"$set": {"a": 1}}),
            bson!({"a": 1}),
            bson!({"$bogus": 1}),
        ];
        let commands: [(&str, &[&str]); 4] = [
            ("update", &["updates", "ordered", "writeConcern", "let"]),
            (
                "findAndModify",
                &[
                    "query",
                    "sort",
                    "remove",
                    "update",
                    "new",
                    "fields",
                    "upsert",
                    "arrayFilters",
                ],
            ),
            ("count", &["query", "limit", "skip", "hint", "collation"]),
            ("distinct", &["key", "query", "collation"]),
        ];
        let mut e = Engine::new();
        e.run_command(
            "t",
            &doc! {"insert": "c", "documents": [{"_id": 1, "a": [1, {"b": 2}]}]},
        );
        let statement_fields = [
            "q",
            "u",
            "upsert",
            "multi",
            "arrayFilters",
            "hint",
            "collation",
            "sort",
        ];
        for (name, fields) in commands {
            for field in fields {
                for v in &values {
                    let mut cmd = Document::new();
                    cmd.insert(name, "c");
                    cmd.insert(*field, v.clone());
                    let reply = e.run_command("t", &cmd);
                    assert!(reply.contains_key("ok"), "{cmd}");
                }
            }
        }
        for field in statement_fields {
            for v in &values {
                let mut statement = doc! {"q": {}, "u": {"$set": {"z": 1}}};
                statement.insert(field, v.clone());
                let reply = e.run_command("t", &doc! {"update": "c", "updates": [statement]});
                assert!(reply.contains_key("ok"));
            }
        }
    }
}
