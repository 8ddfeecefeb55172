//! The [`Toi`] result shared by every sweep, and input checks.

use crate::math::{is_finite_point, is_finite_vector, Point, Real, Vector};
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// Time of first contact of a moving shape against an obstacle, over one motion `t ∈ [0, 1]`.
///
/// - `t` is the fraction of the motion (0 = start, 1 = end) at which the shapes first touch;
///   shapes already overlapping at the start report `t = 0`;
/// - `normal` is unit length, world space, pointing **from the obstacle toward the moving
///   shape** at the contact (pushing the mover back along it separates them);
/// - `point` is the contact point on the obstacle's surface at time `t`, world space (for an
///   initial overlap, the obstacle point nearest the mover's centre).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Toi {
    /// Fraction of the motion at first contact, in `[0, 1]`.
    pub t: Real,
    /// Unit contact normal, world space, from the obstacle toward the moving shape.
    pub normal: Vector,
    /// Contact point on the obstacle at time `t`, world space (metres).
    pub point: Point,
}

impl Toi {
    /// True when every field is finite (the sweeps return no other result).
    #[inline]
    pub fn is_finite(&self) -> bool {
        self.t.is_finite() && is_finite_vector(&self.normal) && is_finite_point(&self.point)
    }
}

/// True when a sphere motion is usable: finite centres and a finite radius `≥ 0`.
#[inline]
pub(crate) fn sphere_motion_ok(c0: &Point, c1: &Point, radius: Real) -> bool {
    is_finite_point(c0) && is_finite_point(c1) && radius >= 0.0 && radius.is_finite()
}

/// True when the motion `c1 − c0` is long enough to be cast as a ray.
#[inline]
pub(crate) fn moves(motion: &Vector) -> bool {
    let n2 = motion.norm_squared();
    n2 >= Real::MIN_POSITIVE && n2.is_finite()
}

/// `v` normalised, or `fallback` when `v` is (nearly) zero.
#[inline]
pub(crate) fn unit_or(v: Vector, fallback: Vector) -> Vector {
    v.try_normalize(Real::MIN_POSITIVE).unwrap_or(fallback)
}

/// The unit vector against the motion, or +z when there is no motion (a fallback normal for
/// coincident or centre-inside overlaps).
#[inline]
pub(crate) fn against(motion: &Vector) -> Vector {
    unit_or(-motion, Vector::z())
}

/// True when a box is usable: finite pose and finite half-extents `≥ 0`.
#[inline]
pub(crate) fn is_box_ok(pose: &crate::math::Isometry, half_extents: &Vector) -> bool {
    crate::math::is_finite_vector(&pose.translation.vector)
        && pose.rotation.coords.iter().all(|c| c.is_finite())
        && crate::math::is_finite_vector(half_extents)
        && half_extents.min() >= 0.0
}
