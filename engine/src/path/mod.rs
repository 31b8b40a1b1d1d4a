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

pub use walk::{
    ArrayOnPath, LeafArrays, PathItem, for_each_item, items, lookup, lookup_without_arrays,
};

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
        let name = name.as_bytes();
        for (k, v) in doc {
            // The lengths first, here: most names differ in length, and a call per name
            // costs more than the comparison (the release build optimises for size).
            if k.len() == name.len() && same_name(k.as_bytes(), name) {
                return Some(v);
            }
        }
        None
    } else {
        doc.get(name)
    }
}

/// Whether two field names (or other short strings) are equal, compared here eight bytes at a
/// time: `==` on strings calls `memcmp` for every name of the same length, in wasm a call into
/// a byte loop (with the calls around it, 30% of a collection scan's profile before this,
/// `docs/performance.md`, session 12).
#[inline(always)]
pub(crate) fn same_name(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i + 8 <= a.len() {
        if word(&a[i..i + 8]) != word(&b[i..i + 8]) {
            return false;
        }
        i += 8;
    }
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Eight bytes as one number (called with exactly eight).
#[inline(always)]
fn word(bytes: &[u8]) -> u64 {
    <[u8; 8]>::try_from(bytes).map_or(0, u64::from_le_bytes)
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

/// Sets `a.b` as `{a: {b: ...}}`, replacing a non-document on the way (a document rebuilt
/// from index keys; `$geoNear`'s `distanceField` and `includeLocs`).
pub fn insert_dotted(doc: &mut Document, dotted: &str, v: Bson) {
    match dotted.split_once('.') {
        None => {
            doc.insert(dotted, v);
        }
        Some((head, rest)) => {
            if !matches!(doc.get(head), Some(Bson::Document(_))) {
                doc.insert(head, Document::new());
            }
            if let Some(Bson::Document(inner)) = doc.get_mut(head) {
                insert_dotted(inner, rest, v);
            }
        }
    }
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
    fn names_are_equal_byte_for_byte() {
        for (a, b, eq) in [
            ("", "", true),
            ("a", "a", true),
            ("a", "b", false),
            ("stock", "price", false),
            ("category", "category", true),
            ("category", "categorx", false),
            ("a_long_field_name", "a_long_field_name", true),
            ("a_long_field_name", "a_long_field_namf", false),
            ("a_long_field_name", "b_long_field_name", false),
            ("a", "ab", false),
            ("é", "e\u{301}", false),
        ] {
            assert_eq!(same_name(a.as_bytes(), b.as_bytes()), eq, "{a:?} {b:?}");
        }
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
