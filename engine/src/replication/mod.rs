//! Replication: a replica set simulated in-process for teaching (no network, deterministic,
//! driven by the injected clock).
//!
//! - `server_selection`: MongoDB's Server Selection specification as pure functions (which
//!   member serves a read under a read preference).
//! - `config`: the set's configuration (`rs.conf()`) and its validation.
//! - `oplog`: entries in `local.oplog.rs`'s shape, each carrying the changes to apply.
//! - `apply`: a member applying entries (and copying another member's data).
//! - `replica_set`: members, replication over simulated time, elections.
//! - `write_concern`: `w`/`wtimeout` against the set.
//! - `set_commands`: the commands a client connected to the set runs.

mod apply;
pub mod config;
pub mod oplog;
pub mod replica_set;
pub mod server_selection;
pub mod set_commands;
pub mod write_concern;

pub use replica_set::{MemberState, ReplicaSet};

#[cfg(test)]
mod replica_set_tests;
