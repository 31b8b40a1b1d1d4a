//! The path walker: every value a dotted path reaches, with MongoDB's matcher semantics.

use std::ops::ControlFlow;

use bson::{Bson, Document};

use super::{FieldPath, array_index, field};

/// What to do with an array found at the end of a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeafArrays {
    /// Report each element (with its position), then the array itself: `{a: 1}` matches
    /// `{a: [1, 2]}` and `{a: [1, 2]}` matches it too.
    Expand,
    /// Report the array only, for operators about arrays (`$size`, `$elemMatch`).
    NoExpand,
    /// Report the elements only (an empty array is reported whole), for sort keys.
    ElementsOnly,
}

/// One value reached by a path.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PathItem<'a> {
    /// `None` where a document along the path lacks the field (MongoDB's EOO element).
    pub value: Option<&'a Bson>,
    /// The position, in the first array the walk went through, of the element this value came
    /// from: MongoDB's "elemMatchKey". `None` when no array was traversed (or for an array
    /// reported whole at the top level).
    pub array_pos: Option<usize>,
}

/// Every item the path reaches, in document order.
pub fn items<'a>(doc: &'a Document, path: &FieldPath, leaf: LeafArrays) -> Vec<PathItem<'a>> {
    let mut out = Vec::new();
    let _ = for_each_item(doc, path, leaf, &mut |item| {
        out.push(item);
        ControlFlow::Continue(())
    });
    out
}

/// Calls `f` on every item the path reaches, stopping when `f` breaks; returns whether it broke.
pub fn for_each_item<'a>(
    doc: &'a Document,
    path: &FieldPath,
    leaf: LeafArrays,
    f: &mut dyn FnMut(PathItem<'a>) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let walker = Walker { leaf };
    walker.document(doc, path.parts(), None, f)
}

/// The value at a path with no implicit array traversal: each component is a field of a
/// document or a position in an array. Used where MongoDB reads "the" value of a path.
pub fn lookup<'a>(doc: &'a Document, path: &FieldPath) -> Option<&'a Bson> {
    let (first, rest) = path.parts().split_first()?;
    let mut cur = field(doc, first)?;
    for part in rest {
        cur = match cur {
            Bson::Document(d) => field(d, part)?,
            Bson::Array(items) => items.get(array_index(part)?)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// An array met along a path that may not hold one ([`lookup_without_arrays`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArrayOnPath;

/// [`lookup`] of a path that may not run through an array: an array met where the next
/// component is not a position in it, or found at the end of the path, is [`ArrayOnPath`]
/// (MongoDB's `extractNonFTSKeyElement`, for a text index's other fields: `a.0` reads into
/// `[0, 1]`, `a.b` may not).
pub fn lookup_without_arrays<'a>(
    doc: &'a Document,
    path: &FieldPath,
) -> Result<Option<&'a Bson>, ArrayOnPath> {
    let Some((first, rest)) = path.parts().split_first() else {
        return Ok(None);
    };
    let Some(mut cur) = field(doc, first) else {
        return Ok(None);
    };
    for part in rest {
        let next = match cur {
            Bson::Document(d) => field(d, part),
            Bson::Array(items) => items.get(array_index(part).ok_or(ArrayOnPath)?),
            _ => None,
        };
        let Some(next) = next else {
            return Ok(None);
        };
        cur = next;
    }
    if matches!(cur, Bson::Array(_)) {
        return Err(ArrayOnPath);
    }
    Ok(Some(cur))
}

struct Walker {
    leaf: LeafArrays,
}

type Visit<'f, 'a> = &'f mut dyn FnMut(PathItem<'a>) -> ControlFlow<()>;

impl Walker {
    /// Walks `parts` from a document; `outer` is the position in an enclosing array, if any.
    fn document<'a>(
        &self,
        doc: &'a Document,
        parts: &[String],
        outer: Option<usize>,
        f: Visit<'_, 'a>,
    ) -> ControlFlow<()> {
        let mut cur = doc;
        let mut rest = parts;
        loop {
            let Some((head, tail)) = rest.split_first() else {
                // An empty path names nothing.
                return f(PathItem {
                    value: None,
                    array_pos: outer,
                });
            };
            let Some(v) = field(cur, head) else {
                return f(PathItem {
                    value: None,
                    array_pos: outer,
                });
            };
            if tail.is_empty() {
                return match v {
                    Bson::Array(arr) => self.array(arr, v, tail, outer, f),
                    _ => f(PathItem {
                        value: Some(v),
                        array_pos: outer,
                    }),
                };
            }
            match v {
                Bson::Document(d) => {
                    cur = d;
                    rest = tail;
                }
                Bson::Array(arr) => return self.array(arr, v, tail, outer, f),
                // A scalar in the middle of the path: the rest of the path is missing.
                _ => {
                    return f(PathItem {
                        value: None,
                        array_pos: outer,
                    });
                }
            }
        }
    }

    /// Walks `rest` through the elements of an array (`whole` is the array as a value).
    fn array<'a>(
        &self,
        arr: &'a [Bson],
        whole: &'a Bson,
        rest: &[String],
        outer: Option<usize>,
        f: Visit<'_, 'a>,
    ) -> ControlFlow<()> {
        let Some((head, tail)) = rest.split_first() else {
            if self.leaf != LeafArrays::NoExpand {
                for (i, el) in arr.iter().enumerate() {
                    f(PathItem {
                        value: Some(el),
                        array_pos: outer.or(Some(i)),
                    })?;
                }
            }
            if self.leaf == LeafArrays::ElementsOnly && !arr.is_empty() {
                return ControlFlow::Continue(());
            }
            return f(PathItem {
                value: Some(whole),
                array_pos: outer,
            });
        };
        let index = array_index(head);
        for (i, el) in arr.iter().enumerate() {
            let pos = outer.or(Some(i));
            if index == Some(i) {
                // An explicit array offset is not an implicit traversal: it gives the positional
                // operator no position (MongoDB: "array offset matches are not used to provide
                // values for the positional operator"; jstests/core/update_array_offset_positional.js).
                if tail.is_empty() {
                    // A position ending the path names the element itself: an array there is
                    // not expanded (`{"a.0": 1}` does not match `{a: [[1]]}`).
                    f(PathItem {
                        value: Some(el),
                        array_pos: outer,
                    })?;
                } else {
                    self.value(el, tail, outer, f)?;
                }
            }
            if let Bson::Document(d) = el {
                self.document(d, rest, pos, f)?;
            }
        }
        ControlFlow::Continue(())
    }

    /// Walks the non-empty `rest` from an element reached by an explicit array position.
    fn value<'a>(
        &self,
        v: &'a Bson,
        rest: &[String],
        pos: Option<usize>,
        f: Visit<'_, 'a>,
    ) -> ControlFlow<()> {
        match v {
            Bson::Array(arr) => self.array(arr, v, rest, pos, f),
            Bson::Document(d) => self.document(d, rest, pos, f),
            _ => ControlFlow::Continue(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    fn walk(d: &Document, p: &str) -> Vec<(Option<Bson>, Option<usize>)> {
        items(d, &FieldPath::parse(p), LeafArrays::Expand)
            .into_iter()
            .map(|i| (i.value.cloned(), i.array_pos))
            .collect()
    }

    #[test]
    fn an_explicit_array_offset_gives_no_position() {
        let d = doc! {"a": [0]};
        assert_eq!(walk(&d, "a.0"), vec![(Some(Bson::Int32(0)), None)]);
        // The implicit traversal after the offset still does.
        let d = doc! {"a": [{"b": [0, 1]}]};
        assert_eq!(
            walk(&d, "a.0.b"),
            vec![
                (Some(Bson::Int32(0)), Some(0)),
                (Some(Bson::Int32(1)), Some(1)),
                (
                    Some(Bson::Array(vec![Bson::Int32(0), Bson::Int32(1)])),
                    None
                ),
                // `0` read as a field name of the element: missing there.
                (None, Some(0))
            ]
        );
    }

    #[test]
    fn missing_fields_are_reported_once_per_document_reached() {
        let d = doc! {"a": [{"b": 1}, {"c": 2}, 3], "s": 5};
        assert_eq!(
            walk(&d, "a.b"),
            vec![(Some(Bson::Int32(1)), Some(0)), (None, Some(1))]
        );
        assert_eq!(walk(&d, "x"), vec![(None, None)]);
        assert_eq!(walk(&d, "s.t"), vec![(None, None)]);
        // An array of scalars reaches nothing for a field name.
        let d = doc! {"a": [1, 2]};
        assert!(walk(&d, "a.b").is_empty());
    }

    #[test]
    fn leaf_arrays_expand_then_report_whole() {
        let d = doc! {"a": [1, [2]]};
        assert_eq!(
            walk(&d, "a"),
            vec![
                (Some(Bson::Int32(1)), Some(0)),
                (Some(bson::bson!([2])), Some(1)),
                (Some(bson::bson!([1, [2]])), None),
            ]
        );
        let got = items(&d, &FieldPath::parse("a"), LeafArrays::NoExpand);
        assert_eq!(got.len(), 1);
    }

    #[test]
    fn positions_are_of_the_first_array() {
        let d = doc! {"a": [{"b": [7, 8]}, {"b": [9]}]};
        let got = walk(&d, "a.b");
        assert_eq!(got[0], (Some(Bson::Int32(7)), Some(0)));
        assert_eq!(got[3], (Some(Bson::Int32(9)), Some(1)));
    }

    #[test]
    fn nested_arrays_are_not_traversed_for_field_names() {
        let d = doc! {"a": [[{"b": 1}]]};
        assert!(walk(&d, "a.b").is_empty());
        assert!(walk(&d, "a.0.0.b").contains(&(Some(Bson::Int32(1)), None)));
        // A position at the end of the path does not expand the array it names.
        let d = doc! {"c": [{"d": [[-1, 1]]}]};
        let got = walk(&d, "c.0.d.0");
        assert!(got.contains(&(Some(bson::bson!([-1, 1])), None)));
        assert!(!got.iter().any(|(v, _)| v == &Some(Bson::Int32(-1))));
    }

    #[test]
    fn numeric_components_are_positions_and_field_names() {
        let d = doc! {"a": [{"0": "key"}, "second"]};
        let got = walk(&d, "a.0");
        assert!(got.contains(&(Some(bson::bson!({"0": "key"})), None)));
        assert!(got.contains(&(Some(Bson::String("key".into())), Some(0))));
        assert_eq!(
            walk(&d, "a.1"),
            vec![(None, Some(0)), (Some(Bson::String("second".into())), None)]
        );
        let d = doc! {"m": {"0": 1}};
        assert_eq!(walk(&d, "m.0"), vec![(Some(Bson::Int32(1)), None)]);
    }

    #[test]
    fn strict_lookup() {
        let d = doc! {"a": {"b": [10, {"c": 11}]}};
        assert_eq!(
            lookup(&d, &FieldPath::parse("a.b.1.c")),
            Some(&Bson::Int32(11))
        );
        assert_eq!(lookup(&d, &FieldPath::parse("a.b.c")), None);
    }
}
