//! Rules shared by the write commands (`insert`, `update`, `delete`, `findAndModify`).

pub mod collation;
pub mod empty_timestamp;
pub mod write_concern;

pub use collation::check_collation;
pub use write_concern::check_write_concern;

use bson::Document;

use crate::error::{Error, Result};

/// Fields every command may carry (sessions, transactions, API versioning, comments).
const GENERIC_FIELDS: [&str; 17] = [
    "$db",
    "lsid",
    "txnNumber",
    "autocommit",
    "startTransaction",
    "stmtId",
    "$readPreference",
    "$clusterTime",
    "readConcern",
    "writeConcern",
    "comment",
    "maxTimeMS",
    "apiVersion",
    "apiStrict",
    "apiDeprecationErrors",
    "$client",
    "mayBypassWriteBlocking",
];

/// The fields MongoDB 8.0's write commands share (`WriteCommandRequestBase` in
/// `write_ops.idl`), beside each command's own list of statements.
pub const WRITE_COMMAND_FIELDS: [&str; 10] = [
    "bypassDocumentValidation",
    "ordered",
    "stmtId",
    "stmtIds",
    "isTimeseriesNamespace",
    "collectionUUID",
    "encryptionInformation",
    "originalQuery",
    "originalCollation",
    "bypassEmptyTsReplacement",
];

/// [`check_known_fields`] for a write command: its statements' field (`documents`, `updates`,
/// `deletes`), `let` where it takes one, and [`WRITE_COMMAND_FIELDS`].
pub fn check_write_command_fields(command: &Document, cmd: &str, own: &[&str]) -> Result<()> {
    check_fields(command, cmd, |key| {
        own.contains(&key) || WRITE_COMMAND_FIELDS.contains(&key)
    })
}

/// Refuses fields a command does not define, as MongoDB's IDL parsers do (code 40415). The
/// command's own name (its first field) is always allowed.
pub fn check_known_fields(command: &Document, cmd: &str, own: &[&str]) -> Result<()> {
    check_fields(command, cmd, |key| own.contains(&key))
}

/// Refuses a field of a write statement (an `updates` or `deletes` entry) that its IDL
/// struct does not define; `path` is how MongoDB names the entry (`update.updates`).
pub fn check_statement_fields(statement: &Document, path: &str, fields: &[&str]) -> Result<()> {
    match statement.keys().find(|k| !fields.contains(&k.as_str())) {
        Some(k) => Err(Error::location(
            40415,
            format!("BSON field '{path}.{k}' is an unknown field."),
        )),
        None => Ok(()),
    }
}

/// Refuses the first field after the command's name that is neither `own` nor generic.
fn check_fields(command: &Document, cmd: &str, own: impl Fn(&str) -> bool) -> Result<()> {
    for key in command.keys().skip(1) {
        if !own(key) && !GENERIC_FIELDS.contains(&key.as_str()) {
            return Err(Error::location(
                40415,
                format!("BSON field '{cmd}.{key}' is an unknown field."),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    #[test]
    fn unknown_fields_are_refused() {
        let cmd = doc! {"update": "c", "updates": [], "comment": "x", "bogus": 1};
        let e = check_known_fields(&cmd, "update", &["updates"]).unwrap_err();
        assert_eq!(
            (e.code(), e.message.as_str()),
            (40415, "BSON field 'update.bogus' is an unknown field.")
        );
        assert!(check_known_fields(&doc! {"count": "c", "query": {}}, "count", &["query"]).is_ok());
    }

    #[test]
    fn write_commands_take_their_shared_fields_and_refuse_others() {
        let ok = doc! {"insert": "c", "documents": [], "ordered": false,
        "bypassDocumentValidation": true, "writeConcern": {"w": 1}, "lsid": {}};
        assert!(check_write_command_fields(&ok, "insert", &["documents"]).is_ok());
        let bad = doc! {"delete": "c", "deletes": [], "asdf": true};
        let e = check_write_command_fields(&bad, "delete", &["deletes", "let"]).unwrap_err();
        assert_eq!(
            (e.code(), e.message.as_str()),
            (40415, "BSON field 'delete.asdf' is an unknown field.")
        );
    }
}
