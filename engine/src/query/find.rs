//! Executes a find over a collection (a collection scan; the planner issue adds index access).

use bson::{Bson, Document};

use crate::catalog::Collection;
use crate::error::{Error, ErrorCode, Result};
use crate::matcher::Filter;

use super::sort::SortSpec;

/// A parsed find: everything needed to produce its result set.
#[derive(Debug, Clone)]
pub struct FindSpec {
    pub filter: Filter,
    pub sort: Option<SortSpec>,
    pub skip: usize,
    /// `None` or 0 means no limit.
    pub limit: Option<usize>,
    pub projection: Option<Document>,
}

impl FindSpec {
    pub fn parse(
        filter: Option<&Document>,
        sort: Option<&Document>,
        projection: Option<&Document>,
        skip: Option<i64>,
        limit: Option<i64>,
    ) -> Result<Self> {
        let filter = match filter {
            Some(f) => Filter::parse(f)?,
            None => Filter::all(),
        };
        let sort = match sort {
            Some(s) if !s.is_empty() => Some(SortSpec::parse(s)?),
            _ => None,
        };
        let projection = projection.filter(|p| !p.is_empty()).cloned();
        if projection.is_some() {
            return Err(Error::new(
                ErrorCode::Location(238),
                "projection is not supported by this build of Sprout yet",
            ));
        }
        Ok(FindSpec {
            filter,
            sort,
            skip: skip.unwrap_or(0).max(0) as usize,
            limit: limit.filter(|l| *l != 0).map(|l| l.unsigned_abs() as usize),
            projection,
        })
    }
}

/// Runs the find and returns its documents in result order.
pub fn run_find(coll: Option<&Collection>, spec: &FindSpec) -> Result<Vec<Document>> {
    let Some(coll) = coll else {
        return Ok(Vec::new());
    };
    let mut matched: Vec<&Document> = coll
        .iter()
        .map(|(_, d)| d)
        .filter(|d| spec.filter.matches(d))
        .collect();
    if let Some(sort) = &spec.sort {
        sort.sort(&mut matched);
    }
    let take = spec.limit.unwrap_or(usize::MAX);
    Ok(matched
        .into_iter()
        .skip(spec.skip)
        .take(take)
        .cloned()
        .collect())
}

/// `Bson::Int64` or `Int32` as i64, for cursor ids and counts.
pub fn as_i64(v: &Bson) -> Option<i64> {
    match v {
        Bson::Int32(i) => Some(i64::from(*i)),
        Bson::Int64(i) => Some(*i),
        Bson::Double(d) if d.fract() == 0.0 => Some(*d as i64),
        _ => None,
    }
}

/// A numeric option's value with its sign (a negative find `limit` means a single batch).
pub fn as_i64_signed(v: &Bson) -> i64 {
    as_i64(v).unwrap_or_else(|| {
        if let Bson::Double(d) = v {
            *d as i64
        } else {
            0
        }
    })
}
