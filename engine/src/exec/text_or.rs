//! TEXT_OR: the union of a text query's term scans that adds up each document's scores (the
//! text score is the sum, over the query's terms, of the document's score for the term). It
//! reads every scan first, then fetches each document once, applies the rest of the filter and
//! returns it with its score.

use std::collections::HashMap;

use bson::doc;

use super::{CommonStats, Member, Stage, StageStats, State};
use crate::catalog::Collection;
use crate::error::Result;
use crate::matcher::MatchContext;
use crate::planner::predicates::Residual;

pub struct TextOr<'a> {
    coll: &'a Collection,
    children: Vec<Box<dyn Stage + 'a>>,
    filter: Option<Residual>,
    ctx: &'a MatchContext<'a>,
    reading: usize,
    /// Record ids in first-seen order, with their summed scores.
    scores: Vec<(u64, f64)>,
    position: HashMap<u64, usize>,
    returning: usize,
    common: CommonStats,
    docs_examined: u64,
}

impl<'a> TextOr<'a> {
    pub fn new(
        coll: &'a Collection,
        children: Vec<Box<dyn Stage + 'a>>,
        filter: Option<Residual>,
        ctx: &'a MatchContext<'a>,
    ) -> Self {
        TextOr {
            coll,
            children,
            filter,
            ctx,
            reading: 0,
            scores: Vec::new(),
            position: HashMap::new(),
            returning: 0,
            common: CommonStats::default(),
            docs_examined: 0,
        }
    }

    fn step(&mut self) -> Result<State> {
        if let Some(child) = self.children.get_mut(self.reading) {
            match child.work()? {
                State::Advanced(m) => {
                    if let Some(rid) = m.record_id {
                        let score = m.text_score.unwrap_or(0.0);
                        match self.position.get(&rid) {
                            Some(&i) => self.scores[i].1 += score,
                            None => {
                                self.position.insert(rid, self.scores.len());
                                self.scores.push((rid, score));
                            }
                        }
                    }
                }
                State::NeedTime => {}
                State::IsEof => self.reading += 1,
            }
            return Ok(State::NeedTime);
        }
        let Some(&(rid, score)) = self.scores.get(self.returning) else {
            return Ok(State::IsEof);
        };
        self.returning += 1;
        let Some(doc) = self.coll.get(rid) else {
            return Ok(State::NeedTime);
        };
        self.docs_examined += 1;
        if let Some(f) = &self.filter
            && !f.filter.matches_with(doc, self.ctx)?
        {
            return Ok(State::NeedTime);
        }
        Ok(State::Advanced(Member {
            record_id: Some(rid),
            doc: Some(doc.clone()),
            key: None,
            text_score: Some(score),
            geo_near: None,
        }))
    }
}

impl Stage for TextOr<'_> {
    fn work(&mut self) -> Result<State> {
        let s = self.step()?;
        self.common.count(&s);
        Ok(s)
    }

    fn stats(&self) -> StageStats {
        let mut s = StageStats::new("TEXT_OR", &self.common);
        s.filter = self.filter.as_ref().map(|f| f.doc.clone());
        s.exec = doc! {"docsExamined": self.docs_examined as i64};
        s.docs_examined = self.docs_examined;
        s.children = self.children.iter().map(|c| c.stats()).collect();
        s
    }
}
