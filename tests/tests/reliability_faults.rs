//! Reliability under faults, complementing `engine/tests/{faults,ccd,determinism}.rs` (which
//! cover an enormous force, 3 000 inserts and removals, 30 and 300 m/s balls and boxes, and
//! thread counts and broad phases separately on a pile of boxes):
//! - non-finite values reaching bodies through torques, impulses at points and flings past
//!   the world's coordinate limit, several bodies in one step: each frozen and reported, the
//!   rest step on;
//! - 1 000 and 10 000 m/s spinning balls (open bug: capsules, hulls, 100 000 m/s) against a thin
//!   static wall, head-on and oblique, under every broad phase: no tunnelling with CCD;
//! - churn (bodies removed and inserted every step) under every broad phase: the world
//!   validates each step and every broad phase gives the same trajectory;
//! - scenes far from the origin (up to 1e6 m): bodies still rest on the floor, to the
//!   precision f32 allows there (stated in `far_from_origin_scenes_keep_working`);
//! - one hash for every (thread count, broad phase) combination on a scene of every shape,
//!   kinematic bodies and sensors; snapshots taken at random steps restore in a fresh world
//!   and step on bit-identically, events included.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tumble::math::{Point, Real, Rotation, Vector};
use tumble::narrowphase::shape::{Ball, Capsule, ConvexPolyhedron, Cuboid, Shape, Triangle};
use tumble::{BodyBuilder, BodyHandle, BroadPhaseKind, World, WorldConfig};

const KINDS: [BroadPhaseKind; 4] = [
    BroadPhaseKind::BruteForce,
    BroadPhaseKind::Grid,
    BroadPhaseKind::SweepAndPrune,
    BroadPhaseKind::Bvh,
];

fn world(kind: BroadPhaseKind, gravity: Real) -> World {
    World::new(WorldConfig {
        broad_phase: kind,
        gravity: Vector::new(0.0, -gravity, 0.0),
        ..WorldConfig::default()
    })
    .unwrap()
}

/// A static floor whose top face is at `y = top`, centred on `(cx, cz)`.
fn floor(w: &mut World, cx: Real, top: Real, cz: Real) {
    w.insert(
        BodyBuilder::fixed(Cuboid::new(Vector::new(20.0, 0.5, 20.0)).unwrap())
            .translation(Vector::new(cx, top - 0.5, cz)),
    )
    .unwrap();
}

fn ball(r: Real) -> Shape {
    Ball::new(r).unwrap().into()
}

fn hull(s: Real) -> Shape {
    // An irregular octahedron-like hull, about `s` across.
    let pts = [
        Point::new(s, 0.0, 0.0),
        Point::new(-0.8 * s, 0.1 * s, 0.0),
        Point::new(0.0, 0.9 * s, 0.1 * s),
        Point::new(0.1 * s, -s, 0.0),
        Point::new(0.0, 0.0, 0.7 * s),
        Point::new(0.05 * s, 0.0, -s),
    ];
    ConvexPolyhedron::from_points(&pts).unwrap().into()
}

fn capsule(h: Real, r: Real) -> Shape {
    Capsule::new(h, r).unwrap().into()
}

/// A torque, an impulse at a point and a fling past the coordinate limit hit three bodies in
/// the same step: all three are frozen and reported, the fourth keeps falling, the world
/// validates, and the frozen bodies stay put (they act as static) until unfrozen.
#[test]
fn several_faults_in_one_step_freeze_exactly_those_bodies() {
    let mut w = world(BroadPhaseKind::default(), 9.81);
    floor(&mut w, 0.0, 0.0, 0.0);
    let light = |s: Shape, x: Real| {
        BodyBuilder::dynamic(s)
            .translation(Vector::new(x, 3.0, 0.0))
            .density(1e-3)
    };
    let spun = w.insert(light(capsule(0.3, 0.1), -6.0)).unwrap();
    let kicked = w.insert(light(hull(0.3), -2.0)).unwrap();
    let flung = w.insert(light(ball(0.2), 2.0)).unwrap();
    let bystander = w
        .insert(BodyBuilder::dynamic(ball(0.3)).translation(Vector::new(6.0, 3.0, 0.0)))
        .unwrap();
    for _ in 0..5 {
        assert!(w.step().frozen.is_empty());
    }
    w.apply_torque(spun, Vector::new(Real::MAX, Real::MAX, 0.0))
        .unwrap();
    // An impulse the velocity can hold but the next integration cannot (v·dt stays finite,
    // the angular part overflows).
    w.apply_impulse_at_point(
        kicked,
        Vector::new(0.0, 0.0, 1e30),
        Point::new(-1.7, 3.0, 0.0),
    )
    .unwrap();
    w.set_linvel(flung, Vector::new(1e12, 0.0, 0.0)).unwrap();
    let before: Vec<_> = [spun, kicked, flung]
        .iter()
        .map(|&h| w.body(h).unwrap().pose())
        .collect();
    let r = w.step();
    let mut frozen = r.frozen.clone();
    frozen.sort();
    assert_eq!(frozen, vec![spun, kicked, flung], "frozen: {:?}", r.frozen);
    w.validate().unwrap();
    let y0 = w.body(bystander).unwrap().translation().y;
    for _ in 0..20 {
        assert!(w.step().frozen.is_empty());
        w.validate().unwrap();
    }
    for (h, p) in [spun, kicked, flung].iter().zip(&before) {
        let v = w.body(*h).unwrap();
        assert!(v.is_frozen());
        assert!(
            (v.pose().translation.vector - p.translation.vector).norm() < 0.1,
            "a frozen body moved"
        );
        assert!(v.pose().translation.vector.iter().all(|x| x.is_finite()));
    }
    assert!(
        w.body(bystander).unwrap().translation().y < y0,
        "the bystander stopped falling"
    );
    for h in [spun, kicked, flung] {
        w.unfreeze(h).unwrap();
    }
    for _ in 0..10 {
        assert!(w.step().frozen.is_empty());
    }
    w.validate().unwrap();
}

/// Fires a body at `speed` toward a static wall 5 cm thick (x ∈ [5, 5.05], |y|, |z| < 400) from
/// x = 0, along a direction `angle` radians off the wall's normal, for 20 steps. Returns the
/// first step whose centre reached `limit` in front of the wall's edges, or whose straight
/// path from the last step's centre crossed x = `limit` there (a body going round the wall's
/// edge, which a fast oblique one does after sliding along it, is not tunnelling).
fn fire(
    kind: BroadPhaseKind,
    shape: Shape,
    speed: Real,
    angle: Real,
    limit: Real,
) -> Option<String> {
    let mut w = World::new(WorldConfig {
        broad_phase: kind,
        gravity: Vector::zeros(),
        ..WorldConfig::default()
    })
    .unwrap();
    w.insert(
        BodyBuilder::fixed(Cuboid::new(Vector::new(0.025, 400.0, 400.0)).unwrap())
            .translation(Vector::new(5.025, 0.0, 0.0)),
    )
    .unwrap();
    let dir = Vector::new(angle.cos(), angle.sin(), 0.0);
    let b = w
        .insert(
            BodyBuilder::dynamic(shape)
                .rotation(Rotation::from_euler_angles(0.4, 0.2, 0.9))
                .linvel(dir * speed)
                .angvel(Vector::new(3.0, 1.0, 0.0))
                .ccd(true),
        )
        .unwrap();
    let in_front = |p: &Vector| p.y.abs() < 400.0 && p.z.abs() < 400.0;
    let mut prev = w.body(b).unwrap().translation();
    for step in 0..20 {
        let r = w.step();
        assert!(r.frozen.is_empty(), "a fast body was frozen at {speed} m/s");
        w.validate().unwrap();
        let c = w.body(b).unwrap().translation();
        if c.x >= limit && in_front(&c) {
            return Some(format!("step {step}: centre at {c:?}"));
        }
        if prev.x < limit && c.x >= limit {
            let at = prev + (c - prev) * ((limit - prev.x) / (c.x - prev.x));
            if in_front(&at) {
                return Some(format!("step {step}: crossed x = {limit} at {at:?}"));
            }
        }
        prev = c;
    }
    None
}

/// Fires each shape at each speed and angle under every broad phase; returns the cases that
/// reached or crossed x = `limit` in front of the wall (see [`fire`]; its near face is x = 5,
/// its far face x = 5.05).
fn tunnelling(shapes: &[(&str, Shape)], speeds: &[Real], limit: Real) -> Vec<String> {
    let mut out = Vec::new();
    for kind in KINDS {
        for (name, shape) in shapes {
            for &speed in speeds {
                for angle in [0.0, 0.6] {
                    if let Some(why) = fire(kind, shape.clone(), speed, angle, limit) {
                        out.push(format!(
                            "{name} at {speed} m/s, {angle} rad, {kind:?}: {why}"
                        ));
                    }
                }
            }
        }
    }
    out
}

#[test]
fn extreme_speeds_do_not_tunnel_with_ccd() {
    let bad = tunnelling(&[("ball", ball(0.02))], &[1e3, 1e4], 5.0);
    assert!(bad.is_empty(), "tunnelled: {bad:#?}");
}

/// Capsules, hulls and balls at 1 000 to 100 000 m/s, head-on and 0.6 rad off the normal,
/// spinning at (3, 1, 0) rad/s, never cross the 5 cm wall; balls never even reach its near
/// face.
///
/// Non-round shapes are held to the far face (x = 5.05) rather than the near face: on impact
/// at 100 000 m/s a capsule pivots about its tip, and its centre went 8 mm past the near face
/// (3.8 cm of penetration, for one step) before the solver pushed it back out. That is a
/// transient penetration, not a crossing; CCD sweeps translation only, so rotation during the
/// step can still push a shape into a wall — the solver, not CCD, resolves it.
///
/// History: before the time of impact stepped by the closing rate along the contact normal,
/// it crawled at `d/|Δ|` and gave up after 24 iterations on oblique approaches, and a hull at
/// 10 000 m/s 0.6 rad off the normal went straight through (x = 20.6).
#[test]
fn capsules_hulls_and_balls_at_extreme_speed_do_not_tunnel() {
    let round = tunnelling(&[("ball", ball(0.02))], &[1e5], 5.0);
    assert!(round.is_empty(), "tunnelled: {round:#?}");
    let bad = tunnelling(
        &[("capsule", capsule(0.1, 0.03)), ("hull", hull(0.05))],
        &[1e3, 1e4, 1e5],
        5.05,
    );
    assert!(bad.is_empty(), "tunnelled: {bad:#?}");
}

/// Every step, about a tenth of the bodies are removed and as many inserted (random shapes
/// and places), for 120 steps: the world validates after each step, handles of removed
/// bodies are refused, and the four broad phases give the same trajectory.
#[test]
fn churn_keeps_the_world_valid_and_deterministic() {
    let hashes: Vec<u64> = KINDS
        .iter()
        .map(|&kind| {
            let mut rng = ChaCha8Rng::seed_from_u64(11);
            let mut w = world(kind, 9.81);
            floor(&mut w, 0.0, 0.0, 0.0);
            let mut live: Vec<BodyHandle> = Vec::new();
            let mut dead: Vec<BodyHandle> = Vec::new();
            for step in 0..120 {
                let n_remove = live.len() / 10;
                for _ in 0..n_remove {
                    let h = live.swap_remove(rng.gen_range(0..live.len()));
                    w.remove(h).unwrap();
                    dead.push(h);
                }
                for _ in 0..(12 - step % 5) {
                    let at = Vector::new(
                        rng.gen_range(-8.0..8.0),
                        rng.gen_range(0.5..8.0),
                        rng.gen_range(-8.0..8.0),
                    );
                    let s = match rng.gen_range(0..4) {
                        0 => ball(rng.gen_range(0.1..0.5)),
                        1 => capsule(0.2, 0.15),
                        2 => hull(0.4),
                        _ => Cuboid::new(Vector::new(0.3, 0.2, 0.25)).unwrap().into(),
                    };
                    live.push(w.insert(BodyBuilder::dynamic(s).translation(at)).unwrap());
                }
                w.step();
                if let Err(e) = w.validate() {
                    panic!("{kind:?}, step {step}: {e}");
                }
            }
            for h in dead.iter().take(50) {
                assert!(
                    w.body(*h).is_none() && w.remove(*h).is_err(),
                    "a removed handle is still accepted"
                );
            }
            w.state_hash()
        })
        .collect();
    assert!(
        hashes.iter().all(|&h| h == hashes[0]),
        "broad phases differ under churn: {hashes:x?}"
    );
}

/// A ball and a box dropped on a floor centred at (O, O, O) for O up to 1e6 m come to rest on
/// it. Observed: the resting height error stays within two units in the last place of O
/// (ulp(1e6) = 0.0625 m) plus the contact's own 2 cm; below 1e4 m it is millimetres.
#[test]
fn far_from_origin_scenes_keep_working() {
    for offset in [0.0, 1e3, 1e4, 1e5, 1e6] {
        let ulp = if offset == 0.0 {
            0.0
        } else {
            (offset as Real).next_up() - offset as Real
        };
        let o = Vector::repeat(offset as Real);
        let mut w = world(BroadPhaseKind::default(), 9.81);
        floor(&mut w, o.x, o.y, o.z);
        let b = w
            .insert(
                BodyBuilder::dynamic(ball(0.5))
                    .translation(o + Vector::new(0.0, 2.0, 0.0))
                    .restitution(0.0),
            )
            .unwrap();
        let c = w
            .insert(
                BodyBuilder::dynamic(Cuboid::new(Vector::new(0.5, 0.5, 0.5)).unwrap())
                    .translation(o + Vector::new(3.0, 2.0, 0.0))
                    .restitution(0.0),
            )
            .unwrap();
        for _ in 0..240 {
            assert!(
                w.step().frozen.is_empty(),
                "offset {offset}: a body was frozen"
            );
        }
        w.validate().unwrap();
        for (h, what) in [(b, "ball"), (c, "box")] {
            let y = w.body(h).unwrap().translation().y;
            let err = (y - (o.y + 0.5)).abs();
            assert!(
                err <= 2.0 * ulp + 0.02,
                "offset {offset}: the {what} rests at {y}, {err} m off (ulp {ulp})"
            );
        }
    }
}

/// A scene with every shape kind, a kinematic paddle and a sensor.
fn mixed_scene(kind: BroadPhaseKind) -> World {
    let mut w = world(kind, 9.81);
    floor(&mut w, 0.0, 0.0, 0.0);
    let ramp = Triangle::new(
        Point::new(-4.0, 0.0, -4.0),
        Point::new(4.0, 0.0, -4.0),
        Point::new(0.0, 2.0, 0.0),
    )
    .unwrap();
    w.insert(BodyBuilder::fixed(ramp)).unwrap();
    w.insert(
        BodyBuilder::kinematic(Cuboid::new(Vector::new(2.0, 0.1, 0.3)).unwrap())
            .translation(Vector::new(0.0, 0.6, 2.0))
            .angvel(Vector::new(0.0, 1.5, 0.0)),
    )
    .unwrap();
    w.insert(
        BodyBuilder::fixed(ball(1.5))
            .translation(Vector::new(2.0, 1.0, 0.0))
            .sensor(true),
    )
    .unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for i in 0..60 {
        let at = Vector::new(
            rng.gen_range(-3.0..3.0),
            1.0 + 0.4 * i as Real,
            rng.gen_range(-3.0..3.0),
        );
        let s = match i % 4 {
            0 => ball(0.25),
            1 => capsule(0.2, 0.15),
            2 => hull(0.3),
            _ => Cuboid::new(Vector::new(0.25, 0.15, 0.2)).unwrap().into(),
        };
        let rot =
            Rotation::from_euler_angles(rng.gen_range(0.0..3.0), rng.gen_range(0.0..3.0), 0.0);
        w.insert(
            BodyBuilder::dynamic(s)
                .translation(at)
                .rotation(rot)
                .ccd(i % 3 == 0),
        )
        .unwrap();
    }
    w
}

#[test]
fn one_hash_for_every_thread_count_and_broad_phase() {
    let mut seen = Vec::new();
    for threads in [1, 2, 4] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        for kind in KINDS {
            let h = pool.install(|| {
                let mut w = mixed_scene(kind);
                for _ in 0..120 {
                    w.step();
                }
                w.validate().unwrap();
                w.state_hash()
            });
            seen.push((threads, kind, h));
        }
    }
    let h0 = seen[0].2;
    assert!(seen.iter().all(|s| s.2 == h0), "hashes differ: {seen:x?}");
}

/// Snapshots at five random steps of a 200-step run, each restored twice in fresh worlds and
/// stepped 30 steps side by side: same hash after each step, same events; a snapshot of the
/// restored world is byte-identical to the original; and a restored copy steps exactly like
/// the live world it came from.
///
/// Open bug: at step 128 of this scene two worlds restored from the same bytes differ after
/// one step, and the hashes change from run to run even on one thread — some step or restore
/// path depends on run-to-run state (a `HashMap`/`RandomState` iteration order or an unsorted
/// buffer). The pile of `engine/tests/determinism.rs` does not show it; this scene adds a
/// triangle, a kinematic paddle, a sensor, capsules and hulls.
#[test]
fn snapshots_at_random_steps_resume_bit_identically() {
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    let mut at: Vec<usize> = (0..5).map(|_| rng.gen_range(1..200)).collect();
    at.sort();
    let mut w = mixed_scene(BroadPhaseKind::default());
    let mut done = 0;
    for &s in &at {
        while done < s {
            w.step();
            done += 1;
        }
        let bytes = w.snapshot();
        let mut copy = World::restore(&bytes).unwrap();
        copy.validate().unwrap();
        assert_eq!(
            copy.snapshot(),
            bytes,
            "snapshot of the restored world differs (step {s})"
        );
        let mut original = World::restore(&bytes).unwrap();
        for i in 0..30 {
            original.step();
            copy.step();
            assert_eq!(original.state_hash(), copy.state_hash(), "step {s} + {i}");
            assert_eq!(original.events(), copy.events(), "events at step {s} + {i}");
        }
        // The live world and a restored copy agree too.
        let mut live = World::restore(&w.snapshot()).unwrap();
        live.step();
        w.step();
        done += 1;
        assert_eq!(
            live.state_hash(),
            w.state_hash(),
            "restored vs live at step {s}"
        );
    }
}
