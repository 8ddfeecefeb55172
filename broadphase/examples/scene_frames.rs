//! Frame cost of every structure on the [`scenes`](tumble_broadphase::scenes): one frame =
//! update every proxy + `find_pairs`, timed in CPU time (robust to other load on the machine).
//! Prints per structure and scene the CPU ms per frame, the pairs, the ns per (proxy + pair),
//! and that cost over the structure's own uniform cost in the same run.
//!
//! `cargo run --release -p tumble-broadphase --example scene_frames -- [N,N..] [THREADS]
//! [FRAMES] [kinds] [scenes]`, e.g. `-- 10000,100000 1 10 grid,sap,bvh uniform,mixed`.

use std::time::Instant;
use tumble_broadphase::scenes::{Scene, SceneKind};
use tumble_broadphase::{Aabb, AnyBroadPhase, BroadPhase, BroadPhaseKind, ProxyHandle};

mod common;
use common::cpu_ns;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let ns: Vec<usize> = args
        .get(1)
        .map(|s| s.split(',').map(|k| k.parse().unwrap()).collect())
        .unwrap_or(vec![10_000, 100_000]);
    let threads: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let frames: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(10);
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
    let scenes: Vec<SceneKind> = args
        .get(5)
        .map(|s| {
            s.split(',')
                .map(|k| SceneKind::from_name(k).expect("scene name"))
                .collect()
        })
        .unwrap_or(SceneKind::ALL.to_vec());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    println!("scene_frames: {threads} thread(s), {frames} frames, CPU ms per frame");
    println!(
        "{:>7} {:<9} {:<5} {:>10} {:>9} {:>12} {:>9}",
        "N", "scene", "kind", "cpu ms", "pairs", "ns/(n+pair)", "x uniform"
    );
    for &n in &ns {
        for &kind in &kinds {
            let mut uniform_cost = None;
            for &scene_kind in &scenes {
                let mut scene = Scene::new(scene_kind, n, 42);
                let mut bp = AnyBroadPhase::new(kind);
                let items: Vec<(Aabb, u64)> = scene.boxes().into_iter().map(|b| (b, 0)).collect();
                let hs: Vec<ProxyHandle> = bp.insert_batch(&items).unwrap();
                let mut pairs = Vec::new();
                let mut cpu = Vec::new();
                let wall = Instant::now();
                for f in 0..frames + 2 {
                    scene.advance();
                    let upd: Vec<(ProxyHandle, Aabb)> =
                        hs.iter().copied().zip(scene.boxes()).collect();
                    let c0 = cpu_ns();
                    pool.install(|| {
                        bp.update_batch(&upd).unwrap();
                        bp.find_pairs(&mut pairs);
                    });
                    if f >= 2 {
                        cpu.push((cpu_ns() - c0) as f64 / 1e6);
                    }
                }
                let _ = wall;
                let detail = match &bp {
                    AnyBroadPhase::SweepAndPrune(s) => {
                        let st = s.last_stats();
                        format!("  candidates {} swaps {}", st.candidates, st.swaps)
                    }
                    AnyBroadPhase::Grid(g) => {
                        format!(
                            "  cell {:.3} off-base {}",
                            g.cell_size(),
                            g.off_base_count()
                        )
                    }
                    _ => String::new(),
                };
                cpu.sort_by(f64::total_cmp);
                let ms = cpu[cpu.len() / 2];
                let cost = ms * 1e6 / (n + pairs.len()) as f64;
                let base = *uniform_cost.get_or_insert(cost);
                println!(
                    "{n:>7} {:<9} {:<5} {ms:>10.2} {:>9} {cost:>12.1} {:>9.2}{detail}",
                    scene_kind.name(),
                    kind.name(),
                    pairs.len(),
                    cost / base
                );
            }
        }
    }
}
