//! `UpdateRequest`: an `update` command's fields and statements, read once (by `update` and by
//! its explain).

use bson::{Bson, Document};

use super::{array_filters_option, hint_option, let_option};
use crate::error::{Error, ErrorCode, Result};
use crate::value::display::type_name;

/// MongoDB's largest write batch.
pub(crate) const MAX_BATCH: usize = 100_000;

/// `{update: <coll>, updates: [{q, u, upsert, multi, arrayFilters, hint, collation, sort}],
/// ordered, let, bypassDocumentValidation}`.
#[derive(Debug, Clone)]
pub struct UpdateRequest<'c> {
    pub statements: Vec<UpdateStatement<'c>>,
    pub ordered: bool,
    pub let_vars: Option<&'c Document>,
    /// `bypassEmptyTsReplacement: true`: a replacement's empty timestamps stay empty.
    pub bypass_empty_ts_replacement: bool,
}

/// One entry of `updates`, after its shape has been checked.
#[derive(Debug, Clone)]
pub struct UpdateStatement<'c> {
    pub q: &'c Document,
    /// A modifier document, a replacement, or an update pipeline (an array).
    pub u: &'c Bson,
    pub upsert: bool,
    pub multi: bool,
    pub array_filters: Vec<Document>,
    /// MongoDB 8.0's `sort` for single-document updates: which match is updated.
    pub sort: Option<&'c Document>,
    /// `None` when the statement names no index.
    pub hint: Option<&'c Bson>,
    pub collation: Option<&'c Bson>,
}

impl<'c> UpdateRequest<'c> {
    pub fn parse(command: &'c Document) -> Result<Self> {
        crate::write::check_write_command_fields(command, "update", &["updates", "let"])?;
        crate::write::check_write_concern(command)?;
        let ordered = strict_bool(command, "update.ordered", "ordered", true)?;
        let let_vars = let_option(command, "update")?;
        let updates = match command.get("updates") {
            Some(Bson::Array(a)) => a,
            Some(other) => {
                return Err(Error::type_mismatch(format!(
                    "BSON field 'update.updates' is the wrong type '{}', expected type 'array'",
                    type_name(other)
                )));
            }
            None => {
                return Err(Error::location(
                    40414,
                    "BSON field 'update.updates' is missing but a required field",
                ));
            }
        };
        if updates.is_empty() || updates.len() > MAX_BATCH {
            return Err(Error::new(
                ErrorCode::InvalidLength,
                format!(
                    "Write batch sizes must be between 1 and {MAX_BATCH}. Got {} operations.",
                    updates.len()
                ),
            ));
        }
        let statements = updates
            .iter()
            .map(UpdateStatement::parse)
            .collect::<Result<_>>()?;
        Ok(UpdateRequest {
            statements,
            ordered,
            let_vars,
            bypass_empty_ts_replacement: crate::write::empty_timestamp::bypass_requested(command),
        })
    }

    /// The one statement an explained update may have (MongoDB: "explained write batches must
    /// be of size 1", code 16 InvalidLength).
    pub fn only_statement(&self) -> Result<&UpdateStatement<'c>> {
        match self.statements.as_slice() {
            [only] => Ok(only),
            _ => Err(Error::new(
                ErrorCode::InvalidLength,
                "explained write batches must be of size 1",
            )),
        }
    }
}

impl<'c> UpdateStatement<'c> {
    fn parse(entry: &'c Bson) -> Result<Self> {
        let Bson::Document(s) = entry else {
            return Err(Error::type_mismatch(format!(
                "BSON field 'update.updates' is the wrong type '{}', expected type 'object'",
                type_name(entry)
            )));
        };
        check_known_fields_of_statement(s)?;
        let q = match s.get("q") {
            Some(Bson::Document(q)) => q,
            Some(other) => {
                return Err(Error::type_mismatch(format!(
                    "BSON field 'update.updates.q' is the wrong type '{}', expected type 'object'",
                    type_name(other)
                )));
            }
            None => {
                return Err(Error::location(
                    40414,
                    "BSON field 'update.updates.q' is missing but a required field",
                ));
            }
        };
        let u = match s.get("u") {
            Some(u @ (Bson::Document(_) | Bson::Array(_))) => u,
            Some(_) => {
                return Err(Error::new(
                    ErrorCode::FailedToParse,
                    "Update argument must be either an object or an array",
                ));
            }
            None => {
                return Err(Error::location(
                    40414,
                    "BSON field 'update.updates.u' is missing but a required field",
                ));
            }
        };
        let array_filters = array_filters_option(s, "update.updates.arrayFilters")?;
        for field in ["hint", "c", "sort"] {
            check_shape(s, field)?;
        }
        let multi = strict_bool(s, "update.updates.multi", "multi", false)?;
        let sort = match s.get("sort") {
            Some(Bson::Document(d)) => Some(d),
            _ => None,
        };
        if sort.is_some() && multi {
            return Err(Error::new(
                ErrorCode::FailedToParse,
                "Cannot specify sort with multi=true",
            ));
        }
        Ok(UpdateStatement {
            q,
            u,
            upsert: strict_bool(s, "update.updates.upsert", "upsert", false)?,
            multi,
            array_filters,
            sort,
            hint: hint_option(s),
            collation: s.get("collation"),
        })
    }
}

/// A boolean field as MongoDB's IDL reads `type: bool` (numbers are refused).
fn strict_bool(d: &Document, qualified: &str, field: &str, default: bool) -> Result<bool> {
    match d.get(field) {
        None => Ok(default),
        Some(Bson::Boolean(b)) => Ok(*b),
        Some(other) => Err(Error::type_mismatch(format!(
            "BSON field '{qualified}' is the wrong type '{}', expected type 'bool'",
            type_name(other)
        ))),
    }
}

fn check_known_fields_of_statement(s: &Document) -> Result<()> {
    const FIELDS: [&str; 10] = [
        "q",
        "u",
        "c",
        "upsert",
        "multi",
        "arrayFilters",
        "hint",
        "collation",
        "sort",
        "upsertSupplied",
    ];
    crate::write::check_statement_fields(s, "update.updates", &FIELDS)
}

/// `hint` is a document or an index name; `collation`, `c` and `sort` are documents.
fn check_shape(s: &Document, field: &str) -> Result<()> {
    let ok = match (field, s.get(field)) {
        (_, None) => true,
        ("hint", Some(Bson::String(_) | Bson::Document(_))) => true,
        (_, Some(Bson::Document(_))) => field != "hint",
        _ => false,
    };
    if ok {
        return Ok(());
    }
    let found = s.get(field).map(type_name).unwrap_or("missing");
    let expected = if field == "hint" {
        "expected types '[string, object]'"
    } else {
        "expected type 'object'"
    };
    Err(Error::type_mismatch(format!(
        "BSON field 'update.updates.{field}' is the wrong type '{found}', {expected}"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    #[test]
    fn statements_are_read_with_mongodb_messages() {
        let cmd =
            doc! {"update": "c", "updates": [{"q": {}, "u": {"$set": {"a": 1}}, "multi": true}]};
        let r = UpdateRequest::parse(&cmd).unwrap();
        let s = r.only_statement().unwrap();
        assert!(s.multi && !s.upsert && s.sort.is_none());
        let code = |cmd: Document| UpdateRequest::parse(&cmd).unwrap_err().code();
        assert_eq!(code(doc! {"update": "c", "updates": []}), 16);
        assert_eq!(code(doc! {"update": "c", "updates": [{"q": {}}]}), 40414);
        assert_eq!(
            code(doc! {"update": "c", "updates": [{"q": {}, "u": {}, "multi": 1}]}),
            14
        );
        assert_eq!(
            code(
                doc! {"update": "c", "updates": [{"q": {}, "u": {}, "sort": {"a": 1}, "multi": true}]}
            ),
            9
        );
        assert_eq!(code(doc! {"update": "c", "updates": [], "bogus": 1}), 40415);
    }
}
