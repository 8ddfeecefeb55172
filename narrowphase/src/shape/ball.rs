//! The sphere.

use crate::bounding::Aabb;
use crate::error::ShapeError;
use crate::math::{Isometry, Real, Vector};
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// A sphere of `radius` metres centred at its local origin.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Ball {
    radius: Real,
}

impl Ball {
    /// A ball; errors unless `radius` is finite and positive.
    pub fn new(radius: Real) -> Result<Self, ShapeError> {
        if !radius.is_finite() {
            return Err(ShapeError::NonFinite("ball radius"));
        }
        if radius <= 0.0 {
            return Err(ShapeError::NonPositive("ball radius", radius));
        }
        Ok(Self { radius })
    }

    /// Radius in metres.
    #[inline]
    pub fn radius(&self) -> Real {
        self.radius
    }

    /// World-space AABB at `pose` (exact).
    #[inline]
    pub fn aabb(&self, pose: &Isometry) -> Aabb {
        let c = pose.translation.vector;
        let r = Vector::repeat(self.radius);
        Aabb::new_unchecked((c - r).into(), (c + r).into())
    }
}
