//! Regressions of continuous-collision bodies in the world: the coordinate limit applies to
//! the pose and shape, never to the CCD margin of the velocity; every call that changes the
//! margin keeps the broad-phase box exact; snapshots of fast and frozen CCD bodies restore and
//! step on bit-identically.
//!
//! One named test per bug the fuzzers found (see `fuzz/`), written as the smallest case that
//! shows it; the raw crash inputs are in `fuzz/regressions/<target>/` (replayed by
//! `fuzz_replay` on every test run). A test of an open bug is `#[ignore]`d with the reason, and
//! its inputs wait in `fuzz/regressions/open/<target>/` until the fix lands.

mod common;

use common::fuzz_inputs::stored_input;
use tumble::math::{Isometry, Point, Real, Vector};
use tumble::narrowphase::shape::{Ball, Cuboid};
use tumble_tests::fuzz_checks::check_world;

/// Snapshots `w`, restores it, and checks the copy: it validates, holds the same state, and
/// steps on `steps` times bit-identically to `w` with the same reports. Returns the reports.
fn assert_restores_and_steps_alike(w: &mut tumble::World, steps: usize) -> Vec<tumble::StepReport> {
    let mut copy =
        tumble::World::restore(&w.snapshot()).expect("a fresh snapshot does not restore");
    copy.validate()
        .expect("the restored world does not validate");
    assert_eq!(
        copy.state_hash(),
        w.state_hash(),
        "restore changed the state"
    );
    let mut reports = Vec::new();
    for k in 0..steps {
        let (a, b) = (w.step(), copy.step());
        assert_eq!(a.frozen, b.frozen, "step {k}: different bodies frozen");
        assert_eq!(
            copy.state_hash(),
            w.state_hash(),
            "step {k}: the copy steps differently"
        );
        w.validate().expect("the world does not validate");
        copy.validate().expect("the copy does not validate");
        reports.push(a);
    }
    reports
}

/// Fuzz target `world`, input `snapshot_restore_aabb_beyond_limit` (12 inputs): a
/// continuous-collision ball at 15 m from the origin given 2·10¹⁰ m/s by an impulse. The live
/// world kept it (its broad-phase box was last set at rest), but `World::restore` grew the box
/// by the CCD margin of the new velocity (v·dt = 3·10⁸ m), found it past `MAX_COORDINATE` and
/// refused the whole snapshot: the state was lost.
///
/// Where: `engine/src/world.rs`, `World::fat_aabb` and its callers: the coordinate limit was
/// checked on the box grown by the CCD margin (which depends on the velocity and the gravity),
/// and the setters that change the velocity did not refresh the proxy, so the live broad phase
/// and a restored one also held different boxes. Fixed: the limit applies to the body's
/// `extent` (shape AABB + half the prediction distance: pose and shape only); the broad-phase
/// box (`broad_aabb`) adds the CCD margin clipped at `±MAX_COORDINATE`; every call that changes
/// the margin (`set_linvel`, the impulses, `unfreeze`, `set_gravity`) refreshes the proxy, and
/// `World::validate` checks that every proxy holds exactly `broad_aabb`, which is what restore
/// rebuilds. A body that a step takes out of the world is frozen and reported, and the world
/// still snapshots.
#[test]
fn a_snapshot_of_a_fast_ccd_body_restores_and_steps_alike() {
    use tumble::{BodyBuilder, World, WorldConfig, MAX_COORDINATE};
    // At the origin at 2·10¹⁰ m/s, and 1 m from the edge of the world at 100 m/s.
    for (x, v) in [(0.0, 2e10), (MAX_COORDINATE - 1.0, 100.0)] {
        let mut w = World::new(WorldConfig {
            ccd: true,
            ..WorldConfig::default()
        })
        .unwrap();
        let pose = Isometry::translation(x, 0.0, 0.0);
        let ball = BodyBuilder::dynamic(Ball::new(0.5).unwrap())
            .pose(pose)
            .ccd(true);
        let h = w.insert(ball).unwrap();
        w.set_linvel(h, Vector::new(v, 0.0, 0.0)).unwrap();
        let reports = assert_restores_and_steps_alike(&mut w, 2);
        // The first step takes it out of the world: frozen, reported, back where it started.
        assert_eq!(reports[0].frozen, vec![h]);
        let b = w.body(h).unwrap();
        assert!(b.is_frozen());
        assert_eq!(b.pose().translation.vector, pose.translation.vector);
        // Frozen, it still snapshots.
        assert_restores_and_steps_alike(&mut w, 1);
    }
    check_world(&stored_input("world", "snapshot_restore_aabb_beyond_limit"));
}

/// Fuzz target `world`, input `moderate_pose_refused` (5 inputs): a continuous-
/// collision ball given 5·10¹⁴ m/s could not be teleported to (3, −2, 3): `set_pose` checked
/// the box grown by the CCD margin (v·dt ≈ 10¹³ m) against `MAX_COORDINATE`.
///
/// Where: `engine/src/world.rs`, `World::set_pose`; same root and fix as
/// `a_snapshot_of_a_fast_ccd_body_restores_and_steps_alike`: the limit applies to the pose and
/// the shape, never to the velocity's margin.
#[test]
fn a_fast_ccd_body_can_be_teleported_anywhere_within_the_limits() {
    use tumble::{BodyBuilder, World, WorldConfig};
    let mut w = World::new(WorldConfig {
        ccd: true,
        ..WorldConfig::default()
    })
    .unwrap();
    let h = w
        .insert(BodyBuilder::dynamic(Ball::new(0.5).unwrap()).ccd(true))
        .unwrap();
    w.set_linvel(h, Vector::new(5e14, 5e14, 4e14)).unwrap();
    w.set_pose(h, Isometry::translation(3.0, -2.0, 3.0))
        .expect("a moderate pose was refused");
    w.validate().unwrap();
    assert_restores_and_steps_alike(&mut w, 2);
    check_world(&stored_input("world", "moderate_pose_refused"));
}

/// Fuzz target `world`, input `broad_aabb_does_not_contain_shape` (1 input): a plate
/// at `f32::MAX` m/s (accepted: without CCD its velocity does not grow its box) hits a CCD
/// ball; the solver's impulses overflow, the ball's velocity becomes NaN after its position
/// was integrated to x = 5.6·10³⁶ m, and the last non-finite check froze it there (its pose was
/// finite, so it was not moved back). The end-of-step broad-phase update skipped bodies that
/// are not moving, so the frozen ball stayed outside the world with a proxy 10³⁶ m away from
/// it, and `World::validate` found a broad-phase box that did not contain the shape.
///
/// Where: `engine/src/step.rs`, `update_broad_phase`, which refreshed moving bodies only.
/// Fixed: bodies frozen during the step are refreshed too (every non-static body; frozen bodies
/// are rare), and one found outside the world is moved back to its pose at the start of the
/// step like a moving one (reported once), so every proxy holds exactly `broad_aabb`.
#[test]
fn bodies_frozen_in_a_step_keep_a_broad_phase_box_around_their_shape() {
    use tumble::{BodyBuilder, World, WorldConfig};
    let mut w = World::new(WorldConfig {
        ccd: true,
        gravity: Vector::new(0.0, -3.25, 0.0),
        ..WorldConfig::default()
    })
    .unwrap();
    let ball = BodyBuilder::dynamic(Ball::new(0.05).unwrap())
        .pose(Isometry::translation(-14.650721, -15.0, -15.0))
        .linvel(Vector::new(-9.29717, 9.141666, -11.5))
        .angvel(Vector::new(9.75, -10.0, -10.0))
        .density(9.998779)
        .friction(0.0)
        .restitution(0.0)
        .collision_groups(u32::MAX, 4212194113)
        .ccd(true);
    let a = w.insert(ball).unwrap();
    let plate = BodyBuilder::dynamic(Cuboid::new(Vector::new(0.05, 1.25, 0.5)).unwrap())
        .pose(Isometry::translation(-15.0, -15.0, -15.0))
        .linvel(Vector::new(Real::MAX, 20.0, -20.0))
        .angvel(Vector::new(-2.6167251e36, 9.75, -5.25))
        .density(2.5)
        .friction(1.0)
        .restitution(1.0)
        .collision_groups(1, 1);
    let b = w.insert(plate).unwrap();
    let report = w.step();
    assert_eq!(report.frozen, vec![a, b]);
    let start = Vector::new(-14.650721, -15.0, -15.0);
    assert_eq!(w.body(a).unwrap().pose().translation.vector, start);
    w.validate()
        .expect("a body frozen in the step lost its broad-phase box");
    assert_restores_and_steps_alike(&mut w, 2);
    check_world(&stored_input("world", "broad_aabb_does_not_contain_shape"));
}

/// The invariant behind the three fixes above: after every call that changes a CCD body's
/// speculative margin (its velocity, its frozen flag, the gravity), its proxy holds exactly the
/// box a restore rebuilds (`World::validate` checks equality), and a snapshot taken then
/// restores and steps on bit-identically.
#[test]
fn every_call_that_changes_the_ccd_margin_keeps_the_broad_phase_exact() {
    use tumble::{BodyBuilder, World, WorldConfig};
    let mut w = World::new(WorldConfig {
        ccd: true,
        ..WorldConfig::default()
    })
    .unwrap();
    let floor = BodyBuilder::fixed(Cuboid::new(Vector::new(50.0, 0.5, 50.0)).unwrap())
        .pose(Isometry::translation(0.0, -0.5, 0.0));
    w.insert(floor).unwrap();
    let ball = BodyBuilder::dynamic(Ball::new(0.25).unwrap())
        .pose(Isometry::translation(0.0, 2.0, 0.0))
        .ccd(true);
    let h = w.insert(ball).unwrap();
    let at = Point::new(0.1, 2.0, 0.0);
    type Call = fn(&mut World, tumble::BodyHandle, Point);
    let calls: [(&str, Call); 6] = [
        ("set_linvel", |w, h, _| {
            w.set_linvel(h, Vector::new(3e3, -40.0, 0.0)).unwrap()
        }),
        ("apply_impulse", |w, h, _| {
            w.apply_impulse(h, Vector::new(0.0, -2e4, 5.0)).unwrap()
        }),
        ("apply_impulse_at_point", |w, h, p| {
            w.apply_impulse_at_point(h, Vector::new(-7.0, 0.0, 1e4), p)
                .unwrap()
        }),
        ("set_gravity", |w, _, _| {
            w.set_gravity(Vector::new(0.0, -1e30, 0.0)).unwrap()
        }),
        ("unfreeze", |w, h, _| w.unfreeze(h).unwrap()),
        ("set_gravity back", |w, _, _| {
            w.set_gravity(Vector::new(0.0, -9.81, 0.0)).unwrap()
        }),
    ];
    for (name, call) in calls {
        call(&mut w, h, at);
        if let Err(e) = w.validate() {
            panic!("after {name}: {e}");
        }
        assert_restores_and_steps_alike(&mut w, 2);
    }
}
