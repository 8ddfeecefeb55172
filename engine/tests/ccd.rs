//! Tunneling: a ball 4 cm across at 30 m/s (and 300 m/s) toward a wall 5 cm thick at 60 Hz never
//! passes through with continuous collision on, and does with it off. Boxes too.

mod common;
use common::*;
use tumble::math::{Real, Vector};
use tumble::narrowphase::shape::{Cuboid, Shape};
use tumble::{BodyBuilder, World, WorldConfig};

/// Fires `shape` along +x from x = 0.23 at `speed` toward a wall occupying x ∈ [1, 1.05];
/// returns the largest x the body's centre reached.
fn fire(shape: Shape, speed: Real, ccd: bool, dynamic_wall: bool) -> Real {
    let mut w = World::new(WorldConfig {
        gravity: Vector::zeros(),
        ccd,
        ..WorldConfig::default()
    })
    .unwrap();
    let wall = Cuboid::new(Vector::new(0.025, 2.0, 2.0)).unwrap();
    let wall = if dynamic_wall {
        BodyBuilder::dynamic(wall).density(1000.0)
    } else {
        BodyBuilder::fixed(wall)
    };
    w.insert(wall.translation(Vector::new(1.025, 0.0, 0.0)))
        .unwrap();
    let b = w
        .insert(
            BodyBuilder::dynamic(shape)
                .translation(Vector::new(0.23, 0.0, 0.0))
                .linvel(Vector::new(speed, 0.0, 0.0))
                .ccd(true),
        )
        .unwrap();
    let mut max_x: Real = 0.0;
    for _ in 0..30 {
        w.step();
        max_x = max_x.max(w.body(b).unwrap().translation().x);
        w.validate().unwrap();
    }
    max_x
}

fn small_ball() -> Shape {
    Shape::from(tumble::Ball::new(0.02).unwrap())
}

fn small_box() -> Shape {
    Shape::from(Cuboid::new(Vector::repeat(0.02)).unwrap())
}

#[test]
fn fast_ball_stops_at_wall_with_ccd() {
    for speed in [30.0, 300.0] {
        let x = fire(small_ball(), speed, true, false);
        assert!(x < 1.0, "speed {speed}: ball centre reached x = {x}");
        assert!(x > 0.9, "speed {speed}: ball stopped early at {x}");
    }
}

#[test]
fn fast_ball_tunnels_without_ccd() {
    for speed in [30.0, 300.0] {
        let x = fire(small_ball(), speed, false, false);
        assert!(
            x > 1.05,
            "speed {speed}: without CCD the ball was expected to pass, max x = {x}"
        );
    }
}

#[test]
fn fast_box_stops_at_wall_with_ccd() {
    for speed in [30.0, 300.0] {
        let x = fire(small_box(), speed, true, false);
        assert!(x < 1.0, "speed {speed}: box centre reached x = {x}");
    }
    assert!(fire(small_box(), 30.0, false, false) > 1.05);
}

#[test]
fn fast_ball_stops_at_dynamic_wall() {
    for speed in [30.0, 300.0] {
        let x = fire(small_ball(), speed, true, true);
        assert!(x < 1.0, "speed {speed}: ball centre reached x = {x}");
    }
}

/// A fast ball dropped on the floor from high up does not fall through it.
#[test]
fn falling_ball_does_not_cross_floor() {
    let mut w = world_with_gravity(Vector::new(0.0, -9.81, 0.0));
    add_floor(&mut w, 0.5, 0.0);
    let b = w
        .insert(
            ball(0.02, Vector::new(0.0, 1.0, 0.0))
                .linvel(Vector::new(0.0, -200.0, 0.0))
                .ccd(true),
        )
        .unwrap();
    for _ in 0..60 {
        w.step();
        assert!(w.body(b).unwrap().translation().y > 0.0);
    }
}
