//! Index bounds: for each key part an ordered list of disjoint intervals of values, built from
//! the predicates on that part's path (MongoDB's IndexBoundsBuilder). Comparisons are bracketed
//! by type (`{$gt: 65}` is `(65, inf.0]`, `{$gt: "a"}` is `("a", {})`), `$in` is a union of
//! points, a prefix regex is a string range, `$exists` is `[MinKey, MaxKey]`.

use std::cmp::Ordering;

use bson::{Bson, Document, oid::ObjectId};

use super::predicates::{CmpOp, Pred};
use crate::value::compare_values_simple as compare_values;
use crate::value::display::key_value;

/// One interval of values, low end first.
#[derive(Debug, Clone, PartialEq)]
pub struct Interval {
    pub low: Bson,
    pub low_inclusive: bool,
    pub high: Bson,
    pub high_inclusive: bool,
}

impl Interval {
    pub fn point(v: Bson) -> Interval {
        Interval {
            low: v.clone(),
            low_inclusive: true,
            high: v,
            high_inclusive: true,
        }
    }

    pub fn all() -> Interval {
        Interval {
            low: Bson::MinKey,
            low_inclusive: true,
            high: Bson::MaxKey,
            high_inclusive: true,
        }
    }

    pub fn is_point(&self) -> bool {
        self.low_inclusive && self.high_inclusive && compare_values(&self.low, &self.high).is_eq()
    }

    /// Where `v` lies relative to the interval: `Less` below it, `Equal` inside, `Greater` above.
    pub fn locate(&self, v: &Bson) -> Ordering {
        match compare_values(v, &self.low) {
            Ordering::Less => return Ordering::Less,
            Ordering::Equal if !self.low_inclusive => return Ordering::Less,
            _ => {}
        }
        match compare_values(v, &self.high) {
            Ordering::Greater => Ordering::Greater,
            Ordering::Equal if !self.high_inclusive => Ordering::Greater,
            _ => Ordering::Equal,
        }
    }

    fn is_empty(&self) -> bool {
        match compare_values(&self.low, &self.high) {
            Ordering::Greater => true,
            Ordering::Equal => !(self.low_inclusive && self.high_inclusive),
            Ordering::Less => false,
        }
    }

    /// MongoDB's rendering: `"(65, inf.0]"`, `"[\"a\", \"a\"]"`, `"[MinKey, MaxKey]"`. With
    /// `reversed`, the interval is written high end first (descending traversal).
    pub fn render(&self, reversed: bool) -> String {
        if reversed {
            format!(
                "{}{}, {}{}",
                if self.high_inclusive { '[' } else { '(' },
                bound_text(&self.high),
                bound_text(&self.low),
                if self.low_inclusive { ']' } else { ')' }
            )
        } else {
            format!(
                "{}{}, {}{}",
                if self.low_inclusive { '[' } else { '(' },
                bound_text(&self.low),
                bound_text(&self.high),
                if self.high_inclusive { ']' } else { ')' }
            )
        }
    }
}

fn bound_text(v: &Bson) -> String {
    match v {
        Bson::MinKey => "MinKey".into(),
        Bson::MaxKey => "MaxKey".into(),
        Bson::Undefined => "undefined".into(),
        Bson::Double(d) if d.is_nan() => "nan.0".into(),
        Bson::Double(d) if d.is_infinite() => {
            if *d > 0.0 {
                "inf.0".into()
            } else {
                "-inf.0".into()
            }
        }
        Bson::Array(a) if a.is_empty() => "[]".into(),
        other => key_value(other),
    }
}

/// The intervals a predicate allows, and whether they answer it exactly (so the predicate need
/// not be checked again on the document). `None`: the predicate cannot use an index.
pub fn intervals_for(pred: &Pred) -> Option<(Vec<Interval>, bool)> {
    match pred {
        Pred::Eq(v) => eq_intervals(v),
        Pred::Cmp(op, v) => cmp_intervals(*op, v),
        Pred::In(values) => {
            let mut out = Vec::new();
            let mut exact = true;
            for v in values {
                let (ivs, e) = eq_intervals(v)?;
                exact &= e;
                out.extend(ivs);
            }
            Some((normalize(out), exact))
        }
        Pred::Exists(true) => Some((vec![Interval::all()], false)),
        Pred::Exists(false) => Some((vec![Interval::point(Bson::Null)], false)),
        Pred::Regex(pattern, options) => {
            let prefix = literal_prefix(pattern, options);
            let strings = match prefix {
                Some(p) if !p.is_empty() => Interval {
                    low: Bson::String(p.clone()),
                    low_inclusive: true,
                    high: Bson::String(successor(&p)?),
                    high_inclusive: false,
                },
                _ => Interval {
                    low: Bson::String(String::new()),
                    low_inclusive: true,
                    high: Bson::Document(Document::new()),
                    high_inclusive: false,
                },
            };
            let re = Bson::RegularExpression(bson::Regex {
                pattern: pattern.as_str().try_into().ok()?,
                options: options.as_str().try_into().ok()?,
            });
            Some((normalize(vec![strings, Interval::point(re)]), false))
        }
        // MongoDB's IndexBoundsBuilder gives `$mod` every number, from NaN (the smallest) to
        // infinity, and tests the predicate on the index key (INEXACT_COVERED).
        Pred::Mod(..) => Some((
            vec![Interval {
                low: Bson::Double(f64::NAN),
                low_inclusive: true,
                high: Bson::Double(f64::INFINITY),
                high_inclusive: true,
            }],
            false,
        )),
        Pred::Other => None,
    }
}

/// Whether the predicate can be tested on an index key instead of the document (MongoDB's
/// INEXACT_COVERED tightness: a regex and `$mod`), so that an index scan over a path without
/// arrays filters keys before any document is fetched.
pub fn key_checkable(pred: &Pred) -> bool {
    matches!(pred, Pred::Regex(..) | Pred::Mod(..))
}

fn eq_intervals(v: &Bson) -> Option<(Vec<Interval>, bool)> {
    match v {
        Bson::Array(_)
        | Bson::RegularExpression(_)
        | Bson::MinKey
        | Bson::MaxKey
        | Bson::Undefined => None,
        Bson::Null => Some((vec![Interval::point(Bson::Null)], false)),
        other => Some((vec![Interval::point(other.clone())], true)),
    }
}

fn cmp_intervals(op: CmpOp, v: &Bson) -> Option<(Vec<Interval>, bool)> {
    // A comparison with NaN (double or decimal) matches only NaN or nothing; numeric bounds
    // from NaN would hold every number (found by the `index_scan` fuzz target: `{b: {$gt:
    // NumberDecimal('NaN')}}` answered from a sparse index returned a document with 0.5).
    let nan = match v {
        Bson::Double(d) => d.is_nan(),
        Bson::Decimal128(d) => crate::value::decimal_is_nan(d),
        _ => false,
    };
    if nan {
        return None;
    }
    if matches!(v, Bson::Null) {
        return match op {
            CmpOp::Gte | CmpOp::Lte => Some((vec![Interval::point(Bson::Null)], false)),
            CmpOp::Gt | CmpOp::Lt => Some((Vec::new(), true)),
        };
    }
    // An array has no type bracket here: MongoDB 8.0 bounds the array bracket, which a
    // multikey index (holding the elements) answers differently from a collection scan
    // (jstests/core/array_match4.js); MongoDB 8.1 made both agree
    // (jstests/core/array_index_and_nonIndex_consistent.js, requires_fcv_81), as Sprout does
    // by checking every document.
    let (min, max) = type_bracket(v)?;
    let iv = match op {
        CmpOp::Gt | CmpOp::Gte => Interval {
            low: v.clone(),
            low_inclusive: op == CmpOp::Gte,
            high: max.0,
            high_inclusive: max.1,
        },
        CmpOp::Lt | CmpOp::Lte => Interval {
            low: min.0,
            low_inclusive: min.1,
            high: v.clone(),
            high_inclusive: op == CmpOp::Lte,
        },
    };
    Some((normalize(vec![iv]), true))
}

type Edge = (Bson, bool);

/// The smallest and largest values of a value's canonical type, with inclusiveness.
fn type_bracket(v: &Bson) -> Option<(Edge, Edge)> {
    Some(match v {
        Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_) | Bson::Decimal128(_) => (
            (Bson::Double(f64::NEG_INFINITY), true),
            (Bson::Double(f64::INFINITY), true),
        ),
        Bson::String(_) | Bson::Symbol(_) => (
            (Bson::String(String::new()), true),
            (Bson::Document(Document::new()), false),
        ),
        Bson::Document(_) => (
            (Bson::Document(Document::new()), true),
            (Bson::Array(Vec::new()), false),
        ),
        Bson::ObjectId(_) => (
            (Bson::ObjectId(ObjectId::from_bytes([0; 12])), true),
            (Bson::ObjectId(ObjectId::from_bytes([0xFF; 12])), true),
        ),
        Bson::Boolean(_) => ((Bson::Boolean(false), true), (Bson::Boolean(true), true)),
        Bson::DateTime(_) => (
            (Bson::DateTime(bson::DateTime::from_millis(i64::MIN)), true),
            (Bson::DateTime(bson::DateTime::from_millis(i64::MAX)), true),
        ),
        Bson::Timestamp(_) => (
            (
                Bson::Timestamp(bson::Timestamp {
                    time: 0,
                    increment: 0,
                }),
                true,
            ),
            (
                Bson::Timestamp(bson::Timestamp {
                    time: u32::MAX,
                    increment: u32::MAX,
                }),
                true,
            ),
        ),
        _ => return None,
    })
}

/// The literal prefix of an anchored regex without flags that change matching (`^abc` → "abc").
/// A pattern with a `|` anywhere has none: an alternative need not start with the first one's
/// prefix (`^z|.` matches "a"), as MongoDB's `IndexBoundsBuilder::simpleRegex` decides.
fn literal_prefix(pattern: &str, options: &str) -> Option<String> {
    if options.contains('i')
        || options.contains('x')
        || options.contains('m')
        || pattern.contains('|')
    {
        return None;
    }
    let rest = pattern.strip_prefix('^')?;
    let mut prefix = String::new();
    let mut chars = rest.chars().peekable();
    while let Some(c) = chars.next() {
        // Escapes, as MongoDB's IndexBoundsBuilder::simpleRegex reads them: `\Q…\E` quotes a
        // literal run, a backslash before anything but a letter or digit is that character.
        if c == '\\' {
            match chars.next() {
                Some('Q') => {
                    loop {
                        match chars.next() {
                            None => break,
                            Some('\\') if chars.peek() == Some(&'E') => {
                                chars.next();
                                break;
                            }
                            Some(q) => prefix.push(q),
                        }
                    }
                    if matches!(chars.peek(), Some('*' | '?' | '{')) {
                        prefix.pop();
                        break;
                    }
                    continue;
                }
                Some(e) if !e.is_ascii_alphanumeric() => {
                    if matches!(chars.peek(), Some('*' | '?' | '{')) {
                        break;
                    }
                    prefix.push(e);
                    continue;
                }
                _ => break,
            }
        }
        if "\\.*+?()[]{}|^$".contains(c) {
            // A quantifier makes the preceding character optional.
            if matches!(c, '*' | '?' | '{') {
                prefix.pop();
            }
            break;
        }
        if matches!(chars.peek(), Some('*' | '?' | '{')) {
            break;
        }
        prefix.push(c);
    }
    Some(prefix)
}

/// The smallest string greater than every string starting with `p`.
fn successor(p: &str) -> Option<String> {
    let mut chars: Vec<char> = p.chars().collect();
    while let Some(last) = chars.pop() {
        if let Some(next) = char::from_u32(last as u32 + 1) {
            chars.push(next);
            return Some(chars.into_iter().collect());
        }
    }
    None
}

/// Sorts intervals and merges overlapping ones.
pub fn normalize(mut ivs: Vec<Interval>) -> Vec<Interval> {
    ivs.retain(|i| !i.is_empty());
    crate::sort_slice::sort_by(&mut ivs, |a, b| {
        compare_values(&a.low, &b.low).then_with(|| b.low_inclusive.cmp(&a.low_inclusive))
    });
    let mut out: Vec<Interval> = Vec::with_capacity(ivs.len());
    for iv in ivs {
        if let Some(last) = out.last_mut() {
            let touch = match compare_values(&iv.low, &last.high) {
                Ordering::Less => true,
                Ordering::Equal => iv.low_inclusive || last.high_inclusive,
                Ordering::Greater => false,
            };
            if touch {
                match compare_values(&iv.high, &last.high) {
                    Ordering::Greater => {
                        last.high = iv.high;
                        last.high_inclusive = iv.high_inclusive;
                    }
                    Ordering::Equal => last.high_inclusive |= iv.high_inclusive,
                    Ordering::Less => {}
                }
                continue;
            }
        }
        out.push(iv);
    }
    out
}

/// The intersection of two normalized interval lists.
pub fn intersect(a: &[Interval], b: &[Interval]) -> Vec<Interval> {
    let mut out = Vec::new();
    for x in a {
        for y in b {
            let (low, low_inclusive) = match compare_values(&x.low, &y.low) {
                Ordering::Greater => (x.low.clone(), x.low_inclusive),
                Ordering::Less => (y.low.clone(), y.low_inclusive),
                Ordering::Equal => (x.low.clone(), x.low_inclusive && y.low_inclusive),
            };
            let (high, high_inclusive) = match compare_values(&x.high, &y.high) {
                Ordering::Less => (x.high.clone(), x.high_inclusive),
                Ordering::Greater => (y.high.clone(), y.high_inclusive),
                Ordering::Equal => (x.high.clone(), x.high_inclusive && y.high_inclusive),
            };
            out.push(Interval {
                low,
                low_inclusive,
                high,
                high_inclusive,
            });
        }
    }
    normalize(out)
}

/// Whether every value in `inner` lies in `outer` (for partial-index eligibility).
pub fn contains(outer: &[Interval], inner: &[Interval]) -> bool {
    intersect(outer, inner) == normalize(inner.to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparison_bounds_are_type_bracketed() {
        let (ivs, exact) = intervals_for(&Pred::Cmp(CmpOp::Gt, Bson::Int32(65))).unwrap();
        assert!(exact);
        assert_eq!(ivs[0].render(false), "(65, inf.0]");
        assert_eq!(ivs[0].render(true), "[inf.0, 65)");
        let (ivs, _) = intervals_for(&Pred::Cmp(CmpOp::Lte, Bson::String("m".into()))).unwrap();
        assert_eq!(ivs[0].render(false), "[\"\", \"m\"]");
        let (ivs, exact) = intervals_for(&Pred::Regex("^ab.*".into(), String::new())).unwrap();
        assert!(!exact);
        assert_eq!(ivs[0].render(false), "[\"ab\", \"ac\")");
        assert_eq!(ivs[1].render(false), "[/^ab.*/, /^ab.*/]");
    }

    #[test]
    fn comparisons_with_nan_get_no_bounds() {
        let nan = Bson::Decimal128("NaN".parse().unwrap());
        for op in [CmpOp::Gt, CmpOp::Gte, CmpOp::Lt, CmpOp::Lte] {
            assert!(intervals_for(&Pred::Cmp(op, nan.clone())).is_none());
            assert!(intervals_for(&Pred::Cmp(op, Bson::Double(f64::NAN))).is_none());
        }
    }

    /// `^z|.` matches "a": an alternation gives no prefix, so the bounds are every string
    /// (issue #19: with an index on `a`, `count({a: /^z|./})` returned 0).
    #[test]
    fn alternation_has_no_prefix() {
        let (ivs, exact) = intervals_for(&Pred::Regex("^z|.".into(), String::new())).unwrap();
        assert!(!exact);
        assert_eq!(ivs[0].render(false), "[\"\", {})");
    }

    /// Escaped punctuation and `\Q…\E` runs are literal prefix characters; an escaped letter
    /// or digit is a class and ends the prefix (jstests/core/regex6.js).
    #[test]
    fn escapes_in_regex_prefixes() {
        let first = |p: &str| {
            intervals_for(&Pred::Regex(p.into(), String::new()))
                .unwrap()
                .0[0]
                .render(false)
        };
        assert_eq!(first("^\\/"), "[\"/\", \"0\")");
        assert_eq!(first("^\\Qa.b\\Ec"), "[\"a.bc\", \"a.bd\")");
        assert_eq!(first("^\\Q[\\Ewi\\Qth]s\\E"), "[\"[with]s\", \"[with]t\")");
        assert_eq!(first("^ab\\.?"), "[\"ab\", \"ac\")");
        assert_eq!(first("^\\d"), "[\"\", {})");
    }

    #[test]
    fn in_lists_merge_and_intersect() {
        let (ivs, _) = intervals_for(&Pred::In(vec![
            Bson::Int32(3),
            Bson::Int32(1),
            Bson::Double(3.0),
        ]))
        .unwrap();
        assert_eq!(ivs.len(), 2);
        let (gt, _) = intervals_for(&Pred::Cmp(CmpOp::Gt, Bson::Int32(2))).unwrap();
        let both = intersect(&ivs, &gt);
        assert_eq!(both, vec![Interval::point(Bson::Int32(3))]);
        assert!(contains(&gt, &both));
        assert!(!contains(&both, &gt));
        assert!(intervals_for(&Pred::Eq(Bson::Array(vec![]))).is_none());
    }
}
