//! Pile-ups stay within the pair budget: bodies inserted at one spot do not make the step
//! allocate without bound, the pairs beyond [`WorldConfig::max_pairs`] are dropped in a fixed
//! order and reported, and the memory a pile-up took is given back once it has scattered.
//!
//! A counting global allocator measures the bytes live and the peak; the tests of this file
//! take one lock so that their measurements do not mix.

mod common;
use common::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;
use tumble::math::Vector;
use tumble::{BroadPhaseKind, World, WorldConfig};

/// The system allocator, counting the bytes live and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn grew(n: usize) {
    let now = LIVE.fetch_add(n, Relaxed) + n;
    PEAK.fetch_max(now, Relaxed);
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Relaxed);
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_sub(layout.size(), Relaxed);
        grew(new_size);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// `n` balls of radius 0.5 within 0.05 m of the origin (every pair overlaps), no floor.
fn pile(n: usize, config: WorldConfig) -> World {
    let mut w = World::new(config).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..n {
        let at = Vector::new(
            rng.gen_range(-0.05..0.05),
            rng.gen_range(-0.05..0.05),
            rng.gen_range(-0.05..0.05),
        );
        w.insert(ball(0.5, at)).unwrap();
    }
    w
}

/// 1 000 balls at one spot (499 500 pairs, within the default budget): once they have flown
/// apart, the world holds about as much memory as the same world restored from a snapshot
/// (the same bodies at the same places, with buffers that never saw the pile-up) after one
/// step. Before the buffers were given back it held 862 MB against 1 MB.
#[test]
fn memory_of_a_scattered_pile_is_given_back() {
    let _one = ONE_AT_A_TIME.lock().unwrap();
    let cfg = WorldConfig {
        gravity: Vector::zeros(),
        sleep: false,
        ..WorldConfig::default()
    };
    let base = LIVE.load(Relaxed);
    let mut w = pile(1000, cfg);
    let mut most = 0;
    for _ in 0..240 {
        w.step();
        most = most.max(w.pair_count());
    }
    assert_eq!(most, 499_500, "every pair overlapped at first");
    let pairs = w.pair_count();
    assert!(pairs < 1000, "the pile scattered: {pairs} pairs left");
    let after_pile = LIVE.load(Relaxed) - base;
    let bytes = w.snapshot();

    let base = LIVE.load(Relaxed);
    let mut fresh = World::restore(&bytes).unwrap();
    fresh.step();
    let never_met = LIVE.load(Relaxed) - base;
    drop(w);
    eprintln!("pile {after_pile} bytes ({pairs} pairs left), restored {never_met} bytes");
    assert!(
        after_pile <= 2 * never_met,
        "the scattered pile holds {after_pile} bytes, the same world restored {never_met}"
    );
}

/// The pile-up: 10 000 balls at one spot overlap in 49 995 000 pairs. With a budget
/// of 20 000 pairs the first step keeps exactly 20 000, reports the rest as dropped, and its
/// peak memory stays within that of a world of the same balls spread apart plus 2 KB per
/// budgeted pair (the step's per-pair cost, about 1 KB, with room for the pair search's
/// buffers). Without the budget the first step asked for more memory than the machine had.
#[test]
fn pile_up_of_ten_thousand_stays_within_the_pair_budget() {
    let _one = ONE_AT_A_TIME.lock().unwrap();
    const BUDGET: u32 = 20_000;
    let cfg = WorldConfig {
        gravity: Vector::zeros(),
        max_pairs: BUDGET,
        ..WorldConfig::default()
    };
    // The same balls 3 m apart: no pair at all.
    let mut spread = World::new(cfg.clone()).unwrap();
    for i in 0..10_000 {
        let at = Vector::new(
            (i % 22) as f32 * 3.0,
            (i / 22 % 22) as f32 * 3.0,
            (i / 484) as f32 * 3.0,
        );
        spread.insert(ball(0.5, at)).unwrap();
    }
    let base = LIVE.load(Relaxed);
    PEAK.store(base, Relaxed);
    spread.step();
    let spread_peak = PEAK.load(Relaxed) - base;
    drop(spread);

    let mut w = pile(10_000, cfg);
    let base = LIVE.load(Relaxed);
    PEAK.store(base, Relaxed);
    let report = w.step();
    let peak = PEAK.load(Relaxed) - base;
    eprintln!("pile-up peak {peak} bytes, spread peak {spread_peak} bytes");
    assert_eq!(w.pair_count(), BUDGET as usize);
    assert_eq!(report.dropped_pairs, 49_995_000 - BUDGET as usize);
    let bound = spread_peak + 2048 * BUDGET as usize;
    assert!(peak <= bound, "peak {peak} bytes, bound {bound}");
    w.validate().unwrap();
}

/// Under the budget the kept pairs, and so the whole step, are the same for every broad
/// phase: 2 000 balls at one spot (1 999 000 pairs) under a budget of 5 000, three steps.
#[test]
fn pairs_kept_under_the_budget_are_the_same_for_every_broad_phase() {
    let _one = ONE_AT_A_TIME.lock().unwrap();
    let mut hashes = Vec::new();
    for kind in [
        BroadPhaseKind::BruteForce,
        BroadPhaseKind::Grid,
        BroadPhaseKind::SweepAndPrune,
        BroadPhaseKind::Bvh,
    ] {
        let mut w = pile(
            2000,
            WorldConfig {
                broad_phase: kind,
                max_pairs: 5000,
                ..WorldConfig::default()
            },
        );
        for _ in 0..3 {
            let r = w.step();
            assert!(r.dropped_pairs > 0, "{kind:?}");
        }
        hashes.push((kind, w.state_hash()));
    }
    assert!(hashes.iter().all(|h| h.1 == hashes[0].1), "{hashes:x?}");
}

/// `max_pairs` outside `[1, MAX_PAIRS]` is refused with an error naming it.
#[test]
fn pair_budget_out_of_range_is_refused() {
    for bad in [0, tumble::MAX_PAIRS + 1, u32::MAX] {
        let e = World::new(WorldConfig {
            max_pairs: bad,
            ..WorldConfig::default()
        })
        .unwrap_err();
        assert!(e.to_string().contains("max_pairs"), "{e}");
    }
}

/// A collision-only world has the same budget: 300 balls at one spot (44 850 pairs) under a
/// budget of 1 000 report 1 000 pairs and 43 850 dropped; a budget of 0 is refused and
/// changes nothing.
#[test]
fn collision_world_keeps_its_pair_budget() {
    use tumble::math::Isometry;
    use tumble::{Ball, CollisionWorld};
    let mut cw = CollisionWorld::new(BroadPhaseKind::Grid, 0.0).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for k in 0..300 {
        let at = Isometry::translation(
            rng.gen_range(-0.05..0.05),
            rng.gen_range(-0.05..0.05),
            rng.gen_range(-0.05..0.05),
        );
        cw.insert(Ball::new(0.5).unwrap(), at, k).unwrap();
    }
    cw.update();
    assert_eq!(cw.broad_phase_pair_count(), 44_850);
    assert_eq!(cw.dropped_pair_count(), 0);
    cw.set_max_pairs(1000).unwrap();
    assert!(cw.set_max_pairs(0).is_err());
    cw.update();
    assert_eq!(cw.broad_phase_pair_count(), 1000);
    assert_eq!(cw.dropped_pair_count(), 43_850);
}
