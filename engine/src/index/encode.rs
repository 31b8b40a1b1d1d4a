//! An order-preserving byte encoding of BSON values: for any two values, comparing their
//! encodings byte by byte gives the same answer as [`crate::value::compare_values`]. Index keys
//! are stored in this form, so an ordered map of byte strings is an index in MongoDB's order.
//!
//! Layout: one byte of canonical type rank, then a type-specific body that is prefix-free (no
//! encoding is a proper prefix of another), so encodings can be concatenated for compound keys
//! and inverted byte by byte for descending key parts.
//!
//! Numbers of every type share one form: a class byte (NaN < -inf < negative < zero < positive
//! < +inf), then for finite non-zero values the decimal exponent and the significant digits,
//! with trailing zeros dropped so that `1`, `NumberLong(1)`, `1.0` and `NumberDecimal("1.00")`
//! encode alike. Doubles enter through their 34-digit decimal rounding, which is exact enough to
//! keep every two distinct doubles apart and every double apart from every distinct integer.

use bson::{Bson, Document};

use crate::value::{Decimal, canonical_type_rank, db_pointer_parts};

/// Appends the encoding of `v` to `out`.
pub fn encode_value(v: &Bson, out: &mut Vec<u8>) {
    out.push(canonical_type_rank(v));
    match v {
        Bson::MinKey | Bson::MaxKey | Bson::Undefined | Bson::Null => {}
        Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_) | Bson::Decimal128(_) => {
            encode_number(v, out)
        }
        Bson::String(s) | Bson::Symbol(s) | Bson::JavaScriptCode(s) => encode_str(s, out),
        Bson::Document(d) => encode_document(d, out),
        Bson::Array(items) => {
            for item in items {
                out.push(1);
                encode_value(item, out);
            }
            out.push(0);
        }
        Bson::Binary(b) => {
            out.extend_from_slice(&(b.bytes.len() as u32).to_be_bytes());
            out.push(u8::from(b.subtype));
            out.extend_from_slice(&b.bytes);
        }
        Bson::ObjectId(o) => out.extend_from_slice(&o.bytes()),
        Bson::Boolean(b) => out.push(u8::from(*b)),
        Bson::DateTime(d) => out.extend_from_slice(&signed(d.timestamp_millis())),
        Bson::Timestamp(t) => {
            out.extend_from_slice(&t.time.to_be_bytes());
            out.extend_from_slice(&t.increment.to_be_bytes());
        }
        Bson::RegularExpression(r) => {
            encode_str(r.pattern.as_str(), out);
            encode_str(r.options.as_str(), out);
        }
        Bson::JavaScriptCodeWithScope(c) => {
            encode_str(&c.code, out);
            encode_document(&c.scope, out);
        }
        Bson::DbPointer(_) => {
            // Ordered by namespace length, then namespace, then id (see value::order).
            let (ns, id) = db_pointer_parts(v);
            out.extend_from_slice(&(ns.len() as u32).to_be_bytes());
            encode_str(&ns, out);
            encode_str(&id, out);
        }
    }
}

/// The encoding of one value.
pub fn encode(v: &Bson) -> Vec<u8> {
    let mut out = Vec::new();
    encode_value(v, &mut out);
    out
}

/// Inverts a component in place, for a descending key part.
pub fn invert(bytes: &mut [u8]) {
    for b in bytes {
        *b = !*b;
    }
}

fn signed(i: i64) -> [u8; 8] {
    ((i as u64) ^ (1 << 63)).to_be_bytes()
}

/// Strings: bytes with 0x00 escaped as 0x00 0xFF, ended by 0x00 0x01.
fn encode_str(s: &str, out: &mut Vec<u8>) {
    for &b in s.as_bytes() {
        out.push(b);
        if b == 0 {
            out.push(0xFF);
        }
    }
    out.extend_from_slice(&[0, 1]);
}

/// Documents: per element a marker, the value's type rank, the name, the value; then an end byte.
fn encode_document(d: &Document, out: &mut Vec<u8>) {
    for (k, v) in d {
        out.push(1);
        out.push(canonical_type_rank(v));
        encode_str(k, out);
        encode_value(v, out);
    }
    out.push(0);
}

const NAN: u8 = 1;
const NEG_INF: u8 = 2;
const NEGATIVE: u8 = 3;
const ZERO: u8 = 4;
const POSITIVE: u8 = 5;
const POS_INF: u8 = 6;

fn encode_number(v: &Bson, out: &mut Vec<u8>) {
    let d = match v {
        Bson::Int32(i) => return encode_integer(i64::from(*i), out),
        Bson::Int64(i) => return encode_integer(*i, out),
        Bson::Double(f) => Decimal::from_f64(*f),
        Bson::Decimal128(d) => Decimal::from_bson(d),
        _ => Decimal::NaN,
    };
    match d {
        Decimal::NaN => out.push(NAN),
        Decimal::Infinity { negative: true } => out.push(NEG_INF),
        Decimal::Infinity { negative: false } => out.push(POS_INF),
        Decimal::Finite {
            negative,
            coefficient,
            exponent,
        } => {
            if coefficient == 0 {
                out.push(ZERO);
                return;
            }
            let mut c = coefficient;
            let mut e = exponent;
            while c % 10 == 0 {
                c /= 10;
                e += 1;
            }
            let digits = c.to_string();
            // The value is 0.d1d2d3... × 10^adjusted.
            let adjusted = e + digits.len() as i32;
            let start = out.len();
            out.push(if negative { NEGATIVE } else { POSITIVE });
            let body = out.len();
            out.extend_from_slice(&((adjusted as u32) ^ (1 << 31)).to_be_bytes());
            out.extend(digits.bytes().map(|b| b - b'0' + 1));
            out.push(0);
            if negative {
                invert(&mut out[body..]);
            }
            debug_assert!(out.len() > start);
        }
    }
}

/// An integer as [`encode_number`] encodes its decimal (`Decimal::from_i64`: the magnitude as
/// coefficient, exponent 0), with 64-bit arithmetic: the decimal's 128-bit divisions and
/// `to_string` are library calls in wasm (most of encoding an integer `_id` for the `_id_`
/// index on every insert, `docs/performance.md`, session 17). The same bytes (unit test).
fn encode_integer(i: i64, out: &mut Vec<u8>) {
    let mut c = i.unsigned_abs();
    if c == 0 {
        out.push(ZERO);
        return;
    }
    let mut e: i32 = 0;
    while c.is_multiple_of(10) {
        c /= 10;
        e += 1;
    }
    // The digits, last first, each plus one (as the decimal's are written).
    let mut digits = [0u8; 20];
    let mut n = 0;
    while c > 0 {
        digits[n] = (c % 10) as u8 + 1;
        c /= 10;
        n += 1;
    }
    let adjusted = e + n as i32;
    let negative = i < 0;
    out.push(if negative { NEGATIVE } else { POSITIVE });
    let body = out.len();
    out.extend_from_slice(&((adjusted as u32) ^ (1 << 31)).to_be_bytes());
    out.extend(digits[..n].iter().rev());
    out.push(0);
    if negative {
        invert(&mut out[body..]);
    }
}

/// The smallest byte string above every string that starts with `prefix`.
pub fn successor(prefix: &[u8]) -> Option<Vec<u8>> {
    let mut out = prefix.to_vec();
    while let Some(last) = out.pop() {
        if last < 0xFF {
            out.push(last + 1);
            return Some(out);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::compare_values;
    use bson::{Binary, Decimal128, Timestamp, doc, oid::ObjectId, spec::BinarySubtype};
    use std::cmp::Ordering;
    use std::str::FromStr;

    /// Integers encode as their decimal does (the path `encode_integer` replaces).
    #[test]
    fn integers_encode_as_their_decimal() {
        let decimal = |i: i64| {
            let mut out = Vec::new();
            encode_number(
                &Bson::Decimal128(Decimal128::from_str(&i.to_string()).unwrap()),
                &mut out,
            );
            out
        };
        let mut samples = vec![
            0, 1, -1, 9, 10, -10, 11, 100, 101, 1000, -1000, 120, 7_000_000,
        ];
        samples.extend([
            i64::MIN,
            i64::MAX,
            i64::MIN + 1,
            i64::from(i32::MIN),
            i64::from(i32::MAX),
        ]);
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for shift in 0..64 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            samples.push((x >> shift) as i64);
            samples.push(-((x >> (shift + 1).min(63)) as i64));
            samples.push(10_i64.saturating_pow(shift as u32 % 19) * 3);
        }
        for i in samples {
            let mut long = Vec::new();
            encode_number(&Bson::Int64(i), &mut long);
            assert_eq!(long, decimal(i), "{i}");
            if let Ok(small) = i32::try_from(i) {
                let mut int = Vec::new();
                encode_number(&Bson::Int32(small), &mut int);
                assert_eq!(int, long, "{i}");
            }
        }
    }

    /// A deterministic generator (xorshift) so the property test is reproducible.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    fn number(r: &mut Rng) -> Bson {
        let small = [-3i64, -2, -1, 0, 1, 2, 3, 10, 100, 1 << 53, (1 << 53) + 1];
        match r.below(9) {
            0 => Bson::Int32(small[r.below(small.len() as u64) as usize] as i32),
            1 => Bson::Int64(small[r.below(small.len() as u64) as usize]),
            2 => Bson::Int64(r.next() as i64),
            3 => Bson::Double(small[r.below(small.len() as u64) as usize] as f64),
            4 => Bson::Double(f64::from_bits(r.next())),
            5 => Bson::Double((r.below(2000) as f64 - 1000.0) / 8.0),
            6 => Bson::Double(
                [
                    f64::NAN,
                    f64::INFINITY,
                    f64::NEG_INFINITY,
                    -0.0,
                    0.1,
                    1e-300,
                    5e-324,
                ][r.below(7) as usize],
            ),
            7 => Bson::Decimal128(
                Decimal128::from_str(
                    [
                        "1.0",
                        "1.00",
                        "-0",
                        "0.1",
                        "2.5",
                        "-2.50",
                        "1E+3",
                        "NaN",
                        "-Infinity",
                        "9007199254740993",
                    ][r.below(10) as usize],
                )
                .unwrap_or_else(|_| Decimal128::from_bytes([0; 16])),
            ),
            _ => Bson::Int32(r.below(7) as i32 - 3),
        }
    }

    fn value(r: &mut Rng, depth: u32) -> Bson {
        let strings = ["", "a", "a\0", "a\0b", "ab", "b", "\u{e9}"];
        match r.below(if depth > 1 { 12 } else { 15 }) {
            0 => Bson::MinKey,
            1 => Bson::MaxKey,
            2 => Bson::Null,
            3 => Bson::Undefined,
            4..=6 => number(r),
            7 => Bson::String(strings[r.below(strings.len() as u64) as usize].into()),
            8 => Bson::Boolean(r.below(2) == 1),
            9 => Bson::DateTime(bson::DateTime::from_millis(r.below(5) as i64 - 2)),
            10 => Bson::Binary(Binary {
                subtype: if r.below(2) == 0 {
                    BinarySubtype::Generic
                } else {
                    BinarySubtype::Uuid
                },
                bytes: (0..r.below(3)).map(|_| r.below(3) as u8).collect(),
            }),
            11 => Bson::Timestamp(Timestamp {
                time: r.below(3) as u32,
                increment: r.below(3) as u32,
            }),
            12 => {
                let n = r.below(3);
                Bson::Array((0..n).map(|_| value(r, depth + 1)).collect())
            }
            13 => {
                let n = r.below(3);
                let mut d = Document::new();
                for _ in 0..n {
                    let k = ["a", "b", "a\0"][r.below(3) as usize];
                    d.insert(k, value(r, depth + 1));
                }
                Bson::Document(d)
            }
            _ => Bson::ObjectId(ObjectId::from_bytes([r.below(3) as u8; 12])),
        }
    }

    #[test]
    fn byte_order_matches_compare_values() {
        let mut r = Rng(0x9E37_79B9_7F4A_7C15);
        let values: Vec<Bson> = (0..600).map(|_| value(&mut r, 0)).collect();
        let encoded: Vec<Vec<u8>> = values.iter().map(encode).collect();
        let mut checked = 0;
        for (i, a) in values.iter().enumerate() {
            for (j, b) in values.iter().enumerate() {
                let expected = compare_values(a, b);
                let got = encoded[i].cmp(&encoded[j]);
                assert_eq!(got, expected, "{a:?} vs {b:?}");
                checked += 1;
            }
        }
        assert_eq!(checked, 360_000);
    }

    #[test]
    fn numbers_of_every_type_encode_alike_when_equal() {
        let one = encode(&Bson::Int32(1));
        assert_eq!(one, encode(&Bson::Int64(1)));
        assert_eq!(one, encode(&Bson::Double(1.0)));
        assert_eq!(
            one,
            encode(&Bson::Decimal128(Decimal128::from_str("1.00").unwrap()))
        );
        assert_eq!(encode(&Bson::Double(-0.0)), encode(&Bson::Int32(0)));
        let big = Bson::Int64((1 << 53) + 1);
        assert_eq!(
            encode(&big).cmp(&encode(&Bson::Double((1u64 << 53) as f64))),
            Ordering::Greater
        );
    }

    #[test]
    fn inverted_components_reverse_the_order() {
        let mut a = encode(&Bson::String("a".into()));
        let mut b = encode(&Bson::String("ab".into()));
        assert!(a < b);
        invert(&mut a);
        invert(&mut b);
        assert!(a > b);
        let d = doc! {"x": 1};
        assert!(encode(&Bson::Document(d)) < encode(&Bson::Array(vec![])));
    }
}
