//! Lessons, the pure part: content written by hand in Markdown, parsed into [`Lesson`]s, a
//! step's output compared with its `expect` block as values (`output`), the typed plan tree of
//! an explain ([`ExplainPlan`]) and what a lesson points at in it ([`PlanSummary`]), and the
//! feedback a wrong answer gets ([`Comparison`]). No shell and no engine: the page's wasm uses
//! this crate. Playing steps and checking answers in a shell is `lesson-runner`'s job.
//!
//! The file format (see `docs/lessons.md`): front matter between `---` lines, then one `## ` section
//! per step (prose, an optional ```` ```zh ```` block, a ```` ```js ```` block and an optional
//! ```` ```expect ```` block) and `## Exercise: ` sections (prose, hints, a solution, wrong answers
//! and a check).

mod feedback;
mod model;
mod output;
mod parse;
mod plan_tree;
mod plan_view;

pub use feedback::{Comparison, PlanFactDifference, SHOWN};
pub use model::{AnswerRules, Check, Exercise, Lesson, PlanRequirement, Prose, Step};
pub use output::{
    OutputDifference, OutputItem, PrintedValue, compare_output, key_text, parse_output, parse_value,
};
pub use parse::{ParseError, parse_lesson};
pub use plan_tree::{ExplainPlan, PlanStage};
pub use plan_view::PlanSummary;

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
    lesson!("b7-scaling"),
    lesson!("b8-analytics"),
];

/// Parses every built-in lesson.
pub fn built_in() -> Result<Vec<Lesson>, ParseError> {
    BUILT_IN
        .iter()
        .map(|(name, src)| parse_lesson(name, src))
        .collect()
}
