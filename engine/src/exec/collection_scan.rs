//! COLLSCAN: reads every document in natural (record id) order, forward or backward, and
//! returns those that pass its filter.

use bson::{Document, doc};

use super::{CommonStats, Member, Stage, StageStats, State};
use crate::catalog::Collection;
use crate::error::Result;
use crate::matcher::MatchContext;
use crate::planner::predicates::Residual;

/// COLLSCAN's specific statistics.
#[derive(Debug, Clone, Default)]
pub struct CollectionScanStats {
    pub docs_examined: u64,
}

pub struct CollectionScan<'a> {
    forward: bool,
    filter: Option<Residual>,
    ctx: &'a MatchContext<'a>,
    /// The scan's place in the collection: an iterator held across `work` calls (the stages
    /// borrow the collection, so it cannot change under the scan), never a re-seek per record.
    records: Box<dyn DoubleEndedIterator<Item = (u64, &'a Document)> + 'a>,
    done: bool,
    /// Whether the documents are handed out (a copy each), or only their record ids: COUNT
    /// reads none of them, a top-k SORT reads them in place by record id.
    documents: bool,
    common: CommonStats,
    specific: CollectionScanStats,
}

impl<'a> CollectionScan<'a> {
    pub fn new(
        coll: &'a Collection,
        forward: bool,
        filter: Option<Residual>,
        ctx: &'a MatchContext<'a>,
    ) -> Self {
        CollectionScan {
            forward,
            filter,
            ctx,
            records: Box::new(coll.iter()),
            done: false,
            documents: true,
            common: CommonStats::default(),
            specific: CollectionScanStats::default(),
        }
    }

    /// The same scan handing out record ids only (for COUNT, which copies no document, and a
    /// top-k SORT, which copies only the documents it keeps).
    pub fn without_documents(mut self) -> Self {
        self.documents = false;
        self
    }

    fn step(&mut self) -> Result<State> {
        if self.done {
            return Ok(State::IsEof);
        }
        let next = if self.forward {
            self.records.next()
        } else {
            self.records.next_back()
        };
        let Some((rid, doc)) = next else {
            self.done = true;
            return Ok(State::IsEof);
        };
        self.specific.docs_examined += 1;
        if let Some(f) = &self.filter
            && !f.filter.matches_with(doc, self.ctx)?
        {
            return Ok(State::NeedTime);
        }
        Ok(State::Advanced(Member {
            record_id: Some(rid),
            doc: self.documents.then(|| doc.clone()),
            key: None,
            text_score: None,
        }))
    }
}

impl Stage for CollectionScan<'_> {
    fn work(&mut self) -> Result<State> {
        let s = self.step()?;
        self.common.count(&s);
        Ok(s)
    }

    fn stats(&self) -> StageStats {
        let mut s = StageStats::new("COLLSCAN", &self.common);
        s.filter = self.filter.as_ref().map(|f| f.doc.clone());
        s.plan = doc! {"direction": if self.forward { "forward" } else { "backward" }};
        s.exec = doc! {"docsExamined": self.specific.docs_examined as i64};
        s.docs_examined = self.specific.docs_examined;
        s
    }
}
