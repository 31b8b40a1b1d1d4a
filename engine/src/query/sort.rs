//! Sort specifications (`{price: -1, name: 1}`) and MongoDB's sort-key rules.

use std::cmp::Ordering;

use bson::{Bson, Document};

use crate::error::{Error, Result};
use crate::path::{FieldPath, values_for_match};
use crate::value::compare_values;

#[derive(Debug, Clone)]
pub struct SortSpec {
    keys: Vec<(FieldPath, bool)>, // (path, ascending)
}

impl SortSpec {
    pub fn parse(spec: &Document) -> Result<Self> {
        let mut keys = Vec::new();
        for (k, v) in spec {
            let dir = match v {
                Bson::Int32(1) | Bson::Int64(1) => true,
                Bson::Int32(-1) | Bson::Int64(-1) => false,
                Bson::Double(d) if *d == 1.0 => true,
                Bson::Double(d) if *d == -1.0 => false,
                _ => {
                    return Err(Error::location(
                        15975,
                        "$sort key ordering must be 1 (for ascending) or -1 (for descending)",
                    ));
                }
            };
            keys.push((FieldPath::parse(k), dir));
        }
        Ok(SortSpec { keys })
    }

    /// Stable sort, so equal keys keep natural order as MongoDB's collection-scan sort does.
    pub fn sort(&self, docs: &mut [&Document]) {
        docs.sort_by(|a, b| self.compare(a, b));
    }

    pub fn compare(&self, a: &Document, b: &Document) -> Ordering {
        for (path, asc) in &self.keys {
            let ka = sort_key(a, path, *asc);
            let kb = sort_key(b, path, *asc);
            let ord = compare_values(&ka, &kb);
            let ord = if *asc { ord } else { ord.reverse() };
            if ord != Ordering::Equal {
                return ord;
            }
        }
        Ordering::Equal
    }
}

/// The value a document sorts by: missing sorts as null; an array sorts by its smallest element
/// ascending and its largest descending (an empty array sorts before null... as `undefined`).
fn sort_key(doc: &Document, path: &FieldPath, ascending: bool) -> Bson {
    let found = values_for_match(doc, path);
    let candidates: Vec<&Bson> = found
        .into_iter()
        .filter(|v| !matches!(v, Bson::Array(_)))
        .collect();
    if candidates.is_empty() {
        return Bson::Null;
    }
    let pick = candidates.into_iter().reduce(|best, v| {
        let ord = compare_values(v, best);
        if (ascending && ord == Ordering::Less) || (!ascending && ord == Ordering::Greater) {
            v
        } else {
            best
        }
    });
    pick.cloned().unwrap_or(Bson::Null)
}
