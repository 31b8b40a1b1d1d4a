//! `hello` and its legacy spelling `isMaster` on a standalone server: what a mongod that is not
//! a replica-set member answers (MongoDB 8.0's field order, from the `hello` reference page,
//! https://www.mongodb.com/docs/v8.0/reference/command/hello/). A simulated replica set
//! answers for itself (`replication::set_commands`).

use bson::{Document, doc};

use crate::Engine;

/// `maxBsonObjectSize`: the largest document the server stores (16 MiB).
pub(crate) const MAX_BSON_OBJECT_SIZE: i32 = 16 * 1024 * 1024;
/// `maxMessageSizeBytes`: the largest wire-protocol message MongoDB accepts.
pub(crate) const MAX_MESSAGE_SIZE_BYTES: i32 = 48_000_000;
/// `maxWriteBatchSize`: the most statements one write command may carry.
pub(crate) const MAX_WRITE_BATCH_SIZE: i32 = 100_000;
/// `logicalSessionTimeoutMinutes`: MongoDB's default session timeout.
pub(crate) const LOGICAL_SESSION_TIMEOUT_MINUTES: i32 = 30;
/// `minWireVersion`/`maxWireVersion`: the wire protocol versions of MongoDB 8.0 (25 is 8.0's).
pub(crate) const MIN_WIRE_VERSION: i32 = 0;
pub(crate) const MAX_WIRE_VERSION: i32 = 25;
/// The in-process engine serves exactly one client connection, the first a mongod numbers.
const CONNECTION_ID: i32 = 1;

/// `{hello: 1}` (or `{isMaster: 1}` when `legacy`, which names the first field `ismaster`).
pub fn hello(engine: &Engine, legacy: bool) -> Document {
    let mut d = Document::new();
    d.insert(
        if legacy {
            "ismaster"
        } else {
            "isWritablePrimary"
        },
        true,
    );
    // A standalone's topology never changes: counter 0 for the life of the process.
    d.insert(
        "topologyVersion",
        doc! {"processId": engine.process_id(), "counter": 0_i64},
    );
    d.insert("maxBsonObjectSize", MAX_BSON_OBJECT_SIZE);
    d.insert("maxMessageSizeBytes", MAX_MESSAGE_SIZE_BYTES);
    d.insert("maxWriteBatchSize", MAX_WRITE_BATCH_SIZE);
    d.insert(
        "localTime",
        bson::DateTime::from_millis(engine.now_millis()),
    );
    d.insert(
        "logicalSessionTimeoutMinutes",
        LOGICAL_SESSION_TIMEOUT_MINUTES,
    );
    d.insert("connectionId", CONNECTION_ID);
    d.insert("minWireVersion", MIN_WIRE_VERSION);
    d.insert("maxWireVersion", MAX_WIRE_VERSION);
    d.insert("readOnly", false);
    d.insert("ok", 1.0);
    d
}

#[cfg(test)]
mod tests {
    use bson::{Bson, doc};

    use crate::Engine;
    use crate::clock::SimulatedClock;

    fn engine() -> Engine {
        Engine::with_clock(Box::new(SimulatedClock::new(1_700_000_000_000)), 7)
    }

    #[test]
    fn hello_answers_as_a_standalone_mongod() {
        let mut e = engine();
        let reply = e.run_command("test", &doc! {"hello": 1});
        let keys: Vec<&str> = reply.keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "isWritablePrimary",
                "topologyVersion",
                "maxBsonObjectSize",
                "maxMessageSizeBytes",
                "maxWriteBatchSize",
                "localTime",
                "logicalSessionTimeoutMinutes",
                "connectionId",
                "minWireVersion",
                "maxWireVersion",
                "readOnly",
                "ok"
            ]
        );
        assert_eq!(reply.get_bool("isWritablePrimary").ok(), Some(true));
        assert_eq!(reply.get_i32("maxBsonObjectSize").ok(), Some(16_777_216));
        assert_eq!(reply.get_i32("maxMessageSizeBytes").ok(), Some(48_000_000));
        assert_eq!(reply.get_i32("maxWriteBatchSize").ok(), Some(100_000));
        assert_eq!(reply.get_i32("logicalSessionTimeoutMinutes").ok(), Some(30));
        assert_eq!(reply.get_i32("maxWireVersion").ok(), Some(25));
        assert_eq!(reply.get_bool("readOnly").ok(), Some(false));
        assert_eq!(
            reply.get("localTime"),
            Some(&Bson::DateTime(bson::DateTime::from_millis(
                1_700_000_000_000
            )))
        );
        let tv = reply.get_document("topologyVersion").unwrap();
        assert_eq!(tv.get_i64("counter").ok(), Some(0));
        // The process id stays the same from one hello to the next.
        let again = e.run_command("admin", &doc! {"hello": 1});
        assert_eq!(again.get_document("topologyVersion").unwrap(), tv);
    }

    #[test]
    fn local_time_follows_the_clock() {
        let mut e = engine();
        e.advance_clock(5_000);
        let reply = e.run_command("admin", &doc! {"hello": 1});
        assert_eq!(
            reply.get_datetime("localTime").unwrap().timestamp_millis(),
            1_700_000_005_000
        );
    }

    #[test]
    fn is_master_names_its_first_field_ismaster() {
        let mut e = engine();
        for name in ["isMaster", "ismaster"] {
            let reply = e.run_command("admin", &doc! {name: 1});
            assert_eq!(reply.keys().next().map(String::as_str), Some("ismaster"));
            assert_eq!(reply.get_bool("ismaster").ok(), Some(true));
            assert!(!reply.contains_key("isWritablePrimary"));
            assert_eq!(reply.get_f64("ok").ok(), Some(1.0));
        }
    }
}
