//! Ray against a solid sphere (Ericson RTCD §5.3.2), in the numerically stable form of Haines
//! et al., "Precision improvements for ray/sphere intersection", Ray Tracing Gems ch. 7.

use super::types::{valid_max_t, Ray, RayHit};
use crate::math::{finite_only, Point, Real, Vector};

/// The smaller root of `|m + t d|² = r²` given `a = |d|²`, `b = m·d < 0` and
/// `c = |m|² − r² > 0`, or `None` when the line misses.
///
/// Ray Tracing Gems ch. 7 (Haines et al.): the discriminant `b² − a c` cancels catastrophically
/// for a grazing line far from the sphere (`b²` and `a c` are both about `a |m|²`). It equals
/// `a (r² − |m⊥|²)`, where `m⊥ = m − (b / a) d` is the offset from the centre of the line's
/// closest point to it (the origin moved next to the sphere), computed as a vector: its
/// error is then about `u |m| |m⊥|` instead of `u |m|²`. The root is taken as `c / q` with
/// `q = −b + √disc`, which adds two positive terms (RTCD §5.3.2; Numerical Recipes §5.6).
pub(crate) fn first_root(
    m: &Vector,
    d: &Vector,
    a: Real,
    b: Real,
    c: Real,
    radius: Real,
) -> Option<Real> {
    let h = (m - d * (b / a)).norm();
    let disc = a * ((radius - h) * (radius + h));
    if disc.is_nan() || disc < 0.0 {
        return None;
    }
    Some(c / (-b + disc.sqrt()))
}

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
        let t = first_root(&m, &d, a, b, c, radius)?;
        if t.is_nan() || t > max_t {
            return None;
        }
        let t = t.max(0.0);
        // From the centre's offset `m + t d`, not from the world point: far from the origin
        // the world point is rounded at the scale of its coordinates.
        let normal = (m + d * t)
            .try_normalize(Real::MIN_POSITIVE)
            .unwrap_or_else(|| ray.back_normal());
        Some(RayHit::at(ray, t, normal))
    })
}
