//! Every step of every built-in lesson runs in a fresh shell (with the lesson's dataset) and must
//! show its expected text; every exercise's solution must pass its check and every wrong answer
//! must fail it.

use std::io::Write;

#[test]
fn every_lesson_step_shows_its_expected_output() {
    let lessons = lessons::built_in().expect("lessons parse");
    let mut steps = 0;
    let mut exercises = 0;
    let mut failures = Vec::new();
    for lesson in &lessons {
        match lessons::verify_lesson(lesson) {
            Ok(v) => {
                steps += v.steps;
                exercises += v.exercises;
            }
            Err(f) => failures.extend(f),
        }
    }
    for f in &failures {
        eprintln!(
            "{} step {} ({}):\n--- expected\n{}\n--- actual\n{}\n",
            f.lesson, f.step, f.title, f.expected, f.actual
        );
    }
    // Written straight to stderr so the summary shows even when the harness captures output
    // (eprintln! is captured; a direct write is not).
    let _ = writeln!(
        std::io::stderr().lock(),
        "lessons: {} lessons, {} steps verified, {} exercises checked",
        lessons.len(),
        steps,
        exercises
    );
    assert!(
        failures.is_empty(),
        "{} lesson steps or exercises fail",
        failures.len()
    );
}
