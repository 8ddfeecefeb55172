//! Criterion bench of one whole world step on the peer scenes `balls` and `boxes` at N = 1000
//! (small, so that `cargo bench` stays short). Each world first runs the peer's 30 warm-up
//! steps so that the bodies are in contact; the measured steps then continue the same run.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use std::hint::black_box;
use std::time::Duration;
use tumble::WorldConfig;
use tumble_benches::scenes::{BuiltScene, SceneKind};

fn world_step(c: &mut Criterion) {
    let mut group = c.benchmark_group("world_step");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    for kind in [SceneKind::Balls, SceneKind::Boxes] {
        let n = 1000;
        let mut built = match BuiltScene::new(kind, n, 42, WorldConfig::default()) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("skipping {kind}: {e}");
                continue;
            }
        };
        for _ in 0..30 {
            built.world.step();
        }
        group.bench_with_input(BenchmarkId::new(kind.name(), n), &n, |b, _| {
            b.iter(|| black_box(built.world.step()))
        });
    }
    group.finish();
}

criterion_group!(benches, world_step);
criterion_main!(benches);
