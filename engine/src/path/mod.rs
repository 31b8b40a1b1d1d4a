//! Dotted paths with MongoDB's array rules. The only module that walks a path through a document.
//!
//! `a.b` against `{a: [{b: 1}, {b: 2}]}` reaches both `1` and `2` (implicit array traversal);
//! a numeric component (`a.0`) is an array position when the value is an array, and also a
//! field name of the documents inside it. Arrays of arrays are not traversed implicitly for a
//! field name: `a.b` does not look inside `{a: [[{b: 1}]]}`.
//!
//! The walker reports what MongoDB's matcher sees: every value the path reaches, a *missing*
//! marker where a document along the way lacks the field (so `{"a.b": null}` matches `{a: {}}`),
//! and for each item the position in the first array traversed (MongoDB's "elemMatchKey", which
//! the positional `$` update and projection operators use).

mod walk;

pub use walk::{LeafArrays, PathItem, for_each_item, items, lookup};

use bson::{Bson, Document};

/// A parsed dotted path.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FieldPath {
    parts: Vec<String>,
}

impl FieldPath {
    pub fn parse(path: &str) -> Self {
        FieldPath {
            parts: path.split('.').map(str::to_string).collect(),
        }
    }

    pub fn from_parts(parts: Vec<String>) -> Self {
        FieldPath { parts }
    }

    pub fn parts(&self) -> &[String] {
        &self.parts
    }

    pub fn dotted(&self) -> String {
        self.parts.join(".")
    }

    pub fn len(&self) -> usize {
        self.parts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }
}

/// Documents with at most this many fields are searched field by field: comparing a few short
/// names is cheaper than hashing the name for the document's map (the map's hash runs per
/// lookup; in wasm its 128-bit multiply is a library call). Measured in `docs/performance.md`.
const SEARCHED_IN_ORDER: usize = 16;

/// The value of one field of a document, by name (no dotted paths): the lookup every path walk
/// and field-path expression makes per document.
#[inline]
pub fn field<'a>(doc: &'a Document, name: &str) -> Option<&'a Bson> {
    if doc.len() <= SEARCHED_IN_ORDER {
        doc.iter()
            .find_map(|(k, v)| (k.as_str() == name).then_some(v))
    } else {
        doc.get(name)
    }
}

/// Every value the path reaches in the document, for matching. Arrays met at the end of the
/// path are reported element by element and then whole, as the matcher needs. Missing fields
/// are not reported.
pub fn values_for_match<'a>(doc: &'a Document, path: &FieldPath) -> Vec<&'a Bson> {
    items(doc, path, LeafArrays::Expand)
        .into_iter()
        .filter_map(|i| i.value)
        .collect()
}

/// Whether a path component can name an array position (`0`, `12`; not `01` or `-1`).
pub fn array_index(part: &str) -> Option<usize> {
    if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if part.len() > 1 && part.starts_with('0') {
        return None;
    }
    part.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    #[test]
    fn traverses_arrays_of_documents() {
        let d = doc! {"a": [{"b": 1}, {"b": [2, 3]}], "c": {"d": 4}};
        let got = values_for_match(&d, &FieldPath::parse("a.b"));
        assert_eq!(got.len(), 4); // 1, 2, 3, [2,3]
        let got = values_for_match(&d, &FieldPath::parse("c.d"));
        assert_eq!(got, vec![&Bson::Int32(4)]);
        let got = values_for_match(&d, &FieldPath::parse("a.0.b"));
        assert_eq!(got, vec![&Bson::Int32(1)]);
    }

    #[test]
    fn fields_are_found_in_small_and_large_documents() {
        let small = doc! {"a": 1, "b": 2};
        assert_eq!(field(&small, "b"), Some(&Bson::Int32(2)));
        assert_eq!(field(&small, "c"), None);
        let large: Document = (0..40).map(|i| (format!("f{i}"), Bson::Int32(i))).collect();
        assert_eq!(field(&large, "f39"), Some(&Bson::Int32(39)));
        assert_eq!(field(&large, "f40"), None);
    }

    #[test]
    fn array_index_components() {
        assert_eq!(array_index("0"), Some(0));
        assert_eq!(array_index("12"), Some(12));
        assert_eq!(array_index("01"), None);
        assert_eq!(array_index("-1"), None);
        assert_eq!(array_index("a"), None);
        assert_eq!(array_index(""), None);
    }
}
