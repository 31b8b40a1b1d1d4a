//! The express path of a find: `{<field>: <scalar>}` answered by one range of one index,
//! without canonicalising the query, planning or building stages.
//!
//! MongoDB 8.0 has the same shortcut ("express", jstests/core/query/express.js): an `_id`
//! equality, and an equality on the leading field of a regular B-tree index (with `limit: 1`,
//! or without a limit when the index is unique and single-field), bypass query planning and
//! execution. Sprout takes it when its planner would have produced exactly one candidate, an
//! IDHACK or an IXSCAN over exact point bounds under a FETCH without a filter, so the results
//! and their order are that plan's: the index's entries for the value, in record-id order (`Index::point_ids`).
//! `explain` does not come here (it plans as before), nor does anything with a sort, a
//! projection, a skip, a hint, `min`/`max`, `let`, `returnKey` or `showRecordId` (the caller
//! checks those).
//!
//! Eligible: a filter of one field that is not an operator, whose value is a plain scalar
//! (string, number, ObjectId, boolean, date: values whose index key equals the key of exactly
//! the values the equality matches); the simple collation in force; and either the field is
//! `_id` (with the `_id` index present), or exactly one visible index could serve the field
//! (no wildcard index, no other index leading with it) and that index is a single-field
//! ascending or descending one, not partial, without a collation of its own, and not multikey
//! (a document is then found under one key at most, and its key is the field's value).

use bson::{Bson, Document};

use crate::catalog::Collection;
use crate::index::{ID_INDEX_NAME, KeyKind, encode};

/// The documents `{path: value}` finds, in the order its only plan would return them, at most
/// `limit` of them (`None`: no limit); `None` when the query is not eligible (the caller
/// plans it as usual).
pub fn equality_lookup(
    coll: &Collection,
    filter: &Document,
    limit: Option<usize>,
) -> Option<Vec<Document>> {
    let found = equality_record_ids(coll, filter, limit)?;
    Some(
        found
            .into_iter()
            .filter_map(|rid| coll.get(rid).cloned())
            .collect(),
    )
}

/// The record ids under which [`equality_lookup`] looks its documents up, in the same order (a
/// caller that writes its reply from the stored bytes needs no document tree; it skips a
/// record id with no document as `equality_lookup` does); the index's `$indexStats` count
/// goes up as for `equality_lookup`.
pub fn equality_record_ids(
    coll: &Collection,
    filter: &Document,
    limit: Option<usize>,
) -> Option<Vec<u64>> {
    if filter.len() != 1 {
        return None;
    }
    let (path, value) = filter.iter().next()?;
    point_record_ids(coll, path, value, limit)
}

/// [`equality_record_ids`] of the filter `{path: value}` (a find read from its command's bytes
/// has no filter document).
pub fn point_record_ids(
    coll: &Collection,
    path: &str,
    value: &Bson,
    limit: Option<usize>,
) -> Option<Vec<u64>> {
    if !crate::collation::active_is_simple() || path.starts_with('$') || !plain_scalar(value) {
        return None;
    }
    let limit = limit.unwrap_or(usize::MAX);
    if path == "_id" {
        // The planner's IDHACK (`planner::id_hack_key`): one lookup in the `_id` map.
        let id_index = coll.index(ID_INDEX_NAME)?;
        id_index.usage.record();
        let found = coll.find_by_id(value).filter(|_| limit > 0);
        return Some(found.into_iter().collect());
    }
    let mut only = None;
    for index in coll.indexes() {
        if index.spec.hidden {
            continue;
        }
        let serves = index.spec.wildcard.is_some()
            || index.spec.parts.first().is_some_and(|p| p.dotted == *path);
        if serves {
            if only.is_some() {
                return None;
            }
            only = Some(index);
        }
    }
    let index = only?;
    let spec = &index.spec;
    let [part] = spec.parts.as_slice() else {
        return None;
    };
    if spec.wildcard.is_some()
        || spec.partial.is_some()
        || spec.collation.is_some()
        || index.is_multikey()
        || !matches!(part.kind, KeyKind::Ascending | KeyKind::Descending)
    {
        return None;
    }
    // Room for the key's type, a string's bytes and their end without growing.
    let mut key = Vec::with_capacity(16 + value.as_str().map_or(0, str::len));
    encode::encode_value(value, &mut key);
    if part.kind == KeyKind::Descending {
        encode::invert(&mut key);
    }
    let out = index.point_ids(&key, limit);
    index.usage.record();
    Some(out)
}

/// Values whose equality is exactly index-key equality on a non-multikey index: not null
/// (which also matches a missing field), not an array, document or regex (which match by
/// other rules), nothing exotic.
fn plain_scalar(v: &Bson) -> bool {
    matches!(
        v,
        Bson::String(_)
            | Bson::Int32(_)
            | Bson::Int64(_)
            | Bson::Double(_)
            | Bson::ObjectId(_)
            | Bson::Boolean(_)
            | Bson::DateTime(_)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::IndexSpec;
    use bson::doc;

    fn coll(docs: &[Document], indexes: &[Document]) -> Collection {
        let mut c = Collection::new();
        for d in docs {
            c.insert("db.c", d.clone()).unwrap();
        }
        for spec in indexes {
            c.create_index("db.c", IndexSpec::parse(spec).unwrap())
                .unwrap();
        }
        c
    }

    fn docs() -> Vec<Document> {
        vec![
            doc! {"_id": 1, "a": 1, "s": "x"},
            doc! {"_id": 2, "a": 1.0, "s": "y"},
            doc! {"_id": 3, "a": "1", "s": "x"},
            doc! {"_id": 4, "s": "x"},
            doc! {"_id": 5, "a": 2_i64, "s": "z"},
        ]
    }

    fn ids(found: Option<Vec<Document>>) -> Option<Vec<i32>> {
        found.map(|ds| ds.iter().map(|d| d.get_i32("_id").unwrap()).collect())
    }

    #[test]
    fn finds_by_one_index_as_its_plan_would() {
        for key in [doc! {"a": 1}, doc! {"a": -1}] {
            let c = coll(&docs(), &[doc! {"key": key, "name": "a"}]);
            // Numbers compare across types, strings do not match numbers, record-id order.
            assert_eq!(
                ids(equality_lookup(&c, &doc! {"a": 1_i64}, None)),
                Some(vec![1, 2])
            );
            assert_eq!(
                ids(equality_lookup(&c, &doc! {"a": 1}, Some(1))),
                Some(vec![1])
            );
            assert_eq!(
                ids(equality_lookup(&c, &doc! {"a": "1"}, None)),
                Some(vec![3])
            );
            assert_eq!(ids(equality_lookup(&c, &doc! {"a": 9}, None)), Some(vec![]));
            assert_eq!(c.index("a").unwrap().usage.ops(), 4);
        }
    }

    #[test]
    fn id_equality_is_one_lookup() {
        let c = coll(&docs(), &[]);
        assert_eq!(
            ids(equality_lookup(&c, &doc! {"_id": 3.0}, None)),
            Some(vec![3])
        );
        assert_eq!(
            ids(equality_lookup(&c, &doc! {"_id": 7}, None)),
            Some(vec![])
        );
        assert_eq!(
            ids(equality_lookup(&c, &doc! {"_id": 3}, Some(0))),
            Some(vec![])
        );
    }

    #[test]
    fn leaves_to_the_planner_what_it_might_plan_otherwise() {
        let c = coll(&docs(), &[doc! {"key": {"a": 1}, "name": "a"}]);
        // No index on the field, several fields, operators, null and non-scalars.
        for filter in [
            doc! {"s": "x"},
            doc! {"a": 1, "s": "x"},
            doc! {"a": {"$gt": 1}},
            doc! {"$and": [{"a": 1}]},
            doc! {"a": null},
            doc! {"a": [1]},
            doc! {"a": {"b": 1}},
        ] {
            assert_eq!(equality_lookup(&c, &filter, None), None, "{filter}");
        }
        // Two indexes that could serve (a race), compound, hashed, partial, sparse is fine.
        let two = coll(
            &docs(),
            &[
                doc! {"key": {"a": 1}, "name": "a"},
                doc! {"key": {"a": 1, "s": 1}, "name": "as"},
            ],
        );
        assert_eq!(equality_lookup(&two, &doc! {"a": 1}, None), None);
        for spec in [
            doc! {"key": {"a": 1, "s": 1}, "name": "as"},
            doc! {"key": {"a": "hashed"}, "name": "h"},
            doc! {"key": {"a": 1}, "name": "p", "partialFilterExpression": {"a": {"$gt": 0}}},
            doc! {"key": {"$**": 1}, "name": "w"},
        ] {
            let c = coll(&docs(), std::slice::from_ref(&spec));
            assert_eq!(equality_lookup(&c, &doc! {"a": 1}, None), None, "{spec}");
        }
        let sparse = coll(
            &docs(),
            &[doc! {"key": {"a": 1}, "name": "a", "sparse": true}],
        );
        assert_eq!(
            ids(equality_lookup(&sparse, &doc! {"a": 2}, None)),
            Some(vec![5])
        );
        // A hidden index is no candidate; an array makes the index multikey.
        let hidden = coll(
            &docs(),
            &[doc! {"key": {"a": 1}, "name": "a", "hidden": true}],
        );
        assert_eq!(equality_lookup(&hidden, &doc! {"a": 1}, None), None);
        let mut multi = docs();
        multi.push(doc! {"_id": 6, "a": [1, 3]});
        let multi = coll(&multi, &[doc! {"key": {"a": 1}, "name": "a"}]);
        assert_eq!(equality_lookup(&multi, &doc! {"a": 1}, None), None);
    }
}
