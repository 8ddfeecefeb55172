//! The pair budget against the brute force without one: with a budget of `max` pairs, every
//! structure reports exactly the first `max` pairs of the full, sorted pair list and counts
//! the rest as dropped, on pile-ups, on every measured scene layout, after moves and when
//! nothing moved.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tumble_broadphase::math::Point;
use tumble_broadphase::scenes::{Scene, SceneKind};
use tumble_broadphase::{Aabb, AnyBroadPhase, BroadPhase, BroadPhaseKind, BruteForce, Pair};

const KINDS: [BroadPhaseKind; 4] = [
    BroadPhaseKind::BruteForce,
    BroadPhaseKind::Grid,
    BroadPhaseKind::SweepAndPrune,
    BroadPhaseKind::Bvh,
];

/// Every overlapping pair of `boxes`, sorted (the brute force without a budget).
fn all_pairs(boxes: &[Aabb]) -> Vec<Pair> {
    let mut bf = BruteForce::default();
    for (k, b) in boxes.iter().enumerate() {
        bf.insert(*b, k as u64).unwrap();
    }
    let mut out = Vec::new();
    bf.find_pairs(&mut out);
    assert_eq!(bf.dropped_pairs(), 0);
    out
}

/// Checks every structure on `frames` (box lists of equal length, one per frame) with a
/// budget of `max` pairs: each frame's pairs are the first `max` of the full list.
fn check(frames: &[Vec<Aabb>], max: usize, what: &str) {
    let expect: Vec<Vec<Pair>> = frames.iter().map(|f| all_pairs(f)).collect();
    for kind in KINDS {
        let mut bp = AnyBroadPhase::new(kind);
        bp.set_max_pairs(max);
        assert_eq!(bp.max_pairs(), max);
        let handles: Vec<_> = frames[0]
            .iter()
            .enumerate()
            .map(|(k, b)| bp.insert(*b, k as u64).unwrap())
            .collect();
        let mut got = Vec::new();
        for (f, (boxes, full)) in frames.iter().zip(&expect).enumerate() {
            if f > 0 {
                let moves: Vec<_> = handles.iter().copied().zip(boxes.iter().copied()).collect();
                bp.update_batch(&moves).unwrap();
            }
            // Twice: the second search runs on unchanged boxes (cached by some structures).
            for again in [false, true] {
                bp.find_pairs(&mut got);
                let kept = full.len().min(max);
                assert_eq!(
                    got,
                    full[..kept],
                    "{what}, {kind:?}, frame {f}, again {again}: {} pairs of {}, budget {max}",
                    got.len(),
                    full.len()
                );
                assert_eq!(bp.dropped_pairs(), full.len() - kept, "{what}, {kind:?}");
            }
            bp.validate().unwrap();
        }
    }
}

/// `n` boxes of half-side 0.5 within 0.1 m of the origin: every pair overlaps.
fn pile(n: usize, rng: &mut ChaCha8Rng) -> Vec<Aabb> {
    (0..n)
        .map(|_| {
            let c = Point::new(
                rng.gen_range(-0.1..0.1),
                rng.gen_range(-0.1..0.1),
                rng.gen_range(-0.1..0.1),
            );
            Aabb::new(
                c - Point::new(0.5, 0.5, 0.5).coords,
                c + Point::new(0.5, 0.5, 0.5).coords,
            )
            .unwrap()
        })
        .collect()
}

/// 3 000 boxes at one spot (4 498 500 pairs) under budgets below, near and above the
/// trimming limit, and one budget above the pair count (nothing dropped).
#[test]
fn pile_up_keeps_the_first_pairs_of_the_sorted_list() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let frames = vec![pile(3000, &mut rng), pile(3000, &mut rng)];
    for max in [1, 1000, 2048, 100_000, 3_000_000, 5_000_000] {
        check(&frames, max, &format!("pile, budget {max}"));
    }
}

/// Every measured layout, 4 000 boxes over three frames, under a random budget between 1
/// and the pair count.
#[test]
fn every_scene_layout_keeps_the_first_pairs_under_a_random_budget() {
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    for kind in SceneKind::ALL {
        let mut scene = Scene::new(kind, 4000, 5);
        let mut frames = Vec::new();
        for _ in 0..3 {
            frames.push(scene.boxes());
            scene.advance();
        }
        let pairs = all_pairs(&frames[0]).len();
        for _ in 0..3 {
            let max = rng.gen_range(1..=pairs.max(1));
            check(&frames, max, &format!("{kind:?}"));
        }
    }
}
