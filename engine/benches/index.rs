//! Index benchmarks on generated collections of 100,000 and 1,000,000 documents: building an
//! index, a point lookup through it, and a range scan with sort and limit (the shape of book B
//! chapter 5's queries), each beside the same query without the index for scale.
//!
//! Run with `cargo bench -p engine --bench index` (the 1M sizes only with
//! `SPROUT_BENCH_1M=1`: building them takes minutes). No timing is asserted anywhere.

use std::hint::black_box;

use bson::{Bson, Document, doc};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use engine::Engine;

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

fn products(n: usize) -> Vec<Bson> {
    let mut rng = Lcg(7);
    let categories = ["books", "games", "music", "garden", "tools", "toys"];
    (0..n)
        .map(|i| {
            Bson::Document(doc! {
                "_id": i as i64,
                "sku": format!("sku{i:07}"),
                "price": rng.below(100_000) as f64 / 100.0,
                "category": categories[rng.below(6) as usize],
                "stock": rng.below(500),
            })
        })
        .collect()
}

/// An engine holding `n` products in `shop.products`, with the given indexes.
fn engine_with(n: usize, indexes: &[Document]) -> Engine {
    let mut e = Engine::new();
    for chunk in products(n).chunks(10_000) {
        let r = e.run_command(
            "shop",
            &doc! {"insert": "products", "documents": chunk.to_vec()},
        );
        assert!(engine::reply_ok(&r), "{r}");
    }
    if !indexes.is_empty() {
        let specs: Vec<Bson> = indexes
            .iter()
            .enumerate()
            .map(|(i, k)| Bson::Document(doc! {"key": k.clone(), "name": format!("ix{i}")}))
            .collect();
        let r = e.run_command(
            "shop",
            &doc! {"createIndexes": "products", "indexes": specs},
        );
        assert!(engine::reply_ok(&r), "{r}");
    }
    e.take_changes();
    e
}

fn find(e: &mut Engine, cmd: &Document) -> usize {
    let r = e.run_command("shop", cmd);
    r.get_document("cursor")
        .and_then(|c| c.get_array("firstBatch"))
        .map_or(0, Vec::len)
}

fn sizes() -> Vec<usize> {
    let mut s = vec![100_000];
    if std::env::var("SPROUT_BENCH_1M").is_ok_and(|v| v == "1") {
        s.push(1_000_000);
    }
    s
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("index");
    group.sample_size(10);
    for n in sizes() {
        group.bench_with_input(BenchmarkId::new("build_price_index", n), &n, |b, _| {
            b.iter_batched(
                || engine_with(n, &[]),
                |mut e| {
                    let r = e.run_command(
                        "shop",
                        &doc! {"createIndexes": "products",
                        "indexes": [{"key": {"price": 1}, "name": "price_1"}]},
                    );
                    // Returned, so that dropping the collection is not timed.
                    (r, e)
                },
                criterion::BatchSize::LargeInput,
            )
        });
        let point = doc! {"find": "products", "filter": {"sku": format!("sku{:07}", n / 2)}};
        let range = doc! {"find": "products",
        "filter": {"price": {"$gte": 100.0, "$lt": 200.0}, "category": "books"},
        "sort": {"price": -1}, "limit": 10};
        let mut plain = engine_with(n, &[]);
        let mut indexed = engine_with(n, &[doc! {"sku": 1}, doc! {"price": 1}]);
        assert_eq!(find(&mut plain, &point), 1);
        assert_eq!(find(&mut indexed, &point), 1);
        assert_eq!(find(&mut plain, &range), find(&mut indexed, &range));
        group.bench_with_input(BenchmarkId::new("point_lookup_indexed", n), &n, |b, _| {
            b.iter(|| black_box(find(&mut indexed, &point)))
        });
        group.bench_with_input(BenchmarkId::new("point_lookup_collscan", n), &n, |b, _| {
            b.iter(|| black_box(find(&mut plain, &point)))
        });
        group.bench_with_input(
            BenchmarkId::new("range_sort_limit_indexed", n),
            &n,
            |b, _| b.iter(|| black_box(find(&mut indexed, &range))),
        );
        group.bench_with_input(
            BenchmarkId::new("range_sort_limit_collscan", n),
            &n,
            |b, _| b.iter(|| black_box(find(&mut plain, &range))),
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
