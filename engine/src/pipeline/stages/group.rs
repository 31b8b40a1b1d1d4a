//! `$group: {_id: <expression>, <field>: {<accumulator>: <argument>}, ...}`: one output
//! document per distinct `_id` value (values that compare equal, like `1` and `1.0`, share a
//! group; the first one seen is shown). A missing `_id` value groups as null. Groups come out
//! in the order their first document arrived (MongoDB's order is unspecified).
//!
//! Over a collection scan the group reads the stored documents' bytes (`group_stored`); when
//! its `_id` is a constant, a top-level field or a UTC date part of one, and each accumulator
//! feeds a constant or a top-level field (`Group::fused`), each document's values are taken
//! from its bytes with no document built and no expression evaluated (`Grouper::add_fused`),
//! and groups are found by the key's bytes (`KeyCache`) before the ordered index, which alone
//! decides which keys are equal (`1`, `1.0`, `NumberLong(1)`; strings under a collation).

use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

use bson::{Bson, Document};

use crate::accumulator::{AccumulationStatement, State};
use crate::catalog::Collection;
use crate::error::{Error, Result};
use crate::expression::date::civil::Civil;
use crate::expression::{EvalContext, Expression, Scope, Vars};
use crate::pipeline::memory::{self, Held};
use crate::pipeline::{ParseContext, RunContext, Stage};
use crate::value::OrderedValue;

#[derive(Debug)]
pub struct Group {
    id: Expression,
    fields: Vec<AccumulationStatement>,
}

pub fn parse(arg: &Bson, cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    Ok(Box::new(Group::parse(arg, cx.scope)?))
}

impl Group {
    pub fn parse(arg: &Bson, scope: &Scope) -> Result<Group> {
        let Bson::Document(spec) = arg else {
            return Err(Error::location(
                15947,
                "a group's fields must be specified in an object",
            ));
        };
        let mut id = None;
        let mut fields = Vec::with_capacity(spec.len());
        for (name, value) in spec {
            if name == "_id" {
                id = Some(Expression::parse_in(value, scope)?);
            } else {
                fields.push(AccumulationStatement::parse(name, value, scope)?);
            }
        }
        let id =
            id.ok_or_else(|| Error::location(15955, "a group specification must include an _id"))?;
        Ok(Group { id, fields })
    }
}

impl Group {
    /// The group key of one document. An `_id` object of one field is evaluated as MongoDB's
    /// `DocumentSourceGroup::computeId` does: the field's expression alone, missing becoming null,
    /// so `{_id: {a: "$a"}}` puts `{a: null}` and `{}` in one group `{a: null}` (SERVER-21992,
    /// jstests/aggregation/bugs/groupMissing.js); with two or more fields a missing value stays
    /// missing and `{a: null, b: 1}` and `{b: 1}` are two groups.
    fn key(&self, vars: &Vars<'_>) -> Result<Bson> {
        if let Expression::Object(fields) = &self.id
            && let [(name, e)] = fields.as_slice()
        {
            let v = e.eval(vars)?.unwrap_or(Bson::Null);
            let mut d = Document::new();
            d.insert(name.clone(), v);
            return Ok(Bson::Document(d));
        }
        Ok(self.id.eval(vars)?.unwrap_or(Bson::Null))
    }

    fn group<'d>(
        &self,
        input: impl IntoIterator<Item = &'d Document>,
        cx: &RunContext<'_>,
    ) -> Result<Vec<Document>> {
        let out = group_documents(input, &self.fields, cx.eval, |vars| self.key(vars))?;
        memory::check(Held::Group, "$group", memory::held_bytes(&out), cx)?;
        Ok(out)
    }
}

impl Group {
    /// The top-level fields the `_id` and the accumulators read, when that is all they read
    /// of a document (`None`: they may read more, such as `$$ROOT`).
    fn fields_read(&self) -> Option<Vec<&str>> {
        let mut out = Vec::new();
        (self.id.top_level_fields(&mut out)
            && self
                .fields
                .iter()
                .all(|f| f.accumulator.top_level_fields(&mut out)))
        .then_some(out)
    }

    /// Groups stored documents read from their BSON bytes: each document's fields that the
    /// group reads are decoded into one small document, reused, that the `_id` and the
    /// accumulators are evaluated against (they read nothing else, [`Group::fields_read`]),
    /// instead of walking the separately allocated fields of each stored tree. A document
    /// whose bytes hold a value this does not decode (an array, an embedded document...) is
    /// read from its tree.
    fn group_stored(
        &self,
        coll: &Collection,
        stored: &[(u64, &[u8])],
        read: &[&str],
        cx: &RunContext<'_>,
    ) -> Result<Vec<Document>> {
        let mut g = Grouper::new(&self.fields, cx.eval, |vars: &Vars<'_>| self.key(vars));
        let fused = self.fused(read);
        let mut raw: Vec<Option<(u8, &[u8])>> = vec![None; read.len()];
        let mut args: Vec<Option<Bson>> = Vec::with_capacity(self.fields.len());
        let mut small = Document::new();
        // The small document's fields, as indexes into `read`, in its order.
        let mut order: Vec<usize> = Vec::new();
        let mut values: Vec<(usize, Bson)> = Vec::new();
        for (rid, bytes) in stored {
            if let Some(fused) = &fused
                && raw_fields(bytes, read, &mut raw).is_some()
                && g.add_fused(fused, &raw, &mut args)?
            {
                continue;
            }
            values.clear();
            if crate::matcher::raw::top_level_values(bytes, read, &mut values).is_none() {
                if let Some(d) = coll.get(*rid) {
                    g.add(d)?;
                }
                continue;
            }
            if values.len() == order.len() && values.iter().zip(&order).all(|((i, _), o)| i == o) {
                for ((_, slot), (_, v)) in small.iter_mut().zip(values.drain(..)) {
                    *slot = v;
                }
            } else {
                small.clear();
                order.clear();
                for (i, v) in values.drain(..) {
                    small.insert(read[i], v);
                    order.push(i);
                }
            }
            g.add(&small)?;
        }
        let out = g.finish();
        memory::check(Held::Group, "$group", memory::held_bytes(&out), cx)?;
        Ok(out)
    }
}

/// Where the fused stored-bytes path ([`Grouper::add_fused`]) reads a value: a constant, or
/// the top-level field `read[i]` (missing is missing).
#[derive(Debug)]
enum Source<'g> {
    Const(&'g Bson),
    Field(usize),
}

/// How the fused path computes the `_id`.
#[derive(Debug)]
enum KeySource<'g> {
    Value(Source<'g>),
    /// A date component (`{$dayOfMonth: "$ts"}`, no `timezone`: UTC) of the field `read[i]`.
    DatePart(fn(&Civil) -> Bson, usize),
}

/// A `$group` whose `_id` is a constant, a top-level field or a UTC date component of one, and
/// whose accumulators each feed a constant or a top-level field: each document's values are
/// taken from its bytes as they are needed, with no document built and no expression
/// evaluated ([`Group::fused`]).
#[derive(Debug)]
struct Fused<'g> {
    key: KeySource<'g>,
    args: Vec<Source<'g>>,
}

impl Group {
    /// The fused plan, when the group has that shape (see [`Fused`]); `read` holds the fields
    /// it reads ([`Group::fields_read`]).
    fn fused<'g>(&'g self, read: &[&str]) -> Option<Fused<'g>> {
        let source = |e: &'g Expression| -> Option<Source<'g>> {
            match e {
                Expression::Constant(v) => Some(Source::Const(v)),
                Expression::Path(p) if p.reads_document() => match p.fields() {
                    [name] => read.iter().position(|r| r == name).map(Source::Field),
                    _ => None,
                },
                _ => None,
            }
        };
        let key = match &self.id {
            Expression::Operator { def, args } => {
                match (
                    crate::expression::date::utc_component(def.name),
                    args.as_slice(),
                ) {
                    (Some(part), [date]) => match source(date)? {
                        Source::Field(i) => KeySource::DatePart(part, i),
                        Source::Const(_) => return None,
                    },
                    _ => return None,
                }
            }
            e => KeySource::Value(source(e)?),
        };
        let args = self
            .fields
            .iter()
            .map(|f| {
                f.accumulator
                    .folds_values()
                    .then(|| source(f.accumulator.argument()))
                    .flatten()
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Fused { key, args })
    }
}

/// The top-level fields `read` of a document's BSON bytes, one slot per name (`None`:
/// missing), as (type byte, bytes from the value on); `None` when a value is not a scalar or
/// a string (an array, an embedded document...), a name appears twice, or the bytes are not
/// understood, as [`crate::matcher::raw::top_level_values`] decides.
fn raw_fields<'a>(doc: &'a [u8], read: &[&str], out: &mut [Option<(u8, &'a [u8])>]) -> Option<()> {
    out.fill(None);
    crate::matcher::raw::each_named_element(doc, read, |i, tag, value| {
        if out[i].is_some()
            || !matches!(
                tag,
                0x01 | 0x02
                    | 0x06
                    | 0x07
                    | 0x08
                    | 0x09
                    | 0x0A
                    | 0x10
                    | 0x11
                    | 0x12
                    | 0x13
                    | 0x7F
                    | 0xFF
            )
        {
            return None;
        }
        out[i] = Some((tag, value));
        Some(())
    })
}

/// Whether a BSON type byte is a number's (double, int32, int64, decimal128).
fn is_number(tag: u8) -> bool {
    matches!(tag, 0x01 | 0x10 | 0x12 | 0x13)
}

/// A value [`raw_fields`] found, decoded (`None`: not valid, such as a string that is not
/// UTF-8).
fn raw_value(tag: u8, value: &[u8]) -> Option<Bson> {
    if tag == 0x02 {
        let s = crate::matcher::raw::string_bytes(value)?;
        Some(Bson::String(std::str::from_utf8(s).ok()?.to_owned()))
    } else {
        crate::matcher::raw::scalar(tag, value)
    }
}

/// A group key as the fused path sees it before building it: two keys with the same
/// `FastKey` are the same value (so equal under any collation), which lets
/// [`KeyCache`] find a group without comparing values. Integral doubles share integers'
/// keys (`1`, `1.0` and `NumberLong(1)` are one group, found by the ordered index the first
/// time each is seen).
#[derive(Debug, Clone, Copy)]
enum FastKey<'a> {
    Null,
    Int(i64),
    /// A double that is not an integer in `i64`'s range, by its bits.
    Double(u64),
    Date(i64),
    Str(&'a [u8]),
}

impl FastKey<'_> {
    /// The key of a raw value (`None` for a type without one: the ordered index decides).
    fn of(raw: Option<(u8, &[u8])>) -> Option<FastKey<'_>> {
        let Some((tag, v)) = raw else {
            return Some(FastKey::Null);
        };
        let eight = || Some(i64::from_le_bytes(v.get(..8)?.try_into().ok()?));
        Some(match tag {
            0x0A => FastKey::Null,
            0x10 => FastKey::Int(i64::from(i32::from_le_bytes(v.get(..4)?.try_into().ok()?))),
            0x12 => FastKey::Int(eight()?),
            0x09 => FastKey::Date(eight()?),
            0x01 => {
                let d = f64::from_le_bytes(v.get(..8)?.try_into().ok()?);
                // -2^63 <= d < 2^63 with no fraction: exactly that integer.
                let two_63 = -(i64::MIN as f64);
                if d.fract() == 0.0 && (-two_63..two_63).contains(&d) {
                    FastKey::Int(d as i64)
                } else {
                    FastKey::Double(d.to_bits())
                }
            }
            0x02 => FastKey::Str(crate::matcher::raw::string_bytes(v)?),
            _ => return None,
        })
    }
}

/// The groups already found by [`FastKey`], beside the ordered index that decides equality.
#[derive(Debug, Default)]
struct KeyCache {
    null: Option<usize>,
    ints: HashMap<i64, usize, KeyHash>,
    doubles: HashMap<u64, usize, KeyHash>,
    dates: HashMap<i64, usize, KeyHash>,
    /// The first [`FEW_STRINGS`] string keys, searched in order (fewer than hashing the
    /// string when there are few groups, the common case), then a map.
    few_strings: Vec<(Box<[u8]>, usize)>,
    strings: HashMap<Box<[u8]>, usize, KeyHash>,
}

const FEW_STRINGS: usize = 8;

impl KeyCache {
    fn get(&self, key: FastKey<'_>) -> Option<usize> {
        match key {
            FastKey::Null => self.null,
            FastKey::Int(i) => self.ints.get(&i).copied(),
            FastKey::Double(b) => self.doubles.get(&b).copied(),
            FastKey::Date(d) => self.dates.get(&d).copied(),
            FastKey::Str(s) => match self
                .few_strings
                .iter()
                .find(|(k, _)| crate::path::same_name(k, s))
            {
                Some((_, slot)) => Some(*slot),
                None if self.few_strings.len() < FEW_STRINGS => None,
                None => self.strings.get(s).copied(),
            },
        }
    }

    fn insert(&mut self, key: FastKey<'_>, slot: usize) {
        match key {
            FastKey::Null => self.null = Some(slot),
            FastKey::Int(i) => _ = self.ints.insert(i, slot),
            FastKey::Double(b) => _ = self.doubles.insert(b, slot),
            FastKey::Date(d) => _ = self.dates.insert(d, slot),
            FastKey::Str(s) if self.few_strings.len() < FEW_STRINGS => {
                self.few_strings.push((s.into(), slot));
            }
            FastKey::Str(s) => _ = self.strings.insert(s.into(), slot),
        }
    }
}

/// A multiplicative hash (as rustc's `FxHasher`) for the cache's integers and short strings:
/// SipHash's cost per lookup was the point of the cache.
type KeyHash = BuildHasherDefault<KeyHasher>;

#[derive(Debug, Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.write_u64(u64::from_le_bytes(c.try_into().unwrap_or_default()));
        }
        let mut last = [0u8; 8];
        last[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
        self.write_u64(u64::from_le_bytes(last));
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn write_i64(&mut self, n: i64) {
        self.write_u64(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

impl Stage for Group {
    fn name(&self) -> &'static str {
        "$group"
    }

    fn apply(&self, input: Vec<Document>, cx: &RunContext<'_>) -> Result<Vec<Document>> {
        self.group(&input, cx)
    }

    /// The `_id` and the accumulators read each document's metadata (`{$first: {$meta:
    /// "textScore"}}`, jstests/aggregation/bugs/server11675.js); the groups carry none.
    fn apply_with_meta(
        &self,
        input: Vec<Document>,
        meta: Option<Vec<crate::expression::DocumentMeta>>,
        cx: &RunContext<'_>,
    ) -> Result<crate::pipeline::Batch> {
        let Some(meta) = meta else {
            return Ok((self.apply(input, cx)?, None));
        };
        let mut g = Grouper::new(&self.fields, cx.eval, |vars: &Vars<'_>| self.key(vars));
        for (d, m) in input.iter().zip(&meta) {
            g.add_with_meta(d, Some(m))?;
        }
        let out = g.finish();
        memory::check(Held::Group, "$group", memory::held_bytes(&out), cx)?;
        Ok((out, None))
    }

    fn reads_in_place(&self) -> bool {
        true
    }

    fn apply_in_place(&self, input: &[&Document], cx: &RunContext<'_>) -> Result<Vec<Document>> {
        self.group(input.iter().copied(), cx)
    }

    fn reads_stored_bytes(&self) -> bool {
        self.fields_read().is_some()
    }

    fn apply_to_stored(
        &self,
        coll: &Collection,
        stored: &[(u64, &[u8])],
        cx: &RunContext<'_>,
    ) -> Result<Vec<Document>> {
        match self.fields_read() {
            Some(read) => self.group_stored(coll, stored, &read, cx),
            None => {
                let docs: Vec<&Document> = stored
                    .iter()
                    .filter_map(|(rid, _)| coll.get(*rid))
                    .collect();
                self.apply_in_place(&docs, cx)
            }
        }
    }

    fn depends_only_on_input_count(&self) -> bool {
        !self.id.reads_document() && !self.fields.iter().any(|f| f.accumulator.reads_document())
    }

    fn serialize(&self) -> Document {
        let mut d = Document::new();
        d.insert("_id", self.id.serialize());
        for f in &self.fields {
            d.insert(f.field.clone(), f.accumulator.serialize());
        }
        let mut out = Document::new();
        out.insert("$group", d);
        out
    }
}

/// Groups documents by a key and folds each group with the accumulators: the engine of
/// `$group`, `$bucket` and `$sortByCount`. Output documents are `{_id: key, <fields>...}` in
/// first-seen order of the keys.
pub(crate) fn group_documents<'d>(
    input: impl IntoIterator<Item = &'d Document>,
    fields: &[AccumulationStatement],
    eval: &EvalContext,
    key_of: impl Fn(&Vars<'_>) -> Result<Bson>,
) -> Result<Vec<Document>> {
    let mut g = Grouper::new(fields, eval, key_of);
    for doc in input {
        g.add(doc)?;
    }
    Ok(g.finish())
}

/// The groups so far, fed one document at a time (see [`group_documents`]).
struct Grouper<'f, K> {
    fields: &'f [AccumulationStatement],
    eval: &'f EvalContext,
    key_of: K,
    index: BTreeMap<OrderedValue, usize>,
    groups: Vec<(Bson, Vec<State>)>,
    /// Groups by [`FastKey`], for the fused path.
    cache: KeyCache,
}

impl<'f, K: Fn(&Vars<'_>) -> Result<Bson>> Grouper<'f, K> {
    fn new(fields: &'f [AccumulationStatement], eval: &'f EvalContext, key_of: K) -> Self {
        Grouper {
            fields,
            eval,
            key_of,
            index: BTreeMap::new(),
            groups: Vec::new(),
            cache: KeyCache::default(),
        }
    }

    /// The group of `key`, started when it is new.
    fn slot(&mut self, key: Bson) -> Result<usize> {
        let key = OrderedValue(key);
        Ok(match self.index.get(&key) {
            Some(i) => *i,
            None => {
                let states = self
                    .fields
                    .iter()
                    .map(|f| f.accumulator.start(&key.0))
                    .collect::<Result<Vec<_>>>()?;
                self.groups.push((key.0.clone(), states));
                self.index.insert(key, self.groups.len() - 1);
                self.groups.len() - 1
            }
        })
    }

    fn add(&mut self, doc: &Document) -> Result<()> {
        self.add_with_meta(doc, None)
    }

    /// Adds a document whose metadata the `_id` and the accumulators may read.
    fn add_with_meta(
        &mut self,
        doc: &Document,
        meta: Option<&crate::expression::DocumentMeta>,
    ) -> Result<()> {
        let vars = Vars::with_context(doc, self.eval).with_meta(meta);
        let slot = self.slot((self.key_of)(&vars)?)?;
        let states = &mut self.groups[slot].1;
        for (f, state) in self.fields.iter().zip(states.iter_mut()) {
            f.accumulator.accumulate(state, &vars)?;
        }
        Ok(())
    }

    /// Feeds one document from the fields [`raw_fields`] read of it, as [`Grouper::add`]
    /// would from the document (the same key, the same values in the same order); `false`,
    /// having changed nothing, when it cannot (a date component of a value that is not a date
    /// or null, a string that is not UTF-8): then the caller feeds the document to `add`.
    fn add_fused(
        &mut self,
        plan: &Fused<'_>,
        raw: &[Option<(u8, &[u8])>],
        args: &mut Vec<Option<Bson>>,
    ) -> Result<bool> {
        args.clear();
        for (a, f) in plan.args.iter().zip(self.fields) {
            args.push(match a {
                // Read where it is when fed.
                Source::Const(_) => None,
                Source::Field(i) => match raw[*i] {
                    None => None,
                    // `$sum` ignores what is not a number: no string is made for it.
                    Some((tag, _)) if f.accumulator.is_sum() && !is_number(tag) => None,
                    Some((tag, v)) => match raw_value(tag, v) {
                        Some(v) => Some(v),
                        None => return Ok(false),
                    },
                },
            });
        }
        let slot = match &plan.key {
            KeySource::Value(Source::Const(v)) => self.slot((*v).clone())?,
            KeySource::Value(Source::Field(i)) => {
                let raw = raw[*i];
                let fast = FastKey::of(raw);
                match fast.and_then(|k| self.cache.get(k)) {
                    Some(slot) => slot,
                    None => {
                        let key = match raw {
                            None => Bson::Null,
                            Some((tag, v)) => match raw_value(tag, v) {
                                Some(v) => v,
                                None => return Ok(false),
                            },
                        };
                        let slot = self.slot(key)?;
                        if let Some(k) = fast {
                            self.cache.insert(k, slot);
                        }
                        slot
                    }
                }
            }
            KeySource::DatePart(part, i) => {
                let (fast, key) = match raw[*i] {
                    None | Some((0x06 | 0x0A, _)) => (FastKey::Null, Bson::Null),
                    Some((0x09, v)) => {
                        let Some(ms) = v.get(..8).and_then(|b| b.try_into().ok()) else {
                            return Ok(false);
                        };
                        let key = part(&Civil::from_millis(i64::from_le_bytes(ms)));
                        let n = match key {
                            Bson::Int32(n) => i64::from(n),
                            Bson::Int64(n) => n,
                            _ => return Ok(false),
                        };
                        (FastKey::Int(n), key)
                    }
                    _ => return Ok(false),
                };
                match self.cache.get(fast) {
                    Some(slot) => slot,
                    None => {
                        let slot = self.slot(key)?;
                        self.cache.insert(fast, slot);
                        slot
                    }
                }
            }
        };
        let states = &mut self.groups[slot].1;
        for (((f, state), v), a) in self
            .fields
            .iter()
            .zip(states.iter_mut())
            .zip(args.drain(..))
            .zip(&plan.args)
        {
            match a {
                Source::Const(c) => f.accumulator.fold_ref(state, Some(c))?,
                Source::Field(_) => f.accumulator.fold(state, v)?,
            }
        }
        Ok(true)
    }

    fn finish(self) -> Vec<Document> {
        let fields = self.fields;
        self.groups
            .into_iter()
            .map(|(key, states)| {
                let mut out = Document::new();
                out.insert("_id", key);
                for (f, state) in fields.iter().zip(&states) {
                    out.insert(f.field.clone(), f.accumulator.value(state));
                }
                out
            })
            .collect()
    }
}
