//! Rules shared by the write commands (`insert`, `update`, `delete`, `findAndModify`).

pub mod collation;
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

/// Refuses fields a command does not define, as MongoDB's IDL parsers do (code 40415). The
/// command's own name (its first field) is always allowed.
pub fn check_known_fields(command: &Document, cmd: &str, own: &[&str]) -> Result<()> {
    for key in command.keys().skip(1) {
        if !own.contains(&key.as_str()) && !GENERIC_FIELDS.contains(&key.as_str()) {
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
}
