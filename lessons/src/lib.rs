//! Lessons: content written by hand in Markdown, parsed into [`Lesson`]s, datasets loaded before a
//! lesson starts, a runner that plays every step in a fresh, reproducible shell and compares what
//! it prints with the step's `expect` block as values (`output`), and exercise checks done by the engine (result sets, collection state, query plans).
//!
//! The file format (see `docs/lessons.md`): front matter between `---` lines, then one `## ` section
//! per step (prose, an optional ```` ```zh ```` block, a ```` ```js ```` block and an optional
//! ```` ```expect ```` block) and `## Exercise: ` sections (prose, hints, a solution, wrong answers
//! and a check).

mod feedback;
mod model;
mod output;
mod parse;
mod plan_view;
mod runner;

pub use feedback::{Comparison, PlanFactDifference};
pub use model::{AnswerRules, Check, Exercise, Lesson, PlanRequirement, Prose, Step};
pub use output::{
    OutputDifference, OutputItem, PrintedValue, compare_output, parse_output, parse_value,
};
pub use parse::{ParseError, parse_lesson};
pub use plan_view::PlanSummary;
pub use runner::{
    CheckOutcome, StepFailure, Verified, check_exercise, lesson_shell, new_lesson_shell,
    verify_lesson,
};
pub use shell::dataset::{DATASETS, Dataset, dataset, parse_dataset};

/// A built-in lesson by its file stem: `(file name, Markdown source)`.
macro_rules! lesson {
    ($stem:literal) => {
        (
            concat!($stem, ".md"),
            include_str!(concat!("../content/", $stem, ".md")),
        )
    };
}

/// The lessons shipped with Sprout, as (file name, Markdown source), book A's tips first, then
/// book B's chapters.
pub const BUILT_IN: &[(&str, &str)] = &[
    lesson!("a1-duplicate-or-reference"),
    lesson!("a2-future-proof"),
    lesson!("a3-single-query"),
    lesson!("a4-embed-dependent"),
    lesson!("a5-point-in-time"),
    lesson!("a6-unbounded-growth"),
    lesson!("a7-prepopulate"),
    lesson!("a8-preallocate"),
    lesson!("a9-arrays"),
    lesson!("a10-self-sufficient"),
    lesson!("a11-operators"),
    lesson!("a12-aggregate-as-you-go"),
    lesson!("a13-integrity"),
    lesson!("b1-tour"),
    lesson!("b2-modeling"),
    lesson!("b3-queries"),
    lesson!("b3-writes"),
    lesson!("b4-indexes"),
    lesson!("b4-special-indexes"),
    lesson!("b5-optimizing"),
    lesson!("b6-managing"),
];

/// Parses every built-in lesson.
pub fn built_in() -> Result<Vec<Lesson>, ParseError> {
    BUILT_IN
        .iter()
        .map(|(name, src)| parse_lesson(name, src))
        .collect()
}
