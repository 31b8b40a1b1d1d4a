//! Plays a lesson's steps in a fresh shell and compares what each shows with its `expect` block.

use engine::Engine;
use engine::clock::SimulatedClock;
use shell::{Shell, ShellConfig};

use crate::model::Lesson;

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

/// Runs every step; returns the number of verified steps or the failures.
pub fn verify_lesson(lesson: &Lesson) -> Result<usize, Vec<StepFailure>> {
    let mut shell = new_lesson_shell();
    let mut failures = Vec::new();
    let mut verified = 0;
    for (i, step) in lesson.steps.iter().enumerate() {
        let ev = shell.eval(&step.command);
        let actual = ev.text();
        if let Some(expected) = &step.expect {
            if actual.trim_end() == expected.trim_end() {
                verified += 1;
            } else {
                failures.push(StepFailure {
                    lesson: lesson.id.clone(),
                    step: i + 1,
                    title: step.title.clone(),
                    expected: expected.clone(),
                    actual,
                });
            }
        }
    }
    if failures.is_empty() {
        Ok(verified)
    } else {
        Err(failures)
    }
}
