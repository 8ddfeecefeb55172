//! Joint failures found by the `joint_graph` fuzz check
//! (`tumble_tests::fuzz_checks::check_joint_graph`), each as a minimal reproduction.

use tumble::math::{Real, Rotation, Vector};
use tumble::{Ball, BodyBuilder, BodyHandle, Capsule, Cuboid, JointBuilder, World, WorldConfig};

/// Steps `w` `steps` times; the first step that froze a body (a body is frozen only when its
/// state stopped being finite), or None.
fn first_freeze(w: &mut World, steps: usize) -> Option<(usize, Vec<BodyHandle>)> {
    (0..steps).find_map(|k| {
        let report = w.step();
        (!report.frozen.is_empty()).then(|| (k, report.frozen.clone()))
    })
}

/// A static ball at the origin and a capsule 4 m away, turned 90° about (1, 2, 3), on a
/// prismatic joint along (1, 1, 1) (the capsule's frame) through both origins: the capsule
/// starts 4 m off the joint's line.
fn prismatic_far_off_its_line() -> (World, BodyHandle, BodyHandle) {
    let mut w = World::new(WorldConfig::default()).unwrap();
    let ball = w
        .insert(BodyBuilder::fixed(Ball::new(0.5).unwrap()))
        .unwrap();
    let turn = Rotation::from_axis_angle(
        &nalgebra::Unit::new_normalize(Vector::new(1.0, 2.0, 3.0)),
        (90.0 as Real).to_radians(),
    );
    let capsule = w
        .insert(
            BodyBuilder::dynamic(Capsule::new(0.5, 0.25).unwrap())
                .translation(Vector::new(4.0, 0.0, 0.0))
                .rotation(turn),
        )
        .unwrap();
    w.insert_joint(JointBuilder::prismatic(capsule, ball).axis(Vector::new(1.0, 1.0, 1.0)))
        .unwrap();
    (w, ball, capsule)
}

/// A prismatic joint inserted 4 m off its line pulls its body onto the line and never drives it
/// to a non-finite state (without a cap on the push-back speed, its speed ran away and the 4th
/// step froze it).
#[test]
fn prismatic_joint_far_off_its_line_stays_finite() {
    let (mut w, _, _) = prismatic_far_off_its_line();
    assert_eq!(
        first_freeze(&mut w, 60),
        None,
        "the capsule went non-finite and was frozen"
    );
}

/// A light box (density 1) welded to a heavy capsule (density 100) 6 m below it, the weld's
/// anchor 1.9 m off the box's centre, stays finite (it froze within 6 steps without a cap on
/// the push-back speed).
#[test]
fn fixed_joint_with_a_far_anchor_stays_finite() {
    let mut w = World::new(WorldConfig::default()).unwrap();
    let heavy = w
        .insert(BodyBuilder::dynamic(Capsule::new(0.25, 0.8).unwrap()).density(100.0))
        .unwrap();
    let light = w
        .insert(
            BodyBuilder::dynamic(Cuboid::new(Vector::new(0.3, 0.5, 0.45)).unwrap())
                .translation(Vector::new(0.0, 6.0, 0.0)),
        )
        .unwrap();
    w.insert_joint(
        JointBuilder::fixed(light, heavy).local_anchor_a(Vector::new(0.95, -1.54, -0.65)),
    )
    .unwrap();
    assert_eq!(first_freeze(&mut w, 60), None, "a body went non-finite");
}

/// A frozen body is still dynamic (`BodyView::kind`), so a joint between it and a static body
/// names a dynamic body and is accepted (it was refused with "a joint needs at least one
/// dynamic body": `JointBuilder::build` asked `Body::is_dynamic`, false while frozen).
#[test]
fn a_joint_to_a_frozen_dynamic_body_is_accepted() {
    let mut w = World::new(WorldConfig::default()).unwrap();
    let ball = w
        .insert(BodyBuilder::fixed(Ball::new(0.5).unwrap()))
        .unwrap();
    let body = w
        .insert(
            BodyBuilder::dynamic(Ball::new(0.5).unwrap()).translation(Vector::new(3.0, 0.0, 0.0)),
        )
        .unwrap();
    // A force whose velocity overflows f32 within the step: the step freezes the body.
    w.apply_force(body, Vector::new(Real::MAX, 0.0, 0.0))
        .unwrap();
    assert_eq!(first_freeze(&mut w, 1).map(|f| f.1), Some(vec![body]));
    let view = w.body(body).unwrap();
    assert!(view.is_frozen() && view.kind() == tumble::BodyKind::Dynamic);
    let r = w.insert_joint(JointBuilder::spherical(body, ball));
    assert!(r.is_ok(), "refused: {r:?}");
    w.validate().unwrap();
}
