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

/// What the scan walks: the documents, or, when the filter can be answered from a document's
/// BSON bytes (contiguous, in record order: `matcher::Filter::matches_raw`), the bytes, with a
/// document looked up by record id only when the bytes cannot answer or it is handed out.
enum Records<'a> {
    Documents(Box<dyn DoubleEndedIterator<Item = (u64, &'a Document)> + 'a>),
    Bytes(Box<dyn DoubleEndedIterator<Item = (u64, &'a [u8])> + 'a>),
}

pub struct CollectionScan<'a> {
    forward: bool,
    filter: Option<Residual>,
    ctx: &'a MatchContext<'a>,
    /// The scan's place in the collection: an iterator held across `work` calls (the stages
    /// borrow the collection, so it cannot change under the scan), never a re-seek per record.
    records: Records<'a>,
    coll: &'a Collection,
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
        let records = if filter.as_ref().is_some_and(|f| f.filter.raw_capable()) {
            Records::Bytes(Box::new(coll.iter_bytes()))
        } else {
            Records::Documents(Box::new(coll.iter()))
        };
        CollectionScan {
            forward,
            filter,
            ctx,
            records,
            coll,
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
        let next = match &mut self.records {
            Records::Documents(it) => {
                let next = if self.forward {
                    it.next()
                } else {
                    it.next_back()
                };
                next.map(|(rid, doc)| (rid, Some(doc), None))
            }
            Records::Bytes(it) => {
                let next = if self.forward {
                    it.next()
                } else {
                    it.next_back()
                };
                next.map(|(rid, bytes)| (rid, None, Some(bytes)))
            }
        };
        let Some((rid, doc, bytes)) = next else {
            self.done = true;
            return Ok(State::IsEof);
        };
        self.specific.docs_examined += 1;
        let mut doc: Option<&Document> = doc;
        if let Some(f) = &self.filter {
            let decided = bytes.and_then(|b| f.filter.matches_raw(b));
            let matched = match decided {
                Some(m) => m,
                None => {
                    let Some(d) = doc.or_else(|| self.coll.get(rid)) else {
                        return Ok(State::NeedTime);
                    };
                    doc = Some(d);
                    f.filter.matches_with(d, self.ctx)?
                }
            };
            if !matched {
                return Ok(State::NeedTime);
            }
        }
        let doc = if self.documents {
            match doc.or_else(|| self.coll.get(rid)) {
                Some(d) => Some(d.clone()),
                None => return Ok(State::NeedTime),
            }
        } else {
            None
        };
        Ok(State::Advanced(Member {
            record_id: Some(rid),
            doc,
            key: None,
            text_score: None,
            geo_near: None,
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
