//! The lesson side of the page: the built-in lessons grouped into books, where the learner is in a
//! lesson, how a step's output compares with what the lesson expects, the learner's progress and
//! where it is kept. The components that show them are `components/lesson_*.rs`.

pub mod deep_link;
pub mod library;
pub mod progress;
pub mod progress_store;
pub mod prose;
pub mod session;
pub mod transcript;
pub mod verdict;
