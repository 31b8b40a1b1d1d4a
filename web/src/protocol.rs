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

/// Page → worker: run one shell input.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Request {
    pub id: u64,
    pub input: String,
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
