//! What a learner should look at in an `explain()`: the winning plan's stages, the index it
//! uses, and the three counters (documents returned, index keys examined, documents examined).
//! A step's ```` ```plan ```` block lists the facts to point at; the lesson test checks them
//! against the explain document the step printed, and the page shows them beside the output.

use bson::{Bson, Document};

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
    /// The summary of an explain reply (a find's, or an aggregation's `$cursor` stage);
    /// `None` when the document is not an explain.
    pub fn of(explain: &Document) -> Option<PlanSummary> {
        let planner = explain.get_document("queryPlanner").ok().or_else(|| {
            explain
                .get_array("stages")
                .ok()?
                .first()?
                .as_document()?
                .get_document("$cursor")
                .ok()?
                .get_document("queryPlanner")
                .ok()
        })?;
        let winning = planner.get_document("winningPlan").ok()?;
        let winning = winning.get_document("queryPlan").unwrap_or(winning);
        let stats = explain.get_document("executionStats").ok();
        let number = |k: &str| stats.and_then(|s| s.get(k)).and_then(as_i64);
        let mut index = None;
        first_index(winning, &mut index);
        Some(PlanSummary {
            stages: chain(winning),
            index,
            n_returned: number("nReturned"),
            keys_examined: number("totalKeysExamined"),
            docs_examined: number("totalDocsExamined"),
            rejected_plans: planner.get_array("rejectedPlans").map_or(0, Vec::len),
        })
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

fn as_i64(v: &Bson) -> Option<i64> {
    match v {
        Bson::Int32(i) => Some(i64::from(*i)),
        Bson::Int64(i) => Some(*i),
        Bson::Double(d) => Some(*d as i64),
        _ => None,
    }
}

fn chain(stage: &Document) -> String {
    let name = stage.get_str("stage").unwrap_or("?").to_string();
    if let Ok(input) = stage.get_document("inputStage") {
        return format!("{name} > {}", chain(input));
    }
    if let Ok(inputs) = stage.get_array("inputStages") {
        let parts: Vec<String> = inputs
            .iter()
            .filter_map(Bson::as_document)
            .map(chain)
            .collect();
        return format!("{name}({})", parts.join(", "));
    }
    name
}

fn first_index(stage: &Document, out: &mut Option<String>) {
    if out.is_some() {
        return;
    }
    if let Ok(name) = stage.get_str("indexName") {
        *out = Some(name.to_string());
        return;
    }
    if let Ok(input) = stage.get_document("inputStage") {
        first_index(input, out);
    }
    if let Ok(inputs) = stage.get_array("inputStages") {
        for i in inputs.iter().filter_map(Bson::as_document) {
            first_index(i, out);
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
        let s = PlanSummary::of(&explain).unwrap();
        assert_eq!(s.stages, "LIMIT > FETCH > SORT_MERGE(IXSCAN, IXSCAN)");
        assert_eq!(s.fact("index").as_deref(), Some("a_1_b_1"));
        assert_eq!(s.fact("totalKeysExamined").as_deref(), Some("6"));
        assert_eq!(s.fact("rejectedPlans").as_deref(), Some("1"));
        assert!(PlanSummary::of(&doc! {"ok": 1}).is_none());
        assert!(parse_facts("stages: COLLSCAN\nnReturned: 3").is_ok());
        assert!(parse_facts("colour: red").is_err());
    }
}
