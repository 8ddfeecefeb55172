//! Bad input is refused with an error naming the problem; non-finite values arising inside a
//! step freeze the body they reach; the world survives mass insertion and removal.

mod common;
use common::*;
use tumble::math::{Isometry, Real, Vector};
use tumble::narrowphase::shape::{Ball, Cuboid};
use tumble::{BodyBuilder, BodyHandle, World, WorldConfig, WorldError};

fn unit_ball() -> Ball {
    Ball::new(0.5).unwrap()
}

#[test]
fn builders_and_setters_validate() {
    let mut w = world_with_gravity(Vector::new(0.0, -9.81, 0.0));
    let nan = Real::NAN;
    let bad = [
        (
            BodyBuilder::dynamic(unit_ball()).translation(Vector::new(nan, 0.0, 0.0)),
            "pose",
        ),
        (
            BodyBuilder::dynamic(unit_ball()).linvel(Vector::new(0.0, Real::INFINITY, 0.0)),
            "velocity",
        ),
        (
            BodyBuilder::dynamic(unit_ball()).angvel(Vector::new(0.0, nan, 0.0)),
            "angular",
        ),
        (BodyBuilder::dynamic(unit_ball()).density(0.0), "density"),
        (BodyBuilder::dynamic(unit_ball()).density(-1.0), "density"),
        (
            BodyBuilder::dynamic(unit_ball()).restitution(1.5),
            "restitution",
        ),
        (
            BodyBuilder::dynamic(unit_ball()).restitution(-0.1),
            "restitution",
        ),
        (BodyBuilder::dynamic(unit_ball()).friction(-0.1), "friction"),
        (
            BodyBuilder::dynamic(unit_ball()).translation(Vector::new(1e30, 0.0, 0.0)),
            "MAX_COORDINATE",
        ),
    ];
    for (b, what) in bad {
        let e = w.insert(b).unwrap_err();
        assert!(e.to_string().contains(what), "{e} should name {what}");
    }
    assert!(Ball::new(-1.0).is_err() && Cuboid::new(Vector::new(1.0, 0.0, 1.0)).is_err());
    // Static bodies need no density.
    w.insert(
        BodyBuilder::fixed(unit_ball())
            .density(0.0)
            .translation(Vector::new(5.0, 0.0, 0.0)),
    )
    .unwrap_err();
    let h = w.insert(BodyBuilder::dynamic(unit_ball())).unwrap();
    let v_nan = Vector::new(nan, 0.0, 0.0);
    assert!(matches!(
        w.set_linvel(h, v_nan),
        Err(WorldError::NonFinite(_))
    ));
    assert!(matches!(
        w.set_angvel(h, v_nan),
        Err(WorldError::NonFinite(_))
    ));
    assert!(matches!(
        w.apply_force(h, v_nan),
        Err(WorldError::NonFinite(_))
    ));
    assert!(matches!(
        w.apply_impulse(h, v_nan),
        Err(WorldError::NonFinite(_))
    ));
    assert!(w.set_translation(h, v_nan).is_err());
    assert!(w.set_pose(h, Isometry::translation(nan, 0.0, 0.0)).is_err());
    w.remove(h).unwrap();
    for r in [
        w.set_linvel(h, Vector::zeros()),
        w.apply_force(h, Vector::zeros()),
        w.remove(h).map(|_| ()),
    ] {
        assert!(matches!(r, Err(WorldError::StaleHandle(_))), "{r:?}");
    }
    assert!(w.body(h).is_none() && w.render_pose(h).is_none());
    assert!(w.body(BodyHandle::invalid()).is_none());
    let s = w.insert(BodyBuilder::fixed(unit_ball())).unwrap();
    assert!(matches!(
        w.apply_force(s, Vector::x()),
        Err(WorldError::NotDynamic(_))
    ));
    for cfg in [
        WorldConfig {
            dt: 0.0,
            ..WorldConfig::default()
        },
        WorldConfig {
            gravity: Vector::new(0.0, nan, 0.0),
            ..WorldConfig::default()
        },
        WorldConfig {
            max_frame_time: -1.0,
            ..WorldConfig::default()
        },
        WorldConfig {
            solver_iterations: 0,
            ..WorldConfig::default()
        },
    ] {
        assert!(World::new(cfg).is_err());
    }
    w.validate().unwrap();
}

/// An enormous force on one body makes its velocity infinite inside a step: that body is
/// frozen and reported, the others step on.
#[test]
fn non_finite_body_is_frozen_and_reported() {
    let mut w = world_with_gravity(Vector::new(0.0, -9.81, 0.0));
    add_floor(&mut w, 0.5, 0.0);
    let victim = w
        .insert(ball(0.5, Vector::new(0.0, 3.0, 0.0)).density(1e-3))
        .unwrap();
    let other = w.insert(ball(0.5, Vector::new(3.0, 3.0, 0.0))).unwrap();
    for _ in 0..10 {
        assert!(w.step().frozen.is_empty());
    }
    w.apply_force(victim, Vector::new(0.0, Real::MAX, 0.0))
        .unwrap();
    let r = w.step();
    assert_eq!(r.frozen, vec![victim]);
    let v = w.body(victim).unwrap();
    assert!(v.is_frozen() && v.linvel() == Vector::zeros());
    let y_before = w.body(other).unwrap().translation().y;
    for _ in 0..10 {
        assert!(w.step().frozen.is_empty());
    }
    assert!(
        w.body(other).unwrap().translation().y < y_before,
        "the other body keeps falling"
    );
    w.validate().unwrap();
    w.unfreeze(victim).unwrap();
    w.step();
    assert!(!w.body(victim).unwrap().is_frozen());
    w.validate().unwrap();
}

#[test]
fn mass_insert_and_remove() {
    let mut w = world_with_gravity(Vector::new(0.0, -9.81, 0.0));
    add_floor(&mut w, 0.5, 0.0);
    let mut hs = Vec::new();
    for i in 0..3000 {
        let (x, y, z) = ((i % 15) as Real, (i / 225) as Real, ((i / 15) % 15) as Real);
        hs.push(
            w.insert(ball(
                0.4,
                Vector::new(0.78 * x - 5.0, 1.0 + 0.78 * y, 0.78 * z - 5.0),
            ))
            .unwrap(),
        );
    }
    for _ in 0..5 {
        w.step();
    }
    w.validate().unwrap();
    // Remove every third body mid-run, step, re-insert some.
    for h in hs.iter().step_by(3) {
        w.remove(*h).unwrap();
    }
    w.step();
    w.validate().unwrap();
    // Contacts of removed bodies end with a ContactStopped naming the removed handle.
    assert!(w.events().iter().any(|e| matches!(e, tumble::Event::ContactStopped { a, b } if !w.contains(*a) || !w.contains(*b))));
    for i in 0..500 {
        w.insert(ball(0.3, Vector::new(0.0, 20.0 + i as Real, 0.0)))
            .unwrap();
    }
    w.step();
    w.validate().unwrap();
    let all: Vec<_> = w.bodies().map(|(h, _)| h).collect();
    for h in all {
        w.remove(h).unwrap();
    }
    assert!(w.is_empty());
    w.step();
    w.advance(0.05).unwrap();
    w.validate().unwrap();
    let h = w.insert(ball(0.5, Vector::zeros())).unwrap();
    w.step();
    assert!(w.contains(h));
    w.validate().unwrap();
}
