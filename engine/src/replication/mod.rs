//! Replication: the pieces of a replica set that Sprout simulates in-process for teaching.
//!
//! `server_selection` is MongoDB's Server Selection specification as pure functions (which
//! member serves a read under a read preference).

pub mod server_selection;
