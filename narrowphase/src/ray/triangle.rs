//! Ray against a triangle (Möller & Trumbore, "Fast, minimum storage ray/triangle
//! intersection", JGT 1997).

use super::types::{valid_max_t, Ray, RayHit};
use crate::math::{finite_only, Point, Real};

/// Ray against the (two-sided, zero-thickness) triangle `a, b, c` (world space). Solves
/// `origin + t d = a + u (b − a) + v (c − a)` by Cramer's rule with `u, v ≥ 0, u + v ≤ 1`.
/// The normal is the triangle's unit normal turned to face against the ray. A ray lying in the
/// triangle's plane, or a degenerate (zero-area) triangle, never hits.
pub fn ray_triangle(ray: &Ray, a: &Point, b: &Point, c: &Point, max_t: Real) -> Option<RayHit> {
    finite_only(RayHit::is_finite, || {
        if !valid_max_t(max_t) {
            return None;
        }
        let d = ray.dir();
        let e1 = b - a;
        let e2 = c - a;
        let p = d.cross(&e2);
        let det = e1.dot(&p);
        // Relative parallelism test: det = d · (e1 × e2) up to sign.
        let scale = d.norm() * e1.norm() * e2.norm();
        if det.is_nan() || det.abs() <= Real::EPSILON * scale {
            return None;
        }
        let inv = 1.0 / det;
        let s = ray.origin() - a;
        let u = s.dot(&p) * inv;
        if !(0.0..=1.0).contains(&u) {
            return None;
        }
        let q = s.cross(&e1);
        let v = d.dot(&q) * inv;
        if v < 0.0 || u + v > 1.0 {
            return None;
        }
        let t = e2.dot(&q) * inv;
        if !(t >= 0.0 && t <= max_t) {
            return None;
        }
        let n = e1.cross(&e2).try_normalize(Real::MIN_POSITIVE)?;
        let normal = if n.dot(&d) > 0.0 { -n } else { n };
        Some(RayHit::at(ray, t, normal))
    })
}
