//! Every step of every built-in lesson runs in a fresh shell (with the lesson's dataset) and must
//! show its expected output (compared as values: `lessons::compare_output`); every exercise's solution must pass its check and every wrong answer
//! must fail it.

use std::io::Write;

#[test]
fn every_lesson_step_shows_its_expected_output() {
    let lessons = lessons::built_in().expect("lessons parse");
    let mut steps = 0;
    let mut exercises = 0;
    let mut wrong_rejected = 0;
    let mut right_accepted = 0;
    let mut failures = Vec::new();
    for lesson in &lessons {
        match lesson_runner::verify_lesson(lesson) {
            Ok(v) => {
                steps += v.steps;
                exercises += v.exercises;
                wrong_rejected += v.wrong_rejected;
                right_accepted += v.right_accepted;
            }
            Err(f) => failures.extend(f),
        }
    }
    for f in &failures {
        let difference = f.difference.as_deref().unwrap_or("");
        eprintln!(
            "{} step {} ({}): {difference}\n--- expected\n{}\n--- actual\n{}\n",
            f.lesson, f.step, f.title, f.expected, f.actual
        );
    }
    // Written straight to stderr so the summary shows even when the harness captures output
    // (eprintln! is captured; a direct write is not).
    let _ = writeln!(
        std::io::stderr().lock(),
        "lessons: {} lessons, {steps} steps verified, {exercises} exercises checked, \
         {wrong_rejected} wrong answers rejected, {right_accepted} right answers accepted",
        lessons.len(),
    );
    assert!(
        failures.is_empty(),
        "{} lesson steps or exercises fail",
        failures.len()
    );
    // Every exercise was checked both ways: at least three wrong answers rejected and two right
    // answers accepted each (the per-exercise counts are checked by the test below).
    assert!(
        wrong_rejected >= 3 * exercises,
        "{wrong_rejected} wrong answers rejected"
    );
    assert!(
        right_accepted >= 2 * exercises,
        "{right_accepted} right answers accepted"
    );
}

/// Guards the structural comparison against falling back to text: an `expect` block that shows
/// a document or an array must read as a value (a line that does not read as one would only be
/// compared as text).
#[test]
fn expected_documents_and_arrays_read_as_values() {
    let lessons = lessons::built_in().expect("lessons parse");
    let mut values = 0;
    for lesson in &lessons {
        for (i, step) in lesson.steps.iter().enumerate() {
            let Some(expected) = &step.expect else {
                continue;
            };
            for item in lessons::parse_output(expected) {
                match item {
                    lessons::OutputItem::Value(_) => values += 1,
                    lessons::OutputItem::Text(t) => assert!(
                        !t.starts_with(['{', '[']),
                        "{} step {}: `{t}` does not read as a value",
                        lesson.id,
                        i + 1
                    ),
                    lessons::OutputItem::Error { .. } => {}
                }
            }
        }
    }
    assert!(values > 50, "only {values} expected values");
}

/// What the lessons issue asks of every built-in lesson: at least three exercises (each checked
/// both ways by the test above), and the simplified-Chinese text of its title, introduction,
/// steps and exercises (the page's 中文 switch shows English where it is missing).
#[test]
fn every_lesson_has_three_exercises_and_its_chinese_text() {
    let lessons = lessons::built_in().expect("lessons parse");
    let mut gaps = Vec::new();
    for lesson in &lessons {
        if lesson.exercises.len() < 3 {
            gaps.push(format!(
                "{}: {} exercises",
                lesson.id,
                lesson.exercises.len()
            ));
        }
        if lesson.title_zh.is_none() || lesson.intro.zh.is_none() {
            gaps.push(format!("{}: no Chinese title or introduction", lesson.id));
        }
        for step in &lesson.steps {
            let untranslated_prose = !step.prose.trim().is_empty() && step.prose_zh.is_none();
            if step.title_zh.is_none() || untranslated_prose {
                gaps.push(format!(
                    "{} step `{}`: no Chinese text",
                    lesson.id, step.title
                ));
            }
        }
        for exercise in &lesson.exercises {
            if exercise.title_zh.is_none() || exercise.prose_zh.is_none() {
                gaps.push(format!(
                    "{} exercise `{}`: no Chinese text",
                    lesson.id, exercise.title
                ));
            }
            if let Some(n) = exercise.hints.iter().position(|h| h.zh.is_none()) {
                gaps.push(format!(
                    "{} exercise `{}`: hint {} has no Chinese (a ```hint-zh block)",
                    lesson.id,
                    exercise.title,
                    n + 1
                ));
            }
        }
    }
    assert!(gaps.is_empty(), "{}", gaps.join("\n"));
}

/// What the lessons issue asks of every exercise: two or three graded hints (each with its
/// Chinese), at least three wrong answers that must fail (near misses: a boundary, a partial
/// update, a forbidden operator, a missing condition) and at least two right answers written
/// differently (the solution and one or more ```right blocks) that must pass.
#[test]
fn every_exercise_has_graded_hints_near_misses_and_two_right_answers() {
    let lessons = lessons::built_in().expect("lessons parse");
    let mut gaps = Vec::new();
    for lesson in &lessons {
        for exercise in &lesson.exercises {
            let at = format!("{} exercise `{}`", lesson.id, exercise.title);
            if !(2..=3).contains(&exercise.hints.len()) {
                gaps.push(format!("{at}: {} hints (2 or 3)", exercise.hints.len()));
            }
            if exercise.wrong.len() < 3 {
                gaps.push(format!(
                    "{at}: {} wrong answers (3 or more)",
                    exercise.wrong.len()
                ));
            }
            if exercise.right.is_empty() {
                gaps.push(format!("{at}: no ```right answer besides the solution"));
            }
        }
    }
    assert!(gaps.is_empty(), "{}", gaps.join("\n"));
}
