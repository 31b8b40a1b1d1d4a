//! Hashed index keys: the 64-bit hash MongoDB computes for a value (hashed indexes,
//! `$toHashedIndexKey`), a function of the value alone.

use bson::Bson;

use super::canonical_type;

/// A hashed key as MongoDB computes it (BSONElementHasher::hash64 with seed 0): the MD5 of the
/// seed, then the value's canonical type and its bytes (numbers squashed to a 64-bit integer,
/// truncated toward zero, NaN as 0; sub-documents and arrays element by element with their
/// field names), read as a little-endian int64 from the first 8 bytes of the digest.
pub fn hash_value(v: &Bson) -> Bson {
    use md5::{Digest, Md5};
    let mut h = Md5::new();
    h.update(0_i32.to_le_bytes());
    hash_into(&mut h, v, None);
    let digest = h.finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    Bson::Int64(i64::from_le_bytes(first))
}

/// A number as the hash sees it: a 64-bit integer, doubles truncated toward zero and clamped.
fn number_for_hash(v: &Bson) -> Option<i64> {
    Some(match v {
        Bson::Int32(i) => i64::from(*i),
        Bson::Int64(i) => *i,
        Bson::Double(d) if d.is_nan() => 0,
        // `as` truncates toward zero and saturates at the i64 range, as MongoDB does.
        Bson::Double(d) => *d as i64,
        Bson::Decimal128(d) => {
            let f: f64 = d.to_string().parse().unwrap_or(0.0);
            if f.is_nan() { 0 } else { f as i64 }
        }
        _ => return None,
    })
}

fn hash_into(h: &mut md5::Md5, v: &Bson, field: Option<&str>) {
    use md5::Digest;
    h.update(canonical_type(v).to_le_bytes());
    if let Some(name) = field {
        h.update(name.as_bytes());
        h.update([0]);
    }
    if let Some(n) = number_for_hash(v) {
        h.update(n.to_le_bytes());
        return;
    }
    match v {
        Bson::Document(d) => {
            for (k, item) in d {
                hash_into(h, item, Some(k));
            }
            // The end-of-object element: canonical type 0, no name, no value.
            h.update(0_i32.to_le_bytes());
        }
        Bson::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                hash_into(h, item, Some(&i.to_string()));
            }
            h.update(0_i32.to_le_bytes());
        }
        Bson::JavaScriptCodeWithScope(c) => {
            h.update(string_bytes(&c.code));
            for (k, item) in &c.scope {
                hash_into(h, item, Some(k));
            }
            h.update(0_i32.to_le_bytes());
        }
        other => h.update(value_bytes(other)),
    }
}

/// A string as BSON stores it: int32 length (with the terminating NUL), bytes, NUL.
fn string_bytes(s: &str) -> Vec<u8> {
    let mut out = ((s.len() + 1) as i32).to_le_bytes().to_vec();
    out.extend_from_slice(s.as_bytes());
    out.push(0);
    out
}

/// The value part of a scalar's BSON element.
fn value_bytes(v: &Bson) -> Vec<u8> {
    match v {
        Bson::String(s) | Bson::JavaScriptCode(s) => string_bytes(s),
        Bson::Symbol(s) => string_bytes(s),
        Bson::ObjectId(o) => o.bytes().to_vec(),
        Bson::Boolean(b) => vec![u8::from(*b)],
        Bson::DateTime(d) => d.timestamp_millis().to_le_bytes().to_vec(),
        Bson::Timestamp(t) => {
            let mut out = t.increment.to_le_bytes().to_vec();
            out.extend_from_slice(&t.time.to_le_bytes());
            out
        }
        Bson::RegularExpression(r) => {
            let mut out = r.pattern.as_str().as_bytes().to_vec();
            out.push(0);
            out.extend_from_slice(r.options.as_str().as_bytes());
            out.push(0);
            out
        }
        Bson::Binary(b) => {
            let mut out = (b.bytes.len() as i32).to_le_bytes().to_vec();
            out.push(u8::from(b.subtype));
            out.extend_from_slice(&b.bytes);
            out
        }
        Bson::DbPointer(_) => bson::doc! {"v": v.clone()}
            .to_vec()
            .map(|bytes| {
                bytes
                    .get(8..bytes.len().saturating_sub(1))
                    .unwrap_or_default()
                    .to_vec()
            })
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}
