//! The capsule: a segment swept by a sphere.

use crate::bounding::Aabb;
use crate::error::{serde_via_new, ShapeError};
use crate::math::{Isometry, Point, Real, Vector};
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// A capsule: every point within `radius` metres of the segment from `(0, −half_height, 0)`
/// to `(0, half_height, 0)` of its local frame (its axis is local y).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "CapsuleRepr", into = "CapsuleRepr")
)]
pub struct Capsule {
    half_height: Real,
    radius: Real,
}

serde_via_new! { Capsule, CapsuleRepr { half_height: Real, radius: Real } }

impl Capsule {
    /// A capsule; errors unless `half_height` (half the segment's length) and `radius` are
    /// finite and positive (a capsule of zero height is a [`crate::shape::Ball`]).
    pub fn new(half_height: Real, radius: Real) -> Result<Self, ShapeError> {
        if !half_height.is_finite() {
            return Err(ShapeError::NonFinite("capsule half-height"));
        }
        if !radius.is_finite() {
            return Err(ShapeError::NonFinite("capsule radius"));
        }
        if half_height <= 0.0 {
            return Err(ShapeError::NonPositive("capsule half-height", half_height));
        }
        if radius <= 0.0 {
            return Err(ShapeError::NonPositive("capsule radius", radius));
        }
        Ok(Self {
            half_height,
            radius,
        })
    }

    /// Half the length of the core segment, metres.
    #[inline]
    pub fn half_height(&self) -> Real {
        self.half_height
    }

    /// Radius, metres.
    #[inline]
    pub fn radius(&self) -> Real {
        self.radius
    }

    /// The core segment's end points in world space at `pose` (−y end first).
    #[inline]
    pub fn segment(&self, pose: &Isometry) -> (Point, Point) {
        let h = pose.rotation * Vector::new(0.0, self.half_height, 0.0);
        let c = Point::from(pose.translation.vector);
        (c - h, c + h)
    }

    /// World-space AABB at `pose` (exact).
    pub fn aabb(&self, pose: &Isometry) -> Aabb {
        let (a, b) = self.segment(pose);
        let r = Vector::repeat(self.radius);
        Aabb::new_unchecked(a.inf(&b) - r, a.sup(&b) + r)
    }
}
