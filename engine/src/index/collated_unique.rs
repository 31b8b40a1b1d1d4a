//! Uniqueness under an index's collation. Sprout encodes index keys binary (no ICU sort keys),
//! so two strings a collation holds equal ("f" and "F" at strength 1) have different entries;
//! a unique index with a collation must still refuse the second, as MongoDB's does (its keys
//! are the collation's sort keys; jstests/core/index_multiple_compatibility.js). Keys that hold
//! no string compare alike binary and under any collation, so only those with a string are
//! compared here, against the index's entries one by one: a cost only collated unique indexes
//! pay. The `_id` index of a collection with a collation is left binary-unique (a known
//! difference: checking every `_id` against every other would make bulk inserts quadratic).

use std::cmp::Ordering;

use bson::Bson;

use super::{EntryKey, Index};
use crate::collation::{Collation, CollationScope};
use crate::error::Result;
use crate::value::compare_values;

impl Index {
    /// A key of `keys` that an entry of another record equals under the index's collation
    /// (none for an index without one, or keys without strings).
    pub(super) fn collated_clash<'k>(
        &self,
        keys: &'k [Vec<Bson>],
        record_id: u64,
    ) -> Result<Option<&'k [Bson]>> {
        let Some(_scope) = self.collation_scope(keys.iter().map(Vec::as_slice))? else {
            return Ok(None);
        };
        Ok(keys
            .iter()
            .filter(|key| key.iter().any(holds_string))
            .find(|key| {
                self.entries
                    .iter()
                    .any(|((_, rid), entry)| *rid != record_id && equal_keys(entry, key))
            })
            .map(Vec::as_slice))
    }

    /// [`Self::collated_clash`] for many records' entries at once (an index built over a
    /// collection): the first new entry whose key another record's entry, new or existing,
    /// equals under the collation.
    pub(super) fn collated_clash_in(
        &self,
        new: &[(EntryKey, Vec<Bson>)],
    ) -> Result<Option<Vec<Bson>>> {
        let Some(_scope) = self.collation_scope(new.iter().map(|(_, key)| key.as_slice()))? else {
            return Ok(None);
        };
        // Every entry holding a string, new ones marked, in the collation's order: equal keys
        // are neighbours.
        let mut all: Vec<(u64, &[Bson], bool)> = self
            .entries
            .iter()
            .map(|((_, rid), key)| (*rid, key.as_slice(), false))
            .chain(
                new.iter()
                    .map(|((_, rid), key)| (*rid, key.as_slice(), true)),
            )
            .filter(|(_, key, _)| key.iter().any(holds_string))
            .collect();
        crate::sort_slice::sort_by(&mut all, |a, b| compare_keys(a.1, b.1));
        Ok(all
            .windows(2)
            .find(|w| w[0].0 != w[1].0 && (w[0].2 || w[1].2) && equal_keys(w[0].1, w[1].1))
            .map(|w| if w[1].2 { w[1].1 } else { w[0].1 }.to_vec()))
    }

    /// The index's collation in force, when it has one and a key holds a string.
    fn collation_scope<'k>(
        &self,
        mut keys: impl Iterator<Item = &'k [Bson]>,
    ) -> Result<Option<CollationScope>> {
        let Some(spec) = self.spec.collation.as_ref().filter(|_| !self.spec.is_id()) else {
            return Ok(None);
        };
        if !keys.any(|key| key.iter().any(holds_string)) {
            return Ok(None);
        }
        Ok(Some(CollationScope::enter(Collation::from_document(spec)?)))
    }
}

/// Whether a value is or holds a string.
fn holds_string(v: &Bson) -> bool {
    match v {
        Bson::String(_) | Bson::Symbol(_) => true,
        Bson::Document(d) => d.values().any(holds_string),
        Bson::Array(a) => a.iter().any(holds_string),
        _ => false,
    }
}

/// The order of two key tuples under the collation in force.
fn compare_keys(a: &[Bson], b: &[Bson]) -> Ordering {
    a.iter()
        .zip(b)
        .map(|(x, y)| compare_values(x, y))
        .find(|o| o.is_ne())
        .unwrap_or_else(|| a.len().cmp(&b.len()))
}

fn equal_keys(a: &[Bson], b: &[Bson]) -> bool {
    compare_keys(a, b).is_eq()
}

#[cfg(test)]
mod tests {
    use bson::doc;

    use crate::Engine;

    fn write_error_code(reply: &bson::Document) -> Option<i32> {
        reply.get_array("writeErrors").ok()?[0]
            .as_document()?
            .get_i32("code")
            .ok()
    }

    #[test]
    fn a_unique_index_refuses_keys_its_collation_holds_equal() {
        let mut e = Engine::new();
        let r = e.run_command(
            "t",
            &doc! {"createIndexes": "c", "indexes": [
                {"key": {"a": 1}, "name": "a1", "collation": {"locale": "en_US", "strength": 1}, "unique": true},
                {"key": {"b": 1}, "name": "b3", "collation": {"locale": "en_US", "strength": 3}, "unique": true},
            ]},
        );
        assert_eq!(r.get_f64("ok").ok(), Some(1.0), "{r}");
        let insert = |d: bson::Document| doc! {"insert": "c", "documents": [d]};
        let ok = e.run_command("t", &insert(doc! {"_id": 1, "a": "f", "b": "x"}));
        assert_eq!(write_error_code(&ok), None, "{ok}");
        // "F" equals "f" at strength 1: refused by a1.
        let dup = e.run_command("t", &insert(doc! {"_id": 2, "a": "F", "b": "y"}));
        assert_eq!(write_error_code(&dup), Some(11000), "{dup}");
        // At strength 3 "X" differs from "x": b3 takes it.
        let ok = e.run_command("t", &insert(doc! {"_id": 3, "a": "g", "b": "X"}));
        assert_eq!(write_error_code(&ok), None, "{ok}");
        // Numbers are unaffected; an update that makes a clash is refused too.
        let ok = e.run_command("t", &insert(doc! {"_id": 4, "a": 1, "b": 1}));
        assert_eq!(write_error_code(&ok), None, "{ok}");
        let r = e.run_command(
            "t",
            &doc! {"update": "c", "updates": [{"q": {"_id": 4}, "u": {"$set": {"a": "G"}}}]},
        );
        assert_eq!(write_error_code(&r), Some(11000), "{r}");
        // Building a collated unique index over keys it holds equal fails.
        let r = e.run_command(
            "t",
            &doc! {"createIndexes": "c", "indexes": [
                {"key": {"b": 1}, "name": "b1", "collation": {"locale": "en_US", "strength": 1}, "unique": true},
            ]},
        );
        assert_eq!(r.get_i32("code").ok(), Some(11000), "{r}");
    }
}
