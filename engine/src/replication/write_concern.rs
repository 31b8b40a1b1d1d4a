//! Write concern against the simulated set: `w` as a number, `"majority"` or a custom mode of
//! `settings.getLastErrorModes`, with `wtimeout`. The primary waits (simulated time moves on)
//! until enough members have applied the write; when that cannot happen within `wtimeout` the
//! reply carries MongoDB's `writeConcernError` (code 64, "waiting for replication timed out",
//! `errInfo.wtimeout: true`; codeName WriteConcernTimeout since the rename of DRIVERS-3007).

use bson::{Bson, Document, doc};

use super::config::TagCounts;
use super::replica_set::ReplicaSet;
use crate::error::{Error, ErrorCode, Result};
use crate::value::as_i64;

/// What a write must reach.
#[derive(Debug, Clone, PartialEq)]
pub enum WriteTarget {
    /// This many data-bearing members (`w: n`).
    Members(i64),
    /// The set's write majority (`w: "majority"`).
    Majority,
    /// A custom mode: distinct values of each tag.
    Tags(String, TagCounts),
}

/// A parsed `writeConcern` document.
#[derive(Debug, Clone, PartialEq)]
pub struct WriteConcern {
    pub target: WriteTarget,
    /// 0: wait without limit.
    pub wtimeout_ms: i64,
    pub document: Document,
}

impl WriteConcern {
    /// Reads the command's `writeConcern` (default `{w: 1}`... the implicit default of 8.0 is
    /// `w: "majority"`, but the shell's writes in the book name their concern when it matters;
    /// Sprout keeps `w: 1` so that a write does not wait unless asked).
    pub fn parse(command: &Document, set: &ReplicaSet) -> Result<WriteConcern> {
        let Some(Bson::Document(wc)) = command.get("writeConcern") else {
            return Ok(WriteConcern {
                target: WriteTarget::Members(1),
                wtimeout_ms: 0,
                document: doc! {"w": 1, "wtimeout": 0},
            });
        };
        let target = match wc.get("w") {
            None => WriteTarget::Members(1),
            Some(Bson::String(s)) if s == "majority" => WriteTarget::Majority,
            Some(Bson::String(mode)) => match set
                .config()
                .last_error_modes
                .iter()
                .find(|(m, _)| m == mode)
            {
                Some((_, counts)) => WriteTarget::Tags(mode.clone(), counts.clone()),
                None => {
                    return Err(Error::new(
                        ErrorCode::UnknownReplWriteConcern,
                        format!(
                            "No write concern mode named '{mode}' found in replica set configuration"
                        ),
                    ));
                }
            },
            Some(other) => match as_i64(other) {
                Some(n) if n >= 0 => WriteTarget::Members(n),
                _ => {
                    return Err(Error::new(
                        ErrorCode::FailedToParse,
                        "w has to be a non-negative number and not greater than 50; or a string",
                    ));
                }
            },
        };
        let wtimeout_ms = wc.get("wtimeout").and_then(as_i64).unwrap_or(0).max(0);
        let mut document = wc.clone();
        if !document.contains_key("wtimeout") {
            document.insert("wtimeout", 0);
        }
        Ok(WriteConcern {
            target,
            wtimeout_ms,
            document,
        })
    }
}

impl ReplicaSet {
    /// Whether the members in `acked` satisfy `target`.
    pub(super) fn satisfied(&self, target: &WriteTarget, acked: &[usize]) -> bool {
        match target {
            WriteTarget::Members(n) => acked.len() as i64 >= *n,
            WriteTarget::Majority => {
                let voting = acked
                    .iter()
                    .filter(|&&i| self.config().members[i].votes > 0)
                    .count();
                voting >= self.config().write_majority()
            }
            WriteTarget::Tags(_, counts) => counts.iter().all(|(tag, n)| {
                // The distinct values, in a list (at most 50 members): a set would compile
                // its own B-tree for `&String` (issue #22).
                let mut values: Vec<&String> = Vec::new();
                for value in acked
                    .iter()
                    .filter_map(|&i| self.config().members[i].tags.get(tag))
                {
                    if !values.contains(&value) {
                        values.push(value);
                    }
                }
                values.len() as i64 >= *n
            }),
        }
    }

    /// The data-bearing members that have applied the first `upto` entries.
    pub(super) fn acknowledged(&self, upto: usize) -> Vec<usize> {
        (0..self.members.len())
            .filter(|&i| !self.config().members[i].arbiter_only && self.member(i).applied >= upto)
            .collect()
    }

    /// Waits for the write that ended at oplog length `upto` to satisfy `wc`, moving simulated
    /// time on; returns the `writeConcernError` document when it cannot.
    pub(super) fn wait_for_write_concern(
        &mut self,
        wc: &WriteConcern,
        upto: usize,
    ) -> Option<Document> {
        if let WriteTarget::Members(n) = wc.target {
            let data_members = self
                .config()
                .members
                .iter()
                .filter(|m| !m.arbiter_only)
                .count();
            if n as usize > data_members {
                return Some(doc! {
                    "code": ErrorCode::UnsatisfiableWriteConcern.code(),
                    "codeName": ErrorCode::UnsatisfiableWriteConcern.name(),
                    "errmsg": "Not enough data-bearing nodes",
                    "errInfo": {"writeConcern": self.provenance(wc)},
                });
            }
        }
        self.replicate();
        if self.satisfied(&wc.target, &self.acknowledged(upto)) {
            return None;
        }
        // When would each running member have applied the write?
        let write_wall = self.last_applied_wall_ms(upto);
        let mut due: Vec<i64> = (0..self.members.len())
            .filter(|&i| !self.member(i).stopped && !self.config().members[i].arbiter_only)
            .map(|i| write_wall.saturating_add(self.delay_ms(i)))
            .collect();
        crate::sort_slice::sort(&mut due);
        let now = self.now_millis();
        let deadline = if wc.wtimeout_ms > 0 {
            now.saturating_add(wc.wtimeout_ms)
        } else {
            i64::MAX
        };
        for t in due {
            if t > deadline {
                break;
            }
            if t > self.now_millis() {
                let step = t - self.now_millis();
                self.advance_clock(step);
            }
            if self.satisfied(&wc.target, &self.acknowledged(upto)) {
                return None;
            }
        }
        if wc.wtimeout_ms > 0 {
            if deadline > self.now_millis() {
                let step = deadline - self.now_millis();
                self.advance_clock(step);
            }
            return Some(doc! {
                "code": ErrorCode::WriteConcernTimeout.code(),
                "codeName": ErrorCode::WriteConcernTimeout.name(),
                "errmsg": "waiting for replication timed out",
                "errInfo": {"wtimeout": true, "writeConcern": self.provenance(wc)},
            });
        }
        // Without wtimeout MongoDB would wait until stopped members come back; the simulation
        // cannot block the shell, so it answers at once and says why.
        Some(doc! {
            "code": ErrorCode::WriteConcernTimeout.code(),
            "codeName": ErrorCode::WriteConcernTimeout.name(),
            "errmsg": "waiting for replication cannot finish: too few running members can \
                       acknowledge the write (MongoDB would wait until they return; Sprout \
                       does not block without wtimeout)",
            "errInfo": {"wtimeout": false, "writeConcern": self.provenance(wc)},
        })
    }

    fn provenance(&self, wc: &WriteConcern) -> Document {
        let mut d = wc.document.clone();
        d.insert("provenance", "clientSupplied");
        d
    }
}
