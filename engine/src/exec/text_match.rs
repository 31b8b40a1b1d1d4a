//! TEXT_MATCH: the top of a text plan. It checks each fetched document against what the index
//! scans could not (negated terms, phrases, case- and diacritic-sensitive terms) and reports
//! the parsed query in explain.

use bson::doc;

use super::{CommonStats, Member, Stage, StageStats, State};
use crate::error::Result;
use crate::index::text::{TextSpec, matcher};
use crate::planner::text::TextPlan;

pub struct TextMatch<'a> {
    plan: TextPlan,
    spec: &'a TextSpec,
    child: Box<dyn Stage + 'a>,
    common: CommonStats,
    docs_rejected: u64,
}

impl<'a> TextMatch<'a> {
    pub fn new(plan: TextPlan, spec: &'a TextSpec, child: Box<dyn Stage + 'a>) -> Self {
        TextMatch {
            plan,
            spec,
            child,
            common: CommonStats::default(),
            docs_rejected: 0,
        }
    }

    fn step(&mut self) -> Result<State> {
        let member: Member = match self.child.work()? {
            State::Advanced(m) => m,
            other => return Ok(other),
        };
        let Some(doc) = &member.doc else {
            return Ok(State::NeedTime);
        };
        if matcher::matches(self.spec, &self.plan.query, doc)? {
            Ok(State::Advanced(member))
        } else {
            self.docs_rejected += 1;
            Ok(State::NeedTime)
        }
    }
}

impl Stage for TextMatch<'_> {
    fn work(&mut self) -> Result<State> {
        let s = self.step()?;
        self.common.count(&s);
        Ok(s)
    }

    fn stats(&self) -> StageStats {
        let mut s = StageStats::new("TEXT_MATCH", &self.common);
        s.plan = doc! {
            "indexPrefix": self.plan.prefix_doc.clone(),
            "indexName": self.plan.index_name.clone(),
            "parsedTextQuery": self.plan.query.to_document(),
            "textIndexVersion": self.spec.version,
        };
        s.exec = doc! {"docsRejected": self.docs_rejected as i64};
        s.children.push(self.child.stats());
        s
    }
}
