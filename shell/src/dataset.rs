//! Lesson datasets: the books' example documents as Extended JSON files in `lessons/datasets/`,
//! loaded into a fresh engine before a lesson's first step and again on "reset", and by
//! `sprout --dataset NAME`. They live in the shell crate because both the lessons and the CLI
//! load them into a `Shell` (the lessons crate depends on the shell, not the other way).
//!
//! File shape: `{"db": "<database>", "collections": {"<name>": [<document>, …], …}}`, documents in
//! relaxed or canonical Extended JSON (dates as `{"$date": "…"}`, ids as `{"$oid": "…"}`).

use crate::Shell;
use bson::{Bson, Document, doc};

/// The datasets shipped with Sprout, as (name, JSON source).
pub const DATASETS: &[(&str, &str)] = &[
    // Book A tips 1 and 5: products and orders, referenced (A-D2) and with embedded item
    // snapshots (A-D3); the tip shows only placeholders, so the values are ours.
    (
        "a1-orders",
        include_str!("../../lessons/datasets/a1-orders.json"),
    ),
    // Book A tip 2: six customers and their addresses in separate collections (ours; the tip
    // shows no data).
    ("a2-crm", include_str!("../../lessons/datasets/a2-crm.json")),
    // Book A tip 3: the tip names posts, authors and an image board's messages (A-D4..D6) but
    // shows none; 24 posts, 3 authors and two threads of ours.
    (
        "a3-blog",
        include_str!("../../lessons/datasets/a3-blog.json"),
    ),
    // Book A tips 4 and 6: posts with embedded tags and comments, and a board thread whose
    // replies are documents of their own (the tips describe them; the documents are ours).
    (
        "a4-community",
        include_str!("../../lessons/datasets/a4-community.json"),
    ),
    // Book A tip 7: zeroed per-page templates (A-D8) for one six-hour slice, two with visits.
    (
        "a7-analytics",
        include_str!("../../lessons/datasets/a7-analytics.json"),
    ),
    // Book A tip 9: Fred with items keyed by name (A-D9) and as an array (A-D10, with A-D11's
    // abilities), plus two more heroes of our own so that searches have something to tell apart.
    (
        "a9-game",
        include_str!("../../lessons/datasets/a9-game.json"),
    ),
    // Book A tip 10: the food document before the update (A-D13), basket 124 counting fruit types
    // (A-D14, with the lock flag the tip's findAndModify needs), and five baskets of our own.
    (
        "a10-market",
        include_str!("../../lessons/datasets/a10-market.json"),
    ),
    // Book A tip 11: the tip implies a members collection with member arrays and a type (A-D15)
    // but shows none; twelve memberships of ours.
    (
        "a11-club",
        include_str!("../../lessons/datasets/a11-club.json"),
    ),
    // Book A tips 8 and 13: users with missing and mistyped fields, and tip 8's profile (ours).
    (
        "a13-app",
        include_str!("../../lessons/datasets/a13-app.json"),
    ),
    // Book B chapter 2: heterogeneous users (B2-D2), embedded and referenced products/suppliers
    // (B2-D7, B2-D9), customer and addresses (B2-D12), users and groups (B2-D17).
    (
        "b2-modeling",
        include_str!("../../lessons/datasets/b2-modeling.json"),
    ),
    // Book B chapter 3: the johnclay customer (B3-D1) and the three products with reviews (B3-D3).
    (
        "b3-shop",
        include_str!("../../lessons/datasets/b3-shop.json"),
    ),
    // Book B chapter 4: the book's customer1 (B4-D3) and 39 generated customers of the same shape
    // (fixed seed), plus eight sessions for the TTL step.
    (
        "b4-indexing",
        include_str!("../../lessons/datasets/b4-indexing.json"),
    ),
    // Book B chapter 5: the ten products (B5-D1) and five customers with followed sellers (B5-D2).
    (
        "b5-optimizing",
        include_str!("../../lessons/datasets/b5-optimizing.json"),
    ),
];

/// A parsed dataset.
#[derive(Debug, Clone, PartialEq)]
pub struct Dataset {
    pub name: String,
    pub db: String,
    pub collections: Vec<(String, Vec<Document>)>,
}

/// The dataset called `name`.
pub fn dataset(name: &str) -> Result<Dataset, String> {
    let (_, src) = DATASETS
        .iter()
        .find(|(n, _)| *n == name)
        .ok_or_else(|| format!("no dataset named `{name}`"))?;
    parse_dataset(name, src)
}

pub fn parse_dataset(name: &str, src: &str) -> Result<Dataset, String> {
    let bad = |m: String| format!("dataset {name}: {m}");
    let json: serde_json::Value = serde_json::from_str(src).map_err(|e| bad(e.to_string()))?;
    let Bson::Document(root) = Bson::try_from(json).map_err(|e| bad(e.to_string()))? else {
        return Err(bad("the file is a JSON object".into()));
    };
    let db = root
        .get_str("db")
        .map_err(|_| bad("`db` names the database".into()))?
        .to_string();
    let colls = root
        .get_document("collections")
        .map_err(|_| bad("`collections` maps names to arrays of documents".into()))?;
    let mut collections = Vec::new();
    for (coll, docs) in colls {
        let Bson::Array(docs) = docs else {
            return Err(bad(format!("collection {coll} is an array of documents")));
        };
        let docs = docs
            .iter()
            .map(|d| match d {
                Bson::Document(d) => Ok(d.clone()),
                _ => Err(bad(format!("collection {coll} holds a non-document"))),
            })
            .collect::<Result<Vec<_>, _>>()?;
        collections.push((coll.clone(), docs));
    }
    Ok(Dataset {
        name: name.to_string(),
        db,
        collections,
    })
}

impl Dataset {
    /// Inserts the documents through the engine's `insert` command and makes the dataset's
    /// database the shell's current one.
    pub fn load_into(&self, shell: &mut Shell) -> Result<(), String> {
        // An insert takes 1 to 100,000 documents (MongoDB's write batch limit): an empty
        // collection sends none, a larger one several batches.
        for (coll, docs) in &self.collections {
            for batch in docs.chunks(100_000) {
                let docs: Vec<Bson> = batch.iter().cloned().map(Bson::Document).collect();
                let reply = shell.with_engine(|e| {
                    e.run_command(&self.db, &doc! {"insert": coll.as_str(), "documents": docs})
                });
                let ok = reply.get("ok").and_then(Bson::as_f64) == Some(1.0);
                if !ok || reply.get("writeErrors").is_some() {
                    return Err(format!("dataset {}: {reply}", self.name));
                }
            }
        }
        let ev = shell.eval(&format!("use {}", self.db));
        match ev.error {
            Some(e) => Err(format!("dataset {}: {e}", self.name)),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_dataset_parses() {
        for (name, _) in DATASETS {
            let d = dataset(name).unwrap();
            assert!(!d.collections.is_empty(), "{name}");
        }
        assert!(dataset("nope").is_err());
        assert!(parse_dataset("x", r#"{"db": "a", "collections": {"c": [1]}}"#).is_err());
        assert!(parse_dataset("x", r#"{"collections": {}}"#).is_err());
    }
}
