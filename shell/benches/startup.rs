//! Startup cost of a fresh shell: `Shell::new` builds a Boa context and evaluates the shell's
//! JavaScript (limits, BSON types, the shell API, bulk writes, globals, the Node.js shim).
//! The target is under 50 ms natively. Run with `cargo bench -p shell --bench startup`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use engine::Engine;
use shell::{Shell, ShellConfig};

fn startup(c: &mut Criterion) {
    c.bench_function("Shell::new", |b| {
        b.iter(|| black_box(Shell::new(Engine::new(), ShellConfig::default())))
    });
    c.bench_function("Shell::new + first insert and find", |b| {
        b.iter(|| {
            let mut sh = Shell::new(Engine::new(), ShellConfig::default());
            black_box(sh.eval("db.c.insertOne({a: 1}); db.c.find()"))
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = startup
}
criterion_main!(benches);
