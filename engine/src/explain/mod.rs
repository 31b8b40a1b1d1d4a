//! Explain output, generated from the stage statistics tree as MongoDB's PlanExplainer does:
//! `queryPlanner` (the winning and rejected plans), `executionStats` (the winner's counters,
//! with totals summed over the tree) and, for `allPlansExecution`, every candidate's trial.

use bson::{Bson, Document, doc};

use crate::error::{Error, ErrorCode, Result};
use crate::exec::{Execution, StageStats};

/// Explain's verbosity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verbosity {
    QueryPlanner,
    ExecutionStats,
    AllPlansExecution,
}

impl Verbosity {
    pub fn parse(v: Option<&Bson>) -> Result<Verbosity> {
        match v {
            None => Ok(Verbosity::AllPlansExecution),
            Some(Bson::String(s)) => match s.as_str() {
                "queryPlanner" => Ok(Verbosity::QueryPlanner),
                "executionStats" => Ok(Verbosity::ExecutionStats),
                "allPlansExecution" => Ok(Verbosity::AllPlansExecution),
                other => Err(Error::bad_value(format!(
                    "Enumeration value '{other}' for field 'explain.verbosity' is not a valid value."
                ))),
            },
            Some(other) => Err(Error::type_mismatch(format!(
                "BSON field 'explain.verbosity' is the wrong type '{}', expected type 'string'",
                crate::value::display::type_name(other)
            ))),
        }
    }
}

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

/// Adds the plan cache's hashes to an explain reply's `queryPlanner`, after `indexFilterSet`
/// where MongoDB 8.0 prints them.
pub fn insert_cache_key(reply: &mut Document, key: &crate::planner::plan_cache::CacheKey) {
    let Ok(qp) = reply.get_document_mut("queryPlanner") else {
        return;
    };
    let mut out = Document::new();
    for (k, v) in std::mem::take(qp) {
        let after = k == "indexFilterSet";
        out.insert(k, v);
        if after {
            out.insert("queryHash", key.query_hash_hex());
            out.insert("planCacheShapeHash", key.query_hash_hex());
            out.insert("planCacheKey", key.plan_cache_key_hex());
        }
    }
    *qp = out;
}

/// The facts about the query that explain repeats.
pub struct ExplainInput<'a> {
    pub namespace: String,
    pub parsed_query: Document,
    pub command: Document,
    pub verbosity: Verbosity,
    pub execution_time_millis: i64,
    pub execution: &'a Execution,
}

/// The whole explain reply for a find.
pub fn explain_document(input: &ExplainInput<'_>) -> Document {
    let ex = input.execution;
    let mut winning = doc! {"isCached": false};
    winning.extend(stage_document(&ex.winner_stats, false));
    let rejected: Vec<Bson> = ex
        .rejected
        .iter()
        .map(|(_, s)| Bson::Document(stage_document(s, false)))
        .collect();
    let query_planner = doc! {
        "namespace": input.namespace.clone(),
        "parsedQuery": input.parsed_query.clone(),
        "indexFilterSet": false,
        "optimizationTimeMillis": 0_i32,
        "maxIndexedOrSolutionsReached": false,
        "maxIndexedAndSolutionsReached": false,
        "maxScansToExplodeReached": false,
        "prunedSimilarIndexes": false,
        "winningPlan": winning,
        "rejectedPlans": rejected,
    };
    let mut reply = doc! {"explainVersion": "1", "queryPlanner": query_planner};
    if input.verbosity != Verbosity::QueryPlanner {
        let w = &ex.winner_stats;
        let mut stats = doc! {
            "executionSuccess": true,
            "nReturned": ex.docs.len() as i64,
            "executionTimeMillis": input.execution_time_millis,
            "totalKeysExamined": w.total_keys_examined() as i64,
            "totalDocsExamined": w.total_docs_examined() as i64,
            "executionStages": stage_document(w, true),
        };
        if input.verbosity == Verbosity::AllPlansExecution {
            let all: Vec<Bson> = if ex.trials.len() > 1 {
                ex.trials
                    .iter()
                    .map(|t| Bson::Document(plan_execution_info(t)))
                    .collect()
            } else {
                Vec::new()
            };
            stats.insert("allPlansExecution", all);
        }
        reply.insert("executionStats", stats);
    }
    reply.insert("command", input.command.clone());
    reply.insert(
        "serverInfo",
        doc! {"host": "sprout", "port": 27017, "version": crate::MONGODB_COMPAT_VERSION, "gitVersion": ""},
    );
    reply.insert("serverParameters", server_parameters());
    reply.insert("ok", 1.0);
    reply
}

/// The query knobs explain reports (MongoDB 8.0's defaults; Sprout enforces the sort limit).
fn server_parameters() -> Document {
    let mb100 = 104_857_600_i32;
    doc! {
        "internalQueryFacetBufferSizeBytes": mb100,
        "internalQueryFacetMaxOutputDocSizeBytes": mb100,
        "internalLookupStageIntermediateDocumentMaxSizeBytes": mb100,
        "internalDocumentSourceGroupMaxMemoryBytes": mb100,
        "internalQueryMaxBlockingSortMemoryUsageBytes": mb100,
        "internalQueryProhibitBlockingMergeOnMongoS": 0,
        "internalQueryMaxAddToSetBytes": mb100,
        "internalDocumentSourceSetWindowFieldsMaxMemoryBytes": mb100,
        "internalQueryFrameworkControl": "trySbeRestricted",
        "internalQueryPlannerIgnoreIndexWithCollationForRegex": 1,
    }
}

/// The error for an explained command Sprout cannot explain yet.
pub fn unsupported(name: &str) -> Error {
    Error::new(
        ErrorCode::NotImplemented,
        format!("explain of '{name}' is not supported by Sprout yet"),
    )
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
