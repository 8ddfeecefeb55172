//! Moving sphere against a capsule: the centre's ray against the capsule grown by the
//! sphere's radius (a capsule of radius `r + r_capsule`), RTCD §5.5.7's idea on a segment.

use super::toi::{against, moves, sphere_motion_ok, unit_or, Toi};
use crate::contact::closest::closest_point_on_segment;
use crate::math::{finite_only, Point, Real};
use crate::ray::{ray_capsule, Ray};

/// First contact of the sphere of radius `radius` whose centre moves from `c0` to `c1`
/// against the capsule of axis `a`–`b` and radius `capsule_radius ≥ 0`, all in world space.
/// Normal from the capsule toward the sphere, point on the capsule's surface (see [`Toi`]).
/// Overlapping at the start → `t = 0` with the normal from the nearest axis point to the
/// centre (against the motion when the centre is on the axis).
pub fn sweep_sphere_capsule(
    c0: &Point,
    c1: &Point,
    radius: Real,
    a: &Point,
    b: &Point,
    capsule_radius: Real,
) -> Option<Toi> {
    finite_only(Toi::is_finite, || {
        if !sphere_motion_ok(c0, c1, radius) || !sphere_motion_ok(a, b, capsule_radius) {
            return None;
        }
        let reach = radius + capsule_radius;
        let motion = c1 - c0;
        let q = closest_point_on_segment(c0, a, b).0;
        let (t, normal) = if (c0 - q).norm_squared() <= reach * reach {
            (0.0, unit_or(c0 - q, against(&motion)))
        } else if !moves(&motion) {
            return None;
        } else {
            let hit = ray_capsule(&Ray::new_unchecked(*c0, motion), a, b, reach, 1.0)?;
            (hit.t, hit.normal)
        };
        let centre = c0 + motion * t;
        let axis_point = closest_point_on_segment(&centre, a, b).0;
        Some(Toi {
            t,
            normal,
            point: axis_point + normal * capsule_radius,
        })
    })
}
