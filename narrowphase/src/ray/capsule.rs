//! Ray against a capsule (a segment swept by a sphere), after Ericson RTCD §5.3.7, with the
//! quadratics solved in the stable form of Haines et al. (Ray Tracing Gems ch. 7).

use super::sphere::{first_root, ray_sphere};
use super::types::{earlier, valid_max_t, Ray, RayHit};
use crate::math::{finite_only, Point, Real};

/// Ray against the solid capsule of axis segment `a`–`b` and radius `radius ≥ 0` (world
/// space). The capsule is the union of the finite cylinder and the two end spheres; since the
/// cylinder's flat ends lie inside the spheres, the first entry is the earliest of the
/// cylinder's *side* (only where it lies between the ends) and the two spheres. Origin inside
/// or on the capsule → `t = 0`. A degenerate segment (`a = b`) is a sphere.
pub fn ray_capsule(ray: &Ray, a: &Point, b: &Point, radius: Real, max_t: Real) -> Option<RayHit> {
    finite_only(RayHit::is_finite, || {
        if !valid_max_t(max_t) || radius.is_nan() || radius < 0.0 {
            return None;
        }
        let o = ray.origin();
        let d = ray.dir();
        let axis = b - a;
        let dd = axis.norm_squared();
        if dd < Real::MIN_POSITIVE {
            return ray_sphere(ray, a, radius, max_t);
        }
        let m = o - a;
        let md = m.dot(&axis);
        // Inside test: distance from the origin to the segment.
        let s = (md / dd).clamp(0.0, 1.0);
        if (m - axis * s).norm_squared() <= radius * radius {
            return Some(RayHit::inside(ray));
        }
        // Side of the infinite cylinder: with the axis components projected out of the
        // origin's offset and of the direction, |m⊥ + t d⊥|² = r² is a ray against a circle,
        // solved in the stable form of the sphere cast (Ray Tracing Gems ch. 7): projecting
        // the vectors first keeps the discriminant free of the `|m|²`-sized cancellation of
        // the expanded quadratic of RTCD §5.3.7.
        let nd = d.dot(&axis);
        let m_perp = m - axis * (md / dd);
        let d_perp = d - axis * (nd / dd);
        let qa = d_perp.norm_squared();
        let qb = m_perp.dot(&d_perp);
        let qc = m_perp.norm_squared() - radius * radius;
        let mut best: Option<RayHit> = None;
        if qa > Real::EPSILON * d.norm_squared() && qb < 0.0 && qc > 0.0 {
            if let Some(t) = first_root(&m_perp, &d_perp, qa, qb, qc, radius) {
                let along = md + t * nd;
                if t >= 0.0 && t <= max_t && (0.0..=dd).contains(&along) {
                    let p = ray.point_at(t);
                    let foot = a + axis * (along / dd);
                    if let Some(n) = (p - foot).try_normalize(Real::MIN_POSITIVE) {
                        best = Some(RayHit {
                            t,
                            normal: n,
                            point: p,
                        });
                    }
                }
            }
        }
        for end in [a, b] {
            let limit = best.map_or(max_t, |h| h.t);
            best = earlier(best, ray_sphere(ray, end, radius, limit));
        }
        best
    })
}
