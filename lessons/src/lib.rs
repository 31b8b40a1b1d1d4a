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

/// Where the site serves the built-in lessons as one file (relative to the page and to the
/// shell worker's script): the browser build links no lesson text, it reads this file when a
/// lesson is first needed (`cargo xtask web-build` writes it from `content/`).
pub const BUNDLE_PATH: &str = "lessons/built-in.txt";

/// The line that starts each lesson in the bundle, followed by the lesson's file name; the
/// lesson's Markdown follows on the next lines, up to the next such line or the end.
pub const BUNDLE_MARK: &str = "<<<sprout-lesson ";

/// The bundle's text for `files` (file name, Markdown): what `cargo xtask web-build` writes for
/// the files of `content/`, in name order.
pub fn bundle(files: &[(&str, &str)]) -> String {
    let mut out = String::new();
    for (name, src) in files {
        out.push_str(BUNDLE_MARK);
        out.push_str(name);
        out.push('\n');
        out.push_str(src);
        if !src.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

/// Parses every lesson of a bundle ([`bundle`]'s format).
pub fn parse_bundle(text: &str) -> Result<Vec<Lesson>, ParseError> {
    split_bundle(text)
        .into_iter()
        .map(|(name, src)| parse_lesson(name, src))
        .collect()
}

/// The (file name, Markdown) pairs of a bundle. Text before the first mark is ignored.
fn split_bundle(text: &str) -> Vec<(&str, &str)> {
    let mut files = Vec::new();
    let mut rest = text;
    let mut current: Option<&str> = None;
    let mut start = 0;
    let mut offset = 0;
    while !rest.is_empty() {
        let line_end = rest.find('\n').map_or(rest.len(), |i| i + 1);
        let line = &rest[..line_end];
        if let Some(name) = line.strip_prefix(BUNDLE_MARK) {
            if let Some(prev) = current {
                files.push((prev, &text[start..offset]));
            }
            current = Some(name.trim_end());
            start = offset + line_end;
        }
        offset += line_end;
        rest = &rest[line_end..];
    }
    if let Some(prev) = current {
        files.push((prev, &text[start..]));
    }
    files
}

#[cfg(test)]
mod bundle_tests {
    use super::*;

    /// The bundle `xtask web-build` writes from `content/` holds exactly the built-in lessons, and
    /// parses back to them.
    #[test]
    fn the_bundle_of_content_is_the_built_in_lessons() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/content");
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".md"))
            .collect();
        names.sort();
        let mut listed: Vec<&str> = BUILT_IN.iter().map(|(n, _)| *n).collect();
        listed.sort();
        assert_eq!(names, listed, "content/ and BUILT_IN list the same files");
        let mut files = BUILT_IN.to_vec();
        files.sort();
        for (name, src) in &files {
            assert!(
                !src.contains(BUNDLE_MARK),
                "{name} contains the bundle's mark"
            );
        }
        let text = bundle(&files);
        assert_eq!(split_bundle(&text), files);
        let mut expected = built_in().unwrap();
        expected.sort_by(|a, b| a.id.cmp(&b.id));
        let mut parsed = parse_bundle(&text).unwrap();
        parsed.sort_by(|a, b| a.id.cmp(&b.id));
        assert_eq!(parsed, expected);
        assert_eq!(parse_bundle("").unwrap(), Vec::new());
    }
}
