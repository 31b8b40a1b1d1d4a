//! The query planner: from a find's filter, sort, projection and hint to candidate query
//! solutions (trees of plan nodes, data first), as MongoDB's QueryPlanner does. Index selection
//! looks at each index's leading key part; bounds come from [`bounds`]; a sort the index order
//! provides needs no SORT; a projection of index fields alone is covered (no FETCH).
//! `exec` turns a solution into executable stages and races several of them.
//!
//! Entry points by command: `find` → [`crate::exec::execute`]; a rooted `$or` is planned branch
//! by branch ([`or`]); `count` → [`crate::exec::count::execute_count`] (COUNT, COUNT_SCAN);
//! `distinct` → [`crate::exec::execute_distinct`] (DISTINCT_SCAN); explained writes →
//! [`crate::exec::explain_write`] (DELETE, UPDATE).
//!
//! For aggregation (a leading `$match` and `$sort`, and the `$project` the pipeline can push
//! down): build a [`crate::query::FindSpec`] (filter = the `$match`, sort = the `$sort`) and its
//! [`CanonicalQuery`] (a projection only when pushed down,
//! `with_hint` = the aggregate's hint), and call `crate::exec::execute(coll, &query, ctx, true)`: its `docs` are the documents in
//! plan order, and `winner_stats`/`rejected`/`trials` feed
//! [`crate::explain::stage_document`] / [`crate::explain::explain_document`] for the
//! `$cursor` stage's `queryPlanner` and `executionStats` (queryPlanner verbosity: pass
//! `run_to_end = false`).

pub mod bounds;
pub mod count;
pub mod explode;
pub mod geo;
pub mod min_max;
pub mod or;
pub mod plan_cache;
pub mod predicates;
pub mod text;
pub mod whole_index;
pub mod wildcard;

use bson::{Bson, Document};

use crate::catalog::Collection;
use crate::error::{Error, Result};
use crate::index::{Index, KeyKind};
use crate::sort::SortKey;
use bounds::{Interval, contains, intersect, intervals_for};
use predicates::{Conjunct, Pred, Residual, residual};

/// What the planner plans: built once per find by [`crate::query::canonical`].
pub use crate::query::CanonicalQuery;

/// A node of a query solution.
#[derive(Debug, Clone)]
pub enum Solution {
    Eof,
    CollScan {
        forward: bool,
        filter: Option<Residual>,
    },
    IdHack {
        id: Bson,
    },
    IxScan(IxScanPlan),
    Fetch {
        filter: Option<Residual>,
        child: Box<Solution>,
    },
    Sort {
        pattern: Document,
        limit: Option<usize>,
        child: Box<Solution>,
    },
    Skip {
        n: usize,
        child: Box<Solution>,
    },
    Limit {
        n: usize,
        child: Box<Solution>,
    },
    Projection {
        kind: ProjectionKind,
        transform_by: Document,
        child: Box<Solution>,
    },
    /// The union of its inputs, each record once (an indexed `$or`).
    Or {
        children: Vec<Solution>,
    },
    /// The union of inputs that each return the sort order, merged in that order.
    SortMerge {
        pattern: Document,
        children: Vec<Solution>,
    },
    /// A rooted `$or` planned branch by branch (the winning plan's root).
    Subplan {
        child: Box<Solution>,
    },
    /// Counts the keys of one index range (a `count` the index answers alone).
    CountScan(IxScanPlan),
    /// Returns the first key of each distinct leading value (a `distinct` on an indexed field).
    DistinctScan(IxScanPlan),
    /// A `$text` search through the text index (see [`text`]).
    Text(Box<text::TextPlan>),
    /// A near search through a geo index, nearest first (see [`geo`]).
    GeoNear(Box<geo::GeoNearPlan>),
}

/// Which projection stage applies the projection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProjectionKind {
    /// Built from index keys alone.
    Covered,
    /// Top-level inclusions or exclusions.
    Simple,
    Default,
}

impl ProjectionKind {
    pub fn stage_name(self) -> &'static str {
        match self {
            ProjectionKind::Covered => "PROJECTION_COVERED",
            ProjectionKind::Simple => "PROJECTION_SIMPLE",
            ProjectionKind::Default => "PROJECTION_DEFAULT",
        }
    }
}

/// An index scan: which index, its bounds per key part (ascending value order), direction.
#[derive(Debug, Clone)]
pub struct IxScanPlan {
    pub index_name: String,
    pub bounds: Vec<Vec<Interval>>,
    pub forward: bool,
    /// A `min()`/`max()` scan: whole index keys from `start` (inclusive) to `end` (exclusive)
    /// in key-pattern order, instead of per-field `bounds` (MongoDB's "simple range").
    pub key_range: Option<KeyRange>,
    /// Predicates tested on each key within the bounds, before any fetch (MongoDB's IXSCAN
    /// `filter`: a regex or `$mod` on a key part without arrays, INEXACT_COVERED tightness).
    pub filter: Option<Residual>,
    /// A scan of a wildcard index for one path (see [`wildcard`]); `None` for other indexes.
    pub wildcard: Option<WildcardScan>,
}

/// What a wildcard index scan serves: the path, as the key pattern `{$_path: 1, <path>: 1}`.
#[derive(Debug, Clone, PartialEq)]
pub struct WildcardScan {
    pub path: String,
    /// Whether a document may have several keys in the bounds (the path or a prefix held an
    /// array, or the bounds cover several paths): the scan returns each record once.
    pub multikey: bool,
    /// The path's prefixes where arrays were met (explain's `multiKeyPaths`).
    pub multikey_paths: Vec<String>,
}

/// Index keys (one value per key part) bounding a `min()`/`max()` scan.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyRange {
    pub start: Vec<Bson>,
    pub end: Vec<Bson>,
}

impl Solution {
    /// Whether the tree has a node of this kind (for the multi-planner's tie-breakers).
    pub fn has_fetch(&self) -> bool {
        match self {
            Solution::Fetch { .. } => true,
            _ => self.children().into_iter().any(Solution::has_fetch),
        }
    }

    pub fn has_sort(&self) -> bool {
        match self {
            Solution::Sort { .. } => true,
            _ => self.children().into_iter().any(Solution::has_sort),
        }
    }

    /// The node's inputs.
    pub fn children(&self) -> Vec<&Solution> {
        match self {
            Solution::Fetch { child, .. }
            | Solution::Sort { child, .. }
            | Solution::Skip { child, .. }
            | Solution::Limit { child, .. }
            | Solution::Projection { child, .. }
            | Solution::Subplan { child } => vec![child],
            Solution::Or { children } | Solution::SortMerge { children, .. } => {
                children.iter().collect()
            }
            _ => Vec::new(),
        }
    }
}

/// The candidate solutions for a find, best guess first. Errors: a hint naming no index.
pub fn plan_find(coll: Option<&Collection>, q: &CanonicalQuery<'_>) -> Result<Vec<Solution>> {
    if q.spec.filter.text_query().is_some() {
        return Ok(vec![finish(q, text::plan_text(coll, q)?, false)?]);
    }
    if let Some(near) = geo::plan_near(coll, q)? {
        return Ok(vec![finish(q, near, false)?]);
    }
    let Some(coll) = coll else {
        return Ok(vec![Solution::Eof]);
    };
    let parts = q.conjuncts();
    let natural = q.spec.sort.as_ref().and_then(|s| s.natural());
    let hinted = match q.hint {
        Some(h) => Some(resolve_hint(coll, h)?),
        None => None,
    };
    if q.spec.min.is_some() || q.spec.max.is_some() {
        min_max::check_field_names(q.spec.min.as_ref(), q.spec.max.as_ref())?;
        let index = match &hinted {
            None => return Err(min_max::hint_required()),
            Some(Hint::Natural(_)) => return Err(min_max::natural_hint()),
            Some(Hint::Index(name)) => coll.index(name).ok_or_else(|| {
                Error::bad_value("hint provided does not correspond to an existing index")
            })?,
        };
        if index.spec.wildcard.is_some() {
            return Err(wildcard::min_max_refused());
        }
        return Ok(vec![min_max::plan(index, parts, q)?]);
    }
    if let Some(Hint::Natural(forward)) = hinted {
        return Ok(vec![finish(q, collscan(parts, q, forward)?, false)?]);
    }
    if hinted.is_none()
        && natural.is_none()
        && coll.index(crate::index::ID_INDEX_NAME).is_some()
        && let Some(id) = id_hack_key(parts)
    {
        return Ok(vec![finish(q, Solution::IdHack { id }, false)?]);
    }
    let mut out = Vec::new();
    if natural.is_none() {
        for index in coll.indexes() {
            match &hinted {
                Some(Hint::Index(name)) if index.name() != name => continue,
                None if index.spec.hidden => continue,
                _ => {}
            }
            let forced = hinted.is_some();
            if geo::is_geo(index) {
                out.extend(geo::within_solution(index, parts, q, forced)?);
                continue;
            }
            if index.spec.wildcard.is_some() {
                let found = wildcard::solutions(index, parts, q)?;
                if forced && found.is_empty() {
                    return Err(wildcard::no_plan());
                }
                out.extend(found);
                continue;
            }
            if let Some(sol) = index_solution(index, parts, q, forced)? {
                out.push(sol);
            }
        }
        if hinted.is_none()
            && let Some(sol) = or::contained_or_candidate(coll, parts, q)?
        {
            out.push(sol);
        }
    }
    if out.is_empty() {
        out.push(finish(
            q,
            collscan(parts, q, natural.unwrap_or(true))?,
            false,
        )?);
    }
    Ok(out)
}

enum Hint {
    Natural(bool),
    Index(String),
}

fn resolve_hint(coll: &Collection, hint: &Bson) -> Result<Hint> {
    let bad = || Error::bad_value("hint provided does not correspond to an existing index");
    match hint {
        Bson::String(name) => coll
            .index(name)
            .filter(|i| !i.spec.hidden)
            .map(|i| Hint::Index(i.name().to_string()))
            .ok_or_else(bad),
        Bson::Document(d) if d.is_empty() => Err(bad()),
        Bson::Document(d) if d.contains_key("$natural") => Ok(Hint::Natural(
            d.get("$natural")
                .map(crate::value::as_i64_signed)
                .unwrap_or(1)
                >= 0,
        )),
        Bson::Document(d) => coll
            .indexes()
            .iter()
            .find(|i| crate::index::spec::same_key_pattern(&i.spec.key, d) && !i.spec.hidden)
            .map(|i| Hint::Index(i.name().to_string()))
            .ok_or_else(bad),
        _ => Err(Error::bad_value("hint must be a string or an object")),
    }
}

/// MongoDB uses an index for string comparisons only when its collation is the query's. Sprout's
/// index keys are binary (no ICU sort keys), so an index serves only simple-collation queries
/// and a collated index serves none: such queries scan the collection, which keeps their
/// answers and orders right at the cost of speed (a hinted one is scanned whole:
/// [`whole_index`]).
fn collation_allows(index: &Index) -> bool {
    index.spec.collation.is_none() && crate::collation::active_is_simple()
}

/// `{_id: <scalar>}` alone is answered by an `_id` lookup (binary, so not under a collation).
fn id_hack_key(parts: &[Conjunct]) -> Option<Bson> {
    if !crate::collation::active_is_simple() {
        return None;
    }
    match parts {
        [c] if c.path.as_deref() == Some("_id") => match &c.pred {
            Pred::Eq(v)
                if !matches!(
                    v,
                    Bson::Array(_)
                        | Bson::Document(_)
                        | Bson::RegularExpression(_)
                        | Bson::Null
                        | Bson::MinKey
                        | Bson::MaxKey
                        | Bson::Undefined
                ) =>
            {
                Some(v.clone())
            }
            _ => None,
        },
        _ => None,
    }
}

fn collscan(parts: &[Conjunct], q: &CanonicalQuery<'_>, forward: bool) -> Result<Solution> {
    let all: Vec<&Conjunct> = parts.iter().collect();
    Ok(Solution::CollScan {
        forward,
        filter: residual(&all, parts.len(), &q.spec.filter)?,
    })
}

/// An index plan, or `None` when the index cannot serve the query.
fn index_solution(
    index: &Index,
    parts: &[Conjunct],
    q: &CanonicalQuery<'_>,
    forced: bool,
) -> Result<Option<Solution>> {
    // An index whose leading field no predicate names gives no bounds, and without a sort no
    // order: it is not a candidate (the check below), so its access path (bounds, residual
    // filter) is not built first. A fixed cost of every find on a collection with indexes.
    if !forced
        && q.spec.sort.is_none()
        && index.spec.parts.first().is_some_and(|lead| {
            !parts
                .iter()
                .any(|c| c.path.as_deref() == Some(&lead.dotted))
        })
    {
        return Ok(None);
    }
    let Some(access) = index_access_as(index, parts, q, forced)? else {
        return Ok(None);
    };
    if !access.leading_usable && access.sort_dir.is_none() && !forced {
        return Ok(None);
    }
    if index.spec.sparse && !access.leading_usable && !forced {
        return Ok(None);
    }
    if access.sort_dir.is_none()
        && let Some(merged) = explode::explode_for_sort(index, &access.solution, q)
    {
        return Ok(Some(finish_with(q, merged, true, access.covered)?));
    }
    Ok(Some(finish_with(
        q,
        access.solution,
        access.sort_dir.is_some(),
        access.covered,
    )?))
}

/// One index's access path for a filter's conjuncts (IXSCAN, under a FETCH unless covered),
/// with what it offers the planner.
#[derive(Debug, Clone)]
pub struct IndexAccess {
    pub solution: Solution,
    /// The scan direction that provides the requested sort, when the index provides it.
    pub sort_dir: Option<bool>,
    pub covered: bool,
    /// Whether a predicate bounds the index's leading key part.
    pub leading_usable: bool,
}

/// The access path through `index`, or `None` when the index cannot be used at all (a partial
/// index the filter does not imply, a sparse index that would miss matching documents, an index
/// whose collation is not the query's).
pub fn index_access(
    index: &Index,
    parts: &[Conjunct],
    q: &CanonicalQuery<'_>,
) -> Result<Option<IndexAccess>> {
    index_access_as(index, parts, q, false)
}

/// [`index_access`], `hinted` when the query's hint names the index: a hinted sparse index is
/// used even where it lacks documents the filter matches (MongoDB answers from the index, so
/// documents without the field are not returned; issue #19).
fn index_access_as(
    index: &Index,
    parts: &[Conjunct],
    q: &CanonicalQuery<'_>,
    hinted: bool,
) -> Result<Option<IndexAccess>> {
    if index.spec.parts.is_empty() || index.spec.wildcard.is_some() || geo::is_geo(index) {
        return Ok(None);
    }
    // Partial indexes serve only queries whose filter implies the partial filter.
    let partial_unusable = index
        .spec
        .partial
        .as_ref()
        .is_some_and(|(_, pf)| !implies(parts, &crate::query::canonical::filter_conjuncts(pf)));
    if partial_unusable || !collation_allows(index) {
        return if hinted {
            whole_index::whole_index_scan(index, parts, q).map(Some)
        } else {
            Ok(None)
        };
    }
    let mut bounds = Vec::with_capacity(index.spec.parts.len());
    let mut exact_used: Vec<usize> = Vec::new();
    let mut key_checked: Vec<usize> = Vec::new();
    let mut leading_usable = false;
    let mut bounded_parts: Vec<usize> = Vec::new();
    for (i, part) in index.spec.parts.iter().enumerate() {
        let multikey = index.part_is_multikey(i);
        if bounded_parts
            .iter()
            .any(|&j| index.parts_share_multikey_prefix(j, i))
        {
            // A field through the same array as an already bounded field: its keys pair values
            // of one element, while the predicates may match different elements. MongoDB
            // compounds such bounds only under one `$elemMatch` (which Sprout does not use for
            // bounds), so this part scans all keys and its predicates stay in the filter.
            bounds.push(vec![Interval::all()]);
            continue;
        }
        if part
            .path
            .parts()
            .iter()
            .any(|p| crate::path::array_index(p).is_some())
        {
            // `a.0` also names fields of documents inside arrays; keys cannot bound it.
            bounds.push(vec![Interval::all()]);
            continue;
        }
        let mut ivs: Option<Vec<Interval>> = None;
        let mut on_part: Vec<(usize, bool)> = Vec::new();
        // Each conjunct's predicates on this key's path: its own, or those under an
        // `$elemMatch` it holds (never exact: the `$elemMatch` stays in the filter).
        let candidates = parts.iter().enumerate().flat_map(|(ci, c)| {
            let direct = (c.path.as_deref() == Some(part.dotted.as_str()))
                .then(|| (ci, c.pred.clone(), true));
            let nested = crate::query::canonical::elem_match_preds(c, &part.dotted)
                .into_iter()
                .map(move |p| (ci, p, false));
            direct.into_iter().chain(nested)
        });
        for (ci, pred, direct) in candidates {
            let Some((mut civs, mut exact)) = intervals_for(&pred) else {
                continue;
            };
            exact &= direct;
            if index.spec.sparse && !hinted && civs.iter().any(|iv| iv.locate(&Bson::Null).is_eq())
            {
                // A sparse index lacks documents without the field, which this predicate matches.
                return Ok(None);
            }
            if part.kind == KeyKind::Hashed {
                if !civs.iter().all(Interval::is_point) {
                    continue;
                }
                civs = bounds::normalize(
                    civs.iter()
                        .map(|iv| Interval::point(crate::index::keygen::hash_value(&iv.low)))
                        .collect(),
                );
                exact = false;
            }
            let (next, counted_exact) = match ivs {
                None => (civs, exact),
                // Bounds on a multikey path cannot be intersected: keep the first predicate's.
                Some(prev) if multikey => (prev, false),
                Some(prev) => (intersect(&prev, &civs), exact),
            };
            ivs = Some(next);
            on_part.push((ci, counted_exact));
        }
        if i == 0 && ivs.is_some() {
            leading_usable = true;
        }
        if ivs.is_some() {
            bounded_parts.push(i);
        }
        for (ci, exact) in on_part {
            if exact {
                exact_used.push(ci);
            } else if !multikey
                && part.kind != KeyKind::Hashed
                && bounds::key_checkable(&parts[ci].pred)
            {
                // The key holds the path's whole value (no arrays on it), so the predicate
                // answers the same on the key as on the document.
                key_checked.push(ci);
            }
        }
        bounds.push(ivs.unwrap_or_else(|| vec![Interval::all()]));
    }
    let sort_dir = provided_sort(index, &bounds, q);
    let forward = sort_dir.unwrap_or(true);
    let rest: Vec<&Conjunct> = parts
        .iter()
        .enumerate()
        .filter(|(i, _)| !exact_used.contains(i) && !key_checked.contains(i))
        .map(|(_, c)| c)
        .collect();
    let residual = residual(&rest, parts.len(), &q.spec.filter)?;
    let on_keys: Vec<&Conjunct> = key_checked.iter().map(|&i| &parts[i]).collect();
    let key_filter = residual_of_paths(&on_keys);
    let scan = Solution::IxScan(IxScanPlan {
        index_name: index.name().to_string(),
        bounds,
        forward,
        key_range: None,
        filter: key_filter,
        wildcard: None,
    });
    let covered = residual.is_none() && covers_projection(index, q);
    let solution = if covered {
        scan
    } else {
        Solution::Fetch {
            filter: residual,
            child: Box::new(scan),
        }
    };
    Ok(Some(IndexAccess {
        solution,
        sort_dir,
        covered,
        leading_usable,
    }))
}

/// The filter of some path clauses alone (never the whole query's filter, which may hold
/// clauses an index key cannot answer).
fn residual_of_paths(parts: &[&Conjunct]) -> Option<Residual> {
    let doc = predicates::as_document(parts)?;
    let filter = crate::matcher::Filter::all_of(parts.iter().map(|c| &c.clause));
    Some(Residual { doc, filter })
}

/// Whether every conjunct of the partial filter is implied by a query conjunct on its path.
fn implies(query: &[Conjunct], partial: &[Conjunct]) -> bool {
    partial.iter().all(|p| {
        let Some((pivs, _)) = intervals_for(&p.pred) else {
            return query.iter().any(|q| q.doc == p.doc);
        };
        query.iter().any(|q| {
            q.path == p.path
                && intervals_for(&q.pred).is_some_and(|(qivs, _)| contains(&pivs, &qivs))
        })
    })
}

/// The scan direction that yields the requested sort, if this index can provide it.
pub(crate) fn provided_sort(
    index: &Index,
    bounds: &[Vec<Interval>],
    q: &CanonicalQuery<'_>,
) -> Option<bool> {
    let sort = q.spec.sort.as_ref()?;
    let keys = sort.keys();
    let mut wanted: Vec<(String, bool)> = Vec::with_capacity(keys.len());
    for k in keys {
        match k {
            SortKey::Field { path, ascending } => wanted.push((path.dotted(), *ascending)),
            _ => return None,
        }
    }
    let mut direction: Option<bool> = None;
    let mut w = 0;
    for (i, part) in index.spec.parts.iter().enumerate() {
        if w == wanted.len() {
            break;
        }
        let point = bounds[i].len() == 1 && bounds[i][0].is_point();
        let (field, asc) = &wanted[w];
        if &part.dotted == field && part.kind != KeyKind::Hashed && !index.part_is_multikey(i) {
            let same = (part.kind == KeyKind::Ascending) == *asc;
            match direction {
                None => direction = Some(same),
                Some(d) if d != same => return None,
                _ => {}
            }
            w += 1;
        } else if point {
            continue;
        } else {
            return None;
        }
    }
    if w == wanted.len() {
        Some(direction.unwrap_or(true))
    } else {
        None
    }
}

/// Whether the projection needs only this index's fields (a covered query).
fn covers_projection(index: &Index, q: &CanonicalQuery<'_>) -> bool {
    let (Some(proj), Some(p)) = (q.projection, q.spec.projection.as_ref()) else {
        return false;
    };
    if index.is_multikey() || p.mode() != crate::projection::Mode::Inclusion {
        return false;
    }
    if p.needs_elem_match_key() {
        return false;
    }
    let in_index = |f: &str| {
        index
            .spec
            .parts
            .iter()
            .any(|k| k.dotted == f && k.kind != KeyKind::Hashed)
    };
    let mut id_excluded = false;
    for (k, v) in proj {
        let truthy = match v {
            Bson::Boolean(b) => *b,
            Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_) => {
                crate::value::as_i64_signed(v) != 0
            }
            _ => return false,
        };
        // An embedded field (`supplier.name`) is covered too, since MongoDB 3.6: the
        // document is rebuilt from the key (the index is not multikey, checked above).
        if k.starts_with('$') {
            return false;
        }
        if k == "_id" && !truthy {
            id_excluded = true;
            continue;
        }
        if !truthy || !in_index(k) {
            return false;
        }
    }
    if !id_excluded && !in_index("_id") {
        return false;
    }
    // A sort the index does not provide needs whole documents.
    q.spec.sort.is_none()
        || q.spec.sort.as_ref().is_some_and(|s| {
            s.keys().iter().all(|k| match k {
                SortKey::Field { path, .. } => in_index(&path.dotted()),
                _ => false,
            })
        })
}

fn finish(q: &CanonicalQuery<'_>, access: Solution, sort_provided: bool) -> Result<Solution> {
    finish_with(q, access, sort_provided, false)
}

/// Adds SORT, SKIP, LIMIT and PROJECTION above an access path.
fn finish_with(
    q: &CanonicalQuery<'_>,
    access: Solution,
    sort_provided: bool,
    covered: bool,
) -> Result<Solution> {
    let spec = q.spec;
    let mut node = access;
    let natural = spec.sort.as_ref().and_then(|s| s.natural()).is_some();
    let needs_sort = spec.sort.is_some() && !sort_provided && !natural;
    if needs_sort {
        node = Solution::Sort {
            pattern: q.sort_pattern().cloned().unwrap_or_default(),
            limit: spec.limit.map(|l| l.saturating_add(spec.skip)),
            child: Box::new(node),
        };
    }
    if spec.skip > 0 {
        node = Solution::Skip {
            n: spec.skip,
            child: Box::new(node),
        };
    }
    if let Some(l) = spec.limit
        && !needs_sort
    {
        node = Solution::Limit {
            n: l,
            child: Box::new(node),
        };
    }
    if let (Some(p), Some(_), false) = (q.projection, spec.projection.as_ref(), spec.return_key) {
        let kind = if covered {
            ProjectionKind::Covered
        } else if is_simple_projection(p) {
            ProjectionKind::Simple
        } else {
            ProjectionKind::Default
        };
        node = Solution::Projection {
            kind,
            transform_by: p.clone(),
            child: Box::new(node),
        };
    }
    Ok(node)
}

fn is_simple_projection(p: &Document) -> bool {
    p.iter().all(|(k, v)| {
        !k.contains('.')
            && !k.starts_with('$')
            && matches!(
                v,
                Bson::Boolean(_) | Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_)
            )
    })
}
