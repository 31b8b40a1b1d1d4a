//! Lessons: content written by hand in Markdown, parsed into [`Lesson`]s, datasets loaded before a
//! lesson starts, a runner that plays every step in a fresh, reproducible shell and checks what it
//! prints, and exercise checks done by the engine (result sets, collection state, query plans).
//!
//! The file format (see `docs/lessons.md`): front matter between `---` lines, then one `## ` section
//! per step (prose, an optional ```` ```zh ```` block, a ```` ```js ```` block and an optional
//! ```` ```expect ```` block) and `## Exercise: ` sections (prose, hints, a solution, wrong answers
//! and a check).

mod dataset;
mod model;
mod parse;
mod plan_view;
mod runner;

pub use dataset::{DATASETS, Dataset, dataset, parse_dataset};
pub use model::{Check, Exercise, Lesson, PlanRequirement, Prose, Step};
pub use parse::{ParseError, parse_lesson};
pub use plan_view::PlanSummary;
pub use runner::{
    CheckOutcome, StepFailure, Verified, check_exercise, lesson_shell, new_lesson_shell,
    verify_lesson,
};

/// The lessons shipped with Sprout, as (file name, Markdown source).
pub const BUILT_IN: &[(&str, &str)] = &[
    ("a9-arrays.md", include_str!("../content/a9-arrays.md")),
    (
        "a10-self-sufficient.md",
        include_str!("../content/a10-self-sufficient.md"),
    ),
    ("b1-tour.md", include_str!("../content/b1-tour.md")),
    ("b2-modeling.md", include_str!("../content/b2-modeling.md")),
    ("b3-queries.md", include_str!("../content/b3-queries.md")),
    ("b4-indexing.md", include_str!("../content/b4-indexing.md")),
    (
        "b5-optimizing.md",
        include_str!("../content/b5-optimizing.md"),
    ),
];

/// Parses every built-in lesson.
pub fn built_in() -> Result<Vec<Lesson>, ParseError> {
    BUILT_IN
        .iter()
        .map(|(name, src)| parse_lesson(name, src))
        .collect()
}
