//! `$indexStats`: one document per index of the aggregated collection with its usage since
//! the index was created (or the engine loaded): `{name, key, host, accesses: {ops, since},
//! spec}`. The executor counts an access each time a plan that uses the index runs to the end.

use bson::{Bson, DateTime, Document, doc};

use crate::catalog::Namespace;
use crate::error::{Error, ErrorCode, Result};
use crate::pipeline::{ParseContext, RunContext, Stage};

use super::coll_stats::HOST;

#[derive(Debug)]
pub struct IndexStats;

pub fn parse(arg: &Bson, _cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    match arg {
        Bson::Document(d) if d.is_empty() => Ok(Box::new(IndexStats)),
        _ => Err(Error::location(
            28803,
            "The $indexStats stage specification must be an empty object",
        )),
    }
}

impl Stage for IndexStats {
    fn name(&self) -> &'static str {
        "$indexStats"
    }

    fn is_source(&self) -> bool {
        true
    }

    fn runs_without_collection(&self) -> bool {
        false
    }

    fn apply(&self, _input: Vec<Document>, cx: &RunContext<'_>) -> Result<Vec<Document>> {
        let Some(coll_name) = cx.collection else {
            return Err(Error::new(
                ErrorCode::InvalidNamespace,
                "{aggregate: 1} is not valid for '$indexStats'; a collection is required.",
            ));
        };
        let Some(coll) = cx.catalog.collection(&Namespace::new(cx.db, coll_name)) else {
            return Ok(Vec::new());
        };
        let mut out = Vec::with_capacity(coll.indexes().len());
        for index in coll.indexes() {
            // An index created by this very command has no start time yet: it is now.
            let since = match index.usage.since() {
                Some(ms) => Bson::DateTime(DateTime::from_millis(ms)),
                None => cx.eval.now()?,
            };
            out.push(doc! {
                "name": index.name(),
                "key": index.spec.key.clone(),
                "host": HOST,
                "accesses": {"ops": index.usage.ops() as i64, "since": since},
                "spec": index.spec.document.clone(),
            });
        }
        Ok(out)
    }

    fn serialize(&self) -> Document {
        doc! {"$indexStats": {}}
    }
}

#[cfg(test)]
mod tests {
    use bson::{Bson, Document, doc};

    use crate::Engine;
    use crate::clock::SimulatedClock;

    fn stats(e: &mut Engine) -> Vec<Document> {
        let r = e.run_command(
            "t",
            &doc! {"aggregate": "c", "pipeline": [{"$indexStats": {}}], "cursor": {}},
        );
        crate::pipeline::test_support::first_batch(&r)
    }

    fn ops(doc: &Document) -> i64 {
        doc.get_document("accesses")
            .unwrap()
            .get_i64("ops")
            .unwrap()
    }

    #[test]
    fn counts_the_plans_that_ran() {
        let mut e = Engine::with_clock(Box::new(SimulatedClock::new(1_000)), 1);
        e.run_command(
            "t",
            &doc! {"insert": "c", "documents": [{"_id": 1, "a": 1}, {"_id": 2, "a": 2}]},
        );
        e.run_command(
            "t",
            &doc! {"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1"}]},
        );
        e.run_command("t", &doc! {"find": "c", "filter": {"a": 1}});
        e.run_command("t", &doc! {"find": "c", "filter": {"a": {"$gt": 0}}});
        e.run_command("t", &doc! {"find": "c", "filter": {"_id": 2}});
        e.run_command("t", &doc! {"find": "c", "filter": {"b": 1}});
        e.run_command("t", &doc! {"count": "c", "query": {"a": 2}});
        let s = stats(&mut e);
        assert_eq!(s.len(), 2);
        assert_eq!(
            s[1],
            doc! {
                "name": "a_1", "key": {"a": 1}, "host": "sprout:27017",
                "accesses": {"ops": 3_i64, "since": s[1].get_document("accesses").unwrap().get("since").unwrap().clone()},
                "spec": {"v": 2, "key": {"a": 1}, "name": "a_1"},
            }
        );
        assert!(matches!(
            s[1].get_document("accesses").unwrap().get("since"),
            Some(Bson::DateTime(_))
        ));
        assert_eq!((s[0].get_str("name").unwrap(), ops(&s[0])), ("_id_", 1));
        let r = e.run_command(
            "t",
            &doc! {"aggregate": "c", "pipeline": [{"$match": {}}, {"$indexStats": {}}], "cursor": {}},
        );
        assert_eq!(r.get_i32("code").unwrap(), 40602);
        let r = e.run_command(
            "t",
            &doc! {"aggregate": 1, "pipeline": [{"$indexStats": {}}], "cursor": {}},
        );
        assert_eq!(r.get_i32("code").unwrap(), 73);
    }
}
