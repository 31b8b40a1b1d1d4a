//! Find projections (`{name: 1, "a.b": 0, tags: {$slice: 2}, total: {$add: ["$x", 1]}}`):
//! parsed once into a tree ([`parse`]) with MongoDB's errors, then applied to each result
//! document ([`apply`]).
//!
//! Rules (MongoDB 8.0): a projection is an inclusion or an exclusion; `_id` is included unless
//! excluded and may be excluded in either kind; computed fields (expressions and literals),
//! `$elemMatch` and positional `a.$` make an inclusion; `$slice` and `$meta` fit either kind.
//! Dotted paths reach into arrays of documents. A path that is a prefix of another collides.

mod apply;
mod parse;

#[cfg(test)]
mod tests;

use bson::{Bson, Document};

use crate::error::Result;
use crate::expression::{Expression, Scope};
use crate::matcher::ElemMatch;

/// A parsed projection.
#[derive(Debug, Clone)]
pub struct Projection {
    mode: Mode,
    root: Node,
    /// Whether a positional `a.$` needs the filter's elemMatchKey.
    positional: bool,
    /// Whether `{$meta: "textScore"}` is asked for.
    text_score: bool,
    /// Whether `{$meta: "sortKey"}` is asked for.
    sort_key: bool,
    /// Whether `{$meta: "geoNearDistance"}` or `{$meta: "geoNearPoint"}` is asked for.
    geo_near: bool,
}

/// Inclusion or exclusion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Inclusion,
    Exclusion,
}

/// The projection of one document level: its fields in specification order.
#[derive(Debug, Clone, Default)]
struct Node {
    fields: Vec<(String, Action)>,
    /// Whether the positional path (`a.b.$`) goes through this level: the first array met
    /// along it is cut down to the element the query matched.
    positional: bool,
}

impl Node {
    fn has_meta(&self, kind: MetaKind) -> bool {
        self.fields.iter().any(|(_, a)| match a {
            Action::Meta(k) => *k == kind,
            Action::Sub(n) => n.has_meta(kind),
            _ => false,
        })
    }
}

/// What a projection does with one field.
#[derive(Debug, Clone)]
enum Action {
    Include,
    Exclude,
    /// A nested projection (`"a.b"` or `{a: {b: 1}}`).
    Sub(Node),
    /// `$slice: n` or `$slice: [skip, limit]`.
    Slice {
        skip: Option<i64>,
        limit: i64,
    },
    /// `$elemMatch`: the first matching element of the array.
    ElemMatch(Box<ElemMatch>),
    /// `a.$`: the array element the query matched.
    Positional,
    /// A computed field: an expression or a literal.
    Computed(Box<Expression>),
    /// `$meta`.
    Meta(MetaKind),
}

/// `$meta` arguments find accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetaKind {
    TextScore,
    IndexKey,
    RecordId,
    SortKey,
    GeoNearDistance,
    GeoNearPoint,
}

/// What applying a projection needs besides the document: the metadata a plan computed.
#[derive(Debug, Clone, Default)]
pub struct ProjectionInput<'a> {
    /// The filter's elemMatchKey for this document (for `a.$`).
    pub elem_match_key: Option<usize>,
    /// The text score, when a `$text` query computed one (`{$meta: "textScore"}`).
    pub text_score: Option<f64>,
    /// A near search's distance and point (`{$meta: "geoNearDistance"}`, `"geoNearPoint"`).
    pub geo_near: Option<&'a (f64, Bson)>,
    /// The index key the document was found through (`{$meta: "indexKey"}`); a collection
    /// scan has none and the field is left out.
    pub index_key: Option<Document>,
    /// The document's record id (`{$meta: "recordId"}`), when the plan knows it.
    pub record_id: Option<i64>,
    /// The document's sort key under the query's sort (`{$meta: "sortKey"}`): its value for
    /// each sort component, in order.
    pub sort_key: Option<Bson>,
}

impl Projection {
    /// Parses a find projection. An empty document is no projection (`None`).
    pub fn parse(spec: &Document) -> Result<Option<Projection>> {
        Projection::parse_in(spec, &Scope::default())
    }

    /// Parses a projection whose computed fields may name the variables of `scope`.
    pub fn parse_in(spec: &Document, scope: &Scope) -> Result<Option<Projection>> {
        crate::matcher::check_nesting(spec)?;
        parse::parse(spec, scope)
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Whether applying needs the filter's elemMatchKey (positional `a.$`).
    pub fn needs_elem_match_key(&self) -> bool {
        self.positional
    }

    /// Whether `{$meta: "textScore"}` is projected.
    pub fn needs_text_score(&self) -> bool {
        self.text_score
    }

    /// Whether the first `$meta` of a near search projected is the distance.
    pub fn needs_geo_near_distance(&self) -> bool {
        self.root.has_meta(MetaKind::GeoNearDistance)
    }

    /// Whether a near search's distance or point is projected.
    pub fn needs_geo_near(&self) -> bool {
        self.geo_near
    }

    /// Whether the projection shows the sort key (`{$meta: "sortKey"}`).
    pub fn needs_sort_key(&self) -> bool {
        self.sort_key
    }

    /// Applies the projection to one document.
    pub fn apply(&self, doc: &Document, input: &ProjectionInput<'_>) -> Result<Document> {
        apply::apply(self, doc, input)
    }
}
