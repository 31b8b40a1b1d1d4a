//! The `delete` command.

use bson::{Document, doc};

use super::request::delete::{DeleteRequest, DeleteStatement};
use super::target_namespace;
use crate::Engine;
use crate::commands::insert::write_error;
use crate::error::Result;
use crate::matcher::MatchContext;
use crate::query::FindSpec;
use crate::storage::Change;

/// `{delete: <coll>, deletes: [{q, limit}], ordered}` → `{n, writeErrors?, ok}`.
pub fn delete(
    engine: &mut Engine,
    db: &str,
    command: &Document,
    ctx: &MatchContext<'_>,
) -> Result<Document> {
    let ns = target_namespace(db, command)?;
    let request = DeleteRequest::parse(command)?;
    crate::write::check_write_concern(command)?;
    let mut n = 0;
    let mut write_errors = Vec::new();
    for (index, statement) in request.deletes.iter().enumerate() {
        let deleted = DeleteStatement::parse(statement).and_then(|statement| {
            delete_one_statement(engine, &ns, &statement, request.let_vars, ctx)
        });
        match deleted {
            Ok(count) => n += count,
            Err(e) => {
                // A malformed statement fails the whole command, as in MongoDB.
                if index == 0 && request.deletes.len() == 1 {
                    return Err(e);
                }
                write_errors.push(write_error(index, &e));
                if request.ordered {
                    break;
                }
            }
        }
    }
    let mut reply = doc! {"n": n};
    if !write_errors.is_empty() {
        reply.insert("writeErrors", write_errors);
    }
    reply.insert("ok", 1.0);
    Ok(reply)
}

fn delete_one_statement(
    engine: &mut Engine,
    ns: &crate::catalog::Namespace,
    statement: &DeleteStatement<'_>,
    let_vars: Option<&Document>,
    ctx: &MatchContext<'_>,
) -> Result<i32> {
    // The planner picks the documents (and, for limit 1, which one comes first), so an index
    // decides deleteOne's victim as in MongoDB; $where/$expr evaluation errors are reported.
    let _collation = crate::write::collation::enter_collation(
        statement.collation,
        "delete.deletes.collation",
        engine.catalog().collection(ns),
    )?;
    let spec = FindSpec::parse_with_let(Some(statement.q), None, None, None, None, let_vars)?;
    let mut victims =
        crate::exec::matching_record_ids(engine.catalog().collection(ns), &spec, ctx)?;
    if statement.just_one {
        victims.truncate(1);
    }
    let Some(coll) = engine.catalog_mut().collection_mut(ns) else {
        return Ok(0);
    };
    for rid in &victims {
        coll.remove(*rid);
    }
    for rid in &victims {
        engine.record(Change::DeleteDocument {
            ns: ns.clone(),
            record_id: *rid,
        });
    }
    Ok(victims.len() as i32)
}

#[cfg(test)]
mod tests {
    use crate::Engine;
    use bson::doc;

    #[test]
    fn delete_many_and_one() {
        let mut e = Engine::new();
        let docs: Vec<_> = (0..6).map(|i| doc! {"_id": i, "k": i % 2}).collect();
        e.run_command("t", &doc! {"insert": "c", "documents": docs});
        let r = e.run_command(
            "t",
            &doc! {"delete": "c", "deletes": [{"q": {"k": 1}, "limit": 1}]},
        );
        assert_eq!(r, doc! {"n": 1, "ok": 1.0});
        let r = e.run_command(
            "t",
            &doc! {"delete": "c", "deletes": [{"q": {"k": 1}, "limit": 0}]},
        );
        assert_eq!(r, doc! {"n": 2, "ok": 1.0});
        let r = e.run_command(
            "t",
            &doc! {"delete": "c", "deletes": [{"q": {}, "limit": 0}]},
        );
        assert_eq!(r, doc! {"n": 3, "ok": 1.0});
        let r = e.run_command(
            "t",
            &doc! {"delete": "c", "deletes": [{"q": 5, "limit": 0}]},
        );
        assert_eq!(r.get_i32("code").unwrap(), 14);
    }

    #[test]
    fn delete_one_takes_the_first_document_of_the_chosen_plan() {
        let mut e = Engine::new();
        e.run_command(
            "t",
            &doc! {"insert": "c", "documents": [{"_id": 1, "a": 3}, {"_id": 2, "a": 1}]},
        );
        // Without an index the collection scan meets _id 1 first.
        let mut e2 = Engine::new();
        e2.run_command(
            "t",
            &doc! {"insert": "c", "documents": [{"_id": 1, "a": 3}, {"_id": 2, "a": 1}]},
        );
        e2.run_command(
            "t",
            &doc! {"delete": "c", "deletes": [{"q": {"a": {"$gte": 0}}, "limit": 1}]},
        );
        let left = e2.run_command("t", &doc! {"find": "c"});
        assert_eq!(
            left.get_document("cursor")
                .unwrap()
                .get_array("firstBatch")
                .unwrap()[0],
            doc! {"_id": 2, "a": 1}.into()
        );
        // With {a: 1} the index scan meets a: 1 (_id 2) first.
        e.run_command(
            "t",
            &doc! {"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1"}]},
        );
        e.run_command(
            "t",
            &doc! {"delete": "c", "deletes": [{"q": {"a": {"$gte": 0}}, "limit": 1}]},
        );
        let left = e.run_command("t", &doc! {"find": "c"});
        assert_eq!(
            left.get_document("cursor")
                .unwrap()
                .get_array("firstBatch")
                .unwrap()[0],
            doc! {"_id": 1, "a": 3}.into()
        );
    }
}
