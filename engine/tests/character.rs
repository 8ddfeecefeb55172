//! The kinematic character controller in small levels: a capsule 1.6 m tall (half-height
//! 0.5 m, radius 0.3 m), 60 steps per second, gravity 9.81 m/s² applied by the walker itself
//! (the character is not a body; the world's gravity moves only the dynamic boxes).

mod common;

use common::*;
use tumble::character::{Autostep, CharacterCollision, CharacterController, CharacterMove};
use tumble::math::{Isometry, Real, Rotation, Vector};
use tumble::narrowphase::query::closest_points;
use tumble::{BodyBuilder, BodyHandle, Capsule, Cuboid, QueryFilter, Shape, World, WorldError};

const DT: Real = 1.0 / 60.0;
const G: Real = 9.81;
const HALF_HEIGHT: Real = 0.5;
const RADIUS: Real = 0.3;
/// Height of the capsule's centre above the surface it stands on.
const STAND: Real = HALF_HEIGHT + RADIUS;

fn capsule() -> Shape {
    Capsule::new(HALF_HEIGHT, RADIUS).unwrap().into()
}

/// A static box with its top face at `top`, spanning `x0..x1` and `z ∈ [−5, 5]`.
fn block(w: &mut World, x0: Real, x1: Real, top: Real) -> BodyHandle {
    let bottom = top.min(0.0) - 1.0;
    w.insert(
        BodyBuilder::fixed(
            Cuboid::new(Vector::new(0.5 * (x1 - x0), 0.5 * (top - bottom), 5.0)).unwrap(),
        )
        .translation(Vector::new(0.5 * (x0 + x1), 0.5 * (top + bottom), 0.0)),
    )
    .unwrap()
}

/// A world with gravity and a floor whose top is y = 0 over x ∈ [−10, 10].
fn level() -> World {
    let mut w = world_with_gravity(Vector::new(0.0, -G, 0.0));
    block(&mut w, -10.0, 10.0, 0.0);
    w
}

/// A character walking at a set horizontal velocity, with its own vertical velocity (gravity
/// while airborne, a small push down while grounded).
struct Walker {
    pose: Isometry,
    vy: Real,
    collisions: Vec<CharacterCollision>,
    last: Option<CharacterMove>,
}

impl Walker {
    fn at(x: Real, foot: Real) -> Walker {
        Walker {
            pose: Isometry::translation(x, foot + STAND + 0.01, 0.0),
            vy: 0.0,
            collisions: Vec::new(),
            last: None,
        }
    }

    fn step(&mut self, w: &World, c: &CharacterController, v: Vector) -> CharacterMove {
        self.vy = if self.last.is_some_and(|m| m.grounded) {
            -G * DT
        } else {
            self.vy - G * DT
        };
        let desired = Vector::new(v.x, v.y + self.vy, v.z) * DT;
        let m = c
            .move_shape(
                w,
                DT,
                &capsule(),
                &self.pose,
                desired,
                &QueryFilter::new(),
                &mut self.collisions,
            )
            .unwrap();
        self.pose.translation.vector += m.translation;
        self.last = Some(m);
        m
    }

    fn x(&self) -> Real {
        self.pose.translation.vector.x
    }

    /// Height of the capsule's lowest point.
    fn foot(&self) -> Real {
        self.pose.translation.vector.y - STAND
    }
}

fn stairs_controller() -> CharacterController {
    CharacterController {
        autostep: Some(Autostep {
            max_height: 0.4,
            min_width: 0.1,
            include_dynamic: false,
        }),
        ..CharacterController::default()
    }
}

/// A 0.3 m step (x ∈ [1, 4]) climbed with autostep 0.4 m: walking at 2 m/s from x = 0 for 2 s
/// ends on top (foot at 0.3 m plus the 1 cm offset, x ≈ 4 less the braking nothing: 4 m
/// walked). Without autostep, and against a 0.5 m step, the riser stops it at
/// x = 1 − 0.3 (radius) − 0.01 (offset).
#[test]
fn climbs_a_step_within_autostep() {
    for (height, autostep, climbs) in [(0.3, true, true), (0.3, false, false), (0.5, true, false)] {
        let mut w = level();
        block(&mut w, 1.0, 4.0, height);
        let c = if autostep {
            stairs_controller()
        } else {
            CharacterController::default()
        };
        let mut walker = Walker::at(0.0, 0.0);
        let mut stepped = false;
        for _ in 0..120 {
            stepped |= walker.step(&w, &c, Vector::new(2.0, 0.0, 0.0)).stepped;
        }
        let m = walker.last.unwrap();
        if climbs {
            assert!(stepped && m.grounded);
            assert!(
                (walker.foot() - (height + 0.01)).abs() < 0.01,
                "foot {}",
                walker.foot()
            );
            assert!(walker.x() > 3.5, "x {}", walker.x());
        } else {
            assert!(!stepped);
            assert!(walker.foot().abs() < 0.02, "foot {}", walker.foot());
            assert!((walker.x() - 0.69).abs() < 0.01, "x {}", walker.x());
        }
    }
}

/// A slope of 60° (a box turned by 60° about z whose top face passes through x = 1 at the
/// floor) with the climb limit at 45°: walking into it at 2 m/s for 2 s, the character stays
/// at its foot (the capsule's bottom never rises 5 cm). A 30° ramp with the same limit is
/// walked up (2 m/s × 2 s along it: more than 0.5 m up).
#[test]
fn stops_at_a_slope_steeper_than_the_climb_angle() {
    for (degrees, climbs) in [(60.0 as Real, false), (30.0, true)] {
        let mut w = level();
        let a = degrees.to_radians();
        // A box 10 m long, 1 m thick, turned by `a`; its top face's lower end sits at (1, 0).
        let (half_len, half_thick) = (5.0, 0.5);
        let along = Vector::new(a.cos(), a.sin(), 0.0);
        let normal = Vector::new(-a.sin(), a.cos(), 0.0);
        let centre = Vector::new(1.0, 0.0, 0.0) + along * half_len - normal * half_thick;
        w.insert(
            BodyBuilder::fixed(Cuboid::new(Vector::new(half_len, half_thick, 5.0)).unwrap())
                .translation(centre)
                .rotation(Rotation::from_axis_angle(&Vector::z_axis(), a)),
        )
        .unwrap();
        let c = CharacterController::default();
        let mut walker = Walker::at(-1.0, 0.0);
        let mut highest: Real = 0.0;
        for _ in 0..120 {
            walker.step(&w, &c, Vector::new(2.0, 0.0, 0.0));
            highest = highest.max(walker.foot());
        }
        if climbs {
            assert!(walker.foot() > 0.5, "foot {}", walker.foot());
        } else {
            assert!(highest < 0.05, "the character rose to {highest}");
            assert!(walker.x() < 1.0, "x {}", walker.x());
        }
    }
}

/// Walking at 2 m/s diagonally (45°) into a wall whose face is the plane z = 1: the character
/// slides along it, covering x at the full 2·cos 45° m/s (2 s: 2.83 m, less the first steps
/// before the wall), its surface kept the offset from the wall (centre at
/// z = 1 − 0.3 − 0.01), and reports the wall among its collisions.
#[test]
fn slides_along_a_wall() {
    let mut w = level();
    let wall = w
        .insert(
            BodyBuilder::fixed(Cuboid::new(Vector::new(10.0, 2.0, 0.5)).unwrap())
                .translation(Vector::new(0.0, 2.0, 1.5)),
        )
        .unwrap();
    let c = CharacterController::default();
    let mut walker = Walker::at(0.0, 0.0);
    let v = Vector::new(1.0, 0.0, 1.0).normalize() * 2.0;
    let mut touched = false;
    for _ in 0..120 {
        walker.step(&w, &c, v);
        touched |= walker.collisions.iter().any(|k| k.body == wall);
        assert!(walker.pose.translation.vector.z <= 0.69 + 1e-3);
    }
    assert!(touched);
    let z = walker.pose.translation.vector.z;
    assert!((z - 0.69).abs() < 2e-3, "z {z}");
    assert!(walker.x() > 2.7, "x {}", walker.x());
}

/// 20 m/s into a wall (20/60 m per step, 100 steps), starting 3 m away: after every move the
/// capsule's signed distance to the wall is at least −offset (it never enters it more than the
/// offset; in fact it stays outside), and it ends against it.
#[test]
fn never_enters_a_wall_at_20_m_per_s() {
    let mut w = world_with_gravity(Vector::zeros());
    let wall_shape = Cuboid::new(Vector::new(0.05, 20.0, 20.0)).unwrap();
    let wall_pose = Isometry::translation(3.0, 0.0, 0.0);
    w.insert(BodyBuilder::fixed(wall_shape).pose(wall_pose))
        .unwrap();
    for snap in [None, Some(0.2)] {
        let c = CharacterController {
            snap_to_ground: snap,
            ..CharacterController::default()
        };
        let mut pose = Isometry::translation(0.0, 0.0, 0.0);
        let mut hits = Vec::new();
        let mut distance = Real::INFINITY;
        for k in 0..100 {
            // Straight on, then at a slant.
            let dir = if k < 50 {
                Vector::x()
            } else {
                Vector::new(1.0, 0.3, -0.2).normalize()
            };
            let m = c
                .move_shape(
                    &w,
                    DT,
                    &capsule(),
                    &pose,
                    dir * (20.0 / 60.0),
                    &QueryFilter::new(),
                    &mut hits,
                )
                .unwrap();
            pose.translation.vector += m.translation;
            distance = closest_points(&pose, &capsule(), &wall_pose, &wall_shape)
                .unwrap()
                .distance;
            assert!(distance >= -c.offset, "step {k}: distance {distance}");
        }
        assert!(distance < 2.0 * c.offset && distance > 0.0, "{distance}");
    }
}

/// Walking at 2 m/s off a 0.15 m ledge (floor at 0.15 for x < 1, at 0 beyond) with a snap of
/// 0.2 m: the character is grounded on every step and its foot follows the floor down within
/// the step it crosses the edge; without the snap it leaves the ground for some steps.
#[test]
fn snaps_down_a_small_step() {
    for snap in [true, false] {
        let mut w = level();
        block(&mut w, -10.0, 1.0, 0.15);
        let c = CharacterController {
            snap_to_ground: snap.then_some(0.2),
            ..CharacterController::default()
        };
        let mut walker = Walker::at(0.0, 0.15);
        walker.step(&w, &c, Vector::zeros());
        let mut airborne = 0;
        let mut snapped = 0.0;
        for _ in 0..60 {
            let m = walker.step(&w, &c, Vector::new(2.0, 0.0, 0.0));
            airborne += !m.grounded as usize;
            snapped += m.snapped;
        }
        assert!(walker.x() > 1.5);
        assert!(
            (walker.foot() - 0.01).abs() < 0.01,
            "foot {}",
            walker.foot()
        );
        if snap {
            assert_eq!(airborne, 0);
            assert!((snapped - 0.15).abs() < 0.02, "snapped {snapped}");
        } else {
            assert!(airborne > 0);
        }
    }
}

/// A 1 m box of 200 kg (density 200) on the floor at x = 1.5; the character (80 kg) walks into
/// it at 1.5 m/s for 2 s, pushing it after every move: the box is shoved along +x by more than
/// half a metre, while with no pushes it does not move.
#[test]
fn pushes_a_dynamic_box() {
    for push in [true, false] {
        let mut w = level();
        let crate_box = w
            .insert(
                BodyBuilder::dynamic(Cuboid::new(Vector::repeat(0.5)).unwrap())
                    .translation(Vector::new(1.5, 0.5, 0.0))
                    .density(200.0)
                    .friction(0.3),
            )
            .unwrap();
        for _ in 0..30 {
            w.step();
        }
        let x0 = w.body(crate_box).unwrap().translation().x;
        let c = CharacterController::default();
        let mut walker = Walker::at(0.0, 0.0);
        let mut pushes = 0;
        for _ in 0..120 {
            walker.step(&w, &c, Vector::new(1.5, 0.0, 0.0));
            if push {
                pushes += c.apply_pushes(&mut w, &walker.collisions).unwrap();
            }
            w.step();
        }
        let moved = w.body(crate_box).unwrap().translation().x - x0;
        if push {
            assert!(pushes > 10 && moved > 0.5, "pushes {pushes}, moved {moved}");
            assert!(walker.x() > 1.0);
        } else {
            assert!(moved.abs() < 1e-3, "moved {moved}");
        }
    }
}

#[test]
fn bad_input_is_an_error() {
    let w = level();
    let c = CharacterController::default();
    let mut hits = Vec::new();
    let pose = Isometry::translation(0.0, 1.0, 0.0);
    let f = QueryFilter::new();
    let nan = Real::NAN;
    let s = capsule();
    assert!(c
        .move_shape(&w, DT, &s, &pose, Vector::new(nan, 0.0, 0.0), &f, &mut hits)
        .is_err());
    assert!(c
        .move_shape(&w, 0.0, &s, &pose, Vector::x(), &f, &mut hits)
        .is_err());
    assert!(c
        .move_shape(
            &w,
            DT,
            &s,
            &Isometry::translation(nan, 0.0, 0.0),
            Vector::x(),
            &f,
            &mut hits
        )
        .is_err());
    let bad = CharacterController {
        max_slope_climb_angle: nan,
        ..c
    };
    assert!(matches!(
        bad.move_shape(&w, DT, &s, &pose, Vector::x(), &f, &mut hits),
        Err(WorldError::OutOfRange { .. })
    ));
    let bad = CharacterController { offset: 0.0, ..c };
    assert!(bad.validate().is_err());
    let bad = CharacterController {
        up: Vector::zeros(),
        ..c
    };
    assert!(bad.validate().is_err());
    // A zero motion is fine: nothing moves.
    let m = c
        .move_shape(&w, DT, &s, &pose, Vector::zeros(), &f, &mut hits)
        .unwrap();
    assert_eq!(m.translation, Vector::zeros());
}
