//! Moving sphere against a plane's solid half-space (Ericson RTCD §5.5.3).

use super::toi::{sphere_motion_ok, Toi};
use crate::math::{finite_only, Point, Real};
use crate::ray::Plane;

/// First contact of the sphere of radius `radius` whose centre moves from `c0` to `c1`
/// against the solid half-space `plane.normal() · x ≤ plane.offset()` (world space, metres).
/// The signed gap `s(t) = n · c(t) − d − r` is linear in `t`: contact where it reaches zero.
/// Starting in contact or below → `t = 0`. Normal = the plane normal; point = the centre
/// projected onto the plane at time `t`.
pub fn sweep_sphere_plane(c0: &Point, c1: &Point, radius: Real, plane: &Plane) -> Option<Toi> {
    finite_only(Toi::is_finite, || {
        if !sphere_motion_ok(c0, c1, radius) {
            return None;
        }
        let n = plane.normal();
        let s0 = plane.signed_distance(c0) - radius;
        let t = if s0 <= 0.0 {
            0.0
        } else {
            let s1 = plane.signed_distance(c1) - radius;
            if s1 > 0.0 {
                return None;
            }
            (s0 / (s0 - s1)).clamp(0.0, 1.0)
        };
        let c = c0 + (c1 - c0) * t;
        Some(Toi {
            t,
            normal: n,
            point: c - n * plane.signed_distance(&c),
        })
    })
}
