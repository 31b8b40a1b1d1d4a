//! Views in the catalog: a collection entry whose options hold `viewOn` and `pipeline`,
//! resolved through the views it is defined on to its source collection. Here, below both the
//! commands and the pipeline stages that read views, so that neither reaches into the other.

use bson::Bson;

use super::{Catalog, Namespace};
use crate::error::{Error, ErrorCode, Result};

/// Views on views are followed this deep (MongoDB's limit on view depth).
pub const MAX_VIEW_DEPTH: usize = 20;

/// A view resolved to its source collection and the stages that produce it.
pub struct ResolvedView {
    pub source: Namespace,
    pub pipeline: Vec<Bson>,
}

/// The view `ns` names in `catalog`, resolved to its source collection and the stages that
/// produce it (the pipelines of the views it is defined on first), or `None` when it is not a
/// view: a command reading a view, and a pipeline's `$lookup`/`$unionWith`/`$graphLookup`.
pub fn resolve_in(catalog: &Catalog, ns: &Namespace) -> Result<Option<ResolvedView>> {
    let mut current = ns.clone();
    let mut stages: Vec<Vec<Bson>> = Vec::new();
    for _ in 0..MAX_VIEW_DEPTH {
        let Some(options) = catalog.collection(&current).map(|c| &c.options) else {
            break;
        };
        let Ok(view_on) = options.get_str("viewOn") else {
            break;
        };
        stages.push(options.get_array("pipeline").cloned().unwrap_or_default());
        current = Namespace::new(&current.db, view_on);
    }
    if stages.is_empty() {
        return Ok(None);
    }
    if catalog
        .collection(&current)
        .is_some_and(|c| c.options.contains_key("viewOn"))
    {
        return Err(Error::new(
            ErrorCode::ViewDepthLimitExceeded,
            format!(
                "View depth too deep or view cycle detected; maximum depth is {MAX_VIEW_DEPTH}"
            ),
        ));
    }
    // The innermost view's stages run first.
    let pipeline = stages.into_iter().rev().flatten().collect();
    Ok(Some(ResolvedView {
        source: current,
        pipeline,
    }))
}
