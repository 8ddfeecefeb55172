//! The box, centred at its local origin.

use crate::bounding::Aabb;
use crate::error::ShapeError;
use crate::math::{is_finite_vector, Isometry, Vector};
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// A box with half-sizes `half_extents` (metres) along its local x, y, z axes, centred at the
/// local origin.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Cuboid {
    half_extents: Vector,
}

impl Cuboid {
    /// A box; errors unless every half-extent is finite and positive.
    pub fn new(half_extents: Vector) -> Result<Self, ShapeError> {
        if !is_finite_vector(&half_extents) {
            return Err(ShapeError::NonFinite("cuboid half-extents"));
        }
        for i in 0..3 {
            if half_extents[i] <= 0.0 {
                return Err(ShapeError::NonPositive(
                    "cuboid half-extent",
                    half_extents[i],
                ));
            }
        }
        Ok(Self { half_extents })
    }

    /// Half-sizes along the local axes, metres.
    #[inline]
    pub fn half_extents(&self) -> Vector {
        self.half_extents
    }

    /// World-space AABB at `pose`, exact: half-size on world axis i is Σⱼ |Rᵢⱼ| eⱼ.
    #[inline]
    pub fn aabb(&self, pose: &Isometry) -> Aabb {
        let r = pose.rotation.to_rotation_matrix();
        let ext = r.matrix().abs() * self.half_extents;
        let c = pose.translation.vector;
        Aabb::new_unchecked((c - ext).into(), (c + ext).into())
    }
}
