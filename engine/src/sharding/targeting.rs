//! Which chunks a query filter can touch, as mongos works it out: the filter's conditions on
//! the shard key fields become ranges of the key space (equalities and `$in` give points,
//! `$gt`/`$gte`/`$lt`/`$lte` a range on the first unfixed field, anything else the whole
//! field). A filter with no condition on the key's first field touches every chunk (a
//! broadcast); one that fixes every key field touches exactly one chunk.

use bson::{Bson, Document};

use super::chunk::ChunkTable;
use super::shard_key::{KeyKind, KeyValues, ShardKey};
use crate::value::hashed::hash_value;

/// More key ranges than this (a product of `$in` lists) and the router targets every shard.
const MAX_TARGET_RANGES: usize = 1000;

/// What a filter says about one key field.
#[derive(Debug, Clone, PartialEq)]
enum FieldConstraint {
    Points(Vec<Bson>),
    Range(Bson, Bson),
    Any,
}

/// The part of the key space a filter can match.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyTarget {
    /// Closed ranges `[low, high]`; `None` is the whole key space.
    pub ranges: Option<Vec<(KeyValues, KeyValues)>>,
    /// The one key the filter fixes, when it fixes every key field to one value.
    pub exact: Option<KeyValues>,
}

impl KeyTarget {
    /// The shards owning a chunk the target touches, in the order `shards` lists them.
    pub fn shards(&self, table: &ChunkTable, shards: &[String]) -> Vec<String> {
        shards
            .iter()
            .filter(|s| {
                table.chunks.iter().any(|c| {
                    &c.shard == *s
                        && match &self.ranges {
                            None => true,
                            Some(ranges) => ranges.iter().any(|(lo, hi)| c.overlaps(lo, hi)),
                        }
                })
            })
            .cloned()
            .collect()
    }
}

/// Reads the filter's conditions on the key fields.
pub fn target(key: &ShardKey, filter: &Document) -> KeyTarget {
    let conditions = top_level_conditions(filter);
    let mut ranges: Vec<(KeyValues, KeyValues)> = vec![(Vec::new(), Vec::new())];
    let mut all_points = true;
    for (i, (field, kind)) in key.fields.iter().enumerate() {
        let mut constraint = constraint_for(&conditions, field);
        if *kind == KeyKind::Hashed {
            constraint = match constraint {
                FieldConstraint::Points(vs) => {
                    FieldConstraint::Points(vs.iter().map(hash_value).collect())
                }
                _ => FieldConstraint::Any,
            };
        }
        match constraint {
            FieldConstraint::Points(values) => {
                if ranges.len() * values.len() > MAX_TARGET_RANGES {
                    return KeyTarget {
                        ranges: None,
                        exact: None,
                    };
                }
                let mut next = Vec::new();
                for (lo, hi) in &ranges {
                    for v in &values {
                        let mut lo = lo.clone();
                        let mut hi = hi.clone();
                        lo.push(v.clone());
                        hi.push(v.clone());
                        next.push((lo, hi));
                    }
                }
                ranges = next;
            }
            other => {
                all_points = false;
                if i == 0 && other == FieldConstraint::Any {
                    return KeyTarget {
                        ranges: None,
                        exact: None,
                    };
                }
                let (low, high) = match other {
                    FieldConstraint::Range(lo, hi) => (lo, hi),
                    _ => (Bson::MinKey, Bson::MaxKey),
                };
                for (lo, hi) in &mut ranges {
                    lo.push(low.clone());
                    hi.push(high.clone());
                    for _ in i + 1..key.fields.len() {
                        lo.push(Bson::MinKey);
                        hi.push(Bson::MaxKey);
                    }
                }
                break;
            }
        }
    }
    let exact = (all_points && ranges.len() == 1).then(|| ranges[0].0.clone());
    KeyTarget {
        ranges: Some(ranges),
        exact,
    }
}

/// The filter's top-level `field: condition` pairs, with top-level `$and` flattened.
fn top_level_conditions(filter: &Document) -> Vec<(&str, &Bson)> {
    let mut out = Vec::new();
    for (name, value) in filter {
        if name == "$and" {
            if let Bson::Array(items) = value {
                for item in items {
                    if let Bson::Document(d) = item {
                        out.extend(top_level_conditions(d));
                    }
                }
            }
        } else if !name.starts_with('$') {
            out.push((name.as_str(), value));
        }
    }
    out
}

/// What the conditions on `field` allow (several conditions narrow each other only when one
/// is a point list, which then wins).
fn constraint_for(conditions: &[(&str, &Bson)], field: &str) -> FieldConstraint {
    let mut result = FieldConstraint::Any;
    for (name, value) in conditions {
        if *name != field {
            continue;
        }
        let c = condition(value);
        result = match (result, c) {
            (FieldConstraint::Points(p), _) | (_, FieldConstraint::Points(p)) => {
                FieldConstraint::Points(p)
            }
            (FieldConstraint::Range(a, b), _) | (_, FieldConstraint::Range(a, b)) => {
                FieldConstraint::Range(a, b)
            }
            _ => FieldConstraint::Any,
        };
    }
    result
}

fn is_point_value(v: &Bson) -> bool {
    !matches!(v, Bson::Array(_) | Bson::RegularExpression(_))
}

fn condition(value: &Bson) -> FieldConstraint {
    let ops = match value {
        Bson::Document(d) if d.keys().next().is_some_and(|k| k.starts_with('$')) => d,
        v if is_point_value(v) => return FieldConstraint::Points(vec![v.clone()]),
        _ => return FieldConstraint::Any,
    };
    let mut low = Bson::MinKey;
    let mut high = Bson::MaxKey;
    let mut ranged = false;
    for (op, arg) in ops {
        match op.as_str() {
            "$eq" if is_point_value(arg) => return FieldConstraint::Points(vec![arg.clone()]),
            "$in" => {
                if let Bson::Array(items) = arg
                    && !items.is_empty()
                    && items.iter().all(is_point_value)
                {
                    return FieldConstraint::Points(items.clone());
                }
            }
            "$gt" | "$gte" => {
                low = arg.clone();
                ranged = true;
            }
            "$lt" | "$lte" => {
                high = arg.clone();
                ranged = true;
            }
            _ => {}
        }
    }
    if ranged {
        FieldConstraint::Range(low, high)
    } else {
        FieldConstraint::Any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    fn two_chunks() -> ChunkTable {
        let mut t = ChunkTable::single(vec![Bson::MinKey], vec![Bson::MaxKey], "a");
        t.split_at(vec![Bson::Int32(10)]).unwrap();
        t.move_chunk(1, "b");
        t
    }

    #[test]
    fn equality_targets_one_shard_and_no_key_broadcasts() {
        let key = ShardKey::parse(&doc! {"x": 1}).unwrap();
        let shards = vec!["a".to_string(), "b".to_string()];
        let t = target(&key, &doc! {"x": 12});
        assert_eq!(t.shards(&two_chunks(), &shards), vec!["b"]);
        assert_eq!(t.exact, Some(vec![Bson::Int32(12)]));
        let t = target(&key, &doc! {"y": 12});
        assert_eq!(t.ranges, None);
        assert_eq!(t.shards(&two_chunks(), &shards), shards);
        let t = target(&key, &doc! {"x": {"$gte": 1, "$lt": 5}});
        assert_eq!(t.shards(&two_chunks(), &shards), vec!["a"]);
        assert_eq!(t.exact, None);
        let t = target(&key, &doc! {"$and": [{"x": {"$in": [1, 20]}}]});
        assert_eq!(t.shards(&two_chunks(), &shards), shards);
    }

    #[test]
    fn compound_and_hashed_keys() {
        let key = ShardKey::parse(&doc! {"r": 1, "s": 1}).unwrap();
        let t = target(&key, &doc! {"r": "Mike"});
        assert_eq!(
            t.ranges,
            Some(vec![(
                vec![Bson::String("Mike".into()), Bson::MinKey],
                vec![Bson::String("Mike".into()), Bson::MaxKey]
            )])
        );
        assert_eq!(t.exact, None);
        let hashed = ShardKey::parse(&doc! {"u": "hashed"}).unwrap();
        let t = target(&hashed, &doc! {"u": 5});
        assert_eq!(t.exact, Some(vec![hash_value(&Bson::Int32(5))]));
        assert_eq!(target(&hashed, &doc! {"u": {"$gt": 5}}).ranges, None);
        assert_eq!(target(&key, &doc! {"r": {"$regex": "^M"}}).ranges, None);
    }
}
