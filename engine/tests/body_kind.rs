//! Changing a body's kind after insert (`World::set_body_kind`): a static box made dynamic
//! falls as a free body does, a dynamic body made static stops and holds what rests on it, one
//! made kinematic moves on at its velocity, and refused changes change nothing.

mod common;
use common::*;
use tumble::math::{Point, Vector};
use tumble::{BodyBuilder, BodyKind, JointBuilder, TriMesh, World, WorldConfig, WorldError};

/// A static box 10 m up, made dynamic, falls 1 s: its drop is the sub-stepped free fall
/// `g·dt²·(n(n+1)/2)` summed over the substeps' symplectic Euler updates, ½gt² = 4.905 m
/// within 1 %.
#[test]
fn static_body_made_dynamic_falls_freely() {
    let mut w = World::new(WorldConfig::default()).unwrap();
    let b = w
        .insert(
            BodyBuilder::fixed(tumble::Cuboid::new(Vector::new(0.5, 0.5, 0.5)).unwrap())
                .translation(Vector::new(0.0, 10.0, 0.0)),
        )
        .unwrap();
    for _ in 0..30 {
        w.step();
    }
    assert_eq!(w.body(b).unwrap().translation().y, 10.0, "static stays");
    w.set_body_kind(b, BodyKind::Dynamic).unwrap();
    assert_eq!(w.body(b).unwrap().kind(), BodyKind::Dynamic);
    assert!(
        (w.body(b).unwrap().mass() - 1.0).abs() < 1e-6,
        "unit cube, density 1"
    );
    for _ in 0..60 {
        w.step();
    }
    let drop = 10.0 - w.body(b).unwrap().translation().y;
    assert!((drop - 4.905).abs() < 0.05, "fell {drop} m in 1 s");
    w.validate().unwrap();
}

/// A ball falling onto a dynamic box on the floor; the box made static first: it stops at
/// once (velocity zero, pose unchanged to the bit over 2 s) and the ball comes to rest on it.
#[test]
fn dynamic_body_made_static_stops_and_holds() {
    let mut w = World::new(WorldConfig::default()).unwrap();
    add_floor(&mut w, 0.5, 0.0);
    let boxed = w
        .insert(
            cuboid(Vector::new(0.5, 0.5, 0.5), Vector::new(0.0, 3.0, 0.0))
                .linvel(Vector::new(1.0, 0.0, 0.0)),
        )
        .unwrap();
    for _ in 0..10 {
        w.step();
    }
    w.set_body_kind(boxed, BodyKind::Static).unwrap();
    let held = w.body(boxed).unwrap().pose();
    assert_eq!(w.body(boxed).unwrap().linvel(), Vector::zeros());
    let top = held.translation.vector.y + 0.5;
    let ball = w
        .insert(
            tumble::BodyBuilder::dynamic(tumble::Ball::new(0.25).unwrap())
                .translation(held.translation.vector + Vector::new(0.0, 1.5, 0.0)),
        )
        .unwrap();
    for _ in 0..120 {
        w.step();
    }
    assert_eq!(
        w.body(boxed).unwrap().pose(),
        held,
        "the static box never moved"
    );
    let y = w.body(ball).unwrap().translation().y;
    assert!(
        (y - (top + 0.25)).abs() < 0.01,
        "ball rests on the box at {y}, top {top}"
    );
    w.validate().unwrap();
}

/// A dynamic ball moving sideways at 2 m/s, made kinematic: it keeps its velocity, no longer
/// falls, and after 1 s is 2 m further along, to 10⁻⁴ m.
#[test]
fn dynamic_body_made_kinematic_moves_on_at_its_velocity() {
    let mut w = World::new(WorldConfig::default()).unwrap();
    let b = w
        .insert(ball(0.5, Vector::new(0.0, 5.0, 0.0)).linvel(Vector::new(2.0, 0.0, 0.0)))
        .unwrap();
    w.set_body_kind(b, BodyKind::Kinematic).unwrap();
    for _ in 0..60 {
        w.step();
    }
    let p = w.body(b).unwrap().translation();
    assert!((p.x - 2.0).abs() < 1e-4 && p.y == 5.0, "at {p:?}");
    assert_eq!(w.body(b).unwrap().mass(), 0.0);
    w.validate().unwrap();
}

/// Refused changes change nothing: a mesh made dynamic, the only dynamic body of a joint made
/// static, a stale handle.
#[test]
fn refused_kind_changes_change_nothing() {
    let mut w = World::new(WorldConfig::default()).unwrap();
    let mesh = TriMesh::new(
        &[
            Point::new(-5.0, 0.0, -5.0),
            Point::new(5.0, 0.0, -5.0),
            Point::new(0.0, 0.0, 5.0),
        ],
        &[[0, 1, 2]],
    )
    .unwrap();
    let ground = w.insert(BodyBuilder::fixed(mesh)).unwrap();
    let hash = w.state_hash();
    assert!(matches!(
        w.set_body_kind(ground, BodyKind::Dynamic),
        Err(WorldError::DynamicMesh)
    ));
    assert_eq!(w.body(ground).unwrap().kind(), BodyKind::Static);
    assert_eq!(w.state_hash(), hash);

    let anchor = w
        .insert(
            BodyBuilder::fixed(tumble::Ball::new(0.1).unwrap())
                .translation(Vector::new(0.0, 5.0, 0.0)),
        )
        .unwrap();
    let bob = w.insert(ball(0.2, Vector::new(1.0, 5.0, 0.0))).unwrap();
    w.insert_joint(JointBuilder::spherical(anchor, bob))
        .unwrap();
    assert!(matches!(
        w.set_body_kind(bob, BodyKind::Static),
        Err(WorldError::Joint(_))
    ));
    assert_eq!(w.body(bob).unwrap().kind(), BodyKind::Dynamic);
    // Made kinematic, the anchor still leaves the joint a dynamic body.
    w.set_body_kind(anchor, BodyKind::Kinematic).unwrap();
    w.validate().unwrap();

    w.remove(bob).unwrap();
    assert!(matches!(
        w.set_body_kind(bob, BodyKind::Static),
        Err(WorldError::StaleHandle(_))
    ));
}

/// A sleeping pile's bottom box made kinematic wakes the pile; the world validates, and its
/// snapshot restores to a world that steps on bit-identically.
#[test]
fn kind_change_wakes_and_survives_a_snapshot() {
    let mut w = World::new(WorldConfig::default()).unwrap();
    add_floor(&mut w, 0.5, 0.0);
    let low = w
        .insert(cuboid(
            Vector::new(0.5, 0.5, 0.5),
            Vector::new(0.0, 0.5, 0.0),
        ))
        .unwrap();
    let high = w
        .insert(cuboid(
            Vector::new(0.5, 0.5, 0.5),
            Vector::new(0.0, 1.5, 0.0),
        ))
        .unwrap();
    for _ in 0..120 {
        w.step();
    }
    assert!(w.body(high).unwrap().is_sleeping(), "the pile slept");
    w.set_body_kind(low, BodyKind::Kinematic).unwrap();
    assert!(!w.body(high).unwrap().is_sleeping(), "woken by the change");
    w.set_linvel(low, Vector::new(0.0, 0.5, 0.0)).unwrap();
    for _ in 0..30 {
        w.step();
    }
    w.validate().unwrap();
    let mut copy = World::restore(&w.snapshot()).unwrap();
    for _ in 0..30 {
        w.step();
        copy.step();
    }
    assert_eq!(w.state_hash(), copy.state_hash());
    assert!(
        w.body(high).unwrap().translation().y > 1.7,
        "carried up by the lift"
    );
}
