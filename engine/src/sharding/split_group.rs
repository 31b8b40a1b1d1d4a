//! Splitting a `$group` between the shards and the merger, as `mongos` does: each shard groups
//! its own documents into partial results, and the merger groups the partial results by their
//! `_id`, so only one document per group and shard crosses to the merger.
//!
//! MongoDB splits every accumulator into a partial and a merging half
//! (`AccumulatorState::getValue(toBeMerged)`, `DocumentSourceGroup::distributedPlanLogic`).
//! Here the halves are written as ordinary stages: `$sum`, `$count`, `$min`, `$max`, `$first`
//! and `$last` merge with themselves (a count merges as a sum); `$avg` sends a sum and a count
//! of numeric values and the merger divides; `$push` and `$addToSet` send arrays the merger
//! joins. A group with any other accumulator is not split: the merger groups every document.

use bson::{Bson, Document, doc};

/// Prefix of the partial fields `$avg` adds (a user's field cannot start with `$`, and this
/// name is kept out of every result by the merger's final `$project`).
const PARTIAL: &str = "__sprout_partial_";

/// The shards' partial `$group` and the merger's stages for `group` (the `$group` stage's
/// specification), or `None` when an accumulator cannot be split.
pub(super) fn split_group(group: &Document) -> Option<(Document, Vec<Bson>)> {
    let mut shard = Document::new();
    let mut merge = Document::new();
    let mut finish = Document::new();
    let mut needs_finish = false;
    for (index, (field, spec)) in group.iter().enumerate() {
        if field == "_id" {
            shard.insert("_id", spec.clone());
            merge.insert("_id", "$_id");
            finish.insert("_id", "$_id");
            continue;
        }
        let accumulator = spec.as_document().filter(|d| d.len() == 1)?;
        let (op, arg) = accumulator.iter().next()?;
        let own = format!("${field}");
        match op.as_str() {
            "$sum" | "$min" | "$max" | "$first" | "$last" => {
                shard.insert(field, spec.clone());
                merge.insert(field, doc! {op: own.clone()});
                finish.insert(field, own);
            }
            "$count" => {
                shard.insert(field, spec.clone());
                merge.insert(field, doc! {"$sum": own.clone()});
                finish.insert(field, own);
            }
            "$avg" => {
                // $avg ignores values that are not numbers; so does the count sent with the sum.
                let sum = format!("{PARTIAL}{index}_sum");
                let count = format!("{PARTIAL}{index}_count");
                shard.insert(&sum, doc! {"$sum": arg.clone()});
                shard.insert(
                    &count,
                    doc! {"$sum": {"$cond": [{"$isNumber": arg.clone()}, 1, 0]}},
                );
                merge.insert(&sum, doc! {"$sum": format!("${sum}")});
                merge.insert(&count, doc! {"$sum": format!("${count}")});
                finish.insert(
                    field,
                    doc! {"$cond": [
                        {"$eq": [format!("${count}"), 0]},
                        null,
                        {"$divide": [format!("${sum}"), format!("${count}")]},
                    ]},
                );
                needs_finish = true;
            }
            "$push" | "$addToSet" => {
                // Each shard sends its array; the merger collects them and joins them.
                shard.insert(field, spec.clone());
                merge.insert(field, doc! {"$push": own.clone()});
                let join = if op == "$push" {
                    "$concatArrays"
                } else {
                    "$setUnion"
                };
                finish.insert(
                    field,
                    doc! {"$reduce": {
                        "input": own,
                        "initialValue": [],
                        "in": {join: ["$$value", "$$this"]},
                    }},
                );
                needs_finish = true;
            }
            _ => return None,
        }
    }
    let mut merger = vec![Bson::Document(doc! {"$group": merge})];
    // Every field computed (`f: "$f"`, not `f: 1`), so $project writes them in the group's order.
    if needs_finish {
        merger.push(Bson::Document(doc! {"$project": finish}));
    }
    Some((shard, merger))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_and_extremes_merge_with_themselves() {
        let group =
            doc! {"_id": "$k", "s": {"$sum": "$v"}, "n": {"$count": {}}, "hi": {"$max": "$v"}};
        let (shard, merger) = split_group(&group).expect("splits");
        assert_eq!(shard, group);
        assert_eq!(
            merger,
            vec![Bson::Document(doc! {"$group": {
                "_id": "$_id", "s": {"$sum": "$s"}, "n": {"$sum": "$n"}, "hi": {"$max": "$hi"},
            }})]
        );
    }

    #[test]
    fn an_average_travels_as_a_sum_and_a_count() {
        let (shard, merger) =
            split_group(&doc! {"_id": null, "a": {"$avg": "$v"}}).expect("splits");
        assert_eq!(
            shard.keys().collect::<Vec<_>>(),
            ["_id", "__sprout_partial_1_sum", "__sprout_partial_1_count"]
        );
        assert_eq!(merger.len(), 2, "a group and the division");
        let project = merger[1].as_document().unwrap().get_document("$project");
        assert_eq!(
            project.unwrap().keys().collect::<Vec<_>>(),
            ["_id", "a"],
            "only the user's fields, in order"
        );
    }

    #[test]
    fn other_accumulators_are_not_split() {
        assert!(split_group(&doc! {"_id": null, "d": {"$stdDevPop": "$v"}}).is_none());
        assert!(split_group(&doc! {"_id": null, "m": {"$mergeObjects": "$v"}}).is_none());
        assert!(split_group(&doc! {"_id": null, "bad": 1}).is_none());
    }
}
