//! Triangle–cuboid contacts (`query::contact_triangle_cuboid`, the kernel `query::contact`
//! runs for the pair) against a brute-force SAT over the pair's candidate axes: depth, normal,
//! the speculative gap within `prediction`, points in both shapes; and the manifolds of a box
//! resting on a triangle.

mod common;

use common::*;
use rand::Rng;
use tumble_narrowphase::math::{Isometry, Point, Real, Rotation, Translation, Vector};
use tumble_narrowphase::query::{contact, contact_triangle_cuboid};
use tumble_narrowphase::shape::{ConvexPolyhedron, Cuboid, Shape, Triangle};

/// Every answer of the kernel against the brute-force SAT separation `sep` (the largest over
/// the pair's face normals and edge × edge axes: the penetration of an overlapping pair) and,
/// for an apart pair, the GJK distance `gap`: a contact whenever the gap is within
/// `prediction`, none when an axis separates the pair by more; the depth of an overlapping
/// pair `−sep`, of an apart one between `−gap` and `−sep` (the axes bound the gap from below);
/// the normal's own separation equal to `−depth`; moving the box by depth ± ε along the normal
/// separating it or not; and every point in both shapes, grown by half its depth and a
/// tolerance.
#[test]
fn triangle_cuboid_contact_agrees_with_brute_force_sat() {
    let mut r = rng(31);
    let mut seen = [0usize; 3];
    for k in 0..20_000 {
        let s: Real = [1.0, 1e-3, 1e3][k % 3];
        let t = random_triangle(&mut r, s);
        let e = half_extents(&mut r, s);
        let ca = Vector::new(
            r.gen_range(-3.0..3.0),
            r.gen_range(-3.0..3.0),
            r.gen_range(-3.0..3.0),
        ) * s;
        let cb = ca + direction(&mut r) * r.gen_range(0.0..1.1) * (e.norm() + 1.7 * s);
        let (pt, pb) = (pose(&mut r, ca), pose(&mut r, cb));
        let prediction = [0.0, 0.5 * s][k % 2];
        let (ht, hb) = (
            ConvexPolyhedron::from_triangle(&t),
            ConvexPolyhedron::from_cuboid(&Cuboid::new(e).unwrap()),
        );
        let sep_of = |pb: &Isometry| brute_poly(&pt, &ht, pb, &hb);
        let sep = sep_of(&pb);
        let cuboid = Cuboid::new(e).unwrap();
        // The gap: the distance for an apart pair (which the axes only bound from below).
        let gap = if sep > 0.0 {
            gjk_distance(&pt, &t, &pb, &cuboid)
        } else {
            sep
        };
        let tol = 1e-4 * s;
        let m = contact_triangle_cuboid(&pt, &t, &pb, &e, prediction);
        if sep.abs() < tol {
            continue; // within the stated tolerance of touching
        }
        // Apart pairs: reported when the gap is within the prediction, never when an axis
        // separates them by more.
        if gap < prediction - tol {
            assert!(m.is_some(), "case {k}: gap {gap}, axes {sep}");
        }
        if sep > prediction + tol {
            assert!(m.is_none(), "case {k}: gap {gap}, axes {sep}");
        }
        let Some(m) = m else {
            seen[0] += 1;
            continue;
        };
        seen[1 + (sep < 0.0) as usize] += 1;
        assert!((m.normal.norm() - 1.0).abs() < 1e-4, "case {k}");
        assert!(!m.is_empty() && m.len() <= 4, "case {k}");
        let depth = m.depth();
        // Penetrating: the minimal translation. Apart: a gap between the axes' bound and the
        // distance.
        let tol2 = 2e-3 * s;
        assert!(
            -depth >= sep.min(gap) - tol2 && -depth <= gap + tol2,
            "case {k}: depth {depth}, axes {sep}, gap {gap}"
        );
        // The normal is an axis on which the pair is separated by exactly −depth.
        let on_normal = separation_on(&m.normal, &t.world_corners(&pt), &box_corners(&pb, &e));
        assert!(
            (on_normal + depth).abs() < 2e-3 * s,
            "case {k}: separation on the normal {on_normal} vs depth {depth}"
        );
        if sep < 0.0 {
            let eps = 2e-3 * s;
            assert!(
                sep_of(&moved(&pb, m.normal * (depth + eps))) > 0.0,
                "case {k}"
            );
            assert!(
                sep_of(&moved(&pb, m.normal * (depth - eps))) < 0.0,
                "case {k}"
            );
        }
        for p in m.points() {
            assert!(p.depth <= depth + 1e-4 * s, "case {k}");
            assert!(p.depth >= -prediction - 1e-4 * s, "case {k}");
            let slack = 0.5 * p.depth.abs() + 2e-3 * s;
            let in_box = box_signed_distance(&pb, &e, &p.point);
            let to_tri = point_gap(&pt, &Shape::from(t), &p.point);
            assert!(
                in_box <= slack && to_tri <= slack,
                "case {k}: point {in_box} from the box, {to_tri} from the triangle; {m:?} sep {sep} gap {gap}"
            );
        }
        // Through the general entry point, in both orders: the same contact seen from B.
        let shape_t = Shape::from(t);
        let shape_b = Shape::from(Cuboid::new(e).unwrap());
        let via = contact(&pt, &shape_t, &pb, &shape_b, prediction).unwrap();
        let back = contact(&pb, &shape_b, &pt, &shape_t, prediction).unwrap();
        let (via, back) = (via.expect("same pair"), back.expect("same pair"));
        assert!((via.depth() - depth).abs() < 1e-4 * s, "case {k}");
        assert!((back.depth() - depth).abs() < 1e-4 * s, "case {k}");
        assert!((back.normal + via.normal).norm() < 1e-4, "case {k}");
    }
    assert!(
        seen[0] > 3000 && seen[1] > 1000 && seen[2] > 3000,
        "{seen:?}"
    );
}

/// A triangle 20 m across in the plane y = 0, normal +y, around the origin.
fn ground() -> Triangle {
    Triangle::new(
        Point::new(-10.0, 0.0, -10.0),
        Point::new(0.0, 0.0, 12.0),
        Point::new(10.0, 0.0, -10.0),
    )
    .unwrap()
}

/// A unit box resting face down on a large triangle (5 mm deep), slid and turned about the
/// normal step by step: four points on the triangle's normal, each 5 mm deep, the same four
/// ids at every step.
#[test]
fn box_resting_on_a_triangle_keeps_four_points_and_their_ids() {
    let t = ground();
    let e = Vector::repeat(0.5);
    let tilt = Rotation::from_scaled_axis(Vector::new(0.3, 0.0, -0.2));
    let pt = Isometry::from_parts(Translation::new(1.0, 2.0, 3.0), tilt);
    let up = tilt * t.normal();
    let mut last: Option<Vec<u32>> = None;
    for k in 0..20 {
        let x = 0.02 * k as Real;
        let local = Isometry::new(Vector::new(x, 0.495, -x), Vector::y() * (0.01 * x));
        let pb = pt * local;
        let m = contact_triangle_cuboid(&pt, &t, &pb, &e, 0.0).unwrap();
        assert_eq!(m.len(), 4, "step {k}");
        assert!((m.normal - up).norm() < 1e-5, "step {k}: {:?}", m.normal);
        for p in m.points() {
            assert!((p.depth - 0.005).abs() < 1e-5, "step {k}: {}", p.depth);
        }
        let mut ids: Vec<u32> = m.points().iter().map(|p| p.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), 4, "step {k}");
        if let Some(l) = &last {
            assert_eq!(l, &ids, "step {k}: ids change while the same faces touch");
        }
        last = Some(ids);
    }
}

/// Boxes resting on a triangle, turned by up to 1 mrad about a random horizontal axis (every
/// corner of the bottom face 0.1–1 mm or more deep): always four points, the normal within
/// 2 mrad of the triangle's (the edge × edge axes of a nearly level box beat the face axis by
/// micrometres).
#[test]
fn nearly_level_box_on_a_triangle_touches_face_to_face() {
    let t = ground();
    let mut r = rng(32);
    let pt = Isometry::identity();
    for k in 0..5_000 {
        let e = Vector::new(
            r.gen_range(0.2..1.0),
            r.gen_range(0.2..1.0),
            r.gen_range(0.2..1.0),
        );
        let a = r.gen_range(0.0..std::f32::consts::TAU);
        let turn = Vector::new(a.cos(), 0.0, a.sin()) * r.gen_range(0.0..1e-3);
        let spin = Vector::y() * r.gen_range(-3.0..3.0);
        let rot = Rotation::from_scaled_axis(turn) * Rotation::from_scaled_axis(spin);
        // The highest corner of the bottom face `depth` below the plane (all four under it).
        let mut ys: Vec<Real> =
            box_corners(&Isometry::from_parts(Translation::identity(), rot), &e)
                .iter()
                .map(|c| c.y)
                .collect();
        ys.sort_by(Real::total_cmp);
        let depth = r.gen_range(1e-4..1e-3);
        let c = Vector::new(
            r.gen_range(-2.0..2.0),
            -ys[3] - depth,
            r.gen_range(-2.0..2.0),
        );
        let pb = Isometry::from_parts(Translation::from(c), rot);
        let m = contact_triangle_cuboid(&pt, &t, &pb, &e, 0.0).unwrap();
        assert_eq!(m.len(), 4, "case {k}: {m:?}");
        assert!(
            m.normal.dot(&Vector::y()) > 1.0 - 2e-6,
            "case {k}: {:?}",
            m.normal
        );
    }
}
