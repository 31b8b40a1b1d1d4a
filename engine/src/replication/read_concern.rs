//! Read concern against the simulated set. `local` (the default) and `available` read the
//! serving member's data as it is; `majority` reads it as of the majority commit point, the
//! newest oplog entry a majority of the voting data-bearing members have applied, so a write
//! that only the primary has applied is not seen (MongoDB's read concern "majority",
//! https://www.mongodb.com/docs/v8.0/reference/read-concern-majority/). `snapshot` outside a
//! transaction reads the same majority-committed point and says which in the cursor's
//! `atClusterTime`. `linearizable` reads on the primary only, then writes a no-op to the oplog
//! and waits until a majority has it (MongoDB's `waitForLinearizableReadConcern`): with members
//! lagging the wait moves simulated time on, and where a majority cannot acknowledge (a
//! primary–secondary–arbiter set with its secondary stopped) it ends at `maxTimeMS`.

use bson::{Bson, Document, doc};

use super::replica_set::ReplicaSet;
use super::write_concern::{WriteConcern, WriteTarget};
use crate::Engine;
use crate::error::{Error, ErrorCode, Result};
use crate::value::as_i64;

pub(crate) use crate::commands::read_concern::ReadConcernLevel;

impl ReplicaSet {
    /// MongoDB's checks before a linearizable read (`waitForReadConcernImpl`): no
    /// `afterOpTime`, and only the primary serves it.
    pub(super) fn check_linearizable(&self, command: &Document, index: usize) -> Result<()> {
        if let Some(Bson::Document(rc)) = command.get("readConcern")
            && rc.contains_key("afterOpTime")
        {
            return Err(Error::new(
                ErrorCode::FailedToParse,
                "afterOpTime not compatible with linearizable read concern",
            ));
        }
        if self.primary != Some(index) {
            return Err(Error::new(
                ErrorCode::NotWritablePrimary,
                "cannot satisfy linearizable read concern on non-primary node",
            ));
        }
        Ok(())
    }

    /// After a linearizable read: the primary writes a no-op (`{msg: "linearizable read"}`)
    /// and waits, up to the command's `maxTimeMS`, until a majority has applied it.
    pub(super) fn confirm_linearizable(&mut self, command: &Document) -> Result<()> {
        let now = self.now_millis();
        let entry = self.writer.noop("linearizable read", self.term, now);
        self.append(vec![entry]);
        let upto = self.oplog.len();
        let max_time_ms = command
            .get("maxTimeMS")
            .and_then(as_i64)
            .unwrap_or(0)
            .max(0);
        let wait = WriteConcern {
            target: WriteTarget::Majority,
            wtimeout_ms: max_time_ms,
            document: doc! {"w": "majority", "wtimeout": max_time_ms},
        };
        match self.wait_for_write_concern(&wait, upto) {
            None => Ok(()),
            Some(_) if max_time_ms > 0 => Err(Error::new(
                ErrorCode::MaxTimeMSExpired,
                "operation exceeded time limit",
            )),
            // MongoDB waits without end here; the simulation cannot block the shell.
            Some(_) => Err(Error::new(
                ErrorCode::LinearizableReadConcernError,
                "Failed to confirm that read was linearizable: too few running members can \
                 acknowledge its no-op write (MongoDB would wait until they return or until \
                 maxTimeMS; Sprout does not block without maxTimeMS)",
            )),
        }
    }

    /// A `snapshot` read outside a transaction names the point it read: the cursor's
    /// `atClusterTime`, the timestamp of the newest majority-committed oplog entry.
    pub(super) fn stamp_snapshot_read(&self, reply: &mut Document) {
        let commit = self.majority_commit_point();
        let Some(Bson::Timestamp(ts)) = commit
            .checked_sub(1)
            .and_then(|i| self.oplog.get(i))
            .and_then(|entry| entry.document.get("ts"))
            .cloned()
        else {
            return;
        };
        let Some(Bson::Document(cursor)) = reply.get_mut("cursor") else {
            return;
        };
        // MongoDB's cursor reply: the batch, then atClusterTime, then id and ns.
        let mut stamped = Document::new();
        for (key, value) in std::mem::take(cursor) {
            let batch = key == "firstBatch" || key == "nextBatch";
            stamped.insert(key, value);
            if batch {
                stamped.insert("atClusterTime", ts);
            }
        }
        *cursor = stamped;
    }

    /// The majority commit point: how many oplog entries a majority of the voting
    /// data-bearing members have applied.
    pub fn majority_commit_point(&self) -> usize {
        (0..=self.oplog.len())
            .rev()
            .find(|&n| self.satisfied(&WriteTarget::Majority, &self.acknowledged(n)))
            .unwrap_or(0)
    }

    /// The data member `index` shows a read at read concern "majority": its own when it has
    /// applied no more than the commit point, else a copy rebuilt from the oplog up to it.
    pub(super) fn majority_snapshot(&self, index: usize) -> Option<Engine> {
        let commit = self.majority_commit_point();
        if self.member(index).applied <= commit {
            return None;
        }
        let mut engine = self.snapshot_engine(index);
        for entry in &self.oplog[..commit] {
            // The entries applied cleanly on every member that has them: they replay cleanly.
            if engine.apply_changes(&entry.changes).is_err() {
                break;
            }
            super::replica_set::write_local_oplog(&mut engine, &entry.document);
        }
        Some(engine)
    }
}

/// Where the ids the set gives snapshot cursors start (members' own start at 7e18 + 1).
const SNAPSHOT_CURSOR_BASE: i64 = 7_500_000_000_000_000_000;

/// Cursors left open by reads at read concern "majority", each kept with the snapshot it
/// reads. Snapshot engines number their cursors as members do, so the set gives each its own
/// id and translates getMore and killCursors.
#[derive(Debug, Default)]
pub struct SnapshotCursors {
    issued: i64,
    /// (the id the client sees, the snapshot engine's id, the snapshot).
    open: Vec<(i64, i64, Engine)>,
}

impl SnapshotCursors {
    /// Keeps `engine` when its reply left a cursor open, renaming the cursor in `reply`.
    pub(super) fn adopt(&mut self, reply: &mut Document, engine: Engine) {
        if let Some(Bson::Document(cursor)) = reply.get_mut("cursor")
            && let Some(engine_id) = cursor.get("id").and_then(crate::value::as_i64)
            && engine_id != 0
        {
            self.issued += 1;
            let id = SNAPSHOT_CURSOR_BASE + self.issued;
            cursor.insert("id", id);
            self.open.push((id, engine_id, engine));
        }
    }

    /// Runs `getMore` or `killCursors` when it names a snapshot cursor (`None` otherwise).
    pub(super) fn run(&mut self, db: &str, command: &Document) -> Option<Document> {
        let (field, id) = match command.get("getMore") {
            Some(v) => ("getMore", crate::value::as_i64(v)?),
            None => match command.get("cursors") {
                Some(Bson::Array(ids)) => ("cursors", ids.first().and_then(crate::value::as_i64)?),
                _ => return None,
            },
        };
        let slot = self.open.iter().position(|(set_id, _, _)| *set_id == id)?;
        let engine_id = self.open[slot].1;
        let mut cmd = command.clone();
        if field == "getMore" {
            cmd.insert("getMore", engine_id);
        } else {
            cmd.insert("cursors", vec![Bson::Int64(engine_id)]);
        }
        let mut reply = self.open[slot].2.run_command(db, &cmd);
        let rename = |v: &mut Bson| {
            if crate::value::as_i64(v) == Some(engine_id) {
                *v = Bson::Int64(id);
            }
        };
        let mut still_open = false;
        if let Some(Bson::Document(cursor)) = reply.get_mut("cursor")
            && let Some(v) = cursor.get_mut("id")
        {
            still_open = crate::value::as_i64(v).is_some_and(|n| n != 0);
            rename(v);
        }
        for list in [
            "cursorsKilled",
            "cursorsNotFound",
            "cursorsAlive",
            "cursorsUnknown",
        ] {
            if let Some(Bson::Array(ids)) = reply.get_mut(list) {
                ids.iter_mut().for_each(rename);
            }
        }
        if !still_open && crate::reply_ok(&reply) {
            self.open.remove(slot);
        }
        Some(reply)
    }
}

#[cfg(test)]
mod tests {
    use bson::doc;

    use super::ReadConcernLevel;
    use crate::error::ErrorCode;

    #[test]
    fn levels_parse_and_unknown_ones_fail_as_mongodb_says() {
        assert_eq!(
            ReadConcernLevel::of(&doc! {"find": "c"}).unwrap(),
            ReadConcernLevel::Local
        );
        assert_eq!(
            ReadConcernLevel::of(&doc! {"find": "c", "readConcern": {"level": "majority"}})
                .unwrap(),
            ReadConcernLevel::Majority
        );
        let e = ReadConcernLevel::of(&doc! {"find": "c", "readConcern": {"level": "most"}})
            .unwrap_err();
        assert_eq!(e.code, ErrorCode::BadValue);
    }
}
