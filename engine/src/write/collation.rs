//! The `collation` option of read and write commands: which collation a command (or one
//! statement of an `update`/`delete`) runs under, put in force with a
//! [`crate::collation::CollationScope`]. A command's own collation wins; without one, the
//! collection's default collation (set by `create`) applies.

use std::rc::Rc;

use bson::{Bson, Document};

use crate::catalog::{Catalog, Collection, Namespace};
use crate::collation::{Collation, CollationScope};
use crate::error::Result;

/// The collation named by a command's `collation` value (`qualified` names the field in
/// messages, e.g. `update.updates.collation`), else `coll`'s default.
pub fn resolve_collation(
    value: Option<&Bson>,
    qualified: &str,
    coll: Option<&Collection>,
) -> Result<Option<Rc<Collation>>> {
    match value {
        Some(v) => Collation::parse(v, qualified),
        None => default_collation(coll),
    }
}

/// Puts the collation [`resolve_collation`] finds in force until the scope is dropped.
pub fn enter_collation(
    value: Option<&Bson>,
    qualified: &str,
    coll: Option<&Collection>,
) -> Result<CollationScope> {
    Ok(CollationScope::enter(resolve_collation(
        value, qualified, coll,
    )?))
}

/// A collection's default collation (the resolved spec `create` stored in its options).
pub fn default_collation(coll: Option<&Collection>) -> Result<Option<Rc<Collation>>> {
    match coll.and_then(|c| crate::path::field(&c.options, "collation")) {
        Some(Bson::Document(spec)) => Collation::from_document(spec),
        _ => Ok(None),
    }
}

/// The scope for a read command with a top-level `collation` (find, count, distinct, aggregate,
/// findAndModify), entered before the command parses its filter so that everything it builds
/// (sorted `$in` lists, group tables) orders strings the same way.
pub fn enter_command_collation(
    catalog: &Catalog,
    db: &str,
    command: &Document,
) -> Result<CollationScope> {
    let Some((name, target)) = command.iter().next() else {
        return Ok(CollationScope::enter(None));
    };
    let coll = match target {
        Bson::String(c) => catalog.collection(&Namespace::new(db, c.as_str())),
        _ => None,
    };
    match crate::path::field(command, "collation") {
        // The field's name for messages only when there is a value to complain about.
        Some(value) => enter_collation(Some(value), &format!("{name}.collation"), coll),
        None => Ok(CollationScope::enter(default_collation(coll)?)),
    }
}

/// Checks a collation value without putting it in force (the simple collation passes).
pub fn check_collation(value: Option<&Bson>, qualified: &str) -> Result<()> {
    match value {
        Some(v) => Collation::parse(v, qualified).map(|_| ()),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::bson;

    #[test]
    fn collation_values_are_checked() {
        assert!(check_collation(None, "count.collation").is_ok());
        assert!(check_collation(Some(&bson!({"locale": "simple"})), "count.collation").is_ok());
        assert!(
            check_collation(Some(&bson!({"locale": "en", "strength": 2})), "c.collation").is_ok()
        );
        let code = |v: Bson| {
            check_collation(Some(&v), "count.collation")
                .unwrap_err()
                .code()
        };
        assert_eq!(code(bson!({"locale": "xx"})), 2);
        assert_eq!(code(bson!({"strength": 2})), 40414);
        assert_eq!(code(bson!(1)), 14);
        assert_eq!(code(bson!({"locale": 1})), 14);
    }
}
