//! Explain output, generated from the stage statistics tree as MongoDB's PlanExplainer does:
//! `queryPlanner` (the winning and rejected plans), `executionStats` (the winner's counters,
//! with totals summed over the tree) and, for `allPlansExecution`, every candidate's trial.

use bson::{Bson, Document, doc};

use crate::error::{Error, ErrorCode, Result};
use crate::exec::Execution;
pub use crate::exec::stats_document::{narrow_counters, plan_execution_info, stage_document};

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
    /// How many documents the plan returned (`execution.docs` may have been handed on).
    pub returned: usize,
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
            "nReturned": input.returned as i64,
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
