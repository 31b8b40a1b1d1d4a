//! Read concern levels (`readConcern: {level}`), parsed once for every read command, and what a
//! standalone server does with the replica-set-only ones. The simulated set carries out the
//! levels itself (`replication::read_concern`).

use bson::{Bson, Document};

use crate::error::{Error, ErrorCode, Result};

/// The read concern levels a read may name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadConcernLevel {
    Local,
    Available,
    Majority,
    Linearizable,
    Snapshot,
}

impl ReadConcernLevel {
    /// The level of a command's `readConcern` (local when it names none), with MongoDB's
    /// error for an unknown level.
    pub fn of(command: &Document) -> Result<ReadConcernLevel> {
        let level = match crate::path::field(command, "readConcern") {
            Some(Bson::Document(rc)) => match rc.get("level") {
                Some(Bson::String(level)) => level.as_str(),
                None => return Ok(ReadConcernLevel::Local),
                Some(_) => {
                    return Err(Error::new(
                        ErrorCode::TypeMismatch,
                        "BSON field 'ReadConcernArgs.level' is the wrong type, expected type 'string'",
                    ));
                }
            },
            _ => return Ok(ReadConcernLevel::Local),
        };
        match level {
            "local" => Ok(ReadConcernLevel::Local),
            "available" => Ok(ReadConcernLevel::Available),
            "majority" => Ok(ReadConcernLevel::Majority),
            "linearizable" => Ok(ReadConcernLevel::Linearizable),
            "snapshot" => Ok(ReadConcernLevel::Snapshot),
            other => Err(Error::new(
                ErrorCode::BadValue,
                format!(
                    "Enumeration value '{other}' for field 'ReadConcernArgs.level' is not a valid value."
                ),
            )),
        }
    }
}

/// A standalone server refuses the replica-set-only levels (MongoDB's
/// `waitForReadConcernImpl`: `NotAReplicaSet`). The simulated set strips `readConcern` before
/// its members' engines run a read, so this is only reached on a standalone engine.
pub fn check_standalone(command: &Document) -> Result<()> {
    match ReadConcernLevel::of(command)? {
        ReadConcernLevel::Linearizable => Err(Error::new(
            ErrorCode::NotAReplicaSet,
            "node needs to be a replica set member to use read concern",
        )),
        ReadConcernLevel::Snapshot => Err(Error::new(
            ErrorCode::NotAReplicaSet,
            "node needs to be a replica set member to use readConcern: snapshot",
        )),
        _ => Ok(()),
    }
}
