//! Messages between the page and the shell worker (JSON over `postMessage`).
//!
//! The page sends one [`Request`] at a time; the worker answers each with a [`Response::Done`]
//! carrying what the sidebar needs, so the page never reads engine state directly.

use serde::{Deserialize, Serialize};

/// A collection as the sidebar shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CollectionSummary {
    pub db: String,
    pub name: String,
    pub count: usize,
}

/// Page → worker: request `id`; the answer carries the same `id`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Request {
    pub id: u64,
    pub body: RequestBody,
}

/// What the page asks the worker to do. Add a variant per new kind of request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RequestBody {
    /// Run one shell input (a line or a multi-line block).
    Run { input: String },
    /// Replace the engine with a fresh lesson shell: lesson `lesson`'s dataset on the lessons'
    /// simulated clock and seed, then its first `replay` steps run silently. Its data is not
    /// written to IndexedDB. Answered with a line naming the collections loaded.
    OpenLesson { lesson: String, replay: usize },
    /// Back to the free playground: the engine reloaded from IndexedDB.
    CloseLesson,
    /// Check `answer` to exercise `exercise` (from 0) of lesson `lesson` in a fresh lesson shell
    /// (`lessons::check_exercise`). Answered with the verdict's message as `output` and
    /// `is_error` true unless the answer passed.
    CheckExercise {
        lesson: String,
        exercise: usize,
        answer: String,
    },
}

/// What the sidebar and prompt show after a command.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Catalog {
    pub collections: Vec<CollectionSummary>,
    pub current_db: String,
}

/// Worker → page.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Response {
    /// The worker has loaded the stored data and can take requests. `warning` says why data
    /// will not survive a reload (IndexedDB unavailable), if it will not.
    Ready {
        warning: Option<String>,
        catalog: Catalog,
    },
    /// The answer to request `id`.
    Done {
        id: u64,
        output: String,
        is_error: bool,
        catalog: Catalog,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lesson_requests_round_trip_through_json() {
        let r = Request {
            id: 4,
            body: RequestBody::CheckExercise {
                lesson: "b5-optimizing".into(),
                exercise: 0,
                answer: "db.c.createIndex({a: 1})".into(),
            },
        };
        let text = serde_json::to_string(&r).unwrap();
        assert!(text.contains(r#""kind":"check_exercise""#), "{text}");
        let back: Request = serde_json::from_str(&text).unwrap();
        assert_eq!(back.body, r.body);
        let open: RequestBody =
            serde_json::from_str(r#"{"kind":"open_lesson","lesson":"b4-indexing","replay":2}"#)
                .unwrap();
        assert_eq!(
            open,
            RequestBody::OpenLesson {
                lesson: "b4-indexing".into(),
                replay: 2
            }
        );
    }

    #[test]
    fn responses_round_trip_through_json() {
        let r = Response::Done {
            id: 7,
            output: "{ acknowledged: true }".into(),
            is_error: false,
            catalog: Catalog {
                collections: vec![CollectionSummary {
                    db: "test".into(),
                    name: "c".into(),
                    count: 1,
                }],
                current_db: "test".into(),
            },
        };
        let text = serde_json::to_string(&r).unwrap();
        assert!(text.starts_with(r#"{"kind":"done","id":7"#), "{text}");
        match serde_json::from_str::<Response>(&text).unwrap() {
            Response::Done { id, catalog, .. } => {
                assert_eq!(id, 7);
                assert_eq!(catalog.collections[0].name, "c");
            }
            other => panic!("{other:?}"),
        }
    }
}
