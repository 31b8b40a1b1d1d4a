//! FETCH: turns the record ids its input (an index scan) returns into documents, and applies
//! the part of the filter the index did not answer.

use bson::doc;

use super::{CommonStats, Stage, StageStats, State};
use crate::catalog::Collection;
use crate::error::Result;
use crate::matcher::MatchContext;
use crate::planner::predicates::Residual;

/// FETCH's specific statistics.
#[derive(Debug, Clone, Default)]
pub struct FetchStats {
    pub docs_examined: u64,
    pub already_has_obj: u64,
}

pub struct Fetch<'a> {
    coll: &'a Collection,
    filter: Option<Residual>,
    child: Box<dyn Stage + 'a>,
    ctx: &'a MatchContext<'a>,
    common: CommonStats,
    specific: FetchStats,
}

impl<'a> Fetch<'a> {
    pub fn new(
        coll: &'a Collection,
        filter: Option<Residual>,
        child: Box<dyn Stage + 'a>,
        ctx: &'a MatchContext<'a>,
    ) -> Self {
        Fetch {
            coll,
            filter,
            child,
            ctx,
            common: CommonStats::default(),
            specific: FetchStats::default(),
        }
    }

    fn step(&mut self) -> Result<State> {
        let mut member = match self.child.work()? {
            State::Advanced(m) => m,
            other => return Ok(other),
        };
        if member.doc.is_some() {
            self.specific.already_has_obj += 1;
        } else {
            let Some(doc) = member.record_id.and_then(|r| self.coll.get(r)) else {
                return Ok(State::NeedTime);
            };
            self.specific.docs_examined += 1;
            member.doc = Some(doc.clone());
        }
        if let (Some(f), Some(doc)) = (&self.filter, &member.doc)
            && !f.filter.matches_with(doc, self.ctx)?
        {
            return Ok(State::NeedTime);
        }
        // The key stays with the document: `returnKey` answers with it.
        Ok(State::Advanced(member))
    }
}

impl Stage for Fetch<'_> {
    fn work(&mut self) -> Result<State> {
        let s = self.step()?;
        self.common.count(&s);
        Ok(s)
    }

    fn stats(&self) -> StageStats {
        let mut s = StageStats::new("FETCH", &self.common);
        s.filter = self.filter.as_ref().map(|f| f.doc.clone());
        s.exec = doc! {
            "docsExamined": self.specific.docs_examined as i64,
            "alreadyHasObj": self.specific.already_has_obj as i64,
        };
        s.docs_examined = self.specific.docs_examined;
        s.children.push(self.child.stats());
        s
    }
}
