//! The comparison harness's workloads (`bench/compare.mjs`), natively and in-process (no JSON
//! boundary), for profiling the engine itself:
//!
//! ```text
//! CARGO_PROFILE_RELEASE_LTO=false cargo build --release -p engine --example profile_workloads
//! perf record -g target/release/examples/profile_workloads scan
//! ```
//!
//! With no argument every workload runs once and its time is printed; with a name (`insert`,
//! `lookup`, `range`, `scan`, `group`, `lookup_join`, `update_many`, `sort`, `count_scan`,
//! `count_index`, and `insert_bytes`, `lookup_bytes`: the insert and the lookup as the Node.js
//! binding's `runCommandBson` runs them, command and reply as BSON bytes, the command given
//! away, the changes taken after each command) only that one runs, repeated, so a
//! profile shows it alone. The data is the harness's (the same 64-bit LCG and fields). Times
//! are printed, never checked.

use std::time::Instant;

use bson::{Bson, DateTime, Document, doc};
use engine::Engine;

struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

const CATEGORIES: [&str; 6] = ["books", "games", "music", "garden", "tools", "toys"];

fn products(n: usize) -> Vec<Document> {
    let mut r = Lcg(7);
    (0..n)
        .map(|i| {
            doc! {
                "_id": i as i32,
                "sku": format!("sku{i:07}"),
                "price": r.below(100_000) as f64 / 100.0,
                "category": CATEGORIES[r.below(6) as usize],
                "stock": r.below(500) as i32,
            }
        })
        .collect()
}

fn events(n: usize) -> Vec<Document> {
    let mut r = Lcg(11);
    let start = 1_420_070_400_000_i64; // 2015-01-01
    let paths = ["/", "/cart", "/search", "/product", "/checkout"];
    (0..n)
        .map(|i| {
            doc! {
                "_id": i as i32,
                "ts": DateTime::from_millis(start + r.below(31 * 86_400) as i64 * 1000),
                "bytes": r.below(5000) as i32,
                "path": paths[r.below(5) as usize],
            }
        })
        .collect()
}

fn insert(e: &mut Engine, coll: &str, docs: &[Document]) {
    for chunk in docs.chunks(1000) {
        let reply = e.run_command("bench", &doc! {"insert": coll, "documents": chunk.to_vec()});
        assert_eq!(reply.get_f64("ok").ok(), Some(1.0), "{reply:?}");
        e.take_changes();
    }
}

/// A command as the Node.js binding's `runCommandBson` runs it (bench/node-engine): encoded to
/// bytes (by the caller, as js-bson does), run from its bytes (`Engine::run_command_encoded`),
/// the reply encoded, the changes taken; returns the reply's length in bytes.
fn run_bytes(e: &mut Engine, command: &[u8]) -> usize {
    let reply = e.run_command_encoded("bench", command).expect("decodes");
    drop(e.take_changes());
    reply.into_bytes().expect("encodes").len()
}

fn encoded(command: &Document) -> Vec<u8> {
    let mut out = Vec::new();
    command.to_writer(&mut out).expect("encodes");
    out
}

fn batch(reply: &Document) -> usize {
    reply
        .get_document("cursor")
        .and_then(|c| c.get_array("firstBatch"))
        .map_or(0, Vec::len)
}

fn find(e: &mut Engine, filter: Document, extra: Document) -> usize {
    let mut cmd = doc! {"find": "products", "filter": filter, "batchSize": 1_000_000_000};
    cmd.extend(extra);
    batch(&e.run_command("bench", &cmd))
}

fn time(name: &str, reps: usize, mut f: impl FnMut()) {
    f();
    let t = Instant::now();
    for _ in 0..reps {
        f();
    }
    let per = t.elapsed().as_secs_f64() * 1000.0 / reps as f64;
    println!("{name}: {per:.3} ms");
}

fn main() {
    let only = std::env::args().nth(1);
    let runs = |name: &str| only.as_deref().is_none_or(|o| o == name);
    let reps = |n: usize| if only.is_some() { n * 10 } else { n };
    let docs = products(20_000);
    let mut e = Engine::new();
    if runs("insert") {
        time("insert 20k documents", reps(1), || {
            let mut fresh = Engine::new();
            insert(&mut fresh, "products", &docs);
        });
    }
    if runs("insert_bytes") {
        // The commands are encoded once, as the caller's js-bson would encode them each time.
        let commands: Vec<Vec<u8>> = docs
            .chunks(1000)
            .map(|chunk| encoded(&doc! {"insert": "products", "documents": chunk.to_vec()}))
            .collect();
        time("insert 20k documents, as BSON bytes", reps(3), || {
            let mut fresh = Engine::new();
            for c in &commands {
                run_bytes(&mut fresh, c);
            }
        });
    }
    insert(&mut e, "products", &docs);
    e.run_command(
        "bench",
        &doc! {"createIndexes": "products", "indexes": [
        {"key": {"sku": 1}, "name": "sku_1"}, {"key": {"price": 1}, "name": "price_1"}]},
    );
    if runs("lookup") {
        let mut i = 0;
        time("indexed equality (sku), per lookup", reps(500), || {
            i += 1;
            let sku = format!("sku{:07}", (i * 37) % 20_000);
            find(&mut e, doc! {"sku": sku}, Document::new());
        });
    }
    if runs("lookup_bytes") {
        let commands: Vec<Vec<u8>> = (0..20_000)
            .map(|i| {
                let sku = format!("sku{:07}", (i * 37) % 20_000);
                encoded(
                    &doc! {"find": "products", "filter": {"sku": sku}, "batchSize": 1_000_000_000},
                )
            })
            .collect();
        let mut i = 0;
        time(
            "indexed equality (sku), per lookup, as BSON bytes",
            reps(20_000),
            || {
                i = (i + 1) % commands.len();
                run_bytes(&mut e, &commands[i]);
            },
        );
    }
    if runs("range") {
        time("range + sort + limit, per query", reps(200), || {
            find(
                &mut e,
                doc! {"price": {"$gte": 100, "$lt": 200}, "category": "books"},
                doc! {"sort": {"price": -1}, "limit": 10},
            );
        });
    }
    if runs("scan") {
        time(
            "collection scan, compound filter, per query",
            reps(20),
            || {
                find(
                    &mut e,
                    doc! {"category": "games", "stock": {"$gt": 250}},
                    Document::new(),
                );
            },
        );
    }
    if runs("group") {
        let mut g = Engine::new();
        insert(&mut g, "events", &events(100_000));
        let pipeline = vec![
            Bson::Document(
                doc! {"$group": {"_id": {"$dayOfMonth": "$ts"}, "bytes": {"$sum": "$bytes"}, "hits": {"$sum": 1}}},
            ),
            Bson::Document(doc! {"$sort": {"_id": 1}}),
        ];
        time("$group by $dayOfMonth + $sum, 100k events", reps(3), || {
            let cmd = doc! {"aggregate": "events", "pipeline": pipeline.clone(), "cursor": {}};
            assert_eq!(batch(&g.run_command("bench", &cmd)), 31);
        });
    }
    if runs("sort") || runs("count_scan") || runs("count_index") {
        // The harness's 100k products with a `price` index: a sort on unindexed fields (the
        // first 1,000) and `countDocuments` (what the shell sends) with and without an index.
        let mut b = Engine::new();
        insert(&mut b, "big", &products(100_000));
        b.run_command(
            "bench",
            &doc! {"createIndexes": "big", "indexes": [{"key": {"price": 1}, "name": "price_1"}]},
        );
        if runs("sort") {
            time(
                "sort without an index over 100k, first 1,000",
                reps(3),
                || {
                    let cmd = doc! {"find": "big", "filter": {}, "sort": {"stock": -1, "_id": 1},
                    "limit": 1000, "batchSize": 1_000_000_000};
                    assert_eq!(batch(&b.run_command("bench", &cmd)), 1000);
                },
            );
        }
        let count = |e: &mut Engine, filter: Document| {
            let pipeline = vec![
                Bson::Document(doc! {"$match": filter}),
                Bson::Document(doc! {"$group": {"_id": 1, "n": {"$sum": 1}}}),
            ];
            let cmd = doc! {"aggregate": "big", "pipeline": pipeline, "cursor": {}};
            let reply = e.run_command("bench", &cmd);
            assert_eq!(batch(&reply), 1, "{reply}");
        };
        if runs("count_scan") {
            time("countDocuments without an index, 100k", reps(5), || {
                count(&mut b, doc! {"category": "games", "stock": {"$gt": 250}});
            });
        }
        if runs("count_index") {
            time(
                "countDocuments through the price index, 100k",
                reps(5),
                || {
                    count(&mut b, doc! {"price": {"$gte": 100, "$lt": 200}});
                },
            );
        }
    }
    if runs("update_many") {
        // The harness's `updateMany` `$inc` over 100k products with a `price` index.
        let mut u = Engine::new();
        insert(&mut u, "big", &products(100_000));
        u.run_command(
            "bench",
            &doc! {"createIndexes": "big", "indexes": [{"key": {"price": 1}, "name": "price_1"}]},
        );
        time("updateMany $inc over 100k", reps(3), || {
            let cmd = doc! {"update": "big", "updates": [
            {"q": {"stock": {"$gte": 0}}, "u": {"$inc": {"stock": 1}}, "multi": true}]};
            let reply = u.run_command("bench", &cmd);
            assert_eq!(reply.get_i32("nModified").ok(), Some(100_000), "{reply}");
            // Changes are taken after each command, as the page takes them.
            drop(u.take_changes());
        });
    }
    if runs("lookup_join") {
        let mut j = Engine::new();
        let mut r = Lcg(13);
        let customers: Vec<Document> = (0..1000)
            .map(|i| doc! {"_id": i, "name": format!("customer {i}")})
            .collect();
        let orders: Vec<Document> = (0..10_000)
            .map(|i| doc! {"_id": i, "cust": r.below(1050) as i32, "total": r.below(1000) as i32})
            .collect();
        insert(&mut j, "customers", &customers);
        insert(&mut j, "orders", &orders);
        let pipeline = vec![
            Bson::Document(
                doc! {"$lookup": {"from": "customers", "localField": "cust", "foreignField": "_id", "as": "c"}},
            ),
            Bson::Document(doc! {"$project": {"_id": 1, "name": {"$first": "$c.name"}}}),
        ];
        time("$lookup 10k orders x 1k customers", reps(3), || {
            let cmd = doc! {"aggregate": "orders", "pipeline": pipeline.clone(), "cursor": {"batchSize": 1_000_000}};
            assert_eq!(batch(&j.run_command("bench", &cmd)), 10_000);
        });
    }
}
