//! Joints against physics: a pendulum's period, a chain's length, limits, motors, springs,
//! breaking, and the API's refusals. Each test states the figure it asserts and where it comes
//! from.

mod common;

use common::{ball, cuboid, world_with_gravity};
use std::f32::consts::PI;
use tumble::math::{Real, Vector};
use tumble::narrowphase::shape::{Ball, Capsule};
use tumble::{BodyBuilder, BroadPhaseKind, Event, JointBuilder, World, WorldConfig, WorldError};

const G: Real = 9.81;

fn gravity() -> World {
    world_with_gravity(Vector::new(0.0, -G, 0.0))
}

fn anchor(w: &mut World) -> tumble::BodyHandle {
    w.insert(BodyBuilder::fixed(Ball::new(0.05).unwrap()))
        .unwrap()
}

/// Times of the upward zero crossings of `x(t)` (linear interpolation between steps).
fn upward_crossings(xs: &[Real], dt: Real) -> Vec<Real> {
    let mut out = Vec::new();
    for (i, w) in xs.windows(2).enumerate() {
        if w[0] < 0.0 && w[1] >= 0.0 {
            out.push((i as Real + w[0] / (w[0] - w[1])) * dt);
        }
    }
    out
}

/// A ball of radius r on a massless rod of length L swings with the period of a physical
/// pendulum, `T = 2π·√((L² + 2r²/5)/(g·L))` for small swings (the amplitude correction
/// `1 + θ₀²/16` is 0.05 % at 5°): within 1 %, for a spherical joint and for a revolute one.
#[test]
fn pendulum_period_within_one_percent_of_textbook() {
    let (l, r) = (1.0, 0.05);
    let expected = 2.0 * PI * ((l * l + 0.4 * r * r) / (G * l)).sqrt();
    let theta0: Real = 5.0_f32.to_radians();
    for kind in ["spherical", "revolute", "distance"] {
        let mut w = gravity();
        let pivot = anchor(&mut w);
        let bob = w
            .insert(ball(
                r,
                Vector::new(l * theta0.sin(), -l * theta0.cos(), 0.0),
            ))
            .unwrap();
        let arm = Vector::new(-l * theta0.sin(), l * theta0.cos(), 0.0);
        let jb = match kind {
            "spherical" => JointBuilder::spherical(pivot, bob).local_anchor_b(arm),
            "revolute" => JointBuilder::revolute(pivot, bob)
                .axis(Vector::z())
                .local_anchor_b(arm),
            _ => JointBuilder::distance(pivot, bob),
        };
        w.insert_joint(jb).unwrap();
        let dt = w.config().dt;
        let mut xs = Vec::new();
        for _ in 0..(12.0 / dt) as usize {
            w.step();
            xs.push(w.body(bob).unwrap().translation().x);
        }
        let c = upward_crossings(&xs, dt);
        assert!(
            c.len() >= 4,
            "{kind}: the pendulum does not swing ({} crossings)",
            c.len()
        );
        let period = (c[c.len() - 1] - c[0]) / (c.len() - 1) as Real;
        let err = (period - expected).abs() / expected;
        assert!(
            err < 0.01,
            "{kind}: period {period:.4} s, textbook {expected:.4} s ({:.2} % off)",
            100.0 * err
        );
        w.validate().unwrap();
    }
}

/// A chain of 20 capsule links (0.5 m long, 4.5 g each) released horizontally from a fixed
/// point, after 5 s of swinging: the chain's length within 1 % of 10 m (the joints' gaps add
/// up to less than 10 cm; measured 2.6 cm at the default 60 Hz joint stiffness), and no joint
/// open by more than 2 % of a link (measured 9.2 mm).
#[test]
fn chain_of_twenty_keeps_its_length() {
    let mut w = gravity();
    let top = anchor(&mut w);
    let link = 0.5;
    let capsule = Capsule::new(link * 0.5, 0.05).unwrap();
    let mut prev = top;
    let mut joints = Vec::new();
    for i in 0..20 {
        // Links laid out horizontally, so the chain falls and swings before it hangs.
        let x = (i as Real + 0.5) * link;
        let body = w
            .insert(
                BodyBuilder::dynamic(capsule)
                    .translation(Vector::new(x, 0.0, 0.0))
                    .rotation(tumble::math::Rotation::from_axis_angle(
                        &Vector::z_axis(),
                        PI / 2.0,
                    )),
            )
            .unwrap();
        // The capsule's axis is its local y; after the rotation, local +y points to −x.
        let (anchor_prev, anchor_this) = if i == 0 {
            (Vector::zeros(), Vector::new(0.0, link * 0.5, 0.0))
        } else {
            (
                Vector::new(0.0, -link * 0.5, 0.0),
                Vector::new(0.0, link * 0.5, 0.0),
            )
        };
        joints.push(
            w.insert_joint(
                JointBuilder::spherical(prev, body)
                    .local_anchor_a(anchor_prev)
                    .local_anchor_b(anchor_this),
            )
            .unwrap(),
        );
        prev = body;
    }
    for _ in 0..300 {
        w.step();
    }
    let (mut worst, mut total): (Real, Real) = (0.0, 0.0);
    for (_, j) in w.joints() {
        let pa = w.body(j.body_a()).unwrap().pose() * tumble::math::Point::from(j.local_anchor_a());
        let pb = w.body(j.body_b()).unwrap().pose() * tumble::math::Point::from(j.local_anchor_b());
        let gap = (pb - pa).norm();
        worst = worst.max(gap);
        total += gap;
    }
    assert!(
        worst < 0.02 * link,
        "a joint opened by {worst} m (2 % of a link is {})",
        0.02 * link
    );
    // The chain's length along its links is 10 m plus the joints' gaps.
    assert!(
        total < 0.1,
        "the joints' gaps add up to {total} m, 1 % of the chain is 0.1 m"
    );
    w.validate().unwrap();
}

/// A 2 m bar hinged at one end, horizontal at start, with limits ±30° about z: gravity swings
/// it down onto the lower limit, where it must stay within 1° (after 3 s).
#[test]
fn revolute_limit_holds_within_one_degree() {
    let mut w = gravity();
    let post = anchor(&mut w);
    let bar = w
        .insert(cuboid(Vector::new(1.0, 0.05, 0.05), Vector::new(1.0, 0.0, 0.0)).density(50.0))
        .unwrap();
    let limit = 30.0_f32.to_radians();
    w.insert_joint(
        JointBuilder::revolute(post, bar)
            .axis(Vector::z())
            .local_anchor_b(Vector::new(-1.0, 0.0, 0.0))
            .limits(-limit, limit),
    )
    .unwrap();
    let mut lowest: Real = 0.0;
    for _ in 0..180 {
        w.step();
        let r = w.body(bar).unwrap().rotation();
        let angle = r.scaled_axis().z;
        lowest = lowest.min(angle);
    }
    let angle = w.body(bar).unwrap().rotation().scaled_axis().z;
    assert!(
        (angle + limit).abs() < 1.0_f32.to_radians(),
        "rests at {:.2}°, limit −30°",
        angle.to_degrees()
    );
    assert!(
        lowest > -limit - 1.0_f32.to_radians(),
        "swung to {:.2}°, past the −30° limit by more than 1°",
        lowest.to_degrees()
    );
}

/// A 10 kg box on a vertical slider with translation limits [−0.5, 0.5] m, released at 0:
/// it falls onto the lower limit and stays within 1 mm of it.
#[test]
fn prismatic_limit_holds_within_one_millimetre() {
    let mut w = gravity();
    let rail = anchor(&mut w);
    let block = w
        .insert(cuboid(Vector::new(0.2, 0.2, 0.2), Vector::zeros()).density(10.0 / 0.064))
        .unwrap();
    w.insert_joint(
        JointBuilder::prismatic(rail, block)
            .axis(Vector::y())
            .limits(-0.5, 0.5),
    )
    .unwrap();
    let mut lowest: Real = 0.0;
    for _ in 0..180 {
        w.step();
        lowest = lowest.min(w.body(block).unwrap().translation().y);
    }
    let p = w.body(block).unwrap().translation();
    assert!((p.y + 0.5).abs() < 1e-3, "rests at y = {}, limit −0.5", p.y);
    assert!(
        lowest > -0.501,
        "fell to {lowest}, past the limit by more than 1 mm"
    );
    assert!(p.x.abs() < 1e-3 && p.z.abs() < 1e-3, "left the rail: {p:?}");
}

/// A 1 kg·m²-class wheel on a motorised hinge (target 2 rad/s, 100 N·m available): within
/// 1 % of the target speed after 1 s, turning about the hinge axis only.
#[test]
fn motor_reaches_target_speed_within_one_percent() {
    let mut w = world_with_gravity(Vector::zeros());
    let hub = anchor(&mut w);
    let wheel = w
        .insert(cuboid(Vector::new(0.5, 0.5, 0.1), Vector::zeros()).density(100.0))
        .unwrap();
    w.insert_joint(
        JointBuilder::revolute(hub, wheel)
            .axis(Vector::z())
            .motor(2.0, 100.0),
    )
    .unwrap();
    for _ in 0..60 {
        w.step();
    }
    let wv = w.body(wheel).unwrap().angvel();
    assert!(
        (wv.z - 2.0).abs() < 0.02,
        "angular velocity {wv:?}, target 2 rad/s about z"
    );
    assert!(wv.x.abs() < 1e-3 && wv.y.abs() < 1e-3, "wobbles: {wv:?}");
}

/// A revolute spring (2 Hz, undamped, target 0.2 rad) on a bar released at 0 rad oscillates
/// about its target at close to its natural frequency: a quarter period (0.125 s) after release
/// it is near 0.2 rad (within 0.05 rad), and in 2 s it never swings past 0.4 rad, the far end
/// of an undamped swing (no energy gain; 2 % slack).
#[test]
fn revolute_spring_oscillates_without_gaining_energy() {
    let mut w = world_with_gravity(Vector::zeros());
    let hub = anchor(&mut w);
    let bar = w
        .insert(cuboid(Vector::new(0.5, 0.05, 0.05), Vector::zeros()))
        .unwrap();
    w.insert_joint(
        JointBuilder::revolute(hub, bar)
            .axis(Vector::z())
            .spring(2.0, 0.0, 0.2),
    )
    .unwrap();
    let mut peak: Real = 0.0;
    let mut at_quarter = Real::NAN;
    for i in 0..120 {
        w.step();
        let a = w.body(bar).unwrap().rotation().scaled_axis().z;
        peak = peak.max(a.abs());
        if i == 7 {
            // 8 steps = 0.133 s, about a quarter of the 0.5 s period after release.
            at_quarter = a;
        }
    }
    assert!(
        peak <= 0.4 * 1.02,
        "swung to {peak} rad, the undamped swing ends at 0.4"
    );
    assert!(
        (at_quarter - 0.2).abs() < 0.05,
        "at a quarter period: {at_quarter} rad, spring target 0.2"
    );
}

/// A spherical joint with a 20° cone: a 10 g bar hanging from it, kicked sideways at 5 m/s,
/// never leaves the cone by more than 1°.
#[test]
fn cone_limit_holds_within_one_degree() {
    let mut w = gravity();
    let pivot = anchor(&mut w);
    let bar = w
        .insert(cuboid(
            Vector::new(0.05, 0.5, 0.05),
            Vector::new(0.0, -0.5, 0.0),
        ))
        .unwrap();
    let cone = 20.0_f32.to_radians();
    w.insert_joint(
        JointBuilder::spherical(pivot, bar)
            .axis(-Vector::y())
            .local_anchor_b(Vector::new(0.0, 0.5, 0.0))
            .cone_limit(cone),
    )
    .unwrap();
    w.apply_impulse(bar, Vector::new(0.05, 0.0, 0.015)).unwrap();
    let mut worst: Real = 0.0;
    for _ in 0..180 {
        w.step();
        let down = w.body(bar).unwrap().rotation() * -Vector::y();
        worst = worst.max(down.dot(&-Vector::y()).clamp(-1.0, 1.0).acos());
    }
    assert!(
        worst < cone + 1.0_f32.to_radians(),
        "swung {:.2}° from the axis, cone 20°",
        worst.to_degrees()
    );
}

/// A weld keeps two boxes' relative pose: one hanging from the other, which hangs from a
/// hinge, after 2 s of swinging the relative offset moved less than 2 mm (measured 1.2 mm)
/// and 0.5°.
#[test]
fn fixed_joint_keeps_relative_pose() {
    let mut w = gravity();
    let pivot = anchor(&mut w);
    let upper = w
        .insert(cuboid(
            Vector::new(0.1, 0.5, 0.1),
            Vector::new(0.5, -0.5, 0.0),
        ))
        .unwrap();
    let lower = w
        .insert(cuboid(
            Vector::new(0.3, 0.1, 0.3),
            Vector::new(0.5, -1.1, 0.0),
        ))
        .unwrap();
    w.insert_joint(
        JointBuilder::revolute(pivot, upper)
            .axis(Vector::z())
            .local_anchor_a(Vector::zeros())
            .local_anchor_b(Vector::new(-0.5, 0.5, 0.0)),
    )
    .unwrap();
    w.insert_joint(JointBuilder::fixed(upper, lower).local_anchor_b(Vector::new(0.0, 0.6, 0.0)))
        .unwrap();
    for _ in 0..120 {
        w.step();
    }
    let (pu, pl) = (w.body(upper).unwrap().pose(), w.body(lower).unwrap().pose());
    let rel = pu.inverse() * pl;
    assert!(
        (rel.translation.vector - Vector::new(0.0, -0.6, 0.0)).norm() < 2e-3,
        "relative offset {:?}",
        rel.translation.vector
    );
    assert!(
        rel.rotation.angle() < 0.5_f32.to_radians(),
        "relative turn {} rad",
        rel.rotation.angle()
    );
}

/// A rope of 1 m holds a ball that falls from beside its anchor: it never gets further than
/// 1 % beyond the rope's length, and is free while closer.
#[test]
fn rope_is_free_when_slack_and_holds_when_taut() {
    let mut w = gravity();
    let hook = anchor(&mut w);
    let b = w.insert(ball(0.1, Vector::new(0.3, 0.0, 0.0))).unwrap();
    w.insert_joint(JointBuilder::distance(hook, b).rope(1.0))
        .unwrap();
    // Free fall while slack: after 0.1 s (24 substeps of 1/240 s) a jointed body has fallen the
    // semi-implicit Euler distance ½·g·t²·(1 + 1/24) = 5.11 cm (within 0.1 mm).
    for _ in 0..6 {
        w.step();
    }
    let y = w.body(b).unwrap().translation().y;
    let expected = -0.5 * G * 0.01 * (1.0 + 1.0 / 24.0);
    assert!(
        (y - expected).abs() < 1e-4,
        "fell to {y} while slack, expected {expected}"
    );
    let mut longest: Real = 0.0;
    for _ in 0..240 {
        w.step();
        longest = longest.max(w.body(b).unwrap().translation().norm());
    }
    assert!(longest < 1.01, "rope stretched to {longest} m");
}

/// A joint whose force passes its breaking limit is removed and reported once; its handle is
/// stale from then on. A 10 kg box hanging from a joint rated 50 N (it needs 98 N).
#[test]
fn overloaded_joint_breaks_with_an_event() {
    let mut w = gravity();
    let hook = anchor(&mut w);
    let b = w
        .insert(cuboid(Vector::new(0.1, 0.1, 0.1), Vector::new(0.0, -0.5, 0.0)).density(1250.0))
        .unwrap();
    let j = w
        .insert_joint(JointBuilder::distance(hook, b).break_force(50.0))
        .unwrap();
    let mut broken = 0;
    for _ in 0..10 {
        w.step();
        broken += w
            .events()
            .iter()
            .filter(|e| matches!(e, Event::JointBroken { joint, .. } if *joint == j))
            .count();
    }
    assert_eq!(broken, 1, "one JointBroken event");
    assert!(w.joint(j).is_none(), "the broken joint is gone");
    assert!(matches!(w.remove_joint(j), Err(WorldError::StaleJoint(_))));
    w.validate().unwrap();
}

/// A joint reports the force it applies: a 2 kg ball hanging at rest on a rod pulls with its
/// weight, 19.62 N up on the ball (within 1 %).
#[test]
fn joint_force_equals_the_weight_it_holds() {
    let mut w = gravity();
    let hook = anchor(&mut w);
    let b = w
        .insert(ball(0.1, Vector::new(0.0, -1.0, 0.0)).density(2.0 / (4.0 / 3.0 * PI * 0.001)))
        .unwrap();
    let j = w.insert_joint(JointBuilder::distance(hook, b)).unwrap();
    for _ in 0..120 {
        w.step();
    }
    let m = w.body(b).unwrap().mass();
    let f = w.joint(j).unwrap().force();
    assert!(
        (f.y - m * G).abs() < 0.01 * m * G,
        "force {f:?}, weight {}",
        m * G
    );
}

/// Removing a body removes its joints and returns their handles; bodies kept apart by a joint
/// (`collide_connected` false) get no contact even when they overlap, and do when allowed.
#[test]
fn removing_a_body_removes_its_joints_and_connected_bodies_do_not_collide() {
    for collide in [false, true] {
        let mut w = world_with_gravity(Vector::zeros());
        let a = w
            .insert(cuboid(Vector::new(0.5, 0.5, 0.5), Vector::zeros()))
            .unwrap();
        let b = w
            .insert(cuboid(
                Vector::new(0.5, 0.5, 0.5),
                Vector::new(0.9, 0.0, 0.0),
            ))
            .unwrap();
        let j = w
            .insert_joint(JointBuilder::spherical(a, b).collide_connected(collide))
            .unwrap();
        w.step();
        assert_eq!(
            w.contact_pair_count() > 0,
            collide,
            "collide_connected {collide}"
        );
        assert_eq!(w.remove(a).unwrap(), vec![j]);
        assert!(w.joint(j).is_none());
        assert_eq!(w.joint_count(), 0);
        w.validate().unwrap();
    }
}

/// Every bad joint description is refused with a typed error, and nothing changes.
#[test]
fn bad_joints_are_refused_with_typed_errors() {
    let mut w = gravity();
    let s = anchor(&mut w);
    let d = w.insert(ball(0.1, Vector::new(1.0, 0.0, 0.0))).unwrap();
    let s2 = w
        .insert(BodyBuilder::fixed(Ball::new(0.1).unwrap()))
        .unwrap();
    let gone = w.insert(ball(0.1, Vector::new(3.0, 0.0, 0.0))).unwrap();
    w.remove(gone).unwrap();
    let nan = Real::NAN;
    let cases: Vec<(&str, JointBuilder)> = vec![
        ("same body", JointBuilder::spherical(d, d)),
        ("two static bodies", JointBuilder::spherical(s, s2)),
        ("stale body", JointBuilder::spherical(s, gone)),
        (
            "zero axis",
            JointBuilder::revolute(s, d).axis(Vector::zeros()),
        ),
        (
            "NaN anchor",
            JointBuilder::spherical(s, d).local_anchor_a(Vector::new(nan, 0.0, 0.0)),
        ),
        (
            "reversed limits",
            JointBuilder::revolute(s, d).limits(1.0, -1.0),
        ),
        (
            "limit beyond pi",
            JointBuilder::revolute(s, d).limits(-4.0, 0.0),
        ),
        (
            "negative motor force",
            JointBuilder::revolute(s, d).motor(1.0, -1.0),
        ),
        (
            "zero spring",
            JointBuilder::revolute(s, d).spring(0.0, 1.0, 0.0),
        ),
        (
            "cone beyond pi",
            JointBuilder::spherical(s, d).cone_limit(4.0),
        ),
        ("negative length", JointBuilder::distance(s, d).length(-1.0)),
        (
            "min above max",
            JointBuilder::distance(s, d).length_range(2.0, 1.0),
        ),
        (
            "zero break force",
            JointBuilder::distance(s, d).break_force(0.0),
        ),
        (
            "NaN prismatic limit",
            JointBuilder::prismatic(s, d).limits(nan, 1.0),
        ),
    ];
    let before = w.state_hash();
    for (what, jb) in cases {
        let e = w.insert_joint(jb).expect_err(what);
        assert!(
            matches!(
                e,
                WorldError::Joint(_)
                    | WorldError::NonFinite(_)
                    | WorldError::NonPositive(..)
                    | WorldError::Negative(..)
                    | WorldError::StaleHandle(_)
            ),
            "{what}: {e:?}"
        );
        assert!(!e.to_string().is_empty());
    }
    assert_eq!(w.joint_count(), 0);
    assert_eq!(w.state_hash(), before);
    w.validate().unwrap();
}

/// A world with joints restores from a snapshot and steps on bit-identically.
#[cfg(feature = "serde")]
#[test]
fn snapshot_with_joints_steps_on_identically() {
    let mut w = gravity();
    let top = anchor(&mut w);
    let mut prev = top;
    for i in 0..5 {
        let b = w
            .insert(ball(0.1, Vector::new(0.5 * (i + 1) as Real, 0.0, 0.0)))
            .unwrap();
        w.insert_joint(
            JointBuilder::spherical(prev, b)
                .local_anchor_b(Vector::new(-0.25, 0.0, 0.0))
                .local_anchor_a(if i == 0 {
                    Vector::zeros()
                } else {
                    Vector::new(0.25, 0.0, 0.0)
                }),
        )
        .unwrap();
        prev = b;
    }
    for _ in 0..30 {
        w.step();
    }
    let mut r = World::restore(&w.snapshot()).unwrap();
    for _ in 0..60 {
        w.step();
        r.step();
    }
    assert_eq!(w.state_hash(), r.state_hash());
    assert_eq!(r.joint_count(), 5);
    r.validate().unwrap();
}

/// A 12 × 12 net of balls hanging from a fixed row (the `joint_grid` scene in small), its
/// corner kicked so that it swings into itself; with `collide_connected` left false, only
/// neighbours that no joint links collide.
fn joint_net(broad_phase: BroadPhaseKind) -> World {
    let mut w = World::new(WorldConfig {
        broad_phase,
        ..WorldConfig::default()
    })
    .unwrap();
    let s = 12;
    let mut h = Vec::new();
    for j in 0..s {
        for i in 0..s {
            let shape = Ball::new(0.25).unwrap();
            let at = Vector::new(i as Real, 100.0 - j as Real, 0.0);
            let b = if j == 0 {
                BodyBuilder::fixed(shape)
            } else {
                BodyBuilder::dynamic(shape)
            };
            h.push(w.insert(b.translation(at)).unwrap());
        }
    }
    for j in 0..s {
        for i in 0..s {
            let me = h[j * s + i];
            if j >= 1 && i + 1 < s {
                w.insert_joint(
                    JointBuilder::spherical(me, h[j * s + i + 1])
                        .local_anchor_a(Vector::new(0.5, 0.0, 0.0))
                        .local_anchor_b(Vector::new(-0.5, 0.0, 0.0)),
                )
                .unwrap();
            }
            if j + 1 < s {
                w.insert_joint(
                    JointBuilder::spherical(me, h[(j + 1) * s + i])
                        .local_anchor_a(Vector::new(0.0, -0.5, 0.0))
                        .local_anchor_b(Vector::new(0.0, 0.5, 0.0)),
                )
                .unwrap();
            }
        }
    }
    w.apply_impulse(h[s * s - 1], Vector::new(0.0, 0.0, 0.3))
        .unwrap();
    w.apply_impulse(h[s * s - s], Vector::new(0.5, 0.0, -0.3))
        .unwrap();
    for _ in 0..120 {
        w.step();
    }
    w.validate().unwrap();
    w
}

/// Joints give the same result bit for bit on one thread and on two (253 joints: enough for
/// the joint colours to run as parallel stages).
#[test]
fn joint_net_is_identical_across_thread_counts() {
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| joint_net(BroadPhaseKind::default()).state_hash())
    };
    assert_eq!(run(1), run(2));
}

/// Joints give the same result bit for bit with every broad phase.
#[test]
fn joint_net_is_identical_across_broad_phases() {
    let reference = joint_net(BroadPhaseKind::BruteForce).state_hash();
    for kind in [
        BroadPhaseKind::Grid,
        BroadPhaseKind::SweepAndPrune,
        BroadPhaseKind::Bvh,
    ] {
        assert_eq!(joint_net(kind).state_hash(), reference, "{kind:?}");
    }
}

/// A slow pendulum (5° swing, 0.27 m/s at the bottom) never falls asleep while it swings —
/// not even at the ends of its swings, where it stays within 2.5 cm for half a second — and a
/// jointed pendulum hanging at rest falls asleep within 1 s and wakes when its joint is
/// removed.
#[test]
fn swinging_pendulum_stays_awake_and_resting_one_sleeps() {
    let mut w = gravity();
    let pivot = anchor(&mut w);
    let t: Real = 5.0_f32.to_radians();
    let bob = w
        .insert(ball(0.05, Vector::new(t.sin(), -t.cos(), 0.0)))
        .unwrap();
    w.insert_joint(
        JointBuilder::spherical(pivot, bob).local_anchor_b(Vector::new(-t.sin(), t.cos(), 0.0)),
    )
    .unwrap();
    for i in 0..600 {
        w.step();
        assert!(
            !w.body(bob).unwrap().is_sleeping(),
            "asleep mid-swing at step {i}"
        );
    }
    let mut w = gravity();
    let pivot = anchor(&mut w);
    let bob = w.insert(ball(0.05, Vector::new(0.0, -1.0, 0.0))).unwrap();
    let j = w.insert_joint(JointBuilder::spherical(pivot, bob)).unwrap();
    let mut asleep_at = None;
    for i in 0..60 {
        w.step();
        if asleep_at.is_none() && w.body(bob).unwrap().is_sleeping() {
            asleep_at = Some(i);
        }
    }
    assert!(asleep_at.is_some(), "a pendulum at rest never fell asleep");
    w.remove_joint(j).unwrap();
    assert!(
        !w.body(bob).unwrap().is_sleeping(),
        "removing its joint wakes the bob"
    );
    for _ in 0..30 {
        w.step();
    }
    assert!(
        w.body(bob).unwrap().translation().y < -1.1,
        "the freed bob falls"
    );
    w.validate().unwrap();
}
