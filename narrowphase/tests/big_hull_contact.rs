//! Contacts of convex hulls above `SAT_MAX_FACES` faces (the Gauss-map SAT path): random
//! pairs of 40–200-face hulls (points on spheres and ellipsoids), deep, just penetrating and
//! just apart, at four scales, against the brute-force SAT over every face normal and every
//! edge × edge axis (exact for polytopes); and two 64-face UV spheres at known overlaps.

mod common;

use common::*;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use tumble_narrowphase::gjk;
use tumble_narrowphase::math::{Isometry, Point, Real, Rotation, Translation, Vector};
use tumble_narrowphase::query::contact;
use tumble_narrowphase::sat::convex::SAT_MAX_FACES;
use tumble_narrowphase::shape::{ConvexPolyhedron, Shape, Triangle};

const SCALES: [Real; 4] = [1.0, 1e-3, 1e3, 0.05];

/// The hull of `n` random points on an ellipsoid of semi-axes `s · stretch` (all on the
/// hull: about 2n − 4 triangular faces).
fn ellipsoid_hull(r: &mut ChaCha8Rng, n: usize, s: Real) -> ConvexPolyhedron {
    let stretch = if r.gen_range(0..3) == 0 {
        Vector::repeat(1.0)
    } else {
        Vector::new(
            r.gen_range(0.3..1.0),
            r.gen_range(0.3..1.0),
            r.gen_range(0.3..1.0),
        )
    };
    loop {
        let pts: Vec<Point> = (0..n)
            .map(|_| Point::from(direction(r).component_mul(&stretch) * s))
            .collect();
        if let Ok(h) = ConvexPolyhedron::from_points(&pts) {
            return h;
        }
    }
}

/// Largest distance of a corner from the local origin.
fn radius(h: &ConvexPolyhedron) -> Real {
    h.vertices()
        .iter()
        .map(|v| v.coords.norm())
        .fold(0.0, Real::max)
}

/// The largest `t` in `[0, hi]` at which B, centred at `ca + t · dir`, still touches A (the
/// set of such `t` is an interval holding 0, the line through a convex `A − B`).
fn touching_offset(
    pa: &Isometry,
    a: &ConvexPolyhedron,
    rot_b: Rotation,
    b: &ConvexPolyhedron,
    dir: &Vector,
    hi: Real,
) -> Real {
    let at =
        |t: Real| Isometry::from_parts(Translation::from(pa.translation.vector + dir * t), rot_b);
    let (mut lo, mut hi) = (0.0, hi);
    for _ in 0..40 {
        let mid = 0.5 * (lo + hi);
        if gjk::intersects(pa, a, &at(mid), b) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

#[test]
fn big_hull_depths_are_the_minimal_translation() {
    let mut r = rng(41);
    let mut faces = (usize::MAX, 0);
    let mut seen = [0usize; 3];
    for k in 0..240 {
        let s = SCALES[k % 4];
        let (na, nb) = (r.gen_range(22..=102), r.gen_range(22..=102));
        let a = ellipsoid_hull(&mut r, na, s);
        let b = ellipsoid_hull(&mut r, nb, s);
        for h in [&a, &b] {
            h.validate().unwrap_or_else(|e| panic!("case {k}: {e}"));
            faces = (faces.0.min(h.faces().len()), faces.1.max(h.faces().len()));
        }
        let ca = Vector::new(
            r.gen_range(-5.0..5.0),
            r.gen_range(-5.0..5.0),
            r.gen_range(-5.0..5.0),
        ) * s;
        let pa = pose(&mut r, ca);
        let rot_b = rotation(&mut r);
        let dir = direction(&mut r);
        let reach = radius(&a) + radius(&b);
        // Deep, just penetrating, just apart (0.02 % to 1 % of the size).
        let kind = k % 3;
        let t = match kind {
            0 => reach * r.gen_range(0.0..0.8),
            _ => {
                let t0 = touching_offset(&pa, &a, rot_b, &b, &dir, reach);
                let d = s * r.gen_range(2e-4..1e-2);
                if kind == 1 {
                    t0 - d
                } else {
                    t0 + d
                }
            }
        };
        let pb = Isometry::from_parts(Translation::from(ca + dir * t), rot_b);
        let (sa, sb) = (Shape::from(a.clone()), Shape::from(b.clone()));
        let gap = |pb: &Isometry| brute_poly(&pa, &a, pb, &b);
        let g = gap(&pb);
        if g.abs() < 1e-4 * s {
            continue;
        }
        seen[kind] += 1;
        check_contact(&pa, &sa, &pb, &sb, s, &gap, k);
        if let Some(m) = contact(&pa, &sa, &pb, &sb, 0.0).unwrap() {
            // Tighter than check_contact's bound: the Gauss-map SAT is exact, not approximate.
            assert!(
                (m.depth() + g).abs() < 2e-5 * s,
                "case {k}: depth {} vs brute {}",
                m.depth(),
                -g
            );
        } else {
            // Apart: within a prediction of twice the distance there is a contact whose gap
            // is no larger than the true distance (a speculative contact must not let the
            // bodies close more than they can).
            let d = gjk_distance(&pa, &a, &pb, &b);
            let m = contact(&pa, &sa, &pb, &sb, 2.0 * d + 1e-3 * s)
                .unwrap()
                .unwrap_or_else(|| panic!("case {k}: no contact within prediction"));
            assert!(
                -m.depth() <= d + 1e-5 * s && -m.depth() >= g - 1e-5 * s,
                "case {k}: gap {} vs distance {d}, brute {g}",
                -m.depth()
            );
            assert!((m.normal.norm() - 1.0).abs() < 1e-4);
        }
    }
    assert!(faces.0 > SAT_MAX_FACES && faces.1 >= 150, "{faces:?}");
    assert!(seen.iter().all(|&n| n > 60), "{seen:?}");
}

/// A triangle (a flat polyhedron: its Gauss-map arcs are split half circles) against a big
/// hull, deep and near the surface, both orders.
#[test]
fn triangles_against_big_hulls() {
    let mut r = rng(43);
    let mut seen = 0;
    for k in 0..300 {
        let s = SCALES[k % 4];
        let n = r.gen_range(22..=102);
        let h = ellipsoid_hull(&mut r, n, s);
        let c = [0, 1, 2].map(|_| Point::from(direction(&mut r) * s * r.gen_range(0.2..0.8)));
        let Ok(t) = Triangle::new(c[0], c[1], c[2]) else {
            continue;
        };
        let ph = pose(&mut r, Vector::zeros());
        let at = direction(&mut r) * s * r.gen_range(0.3..1.3);
        let pt = pose(&mut r, at);
        let (sh, st) = (Shape::from(h.clone()), Shape::from(t));
        let tp = ConvexPolyhedron::from_triangle(&t);
        if k % 2 == 0 {
            check_contact(
                &ph,
                &sh,
                &pt,
                &st,
                s,
                &|p: &Isometry| brute_poly(&ph, &h, p, &tp),
                k,
            );
        } else {
            check_contact(
                &pt,
                &st,
                &ph,
                &sh,
                s,
                &|p: &Isometry| brute_poly(&pt, &tp, p, &h),
                k,
            );
        }
        seen += (brute_poly(&ph, &h, &pt, &tp) < -1e-4 * s) as usize;
    }
    assert!(seen > 100, "{seen}");
}

/// A UV sphere of radius 1: `SEGMENTS` longitudes, `RINGS` bands (poles included), so
/// `SEGMENTS · RINGS` faces: quads, and triangles round the poles. Returns the corners and
/// each face's outward unit normal and plane offset, from the construction.
const SEGMENTS: usize = 8;
const RINGS: usize = 8;

fn uv_sphere() -> (Vec<Point>, Vec<(Vector, Real)>) {
    let lat =
        |i: usize| -std::f64::consts::FRAC_PI_2 + std::f64::consts::PI * i as f64 / RINGS as f64;
    let lon = |j: usize| std::f64::consts::TAU * j as f64 / SEGMENTS as f64;
    let at = |i: usize, j: usize| {
        let (t, p) = (lat(i), lon(j));
        nalgebra::Vector3::new(t.cos() * p.cos(), t.cos() * p.sin(), t.sin())
    };
    let mut corners = vec![Point::new(0.0, 0.0, -1.0), Point::new(0.0, 0.0, 1.0)];
    for i in 1..RINGS {
        for j in 0..SEGMENTS {
            corners.push(Point::from(at(i, j).cast::<Real>()));
        }
    }
    let mut planes = Vec::new();
    for i in 0..RINGS {
        for j in 0..SEGMENTS {
            // Three corners of the band's cell (the pole repeats on the end bands).
            let (p, q, w) = if i == 0 {
                (at(0, 0), at(1, j), at(1, j + 1))
            } else {
                (at(i, j), at(i, j + 1), at(i + 1, j))
            };
            let n = (q - p).cross(&(w - p)).normalize();
            let n = if n.dot(&p) < 0.0 { -n } else { n };
            planes.push((n.cast::<Real>(), n.dot(&p) as Real));
        }
    }
    (corners, planes)
}

#[test]
fn two_64_face_spheres_at_known_overlaps() {
    let (corners, planes) = uv_sphere();
    let h = ConvexPolyhedron::from_points(&corners).unwrap();
    assert_eq!(h.faces().len(), SEGMENTS * RINGS);
    let s = Shape::from(h.clone());
    let pa = Isometry::identity();
    // The sphere is symmetric about its centre, so with B = A + t (same orientation, or turned
    // by a multiple of 45° about z, which maps it onto itself) A − B = 2A − t: the depth is
    // the distance from t to the boundary of 2A, min over faces of 2h − t · n.
    let expected = |t: &Vector| {
        planes
            .iter()
            .map(|(n, h)| (2.0 * h - t.dot(n), *n))
            .min_by(|x, y| x.0.total_cmp(&y.0))
            .unwrap()
    };
    let mut r = rng(42);
    for k in 0..200 {
        let t = direction(&mut r) * r.gen_range(0.05..1.5);
        let turn = Rotation::from_axis_angle(
            &Vector::z_axis(),
            std::f32::consts::FRAC_PI_4 * (k % 8) as Real,
        );
        let pb = Isometry::from_parts(Translation::from(t), turn);
        let (depth, n) = expected(&t);
        let m = contact(&pa, &s, &pb, &s, 0.0)
            .unwrap()
            .expect("overlapping");
        assert!(
            (m.depth() - depth).abs() < 1e-5,
            "case {k}: depth {} vs {depth}",
            m.depth()
        );
        // The normal is the face's unless two faces tie.
        let second = planes
            .iter()
            .map(|(m, h)| 2.0 * h - t.dot(m))
            .filter(|d| (d - depth).abs() > 1e-6)
            .fold(Real::INFINITY, Real::min);
        if second - depth > 1e-3 {
            assert!(
                (m.normal - n).norm() < 1e-4,
                "case {k}: {:?} vs {n:?}",
                m.normal
            );
        }
    }
    // Face on face, resting: B's opposite face parallel to A's equatorial face, 1 cm into it,
    // then 1 cm apart (seen within a 2 cm prediction): four points either way.
    let (n, h0) = planes[RINGS / 2 * SEGMENTS];
    for gap in [-0.01, 0.01] {
        let pb = Isometry::from_parts(
            Translation::from(n * (2.0 * h0 + gap)),
            Rotation::identity(),
        );
        let m = contact(&pa, &s, &pb, &s, 0.02)
            .unwrap()
            .expect("within prediction");
        assert_eq!(m.len(), 4, "gap {gap}");
        assert!(
            (m.depth() + gap).abs() < 1e-5,
            "gap {gap}: depth {}",
            m.depth()
        );
        assert!((m.normal - n).norm() < 1e-5);
        for p in m.points() {
            assert!((p.depth + gap).abs() < 1e-5);
        }
    }
}
