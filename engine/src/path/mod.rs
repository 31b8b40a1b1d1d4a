//! Dotted paths with MongoDB's array rules. The only module that walks a path through a document.
//!
//! `a.b` against `{a: [{b: 1}, {b: 2}]}` reaches both `1` and `2` (implicit array traversal);
//! a numeric component (`a.0`) is an array position when the value is an array, or a field name
//! when it is a document.

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

    pub fn parts(&self) -> &[String] {
        &self.parts
    }

    pub fn dotted(&self) -> String {
        self.parts.join(".")
    }
}

/// Every value the path reaches in the document, for matching. Arrays met at the end of the
/// path are reported both whole and element by element, as the matcher needs.
pub fn values_for_match<'a>(doc: &'a Document, path: &FieldPath) -> Vec<&'a Bson> {
    let mut out = Vec::new();
    let Some((first, rest)) = path.parts.split_first() else {
        return out;
    };
    if let Some(v) = doc.get(first) {
        walk(v, rest, &mut out);
    }
    out
}

fn walk<'a>(v: &'a Bson, rest: &[String], out: &mut Vec<&'a Bson>) {
    let Some((head, tail)) = rest.split_first() else {
        out.push(v);
        if let Bson::Array(items) = v {
            out.extend(items.iter());
        }
        return;
    };
    match v {
        Bson::Document(d) => {
            if let Some(next) = d.get(head) {
                walk(next, tail, out);
            }
        }
        Bson::Array(items) => {
            if let Ok(i) = head.parse::<usize>() {
                if let Some(next) = items.get(i) {
                    walk(next, tail, out);
                }
            }
            for item in items {
                if let Bson::Document(d) = item {
                    if let Some(next) = d.get(head) {
                        walk(next, tail, out);
                    }
                }
            }
        }
        _ => {}
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
        assert_eq!(got.len(), 4); // 1, [2,3], 2, 3
        let got = values_for_match(&d, &FieldPath::parse("c.d"));
        assert_eq!(got, vec![&Bson::Int32(4)]);
        let got = values_for_match(&d, &FieldPath::parse("a.0.b"));
        assert_eq!(got, vec![&Bson::Int32(1)]);
    }
}
