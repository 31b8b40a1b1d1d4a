//! The `writeConcern` argument of write commands. Sprout is a single standalone node whose every
//! write is applied before the reply, so a valid write concern is always satisfied; an invalid
//! one, or one only a replica set could satisfy (`w` > 1, a custom mode), is refused with the
//! error a standalone mongod gives.

use bson::{Bson, Document};

use crate::error::{Error, ErrorCode, Result};
use crate::value::display::type_name;

/// The most members a replica set may have: `w` above it cannot be satisfied.
const MAX_MEMBERS: i64 = 50;

/// Validates `command.writeConcern` if present.
pub fn check_write_concern(command: &Document) -> Result<()> {
    match command.get("writeConcern") {
        None | Some(Bson::Null) => Ok(()),
        Some(Bson::Document(wc)) => check_document(wc),
        Some(other) => Err(Error::type_mismatch(format!(
            "BSON field 'writeConcern' is the wrong type '{}', expected type 'object'",
            type_name(other)
        ))),
    }
}

fn is_number(v: &Bson) -> bool {
    matches!(
        v,
        Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_) | Bson::Decimal128(_)
    )
}

fn check_document(wc: &Document) -> Result<()> {
    let mut journal = false;
    let mut fsync = false;
    for (field, value) in wc {
        match field.as_str() {
            "w" => {
                check_w(value)?;
                check_standalone(value)?;
            }
            "j" | "fsync" => {
                let on = match value {
                    Bson::Boolean(b) => *b,
                    Bson::Int32(i) => *i != 0,
                    Bson::Int64(i) => *i != 0,
                    Bson::Double(d) => *d != 0.0,
                    Bson::Null => false,
                    other => {
                        return Err(Error::type_mismatch(format!(
                            "BSON field 'writeConcern.{field}' is the wrong type '{}', expected types '[bool, long, int, decimal, double]'",
                            type_name(other)
                        )));
                    }
                };
                if field == "j" {
                    journal = on;
                } else {
                    fsync = on;
                }
            }
            "wtimeout" => {
                if !is_number(value) && !matches!(value, Bson::Null) {
                    return Err(Error::type_mismatch(format!(
                        "BSON field 'writeConcern.wtimeout' is the wrong type '{}', expected types '[long, int, decimal, double]'",
                        type_name(value)
                    )));
                }
            }
            // Accepted by MongoDB for compatibility with old clients and internal callers.
            "getLastError" | "getlasterror" | "wOpTime" | "wElectionId" | "provenance" => {}
            other => {
                return Err(Error::location(
                    40415,
                    format!("BSON field 'writeConcern.{other}' is an unknown field."),
                ));
            }
        }
    }
    if journal && fsync {
        return Err(Error::new(
            ErrorCode::FailedToParse,
            "fsync and j options cannot be used together",
        ));
    }
    Ok(())
}

/// Whether `command.writeConcern` asks for no acknowledgement: `w: 0` without `j: true`
/// (WriteConcernOptions::isUnacknowledged). MongoDB answers such an insert, update or delete
/// with `{ok: 1}` alone, its counts and errors left out (8.0's
/// jstests/core/write/batch_write_command_w0.js).
pub fn is_unacknowledged(command: &Document) -> bool {
    let Some(Bson::Document(wc)) = command.get("writeConcern") else {
        return false;
    };
    let zero = match wc.get("w") {
        Some(Bson::Int32(i)) => *i == 0,
        Some(Bson::Int64(i)) => *i == 0,
        Some(Bson::Double(d)) => *d == 0.0,
        _ => false,
    };
    let journal = match wc.get("j") {
        Some(Bson::Boolean(b)) => *b,
        Some(Bson::Int32(i)) => *i != 0,
        Some(Bson::Int64(i)) => *i != 0,
        Some(Bson::Double(d)) => *d != 0.0,
        _ => false,
    };
    zero && !journal
}

/// What a standalone mongod accepts: `w` up to 1, or the "majority" mode.
fn check_standalone(w: &Bson) -> Result<()> {
    let n = match w {
        Bson::Int32(i) => i64::from(*i),
        Bson::Int64(i) => *i,
        Bson::Double(d) => *d as i64,
        Bson::String(mode) if mode != "majority" => {
            return Err(Error::bad_value(format!(
                "cannot use non-majority 'w' mode {mode} when a host is not a member of a replica set"
            )));
        }
        _ => return Ok(()),
    };
    if n > 1 {
        return Err(Error::bad_value(
            "cannot use 'w' > 1 when a host is not replicated",
        ));
    }
    Ok(())
}

fn check_w(w: &Bson) -> Result<()> {
    match w {
        Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_) | Bson::Decimal128(_) => {
            let n = match w {
                Bson::Int32(i) => i64::from(*i),
                Bson::Int64(i) => *i,
                Bson::Double(d) => *d as i64,
                _ => 1,
            };
            if !(0..=MAX_MEMBERS).contains(&n) {
                return Err(Error::new(
                    ErrorCode::FailedToParse,
                    format!(
                        "w has to be a non-negative number and not greater than {MAX_MEMBERS}; found: {n}"
                    ),
                ));
            }
            Ok(())
        }
        // "majority", or a custom mode (tag set) name.
        Bson::String(_) => Ok(()),
        // A tag set: {dc: 2, rack: 1}.
        Bson::Document(_) => Ok(()),
        Bson::Null | Bson::Undefined => Ok(()),
        _ => Err(Error::new(
            ErrorCode::FailedToParse,
            "w has to be a number, string, or object",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    fn check(wc: Bson) -> Result<()> {
        check_write_concern(&doc! {"insert": "c", "writeConcern": wc})
    }

    #[test]
    fn accepts_the_forms_mongodb_accepts() {
        for wc in [
            doc! {},
            doc! {"w": 1},
            doc! {"w": 0},
            doc! {"w": "majority", "wtimeout": 5000},
            doc! {"w": 1.0, "j": true},
            doc! {"j": 1},
            doc! {"w": {"dc": 1}},
        ] {
            assert!(check(Bson::Document(wc.clone())).is_ok(), "{wc}");
        }
        assert!(check_write_concern(&doc! {"insert": "c"}).is_ok());
    }

    #[test]
    fn w_zero_without_journal_is_unacknowledged() {
        let unacknowledged =
            |wc: Document| is_unacknowledged(&doc! {"insert": "c", "writeConcern": wc});
        assert!(unacknowledged(doc! {"w": 0}));
        assert!(unacknowledged(doc! {"w": 0.0, "j": false}));
        assert!(!unacknowledged(doc! {"w": 0, "j": true}));
        assert!(!unacknowledged(doc! {"w": 1}));
        assert!(!unacknowledged(doc! {}));
        assert!(!is_unacknowledged(&doc! {"insert": "c"}));
    }

    #[test]
    fn refuses_bad_fields_and_types() {
        let e = check(Bson::Document(doc! {"w": true})).unwrap_err();
        assert_eq!(
            (e.code(), e.message.as_str()),
            (9, "w has to be a number, string, or object")
        );
        let e = check(Bson::Document(doc! {"w": -1})).unwrap_err();
        assert_eq!(e.code(), 9);
        let e = check(Bson::Document(doc! {"j": "yes"})).unwrap_err();
        assert_eq!(e.code(), 14);
        let e = check(Bson::Document(doc! {"wtimeout": "x"})).unwrap_err();
        assert_eq!(e.code(), 14);
        let e = check(Bson::Document(doc! {"x": 1})).unwrap_err();
        assert_eq!(
            (e.code(), e.message.as_str()),
            (40415, "BSON field 'writeConcern.x' is an unknown field.")
        );
        let e = check(Bson::Document(doc! {"w": 2})).unwrap_err();
        assert_eq!(
            (e.code(), e.message.as_str()),
            (2, "cannot use 'w' > 1 when a host is not replicated")
        );
        let e = check(Bson::Document(doc! {"w": "dc1"})).unwrap_err();
        assert_eq!(
            e.message,
            "cannot use non-majority 'w' mode dc1 when a host is not a member of a replica set"
        );
        let e = check(Bson::Document(doc! {"j": true, "fsync": true})).unwrap_err();
        assert_eq!(e.code(), 9);
        assert_eq!(check(Bson::Int32(1)).unwrap_err().code(), 14);
    }
}
