//! `mongodump --archive` files: the format of mongo-tools' `common/archive` package
//! (`spec.md` there), which `mongorestore --archive` reads.
//!
//! ```text
//! archive   = magic (0x8199e26d, little-endian) header-doc collection-metadata-doc* terminator
//!             ( namespace-header-doc bson-doc* terminator       -- a segment of one collection
//!             | eof-header-doc terminator )*                     -- that collection is complete
//! terminator = ff ff ff ff
//! ```
//! The header is `{concurrent_collections: int32, version: "0.1", server_version, tool_version}`;
//! each collection's metadata is `{db, collection, metadata: <metadata.json text>, size, type}`;
//! namespace headers are `{db, collection, EOF: bool, CRC: int64}`, and the EOF header's CRC is
//! the CRC-64 (ECMA polynomial, Go's `hash/crc64`) of every document byte of that collection.
//! The writer puts each collection in one segment (mongodump may interleave segments of several
//! collections; the reader accepts that). `metadata` is the collection's `metadata.json`
//! ([`super::metadata`]).

mod reader;
mod writer;

pub use reader::read_archive;
pub use writer::write_archive;

/// The four bytes that open an archive, as a little-endian u32.
pub const MAGIC_NUMBER: u32 = 0x8199_e26d;
/// Ends the prelude and every block.
pub const TERMINATOR: u32 = 0xffff_ffff;
/// The only archive format version there is.
pub const FORMAT_VERSION: &str = "0.1";
/// The largest BSON document an archive may hold (mongo-tools' `db.MaxBSONSize`, 16 MiB).
pub const MAX_BSON_SIZE: usize = 16 * 1024 * 1024;

/// The archive's header document.
#[derive(Debug, Clone, PartialEq)]
pub struct ArchiveHeader {
    /// `--numParallelCollections` of the dump (mongorestore restores at least this many at once).
    pub concurrent_collections: i32,
    pub format_version: String,
    /// The MongoDB version whose data this is (mongorestore warns when it differs from the target).
    pub server_version: String,
    pub tool_version: String,
}

/// One collection (or view) of an archive: its prelude entry and its documents.
#[derive(Debug, Clone, PartialEq)]
pub struct ArchivedCollection {
    pub db: String,
    pub collection: String,
    /// The collection's `metadata.json` text (canonical Extended JSON).
    pub metadata: String,
    /// `"collection"`, `"view"`, `"timeseries"`, or empty (archives of older tools).
    pub kind: String,
    /// The documents' BSON bytes, in dump order.
    pub documents: Vec<Vec<u8>>,
}

impl ArchivedCollection {
    /// The total size of the documents in bytes (the prelude's `size`).
    pub fn size(&self) -> usize {
        self.documents.iter().map(Vec::len).sum()
    }

    /// `db.collection`.
    pub fn namespace(&self) -> String {
        format!("{}.{}", self.db, self.collection)
    }
}

/// A whole archive.
#[derive(Debug, Clone, PartialEq)]
pub struct Archive {
    pub header: ArchiveHeader,
    pub collections: Vec<ArchivedCollection>,
}

/// The CRC-64 mongodump writes in an EOF header: Go's `crc64.New(crc64.MakeTable(crc64.ECMA))`,
/// which is the catalogue's CRC-64/XZ (reflected ECMA-182 polynomial, all-ones in and out).
pub fn crc64(chunks: &[Vec<u8>]) -> u64 {
    const CRC: crc::Crc<u64> = crc::Crc::<u64>::new(&crc::CRC_64_XZ);
    let mut digest = CRC.digest();
    for chunk in chunks {
        digest.update(chunk);
    }
    digest.finalize()
}

#[cfg(test)]
mod tests;
