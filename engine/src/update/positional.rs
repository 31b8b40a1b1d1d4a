//! `arrayFilters`: one filter per identifier, deciding which elements `$[<identifier>]` updates.
//! Each filter is a query whose top-level field names all start with the same identifier; an
//! element is selected when `{<identifier>: element}` matches it.

use bson::{Bson, Document};

use crate::error::{Error, ErrorCode, Result};
use crate::matcher::Filter;

/// The filters by identifier, sorted by it (a vector: an update names a few; a `BTreeMap` of
/// them compiled its own B-tree code into the shipped wasm).
#[derive(Debug, Clone, Default)]
pub struct ArrayFilters {
    filters: Vec<(String, Filter)>,
}

impl ArrayFilters {
    pub fn none() -> Self {
        ArrayFilters::default()
    }

    pub fn parse(filters: &[Document]) -> Result<Self> {
        let mut out: Vec<(String, Filter)> = Vec::new();
        for filter in filters {
            // MongoDB parses each filter with kBanAllSpecialFeatures before reading its
            // identifier (parsedUpdateArrayFilters): `$expr` is refused (224).
            let context = |e: Error| {
                Error::new(
                    e.code,
                    format!("Error parsing array filter :: caused by :: {}", e.message),
                )
            };
            super::pull::ban_special_features(filter).map_err(context)?;
            // The filter is a query first: `{"$i": 0}` is an unknown top-level operator
            // (BadValue) before it is a bad identifier (jstests/core/update_arrayFilters.js).
            let parsed = Filter::parse(filter).map_err(context)?;
            let mut ids = Vec::new();
            collect_identifiers(filter, &mut ids);
            let Some(id) = ids.first().cloned() else {
                return Err(Error::new(
                    ErrorCode::FailedToParse,
                    "Cannot use an expression without a top-level field name in arrayFilters",
                ));
            };
            if let Some(other) = ids.iter().find(|i| **i != id) {
                return Err(Error::new(
                    ErrorCode::FailedToParse,
                    format!(
                        "Error parsing array filter :: caused by :: Expected a single top-level field name, found '{id}' and '{other}'"
                    ),
                ));
            }
            let valid = id.chars().next().is_some_and(|c| c.is_ascii_lowercase())
                && id.chars().all(|c| c.is_ascii_alphanumeric());
            if !valid {
                return Err(Error::bad_value(format!(
                    "Error parsing array filter :: caused by :: The top-level field name must be an alphanumeric string beginning with a lowercase letter, found '{id}'"
                )));
            }
            let Err(at) = out.binary_search_by(|(known, _)| known.as_str().cmp(&id)) else {
                return Err(Error::new(
                    ErrorCode::FailedToParse,
                    format!("Found multiple array filters with the same top-level field name {id}"),
                ));
            };
            out.insert(at, (id, parsed));
        }
        Ok(ArrayFilters { filters: out })
    }

    fn get(&self, id: &str) -> Option<&Filter> {
        let at = self
            .filters
            .binary_search_by(|(known, _)| known.as_str().cmp(id))
            .ok()?;
        Some(&self.filters[at].1)
    }

    pub fn contains(&self, id: &str) -> bool {
        self.get(id).is_some()
    }

    pub fn identifiers(&self) -> impl Iterator<Item = &str> {
        self.filters.iter().map(|(id, _)| id.as_str())
    }

    pub fn is_empty(&self) -> bool {
        self.filters.is_empty()
    }

    /// Whether `$[id]` selects this element.
    pub fn selects(&self, id: &str, element: &Bson) -> bool {
        let Some(filter) = self.get(id) else {
            return false;
        };
        let mut wrapped = Document::new();
        wrapped.insert(id, element.clone());
        filter.matches(&wrapped)
    }
}

/// The identifiers a filter's fields start with, looking inside `$and`, `$or` and `$nor`.
fn collect_identifiers(filter: &Document, out: &mut Vec<String>) {
    for (key, value) in filter {
        if key.starts_with('$') {
            if let Bson::Array(clauses) = value {
                for clause in clauses {
                    if let Bson::Document(d) = clause {
                        collect_identifiers(d, out);
                    }
                }
            }
        } else {
            out.push(key.split('.').next().unwrap_or_default().to_string());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::{bson, doc};

    #[test]
    fn selects_elements_by_identifier() {
        let f = ArrayFilters::parse(&[doc! {"x": 2}, doc! {"y.b": 1}]).unwrap();
        assert!(f.selects("x", &bson!(2)));
        assert!(!f.selects("x", &bson!(3)));
        assert!(f.selects("y", &bson!({"b": 1, "c": 2})));
        assert!(!f.selects("z", &bson!(2)));
        assert_eq!(f.identifiers().collect::<Vec<_>>(), ["x", "y"]);
    }

    #[test]
    fn malformed_filters() {
        let err = |d: Vec<Document>| ArrayFilters::parse(&d).unwrap_err();
        let e = err(vec![doc! {}]);
        assert_eq!(e.code(), 9);
        let e = err(vec![doc! {"x": 1}, doc! {"x": 2}]);
        assert_eq!(
            (e.code(), e.message.as_str()),
            (
                9,
                "Found multiple array filters with the same top-level field name x"
            )
        );
        let e = err(vec![doc! {"x": 1, "y": 2}]);
        assert_eq!(e.code(), 9);
        // jstests/core/expr.js: $expr is not allowed in arrayFilters.
        let e = err(vec![doc! {"i.b": 5, "$expr": {"$eq": ["$i.b", 5]}}]);
        assert_eq!(
            (e.code(), e.message.as_str()),
            (
                224,
                "Error parsing array filter :: caused by :: $expr is not allowed in this context"
            )
        );
        // jstests/core/update_arrayFilters.js: $text and $where are refused (BadValue) before
        // the identifier is looked for.
        for banned in [
            doc! {"$text": {"$search": "foo"}},
            doc! {"$where": "this.a == 2"},
        ] {
            assert_eq!(err(vec![banned]).code(), 2);
        }
        let e = err(vec![doc! {"$i": 0}]);
        assert_eq!(e.code(), 2);
        assert!(
            e.message.starts_with(
                "Error parsing array filter :: caused by :: unknown top level operator: $i"
            ),
            "{}",
            e.message
        );
        let e = err(vec![doc! {"X": 1}]);
        assert_eq!(e.code(), 2);
        assert!(e.message.ends_with("found 'X'"));
    }
}
