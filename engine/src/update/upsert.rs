//! The document an upsert inserts: the query's equality conditions (top-level fields, `$eq`,
//! inside `$and`, dotted paths made into embedded documents), `_id` first, then the update
//! applied to it with `$setOnInsert` active.

use bson::{Bson, Document};

use crate::error::{Error, ErrorCode, Result};

/// The equality fields of an upsert's query as a document, `_id` first then by path.
pub fn seed_from_query(query: &Document) -> Result<Document> {
    let mut equalities: Vec<(String, Bson)> = Vec::new();
    collect(query, &mut equalities);
    for (i, (path, _)) in equalities.iter().enumerate() {
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
    equalities.sort_by(|a, b| (a.0 != "_id", &a.0).cmp(&(b.0 != "_id", &b.0)));
    let mut doc = Document::new();
    for (path, value) in equalities {
        let parts: Vec<&str> = path.split('.').collect();
        insert_at(&mut doc, &parts, value);
    }
    Ok(doc)
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
                if let Some(v) = equality_value(value) {
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

/// The value a field condition pins the field to, if it is an equality.
fn equality_value(condition: &Bson) -> Option<Bson> {
    match condition {
        Bson::RegularExpression(_) => None,
        Bson::Document(ops) if ops.keys().next().is_some_and(|k| k.starts_with('$')) => {
            if let Some(v) = ops.get("$eq") {
                return Some(v.clone());
            }
            // A one-element $in (without a regex) is an equality after optimization.
            match ops.get("$in") {
                Some(Bson::Array(items)) if items.len() == 1 => match items.first() {
                    Some(Bson::RegularExpression(_)) | None => None,
                    Some(v) => Some(v.clone()),
                },
                _ => None,
            }
        }
        other => Some(other.clone()),
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

    fn regex() -> Regex {
        Regex {
            pattern: "x".try_into().unwrap(),
            options: "".try_into().unwrap(),
        }
    }

    #[test]
    fn equality_fields_seed_the_document() {
        let seed = seed_from_query(&doc! {"name": "Andy"}).unwrap();
        assert_eq!(seed, doc! {"name": "Andy"});
        let seed = seed_from_query(&doc! {
            "b": 1, "a.x": 2, "a.y": {"$eq": 3}, "c": {"$gt": 1}, "_id": 7,
            "$and": [{"d": 4}, {"e": {"$in": [5]}}], "r": regex(),
        })
        .unwrap();
        assert_eq!(
            seed,
            doc! {"_id": 7, "a": {"x": 2, "y": 3}, "b": 1, "d": 4, "e": 5}
        );
        assert_eq!(
            seed_from_query(&doc! {"$or": [{"a": 1}, {"b": 2}]}).unwrap(),
            doc! {}
        );
        assert_eq!(
            seed_from_query(&doc! {"$or": [{"a": 1}]}).unwrap(),
            doc! {"a": 1}
        );
        assert_eq!(
            seed_from_query(&doc! {"a": {"$gt": 1, "$lt": 5}}).unwrap(),
            doc! {}
        );
    }

    #[test]
    fn ambiguous_queries_fail() {
        let e = seed_from_query(&doc! {"a": 1, "$and": [{"a": 2}]}).unwrap_err();
        assert_eq!(
            (e.code(), e.message.as_str()),
            (
                54,
                "cannot infer query fields to set, path 'a' is matched twice"
            )
        );
        let e = seed_from_query(&doc! {"a": 1, "a.b": 2}).unwrap_err();
        assert_eq!(e.code(), 54);
        let e = seed_from_query(&doc! {"_id.name": "Robert Frost", "_id.uid": 0}).unwrap_err();
        assert_eq!(
            (e.code(), e.message.as_str()),
            (
                111,
                "field at '_id' must be exactly specified, field at sub-path '_id.name'found"
            )
        );
    }
}
