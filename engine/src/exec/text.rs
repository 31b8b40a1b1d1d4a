//! The stage tree of a text plan: with scores wanted, TEXT_MATCH over TEXT_OR over one IXSCAN
//! per term; otherwise TEXT_MATCH over FETCH over the IXSCAN (or an OR of them), as MongoDB 8.0
//! builds them.

use super::fetch::Fetch;
use super::text_match::TextMatch;
use super::text_or::TextOr;
use super::text_scan::TextScan;
use super::text_union::TextUnion;
use super::{ExecContext, Stage};
use crate::catalog::Collection;
use crate::error::{Error, ErrorCode, Result};
use crate::planner::text::TextPlan;

pub fn build<'a>(
    plan: &TextPlan,
    coll: &'a Collection,
    cx: ExecContext<'a>,
) -> Result<Box<dyn Stage + 'a>> {
    let gone = || Error::new(ErrorCode::InternalError, "planned text index is gone");
    let index = coll.index(&plan.index_name).ok_or_else(gone)?;
    let spec = index.spec.text.as_deref().ok_or_else(gone)?;
    let mut scans: Vec<Box<dyn Stage + 'a>> = plan
        .query
        .terms_for_bounds
        .iter()
        .map(|term| Box::new(TextScan::new(index, &plan.prefix, term)) as Box<dyn Stage + 'a>)
        .collect();
    let input: Box<dyn Stage + 'a> = if plan.wants_score {
        Box::new(TextOr::new(coll, scans, plan.filter.clone(), cx.match_ctx))
    } else {
        let access = if scans.len() == 1 {
            scans.remove(0)
        } else {
            Box::new(TextUnion::new(scans))
        };
        Box::new(Fetch::new(coll, plan.filter.clone(), access, cx.match_ctx))
    };
    Ok(Box::new(TextMatch::new(plan.clone(), spec, input)))
}
