//! Materials a game can change after insert, and the rules by which two bodies' coefficients
//! combine: checked against Coulomb friction (a sliding body decelerates at `μ·g`).

mod common;
use common::*;
use tumble::math::{Real, Vector};
use tumble::{CombineRule, World, WorldConfig};

/// Deceleration (m/s²) of a unit cube launched at 5 m/s along x on the floor, once `setup`
/// has set the materials of the floor and the cube.
fn deceleration(setup: impl FnOnce(&mut World, tumble::BodyHandle, tumble::BodyHandle)) -> Real {
    let mut w = World::new(WorldConfig::default()).unwrap();
    let floor = add_floor(&mut w, 0.5, 0.0);
    let cube = w
        .insert(
            cuboid(Vector::repeat(0.5), Vector::new(0.0, 0.5, 0.0))
                .linvel(Vector::new(5.0, 0.0, 0.0)),
        )
        .unwrap();
    setup(&mut w, floor, cube);
    for _ in 0..6 {
        w.step();
    }
    let v0 = w.body(cube).unwrap().linvel().x;
    let steps = 24;
    for _ in 0..steps {
        w.step();
    }
    let v1 = w.body(cube).unwrap().linvel().x;
    assert!(v1 > 0.0, "the cube stopped: pick a shorter window");
    (v0 - v1) / (steps as Real / 60.0)
}

/// Friction set after insert: a cube sliding on the floor decelerates at `μ·g` within 1 % for
/// μ = 0.1, 0.3, 0.6 (pair friction: the geometric mean of the two equal coefficients).
#[test]
fn friction_set_after_insert_gives_coulomb_deceleration() {
    for mu in [0.1, 0.3, 0.6] {
        let a = deceleration(|w, floor, cube| {
            w.set_friction(floor, mu).unwrap();
            w.set_friction(cube, mu).unwrap();
        });
        let expected = mu * 9.81;
        assert!(
            (a - expected).abs() < 0.01 * expected,
            "μ = {mu}: a = {a}, expected {expected}"
        );
    }
}

/// The combine rules on friction coefficients 0.2 (cube) and 0.8 (floor): the cube's rule wins
/// when it ranks higher than the floor's geometric mean, giving min 0.2, average 0.5,
/// multiply 0.16 and max 0.8; the default geometric mean gives 0.4.
#[test]
fn combine_rules_pick_the_pair_friction() {
    for (rule, mu) in [
        (CombineRule::GeometricMean, 0.4),
        (CombineRule::Min, 0.2),
        (CombineRule::Average, 0.5),
        (CombineRule::Multiply, 0.16),
        (CombineRule::Max, 0.8),
    ] {
        let a = deceleration(|w, floor, cube| {
            w.set_friction(floor, 0.8).unwrap();
            w.set_friction(cube, 0.2).unwrap();
            w.set_combine_rules(cube, rule, CombineRule::Max).unwrap();
        });
        let expected = mu * 9.81;
        assert!(
            (a - expected).abs() < 0.01 * expected,
            "{rule:?}: a = {a}, expected {expected}"
        );
    }
}

/// Bad coefficients are refused and change nothing.
#[test]
fn bad_material_values_are_refused_and_change_nothing() {
    let mut w = World::new(WorldConfig::default()).unwrap();
    let c = w
        .insert(cuboid(Vector::repeat(0.5), Vector::zeros()).friction(0.3))
        .unwrap();
    assert!(w.set_friction(c, -1.0).is_err());
    assert!(w.set_friction(c, Real::NAN).is_err());
    assert!(w.set_restitution(c, 1.5).is_err());
    let m = w.body(c).unwrap().material();
    assert_eq!((m.friction, m.restitution), (0.3, 0.0));
}
