//! Two moving spheres (Ericson RTCD §5.5.5): in B's frame, A's centre moves along the
//! relative motion, and A touches B when that centre enters the sphere of radius `ra + rb`.

use super::toi::{against, moves, sphere_motion_ok, unit_or, Toi};
use crate::math::{finite_only, Point, Real};
use crate::ray::{ray_sphere, Ray};

/// First contact of sphere A (radius `ra`, centre moving from `a0` to `a1`) against sphere B
/// (radius `rb`, centre moving from `b0` to `b1`) over the same interval `t ∈ [0, 1]`, both
/// moving linearly. A is the mover, B the obstacle: the normal points from B's centre toward
/// A's at contact, the point is on B's surface. Overlapping at the start → `t = 0`; coincident
/// centres use the direction against the relative motion.
pub fn sweep_sphere_sphere(
    a0: &Point,
    a1: &Point,
    ra: Real,
    b0: &Point,
    b1: &Point,
    rb: Real,
) -> Option<Toi> {
    finite_only(Toi::is_finite, || {
        if !sphere_motion_ok(a0, a1, ra) || !sphere_motion_ok(b0, b1, rb) {
            return None;
        }
        let rel = (a1 - a0) - (b1 - b0);
        let r = ra + rb;
        let gap0 = a0 - b0;
        let t = if gap0.norm_squared() <= r * r {
            0.0
        } else if !moves(&rel) {
            return None;
        } else {
            let ray = Ray::new_unchecked(Point::from(gap0), rel);
            ray_sphere(&ray, &Point::origin(), r, 1.0)?.t
        };
        let a = a0 + (a1 - a0) * t;
        let b = b0 + (b1 - b0) * t;
        let normal = unit_or(a - b, against(&rel));
        Some(Toi {
            t,
            normal,
            point: b + normal * rb,
        })
    })
}
