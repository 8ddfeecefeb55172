//! Convex polyhedron (or triangle, as a flat polyhedron) against sphere.
//!
//! The sphere touches the polyhedron exactly when its centre `c` is within `radius` of it, so
//! everything reduces to the signed distance of a point to a convex polytope (Ericson, RTCD
//! §5.2.7 and §9.5). The contact's normal `n` and depth must agree: the depth is the overlap
//! of the shapes along `n`, `radius − sep(n)` with `sep(n) = c · n − h(n)` (`h` the
//! polyhedron's support function), so the reported normal is the one that maximises `sep`.
//!
//! 1. GJK between the polyhedron and the centre gives a distance `d` and a normal `n`. `d` is
//!    an upper bound of the true distance (it is the length of a point of the Minkowski
//!    difference) and `sep(n)` a lower bound (a separating plane), so `d − sep(n) ≤`
//!    [`CERTIFICATE`] proves `n` right to within that tolerance. GJK usually passes.
//! 2. When it does not (slivers, where GJK's closest point is ill-conditioned and its normal
//!    can be off by degrees), or when GJK reports the centre inside, the exact point–polytope
//!    SAT decides: the point–polytope distance is the largest `sep(n)` over the face normals,
//!    the perpendiculars from each edge to `c`, and the directions from each corner to `c`
//!    (one of them is the direction to the closest feature; for a centre inside, a face
//!    normal gives the shallowest exit). Every direction gives a lower bound of the signed
//!    distance, so extra candidates are always safe; the edges and corners are skipped only
//!    when the centre is inside every face plane by more than rounding.

use crate::contact::{ContactPoint, Manifold};
use crate::gjk::{self, GjkResult, SinglePoint};
use crate::math::{Isometry, Point, Real, Vector};
use crate::shape::ConvexPolyhedron;

/// Tolerance of the GJK certificate, relative to the scale of the pair (the largest local
/// coordinate of the corners and the centre): about 100 f32 ulps, well above the rounding of
/// a support value (a dozen operations at that scale) and well below the error that matters
/// to a contact.
pub const CERTIFICATE: Real = 1e-5;

/// True when the polyhedron at `pose` and the sphere (world `center`, `radius`) overlap or
/// touch. GJK's distance `d` is an upper bound of the true one and `sep(n)` along its normal
/// a lower bound, so `d ≤ radius` proves contact and `sep(n) > radius` proves a gap; in
/// between (GJK stopped early on a sliver) the exact point–polytope SAT decides.
pub fn intersection_convex_ball(
    pose: &Isometry,
    poly: &ConvexPolyhedron,
    center: &Point,
    radius: Real,
) -> bool {
    let pc = Isometry::translation(center.x, center.y, center.z);
    match gjk::distance(pose, poly, &pc, &SinglePoint(Point::origin())) {
        GjkResult::Intersecting => true,
        GjkResult::Separated { distance, .. } if distance <= radius => true,
        GjkResult::Separated { normal, .. } => {
            let local = pose.inverse_transform_point(center);
            let n = pose.rotation.inverse_transform_vector(&normal);
            separation(poly, &local, &n) <= radius && point_separation(poly, &local).0 <= radius
        }
    }
}

/// `c · n − h(n)` (local frame): how far the point `c` lies beyond the polyhedron along the
/// unit `n`; negative when some corner reaches past it.
#[inline]
fn separation(poly: &ConvexPolyhedron, c: &Point, n: &Vector) -> Real {
    c.coords.dot(n) - poly.project(n).1
}

/// The signed distance of `c` (local frame) to the polyhedron and the unit direction that
/// realises it: the largest [`separation`] over the candidate directions of the module docs.
/// Positive outside, minus the depth of the shallowest exit inside.
pub fn point_separation(poly: &ConvexPolyhedron, c: &Point) -> (Real, Vector) {
    let mut best = (Real::NEG_INFINITY, Vector::y());
    let consider = |best: &mut (Real, Vector), n: Vector| {
        let s = separation(poly, c, &n);
        if s > best.0 {
            *best = (s, n);
        }
    };
    for f in poly.faces() {
        consider(&mut best, f.normal);
    }
    // The rounding of a separation (f32 normals and dot products at this scale), generously.
    let scale = poly
        .vertices()
        .iter()
        .map(|v| v.coords.amax())
        .fold(c.coords.amax(), Real::max);
    if best.0 < -CERTIFICATE * scale && !poly.is_flat() {
        // Inside every face plane by more than rounding: a face is the shallowest exit. Only
        // then: a centre just beyond the edge between two nearly coplanar faces (a sliver
        // hull, fuzz input `hull_ball_depth_not_minimal`: dihedral angle 3·10⁻⁵ rad, centre
        // 1.4 mm beyond the edge) is within rounding of both face planes, and only the
        // edge's perpendicular finds its distance. (A flat polyhedron's two back-to-back
        // faces only bound its plane: a point in the plane beside the triangle is outside,
        // and its edge perpendiculars say so.)
        return best;
    }
    let verts = poly.vertices();
    for &[i, j] in poly.edges() {
        let (p, q) = (verts[i as usize], verts[j as usize]);
        let Some(u) = (q - p).try_normalize(0.0) else {
            continue;
        };
        let w = c - p;
        let t = w.dot(&u);
        if t <= 0.0 || t >= (q - p).norm() {
            continue;
        }
        // Perpendicular from the edge to c; orthogonalised twice so that no trace of the
        // edge direction (amplified by 1/distance) is left in it.
        let Some(n) = (w - u * t).try_normalize(0.0) else {
            continue;
        };
        if let Some(n) = (n - u * n.dot(&u)).try_normalize(0.0) {
            consider(&mut best, n);
        }
    }
    for v in verts {
        if let Some(n) = (c - v).try_normalize(0.0) {
            consider(&mut best, n);
        }
    }
    best
}

/// Contact of a polyhedron (A) against a sphere (B) when their gap is at most `prediction`
/// metres. One point, midway between the surfaces; normal from the polyhedron to the sphere.
pub fn contact_convex_ball(
    pose: &Isometry,
    poly: &ConvexPolyhedron,
    center: &Point,
    radius: Real,
    prediction: Real,
) -> Option<Manifold> {
    let local = pose.inverse_transform_point(center);
    let pc = Isometry::translation(center.x, center.y, center.z);
    let certified = match gjk::distance(pose, poly, &pc, &SinglePoint(Point::origin())) {
        GjkResult::Separated {
            distance, normal, ..
        } => {
            if distance > radius + prediction {
                return None;
            }
            let n = pose.rotation.inverse_transform_vector(&normal);
            let s = separation(poly, &local, &n);
            let scale = poly
                .vertices()
                .iter()
                .map(|v| v.coords.amax())
                .fold(local.coords.amax(), Real::max);
            (distance - s <= CERTIFICATE * scale).then_some((s, n))
        }
        GjkResult::Intersecting => None,
    };
    let (sep, n_local) = certified.unwrap_or_else(|| point_separation(poly, &local));
    if sep > radius + prediction {
        return None;
    }
    let normal = pose.rotation * n_local;
    let surface = center - normal * sep;
    let mut m = Manifold::new(normal);
    m.push(ContactPoint {
        point: Point::from((surface.coords + (center - normal * radius).coords) * 0.5),
        depth: radius - sep,
        id: 0,
    });
    Some(m)
}
