//! Ray against an axis-aligned box and against an oriented box (Ericson RTCD §5.3.3).

use super::types::{valid_max_t, Ray, RayHit};
use crate::bounding::Aabb;
use crate::math::{finite_only, Isometry, Point, Real, Vector};

/// Slab test: intersects the ray with the three slabs `mins_i ≤ x_i ≤ maxs_i` and keeps the
/// latest entry and the earliest exit. A direction component below the smallest normal float
/// is treated as zero (the ray is parallel to that slab: it misses unless the origin lies
/// inside the slab), so no `0 · ∞` NaN can arise. Returns `(t, axis, sign)` of the entry face,
/// `axis = 3` when the origin is inside.
#[inline]
fn slab(
    o: &Point,
    d: &Vector,
    mins: &Point,
    maxs: &Point,
    max_t: Real,
) -> Option<(Real, usize, Real)> {
    let mut t_min: Real = 0.0;
    let mut t_max = max_t;
    let mut axis = 3;
    let mut sign: Real = 0.0;
    for i in 0..3 {
        if d[i].abs() < Real::MIN_POSITIVE {
            if o[i] < mins[i] || o[i] > maxs[i] {
                return None;
            }
        } else {
            let inv = 1.0 / d[i];
            let mut t1 = (mins[i] - o[i]) * inv;
            let mut t2 = (maxs[i] - o[i]) * inv;
            let mut s = -1.0;
            if t1 > t2 {
                std::mem::swap(&mut t1, &mut t2);
                s = 1.0;
            }
            if t1 >= t_min {
                t_min = t1;
                axis = i;
                sign = s;
            }
            t_max = t_max.min(t2);
            if t_min > t_max {
                return None;
            }
        }
    }
    Some((t_min, axis, sign))
}

/// Ray against the solid axis-aligned box `aabb` (world space). The normal is the entered
/// face's outward axis. Origin inside or on the box → `t = 0`.
pub fn ray_aabb(ray: &Ray, aabb: &Aabb, max_t: Real) -> Option<RayHit> {
    finite_only(RayHit::is_finite, || {
        if !valid_max_t(max_t) {
            return None;
        }
        let (t, axis, sign) = slab(&ray.origin(), &ray.dir(), &aabb.mins, &aabb.maxs, max_t)?;
        Some(if axis == 3 {
            RayHit::inside(ray)
        } else {
            let mut n = Vector::zeros();
            n[axis] = sign;
            RayHit::at(ray, t, n)
        })
    })
}

/// Ray against the solid oriented box of half-sizes `half_extents` (local frame, metres, each
/// ≥ 0; a negative or NaN one never hits) placed by `pose`: the ray is taken into the box's
/// frame, cast against the slab box `[−h, h]`, and the face normal rotated back to world space.
pub fn ray_cuboid(
    ray: &Ray,
    pose: &Isometry,
    half_extents: &Vector,
    max_t: Real,
) -> Option<RayHit> {
    finite_only(RayHit::is_finite, || {
        if !valid_max_t(max_t) || half_extents.iter().any(|h| h.is_nan() || *h < 0.0) {
            return None;
        }
        let local = ray.inverse_transformed(pose);
        let h = Point::from(*half_extents);
        let (t, axis, sign) = slab(&local.origin(), &local.dir(), &(-h), &h, max_t)?;
        Some(if axis == 3 {
            RayHit::inside(ray)
        } else {
            let mut n = Vector::zeros();
            n[axis] = sign;
            RayHit::at(ray, t, pose.rotation * n)
        })
    })
}
