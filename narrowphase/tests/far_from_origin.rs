//! Contacts and intersection tests far from the origin: translating a pair as a whole by
//! 10⁵ m must not change its answers beyond 10⁻⁴ of the shapes' size, for every pair of kinds.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::f32::consts::FRAC_1_SQRT_2;
use tumble_narrowphase::math::{Isometry, Point, Real, Rotation, Translation, Vector};
use tumble_narrowphase::query::{contact_any, intersects_any};
use tumble_narrowphase::shape::{Ball, Capsule, ConvexPolyhedron, Cuboid, Shape, Triangle};

fn unit_box() -> Shape {
    Shape::from(Cuboid::new(Vector::new(0.5, 0.5, 0.5)).unwrap())
}

fn depth(pa: &Isometry, a: &Shape, pb: &Isometry, b: &Shape) -> Option<Real> {
    contact_any(pa, a, pb, b, 0.0).unwrap().map(|m| m.depth())
}

/// The triangle of the issue report against a unit box at x = 10⁵.
#[test]
fn far_triangle_box_depth_is_not_quantised() {
    let tri = Shape::from(
        Triangle::new(
            Point::new(-0.4, -0.3, 0.0),
            Point::new(0.4, -0.3, 0.0),
            Point::new(0.0, 0.5, 0.0),
        )
        .unwrap(),
    );
    let rot = Rotation::from_quaternion(nalgebra::Quaternion::new(0.8253356, 0.0, 0.5646425, 0.0));
    let pa = Isometry::translation(100000.0, 0.0, 0.0);
    let pb = Isometry::from_parts(Translation::new(1e5 + 0.6171875, 0.0546875, 0.03125), rot);
    let near = depth(
        &Isometry::identity(),
        &unit_box(),
        &Isometry::from_parts(Translation::new(0.6171875, 0.0546875, 0.03125), rot),
        &tri,
    )
    .expect("touching at the origin");
    assert!((near - 0.0277556).abs() < 1e-6, "at the origin: {near}");
    let far = depth(&pa, &unit_box(), &pb, &tri).expect("touching far away");
    assert!((far - near).abs() <= 1e-4, "far {far} near {near}");
}

/// The capsule of the issue report against a unit box at x = 10⁵.
#[test]
fn far_capsule_box_depth_is_not_quantised() {
    let cap = Shape::from(Capsule::new(0.3, 0.1).unwrap());
    let rot = Rotation::from_quaternion(nalgebra::Quaternion::new(
        FRAC_1_SQRT_2,
        FRAC_1_SQRT_2,
        0.0,
        0.0,
    ));
    let pa = Isometry::translation(100000.0, 0.0, 0.0);
    let pb = Isometry::from_parts(Translation::new(1e5 + 0.5546875, 0.5546875, 0.0), rot);
    let near = depth(
        &Isometry::identity(),
        &unit_box(),
        &Isometry::from_parts(Translation::new(0.5546875, 0.5546875, 0.0), rot),
        &cap,
    )
    .expect("touching at the origin");
    assert!((near - 0.0226602).abs() < 1e-6, "at the origin: {near}");
    let far = depth(&pa, &unit_box(), &pb, &cap).expect("touching far away");
    assert!((far - near).abs() <= 1e-4, "far {far} near {near}");
}

fn random_shape(rng: &mut ChaCha8Rng, kind: usize) -> Shape {
    let s = |rng: &mut ChaCha8Rng| rng.gen_range(0.15..0.5);
    match kind {
        0 => Shape::from(Ball::new(s(rng)).unwrap()),
        1 => Shape::from(Cuboid::new(Vector::new(s(rng), s(rng), s(rng))).unwrap()),
        2 => Shape::from(Capsule::new(s(rng), s(rng) * 0.5).unwrap()),
        3 => loop {
            let mut p = || Point::new(s(rng) * 2.0 - 0.5, s(rng) * 2.0 - 0.5, 0.0);
            if let Ok(t) = Triangle::new(p(), p(), p()) {
                return Shape::from(t);
            }
        },
        _ => loop {
            let pts: Vec<Point> = (0..10)
                .map(|_| {
                    Point::new(
                        rng.gen_range(-0.5..0.5),
                        rng.gen_range(-0.5..0.5),
                        rng.gen_range(-0.5..0.5),
                    )
                })
                .collect();
            if let Ok(h) = ConvexPolyhedron::from_points(&pts) {
                return Shape::from(h);
            }
        },
    }
}

fn random_rotation(rng: &mut ChaCha8Rng) -> Rotation {
    Rotation::from_quaternion(nalgebra::Quaternion::new(
        rng.gen_range(-1.0..1.0),
        rng.gen_range(-1.0..1.0),
        rng.gen_range(-1.0..1.0),
        rng.gen_range(-1.0..1.0),
    ))
}

/// Every pair of kinds (ball, box, capsule, triangle, hull), in both orders, near contact
/// at centres around 10⁵ m, against the same pair moved exactly to the origin (A's
/// translation subtracted from both, exact in `f32` for coordinates within a factor 2).
#[test]
fn far_pairs_match_the_pair_at_the_origin() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xfa4);
    const SIZE: Real = 1.0;
    let mut compared = 0;
    for kind_a in 0..5 {
        for kind_b in 0..5 {
            for _ in 0..150 {
                let a = random_shape(&mut rng, kind_a);
                let b = random_shape(&mut rng, kind_b);
                let far = Vector::new(
                    rng.gen_range(0.7e5..1.3e5),
                    rng.gen_range(-1.3e5..-0.7e5),
                    rng.gen_range(0.7e5..1.3e5),
                );
                let offset = Vector::new(
                    rng.gen_range(-0.8..0.8),
                    rng.gen_range(-0.8..0.8),
                    rng.gen_range(-0.8..0.8),
                );
                let (ra, rb) = (random_rotation(&mut rng), random_rotation(&mut rng));
                let pa_far = Isometry::from_parts(Translation::from(far), ra);
                let pb_far = Isometry::from_parts(Translation::from(far + offset), rb);
                let rel = pb_far.translation.vector - pa_far.translation.vector;
                let pa = Isometry::from_parts(Translation::identity(), ra);
                let pb = Isometry::from_parts(Translation::from(rel), rb);
                let prediction = 0.05;
                let near = contact_any(&pa, &a, &pb, &b, prediction).unwrap();
                let got = contact_any(&pa_far, &a, &pb_far, &b, prediction).unwrap();
                match (near, got) {
                    (Some(n), Some(g)) => {
                        assert!(
                            (n.depth() - g.depth()).abs() <= 1e-4 * SIZE,
                            "kinds {kind_a}/{kind_b}: depth {} far, {} at the origin\n{a:?} {pa:?}\n{b:?} {pb:?}",
                            g.depth(),
                            n.depth()
                        );
                        compared += 1;
                    }
                    (None, None) => {}
                    (n, g) => {
                        // Only at the edge of the prediction distance.
                        let d = n.or(g).unwrap().depth();
                        assert!(
                            (d + prediction).abs() <= 1e-4 * SIZE,
                            "kinds {kind_a}/{kind_b}: contact {} far, {} at the origin (depth {d})\n{a:?} {pa:?}\n{b:?} {pb:?}",
                            g.is_some(),
                            n.is_some()
                        );
                    }
                }
                let (ti, tf) = (
                    intersects_any(&pa, &a, &pb, &b).unwrap(),
                    intersects_any(&pa_far, &a, &pb_far, &b).unwrap(),
                );
                if ti != tf {
                    let d = depth(&pa, &a, &pb, &b).unwrap_or(-1.0);
                    assert!(
                        d.abs() <= 1e-4 * SIZE,
                        "kinds {kind_a}/{kind_b}: intersecting {tf} far, {ti} at the origin (depth {d})"
                    );
                }
            }
        }
    }
    assert!(compared > 1000, "only {compared} contacts compared");
}
