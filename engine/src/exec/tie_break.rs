//! The multi-planner's tie-breaking heuristics (MongoDB 8.0,
//! `internalQueryPlanTieBreakingWithIndexHeuristics`, on by default). When several candidates
//! share the top score — common on the small collections of a lesson, where every plan reaches
//! EOF in the same round — the ones that examined the fewest documents get a bonus, and the ones
//! whose index bounds are best by MongoDB's index-prefix rule get twice that:
//! the longest prefix of single-point fields, then of point-only fields, then of closed-interval
//! fields, then of bounded fields; then the shortest key pattern.

use bson::Bson;

use super::StageStats;
use crate::planner::Solution;
use crate::planner::bounds::Interval;

/// MongoDB's `kBonusEpsilon`.
const BONUS: f64 = 1e-4;

/// Adds the tie-breaking bonuses to `scores` (one per candidate; `None` for a failed plan).
pub fn add_bonuses(scores: &mut [Option<f64>], candidates: &[Solution], trials: &[StageStats]) {
    let Some(top) = scores.iter().flatten().copied().reduce(f64::max) else {
        return;
    };
    let tied: Vec<usize> = (0..scores.len())
        .filter(|&i| scores[i] == Some(top))
        .collect();
    if tied.len() < 2 {
        return;
    }
    let docs = |i: usize| trials.get(i).map_or(0, total_docs_examined);
    let fewest = tied.iter().map(|&i| docs(i)).min().unwrap_or(0);
    let solutions: Vec<&Solution> = tied.iter().filter_map(|&i| candidates.get(i)).collect();
    let prefix_winners = index_prefix_winners(&solutions);
    for (n, &i) in tied.iter().enumerate() {
        let mut bonus = 0.0;
        if docs(i) == fewest {
            bonus += BONUS;
        }
        if prefix_winners.contains(&n) {
            bonus += 2.0 * BONUS;
        }
        if let Some(s) = scores[i].as_mut() {
            *s += bonus;
        }
    }
}

fn total_docs_examined(stats: &StageStats) -> u64 {
    stats.docs_examined + stats.children.iter().map(total_docs_examined).sum::<u64>()
}

/// The positions (in `solutions`) of the plans whose index scans score best, scan by scan;
/// none when the plans differ in shape.
fn index_prefix_winners(solutions: &[&Solution]) -> Vec<usize> {
    let mut points = vec![0usize; solutions.len()];
    let mut stack: Vec<Vec<&Solution>> = vec![solutions.to_vec()];
    while let Some(nodes) = stack.pop() {
        if !compatible(&nodes) {
            return Vec::new();
        }
        let width = nodes.first().map_or(0, |n| n.children().len());
        for c in 0..width {
            stack.push(nodes.iter().map(|n| n.children()[c]).collect());
        }
        let bounds: Vec<&[Vec<Interval>]> = nodes
            .iter()
            .filter_map(|n| match n {
                Solution::IxScan(p) | Solution::DistinctScan(p) => Some(p.bounds.as_slice()),
                _ => None,
            })
            .collect();
        if bounds.len() == nodes.len() && !bounds.is_empty() {
            let scores: Vec<u64> = bounds.iter().map(|b| bounds_score(b)).collect();
            let best = scores.iter().copied().max().unwrap_or(0);
            for (i, s) in scores.iter().enumerate() {
                if *s == best {
                    points[i] += 1;
                }
            }
        }
    }
    let best = points.iter().copied().max().unwrap_or(0);
    (0..points.len()).filter(|&i| points[i] == best).collect()
}

/// Same node kind and the same number of inputs, node by node.
fn compatible(nodes: &[&Solution]) -> bool {
    nodes.windows(2).all(|w| {
        std::mem::discriminant(w[0]) == std::mem::discriminant(w[1])
            && w[0].children().len() == w[1].children().len()
    })
}

/// MongoDB's packed score of one scan's bounds (higher is better).
fn bounds_score(fields: &[Vec<Interval>]) -> u64 {
    let (mut single_point, mut points, mut closed, mut bounded) = (0u64, 0u64, 0u64, 0u64);
    for field in fields {
        if field.len() == 1 && field[0] == Interval::all() {
            break;
        }
        if bounded == single_point && field.len() == 1 && field[0].is_point() {
            single_point += 1;
        }
        if bounded == points && field.iter().all(Interval::is_point) {
            points += 1;
        }
        if bounded == closed && field.iter().all(is_closed) {
            closed += 1;
        }
        bounded += 1;
    }
    (single_point << 52)
        | (points << 40)
        | (closed << 28)
        | (bounded << 16)
        | (u64::from(u16::MAX) - fields.len() as u64)
}

/// Closed at both ends: a point, or ends of one BSON type neither of which is that type's
/// extreme (`[1, 5]` is closed; `(65, inf.0]` and `["a", {})` are not).
fn is_closed(iv: &Interval) -> bool {
    if std::mem::discriminant(&iv.low) != std::mem::discriminant(&iv.high) {
        return false;
    }
    iv.is_point() || !(is_extreme(&iv.low) || is_extreme(&iv.high))
}

fn is_extreme(v: &Bson) -> bool {
    match v {
        Bson::MinKey | Bson::MaxKey => true,
        Bson::Double(d) => d.is_infinite(),
        Bson::String(s) => s.is_empty(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planner::IxScanPlan;

    fn scan(name: &str, bounds: Vec<Vec<Interval>>) -> Solution {
        Solution::Fetch {
            filter: None,
            child: Box::new(Solution::IxScan(IxScanPlan {
                index_name: name.into(),
                bounds,
                forward: true,
                key_range: None,
                filter: None,
                wildcard: None,
            })),
        }
    }

    fn point(v: i32) -> Vec<Interval> {
        vec![Interval::point(Bson::Int32(v))]
    }

    fn range(low: Bson, high: Bson) -> Vec<Interval> {
        vec![Interval {
            low,
            low_inclusive: false,
            high,
            high_inclusive: true,
        }]
    }

    fn winners(plans: &[Solution]) -> Vec<usize> {
        index_prefix_winners(&plans.iter().collect::<Vec<_>>())
    }

    #[test]
    fn longer_point_prefix_wins() {
        // {a: 1, b: "hello"} on {a: 1} and {b: 1, a: 1}.
        let plans = [
            scan("a_1", vec![point(1)]),
            scan("b_1_a_1", vec![point(2), point(1)]),
        ];
        assert_eq!(winners(&plans), [1]);
    }

    #[test]
    fn equality_beats_a_range_and_shorter_keys_win() {
        let plans = [
            scan(
                "a_1_b_1",
                vec![range(Bson::Int32(0), Bson::Double(f64::INFINITY)), point(1)],
            ),
            scan(
                "b_1_a_1",
                vec![point(1), range(Bson::Int32(0), Bson::Double(f64::INFINITY))],
            ),
        ];
        assert_eq!(winners(&plans), [1]);
        let plans = [
            scan(
                "a_1_b_1_c_1",
                vec![point(1), point(2), vec![Interval::all()]],
            ),
            scan("b_1_a_1", vec![point(2), point(1)]),
        ];
        assert_eq!(winners(&plans), [1]);
        // The same bounds and length: both win, and the first stays first.
        let plans = [
            scan("a_1_b_1", vec![point(1), point(2)]),
            scan("b_1_a_1", vec![point(2), point(1)]),
        ];
        assert_eq!(winners(&plans), [0, 1]);
    }

    #[test]
    fn closed_intervals_and_shapes() {
        assert!(is_closed(&range(Bson::Int32(1), Bson::Int32(5))[0]));
        assert!(!is_closed(
            &range(Bson::Int32(65), Bson::Double(f64::INFINITY))[0]
        ));
        assert!(!is_closed(
            &range(Bson::String("a".into()), Bson::Document(Default::default()))[0]
        ));
        // A plan with a blocking SORT is another shape: no index-prefix winner.
        let sorted = Solution::Sort {
            pattern: Default::default(),
            limit: None,
            child: Box::new(scan("a_1", vec![point(1)])),
        };
        let plans = [sorted, scan("b_1", vec![point(1)])];
        assert!(winners(&plans).is_empty());
    }
}
