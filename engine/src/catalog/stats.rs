//! Storage statistics of a collection computed from its BSON: what `collStats`, `dbStats` and
//! `$collStats: {storageStats}` report, and their `scale` option. Sprout keeps documents
//! uncompressed, so storageSize is the data size (MongoDB's WiredTiger reports compressed,
//! page-rounded figures).

use bson::{Bson, Document, doc};

use super::Collection;
use crate::error::{Error, Result};

/// A size or count as the server returns it: an int when it fits, else a double.
pub(crate) fn number(n: f64) -> Bson {
    if n.fract() == 0.0 && n.abs() <= f64::from(i32::MAX) {
        Bson::Int32(n as i32)
    } else {
        Bson::Double(n)
    }
}

/// The `scale` option of dbStats/collStats (sizes are divided by it).
pub(crate) fn scale_option(command: &Document) -> Result<f64> {
    match command.get("scale") {
        None => Ok(1.0),
        Some(v) => match crate::value::as_i64(v) {
            Some(s) if s > 0 => Ok(s as f64),
            _ => Err(Error::location(
                51024,
                "BSON field 'scale' value must be >= 1, actual value '0'",
            )),
        },
    }
}

/// Sizes of one collection computed from BSON: (count, data bytes, per-index bytes).
pub(crate) fn collection_sizes(coll: &Collection) -> (u64, u64, Vec<(String, u64)>) {
    let data = coll.data_size();
    let indexes = coll
        .indexes()
        .iter()
        .map(|i| (i.name().to_string(), i.size_bytes()))
        .collect();
    (coll.len() as u64, data, indexes)
}

/// A collection's sizes computed from BSON, as collStats and `$collStats: {storageStats}` show
/// them (sizes divided by `scale`). Sprout keeps documents uncompressed, so storageSize is the
/// data size.
pub fn storage_stats(coll: &Collection, scale: f64) -> Document {
    let (count, data, indexes) = collection_sizes(coll);
    let total_index: u64 = indexes.iter().map(|(_, b)| b).sum();
    let mut index_sizes = Document::new();
    for (name, bytes) in &indexes {
        index_sizes.insert(name.clone(), number(*bytes as f64 / scale));
    }
    let avg = data.checked_div(count).unwrap_or(0);
    let mut stats = doc! {
        "size": number(data as f64 / scale),
        "count": number(count as f64),
        "avgObjSize": number(avg as f64),
        "numOrphanDocs": 0,
        "storageSize": number(data as f64 / scale),
        "freeStorageSize": 0,
    };
    match coll.capped_limits() {
        Some(limits) => {
            stats.insert("capped", true);
            stats.insert("max", number(limits.max_docs.unwrap_or(0) as f64));
            stats.insert("maxSize", number((limits.max_size as f64 / scale).trunc()));
        }
        None => {
            stats.insert("capped", false);
        }
    }
    stats.extend(doc! {
        "nindexes": number(indexes.len() as f64),
        "indexBuilds": [],
        "totalIndexSize": number(total_index as f64 / scale),
        "totalSize": number((data + total_index) as f64 / scale),
        "indexSizes": index_sizes,
        "scaleFactor": number(scale),
    });
    stats
}
