//! The fixed-timestep accumulator and interpolation (Fiedler, "Fix Your Timestep!").

mod common;
use common::*;
use rand::{Rng, SeedableRng};
use tumble::math::{Real, Rotation, Vector};
use tumble::{interpolate_pose, World, WorldConfig};

fn scene() -> World {
    let mut w = world_with_gravity(Vector::new(0.0, -9.81, 0.0));
    add_floor(&mut w, 0.5, 0.2);
    for i in 0..8 {
        let x = -2.0 + 0.55 * i as Real;
        w.insert(
            cuboid(
                Vector::new(0.25, 0.25, 0.25),
                Vector::new(x, 1.0 + 0.6 * i as Real, 0.1 * i as Real),
            )
            .rotation(Rotation::from_euler_angles(0.3 * i as Real, 0.2, 0.1))
            .angvel(Vector::new(0.0, 1.0, 0.5)),
        )
        .unwrap();
        w.insert(ball(0.2, Vector::new(x, 3.0 + 0.5 * i as Real, 0.0)).restitution(0.5))
            .unwrap();
    }
    w
}

/// Advances until exactly `steps` fixed steps ran, with frame times drawn by `frame`.
fn run(mut frame: impl FnMut() -> Real, steps: u64) -> World {
    let mut w = scene();
    while w.step_count() < steps {
        let remaining = (steps - w.step_count()) as Real * w.config().dt;
        let f = frame().min(remaining * 0.999 + 1e-6).max(0.0);
        w.advance(f).unwrap();
    }
    w
}

#[test]
fn frame_rate_independent() {
    let steps = 180;
    let a = run(|| 1.0 / 30.0, steps);
    let b = run(|| 1.0 / 144.0, steps);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let c = run(move || rng.gen_range(0.001..0.05), steps);
    let d = run(|| 0.25, steps); // capped frames
    for w in [&b, &c, &d] {
        assert_eq!(w.step_count(), steps);
        assert_eq!(w.state_hash(), a.state_hash());
    }
}

#[test]
fn advance_counts_steps_and_alpha() {
    let mut w = scene();
    let dt = w.config().dt;
    let r = w.advance(2.5 * dt).unwrap();
    assert_eq!(r.steps, 2);
    assert!((r.alpha - 0.5).abs() < 1e-3);
    // Cap: a 10 s frame runs only max_frame_time worth of steps.
    let r = w.advance(10.0).unwrap();
    let max_steps = ((0.1 + 0.5 * dt) / dt).floor() as u32;
    assert!(r.steps <= max_steps, "{} steps", r.steps);
    assert!(r.alpha >= 0.0 && r.alpha < 1.0);
    assert!(w.advance(-1.0).is_err());
    assert!(w.advance(Real::NAN).is_err());
    assert!(World::new(WorldConfig {
        dt: 0.0,
        ..WorldConfig::default()
    })
    .is_err());
    assert!(World::new(WorldConfig {
        dt: -1.0,
        ..WorldConfig::default()
    })
    .is_err());
}

#[test]
fn render_pose_is_blend_of_stored_states() {
    let mut w = scene();
    let dt = w.config().dt;
    for frame in [0.3 * dt, 1.7 * dt, 2.2 * dt, 0.9 * dt] {
        let r = w.advance(frame).unwrap();
        for (h, b) in w.bodies() {
            let expected = interpolate_pose(&w.previous_pose(h).unwrap(), &b.pose(), r.alpha);
            assert_eq!(w.render_pose(h).unwrap(), expected);
        }
    }
    // alpha 0 → previous, 1 → current.
    let (h, b) = w.bodies().nth(1).unwrap();
    let p = w.previous_pose(h).unwrap();
    assert_eq!(
        interpolate_pose(&p, &b.pose(), 0.0).translation,
        p.translation
    );
    assert_eq!(
        interpolate_pose(&p, &b.pose(), 1.0).translation,
        b.pose().translation
    );
}

#[test]
fn teleport_is_not_interpolated() {
    let mut w = scene();
    let h = w.bodies().nth(1).unwrap().0;
    w.advance(1.5 * w.config().dt).unwrap();
    let mut target = w.body(h).unwrap().pose();
    target.translation.vector = Vector::new(5.0, 5.0, 5.0);
    w.set_pose(h, target).unwrap();
    assert_eq!(w.render_pose(h).unwrap(), target);
    w.validate().unwrap();
}
