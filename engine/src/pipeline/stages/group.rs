//! `$group: {_id: <expression>, <field>: {<accumulator>: <argument>}, ...}`: one output
//! document per distinct `_id` value (values that compare equal, like `1` and `1.0`, share a
//! group; the first one seen is shown). A missing `_id` value groups as null. Groups come out
//! in the order their first document arrived (MongoDB's order is unspecified).

use std::collections::BTreeMap;

use bson::{Bson, Document};

use crate::accumulator::{AccumulationStatement, State};
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

impl Stage for Group {
    fn name(&self) -> &'static str {
        "$group"
    }

    fn apply(&self, input: Vec<Document>, cx: &RunContext<'_>) -> Result<Vec<Document>> {
        self.group(&input, cx)
    }

    fn reads_in_place(&self) -> bool {
        true
    }

    fn apply_in_place(&self, input: &[&Document], cx: &RunContext<'_>) -> Result<Vec<Document>> {
        self.group(input.iter().copied(), cx)
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
    let mut index: BTreeMap<OrderedValue, usize> = BTreeMap::new();
    let mut groups: Vec<(Bson, Vec<State>)> = Vec::new();
    for doc in input {
        let vars = Vars::with_context(doc, eval);
        let key = OrderedValue(key_of(&vars)?);
        let slot = match index.get(&key) {
            Some(i) => *i,
            None => {
                let states = fields
                    .iter()
                    .map(|f| f.accumulator.start(&key.0))
                    .collect::<Result<Vec<_>>>()?;
                groups.push((key.0.clone(), states));
                index.insert(key, groups.len() - 1);
                groups.len() - 1
            }
        };
        let states = &mut groups[slot].1;
        for (f, state) in fields.iter().zip(states.iter_mut()) {
            f.accumulator.accumulate(state, &vars)?;
        }
    }
    Ok(groups
        .into_iter()
        .map(|(key, states)| {
            let mut out = Document::new();
            out.insert("_id", key);
            for (f, state) in fields.iter().zip(&states) {
                out.insert(f.field.clone(), f.accumulator.value(state));
            }
            out
        })
        .collect())
}
