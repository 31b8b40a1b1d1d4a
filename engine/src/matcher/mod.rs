//! The query matcher: a filter document is parsed once into a typed [`Filter`] tree (with
//! MongoDB's error codes for malformed filters) and then evaluated against many documents.

use bson::{Bson, Document};

use crate::error::{Error, Result};
use crate::path::{FieldPath, values_for_match};
use crate::value::values_equal;

/// A parsed filter.
#[derive(Debug, Clone)]
pub struct Filter {
    root: Expr,
}

#[derive(Debug, Clone)]
enum Expr {
    And(Vec<Expr>),
    Eq { path: FieldPath, value: Bson },
}

impl Filter {
    /// Parses a filter document such as `{price: 10, "address.state": "NY"}`.
    pub fn parse(filter: &Document) -> Result<Filter> {
        Ok(Filter {
            root: parse_document(filter)?,
        })
    }

    /// The filter that matches every document (`{}`).
    pub fn all() -> Filter {
        Filter {
            root: Expr::And(Vec::new()),
        }
    }

    pub fn matches(&self, doc: &Document) -> bool {
        eval(&self.root, doc)
    }
}

fn parse_document(filter: &Document) -> Result<Expr> {
    let mut parts = Vec::with_capacity(filter.len());
    for (key, value) in filter {
        if key.starts_with('$') {
            return Err(Error::bad_value(format!(
                "unknown top level operator: {key}"
            )));
        }
        parts.push(parse_field(key, value)?);
    }
    Ok(Expr::And(parts))
}

fn parse_field(key: &str, value: &Bson) -> Result<Expr> {
    let path = FieldPath::parse(key);
    if let Bson::Document(ops) = value {
        if let Some((op, _)) = ops.iter().next() {
            if op.starts_with('$') {
                let mut parts = Vec::new();
                for (op, operand) in ops {
                    match op.as_str() {
                        "$eq" => parts.push(Expr::Eq {
                            path: path.clone(),
                            value: operand.clone(),
                        }),
                        other => {
                            return Err(Error::bad_value(format!("unknown operator: {other}")));
                        }
                    }
                }
                return Ok(Expr::And(parts));
            }
        }
    }
    Ok(Expr::Eq {
        path,
        value: value.clone(),
    })
}

fn eval(expr: &Expr, doc: &Document) -> bool {
    match expr {
        Expr::And(parts) => parts.iter().all(|p| eval(p, doc)),
        Expr::Eq { path, value } => {
            let found = values_for_match(doc, path);
            if found.is_empty() {
                return matches!(value, Bson::Null);
            }
            found.iter().any(|v| values_equal(v, value))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    #[test]
    fn equality_on_top_level_and_dotted_fields() {
        let d =
            doc! {"name": "Product 1", "price": 10, "address": {"state": "NY"}, "tags": ["a", "b"]};
        let yes = |f: Document| assert!(Filter::parse(&f).unwrap().matches(&d), "{f}");
        let no = |f: Document| assert!(!Filter::parse(&f).unwrap().matches(&d), "{f}");
        yes(doc! {"price": 10});
        yes(doc! {"price": 10.0});
        yes(doc! {"address.state": "NY"});
        yes(doc! {"tags": "b"});
        yes(doc! {"tags": ["a", "b"]});
        yes(doc! {"missing": null});
        no(doc! {"price": 11});
        no(doc! {"address.state": "CA"});
    }

    #[test]
    fn unknown_operator_is_bad_value() {
        let e = Filter::parse(&doc! {"a": {"$foo": 1}}).unwrap_err();
        assert_eq!(
            (e.code(), e.message.as_str()),
            (2, "unknown operator: $foo")
        );
    }
}
