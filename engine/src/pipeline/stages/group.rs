//! `$group: {_id: <expression>, <field>: {<accumulator>: <argument>}, ...}`: one output
//! document per distinct `_id` value (values that compare equal, like `1` and `1.0`, share a
//! group; the first one seen is shown). A missing `_id` value groups as null. Groups come out
//! in the order their first document arrived (MongoDB's order is unspecified).

use std::collections::BTreeMap;

use bson::{Bson, Document};

use crate::accumulator::{AccumulationStatement, State};
use crate::catalog::Collection;
use crate::error::{Error, Result};
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
        let mut small = Document::new();
        // The small document's fields, as indexes into `read`, in its order.
        let mut order: Vec<usize> = Vec::new();
        let mut values: Vec<(usize, Bson)> = Vec::new();
        for (rid, bytes) in stored {
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
}

impl<'f, K: Fn(&Vars<'_>) -> Result<Bson>> Grouper<'f, K> {
    fn new(fields: &'f [AccumulationStatement], eval: &'f EvalContext, key_of: K) -> Self {
        Grouper {
            fields,
            eval,
            key_of,
            index: BTreeMap::new(),
            groups: Vec::new(),
        }
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
        let key = OrderedValue((self.key_of)(&vars)?);
        let slot = match self.index.get(&key) {
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
        };
        let states = &mut self.groups[slot].1;
        for (f, state) in self.fields.iter().zip(states.iter_mut()) {
            f.accumulator.accumulate(state, &vars)?;
        }
        Ok(())
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
