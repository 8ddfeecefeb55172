//! What an embedder changes after insert and reads back: collision groups, the sensor flag,
//! user data, every shape type at the crate root, and a body's inertia and angular momentum.

mod common;
use common::*;
use tumble::math::{Matrix, Vector};
use tumble::{
    Ball, Capsule, Compound, ConvexPolyhedron, Cuboid, Event, Shape, Triangle, World, WorldConfig,
};

/// A ball resting on the floor after 1 s, then `change` applied, then 1 s more: the ball's
/// height at the end.
fn ball_height_after(change: impl FnOnce(&mut World, tumble::BodyHandle)) -> f32 {
    let mut w = World::new(WorldConfig::default()).unwrap();
    add_floor(&mut w, 0.5, 0.0);
    let b = w.insert(ball(0.5, Vector::new(0.0, 0.6, 0.0))).unwrap();
    for _ in 0..60 {
        w.step();
    }
    change(&mut w, b);
    for _ in 0..60 {
        w.step();
    }
    w.body(b).unwrap().translation().y
}

/// A ball whose collision groups stop matching the floor's falls through it; one that becomes a
/// sensor does too; unchanged it rests at y = 0.5.
#[test]
fn groups_and_sensor_flag_set_after_insert_take_effect() {
    let resting = ball_height_after(|_, _| {});
    assert!((resting - 0.5).abs() < 0.01, "resting at {resting}");
    let fell = ball_height_after(|w, b| w.set_collision_groups(b, 0, u32::MAX).unwrap());
    assert!(fell < -1.0, "with other groups the ball fell to {fell}");
    let sensor = ball_height_after(|w, b| w.set_sensor(b, true).unwrap());
    assert!(sensor < -1.0, "as a sensor the ball fell to {sensor}");
}

/// The contact with the floor ends with `ContactStopped` in the step after the groups change.
#[test]
fn changing_groups_ends_the_contact_with_an_event() {
    let mut w = World::new(WorldConfig::default()).unwrap();
    let floor = add_floor(&mut w, 0.5, 0.0);
    let b = w.insert(ball(0.5, Vector::new(0.0, 0.5, 0.0))).unwrap();
    for _ in 0..10 {
        w.step();
    }
    w.set_collision_groups(b, 0, u32::MAX).unwrap();
    w.step();
    let stopped = w.events().iter().any(|e| {
        matches!(e, Event::ContactStopped { a, b: other } if (*a, *other) == (floor, b) || (*a, *other) == (b, floor))
    });
    assert!(stopped, "{:?}", w.events());
}

/// User data set after insert reads back; a stale handle is refused.
#[test]
fn user_data_set_after_insert_reads_back() {
    let mut w = World::new(WorldConfig::default()).unwrap();
    let b = w.insert(ball(0.5, Vector::zeros()).user_data(7)).unwrap();
    assert_eq!(w.body(b).unwrap().user_data(), 7);
    w.set_user_data(b, u64::MAX).unwrap();
    assert_eq!(w.body(b).unwrap().user_data(), u64::MAX);
    w.remove(b).unwrap();
    assert!(w.set_user_data(b, 1).is_err());
    assert!(w.set_sensor(b, true).is_err());
    assert!(w.set_collision_groups(b, 1, 1).is_err());
}

/// A cuboid of half-extents (0.1, 0.3, 0.6), density 1 (mass 0.144 kg), has the textbook
/// inertia `m/3·(b² + c²)` about each axis, and angular momentum `I·ω`.
#[test]
fn inertia_and_angular_momentum_are_the_textbook_ones() {
    let mut w = World::new(WorldConfig::default()).unwrap();
    let he = Vector::new(0.1, 0.3, 0.6);
    let w0 = Vector::new(1.0, 2.0, 3.0);
    let b = w.insert(cuboid(he, Vector::zeros()).angvel(w0)).unwrap();
    let v = w.body(b).unwrap();
    let m = v.mass();
    assert!((m - 0.144).abs() < 1e-6, "mass {m}");
    let expected = Matrix::from_diagonal(&Vector::new(
        m / 3.0 * (he.y * he.y + he.z * he.z),
        m / 3.0 * (he.x * he.x + he.z * he.z),
        m / 3.0 * (he.x * he.x + he.y * he.y),
    ));
    assert!((v.inertia_world() - expected).norm() < 1e-6 * expected.norm());
    assert!((v.angular_momentum() - expected * w0).norm() < 1e-5);
}

/// Every shape type is reachable from the crate root.
#[test]
fn every_shape_type_is_at_the_crate_root() {
    let shapes: Vec<Shape> = vec![
        Ball::new(0.5).unwrap().into(),
        Cuboid::new(Vector::repeat(0.5)).unwrap().into(),
        Capsule::new(0.5, 0.2).unwrap().into(),
        Triangle::new(
            tumble::math::Point::origin(),
            tumble::math::Point::new(1.0, 0.0, 0.0),
            tumble::math::Point::new(0.0, 1.0, 0.0),
        )
        .unwrap()
        .into(),
        Compound::new(vec![(
            tumble::math::Isometry::translation(0.0, 1.0, 0.0),
            Ball::new(0.5).unwrap().into(),
        )])
        .unwrap()
        .into(),
    ];
    assert_eq!(shapes.len(), 5);
    let cube = ConvexPolyhedron::from_cuboid(&Cuboid::new(Vector::repeat(0.5)).unwrap());
    assert_eq!(cube.vertices().len(), 8);
}

/// `set_dt` changes the fixed step: bad values are refused with a typed error and change
/// nothing; a new step of 1/120 s is what the next step simulates, and a ball then falls
/// `½·g·t²` in 1 s (free flight is integrated exactly: within 1 mm of f32 rounding); pending
/// time longer than the new step is cut to just under it, so `validate` holds.
#[test]
fn set_dt_changes_the_step_and_refuses_bad_values() {
    use tumble::math::Vector;
    let mut w = tumble::World::new(tumble::WorldConfig::default()).unwrap();
    let b = w
        .insert(
            tumble::BodyBuilder::dynamic(tumble::Ball::new(0.1).unwrap())
                .translation(Vector::new(0.0, 10.0, 0.0)),
        )
        .unwrap();
    w.advance(1.0 / 70.0).unwrap(); // one step of 1/60 would not fit: the time stays pending
    let before = w.state_hash();
    for bad in [0.0, -1.0, f32::NAN, f32::INFINITY, 2.0, 0.5] {
        assert!(w.set_dt(bad).is_err(), "dt = {bad} accepted");
        assert_eq!(w.state_hash(), before, "a refused dt changed the world");
    }
    w.set_dt(1.0 / 120.0).unwrap();
    assert!(
        w.accumulator() <= 1.0 / 120.0,
        "pending time {} s",
        w.accumulator()
    );
    w.validate().unwrap();
    let y0 = w.body(b).unwrap().translation().y;
    let v0 = w.body(b).unwrap().linvel().y;
    let mut t = 0.0;
    for _ in 0..120 {
        t += w.step().simulated_seconds;
    }
    assert!((t - 1.0).abs() < 1e-5, "120 steps simulated {t} s");
    let y = w.body(b).unwrap().translation().y;
    let expected = y0 + v0 * 1.0 - 0.5 * 9.81;
    assert!(
        (y - expected).abs() < 1e-3,
        "fell to {y}, free fall gives {expected}"
    );
    w.validate().unwrap();
}

/// `BodyView::render_pose` is `World::render_pose`: after an `advance` that leaves time
/// pending, both give the same blended pose, between the last two steps' poses.
#[test]
fn body_view_render_pose_matches_the_world_s() {
    use tumble::math::Vector;
    let mut w = tumble::World::new(tumble::WorldConfig::default()).unwrap();
    let b = w
        .insert(
            tumble::BodyBuilder::dynamic(tumble::Ball::new(0.1).unwrap())
                .translation(Vector::new(0.0, 10.0, 0.0))
                .linvel(Vector::new(3.0, 0.0, 0.0)),
        )
        .unwrap();
    w.advance(2.5 / 60.0).unwrap();
    assert!(w.alpha() > 0.4 && w.alpha() < 0.6, "alpha {}", w.alpha());
    let view = w.body(b).unwrap().render_pose();
    assert_eq!(Some(view), w.render_pose(b));
    let (prev, now) = (w.previous_pose(b).unwrap(), w.body(b).unwrap().pose());
    let x = view.translation.vector.x;
    assert!(
        x > prev.translation.vector.x && x < now.translation.vector.x,
        "x {x}"
    );
}

/// A pile of `n` boxes and balls on a floor, the last joined to a fixed anchor, after `steps`
/// steps.
fn busy_world(n: usize, steps: usize) -> World {
    busy_world_with(WorldConfig::default(), n, steps)
}

/// [`busy_world`] with the given configuration.
fn busy_world_with(cfg: WorldConfig, n: usize, steps: usize) -> World {
    let mut w = World::new(cfg).unwrap();
    add_floor(&mut w, 0.5, 0.0);
    let anchor = w
        .insert(
            tumble::BodyBuilder::fixed(Ball::new(0.1).unwrap())
                .translation(Vector::new(0.0, 6.0, 0.0)),
        )
        .unwrap();
    for i in 0..n {
        let at = Vector::new((i % 4) as f32 * 1.1 - 1.6, 0.5 + (i / 4) as f32 * 1.05, 0.0);
        let h = if i % 2 == 0 {
            w.insert(cuboid(Vector::new(0.5, 0.5, 0.5), at)).unwrap()
        } else {
            w.insert(ball(0.5, at)).unwrap()
        };
        if i == n - 1 {
            w.insert_joint(tumble::JointBuilder::spherical(anchor, h))
                .unwrap();
        }
    }
    for _ in 0..steps {
        w.step();
    }
    w
}

/// `restore_from` into a world that held something else gives the world `restore` gives:
/// the same hash and events at every one of 120 steps; a corrupt snapshot changes nothing.
#[test]
fn restore_into_an_existing_world_equals_a_fresh_restore() {
    let bytes = busy_world(12, 60).snapshot();
    let mut fresh = World::restore(&bytes).unwrap();
    let mut reused = busy_world(30, 100);
    reused.restore_from(&bytes).unwrap();
    assert_eq!(reused.len(), fresh.len());
    for _ in 0..120 {
        fresh.step();
        reused.step();
        assert_eq!(reused.state_hash(), fresh.state_hash());
        assert_eq!(reused.events(), fresh.events());
    }
    reused.validate().unwrap();

    let (hash, len) = (reused.state_hash(), reused.len());
    let mut bad = bytes.clone();
    let last = bad.len() - 1;
    bad[last] ^= 0x40;
    assert!(reused.restore_from(&bad).is_err());
    assert_eq!((reused.state_hash(), reused.len()), (hash, len));
    fresh.step();
    reused.step();
    assert_eq!(reused.state_hash(), fresh.state_hash());
}

/// A world stepped on two threads without keeping the pool awake is bit-identical to one
/// that keeps it awake.
#[test]
fn keeping_the_pool_awake_does_not_change_results() {
    let hash = |keep_pool_awake: bool| {
        in_pool(2, move || {
            let cfg = WorldConfig {
                keep_pool_awake,
                ..WorldConfig::default()
            };
            busy_world_with(cfg, 40, 90).state_hash()
        })
    };
    assert_eq!(hash(true), hash(false));
}
