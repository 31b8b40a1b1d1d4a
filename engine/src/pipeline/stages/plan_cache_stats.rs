//! `$planCacheStats`: one document per entry of the plan cache of the collection the pipeline
//! runs on (`planner::plan_cache`), in creation order. It must be the first stage; `allHosts`
//! is for sharded clusters and refused on this single server, as a standalone mongod does.

use bson::{Bson, Document, doc};

use crate::catalog::Namespace;
use crate::error::{Error, Result};
use crate::pipeline::{ParseContext, RunContext, Stage};
use crate::value::display::type_name;

#[derive(Debug)]
pub struct PlanCacheStats {
    spec: Document,
}

pub fn parse(arg: &Bson, cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    let Bson::Document(spec) = arg else {
        return Err(Error::type_mismatch(format!(
            "$planCacheStats value must be an object. Found: {}",
            type_name(arg)
        )));
    };
    for (k, v) in spec {
        match k.as_str() {
            "allHosts" => match v {
                Bson::Boolean(false) => {}
                Bson::Boolean(true) => {
                    return Err(Error::location(
                        4503200,
                        "$planCacheStats stage does not support allHosts=true on a replica set or standalone",
                    ));
                }
                other => {
                    return Err(Error::type_mismatch(format!(
                        "BSON field '$planCacheStats.allHosts' is the wrong type '{}', expected type 'bool'",
                        type_name(other)
                    )));
                }
            },
            other => {
                return Err(Error::location(
                    40415,
                    format!("BSON field '$planCacheStats.{other}' is an unknown field."),
                ));
            }
        }
    }
    if cx.position != 0 {
        return Err(Error::location(
            40602,
            "$planCacheStats is only valid as the first stage in a pipeline",
        ));
    }
    Ok(Box::new(PlanCacheStats { spec: spec.clone() }))
}

impl Stage for PlanCacheStats {
    fn name(&self) -> &'static str {
        "$planCacheStats"
    }

    fn runs_without_collection(&self) -> bool {
        false
    }

    fn apply(&self, _input: Vec<Document>, cx: &RunContext<'_>) -> Result<Vec<Document>> {
        let ns = Namespace::new(cx.db, cx.collection.unwrap_or_default());
        Ok(cx.catalog.collection(&ns).map_or_else(Vec::new, |c| {
            crate::planner::plan_cache::cache_of(c)
                .entries()
                .map(|e| e.document())
                .collect()
        }))
    }

    fn serialize(&self) -> Document {
        doc! {"$planCacheStats": self.spec.clone()}
    }
}

#[cfg(test)]
mod tests {
    use bson::{Bson, doc};

    use crate::Engine;

    #[test]
    fn lists_the_cache_and_refuses_misplacement() {
        let mut e = Engine::new();
        let docs: Vec<Bson> = (0..100)
            .map(|i| Bson::Document(doc! {"_id": i, "a": i % 10, "b": i}))
            .collect();
        e.run_command("t", &doc! {"insert": "c", "documents": docs});
        e.run_command(
            "t",
            &doc! {"createIndexes": "c", "indexes": [
            {"key": {"a": 1}, "name": "a_1"}, {"key": {"b": 1}, "name": "b_1"}]},
        );
        e.run_command(
            "t",
            &doc! {"find": "c", "filter": {"a": 1, "b": {"$gt": 50}}},
        );
        let r = e.run_command(
            "t",
            &doc! {"aggregate": "c", "pipeline": [
            {"$planCacheStats": {}}, {"$project": {"isActive": 1, "works": 1, "_id": 0}}],
            "cursor": {}},
        );
        let batch = r
            .get_document("cursor")
            .unwrap()
            .get_array("firstBatch")
            .unwrap();
        assert_eq!(batch.len(), 1, "{r}");
        let entry = batch[0].as_document().unwrap();
        assert!(!entry.get_bool("isActive").unwrap());
        assert!(entry.get_i64("works").unwrap() > 0);
        let r = e.run_command(
            "t",
            &doc! {"aggregate": "c", "pipeline": [{"$match": {}}, {"$planCacheStats": {}}], "cursor": {}},
        );
        assert_eq!(r.get_i32("code").unwrap(), 40602, "{r}");
        let r = e.run_command(
            "t",
            &doc! {"aggregate": "c", "pipeline": [{"$planCacheStats": {"allHosts": true}}], "cursor": {}},
        );
        assert_eq!(r.get_f64("ok").unwrap(), 0.0, "{r}");
        let r = e.run_command(
            "t",
            &doc! {"aggregate": 1, "pipeline": [{"$planCacheStats": {}}], "cursor": {}},
        );
        assert_eq!(r.get_f64("ok").unwrap(), 0.0, "{r}");
    }
}
