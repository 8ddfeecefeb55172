//! Convex polyhedron (or triangle, as a flat polyhedron) against sphere: GJK between the
//! polyhedron and the sphere's centre while the centre is outside; the face of least
//! penetration once it is inside (Ericson, RTCD §9.5 and §5.2.7).

use crate::contact::{ContactPoint, Manifold};
use crate::gjk::{self, GjkResult, SinglePoint};
use crate::math::{Isometry, Point, Real};
use crate::shape::ConvexPolyhedron;

/// True when the polyhedron at `pose` and the sphere (world `center`, `radius`) overlap or
/// touch.
pub fn intersection_convex_ball(
    pose: &Isometry,
    poly: &ConvexPolyhedron,
    center: &Point,
    radius: Real,
) -> bool {
    let pc = Isometry::translation(center.x, center.y, center.z);
    match gjk::distance(pose, poly, &pc, &SinglePoint(Point::origin())) {
        GjkResult::Intersecting => true,
        GjkResult::Separated { distance, .. } => distance <= radius,
    }
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
    let pc = Isometry::translation(center.x, center.y, center.z);
    let (normal, surface, depth) =
        match gjk::distance(pose, poly, &pc, &SinglePoint(Point::origin())) {
            GjkResult::Separated {
                distance,
                point_a,
                normal,
                ..
            } => {
                if distance > radius + prediction {
                    return None;
                }
                (normal, point_a, radius - distance)
            }
            GjkResult::Intersecting => {
                // Centre inside (or on the boundary): leave through the nearest face.
                let local = pose.inverse_transform_point(center);
                let mut best = (Real::NEG_INFINITY, 0);
                for (k, f) in poly.faces().iter().enumerate() {
                    let v0 = poly.vertices()[poly.face_loop(f)[0] as usize];
                    let s = f.normal.dot(&(local - v0));
                    if s > best.0 {
                        best = (s, k);
                    }
                }
                let n = pose.rotation * poly.faces()[best.1].normal;
                (n, center - n * best.0, radius - best.0)
            }
        };
    let mut m = Manifold::new(normal);
    m.push(ContactPoint {
        point: Point::from((surface.coords + (center - normal * radius).coords) * 0.5),
        depth,
        id: 0,
    });
    Some(m)
}
