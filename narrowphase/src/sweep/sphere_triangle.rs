//! Moving sphere against a triangle.
//!
//! The sphere touches the triangle when its centre enters the triangle thickened by `r`: the
//! union of the triangle's two faces pushed out by `r` along its normal and the three edge
//! capsules (which contain the corner spheres). The centre's first entry is the earliest ray
//! hit among those five convex pieces (a ray against a union enters at the earliest entry).
//! Compare Ericson RTCD §5.5.6, which finds the same point by cases on the triangle's plane.

use super::closest::closest_on_triangle;
use super::toi::{against, moves, sphere_motion_ok, unit_or, Toi};
use crate::math::{finite_only, is_finite_point, Point, Real};
use crate::ray::{earlier, ray_capsule, ray_triangle, Ray, RayHit};

/// First contact of the sphere of radius `radius` whose centre moves from `c0` to `c1`
/// against the (two-sided) triangle `a, b, c`, all in world space. Normal from the triangle
/// toward the sphere, point on the triangle (see [`Toi`]). Overlapping at the start → `t = 0`
/// with the normal from the nearest triangle point to the centre (for a centre on the
/// triangle, the face normal turned against the motion). A degenerate triangle acts as its
/// edges.
pub fn sweep_sphere_triangle(
    c0: &Point,
    c1: &Point,
    radius: Real,
    a: &Point,
    b: &Point,
    c: &Point,
) -> Option<Toi> {
    finite_only(Toi::is_finite, || {
        if !sphere_motion_ok(c0, c1, radius)
            || !is_finite_point(a)
            || !is_finite_point(b)
            || !is_finite_point(c)
        {
            return None;
        }
        let motion = c1 - c0;
        let face = (b - a).cross(&(c - a)).try_normalize(Real::MIN_POSITIVE);
        let q = closest_on_triangle(c0, a, b, c);
        if (c0 - q).norm_squared() <= radius * radius {
            let fallback = match face {
                Some(n) if n.dot(&motion) > 0.0 => -n,
                Some(n) => n,
                None => against(&motion),
            };
            return Some(Toi {
                t: 0.0,
                normal: unit_or(c0 - q, fallback),
                point: q,
            });
        }
        if !moves(&motion) {
            return None;
        }
        let ray = Ray::new_unchecked(*c0, motion);
        let mut best: Option<RayHit> = None;
        if let Some(n) = face {
            for off in [n * radius, -n * radius] {
                best = earlier(
                    best,
                    ray_triangle(&ray, &(a + off), &(b + off), &(c + off), 1.0),
                );
            }
        }
        for (s, e) in [(a, b), (b, c), (c, a)] {
            best = earlier(best, ray_capsule(&ray, s, e, radius, 1.0));
        }
        let hit = best?;
        Some(Toi {
            t: hit.t,
            normal: hit.normal,
            point: hit.point - hit.normal * radius,
        })
    })
}
