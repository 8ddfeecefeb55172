//! Materials: how much a body weighs per unit volume, how it slides and how it bounces.

use crate::error::WorldError;
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};
use tumble_narrowphase::math::Real;

/// How the coefficients of two touching bodies combine into the pair's (rapier's
/// `CoefficientCombineRule`, with Box2D's geometric mean). When the two bodies name different
/// rules, the one later in this list wins (`Max` over `Multiply` over `Min` over `Average` over
/// `GeometricMean`), whichever body is A.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum CombineRule {
    /// `√(a·b)` (the default for friction, as in Box2D).
    #[default]
    GeometricMean,
    /// `(a + b)/2`.
    Average,
    /// `min(a, b)`.
    Min,
    /// `a·b`.
    Multiply,
    /// `max(a, b)` (the default for restitution, as in Box2D).
    Max,
}

impl CombineRule {
    /// The pair's coefficient from the bodies' coefficients `a`, `b` and rules `self`, `other`.
    #[inline]
    pub fn combine(self, other: CombineRule, a: Real, b: Real) -> Real {
        match self.max(other) {
            CombineRule::GeometricMean => (a * b).sqrt(),
            CombineRule::Average => 0.5 * (a + b),
            CombineRule::Min => a.min(b),
            CombineRule::Multiply => a * b,
            CombineRule::Max => a.max(b),
        }
    }
}

/// Surface and bulk properties of a body.
///
/// When two bodies touch, their coefficients combine by the rules of [`CombineRule`]: by
/// default friction by geometric mean `√(μa·μb)` and restitution by maximum `max(ea, eb)`
/// (Box2D's rules).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Material {
    /// Mass per unit volume, kg/m³. Must be finite and positive for a dynamic body; ignored
    /// for static and kinematic bodies.
    pub density: Real,
    /// Coulomb friction coefficient, dimensionless, ≥ 0.
    pub friction: Real,
    /// Coefficient of restitution in `[0, 1]`: the ratio of separating to approaching normal
    /// speed after an impact faster than [`WorldConfig::restitution_threshold`](crate::WorldConfig::restitution_threshold).
    pub restitution: Real,
    /// How this body's friction combines with another's.
    pub friction_combine: CombineRule,
    /// How this body's restitution combines with another's.
    pub restitution_combine: CombineRule,
}

impl Default for Material {
    /// Density 1 kg/m³, friction 0.5 (combined by geometric mean), restitution 0 (combined by
    /// maximum).
    fn default() -> Self {
        Self {
            density: 1.0,
            friction: 0.5,
            restitution: 0.0,
            friction_combine: CombineRule::GeometricMean,
            restitution_combine: CombineRule::Max,
        }
    }
}

impl Material {
    /// No material: what the solver holds for an empty slot.
    pub(crate) const EMPTY: Material = Material {
        density: 0.0,
        friction: 0.0,
        restitution: 0.0,
        friction_combine: CombineRule::GeometricMean,
        restitution_combine: CombineRule::Max,
    };

    /// A validated material (see [`Material::validate`]).
    pub fn new(density: Real, friction: Real, restitution: Real) -> Result<Self, WorldError> {
        let m = Self {
            density,
            friction,
            restitution,
            ..Self::default()
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

    /// Friction of a pair of touching bodies of materials `a` and `b`.
    #[inline]
    pub fn combine_friction(a: &Material, b: &Material) -> Real {
        a.friction_combine
            .combine(b.friction_combine, a.friction, b.friction)
    }

    /// Restitution of a pair of touching bodies of materials `a` and `b`.
    #[inline]
    pub fn combine_restitution(a: &Material, b: &Material) -> Real {
        a.restitution_combine
            .combine(b.restitution_combine, a.restitution, b.restitution)
    }
}
