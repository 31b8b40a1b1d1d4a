//! What a share link carries, in its URL fragment (`#share=<code>`): a version, the commands the
//! learner typed, and, when it is small, the data (every collection's documents as relaxed
//! Extended JSON). The JSON below is deflated and base64url-encoded by `codec.rs`. A link made by
//! an older Sprout keeps opening: the version says how to read it, and fields added later are
//! optional.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The version this Sprout writes. Version 1: `{v, commands, data?}`.
pub const VERSION: u32 = 1;

/// At most this many documents go into a link (more: only the commands are shared).
pub const MAX_SHARED_DOCUMENTS: usize = 1_000;

/// At most this many bytes of JSON go into a link before compression (a larger state is refused:
/// a URL of several hundred kilobytes breaks in chat programs and some browsers).
pub const MAX_SHARED_JSON_BYTES: usize = 256 * 1024;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShareState {
    pub v: u32,
    /// The commands typed, in order.
    pub commands: Vec<String>,
    /// The data, when small enough; `None` when the link carries only commands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Vec<SharedCollection>>,
}

/// One collection's documents.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SharedCollection {
    pub db: String,
    pub name: String,
    pub docs: Vec<Value>,
}

impl ShareState {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a link's JSON; a link from a newer Sprout (a version this one does not know) or a
    /// damaged one is refused with a sentence saying so.
    pub fn from_json(text: &str) -> Result<ShareState, String> {
        let value: Value =
            serde_json::from_str(text).map_err(|e| format!("the share link is damaged ({e})"))?;
        let version = value.get("v").and_then(Value::as_u64).unwrap_or(0);
        if version == 0 || version > u64::from(VERSION) {
            return Err(format!(
                "the share link was made by a newer Sprout (state version {version}; this one reads up to {VERSION})"
            ));
        }
        serde_json::from_value(value).map_err(|e| format!("the share link is damaged ({e})"))
    }

    /// How many documents the link carries.
    pub fn document_count(&self) -> usize {
        self.data.iter().flatten().map(|c| c.docs.len()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_round_trip_and_versions_are_checked() {
        let state = ShareState {
            v: VERSION,
            commands: vec!["db.a.insertOne({x: 1})".into(), "db.a.find()".into()],
            data: Some(vec![SharedCollection {
                db: "test".into(),
                name: "a".into(),
                docs: vec![
                    serde_json::json!({"_id": {"$oid": "0123456789abcdef01234567"}, "x": 1}),
                ],
            }]),
        };
        let back = ShareState::from_json(&state.to_json()).unwrap();
        assert_eq!(back, state);
        assert_eq!(back.document_count(), 1);
        // A version-1 link without data (the field is optional).
        let old = ShareState::from_json(r#"{"v":1,"commands":["1+1"]}"#).unwrap();
        assert_eq!((old.commands.len(), old.data), (1, None));
        let newer = ShareState::from_json(r#"{"v":2,"commands":[]}"#).unwrap_err();
        assert!(newer.contains("newer Sprout"), "{newer}");
        assert!(ShareState::from_json("{").unwrap_err().contains("damaged"));
        assert!(ShareState::from_json(r#"{"commands":[]}"#).is_err());
    }
}
