//! Sharding: a sharded cluster simulated in-process for teaching (no network, deterministic,
//! driven by the injected clock), in MongoDB's own terms.
//!
//! - `shard_key`: key patterns (range and hashed), key values of documents, their order.
//! - `chunk`: chunks (`[min, max)` ranges owned by a shard) with chunk versions.
//! - `targeting`: which chunks (so which shards) a query filter can touch.
//! - `metadata`: the config servers' metadata and the `config` database's documents.
//! - `shard`: a shard's server, a standalone engine or a simulated replica set.
//! - `router`: `mongos`: where each command goes.
//! - `admin_commands`: `addShard`, `enableSharding`, `shardCollection`, `split`,
//!   `moveChunk`, the balancer's switches, zones.
//! - `reads`, `writes`: reads and writes of sharded collections, merged across shards.
//! - `balancer`: chunk splits, migrations and balancer rounds over simulated time.
//! - `explain`: the sharded explain shapes (`SINGLE_SHARD`, `SHARD_MERGE`...).

mod admin_commands;
mod balancer;
pub mod chunk;
mod explain;
pub mod metadata;
mod reads;
pub mod router;
pub mod shard;
pub mod shard_key;
mod split_group;
pub mod targeting;
mod writes;

pub use router::Router;

/// A document as the server writes it inside error messages (`{ a: 1 }`).
pub(crate) fn show(d: &bson::Document) -> String {
    crate::value::display::key_value(&bson::Bson::Document(d.clone()))
}

#[cfg(test)]
mod router_tests;
