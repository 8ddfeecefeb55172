//! The `gas` scene in the engine's collision-only world, against a brute-force count of the
//! pairs closer than 1 m (the peer README's definition: centre distance < 2 · 0.5).

use tumble::{BroadPhaseKind, WorldConfig};
use tumble_benches::scenes::{brute_force_pairs, GasWorld};

fn gas_world(n: usize, seed: u64, kind: BroadPhaseKind) -> GasWorld {
    let config = WorldConfig {
        broad_phase: kind,
        ..WorldConfig::default()
    };
    GasWorld::new(n, seed, &config).expect("the gas builds")
}

/// The peer figure: N = 10000, 30 warm-up + 200 counted steps → 1924 pairs (rapier's count,
/// equal to its brute-force count). Checked here against our own brute force as well.
#[test]
fn gas_10000_after_230_steps_has_the_peer_pair_count() {
    let mut g = gas_world(10_000, 42, BroadPhaseKind::default());
    for _ in 0..230 {
        g.step().expect("a gas step");
    }
    let brute = brute_force_pairs(&g.gas.positions_f32());
    assert_eq!(brute, 1924, "brute force disagrees with the peer README");
    assert_eq!(g.end_state().pairs, brute);
    assert_eq!(
        g.end_state().contacts,
        brute,
        "one contact point per touching ball pair"
    );
}

#[test]
fn every_broad_phase_counts_the_brute_force_pairs_at_every_step() {
    let kinds = [
        BroadPhaseKind::BruteForce,
        BroadPhaseKind::Grid,
        BroadPhaseKind::SweepAndPrune,
        BroadPhaseKind::Bvh,
    ];
    for (seed, n) in [(1, 300), (2, 800)] {
        for kind in kinds {
            let mut g = gas_world(n, seed, kind);
            for step in 0..40 {
                g.step().expect("a gas step");
                if step % 8 == 7 {
                    let want = brute_force_pairs(&g.gas.positions_f32());
                    assert_eq!(g.end_state().pairs, want, "{kind:?} n={n} step {step}");
                }
            }
        }
    }
}

#[test]
fn zero_balls_is_refused() {
    assert!(GasWorld::new(0, 42, &WorldConfig::default()).is_err());
}
