//! Box–box and ball–cuboid through the general entry points, against brute-force oracles:
//! the intersection answer, the minimal-translation property of the depth, and that contact
//! points lie in both shapes.

mod common;

use common::*;
use rand::Rng;
use tumble_narrowphase::contact::Manifold;
use tumble_narrowphase::math::{Isometry, Point, Real, Vector};
use tumble_narrowphase::query::{contact, intersection_test};
use tumble_narrowphase::shape::{Ball, Cuboid, Shape};

/// Random box pairs at scale `s`: centres at a random distance so that about half overlap.
fn box_pair(r: &mut rand_chacha::ChaCha8Rng, s: Real) -> (Isometry, Vector, Isometry, Vector) {
    let ea = half_extents(r, s);
    let eb = half_extents(r, s);
    let ca = Vector::new(
        r.gen_range(-3.0..3.0),
        r.gen_range(-3.0..3.0),
        r.gen_range(-3.0..3.0),
    ) * s;
    let reach = ea.norm() + eb.norm();
    let cb = ca + direction(r) * r.gen_range(0.0..1.1) * reach;
    (pose(r, ca), ea, pose(r, cb), eb)
}

#[test]
fn cuboid_cuboid_agrees_with_brute_force_sat() {
    let mut r = rng(1);
    let mut checked = [0usize; 2];
    for k in 0..20_000 {
        let s = [1.0, 1e-3, 1e3][k % 3];
        let (pa, ea, pb, eb) = box_pair(&mut r, s);
        let sa = Shape::from(Cuboid::new(ea).unwrap());
        let sb = Shape::from(Cuboid::new(eb).unwrap());
        let sep = brute_cuboid_cuboid(&pa, &ea, &pb, &eb);
        let tol = 1e-4 * s;
        let hit = intersection_test(&pa, &sa, &pb, &sb).unwrap();
        let m = contact(&pa, &sa, &pb, &sb, 0.0).unwrap();
        if sep.abs() < tol {
            continue; // within the stated tolerance of touching
        }
        checked[hit as usize] += 1;
        assert_eq!(hit, sep < 0.0, "case {k}: brute separation {sep}");
        assert_eq!(
            m.is_some(),
            sep < 0.0,
            "case {k}: contact vs brute separation {sep}"
        );
        if let Some(m) = m {
            assert!((m.normal.norm() - 1.0).abs() < 1e-4);
            assert!(!m.is_empty() && m.len() <= 4);
            // The depth is the minimal translation: brute SAT penetration.
            let depth = m.depth();
            assert!(
                (depth + sep).abs() < 2e-3 * s,
                "case {k}: depth {depth} vs brute penetration {}",
                -sep
            );
            let eps = 1e-3 * s;
            let out = moved(&pb, m.normal * (depth + eps));
            assert!(
                brute_cuboid_cuboid(&pa, &ea, &out, &eb) > 0.0,
                "case {k}: depth + ε does not separate"
            );
            let inn = moved(&pb, m.normal * (depth - eps));
            assert!(
                brute_cuboid_cuboid(&pa, &ea, &inn, &eb) < 0.0,
                "case {k}: depth − ε separates"
            );
            for p in m.points() {
                assert!(p.depth <= depth + 1e-4 * s);
                let da = box_signed_distance(&pa, &ea, &p.point);
                let db = box_signed_distance(&pb, &eb, &p.point);
                let slack = 0.5 * depth.max(0.0) + 1e-4 * s;
                assert!(
                    da <= slack && db <= slack,
                    "case {k}: point {da} {db} slack {slack}"
                );
            }
        }
    }
    assert!(checked[0] > 5000 && checked[1] > 5000, "{checked:?}");
}

#[test]
fn cuboid_cuboid_prediction_gives_negative_depths() {
    let a = Shape::from(Cuboid::new(Vector::repeat(1.0)).unwrap());
    let pa = Isometry::identity();
    let pb = Isometry::translation(0.0, 2.05, 0.0);
    assert!(contact(&pa, &a, &pb, &a, 0.0).unwrap().is_none());
    assert!(contact(&pa, &a, &pb, &a, 0.04).unwrap().is_none());
    let m = contact(&pa, &a, &pb, &a, 0.1).unwrap().unwrap();
    assert_eq!(m.len(), 4);
    assert!((m.normal - Vector::y()).norm() < 1e-6);
    for p in m.points() {
        assert!((p.depth + 0.05).abs() < 1e-5);
        assert!((p.point.y - 1.025).abs() < 1e-5);
    }
}

#[test]
fn resting_box_gives_four_stable_ids() {
    let a = Shape::from(Cuboid::new(Vector::new(5.0, 0.5, 5.0)).unwrap());
    let b = Shape::from(Cuboid::new(Vector::repeat(0.5)).unwrap());
    let pa = Isometry::identity();
    let mut last: Option<Vec<u32>> = None;
    for k in 0..5 {
        let pb = Isometry::new(
            Vector::new(0.01 * k as Real, 0.99, 0.0),
            Vector::y() * (0.01 * k as Real),
        );
        let m = contact(&pa, &a, &pb, &b, 0.0).unwrap().unwrap();
        assert_eq!(m.len(), 4);
        assert!((m.normal - Vector::y()).norm() < 1e-5);
        let mut ids: Vec<u32> = m.points().iter().map(|p| p.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), 4);
        if let Some(l) = &last {
            assert_eq!(l, &ids, "ids change while the same faces touch");
        }
        last = Some(ids);
        // Same pair seen from B: normal reversed, same depth.
        let f = contact(&pb, &b, &pa, &a, 0.0).unwrap().unwrap();
        assert!((f.normal + m.normal).norm() < 1e-5);
        assert!((f.depth() - m.depth()).abs() < 1e-5);
    }
}

#[test]
fn crossed_sticks_touch_by_one_edge_point() {
    // Two sticks crossing at right angles, one above the other, overlapping by 0.1 on y:
    // an edge × edge contact gives one point, between the two sticks.
    let stick = Shape::from(Cuboid::new(Vector::new(2.0, 0.1, 0.1)).unwrap());
    let s = std::f32::consts::FRAC_1_SQRT_2;
    let pa = Isometry::rotation(Vector::y() * std::f32::consts::FRAC_PI_4);
    let pb = Isometry::new(
        Vector::new(0.0, 0.3, 0.0),
        Vector::new(0.0, -std::f32::consts::FRAC_PI_4, 0.0),
    ) * Isometry::rotation(Vector::x() * std::f32::consts::FRAC_PI_4);
    let _ = s;
    let m = contact(&pa, &stick, &pb, &stick, 0.0).unwrap();
    let sep = brute_cuboid_cuboid(
        &pa,
        &Vector::new(2.0, 0.1, 0.1),
        &pb,
        &Vector::new(2.0, 0.1, 0.1),
    );
    assert_eq!(m.is_some(), sep < 0.0);
    if let Some(m) = m {
        assert!((m.depth() + sep).abs() < 1e-4);
    }
}

#[test]
fn ball_box_agrees_with_closest_point_oracle() {
    let mut r = rng(2);
    for k in 0..20_000 {
        let s = [1.0, 1e-3, 1e3][k % 3];
        let e = half_extents(&mut r, s);
        let ca = Vector::new(r.gen_range(-3.0..3.0), 0.0, r.gen_range(-3.0..3.0)) * s;
        let pa = pose(&mut r, ca);
        let rad = r.gen_range(0.05..1.0) * s;
        let c =
            pa.translation.vector + direction(&mut r) * r.gen_range(0.0..1.2) * (e.norm() + rad);
        let pb = Isometry::translation(c.x, c.y, c.z);
        let (sa, sb) = (
            Shape::from(Cuboid::new(e).unwrap()),
            Shape::from(Ball::new(rad).unwrap()),
        );
        let gap = box_signed_distance(&pa, &e, &Point::from(c)) - rad;
        if gap.abs() < 1e-4 * s {
            continue;
        }
        assert_eq!(
            intersection_test(&pa, &sa, &pb, &sb).unwrap(),
            gap < 0.0,
            "case {k}"
        );
        assert_eq!(
            intersection_test(&pb, &sb, &pa, &sa).unwrap(),
            gap < 0.0,
            "case {k}"
        );
        let m = contact(&pa, &sa, &pb, &sb, 0.0).unwrap();
        let f = contact(&pb, &sb, &pa, &sa, 0.0).unwrap();
        assert_eq!(m.is_some(), gap < 0.0);
        if let (Some(m), Some(f)) = (m, f) {
            assert!((m.normal + f.normal).norm() < 1e-5);
            let depth = m.depth();
            assert!(
                (depth + gap).abs() < 1e-4 * s,
                "case {k}: {depth} vs {}",
                -gap
            );
            let eps = 1e-3 * s;
            let out = Point::from(c + m.normal * (depth + eps));
            assert!(box_signed_distance(&pa, &e, &out) > rad);
            let inn = Point::from(c + m.normal * (depth - eps));
            assert!(box_signed_distance(&pa, &e, &inn) < rad);
            let p = m.points()[0].point;
            assert!(box_signed_distance(&pa, &e, &p) <= 0.5 * depth + 1e-4 * s);
            assert!((p.coords - c).norm() <= rad + 0.5 * depth + 1e-4 * s);
        }
    }
}

#[test]
fn extreme_inputs_never_panic_or_give_nan() {
    let mut r = rng(3);
    for k in 0..5000 {
        let s: Real = [1e-6, 1e6, 1.0, 1e-3][k % 4];
        let (pa, ea, pb, eb) = box_pair(&mut r, s);
        let off = Vector::new(1e6, -1e6, 1e6) * ((k % 2) as Real);
        let (pa, pb) = (moved(&pa, off), moved(&pb, off));
        let sa = Shape::from(Cuboid::new(ea).unwrap());
        let sb = Shape::from(Cuboid::new(eb).unwrap());
        let _ = intersection_test(&pa, &sa, &pb, &sb).unwrap();
        for pred in [0.0, s] {
            if let Some(m) = contact(&pa, &sa, &pb, &sb, pred).unwrap() {
                assert!(m.normal.iter().all(|x| x.is_finite()));
                assert!(m
                    .points()
                    .iter()
                    .all(|p| p.depth.is_finite() && p.point.iter().all(|x| x.is_finite())));
            }
        }
    }
    // Exactly touching, exactly coincident.
    let a = Shape::from(Cuboid::new(Vector::repeat(1.0)).unwrap());
    let id = Isometry::identity();
    assert!(intersection_test(&id, &a, &Isometry::translation(2.0, 0.0, 0.0), &a).unwrap());
    let m = contact(&id, &a, &id, &a, 0.0).unwrap().unwrap();
    assert!((m.depth() - 2.0).abs() < 1e-6);
    let b = Shape::from(Ball::new(0.5).unwrap());
    let m = contact(&id, &a, &id, &b, 0.0).unwrap().unwrap();
    assert!((m.depth() - 1.5).abs() < 1e-6 && m.normal.iter().all(|x| x.is_finite()));
}

/// Unit cubes resting on each other as in a pyramid (B centred over a corner of A, sunk by
/// 0.05–0.5 mm), each turned by up to 1 mrad about a random axis, with the world's default
/// prediction distance (2 cm): an edge of A crossing a perpendicular edge of B then gives an
/// axis that separates them by up to about 0.2 mm less than the face axes (10–70 µm in the
/// `pyramid` scene), but the boxes touch face to face and the manifold must say so: four
/// points, the normal within 2 mrad of A's face normal. (The depth stays the minimal
/// translation: `cuboid_cuboid_agrees_with_brute_force_sat`.) A one-point edge manifold here
/// switches with the four-point face manifold from step to step.
#[test]
fn nearly_aligned_resting_cubes_touch_face_to_face() {
    let mut r = rng(7);
    for k in 0..5_000 {
        let pa = Isometry::from_parts(Vector::zeros().into(), turn(&mut r, 0.001));
        let corner = Vector::new(
            if r.gen_bool(0.5) { 0.505 } else { -0.505 },
            1.0 - r.gen_range(0.000_05..0.000_5),
            if r.gen_bool(0.5) { 0.505 } else { -0.505 },
        );
        let pb = Isometry::from_parts(corner.into(), turn(&mut r, 0.001));
        unit_cubes_face_to_face(k, &pa, &pb, 0.002);
    }
}

/// A rotation by up to `max` radians about a random axis.
fn turn(r: &mut rand_chacha::ChaCha8Rng, max: Real) -> nalgebra::UnitQuaternion<Real> {
    let axis = direction(r);
    nalgebra::UnitQuaternion::from_scaled_axis(axis * r.gen_range(0.0..max))
}

/// The contact of unit cube B at `pb` resting on unit cube A at `pa` (prediction 2 cm),
/// checked to be face to face: four points, the normal within `angle` radians of A's top face
/// normal.
fn unit_cubes_face_to_face(k: usize, pa: &Isometry, pb: &Isometry, angle: Real) -> Manifold {
    let cube = Shape::from(Cuboid::new(Vector::repeat(0.5)).unwrap());
    let m = contact(pa, &cube, pb, &cube, 0.02).unwrap().unwrap();
    assert_eq!(m.len(), 4, "case {k}: {m:?}");
    let up = pa.rotation * Vector::y();
    assert!(m.normal.dot(&up) > angle.cos(), "case {k}: {m:?}");
    m
}

/// Cubes in a loaded pile sink a centimetre or two into each other while turned by up to
/// 20 mrad: an edge × edge axis then beats the face axes by up to several millimetres, within
/// the boxes' relative turn of the face normal. Its one point let a box wedged in the `settle`
/// pile rock between a one-point edge manifold and the face manifold and pop out at 1 m/s
/// (body 990 at step 455: 1.1 cm face depth against 0.93 cm on an edge axis 11 mrad away).
/// The face contact holds: four points, the exact minimal depth (brute-force SAT), the normal
/// within 0.1 rad of the lower cube's face.
#[test]
fn nearly_aligned_cubes_sunk_deep_touch_face_to_face() {
    let mut r = rng(11);
    let e = Vector::repeat(0.5);
    for k in 0..20_000 {
        let pa = Isometry::from_parts(Vector::zeros().into(), turn(&mut r, 0.01));
        let centre = Vector::new(
            r.gen_range(-0.3..0.3),
            1.0 - r.gen_range(0.005..0.02),
            r.gen_range(-0.3..0.3),
        );
        let pb = Isometry::from_parts(centre.into(), turn(&mut r, 0.01));
        let m = unit_cubes_face_to_face(k, &pa, &pb, 0.1);
        let depth = -brute_cuboid_cuboid(&pa, &e, &pb, &e);
        assert!(
            (m.depth() - depth).abs() < 1e-4,
            "case {k}: {} vs {depth}",
            m.depth()
        );
    }
}
