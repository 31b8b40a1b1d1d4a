//! Every step of every built-in lesson runs in a fresh shell and must show its expected text.

use std::io::Write;

#[test]
fn every_lesson_step_shows_its_expected_output() {
    let lessons = lessons::built_in().expect("lessons parse");
    let mut steps = 0;
    let mut failures = Vec::new();
    for lesson in &lessons {
        match lessons::verify_lesson(lesson) {
            Ok(n) => steps += n,
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
        "lessons: {} lessons, {} steps verified, 0 exercises checked",
        lessons.len(),
        steps
    );
    assert!(
        failures.is_empty(),
        "{} lesson steps differ",
        failures.len()
    );
}
