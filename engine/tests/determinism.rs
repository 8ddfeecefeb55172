//! Determinism: bit-identical results for any thread count and any broad phase; a golden hash
//! of a chaotic pile; snapshots that resume bit-identically (with the `serde` feature).
//!
//! Every build runs this file, whatever its features: without `parallel` the engine runs on
//! the calling thread (rayon's sequential stand-ins), and the golden hashes below, measured on
//! the default build, must come out the same (`cargo test -p tumble --no-default-features
//! --test determinism`).

mod common;
use common::*;
use rand::{Rng, SeedableRng};
use tumble::math::{Real, Rotation, Vector};
use tumble::{BroadPhaseKind, World, WorldConfig};

/// Many boxes (and a few balls) tumbling into a pile inside a container.
#[cfg(feature = "serde")]
fn pile(kind: BroadPhaseKind) -> World {
    pile_with(kind, true)
}

/// [`pile`] with sleeping on or off.
fn pile_with(kind: BroadPhaseKind, sleep: bool) -> World {
    let mut w = World::new(WorldConfig {
        broad_phase: kind,
        sleep,
        ..WorldConfig::default()
    })
    .unwrap();
    add_floor(&mut w, 0.5, 0.1);
    for (c, he) in [
        (Vector::new(3.5, 2.0, 0.0), Vector::new(0.5, 2.0, 4.0)),
        (Vector::new(-3.5, 2.0, 0.0), Vector::new(0.5, 2.0, 4.0)),
        (Vector::new(0.0, 2.0, 3.5), Vector::new(4.0, 2.0, 0.5)),
        (Vector::new(0.0, 2.0, -3.5), Vector::new(4.0, 2.0, 0.5)),
    ] {
        w.insert(tumble::BodyBuilder::fixed(tumble::Cuboid::new(he).unwrap()).translation(c))
            .unwrap();
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(42);
    for i in 0..80 {
        let at = Vector::new(
            rng.gen_range(-2.0..2.0),
            1.0 + 0.5 * i as Real,
            rng.gen_range(-2.0..2.0),
        );
        let rot = Rotation::from_euler_angles(
            rng.gen_range(0.0..6.0),
            rng.gen_range(0.0..6.0),
            rng.gen_range(0.0..6.0),
        );
        let v = Vector::new(rng.gen_range(-1.0..1.0), 0.0, rng.gen_range(-1.0..1.0));
        let b = if i % 5 == 4 {
            ball(0.3, at)
        } else {
            cuboid(Vector::new(0.3, 0.2, 0.25), at).rotation(rot)
        };
        w.insert(b.linvel(v).restitution(0.2).friction(0.6))
            .unwrap();
    }
    w
}

fn run(kind: BroadPhaseKind, steps: usize) -> World {
    run_with(kind, steps, true)
}

fn run_with(kind: BroadPhaseKind, steps: usize, sleep: bool) -> World {
    let mut w = pile_with(kind, sleep);
    for _ in 0..steps {
        w.step();
    }
    w
}

const STEPS: usize = 240;

/// The golden hash of the pile after 240 steps without sleeping (brute-force broad phase, any
/// thread count, with or without the `parallel` feature).
///
/// If an intended change of the engine or of the narrow phase alters the trajectory, this test
/// fails: check the change is meant to alter results, then replace `GOLDEN` with the hash
/// printed in the failure message.
const GOLDEN: u64 = 0xb5ef_194b_6662_95f4;

/// The golden hash of the same pile with sleeping on (the default): islands that come to rest
/// fall asleep and stop moving, so the trajectory differs from [`GOLDEN`]'s.
const GOLDEN_SLEEP: u64 = 0xe789_2b05_33c6_c794;

#[test]
fn golden_hash_of_pile() {
    for (sleep, golden, name) in [
        (false, GOLDEN, "GOLDEN"),
        (true, GOLDEN_SLEEP, "GOLDEN_SLEEP"),
    ] {
        let w = run_with(BroadPhaseKind::BruteForce, STEPS, sleep);
        w.validate().unwrap();
        let h = w.state_hash();
        assert_eq!(
            h, golden,
            "the pile's state hash (sleep: {sleep}) changed: got {h:#018x}. If the change in \
             trajectory is intended, update {name} in engine/tests/determinism.rs to {h:#018x}"
        );
    }
}

#[test]
fn same_result_for_any_thread_count() {
    let h1 = in_pool(1, || run(BroadPhaseKind::default(), STEPS).state_hash());
    let h2 = in_pool(2, || run(BroadPhaseKind::default(), STEPS).state_hash());
    let h4 = in_pool(4, || run(BroadPhaseKind::default(), STEPS).state_hash());
    assert_eq!(h1, h2);
    assert_eq!(h1, h4);
}

#[test]
fn same_result_for_every_broad_phase() {
    let reference = run(BroadPhaseKind::BruteForce, STEPS).state_hash();
    for kind in [
        BroadPhaseKind::SweepAndPrune,
        BroadPhaseKind::Bvh,
        BroadPhaseKind::Grid,
    ] {
        assert_eq!(run(kind, STEPS).state_hash(), reference, "{kind:?}");
    }
}

#[test]
#[cfg(feature = "serde")]
fn snapshot_resumes_bit_identically() {
    let mut a = pile(BroadPhaseKind::default());
    for _ in 0..100 {
        a.step();
    }
    a.advance(0.4 * a.config().dt).unwrap(); // leave something in the accumulator
    let bytes = a.snapshot();
    let mut b = World::restore(&bytes).unwrap();
    b.validate().unwrap();
    assert_eq!(a.state_hash(), b.state_hash());
    assert_eq!(a.accumulator(), b.accumulator());
    for _ in 0..100 {
        a.advance(1.0 / 50.0).unwrap();
        b.advance(1.0 / 50.0).unwrap();
        assert_eq!(a.state_hash(), b.state_hash());
    }
    assert_eq!(a.events(), b.events());
    // Restoring under another broad phase is the same trajectory too.
    let mut c = World::restore(&bytes).unwrap();
    let mut d = World::restore(&bytes).unwrap();
    for _ in 0..50 {
        c.step();
        d.step();
    }
    assert_eq!(c.state_hash(), d.state_hash());
}

#[test]
#[cfg(feature = "serde")]
fn corrupt_snapshots_are_errors() {
    let mut w = pile(BroadPhaseKind::default());
    for _ in 0..30 {
        w.step();
    }
    let bytes = w.snapshot();
    assert!(World::restore(&[]).is_err());
    assert!(World::restore(b"garbage").is_err());
    // Every truncation is an error.
    for len in (0..bytes.len()).step_by(97) {
        assert!(World::restore(&bytes[..len]).is_err(), "truncated at {len}");
    }
    // Random byte flips: an error or a world that validates, never a panic.
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    for _ in 0..300 {
        let mut b = bytes.clone();
        for _ in 0..rng.gen_range(1..4) {
            let i = rng.gen_range(0..b.len());
            b[i] ^= 1 << rng.gen_range(0..8);
        }
        if let Ok(mut restored) = World::restore(&b) {
            restored.validate().unwrap();
            restored.step();
        }
    }
}

/// A lattice dense enough that the stages split their work into many fixed chunks (several
/// thousand broad-phase pairs and contact pairs): the chunked mapping, matching and
/// concatenation must give the same world for any thread count.
#[test]
fn many_chunks_same_result_for_any_thread_count() {
    let lattice = || {
        let mut w = World::new(WorldConfig::default()).unwrap();
        add_floor(&mut w, 0.5, 0.1);
        for i in 0..1728 {
            let (x, y, z) = (i % 12, i / 144, (i / 12) % 12);
            let at = Vector::new(x as Real * 0.95, 0.6 + y as Real * 0.95, z as Real * 0.95);
            let b = if i % 3 == 0 {
                ball(0.5, at)
            } else {
                cuboid(Vector::new(0.5, 0.5, 0.5), at).rotation(Rotation::from_euler_angles(
                    0.1 * x as Real,
                    0.2,
                    0.1 * z as Real,
                ))
            };
            w.insert(b).unwrap();
        }
        let mut pairs = 0;
        for _ in 0..20 {
            w.step();
            pairs = pairs.max(w.pair_count());
        }
        (w.state_hash(), pairs)
    };
    let (h1, pairs) = in_pool(1, lattice);
    assert!(
        pairs > 3 * 2048,
        "too few pairs ({pairs}) to span several chunks"
    );
    assert_eq!(in_pool(2, lattice).0, h1);
    assert_eq!(in_pool(3, lattice).0, h1);
}

/// With sleeping on, long enough for islands to fall asleep (and some to wake when others land
/// on them): the same world for any thread count and any broad phase, sleep states included.
#[test]
fn sleeping_same_result_for_any_thread_count_and_broad_phase() {
    const LONG: usize = 600;
    let summary = |w: &World| {
        let asleep: Vec<bool> = w.bodies().map(|(_, b)| b.is_sleeping()).collect();
        (w.state_hash(), asleep)
    };
    let (h1, asleep) = in_pool(1, || summary(&run(BroadPhaseKind::default(), LONG)));
    let sleeping = asleep.iter().filter(|s| **s).count();
    assert!(sleeping > 0, "no body fell asleep in {LONG} steps");
    for threads in [2, 4] {
        let other = in_pool(threads, || summary(&run(BroadPhaseKind::default(), LONG)));
        assert_eq!(other, (h1, asleep.clone()), "{threads} threads");
    }
    for kind in [
        BroadPhaseKind::BruteForce,
        BroadPhaseKind::SweepAndPrune,
        BroadPhaseKind::Bvh,
    ] {
        let w = run(kind, LONG);
        w.validate().unwrap();
        assert_eq!(summary(&w), (h1, asleep.clone()), "{kind:?}");
    }
}
