//! Contact response: the worked restitution case, momentum and energy, bounces, resting
//! contact and stacking.

mod common;
use common::*;
use tumble::math::{Real, Vector};
use tumble::WorldConfig;

/// Worked answer: a ball touching the floor (normal (0,1,0)) with velocity (2,−5,0), e = 0.8,
/// no friction, no gravity, leaves with (2, 4, 0): v' = v − (1 + e)(v·n)n.
#[test]
fn worked_restitution_case() {
    let mut w = world_with_gravity(Vector::zeros());
    add_floor(&mut w, 0.0, 0.8);
    let b = w
        .insert(
            ball(0.5, Vector::new(0.0, 0.5, 0.0))
                .linvel(Vector::new(2.0, -5.0, 0.0))
                .friction(0.0)
                .restitution(0.8),
        )
        .unwrap();
    w.step();
    let v = w.body(b).unwrap().linvel();
    assert!((v - Vector::new(2.0, 4.0, 0.0)).norm() < 1e-3, "v = {v}");
}

/// Head-on and oblique ball collisions conserve linear momentum (1e-5 relative) for several
/// restitutions and mass ratios.
#[test]
fn two_body_collisions_conserve_momentum() {
    for (e, r2, offset) in [
        (0.0, 0.5, 0.0),
        (0.5, 0.7, 0.3),
        (1.0, 0.3, 0.4),
        (0.8, 1.0, -0.4),
    ] {
        let mut w = world_with_gravity(Vector::zeros());
        let a = w
            .insert(
                ball(0.5, Vector::new(-2.0, 0.0, 0.0))
                    .linvel(Vector::new(6.0, 0.0, 0.0))
                    .restitution(e)
                    .friction(0.3),
            )
            .unwrap();
        let b = w
            .insert(
                ball(r2, Vector::new(2.0, offset, 0.1))
                    .linvel(Vector::new(-3.0, 0.2, 0.0))
                    .restitution(e)
                    .friction(0.3)
                    .density(2.0),
            )
            .unwrap();
        let p = |w: &tumble::World| {
            let (ba, bb) = (w.body(a).unwrap(), w.body(b).unwrap());
            ba.linvel() * ba.mass() + bb.linvel() * bb.mass()
        };
        let p0 = p(&w);
        let mut touched = false;
        for _ in 0..120 {
            w.step();
            touched |= w.touching_pair_count() > 0;
            let p1 = p(&w);
            assert!(
                (p1 - p0).norm() <= 1e-5 * p0.norm(),
                "e={e}: momentum {p0} -> {p1}"
            );
        }
        assert!(touched, "the balls must have collided");
    }
}

/// With e = 1 and no friction, a ball bouncing under gravity in a closed box (hitting floor,
/// walls and ceiling) keeps its total energy (kinetic + potential) within 1 % over 10 000 steps.
#[test]
fn elastic_box_keeps_energy() {
    let mut w = tumble::World::new(WorldConfig {
        restitution_threshold: 0.0,
        ..WorldConfig::default()
    })
    .unwrap();
    add_closed_box(&mut w, 3.0, 1.0, 0.0);
    let b = w
        .insert(
            ball(0.3, Vector::new(-1.0, 0.5, 0.7))
                .linvel(Vector::new(4.0, 7.0, -3.0))
                .restitution(1.0)
                .friction(0.0),
        )
        .unwrap();
    let g = 9.81;
    let energy = |w: &tumble::World| -> Real {
        let body = w.body(b).unwrap();
        body.kinetic_energy() + body.mass() * g * body.translation().y
    };
    let e0 = energy(&w);
    let mut ceiling = false;
    for _ in 0..10_000 {
        w.step();
        ceiling |= w.body(b).unwrap().translation().y > 2.6;
    }
    assert!(ceiling, "the ball must reach the ceiling");
    let e1 = energy(&w);
    // Potential energy is measured from y = 0 (the box centre); the scale is the energy span.
    let scale = e0 + w.body(b).unwrap().mass() * g * 3.0;
    assert!(((e1 - e0) / scale).abs() < 0.01, "energy {e0} -> {e1}");
    w.validate().unwrap();
}

/// A ball dropped from 2 m with e = 0.8 bounces to apexes that shrink by e² per bounce.
#[test]
fn bounce_apexes_follow_e_squared() {
    let e: Real = 0.8;
    let mut w = tumble::World::new(WorldConfig {
        dt: 1.0 / 240.0,
        ..WorldConfig::default()
    })
    .unwrap();
    add_floor(&mut w, 0.0, e);
    let r = 0.1;
    let h0 = 2.0;
    let b = w
        .insert(
            ball(r, Vector::new(0.0, h0 + r, 0.0))
                .restitution(e)
                .friction(0.0),
        )
        .unwrap();
    let mut apexes = Vec::new();
    let mut prev_vy = 0.0;
    for _ in 0..(240 * 6) {
        w.step();
        let body = w.body(b).unwrap();
        let vy = body.linvel().y;
        if prev_vy > 0.0 && vy <= 0.0 {
            apexes.push(body.translation().y - r);
        }
        prev_vy = vy;
    }
    assert!(apexes.len() >= 3, "apexes {apexes:?}");
    let mut expected = h0;
    for (k, a) in apexes.iter().take(3).enumerate() {
        expected *= e * e;
        assert!(
            ((a - expected) / expected).abs() < 0.05,
            "bounce {k}: apex {a}, expected {expected} ({apexes:?})"
        );
    }
}

/// A ball and a box dropped on the floor come to rest and stay still.
#[test]
fn ball_and_box_come_to_rest() {
    let mut w = world_with_gravity(Vector::new(0.0, -9.81, 0.0));
    add_floor(&mut w, 0.5, 0.3);
    let b = w
        .insert(ball(0.5, Vector::new(-2.0, 1.5, 0.0)).restitution(0.3))
        .unwrap();
    let c = w
        .insert(cuboid(Vector::new(0.5, 0.5, 0.5), Vector::new(2.0, 1.5, 0.0)).restitution(0.3))
        .unwrap();
    for _ in 0..300 {
        w.step();
    }
    for _ in 0..300 {
        w.step();
        for h in [b, c] {
            let body = w.body(h).unwrap();
            assert!(
                body.linvel().norm() < 1e-3,
                "speed {}",
                body.linvel().norm()
            );
            assert!(body.angvel().norm() < 1e-2, "spin {}", body.angvel().norm());
        }
    }
    assert!((w.body(b).unwrap().translation().y - 0.5).abs() < 0.01);
    assert!((w.body(c).unwrap().translation().y - 0.5).abs() < 0.01);
}

/// Five unit boxes stacked on the floor stand for 10 s, drifting less than 1 cm once the soft
/// contacts have taken the load (one second), and sagging less than 3 cm in all.
#[test]
fn stack_of_five_stands() {
    let mut w = world_with_gravity(Vector::new(0.0, -9.81, 0.0));
    add_floor(&mut w, 0.6, 0.0);
    let boxes: Vec<_> = (0..5)
        .map(|i| {
            w.insert(
                cuboid(
                    Vector::new(0.5, 0.5, 0.5),
                    Vector::new(0.0, 0.5 + i as Real, 0.0),
                )
                .friction(0.6),
            )
            .unwrap()
        })
        .collect();
    let initial: Vec<Vector> = boxes
        .iter()
        .map(|h| w.body(*h).unwrap().translation())
        .collect();
    for _ in 0..60 {
        w.step();
    }
    let settled: Vec<Vector> = boxes
        .iter()
        .map(|h| w.body(*h).unwrap().translation())
        .collect();
    for _ in 0..600 {
        w.step();
    }
    for ((h, s), i) in boxes.iter().zip(&settled).zip(&initial) {
        let now = w.body(*h).unwrap().translation();
        let d = (now - s).norm();
        assert!(d < 0.01, "box drifted {d} m");
        assert!((now - i).norm() < 0.03, "box sagged {} m", (now - i).norm());
    }
}

/// A box balanced on its edge with a nudge topples onto a face: the angular terms act.
#[test]
fn box_on_edge_falls_over() {
    let mut w = world_with_gravity(Vector::new(0.0, -9.81, 0.0));
    add_floor(&mut w, 0.8, 0.0);
    let q = tumble::math::Rotation::from_axis_angle(
        &Vector::z_axis(),
        std::f32::consts::FRAC_PI_4 + 0.1,
    );
    let h = (2.0 as Real).sqrt() * 0.5;
    let c = w
        .insert(
            cuboid(Vector::new(0.5, 0.5, 0.5), Vector::new(0.0, h + 0.01, 0.0))
                .rotation(q)
                .friction(0.8),
        )
        .unwrap();
    for _ in 0..240 {
        w.step();
    }
    let body = w.body(c).unwrap();
    assert!(
        (body.translation().y - 0.5).abs() < 0.02,
        "y = {}",
        body.translation().y
    );
    // Some face is flat on the floor: the body's up axis is a local axis.
    let up = body.rotation().inverse() * Vector::y();
    assert!(up.amax() > 0.999, "up in body frame {up}");
}
