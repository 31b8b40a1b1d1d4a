//! A hinted index scanned whole (MongoDB's `buildWholeIXSoln`): when the hinted index cannot
//! serve the query's predicates — a partial index whose filter the query does not imply, an
//! index of another collation than the query's — MongoDB does not fall back to a collection
//! scan but reads every key of the index, in its order, and checks the whole filter on the
//! documents fetched. A matching document the index lacks is therefore not found
//! (jstests/core/index_multiple_compatibility.js). The scan provides no sort (a collated
//! index's keys are not in its collation's order in Sprout) and covers nothing.

use super::bounds::Interval;
use super::predicates::{Conjunct, residual};
use super::{CanonicalQuery, IndexAccess, IxScanPlan, Solution};
use crate::error::Result;
use crate::index::Index;

/// An IXSCAN of every key of `index`, forwards (what a whole-index plan and a forced geo
/// index scan read).
pub(crate) fn all_keys_scan(index: &Index) -> Solution {
    Solution::IxScan(IxScanPlan {
        index_name: index.name().to_string(),
        bounds: vec![vec![Interval::all()]; index.spec.parts.len()],
        forward: true,
        key_range: None,
        filter: None,
        wildcard: None,
    })
}

/// The access path that reads all of `index` and filters the documents with the query's filter.
pub fn whole_index_scan(
    index: &Index,
    parts: &[Conjunct],
    q: &CanonicalQuery<'_>,
) -> Result<IndexAccess> {
    let all: Vec<&Conjunct> = parts.iter().collect();
    let scan = all_keys_scan(index);
    Ok(IndexAccess {
        solution: Solution::Fetch {
            filter: residual(&all, parts.len(), &q.spec.filter)?,
            child: Box::new(scan),
        },
        sort_dir: None,
        covered: false,
        leading_usable: false,
    })
}

#[cfg(test)]
mod tests {
    use bson::{Bson, Document, doc};

    use crate::Engine;

    fn ids(reply: &Document) -> Vec<i32> {
        let batch = reply
            .get_document("cursor")
            .and_then(|c| c.get_array("firstBatch"))
            .unwrap_or_else(|_| panic!("{reply}"));
        batch
            .iter()
            .filter_map(Bson::as_document)
            .map(|d| d.get_i32("_id").unwrap())
            .collect()
    }

    fn winning_stages(e: &mut Engine, find: Document) -> String {
        let r = e.run_command("t", &doc! {"explain": find, "verbosity": "queryPlanner"});
        let plan = r
            .get_document("queryPlanner")
            .and_then(|p| p.get_document("winningPlan"))
            .unwrap_or_else(|_| panic!("{r}"));
        let mut stages = Vec::new();
        let mut node = Some(plan);
        while let Some(n) = node {
            stages.push(n.get_str("stage").unwrap_or("?").to_string());
            node = n.get_document("inputStage").ok();
        }
        stages.join(" > ")
    }

    #[test]
    fn a_hinted_partial_index_the_query_does_not_imply_is_scanned_whole() {
        let mut e = Engine::new();
        e.run_command(
            "t",
            &doc! {"createIndexes": "c", "indexes": [
                {"key": {"a": 1}, "name": "small", "partialFilterExpression": {"a": {"$lt": 10}}},
                {"key": {"a": 1}, "name": "large", "partialFilterExpression": {"a": {"$gt": 20}}, "collation": {"locale": "en_US", "strength": 2}},
            ]},
        );
        e.run_command(
            "t",
            &doc! {"insert": "c", "documents": [{"_id": 1, "a": 5}, {"_id": 2, "a": 25}, {"_id": 3, "a": 15}]},
        );
        // {a: 5} is in `small` only: through `large` it is not found.
        let hinted =
            |index: &str, filter: Document| doc! {"find": "c", "filter": filter, "hint": index};
        assert_eq!(
            ids(&e.run_command("t", &hinted("small", doc! {"a": 5}))),
            [1]
        );
        assert_eq!(
            ids(&e.run_command("t", &hinted("large", doc! {"a": 5}))),
            Vec::<i32>::new()
        );
        assert_eq!(
            ids(&e.run_command("t", &hinted("large", doc! {"a": 25}))),
            [2]
        );
        // A document in neither index is found by neither.
        assert_eq!(
            ids(&e.run_command("t", &hinted("small", doc! {"a": 15}))),
            Vec::<i32>::new()
        );
        assert_eq!(ids(&e.run_command("t", &hinted("large", doc! {}))), [2]);
        assert_eq!(
            winning_stages(&mut e, hinted("large", doc! {"a": 5})),
            "FETCH > IXSCAN"
        );
        // Unhinted, neither serves {a: 15}: a collection scan finds it.
        let r = e.run_command("t", &doc! {"find": "c", "filter": {"a": 15}});
        assert_eq!(ids(&r), [3]);
    }

    #[test]
    fn a_hinted_index_of_another_collation_is_scanned_whole() {
        let mut e = Engine::new();
        e.run_command(
            "t",
            &doc! {"createIndexes": "c", "indexes": [
                {"key": {"a": 1}, "name": "a_ci", "collation": {"locale": "en_US", "strength": 2}, "sparse": true},
            ]},
        );
        e.run_command(
            "t",
            &doc! {"insert": "c", "documents": [{"_id": 1, "a": "x"}, {"_id": 2, "a": "X"}, {"_id": 3, "b": 1}]},
        );
        // The query's collation is the simple one: the index's keys are all read, the filter
        // is the query's; the sparse index lacks `_id` 3.
        let r = e.run_command(
            "t",
            &doc! {"find": "c", "filter": {"a": "X"}, "hint": "a_ci"},
        );
        assert_eq!(ids(&r), [2]);
        let r = e.run_command(
            "t",
            &doc! {"find": "c", "filter": {"a": {"$exists": false}}, "hint": "a_ci"},
        );
        assert_eq!(ids(&r), Vec::<i32>::new());
        let r = e.run_command(
            "t",
            &doc! {"find": "c", "filter": {}, "sort": {"_id": -1}, "hint": "a_ci"},
        );
        assert_eq!(ids(&r), [2, 1]);
        assert_eq!(
            winning_stages(
                &mut e,
                doc! {"find": "c", "filter": {"a": "x"}, "hint": "a_ci"}
            ),
            "FETCH > IXSCAN"
        );
    }
}
