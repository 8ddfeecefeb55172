//! Collision-only mode against a brute-force oracle: mixed shapes, a prediction distance,
//! removals and re-insertions, and the same contacts (bit for bit, same order) on 1 and 2
//! threads and with every broad phase.

mod common;
use common::in_pool;
use rand::{Rng, SeedableRng};
use tumble::math::{Isometry, Real, Vector};
use tumble::narrowphase::query;
use tumble::narrowphase::shape::{Ball, Cuboid, Shape};
use tumble::{BroadPhaseKind, ColliderContact, ColliderHandle, CollisionWorld};

const PREDICTION: Real = 0.05;

/// Every pair of `live` colliders (handle order) with a non-empty manifold, by testing every
/// pair with `query::contact` in either order (flipped when only the reverse is supported).
fn brute_force(live: &[(ColliderHandle, Shape, Isometry)]) -> Vec<ColliderContact> {
    let mut sorted: Vec<_> = live.iter().collect();
    sorted.sort_by_key(|(h, _, _)| *h);
    let mut out = Vec::new();
    for (i, (ha, sa, pa)) in sorted.iter().enumerate() {
        for (hb, sb, pb) in &sorted[i + 1..] {
            let m = match query::contact(pa, sa, pb, sb, PREDICTION) {
                Ok(m) => m,
                Err(_) => query::contact(pb, sb, pa, sa, PREDICTION)
                    .expect("ball and box pairs are supported")
                    .map(|m| m.flipped()),
            };
            if let Some(m) = m.filter(|m| !m.is_empty()) {
                out.push(ColliderContact {
                    a: *ha,
                    b: *hb,
                    manifold: m,
                });
            }
        }
    }
    out
}

fn random_pose(rng: &mut rand_chacha::ChaCha8Rng) -> Isometry {
    let t = Vector::new(
        rng.gen_range(0.0..8.0),
        rng.gen_range(0.0..8.0),
        rng.gen_range(0.0..8.0),
    );
    let axis = Vector::new(
        rng.gen_range(-1.0..1.0),
        rng.gen_range(-1.0..1.0),
        rng.gen_range(-1.0..1.0),
    );
    Isometry::new(t, axis)
}

/// Runs a seeded sequence of inserts, moves and removals (balls, and boxes unless
/// `balls_only`: a world of balls only takes its own path); checks every update against the
/// oracle and returns every update's contacts.
fn run(kind: BroadPhaseKind, seed: u64, balls_only: bool) -> Vec<Vec<ColliderContact>> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut cw = CollisionWorld::new(kind, PREDICTION).unwrap();
    let mut live: Vec<(ColliderHandle, Shape, Isometry)> = Vec::new();
    let insert = |cw: &mut CollisionWorld, rng: &mut rand_chacha::ChaCha8Rng| {
        let shape: Shape = if balls_only || rng.gen_bool(0.8) {
            Ball::new(rng.gen_range(0.2..0.6)).unwrap().into()
        } else {
            Cuboid::new(Vector::new(
                rng.gen_range(0.2..0.6),
                rng.gen_range(0.2..0.6),
                rng.gen_range(0.2..0.6),
            ))
            .unwrap()
            .into()
        };
        let pose = random_pose(rng);
        let h = cw.insert(shape.clone(), pose, 0).unwrap();
        (h, shape, pose)
    };
    for _ in 0..600 {
        let c = insert(&mut cw, &mut rng);
        live.push(c);
    }
    let mut history = Vec::new();
    for _ in 0..6 {
        for (h, _, pose) in live.iter_mut() {
            if rng.gen_bool(0.7) {
                *pose = Isometry::from_parts(
                    (pose.translation.vector
                        + Vector::new(
                            rng.gen_range(-0.3..0.3),
                            rng.gen_range(-0.3..0.3),
                            rng.gen_range(-0.3..0.3),
                        ))
                    .into(),
                    pose.rotation,
                );
                cw.set_pose(*h, *pose).unwrap();
                if rng.gen_bool(0.1) {
                    // A second move in the same round counts once.
                    cw.set_pose(*h, *pose).unwrap();
                }
            }
        }
        for _ in 0..30 {
            let k = rng.gen_range(0..live.len());
            let (h, _, _) = live.swap_remove(k);
            cw.remove(h).unwrap();
            assert!(cw.set_pose(h, Isometry::identity()).is_err());
        }
        for _ in 0..30 {
            let c = insert(&mut cw, &mut rng);
            live.push(c);
        }
        cw.update();
        cw.validate().unwrap();
        assert_eq!(cw.unsupported_pair_count(), 0);
        let want = brute_force(&live);
        assert!(want.len() > 256, "the contacts span several chunks");
        assert_eq!(cw.contacts(), &want[..]);
        history.push(cw.contacts().to_vec());
    }
    history
}

#[test]
fn contacts_match_brute_force_on_any_thread_count_and_broad_phase() {
    for balls_only in [false, true] {
        let one = in_pool(1, || run(BroadPhaseKind::default(), 11, balls_only));
        let two = in_pool(2, || run(BroadPhaseKind::default(), 11, balls_only));
        assert_eq!(one, two);
        for kind in [
            BroadPhaseKind::Grid,
            BroadPhaseKind::SweepAndPrune,
            BroadPhaseKind::Bvh,
            BroadPhaseKind::BruteForce,
        ] {
            assert_eq!(in_pool(2, || run(kind, 11, balls_only)), one, "{kind:?}");
        }
    }
}
