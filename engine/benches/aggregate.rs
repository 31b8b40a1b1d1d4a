//! Aggregation throughput over 100,000 generated web-server events (Book B chapter 8's shape):
//! `$group` with `$sum` by resource and by hour, and a `$lookup` join of events to users.
//!
//! Run with `cargo bench -p engine --bench aggregate`. No timing is asserted anywhere.
//! The hour is computed arithmetically from a millisecond timestamp (`$subtract` of a `$mod`)
//! because the date operators (`$hour`, `$dateToString`) were not in the engine when this
//! benchmark was written; swap in `{$hour: "$date_created"}` once they are.

use std::hint::black_box;

use bson::{DateTime, Document, doc};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use engine::Engine;

const EVENTS: usize = 100_000;
const USERS: usize = 1_000;
const JOINED: usize = 10_000;

/// A small deterministic generator (64-bit LCG), so every run sees the same data.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> i64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n) as i64
    }
}

fn engine() -> Engine {
    let mut rng = Lcg(7);
    let resources = ["/", "/legal/faq", "/legal/terms", "/blog", "/about"];
    let start = 1_427_673_600_000i64; // 2015-03-30, the book's day
    let events: Vec<Document> = (0..EVENTS)
        .map(|i| {
            let ts = start + rng.below(86_400_000);
            doc! {
                "_id": i as i64,
                "resource": resources[rng.below(5) as usize],
                "user": rng.below(USERS as u64),
                "bytes": rng.below(50_000),
                "ts_ms": ts,
                "date_created": DateTime::from_millis(ts),
            }
        })
        .collect();
    let users: Vec<Document> = (0..USERS as i64)
        .map(|i| doc! {"_id": i, "name": format!("user{i}")})
        .collect();
    let mut e = Engine::new();
    for (coll, docs) in [("events", events), ("users", users)] {
        for chunk in docs.chunks(10_000) {
            let r = e.run_command("bench", &doc! {"insert": coll, "documents": chunk.to_vec()});
            assert_eq!(r.get_f64("ok").ok(), Some(1.0), "{r:?}");
        }
    }
    e
}

fn aggregate(e: &mut Engine, pipeline: &[Document]) -> usize {
    let r = e.run_command(
        "bench",
        &doc! {"aggregate": "events", "pipeline": pipeline.to_vec(), "cursor": {"batchSize": 100_000}},
    );
    r.get_document("cursor")
        .and_then(|c| c.get_array("firstBatch"))
        .map(Vec::len)
        .unwrap_or_else(|_| panic!("aggregate failed: {r:?}"))
}

fn bench(c: &mut Criterion) {
    let mut e = engine();
    let by_resource =
        [doc! {"$group": {"_id": "$resource", "hits": {"$sum": 1}, "bytes": {"$sum": "$bytes"}}}];
    let by_hour = [doc! {"$group": {
        "_id": {"$subtract": ["$ts_ms", {"$mod": ["$ts_ms", 3_600_000]}]},
        "hits": {"$sum": 1},
    }}];
    let join = [
        doc! {"$limit": JOINED as i64},
        doc! {"$lookup": {"from": "users", "localField": "user", "foreignField": "_id", "as": "who"}},
    ];
    assert_eq!(aggregate(&mut e, &by_resource), 5);
    assert_eq!(aggregate(&mut e, &by_hour), 24);
    assert_eq!(aggregate(&mut e, &join), JOINED);

    let mut group = c.benchmark_group("aggregate");
    group.sample_size(10);
    group.throughput(Throughput::Elements(EVENTS as u64));
    group.bench_function("group_by_resource_sum_100k", |b| {
        b.iter(|| black_box(aggregate(&mut e, &by_resource)))
    });
    group.bench_function("group_by_hour_sum_100k", |b| {
        b.iter(|| black_box(aggregate(&mut e, &by_hour)))
    });
    group.throughput(Throughput::Elements(JOINED as u64));
    group.bench_function("lookup_10k_events_to_1k_users", |b| {
        b.iter(|| black_box(aggregate(&mut e, &join)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
