//! A validator checked when `create` or `collMod` defines it, as MongoDB 8.0 checks it before
//! storing it: an object (the commands' IDL), not on a collection of the internal databases or
//! a system collection (`checkValidatorCanBeUsedOnNs`, InvalidOptions), without the features a
//! validator may not use (`$text`, `$where`, `$near`…: the parser runs with
//! `kDefaultSpecialFeatures`), and parsed as a filter (an unknown operator, a bad
//! `$jsonSchema`, an unbound variable). Sprout accepted anything and failed at the first write
//! (jstests/core/doc_validation_invalid_validators.js).

use bson::Bson;

use crate::catalog::Namespace;
use crate::error::{Error, ErrorCode, Result};
use crate::matcher::Filter;
use crate::value::display::type_name;

/// Checks the `validator` a command (`create`, `collMod`) gives the collection `ns`.
pub fn check_validator(ns: &Namespace, command: &str, validator: &Bson) -> Result<()> {
    let Bson::Document(v) = validator else {
        return Err(Error::type_mismatch(format!(
            "BSON field '{command}.validator' is the wrong type '{}', expected type 'object'",
            type_name(validator)
        )));
    };
    if v.is_empty() {
        return Ok(());
    }
    if ns.coll.starts_with("system.") {
        return Err(Error::new(
            ErrorCode::InvalidOptions,
            format!("Document validators not allowed on system collection {ns}"),
        ));
    }
    if matches!(ns.db.as_str(), "admin" | "local" | "config") {
        return Err(Error::new(
            ErrorCode::InvalidOptions,
            format!(
                "Document validators are not allowed on collection {ns} in the {} internal database",
                ns.db
            ),
        ));
    }
    crate::matcher::ban_features(v, false)?;
    Filter::parse(v).map(drop)
}

#[cfg(test)]
mod tests {
    use bson::{Document, doc};

    use crate::Engine;

    fn code(r: &Document) -> Option<i32> {
        r.get_i32("code").ok()
    }

    #[test]
    fn create_and_coll_mod_refuse_validators_mongodb_refuses() {
        let mut e = Engine::new();
        let bad = [
            (bson::Bson::Int32(7), 14),
            (doc! {"$jsonSchema": {"invalid": 1}}.into(), 9),
            (doc! {"$text": "bob"}.into(), 2),
            (doc! {"$where": "this.a == this.b"}.into(), 2),
            (doc! {"a": {"$near": [0, 0]}}.into(), 2),
            (doc! {"$near": {"place": "holder"}}.into(), 2),
        ];
        for (validator, expected) in &bad {
            let r = e.run_command("t", &doc! {"create": "c", "validator": validator.clone()});
            assert_eq!(code(&r), Some(*expected), "create {validator}: {r}");
        }
        assert!(!e.catalog().database_names().any(|d| d == "t"));
        let r = e.run_command("t", &doc! {"create": "c"});
        assert_eq!(r.get_f64("ok").ok(), Some(1.0), "{r}");
        for (validator, expected) in &bad {
            let r = e.run_command("t", &doc! {"collMod": "c", "validator": validator.clone()});
            assert_eq!(code(&r), Some(*expected), "collMod {validator}: {r}");
        }
        let r = e.run_command(
            "t",
            &doc! {"collMod": "c", "validator": {"a": {"$exists": true}}},
        );
        assert_eq!(r.get_f64("ok").ok(), Some(1.0), "{r}");
        for db in ["admin", "local", "config"] {
            let r = e.run_command(
                db,
                &doc! {"create": "c", "validator": {"a": {"$exists": true}}},
            );
            assert_eq!(code(&r), Some(72), "{db}: {r}");
        }
        let r = e.run_command("t", &doc! {"create": "system.x", "validator": {"a": 1}});
        assert!(r.get_f64("ok").ok() == Some(0.0), "{r}");
    }
}
