//! Shared helpers of the narrow phase's integration tests: seeded random poses and shapes, and
//! brute-force oracles written independently of the crate's fast paths.
#![allow(dead_code)]

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tumble_narrowphase::gjk::{self, GjkResult, Segment, SupportMap};
use tumble_narrowphase::math::{Isometry, Point, Real, Rotation, Translation, Vector};
use tumble_narrowphase::query::contact;
use tumble_narrowphase::shape::{ConvexPolyhedron, Shape};

/// A seeded generator.
pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// A uniformly random rotation (Shoemake).
pub fn rotation(r: &mut ChaCha8Rng) -> Rotation {
    let (u1, u2, u3): (f64, f64, f64) = (r.gen(), r.gen(), r.gen());
    let tau = std::f64::consts::TAU;
    let q = nalgebra::Quaternion::new(
        (u1.sqrt() * (tau * u3).cos()) as Real,
        ((1.0 - u1).sqrt() * (tau * u2).sin()) as Real,
        ((1.0 - u1).sqrt() * (tau * u2).cos()) as Real,
        (u1.sqrt() * (tau * u3).sin()) as Real,
    );
    Rotation::from_quaternion(q)
}

/// A random unit vector.
pub fn direction(r: &mut ChaCha8Rng) -> Vector {
    loop {
        let v = Vector::new(
            r.gen_range(-1.0..1.0),
            r.gen_range(-1.0..1.0),
            r.gen_range(-1.0..1.0),
        );
        let n = v.norm();
        if n > 0.1 && n <= 1.0 {
            return v / n;
        }
    }
}

/// Half-extents of a random box of size scale `s`: a cube-ish box, a thin plate or a stick.
pub fn half_extents(r: &mut ChaCha8Rng, s: Real) -> Vector {
    let mut e = Vector::new(
        r.gen_range(0.2..1.0),
        r.gen_range(0.2..1.0),
        r.gen_range(0.2..1.0),
    );
    match r.gen_range(0..4) {
        0 => e[r.gen_range(0..3)] *= 0.02, // thin plate
        1 => {
            // long stick
            let k = r.gen_range(0..3);
            e[(k + 1) % 3] *= 0.05;
            e[(k + 2) % 3] *= 0.05;
        }
        _ => {}
    }
    e * s
}

/// A pose at `c` with a random rotation (or the identity one time in eight, for axis-aligned
/// and exactly-parallel cases).
pub fn pose(r: &mut ChaCha8Rng, c: Vector) -> Isometry {
    let rot = if r.gen_range(0..8) == 0 {
        Rotation::identity()
    } else {
        rotation(r)
    };
    Isometry::from_parts(Translation::from(c), rot)
}

/// The 8 corners of a box in world space.
pub fn box_corners(pose: &Isometry, e: &Vector) -> Vec<Point> {
    (0..8)
        .map(|k| {
            let p = Point::new(
                if k & 1 == 1 { e.x } else { -e.x },
                if k & 2 == 2 { e.y } else { -e.y },
                if k & 4 == 4 { e.z } else { -e.z },
            );
            pose * p
        })
        .collect()
}

/// World axes of a box (columns of its rotation).
pub fn box_axes(pose: &Isometry) -> [Vector; 3] {
    let m = pose.rotation.to_rotation_matrix();
    [
        m.matrix().column(0).into(),
        m.matrix().column(1).into(),
        m.matrix().column(2).into(),
    ]
}

/// Separation of two point sets on unit axis `l`: positive = gap.
pub fn separation_on(l: &Vector, a: &[Point], b: &[Point]) -> Real {
    let (mut amin, mut amax) = (Real::INFINITY, Real::NEG_INFINITY);
    for p in a {
        let d = l.dot(&p.coords);
        amin = amin.min(d);
        amax = amax.max(d);
    }
    let (mut bmin, mut bmax) = (Real::INFINITY, Real::NEG_INFINITY);
    for p in b {
        let d = l.dot(&p.coords);
        bmin = bmin.min(d);
        bmax = bmax.max(d);
    }
    (bmin - amax).max(amin - bmax)
}

/// Brute-force SAT of two convex polytopes given by their corners, face normals and edge
/// directions (world space): the largest separation over all candidate axes, normalised.
/// Positive: apart by at least that much; negative: penetrating by exactly its magnitude
/// (for polytopes the minimal translation is along one of these axes).
pub fn brute_sat(
    ca: &[Point],
    fa: &[Vector],
    ea: &[Vector],
    cb: &[Point],
    fb: &[Vector],
    eb: &[Vector],
) -> Real {
    let mut best = Real::NEG_INFINITY;
    for n in fa.iter().chain(fb.iter()) {
        best = best.max(separation_on(&n.normalize(), ca, cb));
    }
    for a in ea {
        for b in eb {
            let l = a.normalize().cross(&b.normalize());
            if l.norm() > 1e-3 {
                best = best.max(separation_on(&l.normalize(), ca, cb));
            }
        }
    }
    best
}

/// [`brute_sat`] for two boxes.
pub fn brute_cuboid_cuboid(pa: &Isometry, ea: &Vector, pb: &Isometry, eb: &Vector) -> Real {
    let (aa, ab) = (box_axes(pa), box_axes(pb));
    brute_sat(
        &box_corners(pa, ea),
        &aa,
        &aa,
        &box_corners(pb, eb),
        &ab,
        &ab,
    )
}

/// Signed distance from a world point to a box (negative inside: minus the distance to the
/// nearest face).
pub fn box_signed_distance(pose: &Isometry, e: &Vector, p: &Point) -> Real {
    let l = pose.inverse_transform_point(p).coords;
    let q = Vector::new(l.x.abs() - e.x, l.y.abs() - e.y, l.z.abs() - e.z);
    let outside = Vector::new(q.x.max(0.0), q.y.max(0.0), q.z.max(0.0)).norm();
    outside + q.x.max(q.y).max(q.z).min(0.0)
}

/// A point with each coordinate uniform in `[-s, s)`.
pub fn point_in_cube(r: &mut ChaCha8Rng, s: Real) -> Point {
    Point::new(r.gen_range(-s..s), r.gen_range(-s..s), r.gen_range(-s..s))
}

/// A pose with its centre uniform in the cube `[-s, s)³` and a uniformly random rotation.
pub fn pose_in_cube(r: &mut ChaCha8Rng, s: Real) -> Isometry {
    Isometry::from_parts(Translation::from(point_in_cube(r, s).coords), rotation(r))
}

/// Distance from a world point to the solid box (zero inside).
pub fn box_distance(pose: &Isometry, e: &Vector, p: &Point) -> Real {
    box_signed_distance(pose, e, p).max(0.0)
}

/// Distance from `p` to the segment `ab` (brute force: clamped projection).
pub fn segment_distance(p: &Point, a: &Point, b: &Point) -> Real {
    let ab = b - a;
    let t = ((p - a).dot(&ab) / ab.norm_squared()).clamp(0.0, 1.0);
    (p - (a + ab * t)).norm()
}

/// `p` translated by `d` (world).
pub fn moved(p: &Isometry, d: Vector) -> Isometry {
    Isometry::from_parts(Translation::from(p.translation.vector + d), p.rotation)
}

/// GJK distance (0 when intersecting).
pub fn gjk_distance<A: SupportMap, B: SupportMap>(
    pa: &Isometry,
    a: &A,
    pb: &Isometry,
    b: &B,
) -> Real {
    match gjk::distance(pa, a, pb, b) {
        GjkResult::Intersecting => 0.0,
        GjkResult::Separated { distance, .. } => distance,
    }
}

/// Largest separation of two polyhedra by brute force over the generic candidate axes.
pub fn brute_poly(
    pa: &Isometry,
    a: &ConvexPolyhedron,
    pb: &Isometry,
    b: &ConvexPolyhedron,
) -> Real {
    let w =
        |p: &Isometry, h: &ConvexPolyhedron| h.vertices().iter().map(|v| p * v).collect::<Vec<_>>();
    let rot = |p: &Isometry, v: &[Vector]| v.iter().map(|x| p.rotation * x).collect::<Vec<_>>();
    let mut best = brute_sat(
        &w(pa, a),
        &rot(pa, a.face_normals()),
        &rot(pa, a.edge_directions()),
        &w(pb, b),
        &rot(pb, b.face_normals()),
        &rot(pb, b.edge_directions()),
    );
    if a.is_flat() && b.is_flat() {
        // Coplanar triangles: in-plane edge normals too.
        let (na, nb) = (
            pa.rotation * a.face_normals()[0],
            pb.rotation * b.face_normals()[0],
        );
        for (n, p, h) in [(na, pa, a), (nb, pb, b)] {
            for e in h.edge_directions() {
                if let Some(l) = n.cross(&(p.rotation * e)).try_normalize(1e-6) {
                    best = best.max(separation_on(&l, &w(pa, a), &w(pb, b)));
                }
            }
        }
    }
    best
}

/// The minimal-translation check and the points-in-both-shapes check of a contact, with
/// `gap(pose_b)` an oracle of the pair's separation (positive apart, negative penetrating).
pub fn check_contact(
    pa: &Isometry,
    a: &Shape,
    pb: &Isometry,
    b: &Shape,
    s: Real,
    gap: &dyn Fn(&Isometry) -> Real,
    k: usize,
) {
    let g = gap(pb);
    let m = contact(pa, a, pb, b, 0.0).unwrap();
    let tol = 1e-4 * s;
    if g.abs() < tol {
        return;
    }
    assert_eq!(m.is_some(), g < 0.0, "case {k}: contact vs oracle gap {g}");
    let Some(m) = m else { return };
    assert!(
        (m.normal.norm() - 1.0).abs() < 1e-4,
        "case {k}: normal {:?}",
        m.normal
    );
    assert!(!m.is_empty(), "case {k}");
    let depth = m.depth();
    let eps = 2e-3 * s;
    assert!(
        gap(&moved(pb, m.normal * (depth + eps))) > 0.0,
        "case {k}: depth + ε does not separate"
    );
    assert!(
        (depth + g).abs() < 2e-3 * s,
        "case {k}: depth {depth} vs oracle {}",
        -g
    );
    assert!(
        gap(&moved(pb, m.normal * (depth - eps))) < 0.0,
        "case {k}: depth − ε separates"
    );
    // The reversed pair: opposite normal, same depth.
    let f = contact(pb, b, pa, a, 0.0).unwrap().expect("symmetric");
    assert!(
        (f.depth() - depth).abs() < 2e-3 * s,
        "case {k}: reversed depth {}",
        f.depth()
    );
    for p in m.points() {
        assert!(p.depth <= depth + 1e-4 * s && p.point.iter().all(|x| x.is_finite()));
        let slack = depth * 0.5 + 2e-3 * s;
        let pa_dist = point_gap(pa, a, &p.point);
        let pb_dist = point_gap(pb, b, &p.point);
        assert!(
            pa_dist <= slack && pb_dist <= slack,
            "case {k}: point outside by {pa_dist}, {pb_dist} (slack {slack})"
        );
    }
}

/// Distance from `p` to a shape (0 inside), by GJK against a point.
pub fn point_gap(pose: &Isometry, s: &Shape, p: &Point) -> Real {
    let at = Isometry::translation(p.x, p.y, p.z);
    let pt = gjk::SinglePoint(Point::origin());
    match s {
        Shape::Ball(b) => ((p - Point::from(pose.translation.vector)).norm() - b.radius()).max(0.0),
        Shape::Capsule(c) => {
            let (a, b) = c.segment(pose);
            let seg = Segment { a, b };
            (gjk_distance(&Isometry::identity(), &seg, &at, &pt) - c.radius()).max(0.0)
        }
        Shape::Cuboid(c) => gjk_distance(pose, c, &at, &pt),
        Shape::Triangle(t) => gjk_distance(pose, t.as_ref(), &at, &pt),
        Shape::Convex(h) => gjk_distance(pose, h.as_ref(), &at, &pt),
        Shape::TriMesh(_) | Shape::HeightField(_) => {
            panic!("point_gap takes solids; a mesh has no inside")
        }
        Shape::Compound(c) => c
            .children()
            .iter()
            .map(|(cp, cs)| point_gap(&(pose * cp), cs, p))
            .fold(Real::INFINITY, Real::min),
    }
}

/// A random triangle with corners in `[-s, s]³`, a quarter of them slivers (the third corner
/// 0.05·s off the middle of the first edge); retried until `Triangle::new` accepts it.
pub fn random_triangle(r: &mut ChaCha8Rng, s: Real) -> tumble_narrowphase::shape::Triangle {
    loop {
        let mut c = [Point::origin(); 3];
        for p in &mut c {
            *p = Point::new(
                r.gen_range(-1.0..1.0),
                r.gen_range(-1.0..1.0),
                r.gen_range(-1.0..1.0),
            ) * s;
        }
        if r.gen_range(0..4) == 0 {
            c[2] = c[0] + (c[1] - c[0]) * 0.5 + Vector::new(0.0, 0.05, 0.0) * s;
        }
        if let Ok(t) = tumble_narrowphase::shape::Triangle::new(c[0], c[1], c[2]) {
            return t;
        }
    }
}
