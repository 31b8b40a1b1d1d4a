//! The lessons run in a shell: every step of a lesson played in a fresh, reproducible shell
//! (the lesson's dataset on a simulated clock with a fixed seed) and compared with its `expect`
//! block as values, and exercise answers checked by the engine (result sets, collection state,
//! query plans). The lesson model, parser and comparisons are the `lessons` crate, which the
//! page uses without linking the shell; this crate is for the shell worker, the tests and the
//! `bless` tool.

pub mod comparison;
mod runner;

pub use runner::{
    CheckOutcome, StepFailure, Verified, check_exercise, lesson_shell, new_lesson_shell,
    verify_lesson,
};
pub use shell::dataset::{DATASETS, Dataset, dataset, parse_dataset};
