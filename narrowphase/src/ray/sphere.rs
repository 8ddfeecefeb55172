//! Ray against a solid sphere (Ericson RTCD §5.3.2).

use super::types::{valid_max_t, Ray, RayHit};
use crate::math::{finite_only, Point, Real};

/// Ray against the solid sphere of centre `center` and radius `radius ≥ 0` (world space,
/// metres). Solves `|m + t d|² = r²` with `m = origin − center`, taking the smaller root.
/// Origin inside or on the sphere → `t = 0`. A negative or NaN radius never hits.
pub fn ray_sphere(ray: &Ray, center: &Point, radius: Real, max_t: Real) -> Option<RayHit> {
    finite_only(RayHit::is_finite, || {
        if !valid_max_t(max_t) || radius.is_nan() || radius < 0.0 {
            return None;
        }
        let d = ray.dir();
        let m = ray.origin() - center;
        let c = m.norm_squared() - radius * radius;
        if c <= 0.0 {
            return Some(RayHit::inside(ray));
        }
        let b = m.dot(&d);
        if b >= 0.0 {
            // Outside and not moving toward the centre.
            return None;
        }
        let a = d.norm_squared();
        let disc = b * b - a * c;
        if disc < 0.0 {
            return None;
        }
        // Smaller root, written as c / q to avoid cancellation when the sphere is far away
        // (q = −b + √disc > 0 since b < 0).
        let q = -b + disc.sqrt();
        let t = c / q;
        if t.is_nan() || t > max_t {
            return None;
        }
        let t = t.max(0.0);
        let p = ray.point_at(t);
        let normal = (p - center)
            .try_normalize(Real::MIN_POSITIVE)
            .unwrap_or_else(|| ray.back_normal());
        Some(RayHit {
            t,
            normal,
            point: p,
        })
    })
}
