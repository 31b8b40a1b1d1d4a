//! PROJECTION_SIMPLE, PROJECTION_DEFAULT and PROJECTION_COVERED: apply the find's projection,
//! to the fetched document or (covered) to a document built from the index key.

use bson::{Document, doc};

use super::{CommonStats, Member, Stage, StageStats, State};
use crate::error::Result;
use crate::matcher::MatchContext;
use crate::planner::ProjectionKind;
use crate::query::FindSpec;

pub struct Projection<'a> {
    kind: ProjectionKind,
    transform_by: Document,
    spec: &'a FindSpec,
    ctx: &'a MatchContext<'a>,
    child: Box<dyn Stage + 'a>,
    common: CommonStats,
}

impl<'a> Projection<'a> {
    pub fn new(
        kind: ProjectionKind,
        transform_by: Document,
        spec: &'a FindSpec,
        ctx: &'a MatchContext<'a>,
        child: Box<dyn Stage + 'a>,
    ) -> Self {
        Projection {
            kind,
            transform_by,
            spec,
            ctx,
            child,
            common: CommonStats::default(),
        }
    }

    fn step(&mut self) -> Result<State> {
        match self.child.work()? {
            State::Advanced(m) => {
                let projected = self.spec.project_scored(
                    &m.view(),
                    self.ctx,
                    m.text_score,
                    m.geo_near.as_deref(),
                )?;
                Ok(State::Advanced(Member {
                    record_id: m.record_id,
                    doc: Some(projected),
                    key: None,
                    text_score: m.text_score,
                    geo_near: m.geo_near,
                }))
            }
            other => Ok(other),
        }
    }
}

impl Stage for Projection<'_> {
    fn work(&mut self) -> Result<State> {
        let s = self.step()?;
        self.common.count(&s);
        Ok(s)
    }

    fn stats(&self) -> StageStats {
        let mut s = StageStats::new(self.kind.stage_name(), &self.common);
        s.plan = doc! {"transformBy": self.transform_by.clone()};
        s.children.push(self.child.stats());
        s
    }
}
