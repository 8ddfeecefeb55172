//! Joint graphs built, stepped and torn down from arbitrary commands.
//!
//! [`check_joint_graph`]: a small world of a few bodies (any kind, poses near each other so the
//! joints pull against contacts) takes up to 48 commands — insert a body, insert a joint of any
//! kind between any two handles (live, removed, or the same one twice) with any anchors, axis,
//! limits, motor, spring, cone, twist, lengths and breaking limits (numbers sometimes NaN,
//! infinite, huge, zero, negative or out of order), remove a body or a joint (live or stale),
//! step, snapshot and restore. The oracles:
//!
//! - no call panics; after every command `World::validate` passes and every body's pose is
//!   finite;
//! - a joint description whose numbers are all valid is accepted exactly when its handles name
//!   two different live bodies, one of them dynamic, and otherwise refused with the matching
//!   error (`StaleHandle` naming the first stale body, else `Joint`); any refused insert
//!   returns one of the errors a joint can raise and leaves the world byte-for-byte unchanged
//!   (same snapshot);
//! - an accepted joint is live at once with the bodies and anchors it was given;
//! - `remove_joint` succeeds exactly on a live joint; `remove` of a live body returns exactly
//!   the joints that named it, in handle order, all stale afterwards; stale handles are refused;
//! - a joint reported broken by a step is stale after it;
//! - a snapshot restores to the same state and joints, and both copies step on identically.

use super::input::{pose, real_in};
use super::shapes::any_real;
use arbitrary::{Arbitrary, Result, Unstructured};
use std::f32::consts::PI;
use tumble::math::{Real, Vector};
use tumble::{
    Ball, BodyBuilder, BodyHandle, BodyKind, BroadPhaseKind, Capsule, Cuboid, Event, JointBuilder,
    JointHandle, Shape, World, WorldConfig, WorldError,
};

/// Fuzz entry: arbitrary joint commands on one small world (see the module docs for what is
/// checked).
pub fn check_joint_graph(data: &[u8]) {
    check_joint_graph_relaxed(data, WorldConfig::default().relax_iterations);
}

/// [`check_joint_graph`] with `relax_iterations` relaxation passes per substep (the same
/// commands from the same bytes).
pub fn check_joint_graph_relaxed(data: &[u8], relax_iterations: u32) {
    let mut u = Unstructured::new(data);
    let _ = run(&mut u, relax_iterations);
}

fn must_validate(w: &World, after: &str) {
    if let Err(e) = w.validate() {
        panic!("World::validate after {after}: {e}");
    }
    for (h, b) in w.bodies() {
        let p = b.pose();
        assert!(
            p.translation.vector.iter().all(|x| x.is_finite())
                && p.rotation.coords.iter().all(|x| x.is_finite()),
            "body {h:?} has a non-finite pose after {after}: {p:?}"
        );
    }
}

/// A body of a random kind, a small shape, near the origin (so bodies overlap and collide).
fn body(u: &mut Unstructured<'_>) -> Result<BodyBuilder> {
    let size = |u: &mut Unstructured<'_>| real_in(u, 0.1, 1.0, false);
    let shape: Shape = match u.int_in_range(0u8..=2)? {
        0 => Ball::new(size(u)?).expect("ball").into(),
        1 => Cuboid::new(Vector::new(size(u)?, size(u)?, size(u)?))
            .expect("cuboid")
            .into(),
        _ => Capsule::new(size(u)?, size(u)?).expect("capsule").into(),
    };
    let grid = bool::arbitrary(u)?;
    let p = pose(u, 3.0, grid)?;
    let b = match u.int_in_range(0u8..=5)? {
        0 => BodyBuilder::fixed(shape),
        1 => BodyBuilder::kinematic(shape).linvel(Vector::new(
            real_in(u, -1.0, 1.0, false)?,
            0.0,
            0.0,
        )),
        _ => BodyBuilder::dynamic(shape),
    };
    // Densities over six orders of magnitude: joints between very unequal masses.
    let density = *u.choose(&[1.0, 1.0, 1e-3, 1e3])?;
    Ok(b.pose(p).density(density))
}

/// A number for a joint parameter: in `[lo, hi]` when `clean`, else usually moderate (and then
/// possibly out of range or order), sometimes anything at all (NaN, ±∞, huge, tiny).
fn value(u: &mut Unstructured<'_>, clean: bool, lo: Real, hi: Real) -> Result<Real> {
    if clean {
        real_in(u, lo, hi, false)
    } else if u.ratio(1u8, 4u8)? {
        any_real(u)
    } else {
        let grid = bool::arbitrary(u)?;
        real_in(u, -10.0, 10.0, grid)
    }
}

fn vector(u: &mut Unstructured<'_>, clean: bool, r: Real) -> Result<Vector> {
    Ok(Vector::new(
        value(u, clean, -r, r)?,
        value(u, clean, -r, r)?,
        value(u, clean, -r, r)?,
    ))
}

/// Two numbers in `[lo, hi]`, ordered when `clean`.
fn range(u: &mut Unstructured<'_>, clean: bool, lo: Real, hi: Real) -> Result<(Real, Real)> {
    let (a, b) = (value(u, clean, lo, hi)?, value(u, clean, lo, hi)?);
    Ok(if clean { (a.min(b), a.max(b)) } else { (a, b) })
}

/// A joint description between `a` and `b` of a random kind with random modifiers; with
/// `clean`, every number is valid (anchors within 2 m, an axis of length ≥ 0.1, ordered limits
/// within their ranges, non-negative motor forces, positive spring frequencies and breaking
/// limits), so that only the handles can make it refused.
fn joint(
    u: &mut Unstructured<'_>,
    a: BodyHandle,
    b: BodyHandle,
    clean: bool,
) -> Result<JointBuilder> {
    let mut j = match u.int_in_range(0u8..=4)? {
        0 => JointBuilder::fixed(a, b),
        1 => JointBuilder::revolute(a, b),
        2 => JointBuilder::prismatic(a, b),
        3 => JointBuilder::spherical(a, b),
        _ => JointBuilder::distance(a, b),
    };
    for _ in 0..u.int_in_range(0u8..=6)? {
        j = match u.int_in_range(0u8..=13)? {
            0 => j.local_anchor_a(vector(u, clean, 2.0)?),
            1 => j.local_anchor_b(vector(u, clean, 2.0)?),
            2 => {
                let mut axis = if clean {
                    vector(u, true, 1.0)?
                } else {
                    *u.choose(&[
                        Vector::zeros(),
                        Vector::new(Real::NAN, 0.0, 0.0),
                        Vector::new(1e-30, 0.0, 0.0),
                        Vector::new(Real::MAX, Real::MAX, 0.0),
                        Vector::y(),
                    ])?
                };
                if clean && axis.norm() < 0.1 {
                    axis = Vector::x();
                }
                j.axis(axis)
            }
            3 => {
                let (lo, hi) = range(u, clean, -PI + 0.01, PI - 0.01)?;
                j.limits(lo, hi)
            }
            4 => j.motor(value(u, clean, -5.0, 5.0)?, value(u, clean, 0.0, 100.0)?),
            5 => j.spring(
                value(u, clean, 0.5, 20.0)?,
                value(u, clean, 0.0, 2.0)?,
                value(u, clean, -1.0, 1.0)?,
            ),
            6 => j.cone_limit(value(u, clean, 0.0, PI - 0.01)?),
            7 => {
                let (lo, hi) = range(u, clean, -PI + 0.01, PI - 0.01)?;
                j.twist_limits(lo, hi)
            }
            8 => j.rope(value(u, clean, 0.0, 5.0)?),
            9 => j.length(value(u, clean, 0.0, 5.0)?),
            10 => {
                let (lo, hi) = range(u, clean, 0.0, 5.0)?;
                j.length_range(lo, hi)
            }
            11 => j.collide_connected(bool::arbitrary(u)?),
            12 => j.break_force(value(u, clean, 0.1, 1e4)?),
            _ => j.break_torque(value(u, clean, 0.1, 1e4)?),
        };
    }
    Ok(j)
}

/// A handle from `all` (live or removed), or None when there is none.
fn pick<T: Copy>(u: &mut Unstructured<'_>, all: &[T]) -> Result<Option<T>> {
    Ok(if all.is_empty() {
        None
    } else {
        Some(all[u.choose_index(all.len())?])
    })
}

/// Steps once and checks that every joint reported broken is gone, and, when every joint ever
/// accepted had valid, moderate numbers (`clean`), that no body was frozen (a body is frozen
/// only when its state stopped being finite).
fn step_checked(w: &mut World, clean: bool) {
    let report = w.step();
    assert!(
        !clean || report.frozen.is_empty(),
        "a step froze bodies {:?} (their state was no longer finite) with only valid, moderate \
         joints: {:?}",
        report.frozen,
        w.joints().map(|(_, j)| *j.kind()).collect::<Vec<_>>()
    );
    let broken: Vec<JointHandle> = w
        .events()
        .iter()
        .filter_map(|e| match e {
            Event::JointBroken { joint, .. } => Some(*joint),
            _ => None,
        })
        .collect();
    for j in broken {
        assert!(
            w.joint(j).is_none(),
            "a joint reported broken is still live"
        );
    }
    must_validate(w, "step");
}

/// The joints naming body `h`, in handle order.
fn joints_of(w: &World, h: BodyHandle) -> Vec<JointHandle> {
    w.joints()
        .filter(|(_, j)| j.body_a() == h || j.body_b() == h)
        .map(|(jh, _)| jh)
        .collect()
}

fn insert_joint_checked(
    w: &mut World,
    u: &mut Unstructured<'_>,
    bodies: &[BodyHandle],
    joints: &mut Vec<JointHandle>,
    clean_world: &mut bool,
) -> Result<()> {
    let (Some(a), Some(mut b)) = (pick(u, bodies)?, pick(u, bodies)?) else {
        return Ok(());
    };
    if u.ratio(1u8, 8u8)? {
        b = a;
    }
    let clean = bool::arbitrary(u)?;
    let builder = joint(u, a, b, clean)?;
    let description = format!("{builder:?}");
    let before = w.snapshot();
    let count = w.joint_count();
    let live = |h: BodyHandle| w.body(h);
    let expected: std::result::Result<(), WorldError> = match (live(a), live(b)) {
        (None, _) => Err(WorldError::StaleHandle(a)),
        (_, None) => Err(WorldError::StaleHandle(b)),
        _ if a == b => Err(WorldError::Joint("")),
        (Some(x), Some(y)) if x.kind() != BodyKind::Dynamic && y.kind() != BodyKind::Dynamic => {
            Err(WorldError::Joint(""))
        }
        _ => Ok(()),
    };
    match w.insert_joint(builder) {
        Ok(h) => {
            assert!(
                expected.is_ok(),
                "accepted a joint that should be refused ({expected:?}): {description}"
            );
            let view = w.joint(h).expect("an accepted joint is not live");
            assert_eq!((view.body_a(), view.body_b()), (a, b));
            assert_eq!(w.joint_count(), count + 1);
            joints.push(h);
            *clean_world &= clean;
        }
        Err(e) => {
            assert!(
                matches!(
                    e,
                    WorldError::StaleHandle(_)
                        | WorldError::Joint(_)
                        | WorldError::NonFinite(_)
                        | WorldError::NonPositive(..)
                        | WorldError::Negative(..)
                        | WorldError::OutOfRange { .. }
                ),
                "unexpected error kind for a joint: {e:?}"
            );
            assert!(!e.to_string().is_empty());
            if clean {
                match (&expected, &e) {
                    (Err(WorldError::StaleHandle(x)), WorldError::StaleHandle(y)) => {
                        assert_eq!(x, y, "the stale handle named is not the first stale one")
                    }
                    (Err(WorldError::Joint(_)), WorldError::Joint(_)) => {}
                    _ => panic!(
                        "valid joint numbers refused with {e:?} (expected {expected:?}): \
                         {description}"
                    ),
                }
            }
            assert_eq!(w.joint_count(), count, "a refused joint changed the count");
            assert!(
                w.snapshot() == before,
                "a refused joint changed the world: {e:?}"
            );
        }
    }
    Ok(())
}

fn run(u: &mut Unstructured<'_>, relax_iterations: u32) -> Result<()> {
    let config = WorldConfig {
        broad_phase: *u.choose(&[
            BroadPhaseKind::BruteForce,
            BroadPhaseKind::Grid,
            BroadPhaseKind::SweepAndPrune,
            BroadPhaseKind::Bvh,
        ])?,
        substeps: u.int_in_range(1u32..=4)?,
        relax_iterations,
        gravity: Vector::new(0.0, -real_in(u, 0.0, 20.0, true)?, 0.0),
        ..WorldConfig::default()
    };
    let mut w = World::new(config).expect("configuration refused");
    // Every handle ever made, live or removed: stale ones are picked as often as live ones.
    let mut bodies: Vec<BodyHandle> = Vec::new();
    let mut joints: Vec<JointHandle> = Vec::new();
    for _ in 0..u.int_in_range(2u8..=6)? {
        let b = body(u)?;
        bodies.push(w.insert(b).expect("a moderate body was refused"));
    }
    must_validate(&w, "the first bodies");
    let mut steps = 0;
    // Whether every joint accepted so far had valid, moderate numbers.
    let mut clean = true;
    for _ in 0..48 {
        if u.is_empty() {
            break;
        }
        match u.int_in_range(0u8..=11)? {
            0 => {
                if bodies.len() < 12 {
                    let b = body(u)?;
                    bodies.push(w.insert(b).expect("a moderate body was refused"));
                }
            }
            1..=4 => insert_joint_checked(&mut w, u, &bodies, &mut joints, &mut clean)?,
            5 => {
                if let Some(h) = pick(u, &bodies)? {
                    let attached = joints_of(&w, h);
                    match w.remove(h) {
                        Ok(gone) => {
                            assert_eq!(gone, attached, "remove returned other joints");
                            for j in gone {
                                assert!(w.joint(j).is_none(), "a removed body's joint lives");
                            }
                        }
                        Err(e) => {
                            assert!(attached.is_empty());
                            assert_eq!(e, WorldError::StaleHandle(h));
                        }
                    }
                }
            }
            6 => {
                if let Some(j) = pick(u, &joints)? {
                    let live = w.joint(j).is_some();
                    match w.remove_joint(j) {
                        Ok(()) => {
                            assert!(live, "a stale joint was removed");
                            assert!(w.joint(j).is_none(), "a removed joint lives");
                        }
                        Err(e) => {
                            assert!(!live, "a live joint was not removed: {e}");
                            assert_eq!(e, WorldError::StaleJoint(j));
                        }
                    }
                }
            }
            7 => {
                let copy =
                    World::restore(&w.snapshot()).expect("a fresh snapshot does not restore");
                must_validate(&copy, "restore");
                assert_eq!(
                    copy.state_hash(),
                    w.state_hash(),
                    "restore changed the state"
                );
                let live: Vec<JointHandle> = w.joints().map(|(h, _)| h).collect();
                let restored: Vec<JointHandle> = copy.joints().map(|(h, _)| h).collect();
                assert_eq!(live, restored, "restore changed the joints");
                let mut copy = copy;
                if steps < 40 {
                    step_checked(&mut copy, clean);
                    step_checked(&mut w, clean);
                    steps += 1;
                    assert_eq!(
                        copy.state_hash(),
                        w.state_hash(),
                        "a restored world steps differently"
                    );
                }
                w = copy;
            }
            8 => {
                if let Some(h) = pick(u, &bodies)? {
                    let p = pose(u, 3.0, false)?;
                    let r = w.set_pose(h, p);
                    assert_eq!(r.is_ok(), w.contains(h), "set_pose: {r:?}");
                }
            }
            _ => {
                for _ in 0..u.int_in_range(1u8..=3)? {
                    if steps < 40 {
                        step_checked(&mut w, clean);
                        steps += 1;
                    }
                }
            }
        }
        must_validate(&w, "a command");
    }
    for _ in 0..3 {
        step_checked(&mut w, clean);
    }
    Ok(())
}
