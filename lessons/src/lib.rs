//! Lessons: content written by hand in Markdown, parsed into [`Lesson`]s, and a runner that plays
//! every step in a fresh, reproducible shell and checks what it prints.
//!
//! The file format (see `docs/lessons.md`): front matter between `---` lines, then one `## ` section
//! per step with prose, a ```` ```js ```` block (the command) and an optional ```` ```expect ````
//! block (the exact text the shell shows).

mod model;
mod parse;
mod runner;

pub use model::{Lesson, Step};
pub use parse::{ParseError, parse_lesson};
pub use runner::{StepFailure, new_lesson_shell, verify_lesson};

/// The lessons shipped with Sprout, as (file name, Markdown source).
pub const BUILT_IN: &[(&str, &str)] = &[("b1-tour.md", include_str!("../content/b1-tour.md"))];

/// Parses every built-in lesson.
pub fn built_in() -> Result<Vec<Lesson>, ParseError> {
    BUILT_IN
        .iter()
        .map(|(name, src)| parse_lesson(name, src))
        .collect()
}
