//! `$redact`: an expression decides, level by level, what of each document remains:
//! `$$KEEP` keeps the (sub)document whole, `$$PRUNE` drops it, `$$DESCEND` keeps its scalar
//! fields and asks again for each embedded document (inside arrays too).
//!
//! As in MongoDB, the expression is evaluated with `$$ROOT` and `$$CURRENT` both bound to the
//! (sub)document being decided.

use bson::{Bson, Document, doc};

use crate::error::{Error, Result};
use crate::expression::{DocumentMeta, Expression, Vars};
use crate::pipeline::{ParseContext, RunContext, Stage};
use crate::value::display::key_value;

const KEEP: &str = "keep";
const PRUNE: &str = "prune";
const DESCEND: &str = "descend";

#[derive(Debug)]
pub struct Redact {
    expr: Expression,
}

pub fn parse(arg: &Bson, cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    let mut scope = cx.scope.clone();
    for (name, value) in [("KEEP", KEEP), ("PRUNE", PRUNE), ("DESCEND", DESCEND)] {
        scope
            .constants
            .push((name.to_string(), Some(Bson::String(value.to_string()))));
    }
    Ok(Box::new(Redact {
        expr: Expression::parse_in(arg, &scope)?,
    }))
}

/// What the expression decided for one (sub)document.
enum Decision {
    Keep,
    Prune,
    Descend,
}

impl Redact {
    /// `meta`: the metadata of a pipeline document; an embedded document has none (MongoDB
    /// evaluates the expression with the embedded document as its root).
    fn decide(
        &self,
        doc: &Document,
        meta: Option<&DocumentMeta>,
        cx: &RunContext<'_>,
    ) -> Result<Decision> {
        let vars = Vars::with_context(doc, cx.eval).with_meta(meta);
        let result = self.expr.eval(&vars)?;
        match result.as_ref().and_then(Bson::as_str) {
            Some(KEEP) => Ok(Decision::Keep),
            Some(PRUNE) => Ok(Decision::Prune),
            Some(DESCEND) => Ok(Decision::Descend),
            _ => Err(Error::location(
                17053,
                format!(
                    "$redact's expression should not return anything aside from the variables \
                     $$KEEP, $$DESCEND, and $$PRUNE, but returned {}",
                    result
                        .as_ref()
                        .map_or_else(|| "MISSING".to_string(), key_value)
                ),
            )),
        }
    }

    /// The redacted document, or `None` when it is pruned.
    fn redact_document(
        &self,
        doc: Document,
        meta: Option<&DocumentMeta>,
        cx: &RunContext<'_>,
    ) -> Result<Option<Document>> {
        match self.decide(&doc, meta, cx)? {
            Decision::Keep => Ok(Some(doc)),
            Decision::Prune => Ok(None),
            Decision::Descend => {
                let mut out = Document::new();
                for (k, v) in doc {
                    if let Some(v) = self.redact_value(v, cx)? {
                        out.insert(k, v);
                    }
                }
                Ok(Some(out))
            }
        }
    }

    fn redact_value(&self, value: Bson, cx: &RunContext<'_>) -> Result<Option<Bson>> {
        match value {
            Bson::Document(d) => Ok(self.redact_document(d, None, cx)?.map(Bson::Document)),
            Bson::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    if let Some(v) = self.redact_value(item, cx)? {
                        out.push(v);
                    }
                }
                Ok(Some(Bson::Array(out)))
            }
            other => Ok(Some(other)),
        }
    }
}

impl Stage for Redact {
    fn name(&self) -> &'static str {
        "$redact"
    }

    fn apply(&self, input: Vec<Document>, cx: &RunContext<'_>) -> Result<Vec<Document>> {
        let mut out = Vec::with_capacity(input.len());
        for doc in input {
            if let Some(d) = self.redact_document(doc, None, cx)? {
                out.push(d);
            }
        }
        Ok(out)
    }

    /// A kept document keeps its metadata, which the expression reads at the top level.
    fn apply_with_meta(
        &self,
        input: Vec<Document>,
        meta: Option<Vec<DocumentMeta>>,
        cx: &RunContext<'_>,
    ) -> Result<crate::pipeline::Batch> {
        let Some(meta) = meta else {
            return Ok((self.apply(input, cx)?, None));
        };
        let (mut out, mut out_meta) = (Vec::with_capacity(input.len()), Vec::new());
        for (doc, m) in input.into_iter().zip(meta) {
            if let Some(d) = self.redact_document(doc, Some(&m), cx)? {
                out.push(d);
                out_meta.push(m);
            }
        }
        Ok((out, Some(out_meta)))
    }

    fn serialize(&self) -> Document {
        doc! {"$redact": self.expr.serialize()}
    }
}

#[cfg(test)]
mod tests {
    use bson::{Document, doc};

    use crate::Engine;
    use crate::pipeline::test_support::first_batch;

    fn redact(docs: Vec<Document>, expr: bson::Bson) -> Document {
        let mut e = Engine::new();
        e.run_command("t", &doc! {"insert": "c", "documents": docs});
        e.run_command(
            "t",
            &doc! {"aggregate": "c", "pipeline": [{"$redact": expr}], "cursor": {}},
        )
    }

    #[test]
    fn descends_into_documents_and_arrays() {
        let level = bson::Bson::Document(doc! {"$cond": {
            "if": {"$lte": [{"$ifNull": ["$level", 0]}, 1]},
            "then": "$$DESCEND",
            "else": "$$PRUNE",
        }});
        let r = redact(
            vec![doc! {
                "_id": 1, "level": 1, "a": {"level": 2, "x": 1},
                "b": [{"level": 1, "y": 1}, {"level": 5}, 3, [{"level": 9}]],
                "c": {"z": 1},
            }],
            level,
        );
        assert_eq!(
            first_batch(&r),
            [doc! {"_id": 1, "level": 1, "b": [{"level": 1, "y": 1}, 3, []], "c": {"z": 1}}]
        );
    }

    #[test]
    fn keep_prune_and_bad_results() {
        let docs = vec![doc! {"_id": 1, "k": true}, doc! {"_id": 2, "k": false}];
        let r = redact(
            docs.clone(),
            bson::Bson::Document(doc! {"$cond": ["$k", "$$KEEP", "$$PRUNE"]}),
        );
        assert_eq!(first_batch(&r), [doc! {"_id": 1, "k": true}]);
        let r = redact(docs, bson::Bson::String("x".into()));
        assert_eq!(r.get_i32("code").unwrap(), 17053);
        assert_eq!(
            r.get_str("errmsg").unwrap(),
            "PlanExecutor error during aggregation :: caused by :: $redact's expression should \
             not return anything aside from the variables $$KEEP, $$DESCEND, and $$PRUNE, but \
             returned \"x\""
        );
    }
}
