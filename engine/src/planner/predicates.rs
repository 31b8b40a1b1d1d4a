//! The filter as the planner sees it: the canonical query's conjuncts
//! ([`crate::query::canonical`]: the top-level AND, nested `$and` flattened, each field's
//! operators split apart), each either an indexable predicate on one path or an opaque clause,
//! and the residual filters made of the clauses an index does not answer. The parsed
//! [`crate::matcher::Filter`] still decides matches; this view only chooses index bounds and
//! says which clauses an index answers exactly.

use bson::{Bson, Document, doc};

use crate::error::Result;
use crate::matcher::Filter;
pub use crate::query::canonical::{CmpOp, Conjunct, Pred};

/// The explain form of a list of conjuncts: one clause alone, or `{$and: [...]}`.
pub fn as_document(parts: &[&Conjunct]) -> Option<Document> {
    match parts {
        [] => None,
        [one] => Some(one.doc.clone()),
        many => Some(
            doc! {"$and": many.iter().map(|c| Bson::Document(c.doc.clone())).collect::<Vec<_>>()},
        ),
    }
}

/// A filter for the conjuncts an index did not answer, with its explain form.
#[derive(Debug, Clone)]
pub struct Residual {
    pub doc: Document,
    pub filter: Filter,
}

/// Builds the residual filter of the given conjuncts (`None` when there are none). `full` is
/// the whole parsed filter: it is used as is when the residual is the whole filter or holds a
/// top-level clause (`$expr` may refer to the command's `let` variables, known only to it).
pub fn residual(parts: &[&Conjunct], all: usize, full: &Filter) -> Result<Option<Residual>> {
    let Some(doc) = as_document(parts) else {
        return Ok(None);
    };
    let filter = if parts.len() == all || parts.iter().any(|c| c.path.is_none()) {
        full.clone()
    } else {
        Filter::all_of(parts.iter().map(|c| &c.clause))
    };
    Ok(Some(Residual { doc, filter }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::canonical::filter_conjuncts;

    #[test]
    fn residual_of_some_clauses_and_of_all() {
        let f =
            Filter::parse(&doc! {"a": 1, "b": {"$gt": 1}, "$or": [{"d": 1}, {"e": 1}]}).unwrap();
        let c = filter_conjuncts(&f);
        let all: Vec<&Conjunct> = c.iter().collect();
        let r = residual(&all[1..2], all.len(), &f).unwrap().unwrap();
        assert_eq!(r.doc, doc! {"b": {"$gt": 1}});
        assert!(r.filter.matches(&doc! {"b": 2}));
        assert!(!r.filter.matches(&doc! {"b": 1}));
        let r = residual(&all[1..], all.len(), &f).unwrap().unwrap();
        assert!(r.filter.matches(&doc! {"a": 1, "b": 2, "d": 1}));
        assert!(!r.filter.matches(&doc! {"a": 1, "b": 2, "d": 2}));
        assert!(residual(&[], all.len(), &f).unwrap().is_none());
    }
}
