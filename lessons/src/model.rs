//! The lesson model.

/// One lesson: a chapter of book B or a tip of book A.
#[derive(Debug, Clone, PartialEq)]
pub struct Lesson {
    pub id: String,
    pub title: String,
    /// Which book and part it covers, e.g. "B1" or "A3".
    pub source: String,
    pub steps: Vec<Step>,
}

/// One runnable step.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub title: String,
    /// What to notice, in our own words.
    pub prose: String,
    pub command: String,
    /// The exact text the shell shows, when the step is verified.
    pub expect: Option<String>,
}
