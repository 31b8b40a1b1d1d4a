//! A plan stage's statistics as documents: the stage tree as explain prints it, one
//! candidate's trial as `allPlansExecution` and `$planCacheStats` show it, and the counters
//! narrowed as the server appends them. The executor renders its cached plans with these
//! (`cached_plan.rs`), and `explain` builds its replies from them, so `exec` needs nothing from
//! `explain`.

use bson::{Bson, Document, doc};

use super::StageStats;

/// One stage (and its inputs) as explain prints it; `with_exec` adds the execution counters.
pub fn stage_document(s: &StageStats, with_exec: bool) -> Document {
    let mut d = doc! {"stage": s.stage};
    if let Some(f) = &s.filter {
        d.insert("filter", f.clone());
    }
    if with_exec {
        d.insert("nReturned", s.common.advanced as i64);
        d.insert("executionTimeMillisEstimate", 0_i64);
        d.insert("works", s.common.works as i64);
        d.insert("advanced", s.common.advanced as i64);
        d.insert("needTime", s.common.need_time as i64);
        d.insert("needYield", s.common.need_yield as i64);
        d.insert("saveState", 0_i64);
        d.insert("restoreState", 0_i64);
        d.insert("isEOF", i32::from(s.common.is_eof));
    }
    if with_exec && s.exec_first {
        d.extend(s.exec.clone());
    }
    d.extend(s.plan.clone());
    if with_exec && !s.exec_first {
        d.extend(s.exec.clone());
    }
    match s.children.as_slice() {
        [] => {}
        [one] => {
            d.insert("inputStage", stage_document(one, with_exec));
        }
        many => {
            d.insert(
                "inputStages",
                many.iter()
                    .map(|c| Bson::Document(stage_document(c, with_exec)))
                    .collect::<Vec<_>>(),
            );
        }
    }
    d
}

/// One candidate's trial as `allPlansExecution` and `$planCacheStats`' `creationExecStats` show
/// it (MongoDB's `generateSinglePlanExecutionInfo`).
pub fn plan_execution_info(t: &StageStats) -> Document {
    doc! {
        "nReturned": t.common.advanced as i64,
        "executionTimeMillisEstimate": 0_i64,
        "totalKeysExamined": t.total_keys_examined() as i64,
        "totalDocsExamined": t.total_docs_examined() as i64,
        "executionStages": stage_document(t, true),
    }
}

/// Explain's counters as MongoDB sends them: the server appends each with `appendNumber`, which
/// writes an int32 when the value fits and an int64 otherwise, so the shell prints `1`, not
/// `Long('1')`. Only counter fields change; echoed filters and specs keep their types.
pub fn narrow_counters(doc: Document) -> Document {
    const COUNTERS: &[&str] = &[
        "nReturned",
        "works",
        "advanced",
        "needTime",
        "needYield",
        "saveState",
        "restoreState",
        "keysExamined",
        "docsExamined",
        "totalKeysExamined",
        "totalDocsExamined",
        "executionTimeMillis",
        "executionTimeMillisEstimate",
        "dupsTested",
        "dupsDropped",
        "seeks",
        "nMatched",
        "nWouldModify",
        "nWouldUpsert",
        "nWouldDelete",
        "nCounted",
        "nSkipped",
        "memUsage",
        "totalDataSizeSorted",
        "spills",
        "chunkSkips",
        "alreadyHasObj",
        "nDocs",
        "docsRejected",
    ];
    fn walk(v: Bson, key: Option<&str>) -> Bson {
        match v {
            Bson::Int64(n) if key.is_some_and(|k| COUNTERS.contains(&k)) => {
                i32::try_from(n).map(Bson::Int32).unwrap_or(Bson::Int64(n))
            }
            Bson::Document(d) => Bson::Document(
                d.into_iter()
                    .map(|(k, v)| {
                        let v = walk(v, Some(&k));
                        (k, v)
                    })
                    .collect(),
            ),
            Bson::Array(items) => Bson::Array(items.into_iter().map(|v| walk(v, None)).collect()),
            other => other,
        }
    }
    match walk(Bson::Document(doc), None) {
        Bson::Document(d) => d,
        // `walk` maps a document to a document.
        _ => Document::new(),
    }
}
