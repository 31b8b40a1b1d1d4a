//! Plays a lesson's steps in a fresh shell and compares what each shows with its `expect` block
//! (structurally, see [`lessons::compare_output`]); checks exercise answers with the engine.

use bson::{Bson, Document, doc};
use engine::Engine;
use engine::clock::SimulatedClock;
use shell::{Shell, ShellConfig};

use lessons::{
    AnswerRules, Check, Comparison, Exercise, ExplainPlan, Lesson, PlanFactDifference,
    PlanRequirement, PlanSummary,
};

use crate::comparison::of_values;
use shell::dataset::dataset;

/// Lessons run on a simulated clock that starts here (2025-01-01T00:00:00Z), with a fixed seed,
/// so generated ObjectIds and dates are the same on every run.
pub const LESSON_EPOCH_MILLIS: i64 = 1_735_689_600_000;
pub const LESSON_SEED: u64 = 2025;

#[derive(Debug, Clone, PartialEq)]
pub struct StepFailure {
    pub lesson: String,
    pub step: usize,
    pub title: String,
    pub expected: String,
    pub actual: String,
    /// For output that differs from the `expect` block: where and how (the first difference).
    pub difference: Option<String>,
}

/// What verifying a lesson covered.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Verified {
    pub steps: usize,
    pub exercises: usize,
    /// Wrong answers (```` ```wrong ```` blocks) the checks rejected.
    pub wrong_rejected: usize,
    /// Right answers (the solution and the ```` ```right ```` blocks) the checks accepted.
    pub right_accepted: usize,
}

/// The verdict on one exercise answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckOutcome {
    pub passed: bool,
    /// What the learner is told (the page shows "Not yet" or "Passed" before it).
    pub message: String,
    /// For a wrong answer: what it gave beside what was expected.
    pub comparison: Option<Comparison>,
}

impl CheckOutcome {
    fn pass(message: impl Into<String>) -> Self {
        CheckOutcome {
            passed: true,
            message: message.into(),
            comparison: None,
        }
    }
    fn fail(message: impl Into<String>) -> Self {
        CheckOutcome {
            passed: false,
            message: message.into(),
            comparison: None,
        }
    }
    fn compared(mut self, comparison: Comparison) -> Self {
        self.comparison = Some(comparison);
        self
    }
}

/// A shell as a learner gets it for a lesson: empty engine, simulated clock, fixed seed.
pub fn new_lesson_shell() -> Shell {
    let engine = Engine::with_clock(
        Box::new(SimulatedClock::new(LESSON_EPOCH_MILLIS)),
        LESSON_SEED,
    );
    Shell::new(
        engine,
        ShellConfig {
            seed: LESSON_SEED,
            ..ShellConfig::default()
        },
    )
}

/// A fresh lesson shell with the lesson's dataset loaded (what "reset" gives the learner).
pub fn lesson_shell(lesson: &Lesson) -> Result<Shell, String> {
    let mut shell = new_lesson_shell();
    if let Some(name) = &lesson.dataset {
        dataset(name)?.load_into(&mut shell)?;
    }
    Ok(shell)
}

/// Runs every step, then checks that every exercise's solution passes its check and every
/// wrong answer fails it. Returns what was verified, or the failures.
pub fn verify_lesson(lesson: &Lesson) -> Result<Verified, Vec<StepFailure>> {
    let failure = |step: usize, title: &str, expected: String, actual: String| StepFailure {
        lesson: lesson.id.clone(),
        step,
        title: title.to_string(),
        expected,
        actual,
        difference: None,
    };
    let mut shell = match lesson_shell(lesson) {
        Ok(s) => s,
        Err(e) => return Err(vec![failure(0, "dataset", "loads".into(), e)]),
    };
    let mut failures = Vec::new();
    let mut verified = Verified::default();
    for (i, step) in lesson.steps.iter().enumerate() {
        let ev = shell.eval(&step.command);
        let actual = ev.text();
        let mut ok = step.expect.is_some() || !step.look.is_empty();
        if let Some(expected) = &step.expect
            && let Err(difference) = lessons::compare_output(expected, &actual)
        {
            ok = false;
            failures.push(StepFailure {
                difference: Some(difference.to_string()),
                ..failure(i + 1, &step.title, expected.clone(), actual.clone())
            });
        }
        if !step.look.is_empty()
            && let Err((expected, got)) = check_look(&step.look, ev.value.as_ref())
        {
            ok = false;
            failures.push(failure(i + 1, &step.title, expected, got));
        }
        if ok {
            verified.steps += 1;
        }
    }
    for (i, exercise) in lesson.exercises.iter().enumerate() {
        let at = lesson.steps.len() + i + 1;
        let mut ok = true;
        for right in std::iter::once(&exercise.solution).chain(&exercise.right) {
            let outcome = check_exercise(lesson, exercise, right);
            if outcome.passed {
                verified.right_accepted += 1;
            } else {
                ok = false;
                failures.push(failure(
                    at,
                    &exercise.title,
                    format!("the right answer `{right}` passes the check"),
                    outcome.message,
                ));
            }
        }
        for wrong in &exercise.wrong {
            let outcome = check_exercise(lesson, exercise, wrong);
            if outcome.passed {
                ok = false;
                failures.push(failure(
                    at,
                    &exercise.title,
                    format!("the wrong answer `{wrong}` fails the check"),
                    outcome.message,
                ));
            } else {
                verified.wrong_rejected += 1;
            }
        }
        if ok {
            verified.exercises += 1;
        }
    }
    if failures.is_empty() {
        Ok(verified)
    } else {
        Err(failures)
    }
}

/// Checks a learner's answer to an exercise: the answer runs in a fresh shell with the lesson's
/// dataset, and so does the solution when the check compares with it.
pub fn check_exercise(lesson: &Lesson, exercise: &Exercise, answer: &str) -> CheckOutcome {
    if let Some(verdict) = breaks_rules(&exercise.rules, answer) {
        return verdict;
    }
    let outcome = check_result(lesson, exercise, answer);
    match &exercise.rules.setup {
        // The same verdict and comparison, with a word on the added test documents.
        Some(_) if !outcome.passed => CheckOutcome {
            message: format!(
                "{} (The check first adds a few test documents at the edges of the question, \
                 so an answer must hold for any data, not only the lesson's.)",
                outcome.message
            ),
            ..outcome
        },
        _ => outcome,
    }
}

/// The verdict when an answer is written in a way the exercise rules out: a forbidden operator,
/// or a required one missing.
fn breaks_rules(rules: &AnswerRules, answer: &str) -> Option<CheckOutcome> {
    if let Some(word) = rules.forbid.iter().find(|w| answer.contains(w.as_str())) {
        return Some(CheckOutcome::fail(format!(
            "Not this way: the exercise asks for an answer without `{word}`."
        )));
    }
    if let Some(word) = rules.require.iter().find(|w| !answer.contains(w.as_str())) {
        return Some(CheckOutcome::fail(format!(
            "Not this way: the exercise asks you to use `{word}`."
        )));
    }
    None
}

/// Runs the answer (after the rules' setup) and judges what it gives or leaves behind.
fn check_result(lesson: &Lesson, exercise: &Exercise, answer: &str) -> CheckOutcome {
    let run = |code: &str| -> Result<(Shell, Option<Bson>), String> {
        let mut shell = lesson_shell(lesson)?;
        if let Some(setup) = &exercise.rules.setup {
            let ev = shell.eval(setup);
            if let Some(e) = &ev.error {
                return Err(format!("the check's setup failed: {e}"));
            }
        }
        let ev = shell.eval(code);
        if let Some(e) = &ev.error {
            return Err(e.to_string());
        }
        if ev.incomplete {
            return Err("the statement is not finished".into());
        }
        Ok((shell, ev.value))
    };
    let (mut answer_shell, answer_value) = match run(answer) {
        Ok(r) => r,
        Err(e) => return CheckOutcome::fail(format!("Your code stopped with an error: {e}")),
    };
    match &exercise.check {
        Check::Result { ordered } => {
            let expected = match run(&exercise.solution) {
                Ok((_, v)) => v,
                Err(e) => return CheckOutcome::fail(format!("the solution failed: {e}")),
            };
            let (got, want) = (result_documents(answer_value), result_documents(expected));
            let comparison = of_values(&got, &want);
            if same_values(&got, &want, *ordered) {
                CheckOutcome::pass(format!("Correct: {} result(s), as expected.", want.len()))
            } else if got.len() != want.len() {
                CheckOutcome::fail(format!(
                    "Your answer gives {} result(s); the exercise expects {}.",
                    got.len(),
                    want.len()
                ))
                .compared(comparison)
            } else if *ordered && same_values(&got, &want, false) {
                CheckOutcome::fail("The right results, but in the wrong order.")
                    .compared(comparison)
            } else {
                CheckOutcome::fail("The results differ from what the exercise asks for.")
                    .compared(comparison)
            }
        }
        Check::State { db, collections } => {
            let mut solution_shell = match run(&exercise.solution) {
                Ok((s, _)) => s,
                Err(e) => return CheckOutcome::fail(format!("the solution failed: {e}")),
            };
            let db = db
                .clone()
                .or_else(|| dataset_db(lesson))
                .unwrap_or_else(|| "test".into());
            let as_values = |docs: &[Document]| -> Vec<Bson> {
                docs.iter().cloned().map(Bson::Document).collect()
            };
            for collection in collections {
                let got = collection_contents(&mut answer_shell, &db, collection);
                let want = collection_contents(&mut solution_shell, &db, collection);
                if same_documents_in_order(&got, &want) {
                    continue;
                }
                let comparison = of_values(&as_values(&got), &as_values(&want));
                return if got.len() != want.len() {
                    CheckOutcome::fail(format!(
                        "{collection} now holds {} document(s); it should hold {}.",
                        got.len(),
                        want.len()
                    ))
                    .compared(comparison)
                } else {
                    CheckOutcome::fail(format!(
                        "The documents in {collection} differ from the expected ones."
                    ))
                    .compared(comparison)
                };
            }
            CheckOutcome::pass(match collections.as_slice() {
                [one] => format!("Correct: {one} holds what it should."),
                many => format!("Correct: {} hold what they should.", many.join(" and ")),
            })
        }
        Check::Plan { query, plan } => {
            let ev = answer_shell.eval(&format!("({query}).explain('executionStats')"));
            let explain = match (ev.error, ev.value) {
                (Some(e), _) => return CheckOutcome::fail(format!("explain failed: {e}")),
                (None, Some(Bson::Document(d))) => d,
                _ => return CheckOutcome::fail("explain gave no plan"),
            };
            judge_plan(&explain, *plan)
        }
    }
}

fn dataset_db(lesson: &Lesson) -> Option<String> {
    lesson
        .dataset
        .as_deref()
        .and_then(|n| dataset(n).ok())
        .map(|d| d.db)
}

/// A result as a list of values: a cursor's documents, an array's elements, or the one value.
fn result_documents(v: Option<Bson>) -> Vec<Bson> {
    match v {
        None => Vec::new(),
        Some(Bson::Array(items)) => items,
        Some(other) => vec![other],
    }
}

fn same_values(a: &[Bson], b: &[Bson], ordered: bool) -> bool {
    if a.len() != b.len() {
        return false;
    }
    if ordered {
        return a == b;
    }
    let mut unmatched: Vec<&Bson> = b.iter().collect();
    for x in a {
        match unmatched.iter().position(|y| *y == x) {
            Some(i) => {
                unmatched.swap_remove(i);
            }
            None => return false,
        }
    }
    true
}

/// Documents compared as MongoDB stores them: field order and number types count (`Document`'s
/// `==` ignores field order, which an exercise that asks for fields "in that order" must not).
fn same_documents_in_order(a: &[Document], b: &[Document]) -> bool {
    let bytes = |d: &Document| d.to_vec().ok();
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| matches!((bytes(x), bytes(y)), (Some(p), Some(q)) if p == q))
}

/// A collection's documents in `_id` order, read where the shell reads them: through the
/// router of a sharded cluster or the primary of a replica set the answer started, else the
/// engine (the engine alone holds nothing once `ShardingTest` has started a cluster).
fn collection_contents(shell: &mut Shell, db: &str, collection: &str) -> Vec<Document> {
    let reply = shell.run_command(
        db,
        &doc! {"find": collection, "filter": {}, "sort": {"_id": 1}, "batchSize": 100_000},
    );
    reply
        .get_document("cursor")
        .ok()
        .and_then(|c| c.get_array("firstBatch").ok())
        .map(|docs| {
            docs.iter()
                .filter_map(|d| d.as_document().cloned())
                .collect()
        })
        .unwrap_or_default()
}

/// Compares a step's `plan` facts with the explain document it produced: `Err((expected,
/// actual))` naming the facts that differ.
fn check_look(look: &[(String, String)], value: Option<&Bson>) -> Result<(), (String, String)> {
    let Some(summary) = value
        .and_then(Bson::as_document)
        .and_then(ExplainPlan::read)
        .map(|plan| PlanSummary::of(&plan))
    else {
        return Err((
            "an explain() result".into(),
            "the step did not produce an explain document".into(),
        ));
    };
    let wrong: Vec<(String, String)> = look
        .iter()
        .filter_map(|(k, want)| {
            let got = summary.fact(k).unwrap_or_else(|| "(not reported)".into());
            (&got != want).then(|| (format!("{k}: {want}"), format!("{k}: {got}")))
        })
        .collect();
    if wrong.is_empty() {
        Ok(())
    } else {
        let (e, g): (Vec<String>, Vec<String>) = wrong.into_iter().unzip();
        Err((e.join("\n"), g.join("\n")))
    }
}

/// Whether an answer's plan meets a plan exercise (read from the typed plan tree).
fn judge_plan(explain: &Document, requirement: PlanRequirement) -> CheckOutcome {
    let Some(explained) = ExplainPlan::read(explain) else {
        return CheckOutcome::fail("explain has no winning plan");
    };
    let stages = explained.winning.stage_names();
    let docs_examined = explained.docs_examined.unwrap_or(-1);
    let plan = stages.join(" → ");
    let has = |name: &str| stages.iter().any(|s| s == name);
    let fact = |fact: &str, expected: &str, got: String| PlanFactDifference {
        fact: fact.into(),
        expected: expected.into(),
        got,
    };
    if has("COLLSCAN") || !has("IXSCAN") {
        return CheckOutcome::fail(format!(
            "The query still scans the collection (plan: {plan})."
        ))
        .compared(Comparison {
            plan: vec![fact("stages", "an IXSCAN, no COLLSCAN", plan.clone())],
            ..Comparison::default()
        });
    }
    match requirement {
        PlanRequirement::UsesIndex => {
            CheckOutcome::pass(format!("Correct: the query uses an index (plan: {plan})."))
        }
        PlanRequirement::Covered if has("FETCH") || docs_examined != 0 => {
            let mut differing = Vec::new();
            if has("FETCH") {
                differing.push(fact("stages", "no FETCH", plan.clone()));
            }
            if docs_examined != 0 {
                differing.push(fact("totalDocsExamined", "0", docs_examined.to_string()));
            }
            CheckOutcome::fail(format!(
                "Almost: the query uses an index but still reads {docs_examined} document(s) \
                 (plan: {plan}). A covered query finds every field it returns in the index."
            ))
            .compared(Comparison {
                plan: differing,
                ..Comparison::default()
            })
        }
        PlanRequirement::Covered => CheckOutcome::pass(format!(
            "Correct: the query is covered, no document is read (plan: {plan})."
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_that_use_a_forbidden_operator_or_miss_a_required_one_are_refused() {
        let rules = AnswerRules {
            forbid: vec!["$where".into()],
            require: vec!["$expr".into()],
            setup: None,
        };
        let forbidden = breaks_rules(&rules, "db.c.find({$where: 'this.a > 1', $expr: 1})");
        assert!(forbidden.is_some_and(|v| !v.passed && v.message.contains("without `$where`")));
        let missing = breaks_rules(&rules, "db.c.find({a: {$gt: 1}})");
        assert!(missing.is_some_and(|v| v.message.contains("use `$expr`")));
        assert!(breaks_rules(&rules, "db.c.find({$expr: {$gt: ['$a', 1]}})").is_none());
    }

    #[test]
    fn a_wrong_answer_under_setup_documents_keeps_its_comparison() {
        let lessons = lessons::built_in().unwrap();
        let lesson = lessons.iter().find(|l| l.id == "b3-queries").unwrap();
        let exercise = lesson
            .exercises
            .iter()
            .find(|e| e.rules.setup.is_some())
            .expect("b3-queries has an exercise with setup documents");
        let outcome = check_exercise(lesson, exercise, "db.products.find({}, {_id: 0})");
        assert!(!outcome.passed);
        assert!(outcome.message.contains("test documents at the edges"));
        let comparison = outcome
            .comparison
            .expect("the comparison survives the setup note");
        assert!(comparison.extra_total > 0, "{comparison:?}");
    }

    #[test]
    fn a_state_check_reads_a_sharded_cluster_through_its_router() {
        let mut shell = new_lesson_shell();
        let ev = shell.eval(
            "var st = new ShardingTest({shards: 2}); sh.enableSharding('social'); \
             sh.shardCollection('social.users', {user_name: 1}); \
             db.getSiblingDB('social').users.insertOne({_id: 1, user_name: 'Mike'})",
        );
        assert!(ev.error.is_none(), "{ev:?}");
        let docs = collection_contents(&mut shell, "social", "users");
        assert_eq!(docs, vec![doc! {"_id": 1, "user_name": "Mike"}]);
        // The shell's own engine, which the cluster replaced, holds nothing.
        let local = shell.with_engine(|e| {
            e.run_command("social", &doc! {"count": "users"})
                .get_i32("n")
                .unwrap_or(-1)
        });
        assert_eq!(local, 0);
    }

    #[test]
    fn stored_documents_differ_by_field_order() {
        let ab = vec![doc! {"a": 1, "b": 2}];
        let ba = vec![doc! {"b": 2, "a": 1}];
        assert!(same_documents_in_order(&ab, &ab.clone()));
        assert!(!same_documents_in_order(&ab, &ba));
        assert!(!same_documents_in_order(&ab, &[]));
    }

    #[test]
    fn multiset_comparison_ignores_order_unless_asked() {
        let a = vec![Bson::Int32(1), Bson::Int32(2), Bson::Int32(2)];
        let b = vec![Bson::Int32(2), Bson::Int32(1), Bson::Int32(2)];
        assert!(same_values(&a, &b, false));
        assert!(!same_values(&a, &b, true));
        let c = vec![Bson::Int32(1), Bson::Int32(1), Bson::Int32(2)];
        assert!(!same_values(&a, &c, false));
    }

    #[test]
    fn plans_are_judged_by_their_stages_and_documents_examined() {
        let covered = doc! {
            "queryPlanner": {"winningPlan": {"stage": "PROJECTION_COVERED", "inputStage": {"stage": "IXSCAN"}}},
            "executionStats": {"totalDocsExamined": 0},
        };
        let fetched = doc! {
            "queryPlanner": {"winningPlan": {"stage": "FETCH", "inputStage": {"stage": "IXSCAN"}}},
            "executionStats": {"totalDocsExamined": 3},
        };
        let scan = doc! {
            "queryPlanner": {"winningPlan": {"stage": "COLLSCAN"}},
            "executionStats": {"totalDocsExamined": 3},
        };
        assert!(judge_plan(&covered, PlanRequirement::Covered).passed);
        assert!(!judge_plan(&fetched, PlanRequirement::Covered).passed);
        assert!(judge_plan(&fetched, PlanRequirement::UsesIndex).passed);
        assert!(!judge_plan(&scan, PlanRequirement::UsesIndex).passed);
    }
}
