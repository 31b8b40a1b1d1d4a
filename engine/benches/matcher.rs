//! Matcher throughput over 100,000 generated documents, reported as documents per second.
//!
//! Run with `cargo bench -p engine --bench matcher`. No timing is asserted anywhere.

use std::hint::black_box;

use bson::{Document, doc};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use engine::matcher::Filter;

const DOCS: usize = 100_000;

/// A small deterministic generator (64-bit LCG), so every run sees the same data.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    fn below(&mut self, n: u64) -> i64 {
        (self.next() % n) as i64
    }
}

fn documents() -> Vec<Document> {
    let mut rng = Lcg(42);
    let statuses = ["A", "B", "C", "D"];
    let cities = ["Paris", "Lyon", "Berlin", "Tokyo", "Lima"];
    (0..DOCS)
        .map(|i| {
            let items: Vec<Document> = (0..(rng.below(4) + 1))
                .map(|_| doc! {"sku": format!("x{}", rng.below(10)), "qty": rng.below(100)})
                .collect();
            doc! {
                "_id": i as i64,
                "status": statuses[rng.below(4) as usize],
                "qty": rng.below(100),
                "tag": format!("t{}", rng.below(50)),
                "address": {"city": cities[rng.below(5) as usize], "zip": rng.below(99_999)},
                "items": items,
            }
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let docs = documents();
    let filters = [
        ("equality", doc! {"status": "A"}),
        ("range", doc! {"qty": {"$gte": 20, "$lt": 60}}),
        (
            "in",
            doc! {"tag": {"$in": ["t1", "t7", "t13", "t21", "t42"]}},
        ),
        (
            "elemMatch",
            doc! {"items": {"$elemMatch": {"sku": "x3", "qty": {"$gt": 50}}}},
        ),
        ("dotted", doc! {"address.city": "Paris"}),
        ("dotted_through_array", doc! {"items.qty": {"$gt": 95}}),
    ];
    let mut group = c.benchmark_group("matcher");
    group.throughput(Throughput::Elements(DOCS as u64));
    group.sample_size(10);
    // The floor: a hand-written field lookup and comparison, for scale.
    let wanted = bson::Bson::String("A".into());
    group.bench_function("baseline_hand_written_equality", |b| {
        b.iter(|| {
            docs.iter()
                .filter(|d| black_box(d).get("status") == Some(&wanted))
                .count()
        })
    });
    for (name, spec) in filters {
        let filter = Filter::parse(&spec).expect("benchmark filters are valid");
        group.bench_function(name, |b| {
            b.iter(|| docs.iter().filter(|d| filter.matches(black_box(d))).count())
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
