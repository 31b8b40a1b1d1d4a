//! Keys of `2d` and `2dsphere` indexes. A document's geo field is checked as MongoDB 8.0
//! checks it before indexing: a `2d` field must hold legacy pairs within the index's `min`/`max`
//! (codes 13026, 13027, 13067, 13068, 16804); a `2dsphere` field must hold valid GeoJSON or legacy
//! pairs in longitude/latitude range (code 16755, "Can't extract geo keys"). A `2d` index leaves
//! out documents without the field; a `2dsphere` index (version 2 and 3) leaves out documents
//! without any of its geo fields.
//!
//! The key of a geo part is one cell number (a geohash of the first location for `2d`, a
//! half-degree grid cell for `2dsphere`), one key per document: Sprout's geo plans scan the whole
//! index and test geometries on the documents (see `crate::geo`), so keys only say which
//! documents are indexed; MongoDB's S2 cell coverings are not reproduced.

use std::collections::BTreeSet;

use bson::{Bson, Document};

use super::keygen::DocKeys;
use super::spec::{IndexSpec, KeyKind};
use crate::error::{Error, Result};
use crate::geo::{Geometry, Pt, read_shape};
use crate::value::display::key_value;

/// A `2d` index's coordinate range and geohash precision (`min`, `max`, `bits`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Flat {
    pub min: f64,
    pub max: f64,
    pub bits: u32,
}

impl Flat {
    /// The options of a `2d` index spec document, checked as MongoDB checks them.
    pub fn of(spec: &Document) -> Result<Flat> {
        let num = |k: &str, default: f64| -> Result<f64> {
            match spec.get(k) {
                None => Ok(default),
                Some(v) => crate::value::as_f64(v)
                    .filter(|d| d.is_finite())
                    .ok_or_else(|| Error::bad_value(format!("{k} must be a number"))),
            }
        };
        let (min, max) = (num("min", -180.0)?, num("max", 180.0)?);
        let bits = num("bits", 26.0)?;
        if !(1.0..=32.0).contains(&bits) {
            return Err(Error::location(
                13028,
                "bits in geo index must be between 1 and 32",
            ));
        }
        if max <= min {
            return Err(Error::location(13067, "need a max value greater than min"));
        }
        Ok(Flat {
            min,
            max,
            bits: bits as u32,
        })
    }

    /// The geohash of a point (`bits` bits per coordinate, interleaved x then y).
    fn hash(&self, p: Pt) -> i64 {
        let scale = (1u64 << self.bits) as f64 / (self.max - self.min);
        let top = (1u64 << self.bits) - 1;
        let x = (((p.x - self.min) * scale) as u64).min(top);
        let y = (((p.y - self.min) * scale) as u64).min(top);
        let mut h = 0u64;
        for i in (0..self.bits).rev() {
            h = (h << 2) | (((x >> i) & 1) << 1) | ((y >> i) & 1);
        }
        h as i64
    }
}

/// Whether a spec has a geo key part.
pub fn is_geo(spec: &IndexSpec) -> bool {
    spec.parts
        .iter()
        .any(|p| matches!(p.kind, KeyKind::Geo2d | KeyKind::Geo2dSphere))
}

/// The keys a document gives a geo index (`None`: the document is not indexed).
pub fn doc_keys(spec: &IndexSpec, doc: &Document) -> Result<Option<DocKeys>> {
    let mut key = Vec::with_capacity(spec.parts.len());
    let mut sphere_fields = 0;
    let mut sphere_found = 0;
    for part in &spec.parts {
        let v = crate::path::lookup(doc, &part.path);
        match part.kind {
            KeyKind::Geo2d => {
                // A value that is neither an array nor a document holds no location: not
                // indexed, not refused (get2DKeys skips it).
                let mut values = geo_values(doc, &part.path, v);
                values.retain(|v| matches!(v, Bson::Array(_) | Bson::Document(_)));
                let Some(k) = first_key(values, |v| flat_key(&Flat::of(&spec.document)?, v, doc))?
                else {
                    return Ok(None);
                };
                key.push(Bson::Int64(k));
            }
            KeyKind::Geo2dSphere => {
                sphere_fields += 1;
                match first_key(geo_values(doc, &part.path, v), |v| sphere_key(v, doc))? {
                    Some(k) => {
                        sphere_found += 1;
                        key.push(Bson::Int64(k));
                    }
                    None => key.push(Bson::Null),
                }
            }
            _ => key.push(v.cloned().unwrap_or(Bson::Null)),
        }
    }
    if sphere_fields > 0 && sphere_found == 0 {
        return Ok(None);
    }
    Ok(Some(DocKeys {
        keys: vec![key],
        multikey_paths: vec![BTreeSet::new(); spec.parts.len()],
        wildcard_multikey: BTreeSet::new(),
    }))
}

/// The values a geo part reads: the one its path names, or else every value reached through
/// arrays along the path (`a.c` in `{a: [{b: 1}, {c: <point>}]}`), as MongoDB's key generators
/// read a geo field with `getFieldsDotted`, which expands the arrays met on the way
/// (jstests/core/multikey_geonear.js).
fn geo_values<'a>(
    doc: &'a Document,
    path: &crate::path::FieldPath,
    direct: Option<&'a Bson>,
) -> Vec<&'a Bson> {
    if let Some(v) = direct {
        return vec![v];
    }
    crate::path::items(doc, path, crate::path::LeafArrays::NoExpand)
        .into_iter()
        .filter_map(|item| item.value)
        .collect()
}

/// The key of the first value that holds a location, each value checked by `key`; `None` when
/// none holds one (missing, null, or an empty array or document: not indexed, not refused).
fn first_key(values: Vec<&Bson>, key: impl Fn(&Bson) -> Result<i64>) -> Result<Option<i64>> {
    let mut first = None;
    for v in values {
        match v {
            Bson::Null | Bson::Undefined => {}
            Bson::Array(a) if a.is_empty() => {}
            Bson::Document(d) if d.is_empty() => {}
            v => {
                let k = key(v)?;
                first.get_or_insert(k);
            }
        }
    }
    Ok(first)
}

/// A `2d` field: one pair, or an array (or document) of pairs (a multi-location document).
/// MongoDB's get2DKeys (expression_keys_private.cpp) tells the two apart by whether the first
/// element is a number; in a list of locations every element must be an array or a document
/// (16804) and an empty one is skipped.
fn flat_key(flat: &Flat, v: &Bson, doc: &Document) -> Result<i64> {
    let items: Vec<&Bson> = match v {
        Bson::Array(a) => a.iter().collect(),
        Bson::Document(d) => d.values().collect(),
        _ => Vec::new(),
    };
    let single = items
        .first()
        .is_some_and(|f| crate::value::as_f64(f).is_some());
    if single || items.is_empty() {
        return Ok(flat.hash(flat_point(flat, v, doc)?));
    }
    let mut first = None;
    for loc in items {
        match loc {
            Bson::Array(a) if a.is_empty() => continue,
            Bson::Document(d) if d.is_empty() => continue,
            Bson::Array(_) | Bson::Document(_) => {
                let p = flat_point(flat, loc, doc)?;
                first.get_or_insert(flat.hash(p));
            }
            _ => {
                return Err(Error::location(
                    16804,
                    "location object expected, location array not in correct format",
                ));
            }
        }
    }
    Ok(first.unwrap_or(0))
}

/// One location checked as MongoDB's GeoHashConverter::hash(locObj, &doc) checks it when
/// indexing (geo/hash.cpp): each failure names the whole document after " :: caused by :: ".
fn flat_point(flat: &Flat, v: &Bson, doc: &Document) -> Result<Pt> {
    let items: Vec<&Bson> = match v {
        Bson::Array(a) => a.iter().collect(),
        Bson::Document(d) => d.values().collect(),
        _ => return Err(not_a_pair(doc)),
    };
    match items.len() {
        0 => return Err(caused_by_doc(13067, "geo field is empty", doc)),
        1 => return Err(caused_by_doc(13068, "geo field only has 1 element", doc)),
        _ => {}
    }
    let (Some(x), Some(y)) = (
        crate::value::as_f64(items[0]),
        crate::value::as_f64(items[1]),
    ) else {
        return Err(not_a_pair(doc));
    };
    // 13027 (16433 is the same check on a query's point, GeoHashConverter::hash(x, y)): the
    // bounds are inclusive; NaN is in no interval.
    if !(x >= flat.min && x <= flat.max && y >= flat.min && y <= flat.max) {
        let what = format!("point not in interval of [ {}, {} ]", flat.min, flat.max);
        return Err(caused_by_doc(13027, &what, doc));
    }
    Ok(Pt { x, y })
}

fn caused_by_doc(code: i32, what: &str, doc: &Document) -> Error {
    Error::location(
        code,
        format!(
            "{what} :: caused by :: {}",
            key_value(&Bson::Document(doc.clone()))
        ),
    )
}

fn not_a_pair(doc: &Document) -> Error {
    caused_by_doc(
        13026,
        "geo values must be 'legacy coordinate pairs' for 2d indexes",
        doc,
    )
}

/// MongoDB's error for a document whose geometry a 2dsphere index cannot read.
fn cannot_extract(doc: &Document, why: &str) -> Error {
    Error::location(
        16755,
        format!(
            "Can't extract geo keys: {}  {why}",
            key_value(&Bson::Document(doc.clone()))
        ),
    )
}

/// A `2dsphere` field: GeoJSON, a legacy pair, or an array of them.
fn sphere_key(v: &Bson, doc: &Document) -> Result<i64> {
    let one = |v: &Bson| -> Result<Pt> {
        match read_shape(v) {
            Ok(Some(s)) => {
                if s.legacy
                    && let Geometry::Point(p) = s.geometry
                {
                    crate::geo::check_lng_lat(p.x, p.y).map_err(|e| cannot_extract(doc, &e))?;
                }
                s.geometry
                    .points()
                    .first()
                    .copied()
                    .ok_or_else(|| cannot_extract(doc, "empty geometry"))
            }
            Ok(None) => Err(cannot_extract(
                doc,
                "Point must be an array or object, instead got type",
            )),
            Err(e) => Err(cannot_extract(doc, &e)),
        }
    };
    let first = match (read_shape(v), v) {
        (Ok(None), Bson::Array(items)) => {
            let mut first = None;
            for item in items {
                let p = one(item)?;
                first.get_or_insert(p);
            }
            first
        }
        _ => Some(one(v)?),
    };
    let p = first.unwrap_or(Pt { x: 0.0, y: 0.0 });
    let (row, col) = (((p.y + 90.0) * 2.0) as i64, ((p.x + 180.0) * 2.0) as i64);
    Ok(row * 721 + col)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    fn spec(key: Document) -> IndexSpec {
        IndexSpec::parse(&doc! {"key": key, "name": "g"}).unwrap()
    }

    #[test]
    fn flat_keys_and_errors() {
        let s = spec(doc! {"loc": "2d"});
        assert!(doc_keys(&s, &doc! {"a": 1}).unwrap().is_none());
        assert!(doc_keys(&s, &doc! {"loc": 5}).unwrap().is_none());
        assert!(doc_keys(&s, &doc! {"loc": [1, 2]}).unwrap().is_some());
        assert!(
            doc_keys(&s, &doc! {"loc": [[1, 2], [3, 4]]})
                .unwrap()
                .is_some()
        );
        // MongoDB's geo/hash.cpp: GeoHashConverter::hash(locObj, &doc) names the document.
        let e = doc_keys(&s, &doc! {"_id": 1, "loc": [200, 2]}).unwrap_err();
        assert_eq!(e.code.code(), 13027);
        assert_eq!(
            e.message,
            "point not in interval of [ -180, 180 ] :: caused by :: { _id: 1, loc: [ 200, 2 ] }"
        );
        assert!(doc_keys(&s, &doc! {"loc": [180, -180]}).unwrap().is_some());
        assert!(doc_keys(&s, &doc! {"loc": []}).unwrap().is_none());
        let e = doc_keys(&s, &doc! {"loc": [1]}).unwrap_err();
        assert_eq!(e.code.code(), 13068);
        assert_eq!(
            e.message,
            "geo field only has 1 element :: caused by :: { loc: [ 1 ] }"
        );
        // A first element that is not a number makes a list of locations, whose elements must
        // be arrays or documents (get2DKeys, 16804); an empty one is skipped.
        let code = |d: Document| doc_keys(&s, &d).unwrap_err().code.code();
        assert_eq!(code(doc! {"loc": ["a", 1]}), 16804);
        assert_eq!(code(doc! {"loc": [[1, 2], 5]}), 16804);
        assert_eq!(code(doc! {"loc": [[1, "a"]]}), 13026);
        assert_eq!(code(doc! {"loc": [[1]]}), 13068);
        assert!(doc_keys(&s, &doc! {"loc": [[], [1, 2]]}).unwrap().is_some());
        assert_eq!(code(doc! {"loc": [f64::NAN, 1]}), 13027);
    }

    #[test]
    fn sphere_keys_and_errors() {
        let s = spec(doc! {"loc": "2dsphere", "b": 1});
        assert!(
            doc_keys(&s, &doc! {"b": 1}).unwrap().is_none(),
            "sparse by nature"
        );
        assert!(doc_keys(&s, &doc! {"loc": [1, 2]}).unwrap().is_some());
        let poly = doc! {"loc": {"type": "Polygon", "coordinates": [[[0, 0], [0, 1], [1, 1], [0, 1], [0, 0]]]}};
        let e = doc_keys(&s, &poly).unwrap_err();
        assert_eq!(e.code.code(), 16755);
        assert!(e.message.starts_with("Can't extract geo keys: { loc: "));
        assert_eq!(
            doc_keys(&s, &doc! {"loc": [200, 2]})
                .unwrap_err()
                .code
                .code(),
            16755
        );
        assert_eq!(
            doc_keys(&s, &doc! {"loc": "x"}).unwrap_err().code.code(),
            16755
        );
    }

    #[test]
    fn geo_fields_reached_through_arrays_are_indexed_and_checked() {
        // jstests/core/multikey_geonear.js: the geometry sits in one element of an array.
        let sphere = spec(doc! {"a.b": 1, "a.c": "2dsphere"});
        let d = doc! {"a": [{"b": 0}, {"c": {"type": "Point", "coordinates": [1, 1]}}]};
        assert!(doc_keys(&sphere, &d).unwrap().is_some());
        let bad = doc! {"a": [{"c": {"type": "Point", "coordinates": [1, 1]}}, {"c": "x"}]};
        assert_eq!(doc_keys(&sphere, &bad).unwrap_err().code.code(), 16755);
        assert!(
            doc_keys(&sphere, &doc! {"a": [{"b": 1}, {"c": null}]})
                .unwrap()
                .is_none()
        );

        let flat = spec(doc! {"a.b": "2d", "a.c": 1});
        let d = doc! {"a": [{"b": [1, 1]}, {"c": 1}]};
        assert!(doc_keys(&flat, &d).unwrap().is_some());
        // Scalars hold no location: skipped, as a scalar of the field itself is.
        assert!(
            doc_keys(&flat, &doc! {"a": [{"b": 5}, {"c": 1}]})
                .unwrap()
                .is_none()
        );
        let e = doc_keys(&flat, &doc! {"a": [{"b": [1, 1]}, {"b": [500, 1]}]}).unwrap_err();
        assert_eq!(e.code.code(), 13027);
    }
}
