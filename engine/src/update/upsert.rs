//! The document an upsert inserts: the query's equality conditions (top-level fields, `$eq`,
//! inside `$and`, dotted paths made into embedded documents), `_id` first, then the update
//! applied to it with `$setOnInsert` active.

use bson::{Bson, Document};

use crate::error::{Error, ErrorCode, Result};

/// MongoDB's nesting limit for stored documents (a seeded path builds one level per component).
const MAX_DEPTH: usize = 180;

/// Which of the query's equality fields seed the upserted document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeedScope {
    /// Operator updates start from every equality field.
    AllFields,
    /// Replacements start from the `_id` equality only.
    IdOnly,
}

/// The equality fields of an upsert's query as a document, `_id` first then by path.
pub fn seed_from_query(query: &Document, scope: SeedScope) -> Result<Document> {
    let mut equalities: Vec<(String, Bson)> = Vec::new();
    collect(query, &mut equalities);
    if scope == SeedScope::IdOnly {
        equalities.retain(|(path, _)| path == "_id" || path.starts_with("_id."));
    }
    for (i, (path, _)) in equalities.iter().enumerate() {
        if path.split('.').count() > MAX_DEPTH {
            return Err(Error::new(
                ErrorCode::Overflow,
                format!("Document exceeds maximum nesting depth of {MAX_DEPTH}"),
            ));
        }
        if path.starts_with("_id.") {
            return Err(Error::new(
                ErrorCode::NotExactValueField,
                format!(
                    "field at '_id' must be exactly specified, field at sub-path '{path}'found"
                ),
            ));
        }
        for (earlier, _) in &equalities[..i] {
            if earlier == path {
                return Err(Error::new(
                    ErrorCode::NotSingleValueField,
                    format!("cannot infer query fields to set, path '{path}' is matched twice"),
                ));
            }
            if is_prefix(earlier, path) || is_prefix(path, earlier) {
                return Err(Error::new(
                    ErrorCode::NotSingleValueField,
                    format!(
                        "cannot infer query fields to set, both paths '{earlier}' and '{path}' are matched"
                    ),
                ));
            }
        }
    }
    crate::sort_slice::sort_by(&mut equalities, |a, b| {
        (a.0 != "_id", &a.0).cmp(&(b.0 != "_id", &b.0))
    });
    let mut doc = Document::new();
    for (path, value) in equalities {
        let parts: Vec<&str> = path.split('.').collect();
        insert_at(&mut doc, &parts, value);
    }
    Ok(doc)
}

/// An upsert's query may not use `$expr` (MongoDB cannot seed a document from it).
pub fn check_upsert_query(query: &Document) -> Result<()> {
    for (key, value) in query {
        match (key.as_str(), value) {
            ("$expr", _) => {
                return Err(Error::new(
                    ErrorCode::QueryFeatureNotAllowed,
                    "$expr is not allowed in the query predicate for an upsert",
                ));
            }
            ("$and" | "$or" | "$nor", Bson::Array(clauses)) => {
                for clause in clauses {
                    if let Bson::Document(d) = clause {
                        check_upsert_query(d)?;
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

fn is_prefix(short: &str, long: &str) -> bool {
    long.len() > short.len() && long.starts_with(short) && long[short.len()..].starts_with('.')
}

fn collect(query: &Document, out: &mut Vec<(String, Bson)>) {
    for (key, value) in query {
        match key.as_str() {
            "$and" => each_clause(value, out),
            // A one-clause $or is simplified into its clause by MongoDB's query optimizer.
            "$or" if matches!(value, Bson::Array(c) if c.len() == 1) => each_clause(value, out),
            k if k.starts_with('$') => {}
            _ => {
                for v in equality_values(value) {
                    out.push((key.clone(), v));
                }
            }
        }
    }
}

fn each_clause(value: &Bson, out: &mut Vec<(String, Bson)>) {
    if let Bson::Array(clauses) = value {
        for clause in clauses {
            if let Bson::Document(d) = clause {
                collect(d, out);
            }
        }
    }
}

/// The values a field condition pins the field to: one for a plain value or `$eq`, one per
/// element of `$all` (each is an equality after MongoDB's rewriting), one for a one-element
/// `$in`. More than one value for a path is an ambiguity the caller reports.
fn equality_values(condition: &Bson) -> Vec<Bson> {
    // A DBRef (`{$ref, $id}`) is a value, as the query parser reads it.
    let is_literal = |v: &Bson| {
        !matches!(v, Bson::RegularExpression(_))
            && !matches!(v, Bson::Document(d) if crate::matcher::is_operator_document(d))
    };
    match condition {
        Bson::RegularExpression(_) => Vec::new(),
        Bson::Document(ops) if crate::matcher::is_operator_document(ops) => {
            let mut out = Vec::new();
            for (op, operand) in ops {
                match (op.as_str(), operand) {
                    ("$eq", v) => out.push(v.clone()),
                    ("$all", Bson::Array(items)) => {
                        out.extend(items.iter().filter(|v| is_literal(v)).cloned());
                    }
                    ("$in", Bson::Array(items)) if items.len() == 1 => {
                        out.extend(items.iter().filter(|v| is_literal(v)).cloned());
                    }
                    _ => {}
                }
            }
            out
        }
        other => vec![other.clone()],
    }
}

fn insert_at(doc: &mut Document, parts: &[&str], value: Bson) {
    let Some((first, rest)) = parts.split_first() else {
        return;
    };
    if rest.is_empty() {
        doc.insert(*first, value);
        return;
    }
    if !matches!(doc.get(*first), Some(Bson::Document(_))) {
        doc.insert(*first, Document::new());
    }
    if let Some(Bson::Document(inner)) = doc.get_mut(*first) {
        insert_at(inner, rest, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::{Regex, doc};

    fn seed_from_query_all(query: &Document) -> Result<Document> {
        seed_from_query(query, SeedScope::AllFields)
    }

    fn regex() -> Regex {
        Regex {
            pattern: "x".try_into().unwrap(),
            options: "".try_into().unwrap(),
        }
    }

    /// jstests/core/server1470.js: a DBRef in the query is an equality that seeds the field.
    #[test]
    fn dbref_equalities_seed_the_document() {
        let id = bson::oid::ObjectId::new();
        let seeded =
            seed_from_query_all(&doc! {"name": "first", "pic": {"$ref": "foo", "$id": id}})
                .unwrap();
        assert_eq!(
            seeded,
            doc! {"name": "first", "pic": {"$ref": "foo", "$id": id}}
        );
    }

    #[test]
    fn equality_fields_seed_the_document() {
        let seed = seed_from_query_all(&doc! {"name": "Andy"}).unwrap();
        assert_eq!(seed, doc! {"name": "Andy"});
        let seed = seed_from_query_all(&doc! {
            "b": 1, "a.x": 2, "a.y": {"$eq": 3}, "c": {"$gt": 1}, "_id": 7,
            "$and": [{"d": 4}, {"e": {"$in": [5]}}], "r": regex(),
        })
        .unwrap();
        assert_eq!(
            seed,
            doc! {"_id": 7, "a": {"x": 2, "y": 3}, "b": 1, "d": 4, "e": 5}
        );
        assert_eq!(
            seed_from_query_all(&doc! {"$or": [{"a": 1}, {"b": 2}]}).unwrap(),
            doc! {}
        );
        assert_eq!(
            seed_from_query_all(&doc! {"$or": [{"a": 1}]}).unwrap(),
            doc! {"a": 1}
        );
        assert_eq!(
            seed_from_query_all(&doc! {"a": {"$gt": 1, "$lt": 5}}).unwrap(),
            doc! {}
        );
    }

    #[test]
    fn all_and_in_seed_like_equalities() {
        assert_eq!(
            seed_from_query_all(&doc! {"b": {"$all": [2], "$in": [1, 2]}}).unwrap(),
            doc! {"b": 2}
        );
        let e = seed_from_query_all(&doc! {"b": {"$eq": 2, "$all": [2]}}).unwrap_err();
        assert_eq!(
            e.message,
            "cannot infer query fields to set, path 'b' is matched twice"
        );
        assert_eq!(
            seed_from_query_all(&doc! {"b": {"$all": [2, 1]}})
                .unwrap_err()
                .code(),
            54
        );
        // A replacement keeps only the _id equality, so other ambiguities do not matter.
        let q = doc! {"_id": 1234, "$and": [{"x": {"$eq": 1}}, {"x": 2}]};
        assert_eq!(
            seed_from_query(&q, SeedScope::IdOnly).unwrap(),
            doc! {"_id": 1234}
        );
    }

    #[test]
    fn expr_is_refused_in_upsert_queries() {
        let e = check_upsert_query(&doc! {"$or": [{"a": 1}, {"$expr": {"$gt": ["$b", 1]}}]})
            .unwrap_err();
        assert_eq!(
            (e.code(), e.message.as_str()),
            (
                224,
                "$expr is not allowed in the query predicate for an upsert"
            )
        );
        assert!(check_upsert_query(&doc! {"a": {"$gt": 1}, "$and": [{"b": 2}]}).is_ok());
    }

    #[test]
    fn seeded_paths_respect_the_nesting_limit() {
        let deep = vec!["a"; 500].join(".");
        let e = seed_from_query_all(&doc! {deep: 1}).unwrap_err();
        assert_eq!(e.code(), 15);
    }

    #[test]
    fn ambiguous_queries_fail() {
        let e = seed_from_query_all(&doc! {"a": 1, "$and": [{"a": 2}]}).unwrap_err();
        assert_eq!(
            (e.code(), e.message.as_str()),
            (
                54,
                "cannot infer query fields to set, path 'a' is matched twice"
            )
        );
        let e = seed_from_query_all(&doc! {"a": 1, "a.b": 2}).unwrap_err();
        assert_eq!(e.code(), 54);
        let e = seed_from_query_all(&doc! {"_id.name": "Robert Frost", "_id.uid": 0}).unwrap_err();
        assert_eq!(
            (e.code(), e.message.as_str()),
            (
                111,
                "field at '_id' must be exactly specified, field at sub-path '_id.name'found"
            )
        );
    }
}
