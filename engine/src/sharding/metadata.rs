//! The config servers' metadata, held by the router: shards, databases (each with its primary
//! shard), sharded collections (key, chunks), zones and the balancer's settings; and the same
//! metadata as the documents of the `config` database (`config.shards`, `config.databases`,
//! `config.collections`, `config.chunks`, `config.tags`, `config.settings`, `config.version`,
//! `config.changelog`) in MongoDB 8.0's shapes.

use bson::oid::ObjectId;
use bson::{Document, Timestamp, doc};

use super::chunk::ChunkTable;
use super::shard_key::ShardKey;

/// A shard as `config.shards` lists it.
#[derive(Debug, Clone)]
pub struct ShardEntry {
    pub id: String,
    /// `host:port` for a standalone, `set/host1,host2,...` for a replica set.
    pub host: String,
    pub zones: Vec<String>,
    pub topology_time: Timestamp,
}

/// A database as `config.databases` lists it.
#[derive(Debug, Clone)]
pub struct DatabaseEntry {
    pub name: String,
    pub primary: String,
    pub uuid: bson::Uuid,
    pub timestamp: Timestamp,
}

/// A sharded collection.
#[derive(Debug, Clone)]
pub struct CollectionEntry {
    pub namespace: String,
    pub key: ShardKey,
    pub unique: bool,
    pub uuid: bson::Uuid,
    pub epoch: ObjectId,
    pub timestamp: Timestamp,
    pub chunks: ChunkTable,
    pub no_balance: bool,
}

/// A zone range as `config.tags` lists it.
#[derive(Debug, Clone)]
pub struct ZoneRange {
    pub namespace: String,
    pub min: Document,
    pub max: Document,
    pub zone: String,
}

/// The cluster's metadata.
#[derive(Debug, Clone)]
pub struct ConfigMetadata {
    pub cluster_id: ObjectId,
    pub shards: Vec<ShardEntry>,
    pub databases: Vec<DatabaseEntry>,
    pub collections: Vec<CollectionEntry>,
    pub zones: Vec<ZoneRange>,
    pub balancer_stopped: bool,
    /// `config.changelog` entries (migrations, splits, sharded collections).
    pub changelog: Vec<Document>,
}

impl ConfigMetadata {
    pub fn new(cluster_id: ObjectId) -> Self {
        ConfigMetadata {
            cluster_id,
            shards: Vec::new(),
            databases: Vec::new(),
            collections: Vec::new(),
            zones: Vec::new(),
            balancer_stopped: false,
            changelog: Vec::new(),
        }
    }

    pub fn shard_ids(&self) -> Vec<String> {
        self.shards.iter().map(|s| s.id.clone()).collect()
    }

    pub fn shard(&self, id: &str) -> Option<&ShardEntry> {
        self.shards.iter().find(|s| s.id == id)
    }

    pub fn database(&self, name: &str) -> Option<&DatabaseEntry> {
        self.databases.iter().find(|d| d.name == name)
    }

    pub fn collection(&self, namespace: &str) -> Option<&CollectionEntry> {
        self.collections.iter().find(|c| c.namespace == namespace)
    }

    pub fn collection_mut(&mut self, namespace: &str) -> Option<&mut CollectionEntry> {
        self.collections
            .iter_mut()
            .find(|c| c.namespace == namespace)
    }

    /// The documents of one `config` collection.
    pub fn documents(&self, collection: &str) -> Vec<Document> {
        match collection {
            "shards" => self
                .shards
                .iter()
                .map(|s| {
                    let mut d = doc! {"_id": &s.id, "host": &s.host, "state": 1};
                    if !s.zones.is_empty() {
                        d.insert("tags", s.zones.clone());
                    }
                    d.insert("topologyTime", s.topology_time);
                    d.insert("replSetConfigVersion", -1_i64);
                    d
                })
                .collect(),
            "databases" => self
                .databases
                .iter()
                .map(|d| {
                    doc! {
                        "_id": &d.name,
                        "primary": &d.primary,
                        "version": {"uuid": d.uuid, "timestamp": d.timestamp, "lastMod": 1},
                    }
                })
                .collect(),
            "collections" => self
                .collections
                .iter()
                .map(|c| {
                    let (major, minor) = c.chunks.version();
                    let mut d = doc! {
                        "_id": &c.namespace,
                        "lastmodEpoch": c.epoch,
                        "lastmod": bson::DateTime::from_millis(c.timestamp.time as i64 * 1000),
                        "timestamp": c.timestamp,
                        "uuid": c.uuid,
                        "key": c.key.to_document(),
                        "unique": c.unique,
                        "chunksAlreadySplitForDownstream": true,
                        "version": Timestamp { time: major, increment: minor },
                    };
                    if c.no_balance {
                        d.insert("noBalance", true);
                    }
                    d
                })
                .collect(),
            "chunks" => self
                .collections
                .iter()
                .flat_map(|c| {
                    c.chunks.chunks.iter().enumerate().map(move |(i, chunk)| {
                        doc! {
                            "_id": ObjectId::from_bytes(chunk_id(&c.epoch, i)),
                            "uuid": c.uuid,
                            "min": c.key.key_document(&chunk.min),
                            "max": c.key.key_document(&chunk.max),
                            "shard": &chunk.shard,
                            "lastmod": chunk.lastmod(),
                            "onCurrentShardSince": c.timestamp,
                            "history": [{"validAfter": c.timestamp, "shard": &chunk.shard}],
                        }
                    })
                })
                .collect(),
            "tags" => self
                .zones
                .iter()
                .map(|z| {
                    doc! {"_id": {"ns": &z.namespace, "min": z.min.clone()}, "ns": &z.namespace,
                    "min": z.min.clone(), "max": z.max.clone(), "tag": &z.zone}
                })
                .collect(),
            "settings" => vec![doc! {
                "_id": "balancer",
                "mode": if self.balancer_stopped { "off" } else { "full" },
                "stopped": self.balancer_stopped,
            }],
            "version" => vec![doc! {"_id": 1, "clusterId": self.cluster_id}],
            "changelog" => self.changelog.clone(),
            _ => Vec::new(),
        }
    }
}

/// The names of the `config` collections the router writes.
pub const CONFIG_COLLECTIONS: &[&str] = &[
    "shards",
    "databases",
    "collections",
    "chunks",
    "tags",
    "settings",
    "version",
    "changelog",
];

/// A stable id for chunk `index` of a collection (from its epoch), so `config.chunks` reads
/// the same between two reads. It keeps the epoch's timestamp (bytes 0–3) and counter (9–11)
/// and puts the index in the process-unique bytes (4–8), which every epoch of one config
/// server shares: two collections sharded in the same second then still get distinct ids
/// (replacing the counter instead made their chunks collide, and `config.chunks` lost all
/// but the first collection's).
fn chunk_id(epoch: &ObjectId, index: usize) -> [u8; 12] {
    let mut bytes = epoch.bytes();
    bytes[4] = 0;
    bytes[5..9].copy_from_slice(&(index as u32).to_be_bytes());
    bytes
}
