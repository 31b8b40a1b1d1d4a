//! What a learner should look at in an `explain()`: the winning plan's stages, the index it
//! uses, and the three counters (documents returned, index keys examined, documents examined).
//! A step's ```` ```plan ```` block lists the facts to point at; the lesson test checks them
//! against the plan tree ([`ExplainPlan`]) of the explain the step produced, and the page shows
//! them beside the output.

use crate::ExplainPlan;

/// The facts a `plan` block may name, in the order they are shown.
pub const KEYS: &[&str] = &[
    "stages",
    "index",
    "nReturned",
    "totalKeysExamined",
    "totalDocsExamined",
    "rejectedPlans",
];

/// An explain document reduced to what a lesson points at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanSummary {
    /// The winning plan's stages from the root down: `FETCH > IXSCAN`, with the inputs of a
    /// stage that has several in parentheses: `SORT_MERGE(IXSCAN, IXSCAN)`.
    pub stages: String,
    /// The first index the winning plan scans.
    pub index: Option<String>,
    pub n_returned: Option<i64>,
    pub keys_examined: Option<i64>,
    pub docs_examined: Option<i64>,
    pub rejected_plans: usize,
}

impl PlanSummary {
    /// What a lesson points at in an explain's plan tree.
    pub fn of(plan: &ExplainPlan) -> PlanSummary {
        let winning = &plan.winning;
        PlanSummary {
            stages: winning.chain(),
            index: winning.indexes().into_iter().next(),
            n_returned: plan.n_returned,
            keys_examined: plan.keys_examined,
            docs_examined: plan.docs_examined,
            rejected_plans: plan.rejected.len(),
        }
    }

    /// The value of one fact as a `plan` block writes it (`None` when explain did not report
    /// it, as the queryPlanner verbosity does not report counters).
    pub fn fact(&self, key: &str) -> Option<String> {
        match key {
            "stages" => Some(self.stages.clone()),
            "index" => self.index.clone(),
            "nReturned" => self.n_returned.map(|n| n.to_string()),
            "totalKeysExamined" => self.keys_examined.map(|n| n.to_string()),
            "totalDocsExamined" => self.docs_examined.map(|n| n.to_string()),
            "rejectedPlans" => Some(self.rejected_plans.to_string()),
            _ => None,
        }
    }
}

/// Parses a `plan` block: `key: value` lines with keys from [`KEYS`].
pub fn parse_facts(body: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for line in body.lines().filter(|l| !l.trim().is_empty()) {
        let Some((k, v)) = line.split_once(':') else {
            return Err(format!("plan lines are `key: value`, got `{line}`"));
        };
        let k = k.trim();
        if !KEYS.contains(&k) {
            return Err(format!(
                "unknown plan fact `{k}` (one of {})",
                KEYS.join(", ")
            ));
        }
        out.push((k.to_string(), v.trim().to_string()));
    }
    if out.is_empty() {
        return Err("a plan block names at least one fact".into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use bson::doc;

    use super::*;

    #[test]
    fn summarises_stages_index_and_counters() {
        let explain = doc! {
            "queryPlanner": {
                "winningPlan": {"stage": "LIMIT", "inputStage": {"stage": "FETCH", "inputStage":
                    {"stage": "SORT_MERGE", "inputStages": [
                        {"stage": "IXSCAN", "indexName": "a_1_b_1"},
                        {"stage": "IXSCAN", "indexName": "a_1_b_1"}]}}},
                "rejectedPlans": [{"stage": "COLLSCAN"}],
            },
            "executionStats": {"nReturned": 4, "totalKeysExamined": 6_i64, "totalDocsExamined": 4},
        };
        let s = PlanSummary::of(&ExplainPlan::read(&explain).unwrap());
        assert_eq!(s.stages, "LIMIT > FETCH > SORT_MERGE(IXSCAN, IXSCAN)");
        assert_eq!(s.fact("index").as_deref(), Some("a_1_b_1"));
        assert_eq!(s.fact("totalKeysExamined").as_deref(), Some("6"));
        assert_eq!(s.fact("rejectedPlans").as_deref(), Some("1"));
        assert!(parse_facts("stages: COLLSCAN\nnReturned: 3").is_ok());
        assert!(parse_facts("colour: red").is_err());
    }
}
