//! Compound bodies in a world: a table standing on the ground, an L settling on its flat side,
//! a plank tipping over a ledge exactly when its centre of mass (not its origin) passes the
//! edge, free spin about the centre of mass, a compound on a mesh, a fast compound stopped by a
//! thin wall, snapshots that resume bit for bit, the same trajectory for any thread count, and
//! the errors.

mod common;

use common::*;
use tumble::math::{Isometry, Real, Rotation, Vector};
use tumble::narrowphase::mesh::HeightField;
use tumble::narrowphase::ShapeError;
use tumble::{BodyBuilder, BodyHandle, Cuboid, Shape, Triangle, World, WorldConfig, WorldError};

fn boxed(x: Real, y: Real, z: Real) -> Shape {
    Cuboid::new(Vector::new(x, y, z)).unwrap().into()
}

/// A table 1.8 × 1.0 m, 0.9 m high: a 10 cm top and four 10 × 10 cm legs; the body's origin
/// on the floor under its middle.
fn table() -> Shape {
    let mut parts = vec![(Isometry::translation(0.0, 0.85, 0.0), boxed(0.9, 0.05, 0.5))];
    for (x, z) in [(-0.8, -0.4), (0.8, -0.4), (-0.8, 0.4), (0.8, 0.4)] {
        parts.push((Isometry::translation(x, 0.4, z), boxed(0.05, 0.4, 0.05)));
    }
    Shape::compound(parts).unwrap()
}

/// An L: a 2 m arm along x (its bottom face at y = 0) and a 1.2 m arm standing up at its
/// left end; origin at the long arm's centre, centre of mass up and to the left of it.
fn ell() -> Shape {
    Shape::compound([
        (Isometry::translation(0.0, 0.15, 0.0), boxed(1.0, 0.15, 0.3)),
        (
            Isometry::translation(-0.85, 0.9, 0.0),
            boxed(0.15, 0.6, 0.3),
        ),
    ])
    .unwrap()
}

/// The lowest point of a body's shape (world y).
fn bottom(w: &World, h: BodyHandle) -> Real {
    let b = w.body(h).unwrap();
    b.shape().aabb(&b.shape_pose()).mins.y
}

/// A table dropped 2 cm onto the floor stands still: no sinking beyond the slop, no drift,
/// no tilt, and it falls asleep.
#[test]
fn table_stands_on_the_ground() {
    let mut w = world_with_gravity(Vector::new(0.0, -9.81, 0.0));
    add_floor(&mut w, 0.6, 0.0);
    let at = Vector::new(0.3, 0.02, -0.2);
    let h = w
        .insert(BodyBuilder::dynamic(table()).translation(at).density(600.0))
        .unwrap();
    let slop = w.config().linear_slop;
    for step in 0..300 {
        w.step();
        if step > 60 {
            let y = bottom(&w, h);
            assert!(y > -slop - 1e-3, "step {step}: sank to {y}");
        }
    }
    w.validate().unwrap();
    let b = w.body(h).unwrap();
    let drift = (b.translation() - at).xz().norm();
    assert!(drift < 1e-3, "drifted {drift} m");
    assert!(
        b.rotation().angle() < 1e-3,
        "tilted {} rad",
        b.rotation().angle()
    );
    assert!(b.linvel().norm() < 1e-3 && b.angvel().norm() < 1e-3);
    assert!(b.is_sleeping(), "a table at rest falls asleep");
    // Its contact with the floor holds the four feet.
    let c = w.contacts_of(h).unwrap().next().unwrap();
    assert_eq!(c.manifold.len(), 4);
}

/// An L dropped tilted comes to rest on its long flat side (local −y down), its centre of mass
/// at the height the flat side puts it.
#[test]
fn ell_settles_on_its_flat_side() {
    let mut w = world_with_gravity(Vector::new(0.0, -9.81, 0.0));
    add_floor(&mut w, 0.6, 0.0);
    let shape = ell();
    let com_local = shape.mass_properties(1.0).local_center;
    let h = w
        .insert(
            BodyBuilder::dynamic(shape)
                .translation(Vector::new(0.0, 0.6, 0.0))
                .rotation(Rotation::from_euler_angles(0.0, 0.0, 0.35)),
        )
        .unwrap();
    for _ in 0..480 {
        w.step();
    }
    w.validate().unwrap();
    let b = w.body(h).unwrap();
    let down = b.rotation() * Vector::new(0.0, -1.0, 0.0);
    assert!(
        down.y < -0.999,
        "rests on another side: local −y is {down:?}"
    );
    let expected = com_local.y;
    assert!(
        (b.center_of_mass().y - expected).abs() < 0.01,
        "centre of mass at {} m, the flat side puts it at {expected} m",
        b.center_of_mass().y
    );
    assert!(b.linvel().norm() < 1e-2 && b.angvel().norm() < 1e-2);
}

/// A plank with a block on its right end, laid on a ledge with the plank's middle (the body's
/// origin) over the ledge: it tips off when the centre of mass (0.356 m right of the origin)
/// is past the ledge's edge, and stays when it is not. An engine turning the body about its
/// origin would keep it on the ledge in both cases.
#[test]
fn plank_tips_over_a_ledge_by_its_centre_of_mass() {
    let plank = Shape::compound([
        (Isometry::identity(), boxed(1.0, 0.05, 0.2)),
        (Isometry::translation(0.8, 0.25, 0.0), boxed(0.2, 0.2, 0.2)),
    ])
    .unwrap();
    let com = plank.mass_properties(1.0).local_center;
    assert!((com.x - 0.064 * 0.8 / 0.144).abs() < 1e-5, "{com:?}");
    for (edge, tips) in [(0.2, true), (0.5, false)] {
        let mut w = world_with_gravity(Vector::new(0.0, -9.81, 0.0));
        // A ledge whose top is at y = 0 and whose right edge is at x = `edge`.
        w.insert(
            BodyBuilder::fixed(Cuboid::new(Vector::new(2.0, 1.0, 2.0)).unwrap())
                .translation(Vector::new(edge - 2.0, -1.0, 0.0))
                .friction(0.8),
        )
        .unwrap();
        let h = w
            .insert(
                BodyBuilder::dynamic(plank.clone())
                    .translation(Vector::new(0.0, 0.05, 0.0))
                    .friction(0.8),
            )
            .unwrap();
        for _ in 0..120 {
            w.step();
        }
        let b = w.body(h).unwrap();
        let tipped = b.rotation().angle() > 0.3;
        assert_eq!(
            tipped,
            tips,
            "edge at {edge}: turned {} rad",
            b.rotation().angle()
        );
        if !tips {
            let moved = (b.translation() - Vector::new(0.0, 0.05, 0.0)).norm();
            assert!(moved < 0.01, "moved by {moved} m");
        }
    }
}

/// A free L spun without gravity turns about its centre of mass: the centre of mass moves in a
/// straight line at the body's velocity, and the angular momentum about it stays the same.
#[test]
fn free_spin_keeps_angular_momentum_about_the_centre_of_mass() {
    let mut w = world_with_gravity(Vector::zeros());
    let v = Vector::new(0.5, -0.2, 0.1);
    let h = w
        .insert(
            BodyBuilder::dynamic(ell())
                .translation(Vector::new(0.0, 3.0, 0.0))
                .rotation(Rotation::from_euler_angles(0.3, 0.2, -0.4))
                .linvel(v)
                .angvel(Vector::new(1.0, 2.0, 3.0)),
        )
        .unwrap();
    let (c0, l0) = {
        let b = w.body(h).unwrap();
        (b.center_of_mass(), b.angular_momentum())
    };
    let dt = w.config().dt;
    let steps = 600;
    for _ in 0..steps {
        w.step();
    }
    let b = w.body(h).unwrap();
    let expected = c0 + v * (dt * steps as Real);
    assert!(
        (b.center_of_mass() - expected).norm() < 1e-3,
        "centre of mass at {:?}, expected {expected:?}",
        b.center_of_mass()
    );
    let l = b.angular_momentum();
    assert!(
        (l - l0).norm() < 1e-3 * l0.norm(),
        "angular momentum {l:?}, was {l0:?}"
    );
    // The origin does not move in a straight line: it circles the centre of mass.
    let origin_line = Vector::new(0.0, 3.0, 0.0) + v * (dt * steps as Real);
    assert!((b.translation() - origin_line).norm() > 0.05);
}

/// A compound rests on a heightfield (compound against mesh, child by child).
#[test]
fn compound_rests_on_a_heightfield() {
    let mut w = world_with_gravity(Vector::new(0.0, -9.81, 0.0));
    let hf = HeightField::new(5, 5, &[0.0; 25], Vector::new(10.0, 1.0, 10.0)).unwrap();
    w.insert(BodyBuilder::fixed(hf)).unwrap();
    let h = w
        .insert(BodyBuilder::dynamic(table()).translation(Vector::new(0.5, 0.05, 0.5)))
        .unwrap();
    for _ in 0..240 {
        w.step();
    }
    w.validate().unwrap();
    let y = bottom(&w, h);
    assert!(y.abs() < 0.01, "the feet rest at {y}");
    assert!(w.body(h).unwrap().rotation().angle() < 1e-2);
}

/// A dumbbell (two 2 cm balls 20 cm apart on a thin bar) fired at 30 and 300 m/s at a wall
/// 5 cm thick: with continuous collision it stops at the wall, its leading ball touching;
/// without, it passes through at 300 m/s.
#[test]
fn fast_compound_stops_at_a_thin_wall() {
    let ball = Shape::from(tumble::Ball::new(0.02).unwrap());
    let dumbbell = Shape::compound([
        (Isometry::translation(-0.1, 0.0, 0.0), ball.clone()),
        (Isometry::identity(), boxed(0.1, 0.005, 0.005)),
        (Isometry::translation(0.1, 0.0, 0.0), ball),
    ])
    .unwrap();
    for (speed, ccd) in [(30.0, true), (300.0, true), (300.0, false)] {
        let mut w = World::new(WorldConfig {
            gravity: Vector::zeros(),
            ccd,
            ..WorldConfig::default()
        })
        .unwrap();
        w.insert(
            BodyBuilder::fixed(Cuboid::new(Vector::new(0.025, 2.0, 2.0)).unwrap())
                .translation(Vector::new(1.025, 0.0, 0.0)),
        )
        .unwrap();
        let h = w
            .insert(
                BodyBuilder::dynamic(dumbbell.clone())
                    .translation(Vector::new(0.13, 0.0, 0.0))
                    .linvel(Vector::new(speed, 0.0, 0.0))
                    .ccd(true),
            )
            .unwrap();
        let mut front: Real = 0.0;
        for _ in 0..30 {
            w.step();
            w.validate().unwrap();
            let b = w.body(h).unwrap();
            front = front.max(b.shape().aabb(&b.shape_pose()).maxs.x);
        }
        if ccd {
            assert!(
                front < 1.0 + 0.01,
                "speed {speed}: the front reached x = {front}"
            );
            assert!(front > 0.95, "speed {speed}: stopped early at {front}");
        } else {
            assert!(
                front > 1.05,
                "without CCD it passes through: front at {front}"
            );
        }
    }
}

/// A pile of tables, Ls and plain boxes, with a kinematic compound sweeping through.
fn pile() -> World {
    let mut w = World::new(WorldConfig {
        sleep: false,
        ..WorldConfig::default()
    })
    .unwrap();
    add_floor(&mut w, 0.6, 0.1);
    for i in 0..12 {
        let at = Vector::new(
            (i % 3) as Real * 0.7 - 0.7,
            1.0 + i as Real * 0.8,
            (i % 2) as Real * 0.5,
        );
        let rot = Rotation::from_euler_angles(0.3 * i as Real, 0.7 * i as Real, 0.1);
        let shape = match i % 3 {
            0 => table(),
            1 => ell(),
            _ => boxed(0.3, 0.2, 0.25),
        };
        w.insert(BodyBuilder::dynamic(shape).translation(at).rotation(rot))
            .unwrap();
    }
    w.insert(
        BodyBuilder::kinematic(ell())
            .translation(Vector::new(-3.0, 0.5, 0.0))
            .linvel(Vector::new(0.5, 0.0, 0.0)),
    )
    .unwrap();
    w
}

/// A snapshot of the pile in motion restores to the same state and steps on bit for bit.
#[test]
fn snapshot_resumes_a_compound_pile_bit_identically() {
    let mut a = pile();
    for _ in 0..90 {
        a.step();
    }
    let bytes = a.snapshot();
    assert_eq!(&bytes[8..12], &tumble::SNAPSHOT_VERSION.to_le_bytes());
    let mut b = World::restore(&bytes).unwrap();
    b.validate().unwrap();
    assert_eq!(a.state_hash(), b.state_hash());
    for (ha, va) in a.bodies() {
        assert_eq!(b.body(ha).unwrap().shape(), va.shape());
    }
    for _ in 0..120 {
        a.step();
        b.step();
        assert_eq!(a.state_hash(), b.state_hash());
    }
    assert_eq!(a.events(), b.events());
}

/// The pile steps to the same state with 1, 2 and 4 threads.
#[test]
fn compound_pile_is_the_same_for_any_thread_count() {
    let h = hashes_for_threads(pile, 200, &[1, 2, 4]);
    assert!(h.iter().all(|&x| x == h[0]), "{h:x?}");
}

/// A dynamic compound needs mass: one of triangles only is refused; a part that is a mesh is
/// refused where the compound is made.
#[test]
fn errors_name_the_problem() {
    let tri = Triangle::new(
        tumble::math::Point::origin(),
        tumble::math::Point::new(1.0, 0.0, 0.0),
        tumble::math::Point::new(0.0, 1.0, 0.0),
    )
    .unwrap();
    let flat = Shape::compound([(Isometry::identity(), Shape::from(tri))]).unwrap();
    let mut w = World::new(WorldConfig::default()).unwrap();
    assert!(matches!(
        w.insert(BodyBuilder::dynamic(flat.clone())),
        Err(WorldError::NonPositive(..))
    ));
    w.insert(BodyBuilder::fixed(flat)).unwrap();
    let hf = HeightField::new(2, 2, &[0.0; 4], Vector::new(1.0, 1.0, 1.0)).unwrap();
    let e = Shape::compound([(Isometry::identity(), Shape::from(hf))]).unwrap_err();
    assert!(
        matches!(e, ShapeError::CompoundChild { index: 0, .. }),
        "{e}"
    );
    assert!(e.to_string().contains("heightfield is not convex"), "{e}");
    w.validate().unwrap();
}
