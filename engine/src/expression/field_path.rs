//! Field paths in expressions: `"$a.b"` and variables `"$$ROOT"`, `"$$CURRENT"`.
//!
//! Unlike the matcher's path walker, an expression path maps over arrays and yields one value:
//! `"$a.b"` on `{a: [{b: 1}, {c: 2}, {b: 3}]}` is `[1, 3]`; a missing field is missing.

use bson::Bson;

use super::{Scope, Vars};
use crate::error::{Error, Result};

/// Where a path starts.
#[derive(Debug, Clone, PartialEq)]
pub enum PathRoot {
    Root,
    Current,
    /// `$$REMOVE`: always missing.
    Remove,
    /// `$$NOW`: the command's start time, from the evaluation context.
    Now,
    /// `$$CLUSTER_TIME`: the same instant as a timestamp.
    ClusterTime,
    /// A variable bound while evaluating (`$let`, `$map`...).
    Variable(String),
    /// A command-level `let` constant, substituted at parse time.
    Value(Box<Bson>),
}

/// A parsed field path expression.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldPathExpr {
    root: PathRoot,
    fields: Vec<String>,
}

impl FieldPathExpr {
    /// Parses `"$a.b"`, `"$$ROOT"`, `"$$CURRENT.a"` (no user variables in scope).
    pub fn parse(s: &str) -> Result<FieldPathExpr> {
        FieldPathExpr::parse_in(s, &Scope::default())
    }

    /// Parses a field path or a variable reference in a scope.
    pub fn parse_in(s: &str, scope: &Scope) -> Result<FieldPathExpr> {
        if let Some(var) = s.strip_prefix("$$") {
            let (name, rest) = match var.split_once('.') {
                Some((n, r)) => (n, Some(r)),
                None => (var, None),
            };
            let root = match name {
                "ROOT" => PathRoot::Root,
                "CURRENT" => PathRoot::Current,
                "REMOVE" => PathRoot::Remove,
                "NOW" => match &scope.clock {
                    Some((now, _)) => PathRoot::Value(Box::new(now.clone())),
                    None => PathRoot::Now,
                },
                "CLUSTER_TIME" => match &scope.clock {
                    Some((_, time)) => PathRoot::Value(Box::new(time.clone())),
                    None => PathRoot::ClusterTime,
                },
                "" => {
                    return Err(Error::location(
                        16869,
                        "empty variable names are not allowed",
                    ));
                }
                other => {
                    check_variable_name_for_read(other)?;
                    if let Some((_, v)) = scope.constants.iter().rev().find(|(n, _)| n == other) {
                        match v {
                            Some(v) => PathRoot::Value(Box::new(v.clone())),
                            // A `let` constant that evaluated to missing reads as missing.
                            None => PathRoot::Remove,
                        }
                    } else if scope.bound.iter().any(|n| n == other) {
                        PathRoot::Variable(other.to_string())
                    } else {
                        return Err(Error::location(
                            17276,
                            format!("Use of undefined variable: {other}"),
                        ));
                    }
                }
            };
            let fields = match rest {
                Some(r) => parse_fields(r)?,
                None => Vec::new(),
            };
            return Ok(FieldPathExpr { root, fields });
        }
        let path = s.strip_prefix('$').unwrap_or(s);
        if path.is_empty() {
            return Err(Error::location(
                16872,
                "'$' by itself is not a valid FieldPath",
            ));
        }
        Ok(FieldPathExpr {
            root: PathRoot::Current,
            fields: parse_fields(path)?,
        })
    }

    /// The path as written (`"$a.b"`, `"$$ROOT.a"`); a `let` constant shows as `{$const: v}`
    /// when it is used whole.
    pub fn serialize(&self) -> Bson {
        let prefix = match &self.root {
            PathRoot::Current if !self.fields.is_empty() => "$".to_string(),
            PathRoot::Current => "$$CURRENT".to_string(),
            PathRoot::Root => "$$ROOT".to_string(),
            PathRoot::Remove => "$$REMOVE".to_string(),
            PathRoot::Now => "$$NOW".to_string(),
            PathRoot::ClusterTime => "$$CLUSTER_TIME".to_string(),
            PathRoot::Variable(name) => format!("$${name}"),
            PathRoot::Value(v) => {
                if self.fields.is_empty() {
                    return Bson::Document(bson::doc! {"$const": (**v).clone()});
                }
                return lookup_rest(v, &self.fields).map_or_else(
                    || Bson::String("$$REMOVE".into()),
                    |x| Bson::Document(bson::doc! {"$const": x}),
                );
            }
        };
        if self.fields.is_empty() {
            return Bson::String(prefix);
        }
        let sep = if prefix == "$" { "" } else { "." };
        Bson::String(format!("{prefix}{sep}{}", self.fields.join(".")))
    }

    /// The path's field names (empty for `$$ROOT` itself).
    /// Whether the path reads the document (`"$a"`, `"$$ROOT"`, `"$$CURRENT.a"`).
    pub fn reads_document(&self) -> bool {
        matches!(self.root, PathRoot::Root | PathRoot::Current)
    }

    pub fn fields(&self) -> &[String] {
        &self.fields
    }

    /// The path's value; missing is `None`. Only `$$NOW` and `$$CLUSTER_TIME` can fail (when
    /// no engine supplied a time).
    pub fn evaluate(&self, vars: &Vars<'_>) -> Result<Option<Bson>> {
        let doc = match &self.root {
            PathRoot::Root => vars.root,
            PathRoot::Current => match vars.variable(super::variables::CURRENT_SCALAR) {
                // `$let` bound CURRENT to a value that is not a document (missing is Undefined).
                Some(Bson::Undefined) => return Ok(None),
                Some(v) => return Ok(lookup_rest(v, &self.fields)),
                None => vars.current,
            },
            PathRoot::Remove => return Ok(None),
            PathRoot::Now => return Ok(lookup_rest(&vars.context.now()?, &self.fields)),
            PathRoot::ClusterTime => {
                return Ok(lookup_rest(&vars.context.cluster_time()?, &self.fields));
            }
            PathRoot::Variable(name) => {
                return Ok(vars
                    .variable(name)
                    .and_then(|v| lookup_rest(v, &self.fields)));
            }
            PathRoot::Value(v) => return Ok(lookup_rest(v, &self.fields)),
        };
        let Some((first, rest)) = self.fields.split_first() else {
            return Ok(Some(Bson::Document(doc.clone())));
        };
        Ok(crate::path::field(doc, first).and_then(|v| lookup_rest(v, rest)))
    }
}

/// MongoDB's rules for user variable names in a command's `let`: a lowercase letter or a
/// non-ASCII character first, then letters, digits and underscores.
pub fn check_user_variable_name(name: &str) -> Result<()> {
    validate_name(name, false, [16869, 16870, 16871])
}

/// The rules for names that `$let` (and `as` options) define: as [`check_user_variable_name`],
/// with the codes MongoDB reports for a definition.
pub fn check_variable_name_for_write(name: &str) -> Result<()> {
    validate_name(name, false, [16866, 16867, 16868])
}

/// The rules for `$$name` references: an uppercase first letter is allowed too (system
/// variables such as `$$ROOT`).
fn check_variable_name_for_read(name: &str) -> Result<()> {
    validate_name(name, true, [16869, 16870, 16871])
}

fn validate_name(
    name: &str,
    allow_upper: bool,
    [empty, first_code, rest_code]: [i32; 3],
) -> Result<()> {
    let mut chars = name.chars();
    let Some(first) = chars.next() else {
        return Err(Error::location(
            empty,
            "empty variable names are not allowed",
        ));
    };
    let first_ok = first.is_ascii_lowercase()
        || !first.is_ascii()
        || (allow_upper && first.is_ascii_uppercase());
    if !first_ok {
        return Err(Error::location(
            first_code,
            format!("'{name}' starts with an invalid character for a user variable name"),
        ));
    }
    if let Some(bad) = chars.find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || !c.is_ascii())) {
        return Err(Error::location(
            rest_code,
            format!("'{name}' contains an invalid character for a variable name: '{bad}'"),
        ));
    }
    Ok(())
}

fn parse_fields(path: &str) -> Result<Vec<String>> {
    let mut out = Vec::new();
    for part in path.split('.') {
        if part.is_empty() {
            return Err(Error::location(
                15998,
                "FieldPath field names may not be empty strings.",
            ));
        }
        if part.starts_with('$') {
            return Err(Error::location(
                16410,
                "FieldPath field names may not start with '$'. Consider using $getField or \
                 $setField.",
            ));
        }
        // MongoDB's FieldPath::uassertValidFieldName (jstests/aggregation/bugs/server6556.js).
        if part.contains('\0') {
            return Err(Error::location(
                16411,
                "FieldPath field names may not contain '\\0'. Consider using $getField or \
                 $setField.",
            ));
        }
        out.push(part.to_string());
    }
    Ok(out)
}

/// Follows the rest of a path from a value, mapping over arrays. Only the documents of an
/// array are followed: nested arrays and scalars are skipped, and so are elements where the rest
/// is missing (MongoDB's `ExpressionFieldPath::evaluatePathArray`, src/mongo/db/pipeline/
/// expression.cpp: `"$a.b"` on `{a: [[{b: 1}], {b: 2}]}` is `[2]`;
/// jstests/aggregation/expressions/reduce.js).
fn lookup_rest(v: &Bson, rest: &[String]) -> Option<Bson> {
    let Some((head, tail)) = rest.split_first() else {
        return Some(v.clone());
    };
    match v {
        Bson::Document(d) => lookup_rest(crate::path::field(d, head)?, tail),
        Bson::Array(items) => Some(Bson::Array(
            items
                .iter()
                .filter_map(|item| match item {
                    Bson::Document(_) => lookup_rest(item, rest),
                    _ => None,
                })
                .collect(),
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_names_are_checked_like_mongodb() {
        let code = |s: &str| FieldPathExpr::parse(s).unwrap_err().code();
        assert_eq!(code("$a..b"), 15998);
        assert_eq!(code("$a.$b"), 16410);
        // jstests/aggregation/bugs/server6556.js: a NUL inside a field name.
        assert_eq!(code("$f\0oo"), 16411);
        assert!(FieldPathExpr::parse("$a.b").is_ok());
    }

    #[test]
    fn arrays_map_over_their_documents_only() {
        let v = Bson::Array(vec![
            Bson::Array(vec![Bson::Document(bson::doc! {"b": 1})]),
            Bson::Document(bson::doc! {"b": 2}),
            Bson::Array(vec![]),
            Bson::Int32(3),
            Bson::Document(bson::doc! {"c": 4}),
        ]);
        assert_eq!(
            lookup_rest(&v, &["b".to_string()]),
            Some(Bson::Array(vec![Bson::Int32(2)]))
        );
    }
}
