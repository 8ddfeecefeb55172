//! Quick manual timing of the `gas` frame (update every proxy + find_pairs) per structure.
//!
//! `cargo run --release -p tumble-broadphase --example gas_frame -- N THREADS FRAMES [kinds]
//! [half_extent]` e.g. `-- 100000 1 30 grid,bvh`. The boxes' half extent defaults to the balls'
//! radius 0.5 m (~37k pairs at 100k); 0.875 gives the ~200k AABB pairs of the engine's gas step,
//! whose boxes are enlarged. The criterion bench `benches/benches/broadphase.rs` is the
//! reference measurement; this is for 1M bodies and quick checks.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Instant;
use tumble_broadphase::math::{Point, Real, Vector};
use tumble_broadphase::{Aabb, AnyBroadPhase, BroadPhase, BroadPhaseKind, ProxyHandle};

mod common;
use common::cpu_ns;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let threads: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let frames: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(30);
    let kinds: Vec<BroadPhaseKind> = args
        .get(4)
        .map(|s| s.split(',').map(|k| k.parse().unwrap()).collect())
        .unwrap_or_else(|| {
            vec![
                BroadPhaseKind::Grid,
                BroadPhaseKind::SweepAndPrune,
                BroadPhaseKind::Bvh,
            ]
        });
    let half: Real = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(0.5);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let side = (n as f64 * 4.0 / 3.0 * std::f64::consts::PI * 0.125 / 0.05).cbrt();
    for kind in kinds {
        let mut rng = ChaCha8Rng::seed_from_u64(42);
        let mut p: Vec<[f64; 3]> = (0..n)
            .map(|_| [0; 3].map(|_| rng.gen_range(0.0..side)))
            .collect();
        let v: Vec<[f64; 3]> = (0..n)
            .map(|_| [0; 3].map(|_| rng.gen_range(-5.0..5.0)))
            .collect();
        let boxes = |p: &[[f64; 3]]| -> Vec<Aabb> {
            p.iter()
                .map(|c| {
                    let c = Point::new(c[0] as Real, c[1] as Real, c[2] as Real);
                    Aabb::new_unchecked(c - Vector::repeat(half), c + Vector::repeat(half))
                })
                .collect()
        };
        let mut bp = AnyBroadPhase::new(kind);
        let items: Vec<(Aabb, u64)> = boxes(&p).into_iter().map(|b| (b, 0)).collect();
        let hs: Vec<ProxyHandle> = bp.insert_batch(&items).unwrap();
        let mut pairs = Vec::new();
        let mut times = Vec::new();
        let mut cpu = 0u64;
        for f in 0..frames + 3 {
            for (pi, vi) in p.iter_mut().zip(&v) {
                for d in 0..3 {
                    pi[d] += vi[d] / 60.0;
                    pi[d] -= side * (pi[d] / side).floor();
                }
            }
            let upd: Vec<(ProxyHandle, Aabb)> = hs.iter().copied().zip(boxes(&p)).collect();
            let c0 = cpu_ns();
            let t = Instant::now();
            pool.install(|| {
                bp.update_batch(&upd).unwrap();
                bp.find_pairs(&mut pairs);
            });
            if f >= 3 {
                times.push(t.elapsed().as_secs_f64() * 1e3);
                cpu += cpu_ns() - c0;
            }
        }
        times.sort_by(f64::total_cmp);
        match &bp {
            AnyBroadPhase::Bvh(b) => println!(
                "  bvh rebuilds: {} in {} frames",
                b.rebuild_count(),
                frames + 4
            ),
            AnyBroadPhase::SweepAndPrune(s) => println!("  sap last frame: {:?}", s.last_stats()),
            AnyBroadPhase::Grid(g) => println!("  grid cell {} mode {:?}", g.cell_size(), g.mode()),
            AnyBroadPhase::BruteForce(_) => {}
        }
        println!(
            "{kind:5} n={n} threads={threads}: wall median {:.2} ms, min {:.2} ms; cpu {:.2} ms/frame ({} pairs)",
            times[times.len() / 2],
            times[0],
            cpu as f64 / 1e6 / frames as f64,
            pairs.len()
        );
    }
}
