//! Whether a step's output is what the lesson expects: the text of its `expect` block (compared
//! as the lesson test compares it, trailing white space aside) and the facts of its `plan` block
//! (compared with the summary of the explain document the step produced).

use bson::Bson;
use lessons::{PlanSummary, Step};

/// One fact of a `plan` block next to what the explain showed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FactCheck {
    pub key: String,
    pub expected: String,
    /// `None` when the output was not an explain or did not report the fact.
    pub actual: Option<String>,
}

impl FactCheck {
    pub fn ok(&self) -> bool {
        self.actual.as_deref() == Some(self.expected.as_str())
    }
}

/// How a run of a step compares with the lesson.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepVerdict {
    /// `Some(true)` when the step has an `expect` block and the output matches it.
    pub text_matches: Option<bool>,
    pub facts: Vec<FactCheck>,
}

impl StepVerdict {
    /// Whether the run counts as the step done: no error, and every expectation met.
    pub fn matched(&self) -> bool {
        self.text_matches != Some(false) && self.facts.iter().all(FactCheck::ok)
    }
}

/// Compares a run of `step` with the lesson. `explain` is the run's result when it is an explain
/// reply (relaxed Extended JSON, as the worker sends it).
pub fn judge(
    step: &Step,
    output: &str,
    is_error: bool,
    explain: Option<&serde_json::Value>,
) -> StepVerdict {
    let mut text_matches = step
        .expect
        .as_ref()
        .map(|expected| !is_error && output.trim_end() == expected.trim_end());
    // An error never counts as the step done, even for a step the lesson does not check.
    if is_error && text_matches.is_none() && step.look.is_empty() {
        text_matches = Some(false);
    }
    let summary = explain
        .filter(|_| !is_error)
        .and_then(|v| Bson::try_from(v.clone()).ok())
        .and_then(|b| b.as_document().and_then(PlanSummary::of));
    let facts = step
        .look
        .iter()
        .map(|(key, expected)| FactCheck {
            key: key.clone(),
            expected: expected.clone(),
            actual: summary.as_ref().and_then(|s| s.fact(key)),
        })
        .collect();
    StepVerdict {
        text_matches,
        facts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(expect: Option<&str>, look: &[(&str, &str)]) -> Step {
        Step {
            title: "t".into(),
            title_zh: None,
            prose: String::new(),
            prose_zh: None,
            command: "x".into(),
            expect: expect.map(str::to_string),
            look: look
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }

    #[test]
    fn text_is_compared_without_trailing_space() {
        let s = step(Some("price_1\n"), &[]);
        assert!(judge(&s, "price_1", false, None).matched());
        assert!(!judge(&s, "price_2", false, None).matched());
        assert!(!judge(&s, "price_1", true, None).matched());
    }

    #[test]
    fn plan_facts_are_read_from_the_explain_document() {
        let s = step(
            None,
            &[("stages", "FETCH > IXSCAN"), ("totalDocsExamined", "3")],
        );
        let explain = serde_json::json!({
            "queryPlanner": {"winningPlan": {"stage": "FETCH", "inputStage": {"stage": "IXSCAN", "indexName": "price_1"}}, "rejectedPlans": []},
            "executionStats": {"nReturned": 3, "totalKeysExamined": 3, "totalDocsExamined": 3},
        });
        let v = judge(&s, "…", false, Some(&explain));
        assert!(v.matched(), "{v:?}");
        let scan = serde_json::json!({
            "queryPlanner": {"winningPlan": {"stage": "COLLSCAN"}, "rejectedPlans": []},
            "executionStats": {"nReturned": 3, "totalKeysExamined": 0, "totalDocsExamined": 10},
        });
        let v = judge(&s, "…", false, Some(&scan));
        assert!(!v.matched());
        assert_eq!(v.facts[0].actual.as_deref(), Some("COLLSCAN"));
        // Not an explain at all: every fact is missing.
        let v = judge(&s, "[]", false, None);
        assert!(v.facts.iter().all(|f| f.actual.is_none()) && !v.matched());
    }

    #[test]
    fn an_unchecked_step_matches_unless_it_fails() {
        let s = step(None, &[]);
        assert!(judge(&s, "anything", false, None).matched());
        assert!(!judge(&s, "TypeError", true, None).matched());
    }
}
