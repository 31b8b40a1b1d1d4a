//! `DeleteRequest`: a `delete` command's fields and statements, read once (by `delete` and by
//! its explain).

use bson::{Bson, Document};

use super::{hint_option, let_option};
use crate::commands::bool_option;
use crate::error::{Error, ErrorCode, Result};
use crate::value::display::type_name;

/// `{delete: <coll>, deletes: [{q, limit, hint, collation}], ordered, let}`.
#[derive(Debug, Clone, Copy)]
pub struct DeleteRequest<'c> {
    /// The statements as written; each is read by [`DeleteStatement::parse`] when its turn
    /// comes, so a malformed later statement is a write error, not the command's failure.
    pub deletes: &'c [Bson],
    pub ordered: bool,
    pub let_vars: Option<&'c Document>,
}

/// One entry of `deletes`.
#[derive(Debug, Clone, Copy)]
pub struct DeleteStatement<'c> {
    pub q: &'c Document,
    /// `limit: 1` deletes the first match only; `limit: 0` all of them.
    pub just_one: bool,
    /// `None` when the statement names no index.
    pub hint: Option<&'c Bson>,
    pub collation: Option<&'c Bson>,
}

/// The fields of a delete statement (`DeleteOpEntry` in MongoDB 8.0's `write_ops.idl`).
const STATEMENT_FIELDS: [&str; 5] = ["q", "limit", "hint", "collation", "sampleId"];

impl<'c> DeleteRequest<'c> {
    pub fn parse(command: &'c Document) -> Result<Self> {
        crate::write::check_write_command_fields(command, "delete", &["deletes", "let"])?;
        let deletes = match command.get("deletes") {
            Some(Bson::Array(a)) => a.as_slice(),
            _ => {
                return Err(Error::location(
                    40414,
                    "BSON field 'delete.deletes' is missing but a required field",
                ));
            }
        };
        // The statements' fields are read with the command, as MongoDB's IDL parser reads
        // them: an unknown one fails the whole command before any statement runs.
        for statement in deletes {
            if let Bson::Document(s) = statement {
                crate::write::check_statement_fields(s, "delete.deletes", &STATEMENT_FIELDS)?;
            }
        }
        // As for every write command (MongoDB's `checkOpCountForCommand`).
        if deletes.is_empty() || deletes.len() > super::update::MAX_BATCH {
            return Err(Error::new(
                ErrorCode::InvalidLength,
                format!(
                    "Write batch sizes must be between 1 and {}. Got {} operations.",
                    super::update::MAX_BATCH,
                    deletes.len()
                ),
            ));
        }
        Ok(DeleteRequest {
            deletes,
            ordered: bool_option(command, "ordered", true)?,
            let_vars: let_option(command, "delete")?,
        })
    }

    /// The one statement an explained delete may have (MongoDB: "explained write batches must
    /// be of size 1", code 16 InvalidLength).
    pub fn only_statement(&self) -> Result<DeleteStatement<'c>> {
        match self.deletes {
            [only] => DeleteStatement::parse(only),
            _ => Err(Error::new(
                ErrorCode::InvalidLength,
                "explained write batches must be of size 1",
            )),
        }
    }
}

impl<'c> DeleteStatement<'c> {
    pub fn parse(statement: &'c Bson) -> Result<Self> {
        let Bson::Document(statement) = statement else {
            return Err(Error::type_mismatch(
                "BSON field 'delete.deletes' is the wrong type, expected type 'object'",
            ));
        };
        let q = match statement.get("q") {
            Some(Bson::Document(q)) => q,
            Some(other) => {
                return Err(Error::type_mismatch(format!(
                    "BSON field 'delete.deletes.q' is the wrong type '{}', expected type 'object'",
                    type_name(other)
                )));
            }
            None => {
                return Err(Error::location(
                    40414,
                    "BSON field 'delete.deletes.q' is missing but a required field",
                ));
            }
        };
        let just_one = match statement.get("limit") {
            Some(Bson::Int32(0)) | Some(Bson::Int64(0)) => false,
            Some(Bson::Int32(1)) | Some(Bson::Int64(1)) => true,
            Some(Bson::Double(d)) if *d == 0.0 || *d == 1.0 => *d == 1.0,
            None => {
                return Err(Error::location(
                    40414,
                    "BSON field 'delete.deletes.limit' is missing but a required field",
                ));
            }
            Some(other) => {
                return Err(Error::location(
                    9,
                    format!("The limit field in delete objects must be 0 or 1. Got {other}"),
                ));
            }
        };
        Ok(DeleteStatement {
            q,
            just_one,
            hint: hint_option(statement),
            collation: statement.get("collation"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    #[test]
    fn statements_are_read_with_mongodb_messages() {
        let cmd = doc! {"delete": "c", "deletes": [{"q": {"a": 1}, "limit": 1, "hint": {}}]};
        let r = DeleteRequest::parse(&cmd).unwrap();
        let s = r.only_statement().unwrap();
        assert!(s.just_one && s.hint.is_none() && r.ordered);
        let e = DeleteStatement::parse(&Bson::Document(doc! {"q": {}, "limit": 2})).unwrap_err();
        assert_eq!(e.code(), 9);
        let e = DeleteStatement::parse(&Bson::Document(doc! {"limit": 0})).unwrap_err();
        assert_eq!(e.code(), 40414);
        for (cmd, message) in [
            (
                doc! {"delete": "c", "deletes": [{"q": {}, "limit": 0}], "asdf": true},
                "BSON field 'delete.asdf' is an unknown field.",
            ),
            (
                doc! {"delete": "c", "deletes": [{"q": {}, "limit": 0}, {"q": {}, "limit": 0, "asdf": 1}]},
                "BSON field 'delete.deletes.asdf' is an unknown field.",
            ),
        ] {
            let e = DeleteRequest::parse(&cmd).map(|_| ()).unwrap_err();
            assert_eq!((e.code(), e.message.as_str()), (40415, message));
        }
        let two = doc! {"delete": "c", "deletes": [{"q": {}, "limit": 0}, {"q": {}, "limit": 0}]};
        let e = DeleteRequest::parse(&two)
            .unwrap()
            .only_statement()
            .unwrap_err();
        assert_eq!(e.code(), 16);
    }

    #[test]
    fn a_batch_holds_one_to_100_000_statements() {
        let stmt = Bson::Document(doc! {"q": {}, "limit": 0});
        let mut batch = vec![stmt; 100_000];
        let full = doc! {"delete": "c", "deletes": batch.clone()};
        assert_eq!(DeleteRequest::parse(&full).unwrap().deletes.len(), 100_000);
        batch.push(batch[0].clone());
        for deletes in [batch, Vec::new()] {
            let n = deletes.len();
            let e = DeleteRequest::parse(&doc! {"delete": "c", "deletes": deletes}).unwrap_err();
            assert_eq!(e.code(), 16);
            assert_eq!(
                e.to_string(),
                format!("Write batch sizes must be between 1 and 100000. Got {n} operations.")
            );
        }
    }
}
