//! An explain reply read once into a typed plan tree: the winning plan's stages with their
//! index and counters, the rejected plans (with their trial counters when the reply has them),
//! and a one-line summary of what the query cost ("examined 3 index keys and 3 documents to
//! return 3: index price_1"). The shell worker reads the engine's explain document into an
//! [`ExplainPlan`] and sends that value to the page, whose explain view draws it and whose
//! lesson checks take their [`crate::PlanSummary`] from it: no one reads the explain as text.

use bson::{Bson, Document};
use serde::{Deserialize, Serialize};

use crate::output::key_text;

/// One stage of a plan and its inputs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlanStage {
    pub stage: String,
    pub index_name: Option<String>,
    /// The index's key pattern, shown compactly (`{ price: 1 }`).
    pub key_pattern: Option<String>,
    pub keys_examined: Option<i64>,
    pub docs_examined: Option<i64>,
    pub n_returned: Option<i64>,
    /// `works`: the units of work the stage did (executionStats only).
    pub works: Option<i64>,
    /// `executionTimeMillisEstimate` of the stage.
    pub time_ms: Option<i64>,
    /// An index scan's bounds, one `field: [bounds]` line per key field.
    pub bounds: Vec<String>,
    /// The stage's inputs: `inputStage`, `outerStage`, `innerStage`, then `inputStages`.
    pub inputs: Vec<PlanStage>,
    /// The inputs came as an `inputStages` array (an OR, a SORT_MERGE): the lessons write
    /// such a stage `SORT_MERGE(IXSCAN, IXSCAN)`.
    pub many_inputs: bool,
}

impl PlanStage {
    /// Reads a stage document (`{stage, inputStage | inputStages, …}`); SBE's `queryPlan`
    /// wrapper is looked through.
    pub fn read(doc: &Document) -> Option<PlanStage> {
        let doc = match doc.get_document("queryPlan") {
            Ok(inner) if !doc.contains_key("stage") => inner,
            _ => doc,
        };
        let stage = doc.get_str("stage").ok()?.to_string();
        let mut inputs = Vec::new();
        for key in ["inputStage", "outerStage", "innerStage"] {
            if let Ok(input) = doc.get_document(key) {
                inputs.extend(PlanStage::read(input));
            }
        }
        let many = doc.get_array("inputStages").ok();
        if let Some(many) = many {
            inputs.extend(
                many.iter()
                    .filter_map(Bson::as_document)
                    .filter_map(PlanStage::read),
            );
        }
        Some(PlanStage {
            stage,
            index_name: doc.get_str("indexName").ok().map(str::to_string),
            key_pattern: doc.get_document("keyPattern").ok().map(key_pattern_text),
            keys_examined: doc.get("keysExamined").and_then(number),
            docs_examined: doc.get("docsExamined").and_then(number),
            n_returned: doc.get("nReturned").and_then(number),
            works: doc.get("works").and_then(number),
            time_ms: doc.get("executionTimeMillisEstimate").and_then(number),
            bounds: doc
                .get_document("indexBounds")
                .map(|b| {
                    b.iter()
                        .map(|(field, ranges)| {
                            let ranges = ranges
                                .as_array()
                                .map(|r| {
                                    r.iter()
                                        .filter_map(Bson::as_str)
                                        .collect::<Vec<_>>()
                                        .join(", ")
                                })
                                .unwrap_or_default();
                            format!("{field}: {ranges}")
                        })
                        .collect()
                })
                .unwrap_or_default(),
            inputs,
            many_inputs: many.is_some(),
        })
    }

    /// A stage a learner should look at twice: a collection scan, or a sort done in memory
    /// (a `SORT` stage: no index gave the order).
    pub fn warning(&self) -> Option<&'static str> {
        match self.stage.as_str() {
            "COLLSCAN" => Some("collection scan"),
            "SORT" => Some("in-memory sort"),
            _ => None,
        }
    }

    /// Whether any stage of the plan is `name`.
    pub fn has_stage(&self, name: &str) -> bool {
        let mut found = false;
        self.visit(&mut |s| found |= s.stage == name);
        found
    }

    /// The stage names from the root down, inputs after their parent (`FETCH → IXSCAN`).
    pub fn stage_names(&self) -> Vec<String> {
        let mut names = Vec::new();
        self.visit(&mut |s| names.push(s.stage.clone()));
        names
    }

    /// The stages from the root down as a lesson's `plan` block writes them: `FETCH >
    /// IXSCAN`, with the inputs of a stage that has several in parentheses:
    /// `SORT_MERGE(IXSCAN, IXSCAN)`.
    pub fn chain(&self) -> String {
        match self.inputs.as_slice() {
            [] => self.stage.clone(),
            [one] if !self.many_inputs => format!("{} > {}", self.stage, one.chain()),
            many => {
                let parts: Vec<String> = many.iter().map(PlanStage::chain).collect();
                format!("{}({})", self.stage, parts.join(", "))
            }
        }
    }

    /// A counter summed over the plan's stages (keys examined by its index scans, documents
    /// examined by its fetches); `None` when no stage reports it.
    pub fn total(&self, counter: fn(&PlanStage) -> Option<i64>) -> Option<i64> {
        let mut sum = None;
        self.visit(&mut |s| {
            if let Some(n) = counter(s) {
                *sum.get_or_insert(0) += n;
            }
        });
        sum
    }

    /// The indexes the plan reads, first seen first.
    pub fn indexes(&self) -> Vec<String> {
        self.reads().1
    }

    /// The bounds of every index scan in the plan.
    pub fn all_bounds(&self) -> Vec<String> {
        let mut bounds = Vec::new();
        self.visit(&mut |s| bounds.extend(s.bounds.iter().cloned()));
        bounds
    }

    /// How the plan reaches the data: `collection scan`, `index price_1`, or both kinds when
    /// a plan mixes them; `None` for a plan that reads nothing (EOF).
    pub fn access(&self) -> Option<String> {
        let (collection_scan, indexes) = self.reads();
        let index_part = match indexes.len() {
            0 => None,
            1 => Some(format!("index {}", indexes[0])),
            _ => Some(format!("indexes {}", indexes.join(", "))),
        };
        match (collection_scan, index_part) {
            (true, Some(i)) => Some(format!("collection scan and {i}")),
            (true, None) => Some("collection scan".into()),
            (false, i) => i,
        }
    }

    /// [`Self::access`] in Chinese: 集合扫描, 索引 price_1, 集合扫描和索引 a_1.
    pub fn access_zh(&self) -> Option<String> {
        let (collection_scan, indexes) = self.reads();
        let index_part = (!indexes.is_empty()).then(|| format!("索引 {}", indexes.join(", ")));
        match (collection_scan, index_part) {
            (true, Some(i)) => Some(format!("集合扫描和{i}")),
            (true, None) => Some("集合扫描".into()),
            (false, i) => i,
        }
    }

    /// Whether the plan scans the collection, and the indexes it reads (first seen first).
    fn reads(&self) -> (bool, Vec<String>) {
        let mut indexes = Vec::new();
        let mut collection_scan = false;
        self.visit(&mut |s| {
            if let Some(name) = &s.index_name {
                if !indexes.contains(name) {
                    indexes.push(name.clone());
                }
            } else if s.stage == "COLLSCAN" {
                collection_scan = true;
            }
        });
        (collection_scan, indexes)
    }

    fn visit(&self, f: &mut impl FnMut(&PlanStage)) {
        f(self);
        for input in &self.inputs {
            input.visit(f);
        }
    }
}

/// An explain reply reduced to what the explain view draws and the lessons check.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExplainPlan {
    /// The winning plan, with counters when the reply has execution statistics.
    pub winning: PlanStage,
    pub rejected: Vec<PlanStage>,
    pub n_returned: Option<i64>,
    pub keys_examined: Option<i64>,
    pub docs_examined: Option<i64>,
    /// The namespace explained, e.g. `test.products`.
    pub namespace: Option<String>,
    /// An aggregation's stages after the `$cursor` that feeds them (`$group`, `$sort`…).
    pub later_stages: Vec<String>,
    /// `executionStats.executionTimeMillis`.
    pub time_ms: Option<i64>,
}

impl ExplainPlan {
    /// Reads a find's explain, or an aggregation's whose first stage is a `$cursor`; `None`
    /// when the document is not an explain reply.
    pub fn read(reply: &Document) -> Option<ExplainPlan> {
        let stages = reply.get_array("stages").ok();
        let source = if reply.contains_key("queryPlanner") {
            reply
        } else {
            stages?
                .first()?
                .as_document()?
                .get_document("$cursor")
                .ok()?
        };
        let later_stages = stages
            .map(|s| {
                s.iter()
                    .filter_map(Bson::as_document)
                    .filter_map(|stage| stage.keys().next().cloned())
                    .filter(|name| name != "$cursor")
                    .collect()
            })
            .unwrap_or_default();
        let planner = source.get_document("queryPlanner").ok()?;
        let stats = source.get_document("executionStats").ok();
        let winning = stats
            .and_then(|s| s.get_document("executionStages").ok())
            .and_then(PlanStage::read)
            .or_else(|| PlanStage::read(planner.get_document("winningPlan").ok()?))?;
        let rejected = planner
            .get_array("rejectedPlans")
            .map(|plans| {
                plans
                    .iter()
                    .filter_map(Bson::as_document)
                    .filter_map(PlanStage::read)
                    .collect()
            })
            .unwrap_or_default();
        let rejected = with_trial_counters(rejected, stats);
        let counter = |k: &str| stats.and_then(|s| s.get(k)).and_then(number);
        Some(ExplainPlan {
            winning,
            rejected,
            n_returned: counter("nReturned"),
            keys_examined: counter("totalKeysExamined"),
            docs_examined: counter("totalDocsExamined"),
            namespace: planner.get_str("namespace").ok().map(str::to_string),
            later_stages,
            time_ms: counter("executionTimeMillis"),
        })
    }

    /// 检查了 10 个文档，返回 3 个：集合扫描 (the Chinese of [`Self::summary`]).
    pub fn summary_zh(&self) -> String {
        let access = self
            .winning
            .access_zh()
            .unwrap_or_else(|| "无需读取数据".into());
        let (Some(returned), Some(docs)) = (self.n_returned, self.docs_examined) else {
            return format!("执行计划：{access}（explain(\"executionStats\") 才统计检查的数量）");
        };
        let keys = self.keys_examined.unwrap_or(0);
        let examined = if keys > 0 {
            format!("{keys} 个索引键和 {docs} 个文档")
        } else {
            format!("{docs} 个文档")
        };
        format!("检查了 {examined}，返回 {returned} 个：{access}")
    }

    /// One line on what the query cost: "examined 10 documents to return 3: collection scan".
    pub fn summary(&self) -> String {
        let access = self
            .winning
            .access()
            .unwrap_or_else(|| "nothing to read".into());
        let (Some(returned), Some(docs)) = (self.n_returned, self.docs_examined) else {
            return format!("plan: {access} (explain(\"executionStats\") counts what it examines)");
        };
        let keys = self.keys_examined.unwrap_or(0);
        let examined = if keys > 0 {
            format!(
                "{} and {}",
                counted(keys, "index key"),
                counted(docs, "document")
            )
        } else {
            counted(docs, "document")
        };
        format!("examined {examined} to return {returned}: {access}")
    }
}

fn counted(n: i64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// A counter: explain writes them as 32- or 64-bit integers (doubles read as their whole part).
fn number(v: &Bson) -> Option<i64> {
    match v {
        Bson::Int32(i) => Some(i64::from(*i)),
        Bson::Int64(i) => Some(*i),
        Bson::Double(d) => Some(*d as i64),
        _ => None,
    }
}

/// A key pattern on one line as mongosh shows it: `{ price: 1, 'a.b': -1, name: 'text' }`.
fn key_pattern_text(pattern: &Document) -> String {
    if pattern.is_empty() {
        return "{}".into();
    }
    let parts: Vec<String> = pattern
        .iter()
        .map(|(k, v)| {
            let value = match v {
                Bson::String(s) => quoted(s),
                Bson::Double(d) if d.is_finite() && d.fract() == 0.0 => format!("{d:.0}"),
                other => number(other).map_or_else(|| other.to_string(), |n| n.to_string()),
            };
            format!("{}: {value}", key_text(k))
        })
        .collect();
    format!("{{ {} }}", parts.join(", "))
}

fn quoted(s: &str) -> String {
    format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'"))
}

/// The rejected plans with the counters of their trial, when the reply has them
/// (`explain('allPlansExecution')`: `executionStats.allPlansExecution`, one entry per candidate,
/// in the planner's order, not `rejectedPlans`' order). Each rejected plan takes the first unused
/// candidate of the same shape (stages and indexes); without one it stays without counters.
fn with_trial_counters(rejected: Vec<PlanStage>, stats: Option<&Document>) -> Vec<PlanStage> {
    let mut trials: Vec<Option<PlanStage>> = stats
        .and_then(|s| s.get_array("allPlansExecution").ok())
        .map(|all| {
            all.iter()
                .filter_map(Bson::as_document)
                .filter_map(|c| c.get_document("executionStages").ok())
                .filter_map(PlanStage::read)
                .map(Some)
                .collect()
        })
        .unwrap_or_default();
    rejected
        .into_iter()
        .map(|plan| {
            let same_shape = trials.iter().position(|t| {
                t.as_ref().is_some_and(|t| {
                    t.stage_names() == plan.stage_names() && t.indexes() == plan.indexes()
                })
            });
            match same_shape {
                Some(at) => trials[at].take().unwrap_or(plan),
                None => plan,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use bson::doc;

    use super::*;

    fn index_scan_explain() -> Document {
        doc! {
            "explainVersion": "1",
            "queryPlanner": {
                "namespace": "test.products",
                "winningPlan": {"isCached": false, "stage": "FETCH", "inputStage": {
                    "stage": "IXSCAN", "keyPattern": {"price": 1}, "indexName": "price_1"}},
                "rejectedPlans": [
                    {"stage": "FETCH", "filter": {"price": {"$gt": 5}}, "inputStage": {
                        "stage": "IXSCAN", "keyPattern": {"name": 1, "price": -1}, "indexName": "name_1_price_-1"}}
                ]
            },
            "executionStats": {
                "executionSuccess": true, "nReturned": 3, "totalKeysExamined": 3_i64, "totalDocsExamined": 3,
                "executionStages": {"stage": "FETCH", "nReturned": 3, "docsExamined": 3, "inputStage": {
                    "stage": "IXSCAN", "nReturned": 3, "keyPattern": {"price": 1}, "indexName": "price_1",
                    "keysExamined": 3}}
            }
        }
    }

    #[test]
    fn an_index_scan_reads_as_a_tree_with_counters() {
        let plan = ExplainPlan::read(&index_scan_explain()).unwrap();
        assert_eq!(plan.winning.stage, "FETCH");
        assert_eq!(plan.winning.docs_examined, Some(3));
        let ixscan = &plan.winning.inputs[0];
        assert_eq!(ixscan.stage, "IXSCAN");
        assert_eq!(ixscan.index_name.as_deref(), Some("price_1"));
        assert_eq!(ixscan.key_pattern.as_deref(), Some("{ price: 1 }"));
        assert_eq!(ixscan.keys_examined, Some(3));
        assert_eq!(plan.rejected.len(), 1);
        assert_eq!(
            plan.rejected[0].inputs[0].key_pattern.as_deref(),
            Some("{ name: 1, price: -1 }")
        );
        assert_eq!(plan.namespace.as_deref(), Some("test.products"));
        assert_eq!(
            plan.summary(),
            "examined 3 index keys and 3 documents to return 3: index price_1"
        );
        assert_eq!(
            plan.summary_zh(),
            "检查了 3 个索引键和 3 个文档，返回 3 个：索引 price_1"
        );
    }

    #[test]
    fn rejected_plans_take_their_trial_counters_from_all_plans_execution() {
        let mut reply = index_scan_explain();
        let mut stats = reply.get_document("executionStats").unwrap().clone();
        stats.insert(
            "allPlansExecution",
            vec![
                Bson::Document(doc! {"nReturned": 3, "executionStages": {"stage": "FETCH",
                "nReturned": 3, "works": 4, "docsExamined": 3, "inputStage": {"stage": "IXSCAN",
                "keyPattern": {"price": 1}, "indexName": "price_1", "keysExamined": 3}}}),
                Bson::Document(doc! {"nReturned": 1, "executionStages": {"stage": "FETCH",
                "nReturned": 1, "works": 4, "docsExamined": 4, "inputStage": {"stage": "IXSCAN",
                "keyPattern": {"name": 1, "price": -1}, "indexName": "name_1_price_-1",
                "keysExamined": 4}}}),
            ],
        );
        reply.insert("executionStats", stats);
        let plan = ExplainPlan::read(&reply).unwrap();
        assert_eq!(plan.rejected.len(), 1);
        assert_eq!(plan.rejected[0].docs_examined, Some(4));
        assert_eq!(plan.rejected[0].works, Some(4));
        assert_eq!(plan.rejected[0].inputs[0].keys_examined, Some(4));
        // Without allPlansExecution the rejected plan has no counters.
        let plain = ExplainPlan::read(&index_scan_explain()).unwrap();
        assert_eq!(plain.rejected[0].docs_examined, None);
    }

    #[test]
    fn a_collection_scan_counts_documents_only() {
        let reply = doc! {
            "queryPlanner": {"winningPlan": {"stage": "COLLSCAN", "filter": {"price": {"$eq": 10}}},
                             "rejectedPlans": []},
            "executionStats": {"nReturned": 3, "totalKeysExamined": 0, "totalDocsExamined": 10,
                "executionStages": {"stage": "COLLSCAN", "nReturned": 3, "docsExamined": 10}}
        };
        let plan = ExplainPlan::read(&reply).unwrap();
        assert_eq!(
            plan.summary(),
            "examined 10 documents to return 3: collection scan"
        );
        assert_eq!(plan.summary_zh(), "检查了 10 个文档，返回 3 个：集合扫描");
        assert!(plan.rejected.is_empty());
        let one = doc! {
            "queryPlanner": {"winningPlan": {"stage": "COLLSCAN"}},
            "executionStats": {"nReturned": 1, "totalKeysExamined": 0, "totalDocsExamined": 1.0,
                "executionStages": {"stage": "COLLSCAN"}}
        };
        assert_eq!(
            ExplainPlan::read(&one).unwrap().summary(),
            "examined 1 document to return 1: collection scan"
        );
    }

    #[test]
    fn query_planner_verbosity_names_the_plan_without_counters() {
        let reply = doc! {"queryPlanner": {"winningPlan": {"stage": "FETCH", "inputStage": {
        "stage": "IXSCAN", "indexName": "price_1", "keyPattern": {"price": 1}}}}};
        let plan = ExplainPlan::read(&reply).unwrap();
        assert_eq!(plan.winning.inputs[0].keys_examined, None);
        assert_eq!(
            plan.summary(),
            "plan: index price_1 (explain(\"executionStats\") counts what it examines)"
        );
    }

    #[test]
    fn aggregate_explain_reads_the_cursor_stage() {
        let reply = doc! {"explainVersion": "1", "stages": [
            {"$cursor": {"queryPlanner": {"winningPlan": {"stage": "PROJECTION_SIMPLE", "inputStage": {
                "stage": "IXSCAN", "indexName": "a_1", "keyPattern": {"a": 1}}}},
             "executionStats": {"nReturned": 2, "totalKeysExamined": 2, "totalDocsExamined": 0,
                "executionStages": {"stage": "PROJECTION_SIMPLE", "nReturned": 2, "inputStage": {
                    "stage": "IXSCAN", "indexName": "a_1", "keyPattern": {"a": 1}, "keysExamined": 2, "nReturned": 2}}}}},
            {"$group": {"_id": "$a"}}
        ]};
        let plan = ExplainPlan::read(&reply).unwrap();
        assert_eq!(
            plan.summary(),
            "examined 2 index keys and 0 documents to return 2: index a_1"
        );
        assert_eq!(plan.later_stages, ["$group"]);
    }

    #[test]
    fn several_inputs_and_mixed_access() {
        let reply = doc! {"queryPlanner": {"winningPlan": {"stage": "SUBPLAN", "inputStage": {
        "stage": "OR", "inputStages": [
            {"stage": "IXSCAN", "indexName": "a_1", "keyPattern": {"a.b": 1, "t": "text"}},
            {"stage": "COLLSCAN"},
            {"stage": "IXSCAN", "indexName": "b_1"}
        ]}}}};
        let plan = ExplainPlan::read(&reply).unwrap();
        assert_eq!(plan.winning.inputs[0].inputs.len(), 3);
        assert_eq!(
            plan.winning.access().as_deref(),
            Some("collection scan and indexes a_1, b_1")
        );
        assert_eq!(
            plan.winning.chain(),
            "SUBPLAN > OR(IXSCAN, COLLSCAN, IXSCAN)"
        );
        assert_eq!(
            plan.winning.inputs[0].inputs[0].key_pattern.as_deref(),
            Some("{ 'a.b': 1, t: 'text' }")
        );
    }

    #[test]
    fn other_documents_are_not_explains() {
        assert_eq!(ExplainPlan::read(&doc! {"ok": 1}), None);
        assert_eq!(ExplainPlan::read(&doc! {"stages": [{"$match": {}}]}), None);
        assert_eq!(ExplainPlan::read(&doc! {"stages": [1]}), None);
    }
}
