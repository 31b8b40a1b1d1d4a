//! Chunks: contiguous ranges `[min, max)` of a collection's key space, each owned by one
//! shard, with MongoDB's chunk version (`major|minor`: a migration bumps the major version, a
//! split the minor one). The chunks of a collection always cover the whole key space.

use std::cmp::Ordering;

use bson::{Bson, Timestamp};

use super::shard_key::{KeyValues, compare_keys};
use crate::error::{Error, ErrorCode, Result};

/// One chunk.
#[derive(Debug, Clone, PartialEq)]
pub struct Chunk {
    pub min: KeyValues,
    pub max: KeyValues,
    pub shard: String,
    /// `lastmod` as `Timestamp(major, minor)`.
    pub major: u32,
    pub minor: u32,
    /// Bytes inserted into the chunk since it was created or last split (the auto-splitter's
    /// estimate, as mongos's chunk write tracker kept it).
    pub bytes_written: usize,
}

impl Chunk {
    pub fn contains(&self, key: &[Bson]) -> bool {
        compare_keys(&self.min, key) != Ordering::Greater
            && compare_keys(key, &self.max) == Ordering::Less
    }

    /// Whether the chunk shares a point with the closed range `[low, high]`.
    pub fn overlaps(&self, low: &[Bson], high: &[Bson]) -> bool {
        compare_keys(&self.min, high) != Ordering::Greater
            && compare_keys(low, &self.max) == Ordering::Less
    }

    pub fn lastmod(&self) -> Timestamp {
        Timestamp {
            time: self.major,
            increment: self.minor,
        }
    }
}

/// The chunks of one sharded collection, sorted by `min`.
#[derive(Debug, Clone, PartialEq)]
pub struct ChunkTable {
    pub chunks: Vec<Chunk>,
}

impl ChunkTable {
    /// One chunk over the whole key space on `shard` (version 1|0).
    pub fn single(min: KeyValues, max: KeyValues, shard: &str) -> ChunkTable {
        ChunkTable {
            chunks: vec![Chunk {
                min,
                max,
                shard: shard.to_string(),
                major: 1,
                minor: 0,
                bytes_written: 0,
            }],
        }
    }

    /// The collection version: the highest chunk version.
    pub fn version(&self) -> (u32, u32) {
        self.chunks
            .iter()
            .map(|c| (c.major, c.minor))
            .max()
            .unwrap_or((1, 0))
    }

    /// The index of the chunk holding `key`.
    pub fn find(&self, key: &[Bson]) -> usize {
        self.chunks
            .iter()
            .position(|c| c.contains(key))
            .unwrap_or(self.chunks.len().saturating_sub(1))
    }

    /// Splits the chunk holding `at` so that `at` starts a new chunk. MongoDB's errors when
    /// `at` is already a chunk boundary (or the global minimum).
    pub fn split_at(&mut self, at: KeyValues) -> Result<()> {
        let index = self.find(&at);
        let chunk = &self.chunks[index];
        if compare_keys(&chunk.min, &at) == Ordering::Equal {
            return Err(Error::new(
                ErrorCode::Location(40416),
                "cannot split chunk at its lower bound: the split point is already a chunk \
                 boundary",
            ));
        }
        let (major, _) = self.version();
        let minor = self
            .chunks
            .iter()
            .filter(|c| c.major == major)
            .map(|c| c.minor)
            .max()
            .unwrap_or(0);
        let mut right = chunk.clone();
        right.min = at.clone();
        right.major = major;
        right.minor = minor + 2;
        right.bytes_written = 0;
        let left = &mut self.chunks[index];
        left.max = at;
        left.major = major;
        left.minor = minor + 1;
        left.bytes_written = 0;
        self.chunks.insert(index + 1, right);
        Ok(())
    }

    /// Gives chunk `index` to `shard`, as a migration does: the collection's major version
    /// goes up by one and the moved chunk takes it.
    pub fn move_chunk(&mut self, index: usize, shard: &str) {
        let (major, _) = self.version();
        let chunk = &mut self.chunks[index];
        chunk.shard = shard.to_string();
        chunk.major = major + 1;
        chunk.minor = 0;
    }

    /// How many chunks each shard in `shards` owns.
    pub fn counts(&self, shards: &[String]) -> Vec<(String, usize)> {
        shards
            .iter()
            .map(|s| {
                (
                    s.clone(),
                    self.chunks.iter().filter(|c| &c.shard == s).count(),
                )
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(i: i32) -> KeyValues {
        vec![Bson::Int32(i)]
    }

    #[test]
    fn splits_and_moves_bump_versions() {
        let mut table = ChunkTable::single(vec![Bson::MinKey], vec![Bson::MaxKey], "shard0000");
        table.split_at(key(10)).unwrap();
        assert_eq!(table.chunks.len(), 2);
        assert_eq!(table.version(), (1, 2));
        assert_eq!(table.find(&key(3)), 0);
        assert_eq!(table.find(&key(10)), 1);
        assert!(table.split_at(key(10)).is_err());
        table.move_chunk(1, "shard0001");
        assert_eq!(table.version(), (2, 0));
        assert_eq!(table.chunks[1].shard, "shard0001");
        let counts = table.counts(&["shard0000".into(), "shard0001".into()]);
        assert_eq!(
            counts,
            vec![("shard0000".into(), 1), ("shard0001".into(), 1)]
        );
        assert!(table.chunks[0].overlaps(&key(5), &key(20)));
        assert!(!table.chunks[1].overlaps(&key(1), &key(9)));
    }
}
