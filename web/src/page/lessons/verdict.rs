//! Whether a step's output is what the lesson expects: its `expect` block (compared as values,
//! by `lessons::compare_output`, as the lesson test compares it) and the facts of its `plan`
//! block (compared with the summary of the plan tree of the explain the step produced).

use lessons::{ExplainPlan, PlanSummary, Step};

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
    /// Where the output first differs from the `expect` block, when it does.
    pub difference: Option<String>,
    pub facts: Vec<FactCheck>,
}

impl StepVerdict {
    /// Whether the run counts as the step done: no error, and every expectation met.
    pub fn matched(&self) -> bool {
        self.text_matches != Some(false) && self.facts.iter().all(FactCheck::ok)
    }
}

/// Compares a run of `step` with the lesson. `explain` is the run's plan tree when its result
/// is an explain reply (as the worker sends it).
pub fn judge(
    step: &Step,
    output: &str,
    is_error: bool,
    explain: Option<&ExplainPlan>,
) -> StepVerdict {
    let compared = step
        .expect
        .as_ref()
        .map(|expected| lessons::compare_output(expected, output));
    let difference = compared
        .as_ref()
        .and_then(|c| c.as_ref().err())
        .map(ToString::to_string);
    let mut text_matches = compared.map(|c| !is_error && c.is_ok());
    // An error never counts as the step done, even for a step the lesson does not check.
    if is_error && text_matches.is_none() && step.look.is_empty() {
        text_matches = Some(false);
    }
    let summary = explain.filter(|_| !is_error).map(PlanSummary::of);
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
        difference,
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
    fn output_is_compared_as_values() {
        let s = step(Some("price_1\n"), &[]);
        assert!(judge(&s, "price_1", false, None).matched());
        assert!(!judge(&s, "price_2", false, None).matched());
        assert!(!judge(&s, "price_1", true, None).matched());
        // Wrapping and quoting do not count; a field's value and type do, and the verdict says
        // where the output differs.
        let s = step(Some("{ name: 'orange',\n  price: 0.8 }"), &[]);
        assert!(judge(&s, "{ name: \"orange\", price: 0.8 }", false, None).matched());
        let v = judge(&s, "{ name: 'orange', price: 0.9 }", false, None);
        assert!(!v.matched());
        let difference = v.difference.unwrap_or_default();
        assert!(
            difference.contains("price") && difference.contains("0.9"),
            "{difference}"
        );
        assert!(
            judge(&s, "{ name: 'orange', price: 0.8 }", false, None)
                .difference
                .is_none()
        );
    }

    #[test]
    fn plan_facts_are_read_from_the_plan_tree() {
        let s = step(
            None,
            &[("stages", "FETCH > IXSCAN"), ("totalDocsExamined", "3")],
        );
        let explain = ExplainPlan::read(&bson::doc! {
            "queryPlanner": {"winningPlan": {"stage": "FETCH", "inputStage": {"stage": "IXSCAN", "indexName": "price_1"}}, "rejectedPlans": []},
            "executionStats": {"nReturned": 3, "totalKeysExamined": 3, "totalDocsExamined": 3},
        })
        .unwrap();
        let v = judge(&s, "…", false, Some(&explain));
        assert!(v.matched(), "{v:?}");
        let scan = ExplainPlan::read(&bson::doc! {
            "queryPlanner": {"winningPlan": {"stage": "COLLSCAN"}, "rejectedPlans": []},
            "executionStats": {"nReturned": 3, "totalKeysExamined": 0, "totalDocsExamined": 10},
        })
        .unwrap();
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
