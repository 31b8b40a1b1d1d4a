//! `collMod`: changes a collection's options after creation. Sprout supports what MongoDB 8.0
//! does for ordinary collections: an index's `hidden` flag and `expireAfterSeconds`, a capped
//! collection's `cappedSize`/`cappedMax`, and the validation options (stored as `create` stores
//! them); on a view, its `viewOn` and `pipeline` (`commands/view.rs`). The new catalog entry is
//! recorded as one `PutCollection` change.

use bson::{Bson, Document};

use super::target_namespace;
use crate::Engine;
use crate::catalog::capped::{numeric_option, stored_number, validated_max, validated_size};
use crate::error::{Error, ErrorCode, Result};
use crate::storage::Change;
use crate::value::display::{key_value, type_name};

pub fn coll_mod(engine: &mut Engine, db: &str, command: &Document) -> Result<Document> {
    let ns = target_namespace(db, command)?;
    for (k, _) in command.iter().skip(1) {
        match k.as_str() {
            "index" | "cappedSize" | "cappedMax" | "validator" | "validationLevel"
            | "validationAction" | "viewOn" | "pipeline" | "writeConcern" | "comment" | "lsid"
            | "$db" => {}
            other => {
                return Err(Error::location(
                    40415,
                    format!("BSON field 'collMod.{other}' is an unknown field."),
                ));
            }
        }
    }
    let is_view = engine
        .catalog()
        .collection(&ns)
        .is_some_and(|c| c.options.contains_key("viewOn"));
    if is_view {
        return super::view::modify(engine, &ns, command);
    }
    if command.contains_key("viewOn") || command.contains_key("pipeline") {
        return Err(Error::new(
            ErrorCode::InvalidOptions,
            "option only supported on a view",
        ));
    }
    if let Some(validator) = command.get("validator") {
        crate::validation::check_validator(&ns, "collMod", validator)?;
    }
    let index = match command.get("index") {
        None => None,
        Some(Bson::Document(d)) => Some(IndexChange::parse(d)?),
        Some(other) => {
            return Err(Error::type_mismatch(format!(
                "BSON field 'collMod.index' is the wrong type '{}', expected type 'object'",
                type_name(other)
            )));
        }
    };
    let capped_size = numeric_option(command, "collMod", "cappedSize")?
        .map(|n| validated_size("cappedSize", n))
        .transpose()?;
    let capped_max = numeric_option(command, "collMod", "cappedMax")?
        .map(|n| validated_max("cappedMax", n))
        .transpose()?;
    let Some(coll) = engine.catalog_mut().collection_mut(&ns) else {
        return Err(Error::new(
            ErrorCode::NamespaceNotFound,
            "ns does not exist",
        ));
    };
    if (capped_size.is_some() || capped_max.is_some()) && !coll.is_capped() {
        return Err(Error::new(
            ErrorCode::InvalidOptions,
            "Collection must be capped.",
        ));
    }
    let mut reply = Document::new();
    if let Some(change) = &index {
        // Find the index and check the whole change before modifying anything.
        let mut matching = coll.indexes().iter().filter(|i| match &change.target {
            IndexTarget::Name(n) => i.name() == n,
            IndexTarget::KeyPattern(k) => crate::index::spec::same_key_pattern(&i.spec.key, k),
        });
        let found = matching.next();
        // A key pattern two indexes share (other collations, other partial filters) names
        // neither: MongoDB 8.0's coll_mod.cpp answers AmbiguousIndexKeyPattern
        // (jstests/core/collmod.js).
        if let (Some(first), Some(second), IndexTarget::KeyPattern(k)) =
            (found, matching.next(), &change.target)
        {
            return Err(Error::new(
                ErrorCode::AmbiguousIndexKeyPattern,
                format!(
                    "index keyPattern {} matches {} indexes, must use index name. Conflicting indexes:{}, {}",
                    key_value(&Bson::Document(k.clone())),
                    2 + matching.count(),
                    key_value(&Bson::Document(first.spec.document.clone())),
                    key_value(&Bson::Document(second.spec.document.clone())),
                ),
            ));
        }
        let Some(found) = found else {
            let what = match &change.target {
                IndexTarget::Name(n) => n.clone(),
                IndexTarget::KeyPattern(k) => key_value(&Bson::Document(k.clone())),
            };
            return Err(Error::new(
                ErrorCode::IndexNotFound,
                format!("cannot find index {what} for ns {ns}"),
            ));
        };
        let name = found.name().to_string();
        if change.hidden == Some(true) && found.spec.is_id() {
            return Err(Error::bad_value("can't hide _id index"));
        }
        if change.expire_after_seconds.is_some() {
            if found.spec.is_id() {
                return Err(Error::new(
                    ErrorCode::InvalidOptions,
                    "the _id field does not support TTL indexes",
                ));
            }
            if found.spec.parts.len() > 1 {
                return Err(Error::new(
                    ErrorCode::InvalidOptions,
                    "TTL indexes are single-field indexes, compound indexes do not support TTL",
                ));
            }
        }
        if let Some(seconds) = change.expire_after_seconds {
            // The old value is reported as it was stored; the new one is stored as a long, as
            // mongod's collMod writes it.
            let old = coll.set_index_expire_after(&name, seconds).flatten();
            if old.as_ref().and_then(crate::value::as_i64) != Some(seconds) {
                if let Some(old) = old {
                    reply.insert("expireAfterSeconds_old", old);
                }
                reply.insert("expireAfterSeconds_new", seconds);
            }
        }
        if let Some(hidden) = change.hidden {
            let old = coll.set_index_hidden(&name, hidden).unwrap_or(hidden);
            if old != hidden {
                reply.insert("hidden_old", old);
                reply.insert("hidden_new", hidden);
            }
        }
    }
    if let Some(size) = capped_size {
        coll.options.insert("size", stored_number(size));
    }
    if let Some(max) = capped_max {
        coll.options.insert("max", stored_number(max));
    }
    for field in ["validator", "validationLevel", "validationAction"] {
        if let Some(v) = command.get(field) {
            coll.options.insert(field, v.clone());
        }
    }
    let options = coll.catalog_options();
    engine.record(Change::PutCollection { ns, options });
    reply.insert("ok", 1.0);
    Ok(reply)
}

enum IndexTarget {
    Name(String),
    KeyPattern(Document),
}

/// collMod's `index` argument: which index, and what changes.
struct IndexChange {
    target: IndexTarget,
    hidden: Option<bool>,
    expire_after_seconds: Option<i64>,
}

impl IndexChange {
    fn parse(spec: &Document) -> Result<IndexChange> {
        let (mut name, mut key, mut hidden, mut expire) = (None, None, None, None);
        for (k, v) in spec {
            match (k.as_str(), v) {
                ("name", Bson::String(s)) => name = Some(s.clone()),
                ("keyPattern", Bson::Document(d)) => key = Some(d.clone()),
                ("hidden", Bson::Boolean(b)) => hidden = Some(*b),
                ("expireAfterSeconds", n @ (Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_))) => {
                    let seconds = crate::value::as_i64_signed(n);
                    if seconds < 0 {
                        return Err(Error::bad_value(format!(
                            "BSON field 'collMod.index.expireAfterSeconds' value must be >= 0, actual value '{seconds}'"
                        )));
                    }
                    expire = Some(seconds);
                }
                ("name" | "keyPattern" | "hidden" | "expireAfterSeconds", other) => {
                    let expected = match k.as_str() {
                        "name" => "string",
                        "keyPattern" => "object",
                        "hidden" => "bool",
                        _ => "long",
                    };
                    return Err(Error::type_mismatch(format!(
                        "BSON field 'collMod.index.{k}' is the wrong type '{}', expected type '{expected}'",
                        type_name(other)
                    )));
                }
                (other, _) => {
                    return Err(Error::location(
                        40415,
                        format!("BSON field 'collMod.index.{other}' is an unknown field."),
                    ));
                }
            }
        }
        let target = match (name, key) {
            (Some(_), Some(_)) => {
                return Err(Error::new(
                    ErrorCode::InvalidOptions,
                    "Cannot specify both key pattern and name.",
                ));
            }
            (Some(n), None) => IndexTarget::Name(n),
            (None, Some(k)) => IndexTarget::KeyPattern(k),
            (None, None) => {
                return Err(Error::new(
                    ErrorCode::InvalidOptions,
                    "Must specify either index name or key pattern.",
                ));
            }
        };
        if hidden.is_none() && expire.is_none() {
            return Err(Error::new(
                ErrorCode::InvalidOptions,
                "no expireAfterSeconds, hidden, unique, or prepareUnique field",
            ));
        }
        Ok(IndexChange {
            target,
            hidden,
            expire_after_seconds: expire,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::Engine;
    use crate::storage::{DurableStore, MemoryStore};
    use bson::{Document, doc};

    fn run(e: &mut Engine, cmd: Document) -> Document {
        e.run_command("t", &cmd)
    }

    #[test]
    fn hides_and_retimes_an_index_and_survives_a_reload() {
        let mut e = Engine::new();
        run(
            &mut e,
            doc! {"createIndexes": "c", "indexes": [
            {"key": {"at": 1}, "name": "at_1", "expireAfterSeconds": 3600}]},
        );
        let r = run(
            &mut e,
            doc! {"collMod": "c", "index": {"name": "at_1", "hidden": true, "expireAfterSeconds": 60}},
        );
        assert_eq!(
            r,
            doc! {"expireAfterSeconds_old": 3600, "expireAfterSeconds_new": 60_i64,
            "hidden_old": false, "hidden_new": true, "ok": 1.0}
        );
        // Unchanged values are not reported.
        let r = run(
            &mut e,
            doc! {"collMod": "c", "index": {"keyPattern": {"at": 1}, "hidden": true}},
        );
        assert_eq!(r, doc! {"ok": 1.0});
        let mut store = MemoryStore::default();
        store.commit(&e.take_changes()).unwrap();
        let back = Engine::new().load(store.snapshot().unwrap()).unwrap();
        let coll = back
            .catalog()
            .collection(&crate::catalog::Namespace::new("t", "c"))
            .unwrap();
        let ix = coll.index("at_1").unwrap();
        assert!(ix.spec.hidden);
        assert_eq!(ix.spec.expire_after_seconds, Some(60));
    }

    /// Two indexes on one key pattern (here with other collations): the pattern names neither,
    /// the name still does (MongoDB's AmbiguousIndexKeyPattern; jstests/core/collmod.js).
    #[test]
    fn a_key_pattern_two_indexes_share_is_ambiguous() {
        let mut e = Engine::new();
        run(
            &mut e,
            doc! {"createIndexes": "c", "indexes": [
                {"key": {"a": 1}, "name": "TTL", "expireAfterSeconds": 60},
                {"key": {"a": 1}, "name": "TTLfr", "collation": {"locale": "fr"}, "expireAfterSeconds": 120},
            ]},
        );
        let r = run(
            &mut e,
            doc! {"collMod": "c", "index": {"keyPattern": {"a": 1}, "expireAfterSeconds": 240}},
        );
        assert_eq!(r.get_i32("code").ok(), Some(181), "{r}");
        let message = r.get_str("errmsg").unwrap();
        assert!(
            message.starts_with("index keyPattern { a: 1 } matches 2 indexes, must use index name. Conflicting indexes:{ "),
            "{message}"
        );
        let r = run(
            &mut e,
            doc! {"collMod": "c", "index": {"name": "TTL", "expireAfterSeconds": 100}},
        );
        assert_eq!(r.get_f64("ok").ok(), Some(1.0), "{r}");
    }

    #[test]
    fn errors_are_mongodbs() {
        let mut e = Engine::new();
        run(
            &mut e,
            doc! {"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1"}]},
        );
        let code_msg = |r: Document| {
            (
                r.get_i32("code").unwrap(),
                r.get_str("errmsg").unwrap().to_string(),
            )
        };
        assert_eq!(
            code_msg(run(
                &mut e,
                doc! {"collMod": "nope", "index": {"name": "a_1", "hidden": true}}
            )),
            (26, "ns does not exist".into())
        );
        assert_eq!(
            code_msg(run(
                &mut e,
                doc! {"collMod": "c", "index": {"name": "b_1", "hidden": true}}
            )),
            (27, "cannot find index b_1 for ns t.c".into())
        );
        assert_eq!(
            code_msg(run(
                &mut e,
                doc! {"collMod": "c", "index": {"keyPattern": {"b": 1}, "hidden": true}}
            )),
            (27, "cannot find index { b: 1 } for ns t.c".into())
        );
        assert_eq!(
            code_msg(run(
                &mut e,
                doc! {"collMod": "c", "index": {"name": "_id_", "hidden": true}}
            )),
            (2, "can't hide _id index".into())
        );
        assert_eq!(
            code_msg(run(&mut e, doc! {"collMod": "c", "index": {"name": "a_1"}})).0,
            72
        );
        assert_eq!(
            code_msg(run(&mut e, doc! {"collMod": "c", "cappedSize": 5000})),
            (72, "Collection must be capped.".into())
        );
        assert_eq!(
            code_msg(run(&mut e, doc! {"collMod": "c", "frob": 1})).0,
            40415
        );
    }

    #[test]
    fn capped_limits_change_and_apply_on_the_next_insert() {
        let mut e = Engine::new();
        run(
            &mut e,
            doc! {"create": "log", "capped": true, "size": 100000, "max": 5},
        );
        for i in 0..5 {
            run(&mut e, doc! {"insert": "log", "documents": [{"_id": i}]});
        }
        assert_eq!(
            run(&mut e, doc! {"collMod": "log", "cappedMax": 2}),
            doc! {"ok": 1.0}
        );
        let ns = crate::catalog::Namespace::new("t", "log");
        assert_eq!(e.catalog().collection(&ns).unwrap().len(), 5);
        run(&mut e, doc! {"insert": "log", "documents": [{"_id": 5}]});
        let ids: Vec<i32> = e
            .catalog()
            .collection(&ns)
            .unwrap()
            .iter()
            .map(|(_, d)| d.get_i32("_id").unwrap())
            .collect();
        assert_eq!(ids, [4, 5]);
    }
}
