//! A quick local timing of the `balls` / `boxes` scenes (lattice of N bodies falling into a
//! static container of 5 cuboids, dt 1/60; see the rapier-bench README for the normative
//! scenes, which the stress runner in `benches/` builds exactly). Development aid only.
//!
//! `cargo run --release -p tumble --example quick_bench -- balls|boxes|gas 10000 100 [threads]`

use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};
use tumble::math::{Real, Rotation, Vector};
use tumble::narrowphase::shape::{Ball, Cuboid, Shape};
use tumble::{BodyBuilder, Stage, World, WorldConfig};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let scene = args
        .get(1)
        .map(String::as_str)
        .unwrap_or("balls")
        .to_string();
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let steps: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(100);
    let threads: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    if scene == "gas" {
        pool.install(|| gas(n, steps));
    } else {
        pool.install(|| run(&scene, n, steps));
    }
}

/// Collision-only mode: `n` balls of radius 0.5 at 5 % volume fraction moved by the user each
/// step (periodic wrap), broad + narrow phase timed.
fn gas(n: usize, steps: usize) {
    use tumble::math::Isometry;
    let l = (n as f64 * (4.0 / 3.0) * std::f64::consts::PI * 0.125 / 0.05).cbrt();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(42);
    let mut p: Vec<[f64; 3]> = Vec::with_capacity(n);
    let mut v: Vec<[f64; 3]> = Vec::with_capacity(n);
    for _ in 0..n {
        p.push([
            rng.gen_range(0.0..l),
            rng.gen_range(0.0..l),
            rng.gen_range(0.0..l),
        ]);
        v.push([
            rng.gen_range(-5.0..5.0),
            rng.gen_range(-5.0..5.0),
            rng.gen_range(-5.0..5.0),
        ]);
    }
    let mut cw = tumble::CollisionWorld::default();
    let hs: Vec<_> = p
        .iter()
        .map(|q| {
            cw.insert(
                Ball::new(0.5).unwrap(),
                Isometry::translation(q[0] as Real, q[1] as Real, q[2] as Real),
                0,
            )
            .unwrap()
        })
        .collect();
    let mut total = Duration::ZERO;
    for step in 0..30 + steps {
        for (q, vel) in p.iter_mut().zip(&v) {
            for k in 0..3 {
                q[k] += vel[k] / 60.0;
                q[k] -= l * (q[k] / l).floor();
            }
        }
        for (h, q) in hs.iter().zip(&p) {
            cw.set_pose(
                *h,
                Isometry::translation(q[0] as Real, q[1] as Real, q[2] as Real),
            )
            .unwrap();
        }
        let t = Instant::now();
        cw.update();
        if step >= 30 {
            total += t.elapsed();
        }
    }
    let ms = total.as_secs_f64() * 1e3 / steps as f64;
    println!(
        "gas n={n} threads={} : {ms:.2} ms/step  broad-phase pairs {} touching pairs {}  (bp {:.2} ms, np {:.2} ms last)",
        rayon::current_num_threads(),
        cw.broad_phase_pair_count(),
        cw.intersecting_pair_count(),
        cw.stage_times().get(Stage::BroadPhase).as_secs_f64() * 1e3,
        cw.stage_times().get(Stage::NarrowPhase).as_secs_f64() * 1e3,
    );
}

fn run(scene: &str, n: usize, steps: usize) {
    let boxes = scene == "boxes";
    let s = (n as f64).cbrt().ceil() as usize;
    let h: Real = if boxes { 1.8 } else { 1.1 };
    let layers = n.div_ceil(s * s);
    let mut w = World::new(WorldConfig::default()).unwrap();
    let wd = s as Real * h + 2.0;
    let a = wd / 2.0;
    let hh = 2.0 * (1.0 + (layers as Real - 1.0) * h) + 10.0;
    let fixed = |he: Vector, c: Vector| {
        BodyBuilder::fixed(Cuboid::new(he).unwrap())
            .translation(c)
            .friction(0.5)
            .restitution(0.5)
    };
    w.insert(fixed(
        Vector::new(a + 1.0, 0.5, a + 1.0),
        Vector::new(0.0, -0.5, 0.0),
    ))
    .unwrap();
    for sx in [-1.0, 1.0] {
        w.insert(fixed(
            Vector::new(0.5, hh / 2.0, a + 1.0),
            Vector::new(sx * (a + 0.5), hh / 2.0, 0.0),
        ))
        .unwrap();
        w.insert(fixed(
            Vector::new(a + 1.0, hh / 2.0, 0.5),
            Vector::new(0.0, hh / 2.0, sx * (a + 0.5)),
        ))
        .unwrap();
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(42);
    for i in 0..n {
        let (ix, iz, iy) = (i % s, (i / s) % s, i / (s * s));
        let j = Vector::new(
            rng.gen_range(-0.05..0.05),
            rng.gen_range(-0.05..0.05),
            rng.gen_range(-0.05..0.05),
        );
        let c = Vector::new(
            (ix as Real - (s as Real - 1.0) / 2.0) * h,
            1.0 + iy as Real * h,
            (iz as Real - (s as Real - 1.0) / 2.0) * h,
        ) + j;
        let shape: Shape = if boxes {
            Cuboid::new(Vector::repeat(0.5)).unwrap().into()
        } else {
            Ball::new(0.5).unwrap().into()
        };
        let rot = if boxes {
            Rotation::from_euler_angles(
                rng.gen_range(0.0..6.3),
                rng.gen_range(0.0..6.3),
                rng.gen_range(0.0..6.3),
            )
        } else {
            Rotation::identity()
        };
        let v = Vector::new(
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
        );
        w.insert(
            BodyBuilder::dynamic(shape)
                .translation(c)
                .rotation(rot)
                .linvel(v)
                .friction(0.5)
                .restitution(0.5),
        )
        .unwrap();
    }
    for _ in 0..30 {
        w.step();
    }
    let mut total = Duration::ZERO;
    let mut per_stage = [Duration::ZERO; Stage::COUNT];
    for _ in 0..steps {
        let t = Instant::now();
        measured_step(&mut w);
        total += t.elapsed();
        for (k, (_, d)) in w.stage_times().iter().enumerate() {
            per_stage[k] += d;
        }
    }
    let ms = |d: Duration| d.as_secs_f64() * 1e3 / steps as f64;
    println!(
        "{scene} n={n} threads={} : {:.2} ms/step  pairs {} contact pairs {} points {}",
        rayon::current_num_threads(),
        ms(total),
        w.pair_count(),
        w.contact_pair_count(),
        w.contact_count()
    );
    for (k, s) in Stage::all().iter().enumerate() {
        println!("  {:22} {:.2} ms", s.name(), ms(per_stage[k]));
    }
    let escaped = w
        .bodies()
        .filter(|(_, b)| {
            b.kind() == tumble::BodyKind::Dynamic
                && (b.translation().x.abs() > a + 0.5
                    || b.translation().z.abs() > a + 0.5
                    || b.translation().y < -0.5)
        })
        .count();
    let maxy = w
        .bodies()
        .map(|(_, b)| b.translation().y)
        .fold(Real::MIN, Real::max);
    println!("  escaped {escaped}  max y {maxy:.2}");
}

/// One measured step (a separate symbol so that profilers can collect only these:
/// `valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*measured_step*'`).
#[inline(never)]
fn measured_step(w: &mut World) {
    w.step();
}
