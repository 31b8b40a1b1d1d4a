//! Explode for sort: an index whose leading key parts are bounded by a few points (`$in`, or
//! equalities) and whose following parts are the requested sort returns each point's keys in
//! sort order. MongoDB then scans each point combination separately and merges the scans in
//! sort order (`SORT_MERGE` of IXSCANs, with the FETCH above the merge) instead of sorting
//! everything in a blocking SORT, as long as there are at most `internalQueryMaxScansToExplode`
//! (200) scans.

use super::bounds::Interval;
use super::{CanonicalQuery, IxScanPlan, Solution, provided_sort};
use crate::index::Index;
use crate::sort::SortKey;

/// `internalQueryMaxScansToExplode`.
pub const MAX_SCANS_TO_EXPLODE: usize = 200;

/// The exploded form of `access` (an IXSCAN, possibly under a FETCH) for the query's sort, or
/// `None` when the index cannot provide the sort that way.
pub fn explode_for_sort(
    index: &Index,
    access: &Solution,
    q: &CanonicalQuery<'_>,
) -> Option<Solution> {
    let first_sort_field = match q.spec.sort.as_ref()?.keys().first()? {
        SortKey::Field { path, .. } => path.dotted(),
        _ => return None,
    };
    let (fetch_filter, scan) = match access {
        Solution::Fetch { filter, child } => match child.as_ref() {
            Solution::IxScan(p) => (Some(filter.clone()), p),
            _ => return None,
        },
        Solution::IxScan(p) => (None, p),
        _ => return None,
    };
    // The parts before the first sort field must all be bounded by points.
    let prefix = index
        .spec
        .parts
        .iter()
        .position(|p| p.dotted == first_sort_field)?;
    if prefix == 0 {
        return None;
    }
    let mut scans: usize = 1;
    for bounds in &scan.bounds[..prefix] {
        if bounds.is_empty() || !bounds.iter().all(Interval::is_point) {
            return None;
        }
        scans = scans.saturating_mul(bounds.len());
    }
    if !(2..=MAX_SCANS_TO_EXPLODE).contains(&scans) {
        return None;
    }
    // With one point per prefix part, the rest of the index must give the sort.
    let mut single = scan.bounds.clone();
    for b in &mut single[..prefix] {
        b.truncate(1);
    }
    let forward = provided_sort(index, &single, q)?;
    let mut children = Vec::with_capacity(scans);
    let mut combination = vec![0usize; prefix];
    loop {
        let mut bounds = scan.bounds.clone();
        for (part, &at) in combination.iter().enumerate() {
            bounds[part] = vec![scan.bounds[part][at].clone()];
        }
        children.push(Solution::IxScan(IxScanPlan {
            index_name: scan.index_name.clone(),
            bounds,
            forward,
            key_range: None,
            filter: scan.filter.clone(),
            wildcard: None,
        }));
        // The next combination, last prefix part fastest (index order).
        let mut part = prefix;
        loop {
            if part == 0 {
                let merge = Solution::SortMerge {
                    pattern: q.sort_pattern().cloned().unwrap_or_default(),
                    children,
                };
                return Some(match fetch_filter {
                    Some(filter) => Solution::Fetch {
                        filter,
                        child: Box::new(merge),
                    },
                    None => merge,
                });
            }
            part -= 1;
            combination[part] += 1;
            if combination[part] < scan.bounds[part].len() {
                break;
            }
            combination[part] = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use bson::{Bson, Document, doc};

    use crate::Engine;

    fn setup() -> Engine {
        let mut e = Engine::new();
        let docs: Vec<Document> = (0..30)
            .map(|i| doc! {"_id": i, "a": i % 3, "b": (i * 7) % 30, "tags": [i % 3, 9]})
            .collect();
        e.run_command("t", &doc! {"insert": "c", "documents": docs});
        e.run_command(
            "t",
            &doc! {"createIndexes": "c", "indexes": [{"key": {"a": 1, "b": 1}, "name": "a_1_b_1"}]},
        );
        e
    }

    fn winning(e: &mut Engine, find: Document) -> Document {
        let r = e.run_command("t", &doc! {"explain": find, "verbosity": "queryPlanner"});
        r.get_document("queryPlanner")
            .and_then(|q| q.get_document("winningPlan"))
            .cloned()
            .unwrap_or_else(|_| panic!("{r}"))
    }

    fn ids(e: &mut Engine, find: Document) -> Vec<i32> {
        let r = e.run_command("t", &find);
        r.get_document("cursor")
            .unwrap()
            .get_array("firstBatch")
            .unwrap()
            .iter()
            .map(|d| d.as_document().unwrap().get_i32("_id").unwrap())
            .collect()
    }

    #[test]
    fn in_on_the_prefix_merges_one_scan_per_point() {
        let mut e = setup();
        let find =
            doc! {"find": "c", "filter": {"a": {"$in": [0, 2]}}, "sort": {"b": -1}, "limit": 4};
        let plan = winning(&mut e, find.clone());
        assert_eq!(plan.get_str("stage").unwrap(), "LIMIT");
        let fetch = plan.get_document("inputStage").unwrap();
        assert_eq!(fetch.get_str("stage").unwrap(), "FETCH");
        let merge = fetch.get_document("inputStage").unwrap();
        assert_eq!(merge.get_str("stage").unwrap(), "SORT_MERGE");
        let scans = merge.get_array("inputStages").unwrap();
        assert_eq!(scans.len(), 2);
        let first = scans[0].as_document().unwrap();
        assert_eq!(first.get_str("direction").unwrap(), "backward");
        // Same documents as a collection scan with a blocking sort: b descending over a ∈ {0, 2}.
        let mut want: Vec<(i32, i32)> = (0..30)
            .filter(|i| i % 3 != 1)
            .map(|i| ((i * 7) % 30, i))
            .collect();
        crate::sort_slice::sort_by(&mut want, |x, y| y.cmp(x));
        let want: Vec<i32> = want.into_iter().take(4).map(|(_, id)| id).collect();
        assert_eq!(ids(&mut e, find), want);
    }

    #[test]
    fn a_single_point_or_a_range_prefix_does_not_explode() {
        let mut e = setup();
        let plan = winning(
            &mut e,
            doc! {"find": "c", "filter": {"a": 1}, "sort": {"b": 1}},
        );
        assert_eq!(plan.get_str("stage").unwrap(), "FETCH");
        assert_eq!(
            plan.get_document("inputStage")
                .unwrap()
                .get_str("stage")
                .unwrap(),
            "IXSCAN"
        );
        let plan = winning(
            &mut e,
            doc! {"find": "c", "filter": {"a": {"$gte": 1}}, "sort": {"b": 1}},
        );
        assert_eq!(plan.get_str("stage").unwrap(), "SORT");
        // More scans than internalQueryMaxScansToExplode: a blocking SORT.
        let many: Vec<Bson> = (0..201).map(Bson::Int32).collect();
        let plan = winning(
            &mut e,
            doc! {"find": "c", "filter": {"a": {"$in": many}}, "sort": {"b": 1}},
        );
        assert_eq!(plan.get_str("stage").unwrap(), "SORT");
    }
}
