//! Ray casts against any [`Shape`] under a pose: the dispatch onto the per-shape casts.
//!
//! The casts that place the shape in world space (capsule segment, triangle corners, hull
//! planes) run with the ray's origin taken relative to the shape's position (the shape's
//! frame, translated: [`crate::query`], "The frame of computation"), so their rounding is that
//! of the distance from the ray's origin to the shape, not of either's distance from the
//! world's origin. The sphere and box casts work on `origin − centre` themselves, meshes in
//! their local frame, and compounds in theirs ([`crate::shape::Compound::cast_ray`]).

use super::{
    ray_capsule, ray_convex_polyhedron, ray_cuboid, ray_sphere, ray_triangle, Plane, Ray, RayHit,
};
use crate::math::{Isometry, Real};
use crate::query::Frame;
use crate::shape::Shape;

/// The first hit of `ray` on `shape` placed at `pose`, with `t ∈ [0, max_t]` in units of the
/// ray's direction; normal unit, world frame, facing against the ray. Solid shapes report
/// `t = 0` for a ray that starts inside; a triangle is two-sided and has no inside.
pub fn ray_shape(ray: &Ray, pose: &Isometry, shape: &Shape, max_t: Real) -> Option<RayHit> {
    match shape {
        Shape::Ball(b) => ray_sphere(ray, &pose.translation.vector.into(), b.radius(), max_t),
        Shape::Cuboid(c) => ray_cuboid(ray, pose, &c.half_extents(), max_t),
        Shape::TriMesh(m) => m.cast_ray(pose, ray, max_t).map(|h| h.hit),
        Shape::HeightField(h) => h.cast_ray(pose, ray, max_t).map(|h| h.hit),
        Shape::Compound(c) => c.cast_ray(pose, ray, max_t).map(|h| h.hit),
        _ => {
            // The shape at its rotation alone, the ray's origin moved by as much; the hit
            // keeps `t` and the normal, and its point is taken on the world ray.
            let f = Frame::at(pose);
            let local = ray.translated(&-pose.translation.vector);
            let hit = ray_placed(&local, &f.pose(pose), shape, max_t)?;
            Some(RayHit {
                point: ray.point_at(hit.t),
                ..hit
            })
            .filter(RayHit::is_finite)
        }
    }
}

/// The casts of [`ray_shape`] that place the shape by `pose` (capsules, triangles, hulls),
/// on `ray` and `pose` as given; None for the other kinds.
fn ray_placed(ray: &Ray, pose: &Isometry, shape: &Shape, max_t: Real) -> Option<RayHit> {
    match shape {
        Shape::Capsule(c) => {
            let (a, b) = c.segment(pose);
            ray_capsule(ray, &a, &b, c.radius(), max_t)
        }
        Shape::Triangle(t) => {
            let [a, b, c] = t.world_corners(pose);
            ray_triangle(ray, &a, &b, &c, max_t)
        }
        Shape::Convex(p) => {
            if p.is_flat() {
                // Two faces back to back: cast against its triangle fan.
                let v = p.vertices();
                let w: Vec<_> = v.iter().map(|x| pose * x).collect();
                return (1..w.len().saturating_sub(1))
                    .filter_map(|i| ray_triangle(ray, &w[0], &w[i], &w[i + 1], max_t))
                    .min_by(|a, b| a.t.total_cmp(&b.t));
            }
            // The polyhedron as the intersection of its faces' half-spaces.
            let planes: Vec<Plane> = p
                .faces()
                .iter()
                .filter_map(|f| {
                    let corner = p.vertices()[p.face_loop(f)[0] as usize];
                    Plane::from_point_normal(&(pose * corner), pose.rotation * f.normal).ok()
                })
                .collect();
            ray_convex_polyhedron(ray, &planes, max_t)
        }
        Shape::Ball(_)
        | Shape::Cuboid(_)
        | Shape::TriMesh(_)
        | Shape::HeightField(_)
        | Shape::Compound(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Point, Vector};
    use crate::shape::{ConvexPolyhedron, Cuboid};

    /// A box and the same box as a hull answer the same ray the same way.
    #[test]
    fn hull_and_box_agree() {
        let c = Cuboid::new(Vector::new(0.5, 1.0, 0.25)).unwrap();
        let hull = Shape::from(ConvexPolyhedron::from_cuboid(&c));
        let pose = Isometry::new(Vector::new(1.0, 2.0, 3.0), Vector::new(0.3, -0.2, 0.7));
        for k in 0..200 {
            let a = k as Real * 0.37;
            let dir = Vector::new(a.cos(), (a * 1.3).sin(), (a * 0.7).cos());
            let origin = Point::new(1.0, 2.0, 3.0) - dir * 4.0 + Vector::new(0.1, -0.2, 0.05);
            let ray = Ray::new(origin, dir).unwrap();
            let hb = ray_shape(&ray, &pose, &Shape::from(c), 10.0);
            let hh = ray_shape(&ray, &pose, &hull, 10.0);
            match (hb, hh) {
                (Some(x), Some(y)) => assert!((x.t - y.t).abs() < 1e-4, "{} vs {}", x.t, y.t),
                (None, None) => {}
                other => panic!("box and hull disagree: {other:?}"),
            }
        }
    }
}
