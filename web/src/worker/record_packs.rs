//! Packs: many documents in one IndexedDB record, so that a large store loads with few records.
//!
//! IndexedDB's cost of reading is mostly per record (a database entry, a structured-clone
//! value, a copy into wasm): 100,000 small records take about a second to read even when they
//! hold only 23 MB. So the store keeps documents in two forms (see `idb_store`): packs of up to
//! [`PACK_DOCUMENTS`] documents written by a compaction, and, for the commands since, one record
//! per changed document (a replacement, or an empty value for a deletion) that overrides the
//! packs. A pack is the concatenation of `record id (u64, little-endian) · length (u32,
//! little-endian) · the document's BSON bytes` for each of its documents, in record-id order.

/// Documents per pack.
pub const PACK_DOCUMENTS: usize = 1024;

/// Writes the entries (record id, BSON bytes) as one pack.
pub fn encode_pack<'a>(entries: impl IntoIterator<Item = (u64, &'a [u8])>) -> Vec<u8> {
    let mut out = Vec::new();
    for (record_id, bytes) in entries {
        out.extend_from_slice(&record_id.to_le_bytes());
        out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
        out.extend_from_slice(bytes);
    }
    out
}

/// Reads a pack back into its entries; a pack cut short or overrunning is an error naming the
/// byte offset.
pub fn decode_pack(pack: &[u8]) -> Result<Vec<(u64, Vec<u8>)>, String> {
    let mut entries = Vec::new();
    let mut at = 0;
    while at < pack.len() {
        let header = pack
            .get(at..at + 12)
            .ok_or_else(|| format!("a stored pack is cut short at byte {at}"))?;
        let mut id = [0u8; 8];
        id.copy_from_slice(&header[..8]);
        let mut len = [0u8; 4];
        len.copy_from_slice(&header[8..]);
        let len = u32::from_le_bytes(len) as usize;
        let bytes = pack
            .get(at + 12..at + 12 + len)
            .ok_or_else(|| format!("a stored pack's document at byte {at} overruns it"))?;
        entries.push((u64::from_le_bytes(id), bytes.to_vec()));
        at += 12 + len;
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pack_reads_back_its_entries_in_order() {
        let a = bson::doc! {"_id": 1, "name": "a"}.to_vec().unwrap();
        let b = bson::doc! {"_id": 2, "tags": ["x", "y"]}.to_vec().unwrap();
        let pack = encode_pack([(7, a.as_slice()), (900, b.as_slice())]);
        assert_eq!(pack.len(), 2 * 12 + a.len() + b.len());
        assert_eq!(decode_pack(&pack).unwrap(), vec![(7, a), (900, b)]);
        assert!(decode_pack(&[]).unwrap().is_empty());
    }

    #[test]
    fn a_damaged_pack_is_an_error_not_a_panic() {
        let a = bson::doc! {"_id": 1}.to_vec().unwrap();
        let pack = encode_pack([(1, a.as_slice())]);
        let cut = decode_pack(&pack[..pack.len() - 1]).unwrap_err();
        assert!(cut.contains("byte 0"), "{cut}");
        let short = decode_pack(&pack[..5]).unwrap_err();
        assert!(short.contains("cut short"), "{short}");
    }
}
