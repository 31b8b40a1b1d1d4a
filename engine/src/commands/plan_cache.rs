//! `planCacheClear`: empties a collection's plan cache, or only the entries of one query shape
//! (`{planCacheClear: "c", query, sort, projection}`). `$planCacheStats` lists the entries.

use bson::{Document, doc};

use super::{document_option, target_namespace};
use crate::Engine;
use crate::error::{Error, Result};

pub fn plan_cache_clear(engine: &mut Engine, db: &str, command: &Document) -> Result<Document> {
    let ns = target_namespace(db, command)?;
    let query = document_option(command, "planCacheClear", "query")?;
    let sort = document_option(command, "planCacheClear", "sort")?;
    let projection = document_option(command, "planCacheClear", "projection")?;
    if query.is_none() && (sort.is_some() || projection.is_some()) {
        return Err(Error::bad_value(
            "sort or projection provided without query",
        ));
    }
    let shape = match query {
        Some(q) => Some(crate::exec::cached_plan::shape_for_clear(
            q, sort, projection,
        )?),
        None => None,
    };
    if let Some(coll) = engine.catalog().collection(&ns) {
        let mut cache = crate::planner::plan_cache::cache_of(coll);
        match shape {
            Some(s) => {
                cache.clear_shape(&s);
            }
            None => cache.clear(),
        }
    }
    Ok(doc! {"ok": 1.0})
}

#[cfg(test)]
mod tests {
    use bson::{Bson, doc};

    use crate::Engine;

    fn engine_with_two_indexes() -> Engine {
        let mut e = Engine::new();
        let docs: Vec<Bson> = (0..200)
            .map(|i| Bson::Document(doc! {"_id": i, "a": i % 10, "b": i}))
            .collect();
        e.run_command("t", &doc! {"insert": "c", "documents": docs});
        e.run_command(
            "t",
            &doc! {"createIndexes": "c", "indexes": [
            {"key": {"a": 1}, "name": "a_1"}, {"key": {"b": 1}, "name": "b_1"}]},
        );
        e
    }

    fn entries(e: &mut Engine) -> Vec<bson::Document> {
        let ns = crate::catalog::Namespace::new("t", "c");
        let coll = e.catalog().collection(&ns).unwrap();
        crate::planner::plan_cache::cache_of(coll)
            .entries()
            .map(|x| x.document())
            .collect()
    }

    fn find(e: &mut Engine, filter: bson::Document) -> usize {
        let r = e.run_command(
            "t",
            &doc! {"find": "c", "filter": filter, "batchSize": 1000},
        );
        r.get_document("cursor")
            .unwrap()
            .get_array("firstBatch")
            .unwrap()
            .len()
    }

    #[test]
    fn race_caches_then_activates_then_clears() {
        let mut e = engine_with_two_indexes();
        assert_eq!(find(&mut e, doc! {"a": 3, "b": {"$gte": 150}}), 5);
        let list = entries(&mut e);
        assert_eq!(list.len(), 1, "{list:?}");
        assert!(!list[0].get_bool("isActive").unwrap());
        let created = list[0].get_document("createdFromQuery").unwrap();
        assert_eq!(
            created.get_document("query").unwrap(),
            &doc! {"a": 3, "b": {"$gte": 150}}
        );
        assert_eq!(list[0].get_array("candidatePlanScores").unwrap().len(), 2);
        assert_eq!(list[0].get_array("creationExecStats").unwrap().len(), 2);
        // Same shape, other values: the winner needs no more works, so the entry activates.
        assert_eq!(find(&mut e, doc! {"a": 4, "b": {"$gte": 150}}), 5);
        let list = entries(&mut e);
        assert!(list[0].get_bool("isActive").unwrap(), "{list:?}");
        // The active plan answers the next query of the shape without a race, correctly.
        assert_eq!(find(&mut e, doc! {"a": 5, "b": {"$gte": 100}}), 10);
        // Explain shows the same hashes as the entry.
        let ex = e.run_command(
            "t",
            &doc! {"explain": {"find": "c", "filter": {"a": 1, "b": {"$gte": 7}}}, "verbosity": "queryPlanner"},
        );
        let qp = ex.get_document("queryPlanner").unwrap();
        assert_eq!(
            qp.get_str("queryHash").unwrap(),
            list[0].get_str("queryHash").unwrap()
        );
        assert_eq!(
            qp.get_str("planCacheKey").unwrap(),
            list[0].get_str("planCacheKey").unwrap()
        );
        // A clear of another shape keeps it; a clear of its shape or of all removes it.
        e.run_command("t", &doc! {"planCacheClear": "c", "query": {"b": 1}});
        assert_eq!(entries(&mut e).len(), 1);
        e.run_command(
            "t",
            &doc! {"planCacheClear": "c", "query": {"a": 9, "b": {"$gte": 0}}},
        );
        assert_eq!(entries(&mut e).len(), 0);
        find(&mut e, doc! {"a": 3, "b": {"$gte": 150}});
        e.run_command("t", &doc! {"planCacheClear": "c"});
        assert_eq!(entries(&mut e).len(), 0);
    }

    #[test]
    fn index_changes_clear_and_single_plans_are_not_cached() {
        let mut e = engine_with_two_indexes();
        find(&mut e, doc! {"a": 3, "b": {"$gte": 150}});
        assert_eq!(entries(&mut e).len(), 1);
        e.run_command(
            "t",
            &doc! {"createIndexes": "c", "indexes": [{"key": {"b": -1}, "name": "b_-1"}]},
        );
        assert_eq!(entries(&mut e).len(), 0);
        // One candidate (only `a_1` applies): no race, no entry.
        find(&mut e, doc! {"a": 3});
        assert_eq!(entries(&mut e).len(), 0);
        // Explain neither reads nor writes the cache.
        e.run_command(
            "t",
            &doc! {"explain": {"find": "c", "filter": {"a": 1, "b": 2}}, "verbosity": "executionStats"},
        );
        assert_eq!(entries(&mut e).len(), 0);
    }

    #[test]
    fn a_cached_plan_that_overruns_its_budget_is_replanned() {
        let mut e = Engine::new();
        // `a: 0` is rare while the cache is built, common afterwards.
        let docs: Vec<Bson> = (0..300)
            .map(|i| Bson::Document(doc! {"_id": i, "a": if i < 3 { 0 } else { 1 }, "b": i % 3}))
            .collect();
        e.run_command("t", &doc! {"insert": "c", "documents": docs});
        e.run_command(
            "t",
            &doc! {"createIndexes": "c", "indexes": [
            {"key": {"a": 1}, "name": "a_1"}, {"key": {"b": 1}, "name": "b_1"}]},
        );
        find(&mut e, doc! {"a": 0, "b": 0});
        find(&mut e, doc! {"a": 0, "b": 0});
        let list = entries(&mut e);
        assert!(list[0].get_bool("isActive").unwrap());
        let works = list[0].get_i64("works").unwrap();
        // Now `a: 1` matches 297 documents of which 99 have b: 2; the cached `a_1` plan needs
        // far more than works × 10 before a first batch, so it is evicted and re-planned.
        assert_eq!(find(&mut e, doc! {"a": 1, "b": 2}), 99);
        let list = entries(&mut e);
        assert_eq!(list.len(), 1);
        assert!(
            !list[0].get_bool("isActive").unwrap() || list[0].get_i64("works").unwrap() != works
        );
    }

    #[test]
    fn bad_clear_arguments() {
        let mut e = engine_with_two_indexes();
        let r = e.run_command("t", &doc! {"planCacheClear": "c", "sort": {"a": 1}});
        assert_eq!(r.get_i32("code").unwrap(), 2, "{r}");
        let r = e.run_command("t", &doc! {"planCacheClear": "c", "query": 1});
        assert_eq!(r.get_f64("ok").unwrap(), 0.0, "{r}");
    }
}
