//! Moving sphere against an oriented box (Ericson RTCD §5.5.7).
//!
//! The sphere touches the box exactly when its centre enters the box rounded by the radius
//! (the Minkowski sum of box and sphere): faces pushed out by `r`, edges become cylinders and
//! corners spheres. In the box frame:
//!
//! ```text
//! cast the centre's ray against the box expanded by r   (slabs)   -> miss: no contact
//! p = entry point; outside = axes where |p_i| > h_i
//! outside ≤ 1: a face region, the slab hit is the answer
//! outside ≥ 2: an edge or corner region: the answer is the first hit among the three
//!              edge capsules (radius r) meeting at the corner nearest p
//! ```
//!
//! Ericson tests only the one edge capsule in an edge region; testing the three capsules at the
//! nearest corner costs two more capsule casts in those regions and covers a ray that passes
//! from the edge region through the corner region.

use super::closest::closest_on_box_local;
use super::toi::{moves, sphere_motion_ok, Toi};
use crate::bounding::Aabb;
use crate::math::{finite_only, is_finite_vector, Isometry, Point, Real, Vector};
use crate::ray::{earlier, ray_aabb, ray_capsule, Ray, RayHit};

/// First contact of the sphere of radius `radius` whose centre moves from `c0` to `c1` (world
/// space) against the solid box of half-sizes `half_extents` (≥ 0, local frame) placed by
/// `pose`. Normal from the box toward the sphere, point on the box surface (see [`Toi`]).
/// Overlapping at the start → `t = 0` with the normal from the nearest box point to the
/// centre (or the least-penetration face normal when the centre is inside the box).
pub fn sweep_sphere_cuboid(
    c0: &Point,
    c1: &Point,
    radius: Real,
    pose: &Isometry,
    half_extents: &Vector,
) -> Option<Toi> {
    finite_only(Toi::is_finite, || {
        if !sphere_motion_ok(c0, c1, radius)
            || !is_finite_vector(half_extents)
            || half_extents.min() < 0.0
        {
            return None;
        }
        let h = *half_extents;
        let o = pose.inverse_transform_point(c0);
        let (q, n, inside) = closest_on_box_local(&o, &h);
        if inside || (o - q).norm_squared() <= radius * radius {
            return Some(Toi {
                t: 0.0,
                normal: pose.rotation * n,
                point: pose * q,
            });
        }
        let d = pose.inverse_transform_vector(&(c1 - c0));
        if !moves(&d) {
            return None;
        }
        let ray = Ray::new_unchecked(o, d);
        let hit = local_rounded_box(&ray, &h, radius)?;
        let normal = pose.rotation * hit.normal;
        let centre = c0 + (c1 - c0) * hit.t;
        Some(Toi {
            t: hit.t,
            normal,
            point: centre - normal * radius,
        })
    })
}

/// The ray (box frame, origin outside the rounded box) against the box `[−h, h]` rounded by
/// `r`, over `t ∈ [0, 1]`.
fn local_rounded_box(ray: &Ray, h: &Vector, r: Real) -> Option<RayHit> {
    let e = Point::from(h.add_scalar(r));
    let slab = ray_aabb(ray, &Aabb::new_unchecked(-e, e), 1.0)?;
    let p = slab.point;
    let outside = (0..3).filter(|&i| p[i].abs() > h[i]).count();
    if outside <= 1 {
        return Some(slab);
    }
    let corner = Point::new(h.x.copysign(p.x), h.y.copysign(p.y), h.z.copysign(p.z));
    let mut best: Option<RayHit> = None;
    for i in 0..3 {
        let mut other = corner;
        other[i] = -corner[i];
        let limit = best.map_or(1.0, |b| b.t);
        best = earlier(best, ray_capsule(ray, &corner, &other, r, limit));
    }
    best
}
