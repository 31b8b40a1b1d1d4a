//! The lesson requests the shell worker answers: a lesson's data in a fresh engine (its dataset,
//! then the steps before the learner's page, replayed), and the check of an exercise answer. Both
//! use the lessons crate as its tests do, so the page sees what `cargo test -p lessons` verifies.

use std::cell::{OnceCell, RefCell};

use lesson_runner::{CheckOutcome, check_exercise, lesson_shell};
use lessons::Lesson;
use shell::Shell;

use crate::worker::sidebar::collections_seen_by;

thread_local! {
    /// The built-in lessons, once read.
    static LESSONS: OnceCell<Vec<Lesson>> = const { OnceCell::new() };
    /// Lessons the page sent as Markdown (`RequestBody::DefineLesson`), newest last.
    static DEFINED: RefCell<Vec<Lesson>> = const { RefCell::new(Vec::new()) };
}

/// Parses a course author's lesson and keeps it (replacing one with the same id); its id, or the
/// parse error as `file:line: message`.
pub fn define(file: &str, markdown: &str) -> Result<String, String> {
    let lesson = lessons::parse_lesson(file, markdown).map_err(|e| e.to_string())?;
    let id = lesson.id.clone();
    DEFINED.with(|d| {
        let mut defined = d.borrow_mut();
        defined.retain(|l| l.id != id);
        defined.push(lesson);
    });
    Ok(id)
}

fn with_lesson<T>(id: &str, f: impl FnOnce(&Lesson) -> T) -> Result<T, String> {
    let defined = DEFINED.with(|d| d.borrow().iter().find(|l| l.id == id).cloned());
    if let Some(lesson) = defined {
        return Ok(f(&lesson));
    }
    LESSONS.with(|cell| {
        if cell.get().is_none() {
            // Verified by `cargo test -p lessons`: a parse error is a build problem, and the
            // worker then knows no built-in lesson rather than failing.
            let read = read_built_in()?;
            let _ = cell.set(lessons::parse_bundle(&read).unwrap_or_default());
        }
        cell.get()
            .into_iter()
            .flatten()
            .find(|l| l.id == id)
            .map(f)
            .ok_or_else(|| format!("no lesson called `{id}`"))
    })
}

/// The built-in lessons' bundle (`lessons::bundle`'s format). The worker's wasm links no lesson
/// text: it reads the site's `lessons/built-in.txt` the first time a built-in lesson is opened or
/// checked (a synchronous request, as for collation data; a failed read is that request's error,
/// and the next one tries again).
#[cfg(target_arch = "wasm32")]
fn read_built_in() -> Result<String, String> {
    let bytes = crate::worker::site_file::read(lessons::BUNDLE_PATH)?;
    String::from_utf8(bytes).map_err(|_| format!("{} is not UTF-8 text", lessons::BUNDLE_PATH))
}

/// Natively (the tests) the lessons are compiled in.
#[cfg(not(target_arch = "wasm32"))]
fn read_built_in() -> Result<String, String> {
    Ok(lessons::bundle(lessons::BUILT_IN))
}

/// A fresh lesson shell (simulated clock, fixed seed) with the lesson's dataset, after running
/// its first `replay` steps; and a line saying what data it holds.
pub fn open(id: &str, replay: usize) -> Result<(Shell, String), String> {
    with_lesson(id, |lesson| {
        let mut shell = lesson_shell(lesson)?;
        for step in lesson.steps.iter().take(replay) {
            // A replayed step that fails leaves the data as the learner would have it.
            let _ = shell.eval(&step.command);
        }
        let note = describe(&mut shell);
        Ok((shell, note))
    })?
}

/// "db.coll (n), …": what a lesson shell's connection sees (its engine, or the replica set or
/// sharded cluster the lesson started), as the sidebar lists it, less the servers' own
/// databases (a member's `local` oplog, a router's `config` metadata), which are not the
/// lesson's data.
fn describe(shell: &mut Shell) -> String {
    let parts: Vec<String> = collections_seen_by(shell)
        .into_iter()
        .filter(|c| !matches!(c.db.as_str(), "admin" | "config" | "local"))
        .map(|c| format!("{}.{} ({})", c.db, c.name, c.count))
        .collect();
    if parts.is_empty() {
        "(empty)".into()
    } else {
        parts.join(", ")
    }
}

/// Checks an answer to exercise `exercise` (from 0) of lesson `id` in a fresh lesson shell.
pub fn check(id: &str, exercise: usize, answer: &str) -> CheckOutcome {
    with_lesson(id, |lesson| match lesson.exercises.get(exercise) {
        Some(ex) => check_exercise(lesson, ex, answer),
        None => CheckOutcome {
            passed: false,
            message: format!("lesson `{id}` has no exercise {}", exercise + 1),
            comparison: None,
        },
    })
    .unwrap_or_else(|message| CheckOutcome {
        passed: false,
        message,
        comparison: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lesson_opens_with_its_dataset_and_replays_steps() {
        let (mut shell, note) = open("b5-optimizing", 0).unwrap();
        assert_eq!(note, "ecommerce.customers (5), ecommerce.products (10)");
        assert_eq!(shell.eval("db.products.getIndexes().length").text(), "1");
        // Step 3 creates the price index.
        let (mut shell, _) = open("b5-optimizing", 3).unwrap();
        assert_eq!(shell.eval("db.products.getIndexes().length").text(), "2");
        assert!(open("no-such-lesson", 0).is_err());
    }

    /// Cluster lessons keep their data in the replica set's members or the cluster's shards: the
    /// note names what the lesson's connection sees, not the shell's empty standalone engine.
    #[test]
    fn a_cluster_lessons_data_is_read_through_its_connection() {
        // b6 step 6 inserts three customers into the replica set rs1.
        let (_, note) = open("b6-managing", 6).unwrap();
        assert_eq!(note, "test.customers (3)");
        // b7 step 6 inserts nine customers through the router of a two-shard cluster.
        let (_, note) = open("b7-scaling", 6).unwrap();
        assert_eq!(note, "ecommerce.customers (9)");
        // An exercise page replays every step: the last design's inboxes are in the cluster.
        let (_, note) = open("b7-scaling", usize::MAX).unwrap();
        assert!(note.contains("social.inbox ("), "{note}");
    }

    #[test]
    fn a_defined_lesson_opens_and_checks_like_a_built_in_one() {
        let markdown = lessons::BUILT_IN
            .iter()
            .find(|(file, _)| file.starts_with("b5-"))
            .map(|(_, src)| src.replace("id: b5-optimizing", "id: my-b5"))
            .unwrap();
        assert_eq!(define("mine.md", &markdown), Ok("my-b5".to_string()));
        let (mut shell, note) = open("my-b5", 0).unwrap();
        assert_eq!(note, "ecommerce.customers (5), ecommerce.products (10)");
        assert_eq!(shell.eval("db.products.countDocuments()").text(), "10");
        assert!(check("my-b5", 0, "db.customers.createIndex({username: 1})").passed);
        let broken = define("broken.md", "---\nid: x\n");
        assert_eq!(
            broken,
            Err("broken.md:1: front matter is not closed".to_string())
        );
    }

    #[test]
    fn answers_are_checked_like_the_lesson_tests_do() {
        let right = check(
            "b5-optimizing",
            0,
            "db.customers.createIndex({username: 1})",
        );
        assert!(right.passed, "{right:?}");
        let wrong = check("b5-optimizing", 0, "db.customers.createIndex({email: 1})");
        assert!(!wrong.passed);
        assert!(wrong.message.contains("scans the collection"), "{wrong:?}");
        assert!(!check("b5-optimizing", 99, "1").passed);
    }
}
