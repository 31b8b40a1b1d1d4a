//! Evaluation of a filter against a stored document's BSON bytes, without reading the document
//! tree: a collection scan's per-document cost was reading fields of separately allocated
//! documents (`docs/performance.md`, sessions 11 and 12), while the bytes of one document are
//! contiguous and the collection keeps them in record order (`catalog::Collection`).
//!
//! The answer is three-valued: `Some(matched)` when the bytes decide it exactly as
//! [`super::eval`] would, `None` when they do not (a path reaching an array or an embedded
//! document, a dotted path, a value whose type is not read here); the caller then evaluates the
//! document itself. Combinators give up at the first child that is undecided, so a child that
//! the full evaluation would reach first (and that could fail there) is never skipped.

use bson::Bson;
use bson::oid::ObjectId;

use super::expr::{CmpOp, Expr, ValuePred};

/// Whether a filter tree is made only of what [`eval_raw`] reads (otherwise it is never tried).
pub fn raw_capable(expr: &Expr) -> bool {
    match expr {
        Expr::And(c) | Expr::Or(c) | Expr::Nor(c) => c.iter().all(raw_capable),
        Expr::Not(e) => raw_capable(e),
        Expr::Path { path, .. } => path.parts().len() == 1,
        Expr::AlwaysTrue | Expr::AlwaysFalse => true,
        Expr::Expression(_) | Expr::Where(_) | Expr::Text(_) | Expr::JsonSchema(_) => false,
    }
}

/// The top-level field names a filter for which [`raw_capable`] holds reads (repeats kept).
pub fn field_names<'e>(expr: &'e Expr, out: &mut Vec<&'e str>) {
    match expr {
        Expr::And(c) | Expr::Or(c) | Expr::Nor(c) => c.iter().for_each(|e| field_names(e, out)),
        Expr::Not(e) => field_names(e, out),
        Expr::Path { path, .. } => out.extend(path.parts().iter().map(String::as_str)),
        _ => {}
    }
}

/// Evaluates `expr` (for which [`raw_capable`] holds) against a document's BSON bytes.
///
/// A conjunction's paths and a lone path (what a scan's filter usually is) are decided in one
/// loop here, with one copy of the field lookup and the comparison in line: a call per
/// conjunct and per document was a large part of a scan in the size-optimised wasm build
/// (session 18); other children are evaluated by [`eval_other`].
pub fn eval_raw(expr: &Expr, doc: &[u8]) -> Option<bool> {
    let children = match expr {
        Expr::And(children) => children.as_slice(),
        Expr::Path { .. } => std::slice::from_ref(expr),
        _ => return eval_other(expr, doc),
    };
    for c in children {
        let decided = match c {
            Expr::Path { path, pred } => {
                let [name] = path.parts() else {
                    return None;
                };
                match find(doc, name.as_bytes())? {
                    None => pred.matches(None),
                    Some((tag, value)) => matches_element(pred, tag, value)?,
                }
            }
            _ => eval_raw(c, doc)?,
        };
        if !decided {
            return Some(false);
        }
    }
    Some(true)
}

/// The clauses of a filter that is a conjunction of predicates on top-level fields (or one
/// such predicate), as (field name, predicate) in the order [`eval_raw`] decides them; `None`
/// for any other filter. What a scan can decide from value columns (`catalog::scan_columns`).
pub(crate) fn top_level_clauses(expr: &Expr) -> Option<Vec<(&str, &ValuePred)>> {
    let children = match expr {
        Expr::And(children) if !children.is_empty() => children.as_slice(),
        Expr::Path { .. } => std::slice::from_ref(expr),
        _ => return None,
    };
    children
        .iter()
        .map(|c| match c {
            Expr::Path { path, pred } => match path.parts() {
                [name] => Some((name.as_str(), pred)),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// What [`eval_raw`] decides for a clause `pred` on a field whose value is each of `values`
/// (type byte and value bytes; `None`: the field is missing): `Some(matched)`, or `None` where
/// the document must be read. Through the value itself, as
/// [`matches_element`] decides what its fast paths do not (they answer the same, and a
/// column's distinct values are few: its code is not compiled twice).
pub(crate) fn clause_table(
    pred: &ValuePred,
    values: &mut dyn Iterator<Item = Option<(u8, &[u8])>>,
) -> Vec<Option<bool>> {
    values
        .map(|v| match v {
            None => Some(pred.matches(None)),
            Some((tag, value)) => string_or_scalar(tag, value).map(|v| pred.matches(Some(&v))),
        })
        .collect()
}

/// A top-level element's type byte and value bytes (cut to the value's length), as [`find`]
/// finds it: `Some(None)` when the document has no such field, `None` on bytes not understood.
pub(crate) fn element<'a>(doc: &'a [u8], name: &str) -> Option<Option<(u8, &'a [u8])>> {
    Some(match find(doc, name.as_bytes())? {
        None => None,
        Some((tag, value)) => Some((tag, value.get(..skip_len(tag, value)?)?)),
    })
}

/// [`eval_raw`] of what is neither a conjunction nor a path.
fn eval_other(expr: &Expr, doc: &[u8]) -> Option<bool> {
    match expr {
        Expr::And(_) | Expr::Path { .. } => eval_raw(expr, doc),
        Expr::Or(children) => {
            for c in children {
                if eval_raw(c, doc)? {
                    return Some(true);
                }
            }
            Some(false)
        }
        Expr::Nor(children) => {
            for c in children {
                if eval_raw(c, doc)? {
                    return Some(false);
                }
            }
            Some(true)
        }
        Expr::Not(inner) => Some(!eval_raw(inner, doc)?),
        Expr::AlwaysTrue => Some(true),
        Expr::AlwaysFalse => Some(false),
        Expr::Expression(_) | Expr::Where(_) | Expr::Text(_) | Expr::JsonSchema(_) => None,
    }
}

/// The values of the top-level fields `names` in a document's BSON bytes, in the document's
/// order, as `(index in names, value)`; `None` when a value is not a scalar or a string (read
/// the document then), a name appears twice (the decoded document keeps the last), or the
/// bytes are not understood.
pub(crate) fn top_level_values(
    doc: &[u8],
    names: &[&str],
    out: &mut Vec<(usize, Bson)>,
) -> Option<()> {
    each_named_element(doc, names, |i, tag, value| {
        if out.iter().any(|(j, _)| *j == i) {
            return None;
        }
        out.push((i, string_or_scalar(tag, value)?));
        Some(())
    })
}

/// The value of an element that is a string or of a type [`scalar`] reads (others: `None`).
fn string_or_scalar(tag: u8, value: &[u8]) -> Option<Bson> {
    if tag == 0x02 {
        Some(Bson::String(
            std::str::from_utf8(string_bytes(value)?).ok()?.to_string(),
        ))
    } else {
        scalar(tag, value)
    }
}

/// Calls `each` with the position in `names`, the type byte and the bytes from the value on
/// of every top-level element of the document `doc` whose name is one of `names`, in order;
/// `None` when the bytes are not understood or `each` answers `None`.
#[inline(always)]
pub(crate) fn each_named_element<'a>(
    doc: &'a [u8],
    names: &[&str],
    mut each: impl FnMut(usize, u8, &'a [u8]) -> Option<()>,
) -> Option<()> {
    let mut at = 4;
    loop {
        let tag = *doc.get(at)?;
        if tag == 0 {
            return Some(());
        }
        at += 1;
        let rest = doc.get(at..)?;
        let name_len = rest.iter().position(|&b| b == 0)?;
        let name = &rest[..name_len];
        at += name_len + 1;
        let value = doc.get(at..)?;
        if let Some(i) = names
            .iter()
            .position(|n| crate::path::same_name(n.as_bytes(), name))
        {
            each(i, tag, value)?;
        }
        at += skip_len(tag, value)?;
    }
}

/// A predicate on one element's value (`tag`: its BSON type byte; `value`: its bytes).
fn matches_element(pred: &ValuePred, tag: u8, value: &[u8]) -> Option<bool> {
    if tag == 0x02 {
        let bytes = string_bytes(value)?;
        // A string against a string needs no copy (what a scan's `{field: "text"}` asks of
        // every document); `eval::compare` answers the same for two strings: equality or the
        // order in force, bytes when no collation is.
        if let ValuePred::Cmp(op, Bson::String(rhs)) = pred {
            let ord = if crate::value::string_order::binary_in_force() {
                if *op == CmpOp::Eq {
                    return Some(crate::path::same_name(bytes, rhs.as_bytes()));
                }
                bytes.cmp(rhs.as_bytes())
            } else {
                let s = std::str::from_utf8(bytes).ok()?;
                if *op == CmpOp::Eq {
                    return Some(crate::value::string_order::equal_in_force(s, rhs));
                }
                crate::value::string_order::compare_in_force(s, rhs)
            };
            return Some(holds(*op, ord));
        }
        let s = std::str::from_utf8(bytes).ok()?;
        return Some(pred.matches(Some(&Bson::String(s.to_string()))));
    }
    // A 32- or 64-bit integer against an integer (a scan's `{stock: {$gt: 250}}`): same
    // canonical type (numbers), no NaN, so `eval::compare` orders them by value, which for
    // two integers widened to i64 is exact; no `Bson` is made and no type ranks are read.
    if let (0x10 | 0x12, ValuePred::Cmp(op, rhs @ (Bson::Int32(_) | Bson::Int64(_)))) = (tag, pred)
    {
        let x = if tag == 0x10 {
            i64::from(read_i32(value)?)
        } else {
            i64::from_le_bytes(value.get(..8)?.try_into().ok()?)
        };
        let y = match rhs {
            Bson::Int32(y) => i64::from(*y),
            Bson::Int64(y) => *y,
            _ => return None,
        };
        return Some(holds(*op, x.cmp(&y)));
    }
    let v = scalar(tag, value)?;
    Some(pred.matches(Some(&v)))
}

/// Whether `op` holds for two values in the order `ord`.
fn holds(op: CmpOp, ord: std::cmp::Ordering) -> bool {
    match op {
        CmpOp::Eq => ord.is_eq(),
        CmpOp::Lt => ord.is_lt(),
        CmpOp::Lte => ord.is_le(),
        CmpOp::Gt => ord.is_gt(),
        CmpOp::Gte => ord.is_ge(),
    }
}

/// The value of an element of a type that holds nothing on the heap (others: `None`).
pub(crate) fn scalar(tag: u8, v: &[u8]) -> Option<Bson> {
    Some(match tag {
        0x01 => Bson::Double(f64::from_le_bytes(v.get(..8)?.try_into().ok()?)),
        0x06 => Bson::Undefined,
        0x07 => Bson::ObjectId(ObjectId::from_bytes(v.get(..12)?.try_into().ok()?)),
        0x08 => Bson::Boolean(*v.first()? != 0),
        0x09 => Bson::DateTime(bson::DateTime::from_millis(i64::from_le_bytes(
            v.get(..8)?.try_into().ok()?,
        ))),
        0x0A => Bson::Null,
        0x10 => Bson::Int32(i32::from_le_bytes(v.get(..4)?.try_into().ok()?)),
        0x11 => Bson::Timestamp(bson::Timestamp {
            increment: u32::from_le_bytes(v.get(..4)?.try_into().ok()?),
            time: u32::from_le_bytes(v.get(4..8)?.try_into().ok()?),
        }),
        0x12 => Bson::Int64(i64::from_le_bytes(v.get(..8)?.try_into().ok()?)),
        0x13 => Bson::Decimal128(bson::Decimal128::from_bytes(v.get(..16)?.try_into().ok()?)),
        0x7F => Bson::MaxKey,
        0xFF => Bson::MinKey,
        _ => return None,
    })
}

/// A BSON string's bytes without its length prefix and terminating NUL.
#[inline(always)]
pub(crate) fn string_bytes(v: &[u8]) -> Option<&[u8]> {
    let len = read_i32(v)? as usize;
    v.get(4..4 + len.checked_sub(1)?)
}

#[inline(always)]
fn read_i32(v: &[u8]) -> Option<i32> {
    Some(i32::from_le_bytes(v.get(..4)?.try_into().ok()?))
}

/// Finds the top-level field `name`: `Some(None)` when the document has no such field,
/// `Some(Some((type, value bytes from the value on)))` when it has, `None` on bytes this reader
/// does not understand (then the caller reads the document instead).
fn find<'a>(doc: &'a [u8], name: &[u8]) -> Option<Option<(u8, &'a [u8])>> {
    let mut at = 4;
    loop {
        let tag = *doc.get(at)?;
        if tag == 0 {
            return Some(None);
        }
        at += 1;
        let rest = doc.get(at..)?;
        let name_len = rest.iter().position(|&b| b == 0)?;
        let same = name_len == name.len() && crate::path::same_name(&rest[..name_len], name);
        at += name_len + 1;
        let value = doc.get(at..)?;
        if same {
            return Some(Some((tag, value)));
        }
        at += skip_len(tag, value)?;
    }
}

/// [`crate::value::bson_bytes::value_len`], with the common fixed-size types and strings
/// answered in line (a scan skips several elements per document to reach a field).
#[inline(always)]
fn skip_len(tag: u8, value: &[u8]) -> Option<usize> {
    match tag {
        0x01 | 0x09 | 0x11 | 0x12 => Some(8),
        0x10 => Some(4),
        0x02 => Some(4 + usize::try_from(read_i32(value)?).ok()?),
        0x08 => Some(1),
        0x07 => Some(12),
        0x0A => Some(0),
        _ => crate::value::bson_bytes::value_len(tag, value),
    }
}

#[cfg(test)]
mod tests {
    use bson::{Bson, Document, doc};

    use super::*;
    use crate::matcher::Filter;

    /// Every filter below is answered from the bytes exactly as from the document, or not at
    /// all.
    fn check(filter: Document, docs: &[Document]) -> usize {
        let f = Filter::parse(&filter).unwrap();
        assert!(raw_capable(f.root()), "{filter}");
        let mut decided = 0;
        for d in docs {
            let bytes = d.to_vec().unwrap();
            let full = f.matches(d);
            if let Some(raw) = eval_raw(f.root(), &bytes) {
                assert_eq!(raw, full, "{filter} on {d}");
                decided += 1;
            }
        }
        decided
    }

    fn sample() -> Vec<Document> {
        vec![
            doc! {"_id": 1, "a": 5, "s": "games", "x": null},
            doc! {"_id": 2, "a": 5.5, "s": "books", "b": true},
            doc! {"_id": 3, "a": "5", "s": "gamez"},
            doc! {"_id": 4, "a": [1, 5], "s": ["games"]},
            doc! {"_id": 5, "a": {"b": 1}, "s": Bson::Symbol("games".into())},
            doc! {"_id": 6, "a": Bson::Int64(5), "re": Bson::RegularExpression(bson::Regex { pattern: "x".to_string().try_into().unwrap(), options: "i".to_string().try_into().unwrap() }),
            "bin": Bson::Binary(bson::Binary { subtype: bson::spec::BinarySubtype::Generic, bytes: vec![1, 2] }),
            "s": "games", "a2": f64::NAN},
            doc! {"_id": 7, "ts": bson::Timestamp { time: 5, increment: 9 },
            "d": bson::DateTime::from_millis(77), "min": Bson::MinKey, "max": Bson::MaxKey,
            "dec": bson::Decimal128::from_bytes([1; 16]), "o": ObjectId::from_bytes([3; 12]),
            "u": Bson::Undefined, "a": -2},
            doc! {"_id": 8, "a": Bson::Int64(-1), "big": Bson::Int64(i64::MAX)},
            doc! {"_id": 9, "a": i32::MIN, "big": Bson::Int64(i64::MIN)},
            doc! {"_id": 10, "a": 5, "big": i32::MAX, "s": "games"},
            doc! {"_id": 11, "a": 4.9, "big": f64::INFINITY},
            doc! {},
        ]
    }

    #[test]
    fn answers_as_the_document_does() {
        let docs = sample();
        let filters = [
            doc! {"a": 5},
            doc! {"a": {"$gt": 4}},
            doc! {"a": {"$lte": 5}, "s": "games"},
            doc! {"s": "games", "a": {"$gt": 1}},
            doc! {"s": {"$gte": "gamez"}},
            doc! {"s": {"$lt": "games"}},
            doc! {"s": {"$in": ["books", "gamez", 5]}},
            doc! {"s": {"$ne": "games"}},
            doc! {"a": {"$nin": [5, -2]}},
            doc! {"x": null},
            doc! {"missing": {"$exists": false}},
            doc! {"b": {"$exists": true}},
            doc! {"a": {"$type": "number"}},
            doc! {"$or": [{"a": 5}, {"s": "books"}]},
            doc! {"$nor": [{"a": 5}, {"s": "books"}]},
            doc! {"a": {"$not": {"$gt": 3}}},
            doc! {"ts": {"$gt": bson::Timestamp { time: 5, increment: 1 }}},
            doc! {"d": {"$lt": bson::DateTime::from_millis(100)}},
            doc! {"min": {"$lt": 0}},
            doc! {"max": {"$gt": 0}},
            doc! {"dec": {"$exists": true}},
            doc! {"o": ObjectId::from_bytes([3; 12])},
            doc! {"u": {"$type": "undefined"}},
            doc! {"a2": f64::NAN},
            doc! {"a": {"$mod": [2, 1]}},
            doc! {"a": {"$gte": Bson::Int64(5)}},
            doc! {"a": {"$lt": Bson::Int64(-1)}},
            doc! {"a": {"$lte": -2}},
            doc! {"a": {"$eq": Bson::Int64(5)}},
            doc! {"big": {"$gt": i32::MAX}},
            doc! {"big": {"$lt": Bson::Int64(i64::MAX)}},
            doc! {"big": {"$gte": Bson::Int64(i64::MIN)}},
            doc! {"s": {"$regex": "^gam"}},
            doc! {"$and": [{"a": 5}, {"$alwaysFalse": 1}]},
        ];
        for f in filters {
            let decided = check(f.clone(), &docs);
            assert!(decided >= 5, "{f}: only {decided} decided");
        }
    }

    #[test]
    fn arrays_embedded_documents_and_dotted_paths_are_left_to_the_document() {
        let f = Filter::parse(&doc! {"a": 5}).unwrap();
        let bytes = doc! {"a": [5]}.to_vec().unwrap();
        assert_eq!(eval_raw(f.root(), &bytes), None);
        let bytes = doc! {"a": {"b": 5}}.to_vec().unwrap();
        assert_eq!(eval_raw(f.root(), &bytes), None);
        assert!(!raw_capable(
            Filter::parse(&doc! {"a.b": 5}).unwrap().root()
        ));
        assert!(!raw_capable(
            Filter::parse(&doc! {"$expr": {"$eq": ["$a", 5]}})
                .unwrap()
                .root()
        ));
        // An undecided first clause stops the conjunction (the document answers it whole).
        let f = Filter::parse(&doc! {"a": 5, "s": "no"}).unwrap();
        let bytes = doc! {"a": [5], "s": "yes"}.to_vec().unwrap();
        assert_eq!(eval_raw(f.root(), &bytes), None);
    }

    #[test]
    fn top_level_values_read_as_the_document_decodes() {
        let d = doc! {"_id": 1, "ts": bson::DateTime::from_millis(86_400_000 * 3 + 5),
        "bytes": 700, "path": "/cart", "f": 2.5, "n": null, "a": [1], "o": {"x": 1}};
        let bytes = d.to_vec().unwrap();
        let mut out = Vec::new();
        top_level_values(
            &bytes,
            &["path", "ts", "bytes", "f", "n", "missing"],
            &mut out,
        )
        .unwrap();
        let names = ["path", "ts", "bytes", "f", "n", "missing"];
        assert_eq!(out.len(), 5);
        for (i, v) in &out {
            assert_eq!(Some(v), d.get(names[*i]), "{}", names[*i]);
        }
        // In the document's order.
        assert_eq!(
            out.iter().map(|(i, _)| *i).collect::<Vec<_>>(),
            [1, 2, 0, 3, 4]
        );
        // Arrays and embedded documents are left to the document.
        out.clear();
        assert_eq!(top_level_values(&bytes, &["a"], &mut out), None);
        out.clear();
        assert_eq!(top_level_values(&bytes, &["o"], &mut out), None);
        // A repeated name too.
        let mut twice = doc! {"a": 1}.to_vec().unwrap();
        twice.pop();
        twice.extend_from_slice(&[0x10, b'a', 0, 2, 0, 0, 0, 0]);
        let len = twice.len() as i32;
        twice[..4].copy_from_slice(&len.to_le_bytes());
        out.clear();
        assert_eq!(top_level_values(&twice, &["a"], &mut out), None);
        for end in 0..bytes.len() {
            out.clear();
            let _ = top_level_values(&bytes[..end], &["bytes"], &mut out);
        }
    }

    /// The in-line lengths are `value_len`'s for every type byte, whole, short or negative.
    #[test]
    fn skip_len_is_value_len() {
        let values: [&[u8]; 5] = [
            &[],
            &[
                3, 0, 0, 0, b'a', b'b', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            ],
            &[0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0],
            &[5, 0],
            &[0; 32],
        ];
        for tag in 0..=255u8 {
            for v in values {
                assert_eq!(
                    skip_len(tag, v),
                    crate::value::bson_bytes::value_len(tag, v),
                    "{tag:#x} {v:?}"
                );
            }
        }
    }

    #[test]
    fn truncated_bytes_are_undecided_never_a_panic() {
        let f = Filter::parse(&doc! {"z": 5}).unwrap();
        let bytes = doc! {"a": "text", "b": 1.5, "z": 5}.to_vec().unwrap();
        for end in 0..bytes.len() {
            let _ = eval_raw(f.root(), &bytes[..end]);
        }
        assert_eq!(eval_raw(f.root(), &bytes), Some(true));
    }
}
