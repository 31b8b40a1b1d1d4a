//! IDHACK: answers `{_id: <value>}` with one lookup in the `_id` index.

use bson::{Bson, doc};

use super::{CommonStats, Member, Stage, StageStats, State};
use crate::catalog::Collection;
use crate::error::Result;

/// IDHACK's specific statistics.
#[derive(Debug, Clone, Default)]
pub struct IdHackStats {
    pub keys_examined: u64,
    pub docs_examined: u64,
}

pub struct IdHack<'a> {
    coll: &'a Collection,
    id: Bson,
    done: bool,
    common: CommonStats,
    specific: IdHackStats,
}

impl<'a> IdHack<'a> {
    pub fn new(coll: &'a Collection, id: Bson) -> Self {
        IdHack {
            coll,
            id,
            done: false,
            common: CommonStats::default(),
            specific: IdHackStats::default(),
        }
    }

    fn step(&mut self) -> State {
        if self.done {
            return State::IsEof;
        }
        self.done = true;
        let Some(rid) = self.coll.find_by_id(&self.id) else {
            return State::IsEof;
        };
        self.specific.keys_examined += 1;
        let Some(doc) = self.coll.get(rid) else {
            return State::IsEof;
        };
        self.specific.docs_examined += 1;
        State::Advanced(Member {
            record_id: Some(rid),
            doc: Some(doc.clone()),
            key: None,
            text_score: None,
            geo_near: None,
        })
    }
}

impl Stage for IdHack<'_> {
    fn work(&mut self) -> Result<State> {
        let s = self.step();
        self.common.count(&s);
        Ok(s)
    }

    fn stats(&self) -> StageStats {
        let mut s = StageStats::new("IDHACK", &self.common);
        s.exec = doc! {
            "keysExamined": self.specific.keys_examined as i64,
            "docsExamined": self.specific.docs_examined as i64,
        };
        s.keys_examined = self.specific.keys_examined;
        s.docs_examined = self.specific.docs_examined;
        s
    }
}
