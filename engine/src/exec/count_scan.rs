//! COUNT_SCAN: counts the keys of one contiguous index range without fetching (a `count` the
//! index answers alone). It walks the range as IXSCAN does (multikey duplicates dropped) and
//! reports its bounds as start and end keys.

use bson::doc;

use super::index_scan::IndexScan;
use super::{Member, Stage, StageStats, State};
use crate::error::Result;
use crate::index::{Index, KeyKind};
use crate::planner::IxScanPlan;
use crate::planner::count::range_document;

pub struct CountScan<'a> {
    index: &'a Index,
    plan: IxScanPlan,
    scan: IndexScan<'a>,
}

impl<'a> CountScan<'a> {
    pub fn new(index: &'a Index, plan: IxScanPlan) -> Self {
        CountScan {
            index,
            scan: IndexScan::new(index, plan.clone()).without_keys(),
            plan,
        }
    }
}

impl Stage for CountScan<'_> {
    fn work(&mut self) -> Result<State> {
        // Only the count matters: the key is not passed on.
        Ok(match self.scan.work()? {
            State::Advanced(m) => State::Advanced(Member {
                record_id: m.record_id,
                ..Member::default()
            }),
            other => other,
        })
    }

    fn stats(&self) -> StageStats {
        let inner = self.scan.stats();
        let spec = &self.index.spec;
        let kinds: Vec<KeyKind> = spec.parts.iter().map(|p| p.kind).collect();
        let mut s = StageStats::new("COUNT_SCAN", &inner.common);
        s.exec_first = true;
        s.exec = doc! {"keysExamined": inner.keys_examined as i64};
        s.keys_examined = inner.keys_examined;
        s.plan = doc! {
            "keyPattern": spec.key.clone(),
            "indexName": spec.name.clone(),
        };
        for field in [
            "isMultiKey",
            "multiKeyPaths",
            "isUnique",
            "isSparse",
            "isPartial",
            "indexVersion",
        ] {
            if let Some(v) = inner.plan.get(field) {
                s.plan.insert(field, v.clone());
            }
        }
        s.plan
            .insert("indexBounds", range_document(&spec.key, &kinds, &self.plan));
        s
    }
}
