//! A dataset (`{"db": …, "collections": {…}}`, the lesson datasets' format) as shell input: one
//! `insertMany` per collection, documents written as mongosh writes them (`ObjectId('…')`,
//! `ISODate('…')`, `Long('…')`). Embedded consoles and snippets, and share links, load their
//! data this way, through the shell like any typed command: so the input reaches whichever page
//! owns the database (see docs/ARCHITECTURE.md, "One database, many pages").

use bson::{Bson, Document};
use lesson_runner::Dataset;
use serde_json::Value;

use crate::protocol::doc_text::{compact, quoted_string};

/// How many documents one `insertMany` carries (a large dataset becomes several inputs, so no
/// single input gets near the shell's limits).
pub const DOCUMENTS_PER_INPUT: usize = 500;

/// The shell inputs that insert `dataset`, then `use <db>`.
pub fn insert_inputs(dataset: &Dataset) -> Vec<String> {
    let mut inputs = Vec::new();
    for (collection, docs) in &dataset.collections {
        for chunk in docs.chunks(DOCUMENTS_PER_INPUT) {
            inputs.push(insert_many(&dataset.db, collection, chunk));
        }
    }
    inputs.push(format!("use {}", dataset.db));
    inputs
}

/// `db.getSiblingDB('<db>').getCollection('<coll>').insertMany([…])`.
pub fn insert_many(db: &str, collection: &str, docs: &[Document]) -> String {
    let docs: Vec<String> = docs
        .iter()
        .map(|d| compact(&shell_json(&Bson::Document(d.clone()))))
        .collect();
    format!(
        "db.getSiblingDB({}).getCollection({}).insertMany([{}])",
        quoted_string(db),
        quoted_string(collection),
        docs.join(", ")
    )
}

/// `docs` given as relaxed Extended JSON (as the worker sends results) back as shell input.
pub fn insert_many_json(db: &str, collection: &str, docs: &[Value]) -> String {
    let docs: Vec<String> = docs.iter().map(compact).collect();
    format!(
        "db.getSiblingDB({}).getCollection({}).insertMany([{}])",
        quoted_string(db),
        quoted_string(collection),
        docs.join(", ")
    )
}

/// Relaxed Extended JSON with 64-bit integers kept as `{"$numberLong": …}`, so they come back as
/// `Long('…')` rather than as doubles.
fn shell_json(value: &Bson) -> Value {
    engine::value::extjson::to_json_with(value, &|leaf| match leaf {
        Bson::Int64(n) => serde_json::json!({ "$numberLong": n.to_string() }),
        other => other.clone().into_relaxed_extjson(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every built-in dataset loaded as shell input holds what `Dataset::load_into` puts in.
    #[test]
    fn datasets_as_input_load_the_same_documents() {
        for (name, _) in lesson_runner::DATASETS {
            let dataset = lesson_runner::dataset(name).unwrap();
            let mut direct = lesson_runner::new_lesson_shell();
            dataset.load_into(&mut direct).unwrap();
            let mut typed = lesson_runner::new_lesson_shell();
            for input in insert_inputs(&dataset) {
                let ev = typed.eval(&input);
                assert!(ev.error.is_none(), "{name}: {input}: {:?}", ev.error);
            }
            for (coll, docs) in &dataset.collections {
                let all = |shell: &mut shell::Shell| {
                    let reply = shell.with_engine(|e| {
                        e.run_command(
                            &dataset.db,
                            &bson::doc! {"find": coll.as_str(), "sort": {"_id": 1}, "batchSize": 100_000},
                        )
                    });
                    reply
                        .get_document("cursor")
                        .and_then(|c| c.get_array("firstBatch"))
                        .cloned()
                        .unwrap_or_default()
                };
                let (a, b) = (all(&mut direct), all(&mut typed));
                assert_eq!(a.len(), docs.len(), "{name}.{coll}");
                // The same documents, field for field and type for type.
                assert_eq!(a, b, "{name}.{coll}");
            }
        }
    }

    #[test]
    fn names_are_quoted_and_big_collections_split() {
        let docs: Vec<Document> = (0..1200).map(|i| bson::doc! {"_id": i}).collect();
        let dataset = Dataset {
            name: "t".into(),
            db: "o'k".into(),
            collections: vec![("a b".into(), docs)],
        };
        let inputs = insert_inputs(&dataset);
        assert_eq!(inputs.len(), 4, "three inserts and a `use`");
        assert!(
            inputs[0].starts_with(
                "db.getSiblingDB('o\\'k').getCollection('a b').insertMany([{ _id: 0 }"
            )
        );
        let mut shell = lesson_runner::new_lesson_shell();
        for input in &inputs[..3] {
            assert!(shell.eval(input).error.is_none(), "{input}");
        }
        let count = shell.eval("db.getSiblingDB(\"o'k\").getCollection('a b').countDocuments()");
        assert_eq!(count.text(), "1200");
        let long = insert_many("d", "c", &[bson::doc! {"n": 5_i64, "x": 1.5}]);
        assert_eq!(
            long,
            "db.getSiblingDB('d').getCollection('c').insertMany([{ n: Long('5'), x: 1.5 }])"
        );
    }
}
