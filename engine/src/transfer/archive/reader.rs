//! Reads a `mongodump --archive` file into an [`Archive`], checking what mongorestore's parser
//! and demultiplexer check (mongo-tools `common/archive/parser.go`, `demultiplexer.go`): the
//! magic number, every length (a BSON document of 5 bytes to 16 MiB ending in a zero byte, or a
//! terminator), blocks that open with a header, data only inside an open namespace, a CRC that
//! matches in every EOF header, and every collection of the prelude closed by the end. Every
//! error names the byte offset where the problem starts.

use std::collections::HashMap;

use bson::{Bson, Document};

use super::{Archive, ArchiveHeader, ArchivedCollection, MAGIC_NUMBER, MAX_BSON_SIZE, TERMINATOR};
use crate::error::{Error, ErrorCode, Result};
use crate::value::bson_bytes::decode_document;

/// Parses the archive's bytes.
pub fn read_archive(bytes: &[u8]) -> Result<Archive> {
    let mut cursor = Cursor { bytes, pos: 0 };
    let magic = cursor.take(4).map_err(|_| {
        corrupt(
            0,
            "the file is too short to be a mongodump archive".to_string(),
        )
    })?;
    if u32::from_le_bytes([magic[0], magic[1], magic[2], magic[3]]) != MAGIC_NUMBER {
        return Err(corrupt(
            0,
            "the file does not appear to be a mongodump archive (no magic number 0x8199e26d)"
                .to_string(),
        ));
    }

    // The prelude: a header, then one metadata document per collection, then a terminator.
    let (header_at, header) = match cursor.next_item()? {
        Item::Document(at, doc) => (at, doc),
        Item::Terminator(at) | Item::End(at) => {
            return Err(corrupt(
                at,
                "the archive has no header document".to_string(),
            ));
        }
    };
    let header = read_header(&header, header_at)?;
    let mut collections: Vec<ArchivedCollection> = Vec::new();
    loop {
        match cursor.next_item()? {
            Item::Document(at, doc) => collections.push(read_metadata_entry(&doc, at)?),
            Item::Terminator(_) => break,
            Item::End(at) => {
                return Err(corrupt(
                    at,
                    "the archive ends inside its prelude (no terminator)".to_string(),
                ));
            }
        }
    }
    let mut index_of: HashMap<String, usize> = HashMap::new();
    for (i, coll) in collections.iter().enumerate() {
        if index_of.insert(coll.namespace(), i).is_some() {
            return Err(corrupt(
                header_at,
                format!("the prelude lists {} twice", coll.namespace()),
            ));
        }
    }

    // The data: blocks of a namespace header, documents, and a terminator.
    let mut state = vec![NamespaceState::Unopened; collections.len()];
    let mut hashes: Vec<crc::Digest<'static, u64>> =
        collections.iter().map(|_| CRC.digest()).collect();
    loop {
        let (at, block_header) = match cursor.next_item()? {
            Item::End(_) => break,
            Item::Document(at, doc) => (at, doc),
            Item::Terminator(at) => {
                return Err(corrupt(
                    at,
                    "consecutive terminators / headerless blocks are not allowed".to_string(),
                ));
            }
        };
        let ns_header = read_namespace_header(&block_header, at)?;
        let ns = format!("{}.{}", ns_header.db, ns_header.collection);
        let Some(&index) = index_of.get(&ns) else {
            return Err(corrupt(
                at,
                format!("namespace {ns} has data but no metadata in the prelude"),
            ));
        };
        if state[index] == NamespaceState::Closed {
            return Err(corrupt(
                at,
                format!("namespace header for {ns}, which an EOF header already closed"),
            ));
        }
        state[index] = NamespaceState::Opened;
        if ns_header.eof {
            let crc = std::mem::replace(&mut hashes[index], CRC.digest()).finalize();
            if crc != ns_header.crc {
                return Err(corrupt(
                    at,
                    format!(
                        "CRC mismatch for namespace {ns}: the documents give {crc}, the EOF header says {}",
                        ns_header.crc
                    ),
                ));
            }
            state[index] = NamespaceState::Closed;
        }
        loop {
            match cursor.next_raw()? {
                Raw::Terminator(_) => break,
                Raw::End(end) => {
                    return Err(corrupt(
                        end,
                        format!("the archive ends inside a block of {ns} (no terminator)"),
                    ));
                }
                Raw::Document(doc_at, raw) => {
                    if ns_header.eof {
                        return Err(corrupt(
                            doc_at,
                            format!("collection data after the EOF header of {ns}"),
                        ));
                    }
                    decode_document(raw).map_err(|e| {
                        corrupt(
                            doc_at,
                            format!("a document of {ns} is not valid BSON: {}", e.message),
                        )
                    })?;
                    hashes[index].update(raw);
                    collections[index].documents.push(raw.to_vec());
                }
            }
        }
    }
    let end = cursor.pos;
    if let Some(i) = state.iter().position(|s| *s != NamespaceState::Closed) {
        let what = if state[i] == NamespaceState::Opened {
            "archive finished but contained files were unfinished"
        } else {
            "archive finished before all collections were seen"
        };
        return Err(corrupt(
            end,
            format!("{what} ({})", collections[i].namespace()),
        ));
    }
    Ok(Archive {
        header,
        collections,
    })
}

static CRC: crc::Crc<u64> = crc::Crc::<u64>::new(&crc::CRC_64_XZ);

#[derive(Debug, Clone, Copy, PartialEq)]
enum NamespaceState {
    Unopened,
    Opened,
    Closed,
}

fn corrupt(offset: usize, message: String) -> Error {
    Error::new(
        ErrorCode::FailedToParse,
        format!("corrupt archive at byte {offset}: {message}"),
    )
}

struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
}

enum Raw<'a> {
    Document(usize, &'a [u8]),
    Terminator(usize),
    End(usize),
}

enum Item {
    Document(usize, Document),
    Terminator(usize),
    End(usize),
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> std::result::Result<&'a [u8], ()> {
        let end = self.pos.checked_add(n).ok_or(())?;
        let slice = self.bytes.get(self.pos..end).ok_or(())?;
        self.pos = end;
        Ok(slice)
    }

    /// The next BSON document (undecoded), a terminator, or the end of the bytes.
    fn next_raw(&mut self) -> Result<Raw<'a>> {
        let at = self.pos;
        if at == self.bytes.len() {
            return Ok(Raw::End(at));
        }
        let Ok(len) = self.take(4) else {
            return Err(corrupt(
                at,
                format!(
                    "{} stray bytes where a length or terminator belongs",
                    self.bytes.len() - at
                ),
            ));
        };
        let len = u32::from_le_bytes([len[0], len[1], len[2], len[3]]);
        if len == TERMINATOR {
            return Ok(Raw::Terminator(at));
        }
        let len = len as usize;
        if !(5..=MAX_BSON_SIZE).contains(&len) {
            return Err(corrupt(
                at,
                format!("{len} is neither a valid bson length nor a archive terminator"),
            ));
        }
        self.pos = at;
        let Ok(raw) = self.take(len) else {
            return Err(corrupt(
                at,
                format!(
                    "a BSON document of {len} bytes, but only {} bytes remain",
                    self.bytes.len() - at
                ),
            ));
        };
        if raw[len - 1] != 0 {
            return Err(corrupt(
                at,
                format!(
                    "bson (size: {len}, byte: {}) doesn't end with a null byte",
                    raw[len - 1]
                ),
            ));
        }
        Ok(Raw::Document(at, raw))
    }

    /// Like [`Cursor::next_raw`], with the document decoded.
    fn next_item(&mut self) -> Result<Item> {
        Ok(match self.next_raw()? {
            Raw::Document(at, raw) => {
                let doc = decode_document(raw).map_err(|e| {
                    corrupt(at, format!("a header is not valid BSON: {}", e.message))
                })?;
                Item::Document(at, doc)
            }
            Raw::Terminator(at) => Item::Terminator(at),
            Raw::End(at) => Item::End(at),
        })
    }
}

fn string_field(doc: &Document, field: &str, what: &str, at: usize) -> Result<String> {
    match doc.get(field) {
        Some(Bson::String(s)) => Ok(s.clone()),
        None => Ok(String::new()),
        Some(other) => Err(corrupt(
            at,
            format!(
                "the {what}'s `{field}` is a {}, not a string",
                crate::value::display::type_name(other)
            ),
        )),
    }
}

fn read_header(doc: &Document, at: usize) -> Result<ArchiveHeader> {
    let concurrent_collections = match doc.get("concurrent_collections") {
        Some(Bson::Int32(n)) => *n,
        Some(Bson::Int64(n)) => i32::try_from(*n).unwrap_or(i32::MAX),
        None => 0,
        Some(other) => {
            return Err(corrupt(
                at,
                format!(
                    "the header's `concurrent_collections` is a {}, not an integer",
                    crate::value::display::type_name(other)
                ),
            ));
        }
    };
    Ok(ArchiveHeader {
        concurrent_collections,
        format_version: string_field(doc, "version", "header", at)?,
        server_version: string_field(doc, "server_version", "header", at)?,
        tool_version: string_field(doc, "tool_version", "header", at)?,
    })
}

fn read_metadata_entry(doc: &Document, at: usize) -> Result<ArchivedCollection> {
    let what = "collection metadata";
    let entry = ArchivedCollection {
        db: string_field(doc, "db", what, at)?,
        collection: string_field(doc, "collection", what, at)?,
        metadata: string_field(doc, "metadata", what, at)?,
        kind: string_field(doc, "type", what, at)?,
        documents: Vec::new(),
    };
    if entry.collection.is_empty() {
        return Err(corrupt(
            at,
            "collection metadata without a collection name".to_string(),
        ));
    }
    Ok(entry)
}

struct NamespaceHeader {
    db: String,
    collection: String,
    eof: bool,
    crc: u64,
}

/// mongo-tools' `NamespaceHeader.UnmarshalBSON`: only `db`, `collection`, `EOF` and `CRC`, each
/// of its type.
fn read_namespace_header(doc: &Document, at: usize) -> Result<NamespaceHeader> {
    let mut header = NamespaceHeader {
        db: String::new(),
        collection: String::new(),
        eof: false,
        crc: 0,
    };
    for (key, value) in doc {
        match (key.as_str(), value) {
            ("db", Bson::String(s)) => header.db = s.clone(),
            ("collection", Bson::String(s)) => header.collection = s.clone(),
            ("EOF", Bson::Boolean(b)) => header.eof = *b,
            ("CRC", Bson::Int64(n)) => header.crc = u64::from_le_bytes(n.to_le_bytes()),
            ("db" | "collection" | "EOF" | "CRC", other) => {
                return Err(corrupt(
                    at,
                    format!(
                        "the namespace header's `{key}` has the wrong type ({})",
                        crate::value::display::type_name(other)
                    ),
                ));
            }
            _ => {
                return Err(corrupt(
                    at,
                    format!("unknown field `{key}` in a namespace header"),
                ));
            }
        }
    }
    if header.collection.is_empty() {
        return Err(corrupt(
            at,
            "collection header is missing a Collection".to_string(),
        ));
    }
    Ok(header)
}
