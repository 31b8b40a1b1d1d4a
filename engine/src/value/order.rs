//! MongoDB's total order over BSON values (the order `sort` and indexes use):
//! MinKey < undefined < null < numbers < strings/symbols < objects < arrays < binary < ObjectId
//! < bool < date < timestamp < regex < MaxKey.

use std::cmp::Ordering;

use bson::{Bson, Document};

/// MongoDB's canonical type number of a value (`canonicalizeBSONType`): numbers share one, as do
/// strings and symbols. The hashed-index key hashes it; the value order compares by it.
pub fn canonical_type(v: &Bson) -> i32 {
    match v {
        Bson::MinKey => -1,
        Bson::Undefined => 0,
        Bson::Null => 5,
        Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_) | Bson::Decimal128(_) => 10,
        Bson::String(_) | Bson::Symbol(_) => 15,
        Bson::Document(_) => 20,
        Bson::Array(_) => 25,
        Bson::Binary(_) => 30,
        Bson::ObjectId(_) => 35,
        Bson::Boolean(_) => 40,
        Bson::DateTime(_) => 45,
        Bson::Timestamp(_) => 47,
        Bson::RegularExpression(_) => 50,
        Bson::DbPointer(_) => 55,
        Bson::JavaScriptCode(_) => 60,
        Bson::JavaScriptCodeWithScope(_) => 65,
        Bson::MaxKey => 127,
    }
}

/// The rank of a value's type in MongoDB's canonical order. Values of equal rank compare by value.
/// The same order as [`canonical_type`], shifted to fit a byte (index keys encode it).
pub fn canonical_type_rank(v: &Bson) -> u8 {
    match v {
        Bson::MinKey => 0,
        Bson::Undefined => 2,
        other => canonical_type(other) as u8,
    }
}

/// Compares two values in MongoDB's order. Numbers compare exactly across int32, int64 and double;
/// strings compare in the order in force (`string_order`: a command's collation), binary without one.
pub fn compare_values(a: &Bson, b: &Bson) -> Ordering {
    compare_in(a, b, Strings::Collated)
}

/// Compares two values with strings in binary order whatever the collation in force: the order
/// of index keys, index bounds and the `_id` lookup.
pub fn compare_values_simple(a: &Bson, b: &Bson) -> Ordering {
    compare_in(a, b, Strings::Binary)
}

/// How strings compare in one comparison.
#[derive(Clone, Copy)]
enum Strings {
    Collated,
    Binary,
}

fn compare_strings(x: &str, y: &str, strings: Strings) -> Ordering {
    match strings {
        Strings::Collated => super::string_order::compare_in_force(x, y),
        Strings::Binary => x.cmp(y),
    }
}

fn compare_in(a: &Bson, b: &Bson, strings: Strings) -> Ordering {
    // Two values of the same common type compare as their type does, without the type
    // ranks and the cross-type number comparison below (the `_id` map's search on every
    // insert and lookup).
    match (a, b) {
        (Bson::Int32(x), Bson::Int32(y)) => return x.cmp(y),
        (Bson::Int64(x), Bson::Int64(y)) => return x.cmp(y),
        (Bson::ObjectId(x), Bson::ObjectId(y)) => return x.bytes().cmp(&y.bytes()),
        (Bson::String(x), Bson::String(y)) if matches!(strings, Strings::Binary) => {
            return x.cmp(y);
        }
        _ => {}
    }
    let (ra, rb) = (canonical_type_rank(a), canonical_type_rank(b));
    if ra != rb {
        return ra.cmp(&rb);
    }
    match (a, b) {
        (Bson::String(x) | Bson::Symbol(x), Bson::String(y) | Bson::Symbol(y)) => {
            compare_strings(x, y, strings)
        }
        (Bson::Document(x), Bson::Document(y)) => compare_documents(x, y, strings),
        (Bson::Array(x), Bson::Array(y)) => compare_arrays(x, y, strings),
        (Bson::Binary(x), Bson::Binary(y)) => x
            .bytes
            .len()
            .cmp(&y.bytes.len())
            .then_with(|| u8::from(x.subtype).cmp(&u8::from(y.subtype)))
            .then_with(|| x.bytes.cmp(&y.bytes)),
        (Bson::ObjectId(x), Bson::ObjectId(y)) => x.bytes().cmp(&y.bytes()),
        (Bson::Boolean(x), Bson::Boolean(y)) => x.cmp(y),
        (Bson::DateTime(x), Bson::DateTime(y)) => x.timestamp_millis().cmp(&y.timestamp_millis()),
        (Bson::Timestamp(x), Bson::Timestamp(y)) => x
            .time
            .cmp(&y.time)
            .then_with(|| x.increment.cmp(&y.increment)),
        (Bson::RegularExpression(x), Bson::RegularExpression(y)) => x
            .pattern
            .cmp(&y.pattern)
            .then_with(|| x.options.cmp(&y.options)),
        (Bson::JavaScriptCode(x), Bson::JavaScriptCode(y)) => x.cmp(y),
        (Bson::JavaScriptCodeWithScope(x), Bson::JavaScriptCodeWithScope(y)) => x
            .code
            .cmp(&y.code)
            .then_with(|| compare_documents(&x.scope, &y.scope, strings)),
        (Bson::DbPointer(_), Bson::DbPointer(_)) => {
            let (na, ia) = db_pointer_parts(a);
            let (nb, ib) = db_pointer_parts(b);
            na.len()
                .cmp(&nb.len())
                .then_with(|| na.cmp(&nb))
                .then_with(|| ia.cmp(&ib))
        }
        _ if ra == 10 => compare_numbers(a, b),
        _ => Ordering::Equal,
    }
}

/// Equality as the query language means it (`1`, `NumberLong(1)` and `1.0` are equal).
pub fn values_equal(a: &Bson, b: &Bson) -> bool {
    compare_values(a, b) == Ordering::Equal
}

fn compare_documents(a: &Document, b: &Document, strings: Strings) -> Ordering {
    let mut ia = a.iter();
    let mut ib = b.iter();
    loop {
        match (ia.next(), ib.next()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some((ka, va)), Some((kb, vb))) => {
                // Per element: type first, then field name, then value.
                let ord = canonical_type_rank(va)
                    .cmp(&canonical_type_rank(vb))
                    .then_with(|| ka.cmp(kb))
                    .then_with(|| compare_in(va, vb, strings));
                if ord != Ordering::Equal {
                    return ord;
                }
            }
        }
    }
}

fn compare_arrays(a: &[Bson], b: &[Bson], strings: Strings) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        let ord = compare_in(x, y, strings);
        if ord != Ordering::Equal {
            return ord;
        }
    }
    a.len().cmp(&b.len())
}

/// A number in a form that compares exactly: integers as i128-scaled, doubles by value.
enum Num {
    Int(i64),
    Float(f64),
}

fn as_num(v: &Bson) -> Num {
    match v {
        Bson::Int32(i) => Num::Int(i64::from(*i)),
        Bson::Int64(i) => Num::Int(*i),
        Bson::Double(d) => Num::Float(*d),
        _ => Num::Float(f64::NAN),
    }
}

/// A DBPointer's namespace and ObjectId hex (the bson crate keeps the fields private).
pub(crate) fn db_pointer_parts(v: &Bson) -> (String, String) {
    let ext = v.clone().into_canonical_extjson();
    let inner = ext.get("$dbPointer");
    let ns = inner
        .and_then(|p| p.get("$ref"))
        .and_then(|r| r.as_str())
        .unwrap_or_default()
        .to_string();
    let id = inner
        .and_then(|p| p.get("$id"))
        .and_then(|i| i.get("$oid"))
        .and_then(|o| o.as_str())
        .unwrap_or_default()
        .to_string();
    (ns, id)
}

fn compare_numbers(a: &Bson, b: &Bson) -> Ordering {
    if matches!(a, Bson::Decimal128(_)) || matches!(b, Bson::Decimal128(_)) {
        return super::numeric::compare_with_decimal(a, b);
    }
    match (as_num(a), as_num(b)) {
        (Num::Int(x), Num::Int(y)) => x.cmp(&y),
        (Num::Float(x), Num::Float(y)) => compare_doubles(x, y),
        (Num::Int(x), Num::Float(y)) => compare_int_double(x, y),
        (Num::Float(x), Num::Int(y)) => compare_int_double(y, x).reverse(),
    }
}

/// NaN sorts below every other number and equals itself, as in MongoDB.
fn compare_doubles(x: f64, y: f64) -> Ordering {
    match (x.is_nan(), y.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        _ => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
    }
}

/// Exact comparison of an i64 with a double, without rounding the integer.
fn compare_int_double(i: i64, d: f64) -> Ordering {
    if d.is_nan() {
        return Ordering::Greater;
    }
    // 2^63 as f64 is exact; every i64 is below it.
    if d >= 9_223_372_036_854_775_808.0 {
        return Ordering::Less;
    }
    if d < -9_223_372_036_854_775_808.0 {
        return Ordering::Greater;
    }
    let t = d.trunc();
    let ti = t as i64; // exact: |t| < 2^63
    match i.cmp(&ti) {
        Ordering::Equal => {
            // Same integer part: the fraction decides.
            if d > t {
                Ordering::Less
            } else if d < t {
                Ordering::Greater
            } else {
                Ordering::Equal
            }
        }
        o => o,
    }
}

/// A value ordered by [`compare_values`] (under the collation in force), for ordered maps keyed
/// by BSON values that live for one command: group keys, lookup tables, partitions.
#[derive(Debug, Clone)]
pub struct OrderedValue(pub Bson);

impl PartialEq for OrderedValue {
    fn eq(&self, other: &Self) -> bool {
        compare_values(&self.0, &other.0) == Ordering::Equal
    }
}
impl Eq for OrderedValue {}
impl PartialOrd for OrderedValue {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for OrderedValue {
    fn cmp(&self, other: &Self) -> Ordering {
        compare_values(&self.0, &other.0)
    }
}

/// A value ordered by [`compare_values_simple`]: for sets and maps whose order must not change
/// with the collation of the command that touches them (`$graphLookup`'s visited `_id`s).
#[derive(Debug, Clone)]
pub struct SimpleOrderedValue(pub Bson);

impl PartialEq for SimpleOrderedValue {
    fn eq(&self, other: &Self) -> bool {
        compare_values_simple(&self.0, &other.0) == Ordering::Equal
    }
}
impl Eq for SimpleOrderedValue {}
impl PartialOrd for SimpleOrderedValue {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for SimpleOrderedValue {
    fn cmp(&self, other: &Self) -> Ordering {
        compare_values_simple(&self.0, &other.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::{doc, oid::ObjectId};

    #[test]
    fn same_type_shortcuts_agree_with_the_general_comparison() {
        let ints = [i32::MIN, -7, -1, 0, 1, 7, i32::MAX];
        for a in ints {
            for b in ints {
                // Int32 against Int32 (the shortcut) as Int32 against Int64 (the general path).
                let short = compare_values_simple(&Bson::Int32(a), &Bson::Int32(b));
                let general = compare_values_simple(&Bson::Int32(a), &Bson::Int64(b.into()));
                assert_eq!(short, general, "{a} {b}");
                let long = compare_values_simple(&Bson::Int64(a.into()), &Bson::Int64(b.into()));
                assert_eq!(long, general, "{a} {b}");
            }
        }
        let s = |x: &str| Bson::String(x.into());
        assert_eq!(compare_values_simple(&s("B"), &s("a")), Ordering::Less);
        assert_eq!(compare_values_simple(&s("ab"), &s("a")), Ordering::Greater);
        let (x, y) = (ObjectId::from_bytes([0; 12]), ObjectId::from_bytes([1; 12]));
        assert_eq!(
            compare_values_simple(&Bson::ObjectId(x), &Bson::ObjectId(y)),
            Ordering::Less
        );
    }

    #[test]
    fn type_order() {
        let ordered = [
            Bson::MinKey,
            Bson::Null,
            Bson::Int32(5),
            Bson::String("a".into()),
            Bson::Document(doc! {}),
            Bson::Array(vec![]),
            Bson::ObjectId(ObjectId::new()),
            Bson::Boolean(false),
            Bson::DateTime(bson::DateTime::from_millis(0)),
            Bson::MaxKey,
        ];
        for w in ordered.windows(2) {
            assert_eq!(
                compare_values(&w[0], &w[1]),
                Ordering::Less,
                "{:?} < {:?}",
                w[0],
                w[1]
            );
        }
    }

    fn bin(subtype: u8, bytes: &[u8]) -> Bson {
        Bson::Binary(bson::Binary {
            subtype: bson::spec::BinarySubtype::from(subtype),
            bytes: bytes.to_vec(),
        })
    }

    fn regex(p: &str, o: &str) -> Bson {
        Bson::RegularExpression(bson::Regex {
            pattern: p.to_string().try_into().unwrap(),
            options: o.to_string().try_into().unwrap(),
        })
    }

    #[test]
    fn full_canonical_order() {
        let ordered = [
            Bson::MinKey,
            Bson::Undefined,
            Bson::Null,
            Bson::Double(f64::NAN),
            Bson::Double(f64::NEG_INFINITY),
            Bson::Int32(-1),
            Bson::Decimal128("0.5".parse().unwrap()),
            Bson::Int64(1),
            Bson::String("".into()),
            Bson::String("a".into()),
            Bson::Symbol("b".into()),
            Bson::Document(doc! {}),
            Bson::Document(doc! {"a": 1}),
            Bson::Array(vec![]),
            Bson::Array(vec![Bson::Int32(1)]),
            bin(5, &[9]),
            bin(0, &[1, 2]),
            bin(1, &[0, 0]),
            Bson::ObjectId(ObjectId::from_bytes([0; 12])),
            Bson::Boolean(false),
            Bson::Boolean(true),
            Bson::DateTime(bson::DateTime::from_millis(-1)),
            Bson::Timestamp(bson::Timestamp {
                time: 1,
                increment: 5,
            }),
            Bson::Timestamp(bson::Timestamp {
                time: 2,
                increment: 0,
            }),
            regex("a", "i"),
            regex("b", ""),
            Bson::JavaScriptCode("x".into()),
            Bson::JavaScriptCodeWithScope(bson::JavaScriptCodeWithScope {
                code: "x".into(),
                scope: doc! {},
            }),
            Bson::MaxKey,
        ];
        for (i, a) in ordered.iter().enumerate() {
            for (j, b) in ordered.iter().enumerate() {
                assert_eq!(compare_values(a, b), i.cmp(&j), "{a:?} vs {b:?}");
            }
        }
        // Strings and symbols compare as one type.
        assert!(values_equal(
            &Bson::String("s".into()),
            &Bson::Symbol("s".into())
        ));
        // Documents compare field by field: type, then name, then value.
        assert_eq!(
            compare_values(
                &Bson::Document(doc! {"a": "x"}),
                &Bson::Document(doc! {"b": 1})
            ),
            Ordering::Greater
        );
    }

    #[test]
    fn exact_numeric_comparison() {
        let big = 9_007_199_254_740_993_i64; // 2^53 + 1: not representable as f64
        assert_eq!(
            compare_values(&Bson::Int64(big), &Bson::Double(9_007_199_254_740_992.0)),
            Ordering::Greater
        );
        assert!(values_equal(&Bson::Int32(1), &Bson::Double(1.0)));
        assert!(values_equal(&Bson::Int64(1), &Bson::Int32(1)));
        assert_eq!(
            compare_values(&Bson::Int32(1), &Bson::Double(1.5)),
            Ordering::Less
        );
        assert_eq!(
            compare_values(&Bson::Int32(-2), &Bson::Double(-1.5)),
            Ordering::Less
        );
        assert_eq!(
            compare_values(&Bson::Double(f64::NAN), &Bson::Int32(-100)),
            Ordering::Less
        );
    }
}
