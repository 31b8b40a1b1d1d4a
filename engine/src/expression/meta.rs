//! Per-document metadata and `{$meta: "<name>"}` (MongoDB's `DocumentMetadataFields` and
//! `ExpressionMeta`): values a query computes for a document beside its fields (the text score of
//! a `$text` search, the distance and point of a near search, the index key and record id the
//! find read it through) or a stage gives it (`$sample`'s random value, `$sort`'s sort key),
//! which expressions read with `$meta`.
//!
//! A document without metadata carries none: stages hand `Option<&DocumentMeta>`, and a pipeline
//! that reads no `$meta` has no list at all.

use bson::{Bson, Document};

use super::operators::{Arity, OperatorDef};
use super::{Expression, Scope, Vars};
use crate::error::{Error, Result};

/// The metadata a document carries through a pipeline.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DocumentMeta {
    /// `{$meta: "textScore"}`: the score a `$text` search gave the document.
    pub text_score: Option<f64>,
    /// `{$meta: "geoNearDistance"}`: the distance a near search measured (before
    /// `$geoNear`'s `distanceMultiplier`).
    pub geo_near_distance: Option<f64>,
    /// `{$meta: "geoNearPoint"}`: the location that distance was measured to, as stored.
    pub geo_near_point: Option<Bson>,
    /// `{$meta: "randVal"}`: the random number `$sample` drew for the document.
    pub rand_val: Option<f64>,
    /// `{$meta: "sortKey"}`: the values the last `$sort` (or the find under the pipeline)
    /// ordered the document by, one per sort component.
    pub sort_key: Option<Vec<Bson>>,
    /// `{$meta: "indexKey"}`: the key of the index the find read the document through.
    pub index_key: Option<Document>,
    /// `{$meta: "recordId"}`: where the collection stores the document.
    pub record_id: Option<i64>,
}

impl DocumentMeta {
    /// The value `{$meta: field}` reads (missing when the document has none).
    pub fn get(&self, field: MetaField) -> Option<Bson> {
        match field {
            MetaField::TextScore => self.text_score.map(Bson::Double),
            MetaField::GeoNearDistance => self.geo_near_distance.map(Bson::Double),
            MetaField::GeoNearPoint => self.geo_near_point.clone(),
            MetaField::RandVal => self.rand_val.map(Bson::Double),
            // Always an array, one value per sort component (MongoDB 4.4+'s
            // DocumentMetadataFields::serializeSortKey).
            MetaField::SortKey => self.sort_key.clone().map(Bson::Array),
            MetaField::IndexKey => self.index_key.clone().map(Bson::Document),
            MetaField::RecordId => self.record_id.map(Bson::Int64),
            _ => None,
        }
    }
}

/// The `$meta` names MongoDB 8.0's `ExpressionMeta::parse` accepts (`kMetaNameToMetaType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetaField {
    TextScore,
    GeoNearDistance,
    GeoNearPoint,
    RandVal,
    SearchScore,
    SearchHighlights,
    SearchScoreDetails,
    IndexKey,
    RecordId,
    SortKey,
    Score,
    ScoreDetails,
    VectorSearchScore,
    SearchSequenceToken,
    TimeseriesBucketMinTime,
    TimeseriesBucketMaxTime,
}

const NAMES: &[(&str, MetaField)] = &[
    ("textScore", MetaField::TextScore),
    ("geoNearDistance", MetaField::GeoNearDistance),
    ("geoNearPoint", MetaField::GeoNearPoint),
    ("randVal", MetaField::RandVal),
    ("searchScore", MetaField::SearchScore),
    ("searchHighlights", MetaField::SearchHighlights),
    ("searchScoreDetails", MetaField::SearchScoreDetails),
    ("indexKey", MetaField::IndexKey),
    ("recordId", MetaField::RecordId),
    ("sortKey", MetaField::SortKey),
    ("score", MetaField::Score),
    ("scoreDetails", MetaField::ScoreDetails),
    ("vectorSearchScore", MetaField::VectorSearchScore),
    ("searchSequenceToken", MetaField::SearchSequenceToken),
    (
        "timeseriesBucketMinTime",
        MetaField::TimeseriesBucketMinTime,
    ),
    (
        "timeseriesBucketMaxTime",
        MetaField::TimeseriesBucketMaxTime,
    ),
];

impl MetaField {
    /// The field a `$meta` argument names: 17307 for a non-string, 17308 for an unknown name
    /// (MongoDB 8.0's ExpressionMeta::parse).
    pub fn parse(arg: &Bson) -> Result<MetaField> {
        let Bson::String(name) = arg else {
            return Err(Error::location(
                17307,
                "$meta only supports string arguments",
            ));
        };
        NAMES
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, f)| *f)
            .ok_or_else(|| Error::location(17308, format!("Unsupported argument to $meta: {name}")))
    }

    pub fn name(self) -> &'static str {
        NAMES
            .iter()
            .find(|(_, f)| *f == self)
            .map_or("", |(n, _)| n)
    }

    /// The metadata a pipeline cannot make itself, only a `$text` search or a near search
    /// (MongoDB's `DepsTracker::kDefaultUnavailableMetadata`), with the name 8.0's
    /// `typeNameToDebugString` gives it in error 40218.
    pub fn unavailable_by_default(self) -> Option<&'static str> {
        match self {
            MetaField::TextScore => Some("text score"),
            MetaField::GeoNearDistance => Some("$geoNear distance"),
            MetaField::GeoNearPoint => Some("$geoNear point"),
            _ => None,
        }
    }

    /// Error 40218 for reading metadata no stage before provides (DepsTracker::setNeedsMetadata).
    pub fn unavailable_error(self) -> Error {
        let what = self.unavailable_by_default().unwrap_or(self.name());
        Error::location(
            40218,
            format!("query requires {what} metadata, but it is not available"),
        )
    }
}

/// The metadata a query or the first stage of a pipeline makes available.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MetaAvailable {
    pub text_score: bool,
    pub geo_near: bool,
}

impl MetaAvailable {
    /// Whether reading `field` may go ahead (fields a pipeline never refuses are always).
    pub fn allows(self, field: MetaField) -> bool {
        match field {
            MetaField::TextScore => self.text_score,
            MetaField::GeoNearDistance | MetaField::GeoNearPoint => self.geo_near,
            _ => true,
        }
    }
}

/// Every `{$meta: <name>}` written in `v` (a stage, an expression), outside `$literal` and
/// outside the sub-pipelines of `$lookup` and `$unionWith` (pipelines of their own, which read
/// only their own metadata), in document order: what a stage reads, for the check against
/// what is available. `skip` names fields of `v` itself that are not read.
pub fn metas_in(v: &Bson, skip: &[&str], out: &mut Vec<MetaField>) {
    match v {
        Bson::Document(d) => {
            if d.len() == 1
                && let Some(arg) = d.get("$meta")
            {
                if let Ok(f) = MetaField::parse(arg) {
                    out.push(f);
                }
                return;
            }
            for (k, item) in d {
                if k == "$literal" || k == "$const" || skip.contains(&k.as_str()) {
                    continue;
                }
                let inner: &[&str] = match k.as_str() {
                    "$lookup" | "$unionWith" => &["pipeline"],
                    _ => &[],
                };
                metas_in(item, inner, out);
            }
        }
        Bson::Array(items) => items.iter().for_each(|i| metas_in(i, &[], out)),
        _ => {}
    }
}

fn parse_meta(_: &'static OperatorDef, arg: &Bson, _: &Scope) -> Result<Vec<Expression>> {
    let field = MetaField::parse(arg)?;
    Ok(vec![Expression::Constant(Bson::String(
        field.name().into(),
    ))])
}

/// `{$meta: name}`: the document's metadata, missing when it has none (MongoDB 8.0's
/// ExpressionMeta::evaluate; whether it may be read at all is checked when the pipeline is
/// prepared, 40218).
fn eval_meta(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let (Some(meta), Some(Expression::Constant(name))) = (vars.meta, args.first()) else {
        return Ok(None);
    };
    Ok(MetaField::parse(name).ok().and_then(|f| meta.get(f)))
}

pub const OPERATORS: &[OperatorDef] = &[OperatorDef {
    name: "$meta",
    arity: Arity::Exactly(1),
    parse_args: parse_meta,
    eval: eval_meta,
}];

#[cfg(test)]
mod tests {
    use bson::doc;

    use super::*;
    use crate::expression::EvalContext;

    #[test]
    fn meta_reads_the_documents_metadata_or_nothing() {
        let e = Expression::parse(&Bson::Document(doc! {"$meta": "textScore"})).unwrap();
        let d = Document::new();
        assert_eq!(e.evaluate(&d).unwrap(), None);
        let meta = DocumentMeta {
            text_score: Some(1.5),
            geo_near_point: Some(Bson::Array(vec![Bson::Int32(1), Bson::Int32(2)])),
            ..DocumentMeta::default()
        };
        let vars = Vars::with_context(&d, EvalContext::detached()).with_meta(Some(&meta));
        assert_eq!(e.eval(&vars).unwrap(), Some(Bson::Double(1.5)));
        let p = Expression::parse(&Bson::Document(doc! {"$meta": "geoNearPoint"})).unwrap();
        assert_eq!(
            p.eval(&vars).unwrap(),
            Some(Bson::Array(vec![Bson::Int32(1), Bson::Int32(2)]))
        );
        let s = Expression::parse(&Bson::Document(doc! {"$meta": "searchScore"})).unwrap();
        assert_eq!(s.eval(&vars).unwrap(), None);
    }

    #[test]
    fn meta_arguments_are_checked_when_parsed() {
        let err = |v: Bson| Expression::parse(&Bson::Document(doc! {"$meta": v})).unwrap_err();
        assert_eq!(err(Bson::Int32(1)).code(), 17307);
        let e = err(Bson::String("nope".into()));
        assert_eq!(e.code(), 17308);
        assert_eq!(e.message, "Unsupported argument to $meta: nope");
        for (name, _) in NAMES {
            assert!(Expression::parse(&Bson::Document(doc! {"$meta": *name})).is_ok());
        }
    }

    #[test]
    fn unavailable_metadata_has_mongodbs_names() {
        assert_eq!(
            MetaField::GeoNearDistance.unavailable_error().message,
            "query requires $geoNear distance metadata, but it is not available"
        );
        assert_eq!(MetaField::TextScore.unavailable_error().code(), 40218);
        assert!(MetaAvailable::default().allows(MetaField::RandVal));
        assert!(!MetaAvailable::default().allows(MetaField::GeoNearPoint));
    }

    #[test]
    fn metas_are_found_outside_literals_and_skipped_fields() {
        let mut out = Vec::new();
        let v = Bson::Document(doc! {
            "a": {"$meta": "textScore"},
            "b": {"$literal": {"$meta": "geoNearPoint"}},
            "pipeline": [{"$project": {"x": {"$meta": "geoNearDistance"}}}],
        });
        metas_in(&v, &["pipeline"], &mut out);
        assert_eq!(out, vec![MetaField::TextScore]);
        // A `$lookup` anywhere (in a `$facet`) reads its sub-pipeline's metadata itself.
        let mut out = Vec::new();
        let facet = Bson::Document(doc! {"$facet": {"f": [
            {"$lookup": {"from": "x", "as": "y", "pipeline": [
                {"$project": {"s": {"$meta": "textScore"}}}
            ]}},
            {"$project": {"d": {"$meta": "geoNearDistance"}}},
        ]}});
        metas_in(&facet, &[], &mut out);
        assert_eq!(out, vec![MetaField::GeoNearDistance]);
    }
}
