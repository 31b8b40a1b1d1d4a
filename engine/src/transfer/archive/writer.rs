//! Writes an [`Archive`] as `mongodump --archive` does: magic number, header, one metadata
//! document per collection, terminator; then per collection a namespace header, its documents,
//! a terminator, the EOF header with the CRC, and a terminator.
//!
//! An empty collection (and a view, which has no documents) still gets its namespace header and
//! an empty segment, as mongodump writes it: mongorestore creates a view when it sees that
//! namespace in the data, and reports an archive whose prelude names a collection the data
//! never closes as unfinished.

use bson::{Bson, Document, doc};

use super::{Archive, ArchivedCollection, MAGIC_NUMBER, TERMINATOR, crc64};
use crate::error::{Error, ErrorCode, Result};

/// The archive's bytes.
pub fn write_archive(archive: &Archive) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    out.extend_from_slice(&MAGIC_NUMBER.to_le_bytes());
    let header = &archive.header;
    push_document(
        &mut out,
        &doc! {
            "concurrent_collections": header.concurrent_collections,
            "version": header.format_version.as_str(),
            "server_version": header.server_version.as_str(),
            "tool_version": header.tool_version.as_str(),
        },
    )?;
    for coll in &archive.collections {
        push_document(&mut out, &prelude_entry(coll))?;
    }
    out.extend_from_slice(&TERMINATOR.to_le_bytes());
    for coll in &archive.collections {
        push_document(&mut out, &namespace_header(coll, false, 0))?;
        for bytes in &coll.documents {
            out.extend_from_slice(bytes);
        }
        out.extend_from_slice(&TERMINATOR.to_le_bytes());
        push_document(
            &mut out,
            &namespace_header(coll, true, crc64(&coll.documents)),
        )?;
        out.extend_from_slice(&TERMINATOR.to_le_bytes());
    }
    Ok(out)
}

/// `{db, collection, metadata, size, type}`; Go's driver writes the `int` size as an int32 when
/// it fits.
fn prelude_entry(coll: &ArchivedCollection) -> Document {
    let size = coll.size();
    let size = match i32::try_from(size) {
        Ok(small) => Bson::Int32(small),
        Err(_) => Bson::Int64(i64::try_from(size).unwrap_or(i64::MAX)),
    };
    doc! {
        "db": coll.db.as_str(),
        "collection": coll.collection.as_str(),
        "metadata": coll.metadata.as_str(),
        "size": size,
        "type": coll.kind.as_str(),
    }
}

/// `{db, collection, EOF, CRC}`; the CRC is an unsigned 64-bit value stored in an int64's bytes.
fn namespace_header(coll: &ArchivedCollection, eof: bool, crc: u64) -> Document {
    doc! {
        "db": coll.db.as_str(),
        "collection": coll.collection.as_str(),
        "EOF": eof,
        "CRC": Bson::Int64(i64::from_le_bytes(crc.to_le_bytes())),
    }
}

fn push_document(out: &mut Vec<u8>, doc: &Document) -> Result<()> {
    let bytes = doc.to_vec().map_err(|e| {
        Error::new(
            ErrorCode::BadValue,
            format!("cannot write an archive header: {e}"),
        )
    })?;
    out.extend_from_slice(&bytes);
    Ok(())
}
