//! The `distinct` command: the different values a field takes, arrays unwound one level, in
//! MongoDB's value order (the server collects them in an ordered set).

use std::collections::BTreeSet;

use bson::{Bson, Document, doc};

use super::{document_option, target_namespace};
use crate::Engine;
use crate::error::{Error, Result};
use crate::exec::execute_distinct;
use crate::path::{FieldPath, LeafArrays, items};
use crate::query::CanonicalQuery;
use crate::query::FindSpec;
use crate::value::OrderedValue;
use crate::value::display::type_name;
use crate::write::check_known_fields;

/// `{distinct: <coll>, key, query, collation}` → `{values, ok}`.
pub fn distinct(
    engine: &mut Engine,
    db: &str,
    command: &Document,
    ctx: &crate::matcher::MatchContext<'_>,
) -> Result<Document> {
    let ns = target_namespace(db, command)?;
    let request = DistinctRequest::parse(command)?;
    let key = request.key;
    let spec = request.spec()?;
    let path = FieldPath::parse(key);
    let mut values = BTreeSet::new();
    let query = CanonicalQuery::new(&spec).with_hint(request.hint);
    let coll = engine.catalog().collection(&ns);
    for doc in execute_distinct(coll, key, &query, ctx, true)?.docs {
        collect(&doc, &path, &mut values);
    }
    let values: Vec<Bson> = values.into_iter().map(|v| v.0).collect();
    Ok(doc! {"values": values, "ok": 1.0})
}

/// A `distinct` command's arguments, read once with MongoDB's messages: by `distinct` and by
/// its explain, so the two cannot drift.
#[derive(Debug, Clone, Copy)]
pub(super) struct DistinctRequest<'c> {
    pub key: &'c str,
    pub query: Option<&'c Document>,
    /// `None` when absent or "none" (null, `""`, `{}`).
    pub hint: Option<&'c Bson>,
}

impl<'c> DistinctRequest<'c> {
    pub(super) fn parse(command: &'c Document) -> Result<Self> {
        check_known_fields(command, "distinct", &["key", "query", "collation", "hint"])?;
        let key = match command.get("key") {
            Some(Bson::String(k)) => k,
            Some(other) => {
                return Err(Error::type_mismatch(format!(
                    "BSON field 'distinct.key' is the wrong type '{}', expected type 'string'",
                    type_name(other)
                )));
            }
            None => {
                return Err(Error::location(
                    40414,
                    "BSON field 'distinct.key' is missing but a required field",
                ));
            }
        };
        // MongoDB's ParsedDistinct checks the key before anything reads it (Location31032;
        // DocumentDB's error table lists the same code for it).
        if key.contains('\0') {
            return Err(Error::location(
                31032,
                "Key field cannot contain an embedded null byte",
            ));
        }
        Ok(DistinctRequest {
            key,
            query: document_option(command, "distinct", "query")?,
            hint: command
                .get("hint")
                .filter(|h| !super::count::is_empty_hint(h)),
        })
    }

    /// The query, parsed.
    pub(super) fn spec(&self) -> Result<FindSpec> {
        FindSpec::parse(self.query, None, None, None, None)
    }
}

/// The distinct values of `key` over `docs`, in value order (a view's distinct).
pub(super) fn distinct_values(docs: &[Document], key: &str) -> Vec<Bson> {
    let path = FieldPath::parse(key);
    let mut values = BTreeSet::new();
    for doc in docs {
        collect(doc, &path, &mut values);
    }
    values.into_iter().map(|v| v.0).collect()
}

/// Adds the values `path` reaches in `doc` (through arrays of documents, as the matcher's walk
/// does); an array at the end of the path contributes its elements, not itself.
fn collect(doc: &Document, path: &FieldPath, out: &mut BTreeSet<OrderedValue>) {
    for item in items(doc, path, LeafArrays::NoExpand) {
        match item.value {
            Some(Bson::Array(elements)) => {
                out.extend(elements.iter().cloned().map(OrderedValue));
            }
            Some(v) => {
                out.insert(OrderedValue(v.clone()));
            }
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::Engine;
    use bson::{Bson, doc};

    #[test]
    fn values_are_unwound_deduplicated_and_ordered() {
        let mut e = Engine::new();
        e.run_command(
            "t",
            &doc! {"insert": "c", "documents": [
                {"_id": 1, "a": 3, "t": ["x", "y"], "s": {"k": [1, 2]}},
                {"_id": 2, "a": 1.0, "t": "y", "s": [{"k": 2}, {"k": 5}]},
                {"_id": 3, "a": 1, "t": [["x"]], "s": null},
                {"_id": 4, "a": "b", "t": [], "s": {}},
                {"_id": 5, "a": null},
            ]},
        );
        let values = |e: &mut Engine, cmd| {
            e.run_command("t", &cmd)
                .get_array("values")
                .unwrap()
                .clone()
        };
        assert_eq!(
            values(&mut e, doc! {"distinct": "c", "key": "a"}),
            vec![
                Bson::Null,
                Bson::Double(1.0),
                Bson::Int32(3),
                Bson::String("b".into())
            ]
        );
        assert_eq!(
            values(&mut e, doc! {"distinct": "c", "key": "t"}),
            vec![
                Bson::String("x".into()),
                Bson::String("y".into()),
                Bson::Array(vec![Bson::String("x".into())])
            ]
        );
        assert_eq!(
            values(&mut e, doc! {"distinct": "c", "key": "s.k"}),
            vec![Bson::Int32(1), Bson::Int32(2), Bson::Int32(5)]
        );
        assert_eq!(
            values(
                &mut e,
                doc! {"distinct": "c", "key": "a", "query": {"_id": 1}}
            ),
            vec![Bson::Int32(3)]
        );
        assert_eq!(
            values(&mut e, doc! {"distinct": "nope", "key": "a"}),
            vec![]
        );
    }

    #[test]
    fn key_must_be_a_string() {
        let mut e = Engine::new();
        let r = e.run_command("t", &doc! {"distinct": "c", "key": 1});
        assert_eq!(r.get_i32("code").unwrap(), 14);
        let r = e.run_command("t", &doc! {"distinct": "c"});
        assert_eq!(r.get_i32("code").unwrap(), 40414);
        let r = e.run_command("t", &doc! {"distinct": "c", "key": "a\0b"});
        assert_eq!(r.get_i32("code").unwrap(), 31032, "{r}");
    }
}
