//! Materials: how much a body weighs per unit volume, how it slides and how it bounces.

use crate::error::WorldError;
use serde::{Deserialize, Serialize};
use tumble_narrowphase::math::Real;

/// Surface and bulk properties of a body.
///
/// When two bodies touch, their friction coefficients combine by geometric mean
/// `√(μa·μb)` and their restitutions by maximum `max(ea, eb)` (Box2D's rules).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Material {
    /// Mass per unit volume, kg/m³. Must be finite and positive for a dynamic body; ignored
    /// for static and kinematic bodies.
    pub density: Real,
    /// Coulomb friction coefficient, dimensionless, ≥ 0.
    pub friction: Real,
    /// Coefficient of restitution in `[0, 1]`: the ratio of separating to approaching normal
    /// speed after an impact faster than [`WorldConfig::restitution_threshold`](crate::WorldConfig::restitution_threshold).
    pub restitution: Real,
}

impl Default for Material {
    /// Density 1 kg/m³, friction 0.5, restitution 0.
    fn default() -> Self {
        Self {
            density: 1.0,
            friction: 0.5,
            restitution: 0.0,
        }
    }
}

impl Material {
    /// A validated material (see [`Material::validate`]).
    pub fn new(density: Real, friction: Real, restitution: Real) -> Result<Self, WorldError> {
        let m = Self {
            density,
            friction,
            restitution,
        };
        m.validate()?;
        Ok(m)
    }

    /// Errors on a non-finite or non-positive density, a negative or non-finite friction, or a
    /// restitution outside `[0, 1]`.
    pub fn validate(&self) -> Result<(), WorldError> {
        crate::error::check_finite("density", self.density)?;
        if self.density <= 0.0 {
            return Err(WorldError::NonPositive("density", self.density));
        }
        crate::error::check_finite("friction", self.friction)?;
        if self.friction < 0.0 {
            return Err(WorldError::Negative("friction", self.friction));
        }
        crate::error::check_finite("restitution", self.restitution)?;
        if !(0.0..=1.0).contains(&self.restitution) {
            return Err(WorldError::OutOfRange {
                what: "restitution",
                value: self.restitution,
                min: 0.0,
                max: 1.0,
            });
        }
        Ok(())
    }

    /// Friction of a touching pair: `√(μa·μb)`.
    #[inline]
    pub fn combine_friction(a: Real, b: Real) -> Real {
        (a * b).sqrt()
    }

    /// Restitution of a touching pair: `max(ea, eb)`.
    #[inline]
    pub fn combine_restitution(a: Real, b: Real) -> Real {
        a.max(b)
    }
}
