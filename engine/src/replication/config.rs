//! A replica set's configuration (`rs.conf()`): members with their host, priority, votes,
//! hidden, arbiterOnly, secondaryDelaySecs and tags, and `settings.getLastErrorModes`; parsed
//! and checked as `replSetInitiate`/`replSetReconfig` check them (error 93,
//! InvalidReplicaSetConfig, with the server's wording where it is known: mongo's
//! `src/mongo/db/repl/member_config.cpp` and `repl_set_config_checks.cpp`).

use std::collections::BTreeMap;

use bson::{Bson, Document, doc};

use crate::error::{Error, ErrorCode, Result};
use crate::value::as_i64;

/// MongoDB's limit on members of a replica set (50) and on voting members (7).
pub const MAX_MEMBERS: usize = 50;
pub const MAX_VOTING_MEMBERS: usize = 7;

/// One member's entry in the configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct MemberConfig {
    pub id: i64,
    pub host: String,
    pub arbiter_only: bool,
    pub hidden: bool,
    pub priority: f64,
    pub votes: i64,
    pub secondary_delay_secs: i64,
    pub tags: BTreeMap<String, String>,
}

impl MemberConfig {
    /// A data-bearing member with the defaults (`priority: 1`, `votes: 1`).
    pub fn new(id: i64, host: &str) -> MemberConfig {
        MemberConfig {
            id,
            host: host.to_string(),
            arbiter_only: false,
            hidden: false,
            priority: 1.0,
            votes: 1,
            secondary_delay_secs: 0,
            tags: BTreeMap::new(),
        }
    }

    /// Whether the member can become primary.
    pub fn is_electable(&self) -> bool {
        !self.arbiter_only && self.priority > 0.0
    }

    fn parse(doc: &Document, index: usize) -> Result<MemberConfig> {
        let bad = |msg: String| Error::new(ErrorCode::InvalidReplicaSetConfig, msg);
        let id = doc.get("_id").and_then(as_i64).ok_or_else(|| {
            bad(format!(
                "members.{index}._id field is missing or not a number"
            ))
        })?;
        let host = match doc.get("host") {
            Some(Bson::String(h)) if !h.is_empty() => h.clone(),
            _ => {
                return Err(bad(format!(
                    "members.{index}.host field is missing or empty"
                )));
            }
        };
        let mut member = MemberConfig::new(id, &host);
        member.arbiter_only = matches!(doc.get("arbiterOnly"), Some(Bson::Boolean(true)));
        member.hidden = matches!(doc.get("hidden"), Some(Bson::Boolean(true)));
        if let Some(p) = doc.get("priority") {
            member.priority = match p {
                Bson::Double(d) => *d,
                other => as_i64(other).map(|n| n as f64).ok_or_else(|| {
                    bad(format!("members.{index}.priority field must be a number"))
                })?,
            };
        } else if member.arbiter_only {
            member.priority = 0.0;
        }
        if let Some(v) = doc.get("votes") {
            member.votes = as_i64(v)
                .ok_or_else(|| bad(format!("members.{index}.votes field must be a number")))?;
        }
        if let Some(d) = doc.get("secondaryDelaySecs") {
            member.secondary_delay_secs = as_i64(d).ok_or_else(|| {
                bad(format!(
                    "members.{index}.secondaryDelaySecs field must be a number"
                ))
            })?;
        }
        if let Some(Bson::Document(tags)) = doc.get("tags") {
            for (k, v) in tags {
                let Bson::String(v) = v else {
                    return Err(bad(format!(
                        "tags.{k} field has non-string value of type {}",
                        crate::value::display::type_name(v)
                    )));
                };
                member.tags.insert(k.clone(), v.clone());
            }
        }
        member.check()?;
        Ok(member)
    }

    /// The member's own rules (member_config.cpp).
    fn check(&self) -> Result<()> {
        let bad = |msg: &str| {
            Err(Error::new(
                ErrorCode::InvalidReplicaSetConfig,
                msg.to_string(),
            ))
        };
        if !(0.0..=1000.0).contains(&self.priority) {
            return bad("priority must be between 0 and 1000");
        }
        if !(0..=1).contains(&self.votes) {
            return bad("votes must be 0 or 1");
        }
        if self.secondary_delay_secs < 0 {
            return bad("secondaryDelaySecs cannot be negative");
        }
        if self.arbiter_only {
            if !self.tags.is_empty() {
                return bad("Cannot set tags on arbiters.");
            }
            if self.votes != 1 {
                return bad("Arbiter must vote (cannot have 0 votes)");
            }
            if self.priority != 0.0 {
                return bad("Arbiters must have priority 0");
            }
        }
        if self.hidden && self.priority != 0.0 {
            return bad("priority must be 0 when hidden=true");
        }
        if self.secondary_delay_secs > 0 && self.priority != 0.0 {
            return bad("priority must be 0 when secondaryDelaySecs is used");
        }
        if self.votes == 0 && self.priority != 0.0 {
            return bad("priority must be 0 when non-voting (votes:0)");
        }
        Ok(())
    }

    /// The member as `rs.conf()` shows it.
    pub fn to_document(&self) -> Document {
        let tags: Document = self
            .tags
            .iter()
            .map(|(k, v)| (k.clone(), Bson::String(v.clone())))
            .collect();
        let priority = if self.priority.fract() == 0.0 {
            Bson::Int32(self.priority as i32)
        } else {
            Bson::Double(self.priority)
        };
        doc! {
            "_id": self.id,
            "host": &self.host,
            "arbiterOnly": self.arbiter_only,
            "buildIndexes": true,
            "hidden": self.hidden,
            "priority": priority,
            "tags": tags,
            "secondaryDelaySecs": self.secondary_delay_secs,
            "votes": self.votes as i32,
        }
    }
}

/// A write-concern mode's tags and how many distinct values of each a write must reach.
pub type TagCounts = Vec<(String, i64)>;

/// The whole configuration document.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplSetConfig {
    pub name: String,
    pub version: i64,
    pub members: Vec<MemberConfig>,
    /// `settings.getLastErrorModes`: mode name → (tag name → number of distinct values).
    /// `settings.getLastErrorModes`: each mode's tag counts, in the order given (a list: a
    /// configuration names a few; maps of these types compiled their own B-tree code).
    pub last_error_modes: Vec<(String, TagCounts)>,
}

impl ReplSetConfig {
    /// Parses and checks a configuration document (`rs.initiate(cfg)`, `rs.reconfig(cfg)`).
    pub fn parse(doc: &Document) -> Result<ReplSetConfig> {
        let bad = |msg: String| Error::new(ErrorCode::InvalidReplicaSetConfig, msg);
        let name = match doc.get("_id") {
            Some(Bson::String(s)) if !s.is_empty() => s.clone(),
            _ => return Err(bad("Missing expected field \"_id\"".to_string())),
        };
        let version = doc.get("version").and_then(as_i64).unwrap_or(1);
        if version < 1 {
            return Err(bad(format!(
                "version field value of {version} is out of range"
            )));
        }
        let Some(Bson::Array(list)) = doc.get("members") else {
            return Err(bad("Missing expected field \"members\"".to_string()));
        };
        let mut members = Vec::new();
        for (i, m) in list.iter().enumerate() {
            let Bson::Document(m) = m else {
                return Err(bad(format!("members.{i} must be an object")));
            };
            members.push(MemberConfig::parse(m, i)?);
        }
        let mut last_error_modes = Vec::new();
        if let Some(Bson::Document(settings)) = doc.get("settings")
            && let Some(Bson::Document(modes)) = settings.get("getLastErrorModes")
        {
            for (mode, spec) in modes {
                let Bson::Document(spec) = spec else {
                    return Err(bad(format!(
                        "Expected settings.getLastErrorModes.{mode} to be an Object"
                    )));
                };
                let mut counts = Vec::new();
                for (tag, n) in spec {
                    let n = as_i64(n).filter(|n| *n > 0).ok_or_else(|| {
                        bad(format!(
                            "Value of tag {tag} in mode {mode} must be positive, not {n}"
                        ))
                    })?;
                    counts.push((tag.clone(), n));
                }
                last_error_modes.push((mode.clone(), counts));
            }
        }
        let config = ReplSetConfig {
            name,
            version,
            members,
            last_error_modes,
        };
        config.check()?;
        Ok(config)
    }

    /// The set-wide rules (repl_set_config.cpp).
    fn check(&self) -> Result<()> {
        let bad = |msg: String| Err(Error::new(ErrorCode::InvalidReplicaSetConfig, msg));
        if self.members.is_empty() {
            return bad("Replica set configuration must contain at least one member".into());
        }
        if self.members.len() > MAX_MEMBERS {
            return bad(format!(
                "Replica set configuration contains {} members, but must have no more than {MAX_MEMBERS}",
                self.members.len()
            ));
        }
        for (i, a) in self.members.iter().enumerate() {
            for (j, b) in self.members.iter().enumerate().skip(i + 1) {
                if a.id == b.id {
                    return bad(format!(
                        "Found two member configurations with same _id field, members.{i}._id == members.{j}._id == {}",
                        a.id
                    ));
                }
                if a.host == b.host {
                    return bad(format!(
                        "Found two member configurations with same host field, members.{i}.host == members.{j}.host == {}",
                        a.host
                    ));
                }
            }
        }
        let voters = self.members.iter().filter(|m| m.votes > 0).count();
        if voters > MAX_VOTING_MEMBERS {
            return bad(format!(
                "Replica set configuration contains {voters} voting members, but must be at least 1 and no more than {MAX_VOTING_MEMBERS}"
            ));
        }
        if voters == 0 {
            return bad("Replica set configuration must contain at least one voting member".into());
        }
        if !self.members.iter().any(MemberConfig::is_electable) {
            return bad(
                "Replica set configuration must contain at least one non-arbiter member with priority > 0"
                    .into(),
            );
        }
        for (mode, counts) in &self.last_error_modes {
            for (tag, n) in counts {
                if !self.members.iter().any(|m| m.tags.contains_key(tag)) {
                    return bad(format!(
                        "Mode {mode} requires {n} matching tags of type {tag}, but no members have that tag"
                    ));
                }
            }
        }
        Ok(())
    }

    /// The number of members a `w: "majority"` write must reach: a majority of the voting
    /// members, but no more than the voting data-bearing members (MongoDB's
    /// `writeMajority`, which keeps arbiters from making majority writes impossible).
    pub fn write_majority(&self) -> usize {
        let voters = self.members.iter().filter(|m| m.votes > 0).count();
        let data_voters = self
            .members
            .iter()
            .filter(|m| m.votes > 0 && !m.arbiter_only)
            .count();
        (voters / 2 + 1).min(data_voters)
    }

    /// The configuration as `rs.conf()` shows it.
    pub fn to_document(&self, term: i64) -> Document {
        let modes: Document = self
            .last_error_modes
            .iter()
            .map(|(mode, counts)| {
                let spec: Document = counts
                    .iter()
                    .map(|(t, n)| (t.clone(), Bson::Int32(*n as i32)))
                    .collect();
                (mode.clone(), Bson::Document(spec))
            })
            .collect();
        doc! {
            "_id": &self.name,
            "version": self.version as i32,
            "term": term,
            "members": self.members.iter().map(|m| Bson::Document(m.to_document())).collect::<Vec<_>>(),
            "protocolVersion": 1_i64,
            "writeConcernMajorityJournalDefault": true,
            "settings": {
                "chainingAllowed": true,
                "heartbeatIntervalMillis": 2000,
                "heartbeatTimeoutSecs": 10,
                "electionTimeoutMillis": 10000,
                "catchUpTimeoutMillis": -1,
                "catchUpTakeoverDelayMillis": 30000,
                "getLastErrorModes": modes,
                "getLastErrorDefaults": {"w": 1, "wtimeout": 0},
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn three() -> Document {
        doc! {"_id": "rs1", "members": [
            {"_id": 0, "host": "172.17.0.2:27017"},
            {"_id": 1, "host": "172.17.0.3:27017"},
            {"_id": 2, "host": "172.17.0.4:27017", "arbiterOnly": true},
        ]}
    }

    #[test]
    fn a_three_member_set_with_an_arbiter_parses() {
        let config = ReplSetConfig::parse(&three()).unwrap();
        assert_eq!(config.members.len(), 3);
        assert_eq!(config.members[2].priority, 0.0);
        assert_eq!(config.write_majority(), 2);
    }

    #[test]
    fn a_hidden_member_must_have_priority_zero() {
        let mut cfg = three();
        cfg.insert(
            "members",
            vec![Bson::Document(
                doc! {"_id": 0, "host": "a:1", "hidden": true},
            )],
        );
        let err = ReplSetConfig::parse(&cfg).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidReplicaSetConfig);
        assert_eq!(err.message, "priority must be 0 when hidden=true");
    }

    #[test]
    fn duplicate_hosts_are_refused() {
        let cfg = doc! {"_id": "rs1", "members": [
        {"_id": 0, "host": "a:1"}, {"_id": 1, "host": "a:1"}]};
        let err = ReplSetConfig::parse(&cfg).unwrap_err();
        assert!(err.message.contains("same host field"), "{}", err.message);
    }

    #[test]
    fn a_custom_mode_needs_its_tag() {
        let mut cfg = three();
        cfg.insert(
            "settings",
            doc! {"getLastErrorModes": {"multiDC": {"dc": 2}}},
        );
        let err = ReplSetConfig::parse(&cfg).unwrap_err();
        assert!(
            err.message.contains("no members have that tag"),
            "{}",
            err.message
        );
    }
}
