//! Criterion benches of the broad phases: one frame = update every proxy + `find_pairs`.
//!
//! * `gas/<structure>/<n>/<threads>t`: the peer `gas` scene (5 % volume fraction, balls of
//!   radius 0.5 moving by v·dt each frame, periodic wrap), the positions advanced untimed
//!   between frames.
//! * `uniform/<structure>/<n>/<threads>t`: uniform random boxes (half sizes 0.1–0.5 m, same
//!   density as the gas) jittering by up to 0.05 m per frame.
//! * `mixed`, `far`, `specks`, `clusters` (`/<structure>/<n>/<threads>t`): the scenes of
//!   `tumble_broadphase::scenes` (sizes over six decades; sides 1–10 m around (3·10⁷, 3·10⁷,
//!   −3·10⁷); boxes of 5–10 m beside specks of 1–3 mm; dense piles), each box jittering by up
//!   to 5 % of its size per frame. `cargo run --release -p tumble-broadphase --example
//!   scene_frames` prints the same scenes' costs per (proxy + pair) over the uniform one.
//!
//! N = 1k, 10k, 100k (the brute force at 1k only); 1 and 2 rayon threads via
//! `ThreadPoolBuilder::num_threads` + `install`. 1M bodies: use the quick manual run
//! `cargo run --release -p tumble-broadphase --example gas_frame -- 1000000 1 10`.
//! Filter with e.g. `cargo bench -p tumble-benches --bench broadphase -- gas/grid`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};
use tumble::broadphase::math::{Point, Real, Vector};
use tumble::broadphase::scenes::{Scene, SceneKind};
use tumble::broadphase::{Aabb, AnyBroadPhase, BroadPhase, BroadPhaseKind, ProxyHandle};
use tumble_benches::scenes::Gas;

const SIZES: [usize; 3] = [1_000, 10_000, 100_000];
const DT: f64 = 1.0 / 60.0;

/// A scene that can produce the boxes of its next frame.
trait Frames {
    fn boxes(&self) -> Vec<Aabb>;
    fn advance(&mut self);
}

impl Frames for Gas {
    fn boxes(&self) -> Vec<Aabb> {
        self.positions_f32()
            .iter()
            .map(|p| {
                let c = Point::new(p[0], p[1], p[2]);
                Aabb::new_unchecked(c - Vector::repeat(0.5), c + Vector::repeat(0.5))
            })
            .collect()
    }
    fn advance(&mut self) {
        Gas::advance(self, DT);
    }
}

/// Uniform boxes jittering around fixed centres (stationary statistics).
struct Uniform {
    centres: Vec<Point>,
    halves: Vec<Real>,
    jitter: Vec<Vector>,
    rng: ChaCha8Rng,
}

impl Uniform {
    fn new(n: usize) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(42);
        let side = tumble_benches::scenes::gas_box_side(n) as Real;
        let centres = (0..n)
            .map(|_| {
                Point::new(
                    rng.gen_range(0.0..side),
                    rng.gen_range(0.0..side),
                    rng.gen_range(0.0..side),
                )
            })
            .collect();
        let halves = (0..n).map(|_| rng.gen_range(0.1..0.5)).collect();
        Self {
            centres,
            halves,
            jitter: vec![Vector::zeros(); n],
            rng,
        }
    }
}

impl Frames for Uniform {
    fn boxes(&self) -> Vec<Aabb> {
        self.centres
            .iter()
            .zip(&self.halves)
            .zip(&self.jitter)
            .map(|((c, &h), j)| {
                Aabb::new_unchecked(c + j - Vector::repeat(h), c + j + Vector::repeat(h))
            })
            .collect()
    }
    fn advance(&mut self) {
        for j in &mut self.jitter {
            *j = Vector::new(
                self.rng.gen_range(-0.05..0.05),
                self.rng.gen_range(-0.05..0.05),
                self.rng.gen_range(-0.05..0.05),
            );
        }
    }
}

fn bench_scene<S: Frames>(c: &mut Criterion, scene_name: &str, make: impl Fn(usize) -> S) {
    let mut group = c.benchmark_group(scene_name);
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for n in SIZES {
        for kind in BroadPhaseKind::ALL {
            if kind == BroadPhaseKind::BruteForce && n > 1_000 {
                continue;
            }
            for threads in [1, 2] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                let mut scene = make(n);
                let mut bp = AnyBroadPhase::new(kind);
                let items: Vec<(Aabb, u64)> = scene.boxes().into_iter().map(|b| (b, 0)).collect();
                let handles: Vec<ProxyHandle> = bp.insert_batch(&items).unwrap();
                let mut pairs = Vec::new();
                pool.install(|| bp.find_pairs(&mut pairs));
                let id = BenchmarkId::new(format!("{kind}/{n}"), format!("{threads}t"));
                group.bench_function(id, |b| {
                    b.iter_custom(|iters| {
                        let mut total = Duration::ZERO;
                        for _ in 0..iters {
                            scene.advance();
                            let update: Vec<(ProxyHandle, Aabb)> =
                                handles.iter().copied().zip(scene.boxes()).collect();
                            let t = Instant::now();
                            pool.install(|| {
                                bp.update_batch(&update).unwrap();
                                bp.find_pairs(&mut pairs);
                            });
                            total += t.elapsed();
                        }
                        total
                    })
                });
            }
        }
    }
    group.finish();
}

impl Frames for Scene {
    fn boxes(&self) -> Vec<Aabb> {
        Scene::boxes(self)
    }
    fn advance(&mut self) {
        Scene::advance(self);
    }
}

/// The scenes of `tumble_broadphase::scenes` other than its uniform one.
fn game_scenes(c: &mut Criterion) {
    for kind in &SceneKind::ALL[1..] {
        bench_scene(c, kind.name(), |n| Scene::new(*kind, n, 42));
    }
}

fn gas(c: &mut Criterion) {
    bench_scene(c, "gas", |n| Gas::new(n, 42));
}

fn uniform(c: &mut Criterion) {
    bench_scene(c, "uniform", Uniform::new);
}

criterion_group!(benches, gas, uniform, game_scenes);
criterion_main!(benches);
