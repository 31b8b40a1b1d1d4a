//! `Engine::load` of the storage e2e test's 100k documents (`tests/e2e/storage.spec.mjs`, the
//! "100k documents reload" section: ObjectId `_id`, `n`, `name`, three `tags`, 120 characters of
//! `text`; 230 BSON bytes each), natively, for timing and profiling the reload's engine part:
//!
//! ```text
//! cargo run --release -p engine --example load_snapshot [runs]
//! ```
//!
//! Prints, per run, the time to decode the stored bytes alone, the time of the whole load
//! (decoding, the records, the `_id` lookup and the `_id_` index) and of the spec's query
//! (`count` with `{n: {$gte: 0}}`), then the medians. Times are printed, never checked.

use std::time::Instant;

use bson::{Document, doc, oid::ObjectId};
use engine::Engine;
use engine::catalog::Namespace;
use engine::storage::Snapshot;
use engine::value::bson_bytes::decode_document;

fn snapshot(n: u64) -> Snapshot {
    let ns = Namespace::new("e2e-large", "big");
    let text = "lorem ipsum ".repeat(10);
    let documents = (0..n)
        .map(|i| {
            let d = doc! {
                "_id": ObjectId::new(),
                "n": i as i32,
                "name": format!("document {i}"),
                "tags": ["alpha", "beta", "gamma"],
                "text": text.as_str(),
            };
            (
                ns.clone(),
                i + 1,
                d.to_vec().expect("a small document encodes"),
            )
        })
        .collect();
    Snapshot {
        collections: vec![(ns, Document::new())],
        documents,
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(5);
    let data = snapshot(100_000);
    println!(
        "{} documents of {} bytes",
        data.documents.len(),
        data.documents[0].2.len()
    );
    let (mut decode_ms, mut load_ms, mut count_ms) = (Vec::new(), Vec::new(), Vec::new());
    for run in 0..runs {
        let started = Instant::now();
        let decoded: Vec<Document> = data
            .documents
            .iter()
            .map(|(_, _, bytes)| decode_document(bytes).expect("valid BSON"))
            .collect();
        let decode = started.elapsed().as_secs_f64() * 1000.0;
        drop(decoded);
        let copy = data.clone();
        let started = Instant::now();
        let mut engine = Engine::new().load(copy).expect("the snapshot loads");
        let load = started.elapsed().as_secs_f64() * 1000.0;
        let started = Instant::now();
        let reply = engine.run_command(
            "e2e-large",
            &doc! {"count": "big", "query": {"n": {"$gte": 0}}},
        );
        let count = started.elapsed().as_secs_f64() * 1000.0;
        println!(
            "run {run}: decode {decode:.0} ms, load {load:.0} ms, count {count:.0} ms (n: {:?})",
            reply.get("n")
        );
        decode_ms.push(decode);
        load_ms.push(load);
        count_ms.push(count);
    }
    println!(
        "median: decode {:.0} ms, load {:.0} ms, count {:.0} ms",
        median(decode_ms),
        median(load_ms),
        median(count_ms)
    );
}
