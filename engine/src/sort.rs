//! Sort specifications (`{price: -1, name: 1}`) and MongoDB's sort-key rules: a missing field
//! sorts as null; an array sorts by its smallest element ascending and its largest descending
//! (an empty array sorts as undefined, below null); values of different types follow the
//! canonical type order. `$natural` orders by insertion; `{$meta: "textScore"}` needs `$text`.

use std::cmp::Ordering;

use bson::{Bson, Document};

use crate::error::{Error, Result};
use crate::expression::{DocumentMeta, MetaField};
use crate::path::{FieldPath, LeafArrays, for_each_item};
use crate::value::compare_values;

/// One component of a sort.
#[derive(Debug, Clone)]
pub enum SortKey {
    Field {
        path: FieldPath,
        ascending: bool,
    },
    /// `$natural: 1 | -1`: insertion order.
    Natural {
        ascending: bool,
    },
    /// `{$meta: "textScore"}`: by text score, descending.
    TextScore {
        name: String,
    },
    /// `{$meta: "geoNearDistance"}` or `{$meta: "randVal"}` in a `$sort` stage: by that
    /// metadata, descending (MongoDB's SortPattern sorts every `$meta` key highest first).
    Meta {
        field: MetaField,
    },
}

#[derive(Debug, Clone)]
pub struct SortSpec {
    keys: Vec<SortKey>,
    /// The pattern as written (explain's `sortPattern`, the plan-cache shape).
    pattern: Box<Document>,
}

impl SortSpec {
    /// The sort document this was parsed from.
    pub fn pattern(&self) -> &Document {
        &self.pattern
    }

    /// A find's sort: `{$meta: "textScore"}` is its only metadata key.
    pub fn parse(spec: &Document) -> Result<Self> {
        SortSpec::parse_with(spec, false)
    }

    /// A `$sort` stage's sort, which may also order by `{$meta: "geoNearDistance"}` (after a
    /// `$geoNear`) and `{$meta: "randVal"}` (after a `$sample`), as MongoDB 8.0's SortPattern
    /// allows.
    pub fn parse_stage(spec: &Document) -> Result<Self> {
        SortSpec::parse_with(spec, true)
    }

    fn parse_with(spec: &Document, stage: bool) -> Result<Self> {
        let mut keys = Vec::with_capacity(spec.len());
        for (k, v) in spec {
            if k.is_empty() || k.split('.').any(str::is_empty) {
                return Err(Error::location(
                    40352,
                    "FieldPath cannot be constructed with empty string",
                ));
            }
            if let Bson::Document(d) = v {
                keys.push(parse_meta(k, d, stage)?);
                continue;
            }
            let ascending = direction(k, v)?;
            if k == "$natural" {
                keys.push(SortKey::Natural { ascending });
                continue;
            }
            if k.split('.').any(|p| p.starts_with('$')) {
                return Err(Error::location(
                    16410,
                    "FieldPath field names may not start with '$'. Consider using $getField or \
                     $setField.",
                ));
            }
            keys.push(SortKey::Field {
                path: FieldPath::parse(k),
                ascending,
            });
        }
        Ok(SortSpec {
            keys,
            pattern: Box::new(spec.clone()),
        })
    }

    pub fn keys(&self) -> &[SortKey] {
        &self.keys
    }

    /// Whether the sort asks for the text score.
    pub fn needs_text_score(&self) -> bool {
        self.keys
            .iter()
            .any(|k| matches!(k, SortKey::TextScore { .. }))
    }

    /// Whether the sort orders by metadata only a pipeline carries (`geoNearDistance`,
    /// `randVal`): a find cannot run it.
    pub fn needs_stage_metadata(&self) -> bool {
        self.keys.iter().any(|k| matches!(k, SortKey::Meta { .. }))
    }

    /// The `$natural` direction, if the sort has one.
    pub fn natural(&self) -> Option<bool> {
        self.keys.iter().find_map(|k| match k {
            SortKey::Natural { ascending } => Some(*ascending),
            _ => None,
        })
    }

    /// Stable sort, so equal keys keep natural order as MongoDB's collection-scan sort does.
    /// `$natural: -1` reverses the input first.
    pub fn sort(&self, docs: &mut [&Document]) {
        if self.natural() == Some(false) {
            docs.reverse();
        }
        let mut keyed: Vec<(Vec<Bson>, &Document)> =
            docs.iter().map(|d| (self.key_values(d), *d)).collect();
        crate::sort_slice::sort_by(&mut keyed, |a, b| self.compare_keys(&a.0, &b.0));
        for (slot, (_, d)) in docs.iter_mut().zip(keyed) {
            *slot = d;
        }
    }

    /// Compares two documents by the sort (`$natural` and `$meta` keys compare equal).
    pub fn compare(&self, a: &Document, b: &Document) -> Ordering {
        self.compare_keys(&self.key_values(a), &self.key_values(b))
    }

    /// Compares two documents by their sort values taken once each
    /// ([`SortSpec::key_values`]) and their text scores (`{$meta: "textScore"}` keys sort by
    /// score, highest first): a blocking sort extracts the values when a document arrives, not
    /// per comparison.
    pub fn compare_extracted(
        &self,
        a: &[Bson],
        a_score: Option<f64>,
        b: &[Bson],
        b_score: Option<f64>,
    ) -> Ordering {
        let (mut fa, mut fb) = (a.iter(), b.iter());
        for key in &self.keys {
            let ord = match key {
                SortKey::Field { ascending, .. } => match (fa.next(), fb.next()) {
                    (Some(x), Some(y)) => {
                        let o = compare_values(x, y);
                        if *ascending { o } else { o.reverse() }
                    }
                    _ => Ordering::Equal,
                },
                SortKey::TextScore { .. } => {
                    b_score.unwrap_or(0.0).total_cmp(&a_score.unwrap_or(0.0))
                }
                SortKey::Natural { .. } | SortKey::Meta { .. } => Ordering::Equal,
            };
            if ord != Ordering::Equal {
                return ord;
            }
        }
        Ordering::Equal
    }

    /// [`SortSpec::compare_extracted`] with each document's metadata: every `$meta` key
    /// sorts highest first, a document without the value as 0.
    pub fn compare_with_meta(
        &self,
        a: &[Bson],
        a_meta: &DocumentMeta,
        b: &[Bson],
        b_meta: &DocumentMeta,
    ) -> Ordering {
        let (mut fa, mut fb) = (a.iter(), b.iter());
        let number = |m: &DocumentMeta, f: MetaField| match f {
            MetaField::TextScore => m.text_score,
            MetaField::GeoNearDistance => m.geo_near_distance,
            MetaField::RandVal => m.rand_val,
            _ => None,
        };
        for key in &self.keys {
            let field = match key {
                SortKey::Field { ascending, .. } => {
                    let ord = match (fa.next(), fb.next()) {
                        (Some(x), Some(y)) => {
                            let o = compare_values(x, y);
                            if *ascending { o } else { o.reverse() }
                        }
                        _ => Ordering::Equal,
                    };
                    if ord != Ordering::Equal {
                        return ord;
                    }
                    continue;
                }
                SortKey::TextScore { .. } => MetaField::TextScore,
                SortKey::Meta { field } => *field,
                SortKey::Natural { .. } => continue,
            };
            let (x, y) = (number(a_meta, field), number(b_meta, field));
            let ord = y.unwrap_or(0.0).total_cmp(&x.unwrap_or(0.0));
            if ord != Ordering::Equal {
                return ord;
            }
        }
        Ordering::Equal
    }

    /// The `{$meta: "sortKey"}` of a document a `$sort` stage ordered: its field values as
    /// [`SortSpec::key_values`] took them (`values`), with each `$meta` component's value in
    /// its place.
    pub fn sort_key_with_meta(&self, values: Vec<Bson>, meta: &DocumentMeta) -> Vec<Bson> {
        if !self
            .keys
            .iter()
            .any(|k| matches!(k, SortKey::TextScore { .. } | SortKey::Meta { .. }))
        {
            return values;
        }
        let mut fields = values.into_iter();
        self.keys
            .iter()
            .filter_map(|k| match k {
                SortKey::Field { .. } => fields.next(),
                SortKey::TextScore { .. } => meta.text_score.map(Bson::Double),
                SortKey::Meta { field } => meta.get(*field),
                SortKey::Natural { .. } => None,
            })
            .collect()
    }

    /// Each field key's sort value for a document, in key order.
    pub fn key_values(&self, doc: &Document) -> Vec<Bson> {
        self.keys
            .iter()
            .filter_map(|k| match k {
                SortKey::Field { path, ascending } => Some(sort_key(doc, path, *ascending)),
                _ => None,
            })
            .collect()
    }

    /// [`SortSpec::key_values`] read from a document's BSON bytes, when every key is a
    /// top-level field holding a scalar or a string, or missing (`None` otherwise, or on bytes
    /// the reader does not follow: the caller reads the document). A top-level scalar is its
    /// own sort value, and a missing field sorts as null, as `sort_key` finds them.
    pub fn key_values_raw(&self, bytes: &[u8]) -> Option<Vec<Bson>> {
        let mut names = Vec::with_capacity(self.keys.len());
        for k in &self.keys {
            if let SortKey::Field { path, .. } = k {
                let [name] = path.parts() else {
                    return None;
                };
                names.push(name.as_str());
            }
        }
        let mut found = Vec::with_capacity(names.len());
        crate::matcher::raw::top_level_values(bytes, &names, &mut found)?;
        let mut values = vec![Bson::Null; names.len()];
        for (i, v) in found {
            values[i] = v;
        }
        Some(values)
    }

    /// The document's `{$meta: "sortKey"}` (MongoDB 4.4+): an array of its value for each
    /// component of the sort, the text score for a `{$meta: "textScore"}` one.
    pub fn meta_sort_key(&self, doc: &Document, text_score: Option<f64>) -> Bson {
        Bson::Array(
            self.keys
                .iter()
                .filter_map(|k| match k {
                    SortKey::Field { path, ascending } => Some(sort_key(doc, path, *ascending)),
                    SortKey::TextScore { .. } => text_score.map(Bson::Double),
                    SortKey::Natural { .. } | SortKey::Meta { .. } => None,
                })
                .collect(),
        )
    }

    /// Compares two documents' [`SortSpec::key_values`].
    pub fn compare_keys(&self, a: &[Bson], b: &[Bson]) -> Ordering {
        let directions = self.keys.iter().filter_map(|k| match k {
            SortKey::Field { ascending, .. } => Some(*ascending),
            _ => None,
        });
        for ((x, y), asc) in a.iter().zip(b).zip(directions) {
            let ord = compare_values(x, y);
            let ord = if asc { ord } else { ord.reverse() };
            if ord != Ordering::Equal {
                return ord;
            }
        }
        Ordering::Equal
    }
}

fn direction(key: &str, v: &Bson) -> Result<bool> {
    let n = match crate::value::as_f64(v) {
        Some(n) => n,
        None => {
            return Err(Error::location(
                15974,
                format!(
                    "Illegal key in $sort specification: {key}: {}",
                    crate::value::display::key_value(v)
                ),
            ));
        }
    };
    if n == 1.0 {
        Ok(true)
    } else if n == -1.0 {
        Ok(false)
    } else {
        Err(Error::location(
            15975,
            "$sort key ordering must be 1 (for ascending) or -1 (for descending)",
        ))
    }
}

fn parse_meta(key: &str, d: &Document, stage: bool) -> Result<SortKey> {
    match d.get("$meta") {
        Some(Bson::String(s)) if d.len() == 1 && s == "textScore" => Ok(SortKey::TextScore {
            name: key.to_string(),
        }),
        Some(Bson::String(s)) if stage && d.len() == 1 && s == "geoNearDistance" => {
            Ok(SortKey::Meta {
                field: MetaField::GeoNearDistance,
            })
        }
        Some(Bson::String(s)) if stage && d.len() == 1 && s == "randVal" => Ok(SortKey::Meta {
            field: MetaField::RandVal,
        }),
        // MongoDB 8.0's SortPattern names the search metadata it cannot sort by.
        Some(Bson::String(s))
            if d.len() == 1 && (s == "searchScore" || s == "searchHighlights") =>
        {
            Err(Error::location(
                if s == "searchScore" { 31218 } else { 31219 },
                format!("$meta sort by '{s}' metadata is not supported"),
            ))
        }
        Some(_) if d.len() == 1 => Err(Error::location(
            31138,
            format!(
                "Illegal $meta sort: {}",
                crate::value::display::key_value(&Bson::Document(d.clone()))
            ),
        )),
        _ => Err(Error::location(
            17312,
            "$meta is the only expression supported by $sort right now",
        )),
    }
}

/// The value a document sorts by for one key.
fn sort_key(doc: &Document, path: &FieldPath, ascending: bool) -> Bson {
    let mut best: Option<Bson> = None;
    let mut consider = |v: Bson| {
        let better = match &best {
            None => true,
            Some(b) => {
                let ord = compare_values(&v, b);
                (ascending && ord == Ordering::Less) || (!ascending && ord == Ordering::Greater)
            }
        };
        if better {
            best = Some(v);
        }
    };
    let _ = for_each_item(doc, path, LeafArrays::ElementsOnly, &mut |item| {
        match item.value {
            None => consider(Bson::Null),
            Some(Bson::Array(a)) if a.is_empty() => consider(Bson::Undefined),
            Some(v) => consider(v.clone()),
        }
        std::ops::ControlFlow::Continue(())
    });
    best.unwrap_or(Bson::Null)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    fn order(spec: Document, docs: &[Document]) -> Vec<i32> {
        let s = SortSpec::parse(&spec).unwrap();
        let mut refs: Vec<&Document> = docs.iter().collect();
        s.sort(&mut refs);
        refs.iter().map(|d| d.get_i32("_id").unwrap()).collect()
    }

    #[test]
    fn arrays_sort_by_min_ascending_and_max_descending() {
        let docs = vec![
            doc! {"_id": 1, "a": [1, 10]},
            doc! {"_id": 2, "a": 5},
            doc! {"_id": 3, "a": [3, 4]},
        ];
        assert_eq!(order(doc! {"a": 1}, &docs), vec![1, 3, 2]);
        assert_eq!(order(doc! {"a": -1}, &docs), vec![1, 2, 3]);
    }

    #[test]
    fn missing_null_empty_array_and_type_order() {
        let docs = vec![
            doc! {"_id": 1, "a": "s"},
            doc! {"_id": 2},
            doc! {"_id": 3, "a": 1},
            doc! {"_id": 4, "a": []},
            doc! {"_id": 5, "a": null},
            doc! {"_id": 6, "a": {"x": 1}},
        ];
        assert_eq!(order(doc! {"a": 1}, &docs), vec![4, 2, 5, 3, 1, 6]);
        assert_eq!(
            order(doc! {"a": -1, "_id": 1}, &docs),
            vec![6, 1, 3, 2, 5, 4]
        );
    }

    #[test]
    fn dotted_paths_through_arrays() {
        let docs = vec![
            doc! {"_id": 1, "a": [{"b": 5}, {"b": 1}]},
            doc! {"_id": 2, "a": [{"b": 3}]},
            doc! {"_id": 3, "a": [{"b": 4}, {"c": 0}]},
        ];
        assert_eq!(order(doc! {"a.b": 1}, &docs), vec![3, 1, 2]);
        assert_eq!(order(doc! {"a.b": -1}, &docs), vec![1, 3, 2]);
    }

    #[test]
    fn natural_and_compound() {
        let docs = vec![
            doc! {"_id": 1, "k": 1},
            doc! {"_id": 2, "k": 0},
            doc! {"_id": 3, "k": 1},
        ];
        assert_eq!(order(doc! {"$natural": -1}, &docs), vec![3, 2, 1]);
        assert_eq!(order(doc! {"k": -1, "_id": -1}, &docs), vec![3, 1, 2]);
        assert_eq!(order(doc! {"k": 1.0}, &docs), vec![2, 1, 3]);
    }

    #[test]
    fn spec_errors() {
        let e = |s: Document| {
            let e = SortSpec::parse(&s).unwrap_err();
            (e.code(), e.message)
        };
        assert_eq!(e(doc! {"a": 2}).0, 15975);
        assert_eq!(
            e(doc! {"a": "asc"}),
            (
                15974,
                "Illegal key in $sort specification: a: \"asc\"".into()
            )
        );
        assert_eq!(e(doc! {"a": {"x": 1}}).0, 17312);
        assert_eq!(e(doc! {"a": {"$meta": "nope"}}).0, 31138);
        assert_eq!(
            e(doc! {"a": {"$meta": "searchScore"}}),
            (
                31218,
                "$meta sort by 'searchScore' metadata is not supported".to_string()
            )
        );
        assert_eq!(e(doc! {"a": {"$meta": "searchHighlights"}}).0, 31219);
        assert!(
            SortSpec::parse(&doc! {"s": {"$meta": "textScore"}})
                .unwrap()
                .needs_text_score()
        );
    }

    #[test]
    fn a_sort_stage_also_orders_by_near_distance_and_random_value_highest_first() {
        for name in ["geoNearDistance", "randVal"] {
            let spec = doc! {"x": {"$meta": name}};
            assert_eq!(SortSpec::parse(&spec).unwrap_err().code(), 31138, "{name}");
            assert!(SortSpec::parse_stage(&spec).unwrap().needs_stage_metadata());
        }
        let s = SortSpec::parse_stage(&doc! {"a": 1, "d": {"$meta": "geoNearDistance"}}).unwrap();
        let near = |d: f64| DocumentMeta {
            geo_near_distance: Some(d),
            ..DocumentMeta::default()
        };
        let one = [Bson::Int32(1)];
        // Equal `a`: the larger distance first.
        assert_eq!(
            s.compare_with_meta(&one, &near(5.0), &one, &near(2.0)),
            Ordering::Less
        );
        assert_eq!(
            s.compare_with_meta(&[Bson::Int32(2)], &near(5.0), &one, &near(2.0)),
            Ordering::Greater
        );
        // The sort key holds the field's value and the distance in the pattern's order.
        assert_eq!(
            s.sort_key_with_meta(vec![Bson::Int32(1)], &near(2.5)),
            vec![Bson::Int32(1), Bson::Double(2.5)]
        );
    }

    /// The values read from a document's bytes are the document's own sort values, or none are
    /// read (arrays, embedded documents and dotted paths are left to the document).
    #[test]
    fn values_from_bytes_agree_with_the_document() {
        let docs = vec![
            doc! {"_id": 1, "a": 5, "s": "x"},
            doc! {"_id": 2, "a": 2.5, "s": null},
            doc! {"_id": 3, "s": "é"},
            doc! {"_id": 4, "a": Bson::Undefined, "s": bson::DateTime::from_millis(3)},
            doc! {"_id": 5, "a": Bson::Int64(7), "s": bson::oid::ObjectId::from_bytes([1; 12])},
            doc! {"_id": 6, "a": [3, 1], "s": "y"},
            doc! {"_id": 7, "a": {"b": 1}, "s": true},
            doc! {"_id": 8, "a": [], "s": Bson::MinKey},
        ];
        for spec in [
            doc! {"a": 1},
            doc! {"s": -1, "_id": 1},
            doc! {"a": -1, "s": 1},
            doc! {"a.b": 1},
        ] {
            let s = SortSpec::parse(&spec).unwrap();
            for d in &docs {
                let bytes = d.to_vec().unwrap();
                let whole = d
                    .get("a")
                    .is_some_and(|a| matches!(a, Bson::Array(_) | Bson::Document(_)));
                match s.key_values_raw(&bytes) {
                    Some(v) => assert_eq!(v, s.key_values(d), "{spec} on {d}"),
                    None => assert!(whole || spec.contains_key("a.b"), "{spec} on {d}"),
                }
            }
        }
    }
}
