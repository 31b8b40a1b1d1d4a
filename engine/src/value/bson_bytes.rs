//! Decoding BSON documents from bytes, strictly.
//!
//! `bson::Document::from_reader` reads the length the document states and ignores whatever
//! follows; a document whose bytes run past its stated length is corrupt (BSON corpus:
//! "Stated length less than byte count"), so this checks the length against the slice first.

use std::cell::Cell;

use bson::{Bson, Document};

use crate::error::Error;

/// Decodes exactly one BSON document that fills `bytes`.
pub fn decode_document(bytes: &[u8]) -> Result<Document, Error> {
    decode_document_exact(bytes).map(|(doc, _)| doc)
}

/// [`decode_document`], and whether the bytes are known to be exactly the document's encoding
/// (`Document::to_vec`): true when every value was of a common type (below), no document
/// repeats a name and every array's names are its positions in order (`"0"`, `"1"`, …); the
/// encoder writes each of these values back as the bytes it was read from. `false` says
/// nothing: [`encodes_to`] can still find them equal. An insert keeps its documents' bytes on
/// this word instead of walking each document again (`docs/performance.md`, session 17).
pub fn decode_document_exact(bytes: &[u8]) -> Result<(Document, bool), Error> {
    let stated = bytes
        .get(..4)
        .map(|head| i32::from_le_bytes([head[0], head[1], head[2], head[3]]));
    match stated {
        Some(len) if usize::try_from(len).is_ok_and(|len| len == bytes.len()) => {}
        Some(len) => {
            return Err(Error::bad_value(format!(
                "invalid BSON: the document states {len} bytes but has {}",
                bytes.len()
            )));
        }
        None => return Err(Error::bad_value("invalid BSON: fewer than 4 bytes")),
    }
    let exact = Cell::new(true);
    if let Some(doc) = common_document(bytes, &exact) {
        return Ok((doc, exact.get()));
    }
    // Parsed where it lies: `Document::from_reader` would first copy the bytes into a buffer of
    // its own (a copy per stored document when a database loads).
    bson::RawDocument::from_bytes(bytes)
        .and_then(document_of)
        .map(|doc| (doc, false))
        .map_err(|e| Error::bad_value(format!("invalid BSON: {e}")))
}

/// `Document::try_from(raw)` without its copies: the bson crate converts each embedded document
/// and array through an owned copy of its bytes (`RawBson::from(RawBsonRef)`), so a command's
/// `documents` array was copied whole, then each document in it, before any was decoded (a
/// third of an insert command's time, `docs/performance.md`, session 15). Here embedded
/// documents and arrays are decoded where they lie; every other value goes through the crate's
/// own conversion. The same elements in the same order, the same errors at the same element.
fn document_of(raw: &bson::RawDocument) -> bson::error::Result<Document> {
    let mut out = Document::new();
    for item in raw {
        let (name, value) = item?;
        // `Document::insert` as the crate's `collect` does: a repeated name keeps its first
        // place and takes the later value.
        out.insert(name.as_str(), value_of(value)?);
    }
    Ok(out)
}

/// A document (or array: its names are read and not kept) made only of the common types
/// (double, string, document, array, boolean, null, int32, int64, datetime, ObjectId) read
/// straight from its bytes, without the bson crate's raw iterator (decoding a command was 16% of
/// a point lookup through the Node binding, most of it that iterator and its conversions,
/// `docs/performance.md`, session 16). `None` for any other type and for anything the crate
/// would reject or that does not lie exactly within the document: the caller then decodes
/// through the crate, which gives its values and its errors. So whatever this returns is what
/// the crate's conversion gives (the test below checks it on every single-byte corruption).
/// `exact` turns false when a name repeats or an array's names are not its positions.
fn common_document(bytes: &[u8], exact: &Cell<bool>) -> Option<Document> {
    let mut out = crate::value::empty_document();
    common_elements(bytes, None, exact, |name, value| {
        if out.insert(name, value).is_some() {
            exact.set(false);
        }
    })?;
    Some(out)
}

fn common_array(bytes: &[u8], exact: &Cell<bool>) -> Option<Vec<Bson>> {
    let mut out = Vec::new();
    let mut shape = Shape::default();
    common_elements(bytes, Some(&mut shape), exact, |name, value| {
        if exact.get() && !is_position(name, out.len()) {
            exact.set(false);
        }
        out.push(value);
    })?;
    Some(out)
}

/// Whether `name` is `i` written in decimal, as the encoder names an array's elements.
fn is_position(name: &str, i: usize) -> bool {
    let b = name.as_bytes();
    match b {
        [b'0'] => i == 0,
        [b'1'..=b'9', ..] if b.len() <= 10 && b.iter().all(u8::is_ascii_digit) => {
            name.parse::<usize>() == Ok(i)
        }
        _ => false,
    }
}

/// The documents of one array as they are decoded: the names the last one had and, once two
/// in a row had the same names (each once), an empty copy of such a document (those names,
/// null values). A document with those names again is that copy cloned, its values put in
/// place in order: the map is made at its final size with its names already hashed, where
/// inserting field by field hashes every name and grows the map twice for five fields (an
/// insert command's documents, mostly of one shape: `Document::insert` was 19% of inserting
/// 20k documents through the Node binding, `docs/performance.md`, session 17). The document is
/// the one insertion gives: the same names in the same order, the same values.
#[derive(Default)]
struct Shape<'a> {
    names: Vec<&'a str>,
    read: Vec<&'a str>,
    values: Vec<Bson>,
    template: Option<Document>,
}

impl<'a> Shape<'a> {
    fn document(&mut self, bytes: &'a [u8], exact: &Cell<bool>) -> Option<Document> {
        let mut read = std::mem::take(&mut self.read);
        let mut values = std::mem::take(&mut self.values);
        read.clear();
        values.clear();
        common_elements(bytes, None, exact, |name, value| {
            read.push(name);
            values.push(value);
        })?;
        let same = read == self.names;
        let doc = match &self.template {
            Some(template) if same => {
                let mut doc = template.clone();
                for ((_, slot), value) in doc.iter_mut().zip(values.drain(..)) {
                    *slot = value;
                }
                doc
            }
            _ => {
                let mut doc = crate::value::empty_document();
                for (name, value) in read.iter().zip(values.drain(..)) {
                    doc.insert(*name, value);
                }
                if doc.len() != read.len() {
                    exact.set(false);
                }
                // Only names read once each: a repeated name is one field of the document.
                self.template = (same && doc.len() == read.len()).then(|| {
                    let mut template = crate::value::empty_document();
                    for name in &read {
                        template.insert(*name, Bson::Null);
                    }
                    template
                });
                doc
            }
        };
        std::mem::swap(&mut self.names, &mut read);
        self.read = read;
        self.values = values;
        Some(doc)
    }
}

/// Each element of the document `bytes` (exactly one document: its stated length is the
/// slice's), in order, when every one is of a common type and well formed.
fn common_elements<'a>(
    bytes: &'a [u8],
    mut shape: Option<&mut Shape<'a>>,
    exact: &Cell<bool>,
    mut each: impl FnMut(&'a str, Bson),
) -> Option<()> {
    let len = usize::try_from(read_i32_at(bytes, 0)?).ok()?;
    if len < 5 || len != bytes.len() || bytes[len - 1] != 0 {
        return None;
    }
    // The elements lie before the document's final NUL.
    let body = &bytes[..len - 1];
    let mut at = 4;
    while at < body.len() {
        let tag = body[at];
        at += 1;
        let name_len = body.get(at..)?.iter().position(|&b| b == 0)?;
        let name = std::str::from_utf8(&body[at..at + name_len]).ok()?;
        at += name_len + 1;
        let v = body.get(at..)?;
        let (value, used) = match tag {
            0x03 | 0x04 => {
                let n = usize::try_from(read_i32_at(v, 0)?).ok()?;
                let inner = v.get(..n)?;
                let value = if tag == 0x03 {
                    Bson::Document(match shape.as_deref_mut() {
                        Some(shape) => shape.document(inner, exact)?,
                        None => common_document(inner, exact)?,
                    })
                } else {
                    Bson::Array(common_array(inner, exact)?)
                };
                (value, n)
            }
            _ => common_scalar(tag, v)?,
        };
        each(name, value);
        at += used;
    }
    (at == body.len()).then_some(())
}

/// A value of a common type other than document and array, of BSON type `tag`, from the bytes
/// `v` that start it, and its length; `None` for another type or malformed bytes.
fn common_scalar(tag: u8, v: &[u8]) -> Option<(Bson, usize)> {
    Some(match tag {
        0x01 => (
            Bson::Double(f64::from_le_bytes(v.get(..8)?.try_into().ok()?)),
            8,
        ),
        0x02 => {
            let (s, used) = common_str(v)?;
            (Bson::String(s.to_owned()), used)
        }
        0x07 => {
            let id: [u8; 12] = v.get(..12)?.try_into().ok()?;
            (Bson::ObjectId(bson::oid::ObjectId::from_bytes(id)), 12)
        }
        0x08 => match v.first()? {
            0 => (Bson::Boolean(false), 1),
            1 => (Bson::Boolean(true), 1),
            _ => return None,
        },
        0x09 => {
            let ms = i64::from_le_bytes(v.get(..8)?.try_into().ok()?);
            (Bson::DateTime(bson::DateTime::from_millis(ms)), 8)
        }
        0x0A => (Bson::Null, 0),
        0x10 => (Bson::Int32(read_i32_at(v, 0)?), 4),
        0x12 => (
            Bson::Int64(i64::from_le_bytes(v.get(..8)?.try_into().ok()?)),
            8,
        ),
        _ => return None,
    })
}

/// A BSON string value (length, UTF-8 bytes, NUL) at the start of `v`, and its length.
fn common_str(v: &[u8]) -> Option<(&str, usize)> {
    let n = usize::try_from(read_i32_at(v, 0)?).ok()?;
    if n < 1 || *v.get(3 + n)? != 0 {
        return None;
    }
    let s = std::str::from_utf8(&v[4..3 + n]).ok()?;
    Some((s, 4 + n))
}

/// An `insert` command's bytes taken apart so that its documents need not be decoded: the
/// command decoded with an empty `documents` array in place of its own, and each document's
/// bytes, in order. Only when the command starts with `insert`, holds one `documents` array
/// of documents named by their positions, and every document is one [`decode_document_exact`]
/// decodes from bytes it calls exactly its encoding, nested at most [`KEPT_DEPTH`] levels
/// (so it is storable as far as nesting goes, and no name holds a NUL: a name ends at one);
/// `None` otherwise (the caller decodes the command as a whole). Checking costs a walk of the
/// bytes and no allocation per document, where decoding built every document's tree (a
/// fifth of an insert through the Node binding, `docs/performance.md`, session 18).
pub fn insert_parts(bytes: &[u8]) -> Option<(Document, Vec<&[u8]>)> {
    let len = usize::try_from(read_i32_at(bytes, 0)?).ok()?;
    if len < 5 || len != bytes.len() || bytes[len - 1] != 0 {
        return None;
    }
    let body = &bytes[..len - 1];
    let mut at = 4;
    let mut array: Option<(usize, usize)> = None;
    let mut first = true;
    while at < body.len() {
        let tag = body[at];
        let name_at = at + 1;
        let name_len = body.get(name_at..)?.iter().position(|&b| b == 0)?;
        let name = &body[name_at..name_at + name_len];
        if first && name != b"insert" {
            return None;
        }
        first = false;
        let value_at = name_at + name_len + 1;
        let used = value_len(tag, body.get(value_at..)?)?;
        if name == b"documents" {
            if tag != 0x04 || array.is_some() {
                return None;
            }
            array = Some((value_at, used));
        }
        at = value_at + used;
    }
    if at != body.len() {
        return None;
    }
    let (array_at, array_len) = array?;
    let items = bytes.get(array_at..array_at + array_len)?;
    // The command without its documents: the bytes around the array, an empty one in its place.
    let mut rest = Vec::with_capacity(len - array_len + 5);
    rest.extend_from_slice(&((len - array_len + 5) as i32).to_le_bytes());
    rest.extend_from_slice(&bytes[4..array_at]);
    rest.extend_from_slice(&[5, 0, 0, 0, 0]);
    rest.extend_from_slice(&bytes[array_at + array_len..]);
    let (command, exact) = decode_document_exact(&rest).ok()?;
    if !exact {
        return None;
    }
    let mut documents = Vec::new();
    let items_body = items.get(..items.len().checked_sub(1)?)?;
    if read_i32_at(items, 0)? as usize != items.len() || items.last() != Some(&0) {
        return None;
    }
    let mut at = 4;
    let mut buf = [0; 20];
    while at < items_body.len() {
        if items_body[at] != 0x03 {
            return None;
        }
        let name = decimal(documents.len(), &mut buf).as_bytes();
        let name_end = at + 1 + name.len();
        if items_body.get(at + 1..name_end)? != name || *items_body.get(name_end)? != 0 {
            return None;
        }
        let v = items_body.get(name_end + 1..)?;
        let n = usize::try_from(read_i32_at(v, 0)?).ok()?;
        let document = v.get(..n)?;
        if !kept_exactly(document, false, KEPT_DEPTH) {
            return None;
        }
        documents.push(document);
        at = name_end + 1 + n;
    }
    (at == items_body.len()).then_some((command, documents))
}

/// How deep a document [`insert_parts`] leaves undecoded may nest (well within storage's 180
/// levels; deeper ones are decoded and checked as before).
pub const KEPT_DEPTH: usize = 100;

/// The most names a document [`insert_parts`] leaves undecoded may have (each is compared
/// with the ones before it, to find a repeated name).
const KEPT_NAMES: usize = 64;

/// Whether [`common_document`] (`array`: [`common_array`]) decodes `bytes` and calls them exact,
/// with at most `depth` levels of nesting, checked by walking the bytes without building
/// anything.
fn kept_exactly(bytes: &[u8], array: bool, depth: usize) -> bool {
    kept_walk(bytes, array, depth).is_some()
}

fn kept_walk(bytes: &[u8], array: bool, depth: usize) -> Option<()> {
    if depth == 0 {
        return None;
    }
    let len = usize::try_from(read_i32_at(bytes, 0)?).ok()?;
    if len < 5 || len != bytes.len() || bytes[len - 1] != 0 {
        return None;
    }
    let body = &bytes[..len - 1];
    let mut at = 4;
    let mut names: [&[u8]; KEPT_NAMES] = [&[]; KEPT_NAMES];
    let mut count = 0;
    let mut buf = [0; 20];
    while at < body.len() {
        let tag = body[at];
        at += 1;
        let name_len = body.get(at..)?.iter().position(|&b| b == 0)?;
        let name = &body[at..at + name_len];
        std::str::from_utf8(name).ok()?;
        if array {
            if name != decimal(count, &mut buf).as_bytes() {
                return None;
            }
        } else {
            if count == KEPT_NAMES || names[..count].contains(&name) {
                return None;
            }
            names[count] = name;
        }
        count += 1;
        at += name_len + 1;
        let v = body.get(at..)?;
        let used = match tag {
            0x03 | 0x04 => {
                let n = usize::try_from(read_i32_at(v, 0)?).ok()?;
                kept_walk(v.get(..n)?, tag == 0x04, depth - 1)?;
                n
            }
            0x02 => common_str(v)?.1,
            0x01 | 0x09 | 0x12 => {
                v.get(..8)?;
                8
            }
            0x07 => {
                v.get(..12)?;
                12
            }
            0x08 => match v.first()? {
                0 | 1 => 1,
                _ => return None,
            },
            0x0A => 0,
            0x10 => {
                v.get(..4)?;
                4
            }
            _ => return None,
        };
        at += used;
    }
    (at == body.len()).then_some(())
}

/// The name and value of the first element of a document's bytes that [`kept_exactly`]
/// accepted (`None` for an empty document).
pub fn first_element(bytes: &[u8]) -> Option<(&str, Bson)> {
    let tag = *bytes.get(4)?;
    if tag == 0 {
        return None;
    }
    let name_len = bytes.get(5..)?.iter().position(|&b| b == 0)?;
    let name = std::str::from_utf8(&bytes[5..5 + name_len]).ok()?;
    let v = bytes.get(5 + name_len + 1..)?;
    let exact = Cell::new(true);
    let value = match tag {
        0x03 | 0x04 => {
            let n = usize::try_from(read_i32_at(v, 0)?).ok()?;
            let inner = v.get(..n)?;
            if tag == 0x03 {
                Bson::Document(common_document(inner, &exact)?)
            } else {
                Bson::Array(common_array(inner, &exact)?)
            }
        }
        _ => common_scalar(tag, v)?.0,
    };
    Some((name, value))
}

fn read_i32_at(bytes: &[u8], at: usize) -> Option<i32> {
    Some(i32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

fn value_of(value: bson::RawBsonRef<'_>) -> bson::error::Result<Bson> {
    Ok(match value {
        bson::RawBsonRef::Document(d) => Bson::Document(document_of(d)?),
        bson::RawBsonRef::Array(a) => {
            let mut items = Vec::new();
            for item in a {
                items.push(value_of(item?)?);
            }
            Bson::Array(items)
        }
        bson::RawBsonRef::String(s) => Bson::String(s.to_owned()),
        bson::RawBsonRef::Double(d) => Bson::Double(d),
        bson::RawBsonRef::Int32(i) => Bson::Int32(i),
        bson::RawBsonRef::Int64(i) => Bson::Int64(i),
        bson::RawBsonRef::Boolean(b) => Bson::Boolean(b),
        bson::RawBsonRef::Null => Bson::Null,
        bson::RawBsonRef::ObjectId(o) => Bson::ObjectId(o),
        bson::RawBsonRef::DateTime(d) => Bson::DateTime(d),
        other => Bson::try_from(other)?,
    })
}

/// The bytes of each element of the array `name` of the document `bytes` (an element that is
/// not a document: no bytes), in order, up to the first element that cannot be read; none when
/// there is no such array. The first field of that name: a caller checks each document
/// against its bytes (`encodes_to`) before keeping them.
pub fn array_documents<'b>(bytes: &'b [u8], name: &str) -> Vec<&'b [u8]> {
    let Ok(raw) = bson::RawDocument::from_bytes(bytes) else {
        return Vec::new();
    };
    let Ok(items) = raw.get_array(name) else {
        return Vec::new();
    };
    items
        .into_iter()
        .map_while(|item| match item {
            Ok(bson::RawBsonRef::Document(d)) => Some(d.as_bytes()),
            Ok(_) => Some(&[][..]),
            Err(_) => None,
        })
        .collect()
}

/// Whether `doc`'s BSON encoding (`Document::to_vec`) is exactly `bytes`, found by walking the
/// bytes beside the tree without encoding anything: every element's type, name and value
/// bytes must be the ones the encoder would write, in order, with nothing left over. `false`
/// also for types whose encoding this does not check (the caller encodes then). An insert
/// keeps a document's bytes as they arrived in the command when they pass (the encoding per
/// document was a tenth of an insert's time, `docs/performance.md`, session 15).
pub fn encodes_to(doc: &Document, bytes: &[u8]) -> bool {
    let Some(mut at) = document_body(bytes) else {
        return false;
    };
    for (name, value) in doc {
        match element_encodes(name, value, bytes, at) {
            Some(next) => at = next,
            None => return false,
        }
    }
    at == bytes.len() - 1
}

/// Where a document's elements start (after its length, which must be the slice's, and which
/// must end with the terminating NUL).
fn document_body(bytes: &[u8]) -> Option<usize> {
    let len = i32::from_le_bytes(bytes.get(..4)?.try_into().ok()?);
    (usize::try_from(len).ok()? == bytes.len() && bytes.len() >= 5 && bytes[bytes.len() - 1] == 0)
        .then_some(4)
}

/// The end of the element at `at` when it is `name: value` as the encoder writes it.
fn element_encodes(name: &str, value: &Bson, bytes: &[u8], at: usize) -> Option<usize> {
    let tag = *bytes.get(at)?;
    let name_at = at + 1;
    let name_end = name_at + name.len();
    if bytes.get(name_at..name_end)? != name.as_bytes() || *bytes.get(name_end)? != 0 {
        return None;
    }
    let v = bytes.get(name_end + 1..)?;
    let same = |n: usize, want: &[u8]| (v.get(..n)? == want).then_some(n);
    let len = match (tag, value) {
        (0x01, Bson::Double(d)) => same(8, &d.to_bits().to_le_bytes())?,
        (0x02, Bson::String(s)) => {
            let n = i32::try_from(s.len() + 1).ok()?;
            same(4, &n.to_le_bytes())?;
            (v.get(4..4 + s.len())? == s.as_bytes() && *v.get(4 + s.len())? == 0)
                .then_some(5 + s.len())?
        }
        (0x03, Bson::Document(d)) => {
            let n = usize::try_from(i32::from_le_bytes(v.get(..4)?.try_into().ok()?)).ok()?;
            encodes_to(d, v.get(..n)?).then_some(n)?
        }
        (0x04, Bson::Array(items)) => {
            let n = usize::try_from(i32::from_le_bytes(v.get(..4)?.try_into().ok()?)).ok()?;
            let arr = v.get(..n)?;
            let mut inner = document_body(arr)?;
            let mut digits = [0u8; 20];
            for (i, item) in items.iter().enumerate() {
                let key = decimal(i, &mut digits);
                inner = element_encodes(key, item, arr, inner)?;
            }
            (inner == n - 1).then_some(n)?
        }
        (0x05, Bson::Binary(b)) => {
            let subtype = u8::from(b.subtype);
            // The old binary subtype is written with a second length: not checked here.
            if subtype == 0x02 {
                return None;
            }
            let n = i32::try_from(b.bytes.len()).ok()?;
            same(4, &n.to_le_bytes())?;
            (*v.get(4)? == subtype && v.get(5..5 + b.bytes.len())? == b.bytes.as_slice())
                .then_some(5 + b.bytes.len())?
        }
        (0x07, Bson::ObjectId(o)) => same(12, &o.bytes())?,
        (0x08, Bson::Boolean(b)) => same(1, &[u8::from(*b)])?,
        (0x09, Bson::DateTime(d)) => same(8, &d.timestamp_millis().to_le_bytes())?,
        (0x0A, Bson::Null) => 0,
        (0x10, Bson::Int32(i)) => same(4, &i.to_le_bytes())?,
        (0x12, Bson::Int64(i)) => same(8, &i.to_le_bytes())?,
        (0x13, Bson::Decimal128(d)) => same(16, &d.bytes())?,
        _ => return None,
    };
    Some(name_end + 1 + len)
}

/// `n` in decimal digits, written into `buf` (an array element's name).
fn decimal(n: usize, buf: &mut [u8; 20]) -> &str {
    let mut at = buf.len();
    let mut n = n;
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    // Only ASCII digits were written.
    std::str::from_utf8(&buf[at..]).unwrap_or_default()
}

/// The number of top-level elements of a document's BSON bytes (`None` on bytes this walk does
/// not understand). Fewer elements in the decoded document than here means a name was repeated
/// (the decoded document keeps one value per name).
pub fn element_count(doc: &[u8]) -> Option<usize> {
    let mut at = 4;
    let mut n = 0;
    loop {
        let tag = *doc.get(at)?;
        if tag == 0 {
            return Some(n);
        }
        at += 1;
        at += doc.get(at..)?.iter().position(|&b| b == 0)? + 1;
        at += value_len(tag, doc.get(at..)?)?;
        n += 1;
    }
}

/// The length of an element's value of BSON type `tag` whose bytes start `v` (`None` for an
/// unknown type or bytes too short to say).
pub fn value_len(tag: u8, v: &[u8]) -> Option<usize> {
    let i32_at = |v: &[u8]| -> Option<usize> {
        usize::try_from(i32::from_le_bytes(v.get(..4)?.try_into().ok()?)).ok()
    };
    Some(match tag {
        0x01 | 0x09 | 0x11 | 0x12 => 8,
        0x02 | 0x0D | 0x0E => 4 + i32_at(v)?,
        0x03 | 0x04 | 0x0F => i32_at(v)?,
        0x05 => 5 + i32_at(v)?,
        0x06 | 0x0A | 0x7F | 0xFF => 0,
        0x07 => 12,
        0x08 => 1,
        0x0B => {
            let first = v.iter().position(|&b| b == 0)? + 1;
            first + v.get(first..)?.iter().position(|&b| b == 0)? + 1
        }
        0x0C => 4 + i32_at(v)? + 12,
        0x10 => 4,
        0x13 => 16,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_top_level_elements_also_when_a_name_repeats() {
        let doc = bson::doc! {"a": 1, "s": "x", "d": {"y": [1, 2]}, "r": bson::Bson::Null};
        assert_eq!(element_count(&doc.to_vec().unwrap()), Some(4));
        // {a: 1, a: 2}: two elements; decoded, one field.
        let bytes = [
            19, 0, 0, 0, 0x10, b'a', 0, 1, 0, 0, 0, 0x10, b'a', 0, 2, 0, 0, 0, 0,
        ];
        assert_eq!(element_count(&bytes), Some(2));
        assert_eq!(decode_document(&bytes).unwrap().len(), 1);
        assert_eq!(element_count(&bytes[..10]), None);
    }

    /// The bson crate's conversion, which `decode_document` replaces.
    fn crate_decode(bytes: &[u8]) -> Result<Document, Error> {
        bson::RawDocument::from_bytes(bytes)
            .map_err(|e| Error::bad_value(format!("invalid BSON: {e}")))
            .and_then(|raw| {
                Document::try_from(raw).map_err(|e| Error::bad_value(format!("invalid BSON: {e}")))
            })
    }

    fn common_of(bytes: &[u8]) -> Option<Document> {
        common_document(bytes, &Cell::new(true))
    }

    /// Whether `decode_document_exact` calls the bytes exact; and when it does, they are the
    /// document's encoding.
    fn exact(bytes: &[u8]) -> bool {
        match decode_document_exact(bytes) {
            Ok((doc, true)) => {
                assert_eq!(doc.to_vec().unwrap(), bytes, "{bytes:?}");
                true
            }
            _ => false,
        }
    }

    fn same_outcome(bytes: &[u8]) {
        exact(bytes);
        // Debug text: NaN equals itself there, and the errors' messages are compared.
        let ours = decode_document(bytes).map_err(|e| e.message);
        let theirs = crate_decode(bytes).map_err(|e| e.message);
        assert_eq!(format!("{ours:?}"), format!("{theirs:?}"), "{bytes:?}");
    }

    /// The same documents and the same errors as the bson crate's conversion: every type,
    /// nesting, a repeated name, and every single-byte corruption of such a document.
    #[test]
    fn decodes_as_the_bson_crate_does() {
        let doc = bson::doc! {
            "_id": bson::oid::ObjectId::from_bytes([7; 12]),
            "s": "text é", "d": 1.5, "nan": f64::NAN, "i": 3, "l": 4_i64, "t": true, "n": null,
            "date": bson::DateTime::from_millis(12),
            "sub": {"a": [1, {"b": "c"}, [2, 3]], "e": {}},
            "bin": bson::Binary { subtype: bson::spec::BinarySubtype::Generic, bytes: vec![1, 2] },
            "re": bson::Regex {
                pattern: "a.b".try_into().unwrap(), options: "ix".try_into().unwrap() },
            "ts": bson::Timestamp { time: 1, increment: 2 },
            "dec": bson::Decimal128::from_bytes([1; 16]),
            "js": bson::Bson::JavaScriptCode("f()".into()),
            "jss": bson::Bson::JavaScriptCodeWithScope(bson::JavaScriptCodeWithScope {
                code: "g()".into(), scope: bson::doc! {"x": 1} }),
            "sym": bson::Bson::Symbol("s".into()),
            "u": bson::Bson::Undefined, "min": bson::Bson::MinKey, "max": bson::Bson::MaxKey,
        };
        let bytes = doc.to_vec().unwrap();
        same_outcome(&bytes);
        assert_eq!(decode_document(&bytes).unwrap().to_vec().unwrap(), bytes);
        // {a: 1, b: {c: 2}, a: 3}: the first place, the later value.
        let repeated = [
            34, 0, 0, 0, 0x10, b'a', 0, 1, 0, 0, 0, 0x03, b'b', 0, 12, 0, 0, 0, 0x10, b'c', 0, 2,
            0, 0, 0, 0, 0x10, b'a', 0, 3, 0, 0, 0, 0,
        ];
        same_outcome(&repeated);
        assert_eq!(
            decode_document(&repeated).unwrap(),
            bson::doc! {"a": 3, "b": {"c": 2}}
        );
        // Only the common types (decoded without the crate's iterator), and every single-byte
        // corruption of them too, below.
        let common = bson::doc! {
            "_id": bson::oid::ObjectId::from_bytes([7; 12]), "s": "text é", "e": "",
            "d": -0.0, "nan": f64::NAN, "i": i32::MIN, "l": i64::MAX, "t": true, "f": false,
            "n": null, "date": bson::DateTime::from_millis(-12),
            "sub": {"a": [1, {"b": "c"}, [2, 3], []], "e": {}}, "a": ["x", 2.5, null],
        };
        let common_bytes = common.to_vec().unwrap();
        same_outcome(&common_bytes);
        // Debug text: NaN equals itself there.
        assert_eq!(
            format!("{:?}", common_of(&common_bytes)),
            format!("{:?}", Some(common.clone()))
        );
        assert_eq!(
            common_of(&repeated),
            Some(bson::doc! {"a": 3, "b": {"c": 2}})
        );
        // Not a common type anywhere (here nested): left to the crate.
        assert_eq!(common_of(&bytes), None);
        for at in 4..common_bytes.len() {
            for new in [0u8, 1, 0x02, 0x03, 0x04, 0x05, 0x7f, 0x80, 0xff] {
                let mut bad = common_bytes.clone();
                bad[at] = new;
                same_outcome(&bad);
            }
        }
        // Every single-byte corruption (the length checks above aside).
        for at in 4..bytes.len() {
            for new in [0u8, 1, 0x02, 0x03, 0x04, 0x7f, 0x80, 0xff] {
                let mut bad = bytes.clone();
                bad[at] = new;
                same_outcome(&bad);
            }
        }
    }

    /// Arrays of documents, decoded through the shape of the ones before (`Shape`): the same
    /// documents as the crate's conversion, whatever the order of shapes, a repeated name, an
    /// empty document, nested arrays of documents; and every single-byte corruption of them.
    #[test]
    fn arrays_of_documents_decode_as_the_bson_crate_does() {
        let docs = bson::doc! {
            "documents": [
                {"_id": 1, "sku": "a", "p": 1.5}, {"_id": 2, "sku": "b", "p": 2.5},
                {"_id": 3, "sku": "c", "p": 3.5}, {"_id": 4, "p": 4.5, "sku": "d"},
                {"_id": 5, "p": 5.5, "sku": "e"}, {"_id": 6, "p": 6.5}, {}, {},
                {"_id": 7, "p": 6.5}, {"_id": 8, "p": {"x": [{"y": 1}, {"y": 2}, {"z": 3}]}},
                {"_id": 9, "p": {"x": [{"y": 1}, {"y": 2}, {"y": 3}]}}, 10, {"_id": 11, "p": 1},
            ],
            "ordered": true,
        };
        let bytes = docs.to_vec().unwrap();
        same_outcome(&bytes);
        assert!(exact(&bytes));
        assert_eq!(decode_document(&bytes).unwrap(), docs);
        assert_eq!(common_of(&bytes), Some(docs.clone()));
        // A repeated name in documents of one shape (by the names read): {a: 1, a: 2} three
        // times, then {a: 3}: one field each, the later value.
        let twice = |v: u8| {
            vec![
                19,
                0,
                0,
                0,
                0x10,
                b'a',
                0,
                v,
                0,
                0,
                0,
                0x10,
                b'a',
                0,
                v + 1,
                0,
                0,
                0,
                0,
            ]
        };
        let mut array = vec![0x04, b'x', 0];
        let mut items = Vec::new();
        for (i, item) in [
            twice(1),
            twice(3),
            twice(5),
            bson::doc! {"a": 7}.to_vec().unwrap(),
        ]
        .into_iter()
        .enumerate()
        {
            items.extend([0x03, b'0' + i as u8, 0]);
            items.extend(item);
        }
        let len = (items.len() + 5) as i32;
        array.extend(len.to_le_bytes());
        array.extend(items);
        array.push(0);
        let mut repeated = ((array.len() + 5) as i32).to_le_bytes().to_vec();
        repeated.extend(array);
        repeated.push(0);
        same_outcome(&repeated);
        assert_eq!(
            common_of(&repeated),
            Some(bson::doc! {"x": [{"a": 2}, {"a": 4}, {"a": 6}, {"a": 7}]})
        );
        assert!(!exact(&repeated));
        // An array whose names are not its positions: decoded, not exact.
        let mut renamed = bson::doc! {"a": [1, 2]}.to_vec().unwrap();
        let at = renamed.iter().rposition(|&b| b == b'1').unwrap();
        renamed[at] = b'7';
        assert_eq!(decode_document(&renamed).unwrap(), bson::doc! {"a": [1, 2]});
        assert!(!exact(&renamed));
        assert!(exact(
            &bson::doc! {"a": (0..12).collect::<Vec<i32>>()}
                .to_vec()
                .unwrap()
        ));
        for (name, i) in [("0", 0), ("10", 10), ("7", 7)] {
            assert!(is_position(name, i));
        }
        for (name, i) in [
            ("00", 0),
            ("01", 1),
            ("", 0),
            ("1", 0),
            ("+1", 1),
            ("1a", 1),
        ] {
            assert!(!is_position(name, i));
        }
        for at in 4..bytes.len() {
            for new in [0u8, 1, 0x02, 0x03, 0x04, 0x10, 0x7f, 0xff] {
                let mut bad = bytes.clone();
                bad[at] = new;
                same_outcome(&bad);
            }
        }
    }

    /// `encodes_to` holds for a document and its own encoding, and whenever it holds, the
    /// encoding is those bytes: checked on every single-byte corruption that still decodes.
    #[test]
    fn encodes_to_only_when_the_encoding_is_the_bytes() {
        let doc = bson::doc! {
            "_id": bson::oid::ObjectId::from_bytes([7; 12]),
            "s": "text é\u{0}x", "d": -0.0, "i": 3, "l": 4_i64, "t": true, "f": false, "n": null,
            "date": bson::DateTime::from_millis(-12),
            "sub": {"a": [1, {"b": "c"}, [2, 3], []], "e": {}},
            "bin": bson::Binary { subtype: bson::spec::BinarySubtype::Uuid, bytes: vec![1; 16] },
            "dec": bson::Decimal128::from_bytes([1; 16]),
            "long": (0..12).collect::<Vec<i32>>(),
        };
        let bytes = doc.to_vec().unwrap();
        assert!(encodes_to(&doc, &bytes));
        assert!(encodes_to(&decode_document(&bytes).unwrap(), &bytes));
        let mut holds = 0;
        for at in 0..bytes.len() {
            for new in [0u8, 1, 2, 0x03, 0x04, 0x0A, 0x30, 0x31, 0x7f, 0xff] {
                let mut bad = bytes.clone();
                bad[at] = new;
                if let Ok(d) = decode_document(&bad)
                    && encodes_to(&d, &bad)
                {
                    holds += 1;
                    assert_eq!(d.to_vec().unwrap(), bad, "byte {at} = {new}");
                }
            }
        }
        // Values changed in place (a digit, a flag) still encode to their bytes.
        assert!(holds > 100, "{holds}");
        // Not the bytes: another order, a repeated name, array keys out of order, a type whose
        // encoding is not checked, trailing or missing bytes.
        let reordered = bson::doc! {"b": 1, "a": 2};
        assert!(!encodes_to(
            &reordered,
            &bson::doc! {"a": 2, "b": 1}.to_vec().unwrap()
        ));
        let repeated = [
            19, 0, 0, 0, 0x10, b'a', 0, 1, 0, 0, 0, 0x10, b'a', 0, 2, 0, 0, 0, 0,
        ];
        assert!(!encodes_to(&decode_document(&repeated).unwrap(), &repeated));
        // {a: {"1": 5, "0": 6}} as an array: decoded [5, 6], encoded with keys "0", "1".
        let keys = [
            27, 0, 0, 0, 0x04, b'a', 0, 19, 0, 0, 0, 0x10, b'1', 0, 5, 0, 0, 0, 0x10, b'0', 0, 6,
            0, 0, 0, 0, 0,
        ];
        assert!(!encodes_to(&decode_document(&keys).unwrap(), &keys));
        let regex = bson::doc! {"r": bson::Regex {
        pattern: "a".try_into().unwrap(), options: "i".try_into().unwrap() }};
        assert!(!encodes_to(&regex, &regex.to_vec().unwrap()));
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(!encodes_to(&doc, &longer));
        assert!(!encodes_to(&doc, &bytes[..bytes.len() - 1]));
        assert!(!encodes_to(&doc, &[]));
    }

    #[test]
    fn round_trips_a_document() {
        let doc = bson::doc! {"a": 1};
        assert_eq!(decode_document(&doc.to_vec().unwrap()).unwrap(), doc);
    }

    #[test]
    fn rejects_trailing_bytes_and_short_input() {
        let mut bytes = bson::doc! {"a": 1}.to_vec().unwrap();
        bytes.push(0);
        assert!(decode_document(&bytes).is_err());
        assert!(decode_document(&[5, 0]).is_err());
        assert!(decode_document(&[]).is_err());
        assert!(decode_document(&[4, 0, 0, 0]).is_err());
    }
}

#[cfg(test)]
#[path = "bson_bytes_kept_tests.rs"]
mod kept_tests;
