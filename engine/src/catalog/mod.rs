//! The catalog: databases, their collections, and each collection's documents in record-id
//! (insertion, `$natural`) order with a unique `_id` lookup.

pub mod capped;
mod collection;
pub mod derived;
mod namespace;
mod raw_store;
pub mod scan_columns;
pub mod stats;
pub mod view;
pub mod view_graph;

pub use capped::CappedLimits;
pub use collection::{Collection, bson_size};
pub use namespace::{Namespace, validate_collection_name, validate_db_name};

use std::collections::{BTreeMap, BTreeSet};

/// All databases. A database exists while it has at least one collection, as in MongoDB.
#[derive(Debug, Default, Clone)]
pub struct Catalog {
    databases: BTreeMap<String, BTreeMap<String, Collection>>,
    /// Databases that had a collection and were not dropped since: MongoDB keeps such a
    /// database open (its DatabaseHolder) after its last collection is dropped, which explain
    /// of findAndModify tells apart from one never made.
    opened: BTreeSet<String>,
}

impl Catalog {
    pub fn collection(&self, ns: &Namespace) -> Option<&Collection> {
        self.databases.get(&ns.db)?.get(&ns.coll)
    }

    pub fn collection_mut(&mut self, ns: &Namespace) -> Option<&mut Collection> {
        self.databases.get_mut(&ns.db)?.get_mut(&ns.coll)
    }

    /// Whether a collection may be created in `db`: refused (DatabaseDifferCase, 13297) when
    /// `db` does not exist and another database's name differs from it only in case, as
    /// MongoDB refuses it (its names are case-sensitive, its files on case-insensitive file
    /// systems are not: `DatabaseHolderImpl::openDb`).
    pub fn check_new_database(&self, db: &str) -> crate::error::Result<()> {
        if self.databases.contains_key(db) {
            return Ok(());
        }
        match self
            .databases
            .keys()
            .find(|existing| existing.eq_ignore_ascii_case(db))
        {
            Some(existing) => Err(crate::error::Error::new(
                crate::error::ErrorCode::DatabaseDifferCase,
                format!(
                    "db already exists with different case already have: [{existing}] trying to create [{db}]"
                ),
            )),
            None => Ok(()),
        }
    }

    /// Returns the collection, creating it (implicitly, as an insert does) when missing.
    /// The flag tells whether it was created.
    pub fn collection_or_create(&mut self, ns: &Namespace) -> (&mut Collection, bool) {
        self.opened.insert(ns.db.clone());
        let colls = self.databases.entry(ns.db.clone()).or_default();
        let created = !colls.contains_key(&ns.coll);
        let coll = colls.entry(ns.coll.clone()).or_default();
        (coll, created)
    }

    pub fn insert_collection(&mut self, ns: &Namespace, coll: Collection) {
        self.opened.insert(ns.db.clone());
        self.databases
            .entry(ns.db.clone())
            .or_default()
            .insert(ns.coll.clone(), coll);
    }

    /// Removes a collection; drops its database from the list when it was the last one.
    pub fn drop_collection(&mut self, ns: &Namespace) -> Option<Collection> {
        let colls = self.databases.get_mut(&ns.db)?;
        let dropped = colls.remove(&ns.coll);
        if colls.is_empty() {
            self.databases.remove(&ns.db);
        }
        dropped
    }

    /// Starts the `$indexStats` clock of every index that has none yet (new indexes), at
    /// `now_millis`.
    pub fn stamp_index_usage(&self, now_millis: i64) {
        for coll in self.databases.values().flat_map(BTreeMap::values) {
            for index in coll.indexes() {
                index.usage.stamp(now_millis);
            }
        }
    }

    /// Whether `db` had a collection since it was last dropped as a whole.
    pub fn database_opened(&self, db: &str) -> bool {
        self.opened.contains(db)
    }

    /// Whether the server holds `db`: it has collections, or had one since it was last
    /// dropped (MongoDB keeps such a database open).
    pub fn holds_database(&self, db: &str) -> bool {
        self.databases.contains_key(db) || self.opened.contains(db)
    }

    /// Forgets `db` as an opened database (`dropDatabase`).
    pub fn close_database(&mut self, db: &str) {
        self.opened.remove(db);
    }

    pub fn database_names(&self) -> impl Iterator<Item = &str> {
        self.databases.keys().map(String::as_str)
    }

    /// Collection names of a database, sorted by name.
    pub fn collection_names(&self, db: &str) -> Vec<&str> {
        self.databases
            .get(db)
            .map(|c| c.keys().map(String::as_str).collect())
            .unwrap_or_default()
    }

    pub fn collections(&self, db: &str) -> impl Iterator<Item = (&str, &Collection)> {
        self.databases
            .get(db)
            .into_iter()
            .flat_map(|c| c.iter().map(|(n, c)| (n.as_str(), c)))
    }
}
