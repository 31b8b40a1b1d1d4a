//! The cluster's admin commands as `mongos` runs them: `addShard`, `listShards`,
//! `enableSharding`, `shardCollection` (with MongoDB's checks on the shard key's index),
//! `split`, `moveChunk`, the balancer's switches and zones.

use bson::{Bson, Document, doc};

use super::chunk::ChunkTable;
use super::metadata::{CollectionEntry, ShardEntry, ZoneRange};
use super::router::Router;
use super::shard::ShardServer;
use super::shard_key::{KeyKind, ShardKey, compare_keys, has_array_on_paths};
use crate::error::{Error, ErrorCode, Result};
use crate::replication::ReplicaSet;

impl Router {
    /// Runs `name` when it is one of the cluster's admin commands.
    pub(super) fn admin_command(
        &mut self,
        _db: &str,
        name: &str,
        command: &Document,
    ) -> Result<Option<Document>> {
        let arg = command.get(name).cloned().unwrap_or(Bson::Null);
        let reply = match name.to_ascii_lowercase().as_str() {
            "addshard" => self.add_shard_command(&arg, command)?,
            "listshards" => doc! {"shards": self.metadata.documents("shards"), "ok": 1.0},
            "enablesharding" => {
                let db = string_arg(&arg, "enableSharding")?;
                if self.metadata.database(&db).is_none() {
                    self.primary_index(&db, true)?;
                }
                doc! {"ok": 1.0}
            }
            "shardcollection" => {
                let ns = string_arg(&arg, "shardCollection")?;
                let key = command.get_document("key").map_err(|_| {
                    Error::new(
                        ErrorCode::Location(40414),
                        "BSON field 'shardCollection.key' is missing but a required field",
                    )
                })?;
                let unique = command.get_bool("unique").unwrap_or(false);
                self.shard_collection(&ns, key, unique)?
            }
            "split" => {
                let ns = string_arg(&arg, "split")?;
                self.split_command(&ns, command)?
            }
            "movechunk" => {
                let ns = string_arg(&arg, "moveChunk")?;
                self.move_chunk_command(&ns, command)?
            }
            "balancerstart" => {
                self.metadata.balancer_stopped = false;
                doc! {"ok": 1.0}
            }
            "balancerstop" => {
                self.metadata.balancer_stopped = true;
                doc! {"ok": 1.0}
            }
            "balancerstatus" => doc! {
                "mode": if self.metadata.balancer_stopped { "off" } else { "full" },
                "inBalancerRound": false,
                "numBalancerRounds": self.balancer_rounds,
                "ok": 1.0,
            },
            "addshardtozone" | "removeshardfromzone" => {
                let shard = string_arg(&arg, name)?;
                let zone = command.get_str("zone").map_err(|_| {
                    Error::new(
                        ErrorCode::Location(40414),
                        format!("BSON field '{name}.zone' is missing but a required field"),
                    )
                })?;
                let Some(entry) = self.metadata.shards.iter_mut().find(|s| s.id == shard) else {
                    return Err(Error::new(
                        ErrorCode::ShardNotFound,
                        format!("Shard {shard} does not exist"),
                    ));
                };
                if name.eq_ignore_ascii_case("addShardToZone") {
                    if !entry.zones.iter().any(|z| z == zone) {
                        entry.zones.push(zone.to_string());
                    }
                } else {
                    entry.zones.retain(|z| z != zone);
                }
                doc! {"ok": 1.0}
            }
            "updatezonekeyrange" => {
                let ns = string_arg(&arg, "updateZoneKeyRange")?;
                self.update_zone_key_range(&ns, command)?
            }
            "flushrouterconfig" => doc! {"flushed": true, "ok": 1.0},
            _ => return Ok(None),
        };
        Ok(Some(reply))
    }

    /// Adds a shard: a standalone (`host:port`) or a replica set (`set/host1,host2`), started
    /// empty; the shard id is the set's name, else `shardNNNN` as MongoDB numbers them.
    pub fn add_shard(&mut self, host: &str, name: Option<&str>) -> Result<String> {
        if let Some(existing) = self.metadata.shards.iter().find(|s| s.host == host) {
            return Ok(existing.id.clone());
        }
        let (set_name, members) = match host.split_once('/') {
            Some((set, hosts)) => (
                Some(set),
                hosts
                    .split(',')
                    .filter(|h| !h.is_empty())
                    .collect::<Vec<_>>(),
            ),
            None => (None, vec![host]),
        };
        if members.is_empty() || members.iter().any(|h| h.trim().is_empty()) {
            return Err(Error::new(
                ErrorCode::FailedToParse,
                format!("Invalid connection string {host}"),
            ));
        }
        let id = name
            .map(str::to_string)
            .or_else(|| set_name.map(str::to_string))
            .unwrap_or_else(|| format!("shard{:04}", self.metadata.shards.len()));
        if self.shard_index(&id).is_some() {
            return Err(Error::new(
                ErrorCode::IllegalOperation,
                format!("A shard named {id} already exists"),
            ));
        }
        let server = match set_name {
            None => ShardServer::Standalone(Box::new(self.new_engine())),
            Some(set) => {
                let config = doc! {
                    "_id": set,
                    "members": members.iter().enumerate().map(|(i, h)| Bson::Document(doc! {"_id": i as i32, "host": *h})).collect::<Vec<_>>(),
                };
                self.counter += 1;
                let mut rs = ReplicaSet::initiate(
                    &config,
                    self.clock.clone(),
                    self.seed.wrapping_add(self.counter * 104_729),
                )?;
                rs.advance_clock(self.offset_ms);
                ShardServer::ReplicaSet(Box::new(rs))
            }
        };
        let topology_time = self.cluster_time();
        self.metadata.shards.push(ShardEntry {
            id: id.clone(),
            host: host.to_string(),
            zones: Vec::new(),
            topology_time,
        });
        self.servers.push(server);
        Ok(id)
    }

    fn add_shard_command(&mut self, arg: &Bson, command: &Document) -> Result<Document> {
        let host = string_arg(arg, "addShard")?;
        let id = self.add_shard(&host, command.get_str("name").ok())?;
        Ok(doc! {"shardAdded": id, "ok": 1.0})
    }

    /// `shardCollection`, as MongoDB 8.0 checks it: a unique index must have the key as a
    /// prefix; an index starting with the key must exist on a non-empty collection (and not
    /// be multikey); an empty collection gets one. The collection starts as one chunk on the
    /// database's primary shard (a hashed key on an empty collection: one chunk per shard).
    pub fn shard_collection(
        &mut self,
        ns: &str,
        key_doc: &Document,
        unique: bool,
    ) -> Result<Document> {
        let Some((db, coll)) = ns
            .split_once('.')
            .filter(|(d, c)| !d.is_empty() && !c.is_empty())
        else {
            return Err(Error::new(
                ErrorCode::InvalidNamespace,
                format!("Invalid namespace specified '{ns}'"),
            ));
        };
        let key = ShardKey::parse(key_doc)?;
        if let Some(existing) = self.metadata.collection(ns) {
            if existing.key == key {
                return Ok(doc! {"collectionsharded": ns, "ok": 1.0});
            }
            return Err(Error::new(
                ErrorCode::AlreadyInitialized,
                format!("sharding already enabled for collection {ns}"),
            ));
        }
        if unique && key.is_hashed() {
            return Err(Error::new(
                ErrorCode::InvalidOptions,
                "Hashed shard keys cannot be declared unique. It's possible to ensure uniqueness on the hashed field by declaring an additional (non-hashed) unique index on the field.",
            ));
        }
        let primary = self.primary_index(db, true)?;
        let indexes = self.servers[primary]
            .run_to_end(db, &doc! {"listIndexes": coll})
            .unwrap_or_default();
        let documents = self.servers[primary]
            .run_to_end(db, &doc! {"find": coll})
            .unwrap_or_default();
        for index in &indexes {
            let index_key = index.get_document("key").cloned().unwrap_or_default();
            let name = index.get_str("name").unwrap_or("");
            if index.get_bool("unique").unwrap_or(false)
                && name != "_id_"
                && !key_is_prefix(&key, &index_key)
            {
                return Err(Error::new(
                    ErrorCode::InvalidOptions,
                    format!(
                        "can't shard collection '{ns}' with unique index on {} and proposed shard key {}. Uniqueness can't be maintained unless shard key is a prefix",
                        super::show(&index_key),
                        super::show(key_doc)
                    ),
                ));
            }
        }
        let multikey = documents.iter().any(|d| has_array_on_paths(&key, d));
        let useful = indexes.iter().find(|index| {
            let index_key = index.get_document("key").cloned().unwrap_or_default();
            key_is_prefix(&key, &index_key)
                && !index.contains_key("partialFilterExpression")
                && !index.get_bool("sparse").unwrap_or(false)
        });
        match useful {
            Some(index) if multikey => {
                return Err(Error::new(
                    ErrorCode::InvalidOptions,
                    format!(
                        "Please create an index that starts with the proposed shard key before sharding the collection. Index {} cannot be used for sharding because it is a multikey index",
                        index.get_str("name").unwrap_or("")
                    ),
                ));
            }
            Some(_) => {}
            None if !documents.is_empty() => {
                return Err(Error::new(
                    ErrorCode::InvalidOptions,
                    "Please create an index that starts with the proposed shard key before sharding the collection. ",
                ));
            }
            None => {
                let name: Vec<String> = key
                    .fields
                    .iter()
                    .map(|(f, k)| match k {
                        KeyKind::Ascending => format!("{f}_1"),
                        KeyKind::Hashed => format!("{f}_hashed"),
                    })
                    .collect();
                let mut spec = doc! {"key": key.to_document(), "name": name.join("_")};
                if unique {
                    spec.insert("unique", true);
                }
                let reply = self.servers[primary]
                    .run_command(db, &doc! {"createIndexes": coll, "indexes": [spec]});
                if let Some(e) = crate::reply_error(&reply) {
                    return Err(e);
                }
            }
        }
        let primary_id = self.metadata.shards[primary].id.clone();
        let chunks = if key.is_hashed() && documents.is_empty() && self.metadata.shards.len() > 1 {
            hashed_initial_chunks(&key, &self.metadata.shard_ids())
        } else {
            ChunkTable::single(key.global_min(), key.global_max(), &primary_id)
        };
        let uuid = self.next_uuid();
        let epoch = self.config_server.new_object_id();
        let timestamp = self.cluster_time();
        let total: usize = documents
            .iter()
            .map(crate::value::bson_size::document_size)
            .sum();
        self.metadata.collections.push(CollectionEntry {
            namespace: ns.to_string(),
            key: key.clone(),
            unique,
            uuid,
            epoch,
            timestamp,
            chunks,
            no_balance: false,
        });
        // Indexes travel with chunks: every shard gets the collection and the key's index.
        self.copy_indexes_to_chunk_owners(db, coll, primary)?;
        if total > 0 {
            self.note_write(ns, 0, total);
        }
        let now = bson::DateTime::from_millis(self.now_millis());
        self.metadata.changelog.push(doc! {"what": "shardCollection.end", "ns": ns, "time": now, "details": {"shardKey": key.to_document(), "primary": primary_id}});
        Ok(doc! {"collectionsharded": ns, "ok": 1.0})
    }

    /// Makes sure every shard owning a chunk of `db.coll` has the collection with the primary
    /// shard's indexes.
    pub(super) fn copy_indexes_to_chunk_owners(
        &mut self,
        db: &str,
        coll: &str,
        from: usize,
    ) -> Result<()> {
        let ns = format!("{db}.{coll}");
        let owners = self.collection_shards(db, &ns);
        let indexes = self.servers[from]
            .run_to_end(db, &doc! {"listIndexes": coll})
            .unwrap_or_default();
        for to in owners.into_iter().filter(|&i| i != from) {
            self.ensure_collection_on(db, coll, to, &indexes)?;
        }
        Ok(())
    }

    pub(super) fn ensure_collection_on(
        &mut self,
        db: &str,
        coll: &str,
        to: usize,
        indexes: &[Document],
    ) -> Result<()> {
        self.servers[to].run_command(db, &doc! {"create": coll});
        let specs: Vec<Bson> = indexes
            .iter()
            .filter(|i| i.get_str("name").ok() != Some("_id_"))
            .map(|i| {
                let mut spec = i.clone();
                spec.remove("v");
                spec.remove("ns");
                Bson::Document(spec)
            })
            .collect();
        if !specs.is_empty() {
            let reply =
                self.servers[to].run_command(db, &doc! {"createIndexes": coll, "indexes": specs});
            if let Some(e) = crate::reply_error(&reply) {
                return Err(e);
            }
        }
        Ok(())
    }

    fn split_command(&mut self, ns: &str, command: &Document) -> Result<Document> {
        let key = self.sharded_key(ns)?;
        if let Ok(middle) = command.get_document("middle") {
            let at = key.values_of_bound(middle)?;
            self.collection_entry_mut(ns)?.chunks.split_at(at)?;
        } else if let Ok(find) = command.get_document("find") {
            let (db, coll) = ns.split_once('.').unwrap_or((ns, ""));
            let (shards, _) = self.target_shards(ns, find);
            let mut found = None;
            for i in shards {
                let docs = self.servers[i]
                    .run_to_end(db, &doc! {"find": coll, "filter": find.clone(), "limit": 1})?;
                if let Some(d) = docs.into_iter().next() {
                    found = Some(d);
                    break;
                }
            }
            let Some(document) = found else {
                return Err(Error::new(
                    ErrorCode::Location(40414),
                    "no document matches the split query",
                ));
            };
            let (_, chunk) = self.chunk_for_document(ns, &document)?;
            let median = self.median_key(ns, chunk)?.ok_or_else(|| {
                Error::new(
                    ErrorCode::Location(40416),
                    "the chunk holds a single shard key value and cannot be split",
                )
            })?;
            self.collection_entry_mut(ns)?.chunks.split_at(median)?;
        } else {
            return Err(Error::new(
                ErrorCode::InvalidOptions,
                "need to specify find or middle or bounds",
            ));
        }
        Ok(doc! {"ok": 1.0})
    }

    fn move_chunk_command(&mut self, ns: &str, command: &Document) -> Result<Document> {
        let key = self.sharded_key(ns)?;
        let to = command
            .get_str("to")
            .map_err(|_| {
                Error::new(
                    ErrorCode::Location(40414),
                    "BSON field 'moveChunk.to' is missing but a required field",
                )
            })?
            .to_string();
        let Some(to_index) = self.shard_index(&to) else {
            return Err(Error::new(
                ErrorCode::ShardNotFound,
                format!("Could not find shard {to}"),
            ));
        };
        let values = match (command.get_document("find"), command.get_array("bounds")) {
            // A query on the key's fields (`{"address.zip": 2492, registered: …}`): the key
            // its equalities fix; a document shaped like the key (`{address: {zip: …}}`) is
            // read as one.
            (Ok(find), _) => match super::targeting::target(&key, find).exact {
                Some(values) => values,
                None => key.extract(find)?,
            },
            (_, Ok(bounds)) => match bounds.first() {
                Some(Bson::Document(min)) => key.values_of_bound(min)?,
                _ => return Err(Error::bad_value("bounds must be [min, max]")),
            },
            _ => {
                return Err(Error::new(
                    ErrorCode::InvalidOptions,
                    "need to specify either find or bounds",
                ));
            }
        };
        let chunk = self.collection_entry_mut(ns)?.chunks.find(&values);
        self.migrate(ns, chunk, to_index)?;
        Ok(doc! {"millis": 0, "ok": 1.0})
    }

    fn update_zone_key_range(&mut self, ns: &str, command: &Document) -> Result<Document> {
        let min = command.get_document("min").cloned().unwrap_or_default();
        let max = command.get_document("max").cloned().unwrap_or_default();
        let zone = command.get("zone").cloned().unwrap_or(Bson::Null);
        if let Some(entry) = self.metadata.collection(ns) {
            let lo = entry.key.values_of_bound(&min)?;
            let hi = entry.key.values_of_bound(&max)?;
            if compare_keys(&lo, &hi).is_ge() {
                return Err(Error::bad_value(format!(
                    "min: {} should be less than max: {}",
                    super::show(&min),
                    super::show(&max)
                )));
            }
        }
        self.metadata
            .zones
            .retain(|z| !(z.namespace == ns && z.min == min && z.max == max));
        match zone {
            Bson::Null => {}
            Bson::String(zone) => {
                if !self.metadata.shards.iter().any(|s| s.zones.contains(&zone)) {
                    return Err(Error::new(
                        ErrorCode::Location(40414),
                        format!("zone {zone} does not exist"),
                    ));
                }
                self.metadata.zones.push(ZoneRange {
                    namespace: ns.to_string(),
                    min,
                    max,
                    zone,
                });
            }
            _ => return Err(Error::type_mismatch("zone must be a string or null")),
        }
        Ok(doc! {"ok": 1.0})
    }

    pub(super) fn sharded_key(&self, ns: &str) -> Result<ShardKey> {
        self.metadata
            .collection(ns)
            .map(|c| c.key.clone())
            .ok_or_else(|| {
                Error::new(
                    ErrorCode::NamespaceNotSharded,
                    format!("Collection {ns} is not sharded."),
                )
            })
    }

    pub(super) fn collection_entry_mut(&mut self, ns: &str) -> Result<&mut CollectionEntry> {
        self.metadata.collection_mut(ns).ok_or_else(|| {
            Error::new(
                ErrorCode::NamespaceNotSharded,
                format!("Collection {ns} is not sharded."),
            )
        })
    }
}

fn string_arg(arg: &Bson, name: &str) -> Result<String> {
    match arg {
        Bson::String(s) if !s.is_empty() => Ok(s.clone()),
        _ => Err(Error::type_mismatch(format!(
            "BSON field '{name}' is the wrong type, expected type 'string'"
        ))),
    }
}

/// Whether an index key starts with the shard key's fields, each of the same kind.
fn key_is_prefix(key: &ShardKey, index_key: &Document) -> bool {
    let fields: Vec<(&String, &Bson)> = index_key.iter().collect();
    key.fields.len() <= fields.len()
        && key
            .fields
            .iter()
            .zip(&fields)
            .all(|((name, kind), (iname, ivalue))| {
                name == *iname
                    && match kind {
                        KeyKind::Hashed => matches!(ivalue, Bson::String(s) if s == "hashed"),
                        KeyKind::Ascending => {
                            crate::value::as_i64(ivalue) == Some(1)
                                || matches!(ivalue, Bson::Double(d) if *d == 1.0)
                        }
                    }
            })
}

/// The chunks of a hashed key on an empty collection: the hash space cut evenly, one chunk
/// per shard.
fn hashed_initial_chunks(key: &ShardKey, shards: &[String]) -> ChunkTable {
    let mut table = ChunkTable::single(key.global_min(), key.global_max(), &shards[0]);
    let n = shards.len() as i128;
    let span = (i64::MAX as i128 - i64::MIN as i128 + 1) / n;
    for i in 1..n {
        let point = (i64::MIN as i128 + span * i) as i64;
        let mut at = key.global_min();
        let pos = key
            .fields
            .iter()
            .position(|(_, k)| *k == KeyKind::Hashed)
            .unwrap_or(0);
        at[pos] = Bson::Int64(point);
        for (j, v) in at.iter_mut().enumerate() {
            if j < pos {
                *v = Bson::MinKey;
            }
        }
        if pos == 0 {
            let _ = table.split_at(at);
        }
    }
    for (i, shard) in shards.iter().enumerate() {
        if i > 0 && i < table.chunks.len() {
            table.chunks[i].shard = shard.clone();
        }
    }
    table
}
