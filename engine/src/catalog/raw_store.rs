//! The stored documents' BSON bytes, one after another in one buffer, beside the document
//! trees: a collection scan reads a filter's fields from them (`matcher::Filter::matches_raw`)
//! instead of walking each document's separately allocated fields and names, which made the
//! scan memory-bound (`docs/performance.md`, sessions 11 to 13).
//!
//! The bytes are a copy kept in step with the records by [`super::Collection`]: every record
//! has an entry here (with no bytes when its document could not be encoded; a scan then reads
//! the document). A replaced or removed document's bytes stay in the buffer as garbage until
//! garbage is half of it; then the buffer is rewritten in record order.

use std::cell::RefCell;

use bson::Document;

use super::scan_columns::ScanColumns;

/// Where a record's bytes are in the buffer (`len` 0: none kept; `start` [`GONE`]: the record
/// was removed, a tombstone until the next rewrite).
#[derive(Debug, Clone, Copy, Default)]
struct Place {
    start: usize,
    len: usize,
}

const GONE: usize = usize::MAX;

#[derive(Debug, Default)]
pub struct RawStore {
    bytes: Vec<u8>,
    /// Record ids and their places in record-id order (records are mostly appended: a new
    /// record id is the largest), so a scan walks a vector rather than a tree.
    places: Vec<(u64, Place)>,
    /// Bytes of replaced or removed documents still in `bytes`.
    garbage: usize,
    /// Tombstones in `places`.
    gone: usize,
    /// Value columns of fields that scans asked for twice since the last write (a cell: scans
    /// read the store through `&self`; the engine is single-threaded and nothing holds the
    /// columns across a write, which needs `&mut self`). Emptied by every write.
    columns: RefCell<ScanColumns>,
}

impl Clone for RawStore {
    /// The data; the copy builds its own columns.
    fn clone(&self) -> Self {
        RawStore {
            bytes: self.bytes.clone(),
            places: self.places.clone(),
            garbage: self.garbage,
            gone: self.gone,
            columns: RefCell::default(),
        }
    }
}

impl RawStore {
    fn position(&self, record_id: u64) -> Result<usize, usize> {
        match self.places.last() {
            None => Err(0),
            Some((last, _)) if *last < record_id => Err(self.places.len()),
            _ => {
                // Record ids are handed out in order and mostly kept, so a record is usually
                // found at its distance from the first one: one probe instead of a binary
                // search's cache misses (14% of a point lookup by the express path,
                // `docs/performance.md`, session 15).
                let guess = record_id.wrapping_sub(self.places[0].0);
                if let Some((r, _)) = usize::try_from(guess).ok().and_then(|g| self.places.get(g))
                    && *r == record_id
                {
                    return Ok(guess as usize);
                }
                self.places.binary_search_by_key(&record_id, |(r, _)| *r)
            }
        }
    }

    /// Keeps `encoded` (the document's BSON, when the caller has it) or the document's encoding
    /// as the bytes of `record_id`, replacing any earlier ones.
    pub fn put(&mut self, record_id: u64, doc: &Document, encoded: Option<&[u8]>) {
        self.columns.get_mut().clear();
        let start = self.bytes.len();
        match encoded {
            Some(b) => self.bytes.extend_from_slice(b),
            None => {
                if let Ok(b) = doc.to_vec() {
                    self.bytes.extend_from_slice(&b);
                }
            }
        }
        let place = Place {
            start,
            len: self.bytes.len() - start,
        };
        match self.position(record_id) {
            Ok(i) => {
                let old = std::mem::replace(&mut self.places[i].1, place);
                if old.start == GONE {
                    self.gone -= 1;
                } else {
                    self.garbage += old.len;
                }
                self.compact_if_needed();
            }
            Err(i) => self.places.insert(i, (record_id, place)),
        }
    }

    /// Keeps `bytes` (a document's exact encoding) as the bytes of a new record, `record_id`
    /// above every record's.
    pub fn put_bytes(&mut self, record_id: u64, bytes: &[u8]) {
        debug_assert!(self.places.last().is_none_or(|(last, _)| *last < record_id));
        self.columns.get_mut().clear();
        let start = self.bytes.len();
        self.bytes.extend_from_slice(bytes);
        self.places.push((
            record_id,
            Place {
                start,
                len: bytes.len(),
            },
        ));
    }

    /// Forgets the bytes of `record_id`.
    pub fn remove(&mut self, record_id: u64) {
        self.columns.get_mut().clear();
        if let Ok(i) = self.position(record_id)
            && self.places[i].1.start != GONE
        {
            let old = std::mem::replace(
                &mut self.places[i].1,
                Place {
                    start: GONE,
                    len: 0,
                },
            );
            self.garbage += old.len;
            self.gone += 1;
            self.compact_if_needed();
        }
    }

    /// The bytes of `record_id` (`None` when there is no such record or none were kept).
    pub fn get(&self, record_id: u64) -> Option<&[u8]> {
        let p = self.places[self.position(record_id).ok()?].1;
        (p.start != GONE && p.len > 0).then(|| &self.bytes[p.start..p.start + p.len])
    }

    /// Every record's id and bytes in record-id order (an empty slice where none were kept).
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (u64, &[u8])> {
        self.places
            .iter()
            .filter(|(_, p)| p.start != GONE)
            .map(|(r, p)| (*r, &self.bytes[p.start..p.start + p.len]))
    }

    /// Calls `each` with every record's id and bytes, in record order (backwards when not
    /// `forward`), as [`Self::iter`] gives them, until it returns false: a scan's loop as one
    /// plain loop (the iterator's `filter` and `map` closures were each a call per record in the
    /// size-optimised wasm build, session 18).
    pub fn for_each<'s>(&'s self, forward: bool, mut each: impl FnMut(u64, &'s [u8]) -> bool) {
        self.for_each_at(forward, |_, r, b| each(r, b));
    }

    /// [`Self::for_each`], with each record's position (what indexes a column of
    /// [`Self::columns`]).
    #[inline(always)]
    pub fn for_each_at<'s>(
        &'s self,
        forward: bool,
        mut each: impl FnMut(usize, u64, &'s [u8]) -> bool,
    ) {
        // Slices, not the vectors: `Vec`'s indexing was not inlined there either.
        let places = self.places.as_slice();
        let bytes = self.bytes.as_slice();
        let n = places.len();
        for k in 0..n {
            let at = if forward { k } else { n - 1 - k };
            let Some(&(r, p)) = places.get(at) else {
                return;
            };
            if p.start != GONE && !each(at, r, &bytes[p.start..p.start + p.len]) {
                return;
            }
        }
    }

    /// The value columns of the top-level fields `names` (see `scan_columns`), when each has
    /// one: built the second time a scan asks for a field since the last write, never the
    /// first. `None`: read the bytes.
    pub fn columns(&self, names: &[&str]) -> Option<std::cell::Ref<'_, ScanColumns>> {
        let ready = self
            .columns
            .borrow_mut()
            .prepare(names, self.places.len(), |at| {
                let (_, p) = *self.places.get(at)?;
                (p.start != GONE).then(|| &self.bytes[p.start..p.start + p.len])
            });
        ready.then(|| self.columns.borrow())
    }

    fn compact_if_needed(&mut self) {
        let bytes_wasted = self.garbage >= 4096 && self.garbage * 2 >= self.bytes.len();
        let places_wasted = self.gone >= 1024 && self.gone * 2 >= self.places.len();
        if !bytes_wasted && !places_wasted {
            return;
        }
        let mut bytes = Vec::with_capacity(self.bytes.len() - self.garbage);
        self.places.retain(|(_, p)| p.start != GONE);
        for (_, p) in &mut self.places {
            let start = bytes.len();
            bytes.extend_from_slice(&self.bytes[p.start..p.start + p.len]);
            p.start = start;
        }
        self.bytes = bytes;
        self.columns.get_mut().clear();
        self.garbage = 0;
        self.gone = 0;
    }
}

#[cfg(test)]
mod tests {
    use bson::doc;

    use super::*;

    #[test]
    fn for_each_gives_what_iter_gives_both_ways_and_stops_when_told() {
        let mut s = RawStore::default();
        for rid in 1..=30u64 {
            s.put(rid, &doc! {"_id": rid as i64}, None);
        }
        for rid in [3u64, 4, 17, 30] {
            s.remove(rid);
        }
        for forward in [true, false] {
            let want: Vec<(u64, Vec<u8>)> = if forward {
                s.iter().map(|(r, b)| (r, b.to_vec())).collect()
            } else {
                s.iter().rev().map(|(r, b)| (r, b.to_vec())).collect()
            };
            let mut got = Vec::new();
            s.for_each(forward, |r, b| {
                got.push((r, b.to_vec()));
                true
            });
            assert_eq!(got, want);
            let mut first = Vec::new();
            s.for_each(forward, |r, _| {
                first.push(r);
                first.len() < 5
            });
            assert_eq!(
                first,
                want.iter().take(5).map(|(r, _)| *r).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn bytes_follow_puts_and_removes_and_survive_compaction() {
        let mut s = RawStore::default();
        let big = "x".repeat(1000);
        for rid in 1..=20u64 {
            s.put(rid, &doc! {"_id": rid as i64, "s": &big}, None);
        }
        // Replacing and removing leaves garbage; past half of the buffer it is rewritten.
        for rid in 1..=15u64 {
            if rid % 2 == 0 {
                s.remove(rid);
            } else {
                let d = doc! {"_id": rid as i64, "v": 2};
                let encoded = d.to_vec().unwrap();
                s.put(rid, &d, Some(&encoded));
            }
        }
        assert!(s.garbage * 2 < s.bytes.len().max(4096 * 2));
        assert_eq!(s.iter().count(), 20 - 7);
        // A record id below the others goes in its place; a removed one can come back.
        s.put(0, &doc! {"_id": 0_i64}, None);
        s.remove(0);
        s.put(0, &doc! {"_id": 0_i64}, None);
        assert_eq!(s.iter().next().map(|(r, _)| r), Some(0));
        s.remove(0);
        for rid in 1..=20u64 {
            let got = s.get(rid).map(|b| bson::Document::from_reader(b).unwrap());
            let want = if rid > 15 {
                Some(doc! {"_id": rid as i64, "s": &big})
            } else if rid % 2 == 0 {
                None
            } else {
                Some(doc! {"_id": rid as i64, "v": 2})
            };
            assert_eq!(got, want, "record {rid}");
        }
        let in_order: Vec<i64> = s
            .iter()
            .map(|(_, b)| {
                bson::Document::from_reader(b)
                    .unwrap()
                    .get_i64("_id")
                    .unwrap()
            })
            .collect();
        assert!(in_order.windows(2).all(|w| w[0] < w[1]));
    }

    /// A record is found where the distance from the first record puts it, and elsewhere by
    /// the binary search (gaps, removed records, an id below the first).
    #[test]
    fn finds_records_with_and_without_gaps() {
        let mut s = RawStore::default();
        let kept = [3u64, 4, 5, 9, 10, 30, 31];
        for rid in kept {
            s.put(rid, &doc! {"_id": rid as i64}, None);
        }
        s.remove(4);
        s.put(1, &doc! {"_id": 1_i64}, None);
        for rid in 0..40u64 {
            let got = s.get(rid).map(|b| {
                bson::Document::from_reader(b)
                    .unwrap()
                    .get_i64("_id")
                    .unwrap()
            });
            let want = (rid == 1 || (kept.contains(&rid) && rid != 4)).then_some(rid as i64);
            assert_eq!(got, want, "record {rid}");
        }
        assert_eq!(s.position(u64::MAX), Err(s.places.len()));
        assert_eq!(s.position(0), Err(0));
    }
}
