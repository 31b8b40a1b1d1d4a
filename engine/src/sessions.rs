//! The logical session cache: the sessions clients named in a command's `lsid`, and when each
//! was last used (what `$listLocalSessions` lists). A session is registered when a command that
//! names it starts, as the server's cache vivifies it.
//!
//! Sprout has no authentication, so every session belongs to the unauthenticated user, whose
//! digest (the `uid` of a session id) is MongoDB's `kNoAuthDigest`: SHA-256 of the empty string.

use bson::spec::BinarySubtype;
use bson::{Binary, Bson, DateTime, Document, doc};

/// SHA-256 of "" (the constant digest of sessions without an authenticated user).
const NO_AUTH_DIGEST: [u8; 32] = [
    0xe3, 0xb0, 0xc4, 0x42, 0x98, 0xfc, 0x1c, 0x14, 0x9a, 0xfb, 0xf4, 0xc8, 0x99, 0x6f, 0xb9, 0x24,
    0x27, 0xae, 0x41, 0xe4, 0x64, 0x9b, 0x93, 0x4c, 0xa4, 0x95, 0x99, 0x1b, 0x78, 0x52, 0xb8, 0x55,
];

/// The sessions seen, in the order they were first used.
#[derive(Debug, Default, Clone)]
pub struct SessionCache {
    sessions: Vec<(Vec<u8>, i64)>,
}

impl SessionCache {
    /// Registers (or refreshes) the session a command names in `lsid: {id: UUID}`.
    pub fn touch(&mut self, command: &Document, now_millis: i64) {
        let Ok(lsid) = command.get_document("lsid") else {
            return;
        };
        let Some(Bson::Binary(id)) = lsid.get("id") else {
            return;
        };
        if id.subtype != BinarySubtype::Uuid || id.bytes.len() != 16 {
            return;
        }
        match self.sessions.iter_mut().find(|(s, _)| *s == id.bytes) {
            Some((_, last_use)) => *last_use = now_millis,
            None => self.sessions.push((id.bytes.clone(), now_millis)),
        }
    }

    /// Each session as MongoDB's cache describes it: `{_id: {id, uid}, lastUse}`.
    pub fn records(&self) -> Vec<Document> {
        self.sessions
            .iter()
            .map(|(id, last_use)| {
                doc! {
                    "_id": {
                        "id": Binary { subtype: BinarySubtype::Uuid, bytes: id.clone() },
                        "uid": Binary { subtype: BinarySubtype::Generic, bytes: NO_AUTH_DIGEST.to_vec() },
                    },
                    "lastUse": DateTime::from_millis(*last_use),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use bson::spec::BinarySubtype;
    use bson::{Binary, doc};

    use super::SessionCache;

    #[test]
    fn sessions_are_registered_once_and_refreshed() {
        let id = Binary {
            subtype: BinarySubtype::Uuid,
            bytes: vec![7; 16],
        };
        let mut cache = SessionCache::default();
        cache.touch(&doc! {"find": "c", "lsid": {"id": id.clone()}}, 5);
        cache.touch(&doc! {"find": "c", "lsid": {"id": id.clone()}}, 9);
        cache.touch(&doc! {"find": "c"}, 11);
        cache.touch(&doc! {"find": "c", "lsid": {"id": 1}}, 12);
        let records = cache.records();
        assert_eq!(records.len(), 1);
        assert_eq!(
            records[0]
                .get_datetime("lastUse")
                .unwrap()
                .timestamp_millis(),
            9
        );
        let uid = records[0]
            .get_document("_id")
            .unwrap()
            .get_binary_generic("uid")
            .unwrap();
        assert_eq!(uid.len(), 32);
    }
}
